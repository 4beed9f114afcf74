// The lesson page's inputs and messages, section 7's Check, keyboard focus around Measure, the one
// embedded core and the first render (issue 14, items 7–10, 16 and 17): each test is one that
// would have caught the defect the issue describes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { lzmaDecode } from '../../web/lzma.js';
import { ALPHABET_85, decode85 } from '../../web/wasm_bytes.js';
import { browserAndServer, DIST } from './browser.mjs';

const fixture = browserAndServer({ alone: true });
const FILE = 'index.html from file://';
const ALONE = 'roofline-lab.html alone, from file://';

const text = (page, sel) => page.locator(sel).innerText();
const fill = (page, name, value) => page.locator(`[name="${name}"]`).first().fill(value);
const activeId = (page) =>
  page.evaluate(() => (document.activeElement === document.body ? '<body>' : (document.activeElement?.id ?? null)));

describe('inputs: every refused field is marked at once, with a message that says what happened', () => {
  test('m = 0 then peak = x: both fields marked with their own messages, and a summary names them', async () => {
    const { page, problems } = await fixture.open(FILE);
    await fill(page, 'm', '0');
    await fill(page, 'peak', 'x');
    assert.equal(await text(page, '#m-error'), 'm must be a positive integer, got 0');
    assert.equal(await text(page, '#peak-error'), 'peak must be a number, got "x"');
    assert.equal(await page.locator('[name="m"]').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('[name="peak"]').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('[name="m"]').inputValue(), '0', 'the field keeps what was typed');
    assert.equal(await text(page, '#input-error'), '2 fields need fixing: m and peak (GFLOP/s).');
    assert.equal(await page.locator('#input-error').isVisible(), true);
    // The summary's names move the focus to their fields.
    await page.locator('#input-error button[data-input="peak"]').click();
    assert.equal(await activeId(page), 'in-peak');
    // The last valid view is kept, and said to be kept.
    assert.equal(await page.evaluate(() => window.rooflineLab.state().m), 32);
    assert.equal(await page.locator('#stale-note').isVisible(), true);
    await fill(page, 'm', '64');
    assert.equal(await text(page, '#m-error'), '');
    assert.equal(await text(page, '#input-error'), 'One field needs fixing: peak (GFLOP/s).');
    await fill(page, 'peak', '100');
    assert.equal(await page.locator('#input-error').isVisible(), false);
    assert.equal(await page.evaluate(() => window.rooflineLab.state().m), 64);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('messages print what was typed and the rule that refuses it', async () => {
    const { page, problems } = await fixture.open(FILE);
    const cases = [
      ['peak', '1e400', 'peak must be a number a double can hold (at most about 1.8e308), got 1e400'],
      ['peak', 'Infinity', 'peak must be a positive, finite number of GFLOP/s, got infinity'],
      [
        'sizes',
        '1,000',
        'sizes: entry 2 of 2 must be a positive integer, got 0 (the list is split at commas: write 1000, not 1,000)',
      ],
      ['sizes', '8,x', 'sizes: entry 2 of 2 must be a number, got "x"'],
      ['sizes', '8, 32, 16, 32', 'sizes: entry 4 of 4 must not repeat a size, got 32 again (entry 2)'],
      ['traffic_factor', '0', 'traffic factor must be from 0.25 to 16 on this page, got 0'],
      [
        'm',
        '9007199254740993',
        'm must be an integer a double holds exactly (at most 2^53 = 9007199254740992), got 9007199254740993',
      ],
      // peak and the factor take decimals: not "must be an integer" (issue 22, item 10).
      [
        'peak',
        '9007199254740993',
        'peak must be a number a double holds exactly (a whole number typed in full: at most 2^53 = 9007199254740992), got 9007199254740993',
      ],
      [
        'traffic_factor',
        '9007199254740993',
        'traffic factor must be a number a double holds exactly (a whole number typed in full: at most 2^53 = 9007199254740992), got 9007199254740993',
      ],
    ];
    for (const [field, value, message] of cases) {
      await fill(page, field, value);
      assert.equal(await text(page, `#${field}-error`), message, `${field}=${value}`);
      await page.locator('#reset').click();
      assert.equal(await text(page, `#${field}-error`), '');
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('long exact counts are shown with their thousands separated', async () => {
    const { page, problems } = await fixture.open(FILE, '#m=100000&k=100000&n=100000');
    assert.equal(await page.locator('[data-field="flops"] >> nth=0').innerText(), '2,000,000,000,000,000');
    assert.equal(await page.locator('[data-field="minimum_bytes"] >> nth=0').innerText(), '120,000,000,000');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('one format for counts everywhere: no run of seven or more digits on the page without its thousands grouped', async () => {
    // (1024, 1024, 1024): section 2's cost table has 2,147,483,648 flops and 20,971,520 bytes.
    const { page, problems } = await fixture.open(FILE, '#m=1024&k=1024&n=1024');
    assert.equal(await page.locator('#cost tfoot td').first().innerText(), '2,147,483,648');
    // Everything a reader sees as prose or tables (not the program text, the inputs or the link).
    const ungrouped = await page.evaluate(() => {
      const skip = (e) => e.closest('pre, code, input, textarea, script, [hidden]');
      const out = [];
      const walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (skip(n.parentElement) || !n.parentElement.getClientRects().length) continue;
        for (const m of n.textContent.matchAll(/(?<![\d.,e^])\d{7,}(?![\d.])/g))
          out.push(`${m[0]} in "${n.textContent.trim().slice(0, 80)}"`);
      }
      return out;
    });
    assert.deepEqual(ungrouped, []);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a link whose dtype and itemsize disagree says which it ignored', async () => {
    const { page, problems } = await fixture.open(FILE, '#itemsize=3&dtype=f32');
    assert.equal(await page.locator('#notices').isVisible(), true);
    assert.deepEqual(await page.locator('#notice-list li').allInnerTexts(), [
      'ignored dtype="f32" in the link: dtype f32 has itemsize 4, got itemsize 3',
    ]);
    assert.equal(await page.locator('[name="itemsize"]').inputValue(), '3');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('section 6 names the factor in its header, and its stale note sits above what it invalidates', async () => {
    const { page, problems } = await fixture.open(FILE);
    await fill(page, 'traffic_factor', '0.25');
    assert.equal(await text(page, '#traffic thead th:nth-child(5)'), 'bound with 0.25× traffic');
    await fill(page, 'traffic_factor', '99');
    const note = page.locator('#traffic-stale');
    assert.equal(await note.isVisible(), true);
    assert.equal(
      await page.evaluate(() => {
        const stale = document.getElementById('traffic-stale');
        return Boolean(
          stale.compareDocumentPosition(document.getElementById('traffic-summary')) & Node.DOCUMENT_POSITION_FOLLOWING,
        );
      }),
      true,
      'the stale note comes before the summary it invalidates',
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('section 7: Check says what happened; the solution opens when asked for, or once every part is right', () => {
  test('blank answers, one part, every part with one wrong (the solution stays shut), then all right', async () => {
    const { page, problems } = await fixture.open(FILE);
    const solutionOpen = () => page.evaluate(() => document.getElementById('solution').open);
    await page.locator('#check-answers').click();
    assert.equal(await solutionOpen(), false);
    assert.equal(
      await text(page, '#exercise-result'),
      'Every answer is blank: nothing was checked. The reference solution opens once every ' +
        'part is right (still to get right: work, minimum traffic, ratio and bound), or when you open it below.',
    );
    // Only the work, submitted with Enter: the other three are not given away.
    await page.locator('#ans-work').fill('27648');
    await page.locator('#ans-work').press('Enter');
    assert.equal(await solutionOpen(), false);
    assert.equal(
      await text(page, '#exercise-result'),
      '1 of 4 right (minimum traffic, ratio and bound not answered). Change an answer and ' +
        'check again. The reference solution opens once every part is right (still to get right: minimum traffic, ratio and bound), or when you open it below.',
    );
    // Every part answered, wrong ones among them (the 13824 / 16128 / 0.857 / compute-bound): still shut.
    await page.locator('#ans-work').fill('13824');
    await page.locator('#ans-traffic').fill('16128');
    await page.locator('#ans-ratio').fill('0.857');
    await page.locator('input[name="bound"][value="compute"]').check();
    await page.locator('#check-answers').click();
    assert.equal(await solutionOpen(), false, 'one wrong try does not give the solution away');
    assert.equal(
      await text(page, '#exercise-result'),
      '0 of 4 right. Change an answer and check again. The reference solution opens once ' +
        'every part is right (still to get right: minimum traffic, ratio and bound), or when you open it below.',
    );
    // Asked for: it opens, and the message follows.
    await page.locator('#solution summary').click();
    assert.equal(await solutionOpen(), true);
    // (the details element's toggle event comes a task later)
    await page.waitForFunction(() =>
      /The reference solution is open below\.$/.test(document.getElementById('exercise-result').textContent),
    );
    await page.locator('#solution summary').click();
    // Every part right (the work at an earlier Check, the rest now): it opens by itself.
    await page.locator('#ans-work').fill('');
    await page.locator('#ans-traffic').fill('8064');
    await page.locator('#ans-ratio').fill('24/7');
    await page.locator('input[name="bound"][value="memory"]').check();
    await page.locator('#check-answers').click();
    assert.equal(await solutionOpen(), true);
    assert.equal(
      await text(page, '#exercise-result'),
      '3 of 4 right (work not answered). Change an answer and check again. ' + 'The reference solution is open below.',
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('focus around Measure never falls to <body>', () => {
  test('Measure hands focus to Cancel, and the end of the run to the results; Cancel hands it back to Measure', async () => {
    const { page, problems } = await fixture.open(FILE);
    await fill(page, 'samples', '1');
    await fill(page, 'workers', '1');
    await page.locator('#measure').focus();
    await page.keyboard.press('Enter');
    assert.equal(await activeId(page), 'cancel');
    await page.waitForFunction(() => !document.getElementById('measure').disabled, null, { timeout: 120000 });
    assert.equal(await activeId(page), 'measure-results');
    assert.equal(await page.locator('#measure-results').isVisible(), true);

    await page.locator('#measure').focus();
    await page.keyboard.press('Enter');
    assert.equal(await activeId(page), 'cancel');
    await page.keyboard.press('Enter'); // Cancel, from the keyboard
    await page.waitForFunction(() => !document.getElementById('measure').disabled, null, { timeout: 30000 });
    assert.equal(await activeId(page), 'measure');
    assert.match(await text(page, '#measure-status'), /^Cancelled/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('one embedded core, and the lesson drawn first', () => {
  test('app.js carries the wasm once; the single file starts its core and a Worker from it', async () => {
    const app = readFileSync(join(DIST, 'app.js'), 'utf8');
    const longRun = () => new RegExp(`[${ALPHABET_85.replace(/[\]\\^\-[]/g, '\\$&')}]{100000,}`, 'g');
    const runs = app.match(longRun()) ?? [];
    assert.equal(runs.length, 1, `one long base-85 run (the LZMA-packed wasm) in app.js, found ${runs.length}`);
    const wasm = readFileSync(join(DIST, 'roofline-core.wasm'));
    assert.ok(runs[0].length < (wasm.length * 5) / 4, 'the embedded wasm is compressed');
    assert.ok(
      Buffer.from(lzmaDecode(decode85(runs[0]))).equals(wasm),
      'the embedded text unpacks to roofline-core.wasm, byte for byte',
    );
    const html = readFileSync(join(DIST, 'roofline-lab.html'), 'utf8');
    assert.equal((html.match(longRun()) ?? []).length, 1);

    const { page, problems } = await fixture.open(ALONE);
    const summary = await page.evaluate(() =>
      window.rooflineLab.analyze(
        'func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {\n  ' +
          '%b = stablehlo.add %a, %a : tensor<2x2xf32>\n  return %b : tensor<2x2xf32>\n}\n',
        'tiny.mlir',
      ),
    );
    assert.equal(summary.file, 'tiny.mlir');
    assert.ok((await page.evaluate(() => window.rooflineLab.workers())).some((w) => w.state === 'ready'));
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const name of [FILE, 'index.html over http://127.0.0.1', ALONE]) {
    test(`timings: the core, then the lesson drawn, then the whole page (${name})`, async (t) => {
      const { page, problems } = await fixture.open(name);
      const timings = await page.evaluate(() => window.rooflineLab.timings());
      t.diagnostic(
        `core ${Math.round(timings.coreMs)} ms, lesson drawn ${Math.round(timings.firstRenderMs)} ms, ` +
          `ready ${Math.round(timings.readyMs)} ms after navigation start`,
      );
      assert.deepEqual(Object.keys(timings), ['coreMs', 'firstRenderMs', 'readyMs']);
      assert.ok(
        timings.coreMs > 0 && timings.coreMs <= timings.firstRenderMs && timings.firstRenderMs <= timings.readyMs,
        JSON.stringify(timings),
      );
      // By the first render the lesson's numbers are on the page (drawn from the core's report).
      assert.equal(await page.locator('[data-field="flops"] >> nth=0').innerText(), '8192');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
