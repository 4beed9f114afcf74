// window.rooflineLab against web/roofline-lab.d.ts: every member declared, every value it gives
// (before and after measuring, analysing, a bad input, a classroom set) fits its declared type
// with no undeclared key. And the page keeps the budgets: one call into the wasm module
// per keystroke and per link; the report the page holds is the one the CLI prints; the families
// it offers are the core's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { check, interfaceOf, parseDts } from '../lib/dts.mjs';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { browserAndServer, ROOT } from './browser.mjs';

const fixture = browserAndServer({ alone: true });
const dts = parseDts(readFileSync(join(ROOT, 'web', 'roofline-lab.d.ts'), 'utf8'));
const lab = interfaceOf(dts, 'RooflineLab');
let core;
before(async () => {
  core = await loadNodeCore();
});

/** Every member of window.rooflineLab called in the page, its value returned as data. */
const snapshot = (page) =>
  page.evaluate(async () => {
    const l = window.rooflineLab;
    const analyzed = l.analyze('module {\n}\n', 'empty.mlir');
    const ran = l.run(
      'func.func @main() -> tensor<2xf32> {\n  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n  %b = stablehlo.add %a, %a : tensor<2xf32>\n  return %b : tensor<2xf32>\n}\n',
      { name: 'two.mlir' },
    );
    return {
      readyIsPromise: l.ready instanceof Promise,
      analyzeIsPromise: analyzed instanceof Promise,
      runIsPromise: ran instanceof Promise,
      run: await ran,
      runView: l.runView(),
      writeView: l.writeView(),
      lessonChecks: l.lessonChecks(),
      trafficMeasurement: l.trafficMeasurement(),
      keys: Object.keys(l),
      state: l.state(),
      figureData: l.figureData(),
      chartSeries: l.chartSeries(),
      report: l.report(),
      measurements: l.measurements(),
      workers: l.workers(),
      error: l.error(),
      analyze: await analyzed,
      analysis: l.analysis(),
      analyzeView: l.analyzeView(),
      analyzeRows: l.analyzeRows(),
      analysisSeries: l.analysisSeries(),
      notebook: await l.notebook('x = 6 * 7\nprint(x)\n'),
      lower: l.lower(
        'import jax\nimport jax.numpy as jnp\ndef f(x):\n    return x * 2\njax.jit(f).lower(jnp.zeros(3))\n',
      ),
      analysisPointPixel: l.analysisPointPixel(0),
      analysisFusionPixel: l.analysisFusionPixel(0),
      classroom: l.classroom(),
      timings: l.timings(),
      coreCalls: l.coreCalls(),
      workers: l.workers(),
      gradebook: l.gradebook([
        { name: 'a.json', text: '{}' },
        {
          name: 'b.json',
          text: JSON.stringify({
            kind: 'roofline-lab classroom results',
            version: 2,
            seed: 'week3',
            student: 'Bo',
            count: 2,
            families: 'all',
            questions: [
              {
                exercise: 1,
                question: 'work',
                attempts: 2,
                hints_used: 1,
                solution_opened: true,
                history: [
                  { answer: '1', at: 't' },
                  { answer: '2', at: 't' },
                ],
              },
            ],
          }),
        },
      ]),
    };
  });

function fitsDeclared(values) {
  assert.ok(values.readyIsPromise);
  assert.ok(values.analyzeIsPromise);
  assert.ok(values.runIsPromise);
  assert.deepEqual(
    values.keys.sort(),
    [...Object.keys(lab.props), ...Object.keys(lab.methods)].sort(),
    'window.rooflineLab has exactly the declared members',
  );
  for (const [name, method] of Object.entries(lab.methods)) {
    if (name === 'setState') continue; // checked on its own
    const type =
      method.returns.kind === 'generic' && method.returns.name === 'Promise' ? method.returns.args[0] : method.returns;
    const problems = check(dts, values[name], type, `rooflineLab.${name}()`);
    assert.deepEqual(problems, [], problems.join('\n'));
  }
}

describe('window.rooflineLab as web/roofline-lab.d.ts declares it', () => {
  test('every value fits its type: at start, after analysing, measuring, a classroom link and a bad input', async () => {
    const { page, problems } = await fixture.open('index.html from file://', '#classroom&seed=week3&count=2');
    fitsDeclared(await snapshot(page));
    await page.locator('#analyze-examples button[data-example="mlp"]').click();
    await page.waitForFunction(
      () => window.rooflineLab.analysis()?.file === 'mlp.mlir' && !window.rooflineLab.analyzeView().pending,
      null,
      { timeout: 15000 },
    );
    await page.locator('#analyze-roof').selectOption('h100-sxm');
    await page.locator('#analyze-run').click();
    await page.waitForFunction(
      () => window.rooflineLab.runView().state === 'done' && window.rooflineLab.lessonChecks() !== null,
      null,
      { timeout: 60000 },
    );
    await page.locator('#measure-form input[name="samples"]').fill('2');
    await page.locator('#measure').click();
    await page.waitForFunction(() => window.rooflineLab.measurements() !== null, null, { timeout: 60000 });
    await page.locator('#traffic-measure').click();
    await page.waitForFunction(() => window.rooflineLab.trafficMeasurement() !== null, null, { timeout: 60000 });
    await page.locator('#show-measured-roof').check();
    await page.locator('input[name="m"]').fill('0');
    const values = await snapshot(page);
    fitsDeclared(values);
    assert.equal(values.error.input, 'm');
    assert.ok(values.analyzeRows.length > 0 && values.analysisPointPixel !== null);
    assert.ok(
      values.runView.rows.length + values.runView.fusions.length > 0 &&
        values.runView.fused &&
        values.run.file === 'two.mlir' &&
        values.lessonChecks.ir.passed,
    );
    assert.ok(values.chartSeries.some((s) => s.measured));
    assert.equal(values.trafficMeasurement.workloads.length, 2);
    const set = await page.evaluate(() =>
      window.rooflineLab.setState({ m: 64, factor: 4, showMeasuredPoint: true, colour: 'red' }),
    );
    assert.deepEqual(check(dts, set, lab.methods.setState.returns), []);
    assert.equal(set.error, 'unknown keys: colour');
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe("the page's budgets and its one source of truth", () => {
  for (const name of Object.keys(fixture.pages)) {
    test(`one call into the wasm module per keystroke and per link; the CLI's report; the core's families (${name})`, async () => {
      const { page, problems } = await fixture.open(name);
      const calls = () => page.evaluate(() => window.rooflineLab.coreCalls());
      let before = await calls();
      await page.locator('input[name="m"]').fill('64');
      let after = await calls();
      assert.equal(after.total - before.total, 1, 'a keystroke');
      assert.equal(after.by.lessonReport - (before.by.lessonReport ?? 0), 1);
      before = after;
      await page.evaluate(() => {
        location.hash = '#m=48&k=24&n=12&dtype=bf16&peak=50&bandwidth=25&factor=3&sizes=8,16,32,64,128';
      });
      await page.waitForFunction(() => window.rooflineLab.state().m === 48);
      after = await calls();
      assert.equal(after.total - before.total, 1, 'a link of 8 keys is one rebuild');
      assert.deepEqual(await page.evaluate(() => window.rooflineLab.state().sizes), [8, 16, 32, 64, 128]);
      // The page holds the report the CLI prints for the same inputs (the CLI's itemsize 2 picks bf16).
      const cli = spawnSync(
        process.execPath,
        [
          join(ROOT, 'scripts', 'lesson.mjs'),
          '--json',
          '--no-measure',
          '--m',
          '48',
          '--k',
          '24',
          '--n',
          '12',
          '--itemsize',
          '2',
          '--peak',
          '50',
          '--bandwidth',
          '25',
          '--traffic-factor',
          '3',
        ],
        { encoding: 'utf8' },
      );
      const { measurements_skipped: skipped, ...printed } = JSON.parse(cli.stdout);
      assert.ok(skipped);
      assert.deepEqual(await page.evaluate(() => window.rooflineLab.report()), printed);
      // The classroom's families are the core's, with its labels.
      const boxes = await page
        .locator('#cl-families label')
        .evaluateAll((ls) => ls.map((l) => [l.querySelector('input').value, l.textContent.trim()]));
      assert.deepEqual(
        boxes,
        core.exerciseFamilies().value.map((f) => [f.id, f.label]),
      );
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
