// Section 8's "Run in this browser" (issue 12) and the section's defects of issue 14 (items 1-4):
// dist/index.html from file:// and over http, and dist/roofline-lab.html alone. The lesson and
// the MLP examples run in the Worker; rooflineLab.run gives the object run.mjs --json prints; a
// corpus file's checks all pass; a tampered expected value fails with its index; an unsupported
// op is named with its line and the estimates stay; Cancel mid-run is calm and keeps the earlier
// results; the measured points are tagged as measurements; axe-core stays clean; Clear clears;
// a whole row selects (click or Enter).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { before, describe, test } from 'node:test';
import { join, resolve } from 'node:path';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { denseStablehlo } from '../../scripts/lib/dense_modules.mjs';
import { browserAndServer, npyFile, openPage, ROOT, waitReady } from './browser.mjs';
import { OPTIMIZED_HLO } from '../lib/optimized_hlo.mjs';

const CORPUS = process.env.ROOFLINE_CORPUS || resolve(ROOT, '..', 'shared', 'corpus');
const AXE = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');

const fixture = browserAndServer({ alone: true });
let core;
let examples;
before(async () => {
  core = await loadNodeCore();
  examples = Object.fromEntries(core.exampleModules().value.map((e) => [e.name, e.text]));
});

/** What `node scripts/run.mjs --json [--no-fuse] --inputs I [--seed S] FILE` prints for `text` in a file named `name` (fused unless fuse is false, as the page and rooflineLab.run). */
function cli(name, text, inputs, seed, { fuse = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'run-page-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  const args = [
    '--json',
    ...(fuse ? [] : ['--no-fuse']),
    '--inputs',
    inputs,
    ...(seed === undefined ? [] : ['--seed', String(seed)]),
    file,
  ];
  const out = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run.mjs'), ...args], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  return { ...JSON.parse(out.stdout)[0], file: name };
}

/** A run report without what a clock decides (times and repeats): the rest is deterministic. */
function untimed(r) {
  const clock = (o) => ({ ...o, seconds: 'timed', repeats: 'timed' });
  return { ...r, seconds: 'timed', ops_seconds: 'timed', ops: r.ops.map(clock), fusions: r.fusions.map(clock) };
}

// Two results, the second a tuple (a JAX module returning a pair lowers to this).
// 4096×4097 f32 (64 MiB and 16 KiB): past a 64 MiB cap by one row, well under the default.
const BIG = `func.func @main() -> tensor<4096x4097xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4096x4097xf32>
  %1 = stablehlo.add %0, %0 : tensor<4096x4097xf32>
  return %1 : tensor<4096x4097xf32>
}
`;

const TUPLE = `func.func @main() -> (tensor<2xf32>, tuple<tensor<i32>, tensor<3xf32>>) {
  %a = stablehlo.constant dense<[1.5, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<7> : tensor<i32>
  %c = stablehlo.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %t = stablehlo.tuple %b, %c : tuple<tensor<i32>, tensor<3xf32>>
  return %a, %t : tensor<2xf32>, tuple<tensor<i32>, tensor<3xf32>>
}
`;
const TAMPERED = `module @m {
  func.func public @main() -> tensor<3xi32> {
    %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    %b = stablehlo.add %a, %a : tensor<3xi32>
    %want = stablehlo.constant dense<[2, 5, 6]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%b, %want) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    return %b : tensor<3xi32>
  }
}
`;
const UNSUPPORTED =
  'func.func @main() -> tensor<2xf32> {\n  %a = stablehlo.constant dense<1.0> : tensor<2xf32>\n  %b = stablehlo.add %a, %a : tensor<2xf32>\n' +
  '  %c = "my.op"(%b) : (tensor<2xf32>) -> tensor<2xf32>\n  return %c : tensor<2xf32>\n}\n';
/** A while loop of `n` tanh steps on 4096 floats: long enough to cancel mid-run. */
const slow = (n) => `func.func @main() -> tensor<4096xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %n = stablehlo.constant dense<${n}> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %x0 = stablehlo.constant dense<1.0> : tensor<4096xf32>
  %r:2 = stablehlo.while(%i = %c0, %x = %x0) : tensor<i32>, tensor<4096xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i2 = stablehlo.add %i, %one : tensor<i32>
      %x2 = stablehlo.tanh %x : tensor<4096xf32>
      stablehlo.return %i2, %x2 : tensor<i32>, tensor<4096xf32>
    }
  return %r#1 : tensor<4096xf32>
}
`;

async function waitShown(page, file, timeout = 20000) {
  await page.waitForFunction(
    (f) => window.rooflineLab.analysis()?.file === f && !window.rooflineLab.analyzeView().pending,
    file,
    { timeout },
  );
}
async function showText(page, name, text) {
  await page.setInputFiles('#analyze-file', { name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await waitShown(page, name);
}
/** Presses Run and waits until the run is no longer running; gives rooflineLab.runView(). */
async function runShown(page, timeout = 60000) {
  await page.locator('#analyze-run').click();
  await page.waitForFunction(
    () =>
      window.rooflineLab.runView().state !== 'running' &&
      window.rooflineLab.runView().state !== 'none' &&
      window.rooflineLab.analyzeView().pending === null,
    null,
    { timeout },
  );
  return page.evaluate(() => window.rooflineLab.runView());
}
const summaryCell = (page, label) =>
  page.locator('#analyze-summary tr', { hasText: label }).first().locator('td').innerText();

for (const name of Object.keys(fixture.pages)) {
  describe(`section 8, run in this browser: ${name}`, () => {
    test('the lesson example runs: measured columns, points tagged as measurements, the total beside the lower bound', async () => {
      const { page, problems } = await fixture.open(name);
      await page.locator('#analyze-examples button[data-example="lesson"]').click();
      await waitShown(page, 'lesson.mlir');
      const yTitle = async () =>
        /Y axis: (.*)\.$/.exec(await page.locator('#analyze-roofline').getAttribute('aria-label'))?.[1];
      assert.equal(await yTitle(), 'ceiling under the roof (GFLOP/s)');
      await page.locator('#analyze-inputs').selectOption('arange');
      // Op by op: each op timed on its own (fused, the dot and its tanh run as one kOutput fusion).
      await page.locator('#analyze-fuse').selectOption('ops');
      const v = await runShown(page);
      assert.equal(v.state, 'done');
      assert.equal(v.status, 'passed');
      assert.equal(v.inputs, 'arange');
      assert.match(
        await page.locator('#analyze-run-status').innerText(),
        /^Ran lesson\.mlir at .+ \(arguments: arange\): passed — no checks in the text; \d+ ops timed, measured .+ s in all \(a measurement of this machine\)\.$/,
      );
      // Each timed op: its measured time and what it achieved under the chosen roof (the core's).
      const rows = await page.evaluate(() => window.rooflineLab.analyzeRows());
      const dot = v.rows.find((r) => r.op === 'stablehlo.dot_general');
      assert.ok(dot && dot.seconds > 0, JSON.stringify(v.rows));
      const row = rows.find((r) => r.index === dot.index);
      assert.ok(Math.abs(dot.gflops - row.flops / dot.seconds / 1e9) <= 1e-9 * dot.gflops);
      assert.ok(Math.abs(dot.ofRoof - dot.gflops / dot.ceiling) <= 1e-9 * dot.ofRoof);
      const cells = await page.locator(`#analyze-ops tbody tr[data-index="${dot.index}"] td.measured`).allInnerTexts();
      assert.equal(cells.length, 4);
      assert.ok(
        cells.every((c) => c !== '—'),
        cells.join(' | '),
      );
      // The measured points: tagged as measurements, one per measured op with flops, each linked to its estimate.
      const series = await page.evaluate(() => window.rooflineLab.analysisSeries());
      const measured = series.find((s) => s.role === 'measured');
      assert.match(measured.label, /measurement/);
      assert.ok(measured.indices.includes(dot.index));
      const point = measured.points[measured.indices.indexOf(dot.index)];
      assert.deepEqual(point, [row.intensity, dot.gflops]);
      const link = series.find((s) => s.role === 'link');
      assert.deepEqual(link.points.slice(0, 2), [
        [row.intensity, dot.ceiling],
        [row.intensity, dot.gflops],
      ]);
      assert.equal(
        await yTitle(),
        'GFLOP/s: ceiling under the roof (estimate), achieved (measurement)',
        'the axis names the measured triangles too',
      );
      assert.equal(
        await page.locator('#analyze-legend li[data-role="measured"]').getAttribute('data-dash'),
        'triangle',
      );
      // The summary: the measured total beside the lower bound, and the ratio.
      assert.ok(v.measured.seconds > 0);
      assert.equal(v.measured.bound_seconds, v.bound_seconds);
      assert.match(await summaryCell(page, 'measured time on this machine'), /^\d.*s$/);
      assert.match(
        await summaryCell(page, 'measured / lower bound'),
        /^[\d.e+-]+× the lower bound \(the program reaches [\d.e+-]+% of this roof\)$/,
      );
      assert.match(await page.locator('#analyze-for').innerText(), /^Results for lesson\.mlir, analysed at /);
      // rooflineLab.run: the object run.mjs --json prints, without changing the page.
      const before = await page.evaluate(() => window.rooflineLab.runView());
      const viaApi = await page.evaluate(
        (t) => window.rooflineLab.run(t, { inputs: 'arange', name: 'lesson.mlir' }),
        examples.lesson,
      );
      assert.deepEqual(untimed(viaApi), untimed(cli('lesson.mlir', examples.lesson, 'arange')));
      assert.deepEqual(Object.keys(viaApi), Object.keys(cli('lesson.mlir', examples.lesson, 'arange')));
      assert.deepEqual(await page.evaluate(() => window.rooflineLab.runView()), before);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the MLP example runs on seeded inputs, the seed shown', async () => {
      const { page, problems } = await fixture.open(name);
      await page.locator('#analyze-examples button[data-example="mlp"]').click();
      await waitShown(page, 'mlp.mlir');
      await page.locator('#analyze-seed').fill('7');
      await page.locator('#analyze-seed').dispatchEvent('change');
      const v = await runShown(page);
      assert.equal(v.status, 'passed');
      assert.equal(v.inputs, 'seeded (seed 7)');
      // Fused by default: the dot with its bias and ReLU is one kOutput fusion, timed as one.
      assert.equal(v.fused, true);
      assert.deepEqual(
        v.fusions.map((f) => f.kind),
        ['kOutput'],
      );
      assert.ok(v.fusions[0].seconds > 0 && v.fusions[0].ops.length >= 3);
      assert.match(
        await page.locator('#analyze-run-status').innerText(),
        /^Ran mlp\.mlir at .+ \(arguments: seeded \(seed 7\)\): passed/,
      );
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

// An elementwise chain (2·x + 1, tanh, ·y) and a dot with a tanh epilogue: two fusions.
const DENSE_RELU = `func.func public @main(%x: tensor<32x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<32x128xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<32x128xf32>
  %2 = stablehlo.add %0, %1 : tensor<32x128xf32>
  %3 = call @relu(%2) : (tensor<32x128xf32>) -> tensor<32x128xf32>
  return %3 : tensor<32x128xf32>
}
func.func private @relu(%x: tensor<32x128xf32>) -> tensor<32x128xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
  %m = stablehlo.maximum %x, %zb : tensor<32x128xf32>
  return %m : tensor<32x128xf32>
}
`;
const CHAIN = `func.func @main(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %two = stablehlo.constant dense<2.0> : tensor<64x64xf32>
  %one = stablehlo.constant dense<1.0> : tensor<64x64xf32>
  %a = stablehlo.multiply %two, %x : tensor<64x64xf32>
  %b = stablehlo.add %a, %one : tensor<64x64xf32>
  %c = stablehlo.tanh %b : tensor<64x64xf32>
  %d = stablehlo.multiply %c, %y : tensor<64x64xf32>
  %e = stablehlo.dot_general %d, %w, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %f = stablehlo.tanh %e : tensor<64x64xf32>
  return %d, %f : tensor<64x64xf32>, tensor<64x64xf32>
}
`;

for (const name of Object.keys(fixture.pages)) {
  describe(`section 8, a fused run: one measured point per fusion (${name})`, () => {
    test('fused by default: a point per fusion, linked to its ops; op by op: a point per op; the same values both ways', async () => {
      const { page, problems } = await fixture.open(name);
      await showText(page, 'chain.mlir', CHAIN);
      assert.equal(await page.locator('#analyze-fuse').inputValue(), 'fused', 'fused is the default');
      assert.doesNotMatch(await page.evaluate(() => location.hash), /fuse=/, 'the default is not in the link');
      assert.equal(await page.locator('#analyze-fuse option:checked').innerText(), 'as a compiler would fuse it');
      const fused = await runShown(page);
      assert.equal(fused.status, 'passed');
      assert.equal(fused.fused, true);
      assert.equal(fused.choice.fuse, true);
      assert.equal(fused.dot_epilogues, true);
      // The summary's bound for a fused run is the fused bytes' (the core's), beside the unfused one, each named.
      assert.ok(
        fused.fused_bound_seconds > 0 && fused.fused_bound_seconds <= fused.bound_seconds,
        `${fused.fused_bound_seconds} vs ${fused.bound_seconds}`,
      );
      assert.equal(fused.measured_fused.bound_seconds, fused.fused_bound_seconds);
      const summary = await page.locator('#analyze-summary tbody').innerText();
      assert.match(
        summary,
        /lower bound on time under this roof, from the fused bytes \([^)]*bytes at the run's fusion boundaries\) estimate/,
      );
      assert.match(summary, /lower bound on time under this roof, from the unfused bytes estimate/);
      assert.match(summary, /measured \/ fused lower bound\s+[\d.]+× the fused lower bound/);
      assert.equal(await page.locator('#analyze-summary td.fused-bound').count(), 1);
      // As many fusions as the core's fusion pass makes (the page groups nothing itself).
      const count = core.fuseText(CHAIN).value.modules[0].fusions.length;
      assert.equal(count, 2);
      assert.equal(fused.fusions.length, count);
      assert.deepEqual(
        fused.fusions.map((f) => f.kind),
        ['kLoop', 'kOutput'],
      );
      assert.ok(fused.fusions.every((f) => f.seconds > 0 && f.gflops > 0 && f.within === null));
      assert.match(
        await page.locator('#analyze-run-status').innerText(),
        /fused as a compiler would fuse it: 2 fusions and \d+ ops alone timed, measured .+ s in all/,
      );
      // The chart: each fusion's estimate and its measurement, at its own intensity; no per-op measurement for a fused op.
      let series = await page.evaluate(() => window.rooflineLab.analysisSeries());
      const estimated = series.find((x) => x.role === 'fusion');
      const measuredFusions = series.find((x) => x.role === 'measured fusion');
      assert.deepEqual(measuredFusions.fusions, [0, 1]);
      assert.deepEqual(estimated.fusions, [0, 1]);
      assert.match(measuredFusions.label, /measurement/);
      for (const f of fused.fusions) {
        assert.deepEqual(measuredFusions.points[f.fusion], [f.intensity, f.gflops]);
        assert.deepEqual(estimated.points[f.fusion], [f.intensity, f.ceiling]);
      }
      const fusedOps = new Set(fused.fusions.flatMap((f) => f.indices));
      assert.ok(!(series.find((x) => x.role === 'measured')?.indices ?? []).some((i) => fusedOps.has(i)));
      // The table of fusions: kind and ops by line; each fused op's row names its fusion.
      const rowsText = await page.locator('#analyze-fusions tbody tr').allInnerTexts();
      assert.equal(rowsText.length, count);
      assert.match(rowsText[1], /fusion\.1\s+kOutput\s+line 8 stablehlo\.dot_general, line 9 stablehlo\.tanh/);
      assert.match(
        rowsText[0],
        /kLoop\s+line 4 stablehlo\.multiply, line 5 stablehlo\.add, line 6 stablehlo\.tanh, line 7 stablehlo\.multiply/,
      );
      const dotRow = fused.fusions[1].indices[0];
      assert.equal(
        await page.locator(`#analyze-ops tbody tr[data-index="${dotRow}"] td.fused-in`).innerText(),
        'ran in fusion.1 (kOutput)',
      );
      // Selecting a fusion's row marks its ops' rows and selects their lines in the text.
      await page.locator('#analyze-fusions tbody tr[data-fusion="0"]').click();
      assert.equal(await page.evaluate(() => window.rooflineLab.analyzeView().selected_fusion), 0);
      const marked = await page
        .locator('#analyze-ops tbody tr.in-fusion')
        .evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.index)));
      assert.deepEqual(
        marked.sort((p, q) => p - q),
        [...fused.fusions[0].indices].sort((p, q) => p - q),
      );
      const selectedText = await page.evaluate(() => {
        const a = document.getElementById('analyze-text');
        return a.value.slice(a.selectionStart, a.selectionEnd);
      });
      assert.match(
        selectedText,
        /^%a = stablehlo\.multiply[\s\S]*%d = stablehlo\.multiply %c, %y : tensor<64x64xf32>$/,
      );
      series = await page.evaluate(() => window.rooflineLab.analysisSeries());
      assert.ok(series.some((x) => x.role === 'selected fusion'));
      // Selecting a fusion's point on the chart does the same for the other fusion.
      await page.locator('#analyze-roofline').scrollIntoViewIfNeeded();
      const box = await page.locator('#analyze-roofline').boundingBox();
      const at = await page.evaluate(() => window.rooflineLab.analysisFusionPixel(1, true));
      await page.mouse.click(box.x + at.x, box.y + at.y);
      await page.waitForFunction(() => window.rooflineLab.analyzeView().selected_fusion === 1);
      const marked1 = await page
        .locator('#analyze-ops tbody tr.in-fusion')
        .evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.index)));
      assert.deepEqual(
        marked1.sort((p, q) => p - q),
        [...fused.fusions[1].indices].sort((p, q) => p - q),
      );
      assert.equal(await page.locator('#analyze-fusions tbody tr.selected').getAttribute('data-fusion'), '1');

      // Op by op: a measured point per op, no fusions; the same values, bit for bit.
      await page.locator('#analyze-fuse').selectOption('ops');
      const plain = await runShown(page);
      assert.equal(plain.status, 'passed');
      assert.equal(plain.fused, false);
      assert.deepEqual(plain.fusions, []);
      assert.equal(plain.fused_bound_seconds, null);
      assert.match(await page.evaluate(() => location.hash), /&fuse=ops$/, 'op by op is in the link');
      assert.doesNotMatch(await page.locator('#analyze-summary tbody').innerText(), /fused bytes/);
      // A link sets the choice; a bad value is said in the page's notices, and the run fuses.
      await page.evaluate(() => {
        location.hash = '#m=32&fuse=bogus';
      });
      await page.waitForFunction(() => document.getElementById('analyze-fuse').value === 'fused');
      assert.match(
        await page.locator('#notices').innerText(),
        /ignored fuse="bogus" in the link: fuse is one of fused, xla-cpu, ops/,
      );
      await page.evaluate(() => {
        location.hash = '#m=32&fuse=ops';
      });
      await page.waitForFunction(() => document.getElementById('analyze-fuse').value === 'ops');
      series = await page.evaluate(() => window.rooflineLab.analysisSeries());
      assert.ok(!series.some((x) => x.role === 'measured fusion' || x.role === 'fusion'));
      const perOp = series.find((x) => x.role === 'measured');
      const withFlops = (await page.evaluate(() => window.rooflineLab.analyzeRows())).filter(
        (r) => r.flops > 0 && r.bytes > 0,
      );
      assert.equal(perOp.indices.length, withFlops.length);
      assert.equal(
        withFlops.length,
        4,
        'multiply, add, multiply, dot_general (tanh counts transcendentals, not flops)',
      );
      assert.equal(await page.locator('#analyze-fusions-box').isVisible(), false);
      assert.deepEqual(
        plain.results.map((r) => r.bits),
        fused.results.map((r) => r.bits),
      );
      assert.deepEqual(
        plain.results.map((r) => r.checksum),
        fused.results.map((r) => r.checksum),
      );
      assert.equal(plain.results.length, 2);
      // As XLA's CPU backend fuses it: the dot and its tanh run apart, the elementwise chain stays
      // one loop fusion; the same values; the choice in the link and in the fusions' note.
      await page.locator('#analyze-fuse').selectOption('xla-cpu');
      const cpu = await runShown(page);
      assert.equal(cpu.status, 'passed');
      assert.equal(cpu.fused, true);
      assert.equal(cpu.dot_epilogues, false);
      assert.equal(cpu.choice.dotEpilogues, false);
      assert.deepEqual(
        cpu.fusions.map((f) => f.kind),
        ['kLoop'],
      );
      assert.deepEqual(
        cpu.results.map((x) => x.bits),
        plain.results.map((x) => x.bits),
      );
      assert.match(await page.evaluate(() => location.hash), /&fuse=xla-cpu$/, 'the rule is in the link');
      assert.match(await page.locator('#analyze-fusions-note').innerText(), /as XLA's CPU backend would/);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

const SQUARE =
  'func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %y = stablehlo.multiply %x, %x : tensor<4xf32>\n  return %y : tensor<4xf32>\n}\n';

describe("section 8, run on the reader's .npy files, results downloaded as .npy", () => {
  for (const name of ['index.html over http://127.0.0.1', 'roofline-lab.html alone, from file://']) {
    test(`${name}: a chosen .npy is the argument, a wrong one is named, the result downloads as NumPy reads it`, async () => {
      const { page, problems } = await fixture.open(name);
      await showText(page, 'square.mlir', SQUARE);
      await page.locator('#analyze-inputs').selectOption('files');
      assert.equal(await page.locator('#analyze-args').isVisible(), true);
      assert.equal(await page.locator('#analyze-seed').isDisabled(), true);
      await page.setInputFiles('#analyze-args', {
        name: 'x.npy',
        mimeType: 'application/octet-stream',
        buffer: npyFile('<f4', [4], new Float32Array([1, 2, 3, -4])),
      });
      await page.waitForFunction(() => window.rooflineLab.runView().choice.files?.length === 1);
      let v = await runShown(page);
      assert.equal(v.status, 'passed');
      assert.equal(v.inputs, 'x.npy');
      assert.match(await page.locator('#analyze-run-status').innerText(), /\(arguments: x\.npy\): passed/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('#analyze-run-files a', { hasText: 'result_0.npy' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'result_0.npy');
      const bytes = readFileSync(await download.path());
      const headerLength = bytes[8] | (bytes[9] << 8);
      assert.equal(
        bytes
          .subarray(10, 10 + headerLength)
          .toString('latin1')
          .trim(),
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }",
      );
      const data = bytes.subarray(10 + headerLength);
      assert.deepEqual(
        [...new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength))],
        [1, 4, 9, 16],
      );

      // A file of another shape: the core's message names the argument, what it must be and what the file holds.
      await page.setInputFiles('#analyze-args', {
        name: 'five.npy',
        mimeType: 'application/octet-stream',
        buffer: npyFile('<f4', [5], new Float32Array(5)),
      });
      await page.waitForFunction(() => window.rooflineLab.runView().choice.files?.[0]?.name === 'five.npy');
      v = await runShown(page);
      assert.equal(v.status, 'error');
      assert.match(
        await page.locator('#analyze-run-notrun').innerText(),
        /argument 1 of main \(%x\) must be tensor<4xf32> = float32 \(4,\), got five\.npy: float32 \(5,\)/,
      );
      assert.equal(await page.locator('#analyze-run-files').isVisible(), false, 'no results, no downloads');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});

describe('section 8, run in this browser: checks, what cannot run, Cancel, Clear, rows, axe', () => {
  const name = 'index.html over http://127.0.0.1';

  test("with this machine measured (section 4), a run draws its measured roofs beside the chosen one; a seeded run by the API is the CLI's", async () => {
    const { page, problems } = await fixture.open(name);
    await page.locator('#measure-form input[name="samples"]').fill('3');
    await page.locator('#measure-form input[name="workers"]').fill('2');
    await page.locator('#measure').click();
    await page.waitForFunction(() => window.rooflineLab.measurements() !== null, null, { timeout: 120000 });
    await page.locator('#analyze-examples button[data-example="lesson"]').click();
    await waitShown(page, 'lesson.mlir');
    const roofs = async () =>
      (await page.evaluate(() => window.rooflineLab.analysisSeries()))
        .filter((x) => x.role === 'roof' || x.role === 'other roof')
        .map((x) => `${x.role}: ${x.label}`);
    // Estimates alone: the chosen roof only.
    const before = await roofs();
    assert.equal(before.length, 1, before.join(' | '));
    assert.match(before[0], /^roof: roof: /);
    // With a run on show, this machine's roofs (1 core and the 2 Workers) beside it.
    const v = await runShown(page);
    assert.equal(v.state, 'done');
    const after = await roofs();
    assert.equal(after.length, 3, after.join(' | '));
    assert.equal(after[0], before[0]);
    assert.match(after[1], /^other roof: this machine, 1 core, measured: [\d.]+ GFLOP\/s, [\d.]+ GB\/s/);
    assert.match(after[2], /^other roof: this machine, all cores \(2\), measured: [\d.]+ GFLOP\/s, [\d.]+ GB\/s/);
    // rooflineLab.run on seeded inputs, seed 7: the CLI's object for the same seed.
    const viaApi = await page.evaluate(
      (t) => window.rooflineLab.run(t, { inputs: 'seeded', seed: 7, name: 'mlp.mlir' }),
      examples.mlp,
    );
    assert.equal(viaApi.inputs, 'seeded (seed 7)');
    assert.deepEqual(untimed(viaApi), untimed(cli('mlp.mlir', examples.mlp, 'seeded', 7)));
    assert.notDeepEqual(
      untimed(viaApi),
      untimed(cli('mlp.mlir', examples.mlp, 'seeded', 8)),
      'another seed, other values',
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("the run's progress bar counts the entry's ops as they run, then hides", async () => {
    // A constant and 300 tanh of 2^20 floats, each timed: seconds of work, told op by op.
    let body = '  %x0 = stablehlo.constant dense<0.5> : tensor<1048576xf32>\n';
    for (let i = 1; i <= 300; i++) body += `  %x${i} = stablehlo.tanh %x${i - 1} : tensor<1048576xf32>\n`;
    const text = `func.func @main() -> tensor<1048576xf32> {\n${body}  return %x300 : tensor<1048576xf32>\n}\n`;
    const { page, problems } = await fixture.open(name);
    await showText(page, 'chain.mlir', text);
    await page.locator('#analyze-fuse').selectOption('ops'); // fused, the 300 tanh are one loop
    await page.locator('#analyze-run').click();
    // Somewhere between the first op and the last, the bar says how far the run is.
    const seen = await page
      .waitForFunction(
        () => {
          const bar = document.getElementById('analyze-run-progress');
          return (
            !bar.hidden &&
            bar.hasAttribute('value') &&
            bar.value > 0 &&
            bar.value < bar.max && { value: bar.value, max: bar.max, text: bar.getAttribute('aria-valuetext') }
          );
        },
        null,
        { timeout: 60000, polling: 50 },
      )
      .then((h) => h.jsonValue());
    assert.equal(seen.max, 301);
    assert.equal(seen.text, `${seen.value} of 301 ops run`);
    // Beside the bar: the time gone so far and the limit, as people read them (issue 22, item 8).
    const elapsed = await page
      .waitForFunction(
        () => {
          const e = document.getElementById('analyze-run-elapsed');
          return !e.hidden && !e.textContent.startsWith('0 s') && e.textContent;
        },
        null,
        { timeout: 60000, polling: 50 },
      )
      .then((h) => h.jsonValue());
    // At most 3 significant digits and no exponent (the first reading may be a fraction of a ms).
    assert.match(elapsed, /^(0\.0*[1-9]\d{0,2}|[1-9]\d?(\.\d{1,2})?|\d{3,}) s of at most 60 s$/);
    await page.waitForFunction(() => window.rooflineLab.runView().state === 'done', null, { timeout: 120000 });
    assert.equal(await page.locator('#analyze-run-progress').isHidden(), true);
    assert.equal(await page.locator('#analyze-run-elapsed').isHidden(), true);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a corpus file with checks shows all checks passed', async (t) => {
    const file = join(CORPUS, 'stablehlo-interpret', 'acos_float32_20_20.mlir');
    if (!existsSync(file)) {
      t.skip(`corpus absent: ${file} (set ROOFLINE_CORPUS)`);
      return;
    }
    const { page, problems } = await fixture.open(name);
    await page.setInputFiles('#analyze-file', file);
    await waitShown(page, 'acos_float32_20_20.mlir');
    const v = await runShown(page);
    assert.equal(v.status, 'passed');
    assert.ok(v.checks.length >= 1 && v.checks.every((c) => c.passed), JSON.stringify(v.checks));
    assert.equal(await page.locator('#analyze-checks li.passed').count(), v.checks.length);
    assert.equal(await page.locator('#analyze-checks li.failed').count(), 0);
    assert.match(
      await page.locator('#analyze-run-status').innerText(),
      new RegExp(`passed — ${v.checks.length} of ${v.checks.length} checks passed`),
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("a tuple result: each element's type, checksum and first values under it, as run.mjs lists them (issue 22 item 14)", async () => {
    const { page, problems } = await fixture.open(name);
    await showText(page, 'tuple.mlir', TUPLE);
    const v = await runShown(page);
    assert.equal(v.status, 'passed');
    assert.equal(await page.locator('#analyze-run-results').isVisible(), true);
    const lines = await page.locator('#analyze-run-result-list li').allInnerTexts();
    // innerText of an item holds its nested items too: the first line of each is its own.
    assert.deepEqual(
      lines.map((l) => l.split('\n')[0]),
      [
        'result 0 tensor<2xf32>: checksum 3.5, first values 1.5, 2',
        'result 1 tuple<tensor<i32>, tensor<3xf32>>: checksum 7.600000016391277, tuple of 2',
        '[1][0] tensor<i32>: checksum 7, first values 7',
        '[1][1] tensor<3xf32>: checksum 0.6000000163912773, first values 0.1, 0.2, 0.3',
      ],
    );
    assert.match(
      await page.locator('#analyze-run-memory').innerText(),
      /^Memory: the live tensors peaked at \d+ bytes \(measured\); by its IR the program's values need at most \d+ bytes \(an estimate/,
    );
    // The CLI's JSON for the same file: the same types, checksums and values.
    const r = cli('tuple.mlir', TUPLE, 'seeded');
    assert.deepEqual(
      [r.results[0], r.results[1], ...r.results[1].elements].map((x) => [x.shape, x.checksum]),
      [
        ['tensor<2xf32>', 3.5],
        ['tuple<tensor<i32>, tensor<3xf32>>', 7.600000016391277],
        ['tensor<i32>', 7],
        ['tensor<3xf32>', 0.6000000163912773],
      ],
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("the memory choice caps a run's tensors: past it, the error names the cap and the IR's need (issue 22 item 15)", async () => {
    const { page, problems } = await fixture.open(name);
    await showText(page, 'big.mlir', BIG);
    assert.equal(await page.locator('#analyze-memory').inputValue(), '', "the default: what the core's heap can give");
    await page.locator('#analyze-memory').selectOption({ label: '64 MiB' });
    let v = await runShown(page);
    assert.equal(v.choice.memoryCap, 64 * 2 ** 20);
    assert.equal(v.status, 'error');
    const status = await page.locator('#analyze-run-notrun').innerText();
    assert.match(status, /needs 67125248 bytes for a result/);
    assert.match(status, /memory cap of 67108864 bytes of live tensors/);
    assert.match(status, /by its IR the program's values need up to 134250496 bytes/);
    assert.equal(await page.locator('#analyze-run-results').isVisible(), false);
    // The text around the op that stopped, a caret under its column (4:3).
    const around = (await page.locator('#analyze-run-error-excerpt').innerText()).split('\n');
    assert.equal(await page.locator('#analyze-run-error-excerpt mark').innerText(), BIG.split('\n')[3]);
    assert.equal(around[around.indexOf(`     4 | ${BIG.split('\n')[3]}`) + 1], `${' '.repeat(9)}  ^`);
    // The same program under the default cap runs, and says which cap it ran under.
    await page.locator('#analyze-memory').selectOption('');
    v = await runShown(page);
    assert.equal(v.choice.memoryCap, null);
    assert.equal(v.status, 'passed');
    assert.equal(
      await page.locator('#analyze-run-error-excerpt').isVisible(),
      false,
      'a run that passed has no error to show',
    );
    assert.match(
      await page.locator('#analyze-run-memory').innerText(),
      /need at most 128 MiB \(an estimate, ops' scratch not counted\); its cap: as much as this tab's core could still take\.$/,
    );
    // 256 MiB is enough: the memory line names the choice.
    await page.locator('#analyze-memory').selectOption({ label: '256 MiB' });
    v = await runShown(page);
    assert.equal(v.status, 'passed');
    assert.match(await page.locator('#analyze-run-memory').innerText(), /its cap: 256 MiB \(the choice above\)\.$/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a tampered expected value shows a failed check with its index and line', async () => {
    const { page, problems } = await fixture.open(name);
    await showText(page, 'tampered.mlir', TAMPERED);
    const v = await runShown(page);
    assert.equal(v.status, 'failed');
    const failed = page.locator('#analyze-checks li.failed');
    assert.equal(await failed.count(), 1);
    assert.equal(
      await failed.innerText(),
      'FAILED line 6: expect_eq — 1 of 3 elements differ; first at [1]: got 4, expected 5, exact equality required; largest distance 1',
    );
    assert.match(await page.locator('#analyze-run-status').innerText(), /: FAILED — 0 of 1 checks passed/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("optimized HLO runs: XLA's own fusion op is one measured point beside its estimate, and the page's run is run.mjs's", async () => {
    const { page, problems } = await fixture.open(name);
    await showText(page, 'optimized.hlo', OPTIMIZED_HLO);
    await page.locator('#analyze-inputs').selectOption('arange');
    const v = await runShown(page);
    assert.equal(v.status, 'passed');
    const fusion = v.rows.find((r) => r.op === 'fusion');
    assert.ok(fusion && fusion.seconds > 0, JSON.stringify(v.rows));
    const row = (await page.evaluate(() => window.rooflineLab.analyzeRows())).find((r) => r.index === fusion.index);
    assert.equal(row.flops, 64 * 32); // the fused computation's add, counted as XLA counts a fusion (estimate)
    const measured = (await page.evaluate(() => window.rooflineLab.analysisSeries())).find(
      (s) => s.role === 'measured',
    );
    assert.ok(measured.indices.includes(fusion.index));
    assert.deepEqual(measured.points[measured.indices.indexOf(fusion.index)], [row.intensity, fusion.gflops]);
    const viaApi = await page.evaluate(
      (t) => window.rooflineLab.run(t, { inputs: 'arange', name: 'optimized.hlo' }),
      OPTIMIZED_HLO,
    );
    assert.deepEqual(untimed(viaApi), untimed(cli('optimized.hlo', OPTIMIZED_HLO, 'arange')));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("a fused run whose fused bytes move the bound names each lower bound's bound", async () => {
    // A dense layer, relu(x @ w + b), 32x64 @ 64x128: 532,480 flops; unfused 189,956 bytes (memory
    // bound under the lesson's roof, 100 GFLOP/s and 20 GB/s: 9.50 µs against 5.32 µs); fused
    // 57,856 bytes (2.89 µs: compute bound), relu's @relu inlined into the dot's fusion.
    const { page, problems } = await fixture.open(name);
    await showText(page, 'dense.mlir', DENSE_RELU);
    assert.equal(await summaryCell(page, 'bound by'), 'memory');
    const v = await runShown(page);
    assert.equal(v.status, 'passed');
    assert.equal(v.fused, true);
    assert.equal(await summaryCell(page, 'bound by'), 'memory from the unfused bytes; compute from the fused bytes');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('op by op, a reshape run as a view says so instead of a share of the roof over 100%', async () => {
    const { page, problems } = await fixture.open(name);
    await showText(
      page,
      'view.mlir',
      `func.func @main(%x: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %0 = stablehlo.add %x, %x : tensor<64x96xf32>
  %1 = stablehlo.reshape %0 : (tensor<64x96xf32>) -> tensor<96x64xf32>
  %2 = stablehlo.add %1, %1 : tensor<96x64xf32>
  return %2 : tensor<96x64xf32>
}
`,
    );
    await page.locator('#analyze-inputs').selectOption('seeded');
    await page.locator('#analyze-fuse').selectOption('ops');
    const v = await runShown(page);
    assert.equal(v.status, 'passed');
    const reshape = v.rows.find((r) => r.op === 'stablehlo.reshape');
    assert.equal(reshape.view, true);
    assert.equal(reshape.ofRoof, null);
    assert.ok(v.rows.filter((r) => r.op === 'stablehlo.add').every((r) => !r.view && r.ofRoof > 0));
    const row = page.locator('#analyze-ops tbody tr', { hasText: 'stablehlo.reshape' }).first();
    const cell = row.locator('td', { hasText: 'a view: no data moved' });
    assert.equal(await cell.count(), 1);
    assert.match(await cell.getAttribute('title'), /moved none of the bytes the cost analysis counts/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('an unsupported op is named with its line; nothing runs and the estimates stay', async () => {
    const { page, problems } = await fixture.open(name);
    await showText(page, 'odd.mlir', UNSUPPORTED);
    const flops = await summaryCell(page, 'flops');
    const v = await runShown(page);
    assert.equal(v.status, 'not_run');
    assert.deepEqual(
      v.unsupported.map((u) => [u.op, u.line]),
      [['my.op', 4]],
    );
    const message = await page.locator('#analyze-run-notrun').innerText();
    assert.match(
      message,
      /^Not run: my\.op at line 4 \(.+\)\. Nothing was run or guessed; the estimates above stay\.$/,
    );
    assert.equal(await summaryCell(page, 'flops'), flops);
    assert.match(await summaryCell(page, 'measured time on this machine'), /^not run/);
    assert.ok((await page.locator('#analyze-ops tbody tr').count()) > 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('Cancel mid-run is a calm state of its own and keeps the earlier results', async () => {
    const { page, problems } = await fixture.open(name);
    await showText(page, 'slow.mlir', slow(3000));
    const first = await runShown(page);
    assert.equal(first.status, 'passed');
    const rowsBefore = await page.evaluate(() => window.rooflineLab.analyzeRows());
    await page.locator('#analyze-run').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.rooflineLab.runView().state === 'running');
    assert.equal(
      await page.evaluate(() => document.activeElement.id),
      'analyze-run-cancel',
      'focus moves to Cancel, not to <body>',
    );
    await page.keyboard.press('Enter'); // Cancel, from the keyboard
    await page.waitForFunction(() => window.rooflineLab.runView().state === 'cancelled');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'analyze-run', 'and back to Run');
    const after = await page.evaluate(() => window.rooflineLab.runView());
    assert.equal(after.error, null);
    assert.equal(after.status, 'passed', 'the earlier report is kept');
    assert.deepEqual(after.rows, first.rows);
    assert.equal(
      await page.locator('#analyze-run-status').innerText(),
      "Run cancelled. The earlier run's results are kept below.",
    );
    assert.equal(await page.locator('#analyze-run-status').getAttribute('data-state'), 'cancelled');
    assert.equal(await page.locator('#analyze-error').isVisible(), false, 'not reported as a failure');
    assert.deepEqual(await page.evaluate(() => window.rooflineLab.analyzeRows()), rowsBefore);
    // The pool replaced the ended Worker: the next run works.
    const again = await runShown(page);
    assert.equal(again.status, 'passed');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('Cancel of an analysis is calm too (issue 14 item 3), and Clear clears the results, the status and the file name (item 1)', async () => {
    const { page, problems } = await fixture.open(name);
    await page.locator('#analyze-examples button[data-example="mlp"]').click();
    await waitShown(page, 'mlp.mlir');
    await runShown(page);
    // A big text, cancelled while the Worker analyses it.
    await page.setInputFiles('#analyze-file', {
      name: 'big.mlir',
      mimeType: 'text/plain',
      buffer: Buffer.from(denseStablehlo(4e6)),
    });
    await page.waitForFunction(() => window.rooflineLab.analyzeView().pending !== null);
    await page.locator('#analyze-cancel').click();
    await page.waitForFunction(() => window.rooflineLab.analyzeView().pending === null);
    assert.deepEqual(await page.evaluate(() => window.rooflineLab.analyzeView().errors), []);
    assert.equal(
      await page.locator('#analyze-status').innerText(),
      'Analysis cancelled. The results below are still those of mlp.mlir.',
    );
    assert.equal(await page.locator('#analyze-error').isVisible(), false);
    assert.equal(await page.evaluate(() => window.rooflineLab.analysis().file), 'mlp.mlir');
    // Clear: no results, no old status, no old file name.
    await page.setInputFiles('#analyze-file', {
      name: 'tampered.mlir',
      mimeType: 'text/plain',
      buffer: Buffer.from(TAMPERED),
    });
    await waitShown(page, 'tampered.mlir');
    await page.locator('#analyze-clear').click();
    assert.equal(await page.locator('#analyze-results').isVisible(), false);
    assert.equal(await page.evaluate(() => window.rooflineLab.analysis()), null);
    assert.equal(await page.locator('#analyze-status').innerText(), 'Cleared: paste, drop or open a program.');
    assert.equal(await page.locator('#analyze-file').inputValue(), '');
    assert.equal(await page.locator('#analyze-text').inputValue(), '');
    assert.equal((await page.evaluate(() => window.rooflineLab.runView())).state, 'none');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the whole row selects: a click on its op or shape cell, and Enter on a focused row (issue 14 item 4)', async () => {
    const { page, problems } = await fixture.open(name);
    await page.locator('#analyze-examples button[data-example="attention"]').click();
    await waitShown(page, 'attention.mlir');
    const rows = await page.evaluate(() => window.rooflineLab.analyzeRows());
    await page.locator(`#analyze-ops tbody tr[data-index="${rows[2].index}"] td.shape`).click();
    assert.equal(await page.evaluate(() => window.rooflineLab.analyzeView().selected), rows[2].index);
    await page.locator(`#analyze-ops tbody tr[data-index="${rows[1].index}"] td:nth-child(2)`).click();
    assert.equal(await page.evaluate(() => window.rooflineLab.analyzeView().selected), rows[1].index);
    await page.locator(`#analyze-ops tbody tr[data-index="${rows[3].index}"]`).focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => window.rooflineLab.analyzeView().selected), rows[3].index);
    assert.equal(
      await page.locator('#analyze-ops tbody tr.selected').getAttribute('data-index'),
      String(rows[3].index),
    );
    assert.equal(
      await page.evaluate(() => document.activeElement.closest('tr')?.dataset.index),
      String(rows[3].index),
      'focus stays on the row',
    );
    await page.keyboard.press('ArrowDown'); // nothing else is bound to rows
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core finds no serious or critical violation with a run, a failed check and a not-run message (${colorScheme})`, async (t) => {
      const context = await fixture.browser.newContext({ bypassCSP: true, colorScheme });
      const { page, problems } = await openPage(fixture.browser, fixture.pages[name]().url, { context });
      await waitReady(page);
      await showText(page, 'tampered.mlir', TAMPERED);
      await runShown(page);
      await page.addScriptTag({ path: AXE });
      const check = async () => {
        const result = await page.evaluate(() =>
          window.axe.run(document.getElementById('analyze'), { resultTypes: ['violations'] }),
        );
        const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        const minor = result.violations.filter((v) => !bad.includes(v));
        if (minor.length) t.diagnostic(`minor: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}`);
        assert.deepEqual(
          bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
        );
      };
      await check();
      await page.locator('#analyze-examples button[data-example="lesson"]').click();
      await waitShown(page, 'lesson.mlir');
      await runShown(page);
      await check();
      await showText(page, 'odd.mlir', UNSUPPORTED);
      await runShown(page);
      await check();
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test("at 1280 px the run's per-op and fusion tables show every column without scrolling; narrower, line and op stay in view as the table scrolls", async () => {
    const context = await fixture.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await openPage(fixture.browser, fixture.pages[name]().url, { context });
    await waitReady(page);
    await page.locator('#analyze-examples button[data-example="lesson"]').click();
    await waitShown(page, 'lesson.mlir');
    assert.equal((await runShown(page)).state, 'done');
    const fits = () =>
      page.evaluate(() =>
        ['#analyze-ops', '#analyze-fusions'].map((id) => {
          const wrap = document.querySelector(id).closest('.table-wrap');
          const r = wrap.getBoundingClientRect();
          return { id, client: wrap.clientWidth, scroll: wrap.scrollWidth, left: r.left, right: r.right };
        }),
      );
    for (const t of await fits()) {
      assert.ok(t.scroll <= t.client, `${t.id}: ${t.scroll} px of columns in ${t.client} px`);
      assert.ok(t.left >= 0 && t.right <= 1280, `${t.id} spans ${t.left}..${t.right} px`);
    }
    const page1 = await page.evaluate(() => [document.scrollingElement.scrollWidth, window.innerWidth]);
    assert.equal(page1[0], page1[1], 'the page itself does not scroll sideways');
    // At 1024 px the per-op table scrolls; scrolled to its end, the line and op cells are still where they were.
    await page.setViewportSize({ width: 1024, height: 900 });
    const cells = () =>
      page.evaluate(() => {
        const row = document.querySelector('#analyze-ops tbody tr');
        return [0, 1].map((i) => Math.round(row.children[i].getBoundingClientRect().left));
      });
    const start = await cells();
    const scrolled = await page.evaluate(() => {
      const wrap = document.querySelector('#analyze-ops').closest('.table-wrap');
      wrap.scrollLeft = wrap.scrollWidth;
      return wrap.scrollLeft;
    });
    assert.ok(scrolled > 100, `the table scrolled ${scrolled} px at 1024 px`);
    // (They may shift by the table's left edge, which scrolls away: 4 px at most.)
    const end = await cells();
    assert.ok(
      end.every((x, i) => Math.abs(x - start[i]) <= 4),
      `line and op moved from ${start} to ${end} px`,
    );
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('at 390 px with every roof drawn, the plot keeps its height, the legend wraps unclipped, each roof its own colour or dash (issue 14 item 5)', async () => {
    const context = await fixture.browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page, problems } = await openPage(fixture.browser, fixture.pages[name]().url, { context });
    await waitReady(page);
    await page.locator('#analyze-examples button[data-example="attention"]').click();
    await waitShown(page, 'attention.mlir');
    await page.locator('#analyze-all-roofs').check();
    const canvas = await page.locator('#analyze-roofline').boundingBox();
    assert.ok(canvas.height >= 300, `the plot is ${canvas.height} px high`);
    const items = await page.locator('#analyze-legend li').evaluateAll((lis) =>
      lis.map((li) => {
        const r = li.getBoundingClientRect();
        return {
          role: li.dataset.role,
          text: li.textContent,
          color: li.dataset.color,
          dash: li.dataset.dash,
          right: r.right,
          clipped: li.scrollWidth > li.clientWidth + 1,
        };
      }),
    );
    const roofs = items.filter((i) => i.role === 'roof' || i.role === 'other roof');
    const series = await page.evaluate(() => window.rooflineLab.analysisSeries());
    assert.equal(roofs.length, series.filter((s) => s.role === 'roof' || s.role === 'other roof').length);
    assert.ok(roofs.length >= 10, `${roofs.length} roofs`);
    assert.equal(
      new Set(roofs.map((r) => `${r.color} ${r.dash}`)).size,
      roofs.length,
      roofs.map((r) => `${r.text}: ${r.color} ${r.dash}`).join('\n'),
    );
    for (const i of items) {
      assert.ok(i.right <= 390 + 0.5, `${i.text} ends at ${i.right} px`);
      assert.equal(i.clipped, false, i.text);
    }
    // Every label is whole text: "(from the lesson)" and "not a measurement" are not cut.
    assert.ok(
      items.some((i) => i.text.endsWith('(from the lesson)')),
      items.map((i) => i.text).join(' | '),
    );
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("section 2: the lesson's StableHLO run by the interpreter passes the seed's check, beside the kernel's, with both times", async () => {
    const { page, problems } = await fixture.open(name);
    await page.waitForFunction(() => window.rooflineLab.lessonChecks() !== null, null, { timeout: 60000 });
    const c = await page.evaluate(() => window.rooflineLab.lessonChecks());
    assert.equal(c.ir.passed, true);
    assert.equal(c.ir.inputs, 'arange');
    assert.deepEqual([c.ir.atol, c.ir.rtol], [2e-5, 2e-5]);
    assert.ok(c.ir.worst_ratio <= 1 && c.ir.ops_seconds > 0 && c.kernel_seconds > 0);
    const direct = core.checkLessonIr().value;
    assert.equal(c.ir.max_abs_error, direct.max_abs_error, 'the same numbers as the core gives in Node');
    assert.match(
      await page.locator('#ir-check').innerText(),
      /^The StableHLO above, run by the core's interpreter on the same inputs \(arguments: arange\): passed, max \|x − y\| = .+ Time per run, measured on this machine: the IR's 2 ops .+ s, the hand-written kernel \(.+\) .+ s \(median\)\.$/,
    );
    assert.match(await page.locator('#kernel-check').innerText(), /^Passed/);
    // At other sizes section 1 shows another module: the check says it ran the seed's.
    await page.locator('input[name="m"]').fill('3');
    await page.waitForFunction(() => /not the module above/.test(document.querySelector('#ir-check').textContent));
    assert.match(
      await page.locator('#ir-check').innerText(),
      /^The seed's StableHLO \(32×16 · 16×8, f32\), not the module above, run by the core's interpreter/,
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
});
