// The Notebook view (web/views/notebook_view.js): opened from the lesson by "Run the seed's code",
// the seed's lesson.py in cells run in the Notebook's Worker. Run all prints, line for line, what
// `node scripts/notebook.mjs ../shared/seed/lesson.py` prints (the timing samples matched by a
// pattern: they are measurements); the lesson's printout and the notebook's agree; a kernel keeps
// variables between cells; an error is Python's traceback with the cell's line marked; Stop ends
// an endless loop and says the kernel restarted; axe-core finds nothing serious.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { browserAndServer, openPage, ROOT, waitReady } from './browser.mjs';

const LESSON = resolve(ROOT, '..', 'shared', 'seed', 'lesson.py');
const NO_SEED = existsSync(LESSON) ? false : `${LESSON} is absent: the page was built without the seed's code`;
const fixture = browserAndServer({ alone: true });
const SAMPLES = /^Local CPU samples seconds: \[[^\]]*\]$/gm;
const FIVE_SAMPLES = /^Local CPU samples seconds: \[(\d[\d.e-]*(, |\])){5}$/m;

const cell = (i) => `#nb-cells > li:nth-child(${i})`;

/** Waits until no cell of the Notebook is running or waiting. */
async function settled(page, timeout = 60000) {
  await page.waitForFunction(
    () => {
      const cells = [...document.querySelectorAll('#nb-cells > li')];
      return cells.length > 0 && cells.every((li) => li.dataset.status !== 'running' && li.dataset.status !== 'queued');
    },
    null,
    { timeout },
  );
}

/** Types `source` into cell i (an input event, as a reader's typing) and runs it. */
async function runCell(page, i, source) {
  await page.locator(`${cell(i)} textarea`).fill(source);
  await page.locator(`${cell(i)} button`, { hasText: 'Run' }).click();
  await settled(page);
}

for (const name of Object.keys(fixture.pages)) {
  describe(`the Notebook view: ${name}`, () => {
    test(
      "Run the seed's code, Run all: the CLI's lines, the samples aside, and the lesson's numbers",
      { skip: NO_SEED },
      async () => {
        const cli = spawnSync(process.execPath, [join(ROOT, 'scripts', 'notebook.mjs'), LESSON], { encoding: 'utf8' });
        assert.equal(cli.status, 0, cli.stderr);
        const { page, problems } = await fixture.open(name);
        assert.equal(await page.locator('#nb').isVisible(), false);
        await page.locator('#open-notebook').click();
        assert.equal(await page.locator('#nb').isVisible(), true);
        assert.equal(
          await page.locator('#seed-lines').isVisible(),
          false,
          'the lesson is hidden while the Notebook is open',
        );
        assert.match(await page.evaluate(() => location.hash), /^#notebook(&|$)/);
        assert.equal(await page.evaluate(() => document.activeElement.id), 'h-notebook');
        const cells = await page.locator('#nb-cells > li').count();
        assert.ok(cells >= 8, `${cells} cells`);
        // The cells hold the seed's code: together, its lines (blank lines between blocks aside).
        const code = await page.$$eval('#nb-cells textarea', (areas) => areas.map((a) => a.value).join('\n'));
        assert.match(code, /^def contract\(m, k, n, itemsize=4\):$/m);
        await page.locator('#nb-run-all').click();
        await settled(page);
        const states = await page.$$eval('#nb-cells > li', (lis) => lis.map((li) => li.dataset.status));
        assert.deepEqual(states, Array(cells).fill('done'));
        const out = await page.$$eval('#nb-cells .nb-out', (pres) => pres.map((p) => p.textContent).join(''));
        assert.match(out, FIVE_SAMPLES);
        assert.deepEqual(
          out.replace(SAMPLES, 'samples').split('\n'),
          cli.stdout.replace(SAMPLES, 'samples').split('\n'),
        );
        assert.match(
          out,
          /^Matmul-only accounting: \{'flops': 8192, 'minimum_bytes': 3584, 'flops_per_byte': 2\.2857142857142856\}$/m,
        );
        assert.match(
          out,
          /^Hypothetical ceilings GFLOP\/s: \[26\.666666666666664, 53\.33333333333333, 100\.0, 100\.0, 100\.0\]$/m,
        );
        // The lesson's printout (computed by the core's lesson report) says the same numbers.
        await page.locator('#nb-close').click();
        assert.equal(await page.evaluate(() => document.activeElement.id), 'open-notebook');
        const lesson = (await page.locator('#seed-lines').innerText()).split('\n');
        const printed = out.split('\n');
        for (const start of [
          'Matmul-only accounting: ',
          'Hypothetical ceilings GFLOP/s: ',
          'Ceilings with twice minimum traffic GFLOP/s: ',
        ]) {
          const a = lesson.filter((l) => l.startsWith(start));
          assert.equal(a.length, 1, `the lesson prints "${start}" once`);
          assert.deepEqual(
            printed.filter((l) => l.startsWith(start)),
            a,
          );
        }
        const report = await page.evaluate(() => window.rooflineLab.report());
        assert.equal(report.matmul_accounting.flops, 8192);
        assert.equal(report.matmul_accounting.minimum_bytes, 3584);
        // The samples are labelled a measurement, the cost_analysis dict an estimate.
        await page.locator('#open-notebook').click();
        const kinds = await page.$$eval('#nb-cells .nb-kinds:not([hidden]) .tag', (tags) =>
          tags.map((t) => t.textContent),
        );
        assert.deepEqual(kinds.sort(), ['estimate', 'measurement']);
        // The samples' note gives the page clock's tick, measured by the core.
        assert.match(
          await page.locator('#nb-cells .nb-kinds:not([hidden])', { hasText: 'measurement' }).first().innerText(),
          /this machine's clock, which ticks every \d[\d.e+-]* s in this page \(measured\)/,
        );
        assert.deepEqual(problems, []);
        await page.close();
      },
    );

    test('a kernel: edited cells see earlier variables; an error is a traceback with the line marked', async () => {
      const { page, problems } = await fixture.open(name, '#notebook');
      assert.equal(await page.locator('#nb').isVisible(), true, '#notebook opens the Notebook');
      if (NO_SEED) {
        assert.match(await page.locator('#nb-seed-error').innerText(), /was not bundled/);
        await page.close();
        return;
      }
      await runCell(page, 1, 'x = 20\ny = 2\n');
      await runCell(page, 2, 'print(x * y)\n');
      assert.equal(await page.locator(`${cell(2)} .nb-out`).textContent(), '40\n');
      assert.equal(await page.locator(`${cell(2)} .nb-display`).isVisible(), false, 'print gives None: no value');
      // The last line's value, as Jupyter's Out[n]; none when a ';' ends the cell.
      await runCell(page, 2, 'print(x)\n[x, y * 2]\n');
      assert.equal(await page.locator(`${cell(2)} .nb-out`).textContent(), '20\n');
      assert.match(await page.locator(`${cell(2)} .nb-display`).textContent(), /^Out\[\d+\]: \[20, 4\]$/);
      await runCell(page, 2, 'x * y;\n');
      assert.equal(await page.locator(`${cell(2)} .nb-display`).isVisible(), false);
      await runCell(page, 2, 'print(x + y)\nz = {"a": 1}\nz["b"]\n');
      assert.equal(await page.locator(`${cell(2)} .nb-out`).textContent(), '22\n');
      assert.equal(await page.locator(cell(2)).getAttribute('data-status'), 'error');
      assert.equal(
        await page.locator(`${cell(2)} .nb-error`).textContent(),
        'Traceback (most recent call last):\n  File "<cell 2>", line 3, in <module>\n    z["b"]\nKeyError: \'b\'\n',
      );
      assert.deepEqual(await page.locator(`${cell(2)} .nb-gutter .nb-marked`).allTextContents(), ['3']);
      assert.match(await page.locator(`${cell(2)} .nb-where`).innerText(), /KeyError at line 3 of this cell/);
      // The failing cell's earlier statements ran, as in a kernel: z is defined; x still is.
      await runCell(page, 3, 'print(z, x)\n');
      assert.equal(await page.locator(`${cell(3)} .nb-out`).textContent(), "{'a': 1} 20\n");
      assert.equal(await page.locator(`${cell(3)} .nb-error`).isVisible(), false);
      // Reset: every variable is gone.
      await page.locator('#nb-reset').click();
      await page.waitForFunction(() => /reset/.test(document.getElementById('nb-notice').textContent));
      await runCell(page, 3, 'print(x)\n');
      assert.match(await page.locator(`${cell(3)} .nb-error`).textContent(), /NameError: name 'x' is not defined\n$/);
      // The step budget ends an endless loop with Python's error, its line marked, if no one presses Stop.
      await runCell(page, 4, 'while True:\n    pass\n');
      assert.match(
        await page.locator(`${cell(4)} .nb-error`).textContent(),
        /line 2, in <module>\n    pass\nRuntimeError: the program ran past its step budget of 20000000 evaluation steps/,
      );
      assert.deepEqual(await page.locator(`${cell(4)} .nb-gutter .nb-marked`).allTextContents(), ['2']);
      // A syntax error: Python's report with the caret; the line and column named, the line marked.
      await runCell(page, 5, 'y = 1\nx = (1,\n');
      assert.equal(
        await page.locator(`${cell(5)} .nb-error`).textContent(),
        '  File "<cell 5>", line 2\n    x = (1,\n        ^\nSyntaxError: \'(\' was never closed\n',
      );
      assert.match(
        await page.locator(`${cell(5)} .nb-where`).innerText(),
        /SyntaxError at line 2, column 5 of this cell/,
      );
      assert.deepEqual(await page.locator(`${cell(5)} .nb-gutter .nb-marked`).allTextContents(), ['2']);
      // The seed's code again replaces the edited cells, says so, and Undo puts them back.
      await page.locator('#nb-seed').click();
      assert.match(await page.locator('#nb-notice').innerText(), /your edits to \d+ cells were replaced.*Undo/);
      assert.notEqual(await page.locator(`${cell(5)} textarea`).inputValue(), 'y = 1\nx = (1,\n');
      await page.locator('#nb-undo').click();
      assert.equal(await page.locator(`${cell(5)} textarea`).inputValue(), 'y = 1\nx = (1,\n');
      assert.equal(await page.locator('#nb-undo').isVisible(), false);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('edited cells are kept in this browser: a reload puts them back and says so', { skip: NO_SEED }, async () => {
      const { page, problems } = await fixture.open(name, '#notebook');
      const seed2 = await page.locator(`${cell(2)} textarea`).inputValue();
      await page.locator(`${cell(2)} textarea`).fill('print("mine")\n');
      await page.reload();
      await waitReady(page);
      assert.equal(await page.locator('#nb').isVisible(), true);
      assert.equal(await page.locator(`${cell(2)} textarea`).inputValue(), 'print("mine")\n');
      assert.match(
        await page.locator('#nb-notice').innerText(),
        /Your edits to 1 cell, kept in this browser, are back/,
      );
      // The seed's code again puts the seed back (Undo offered, even after an edit to another
      // cell); reloaded then, the replaced cells are still Undo's; Undo puts them back and moves
      // the focus to the cells; dismissed, nothing is kept.
      await page.locator('#nb-seed').click();
      assert.equal(await page.locator(`${cell(2)} textarea`).inputValue(), seed2);
      await page.locator(`${cell(3)} textarea`).fill('print("later")\n');
      assert.equal(await page.locator('#nb-undo').isVisible(), true, 'an edit keeps the Undo');
      await page.reload();
      await waitReady(page);
      assert.equal(await page.locator(`${cell(2)} textarea`).inputValue(), seed2);
      assert.match(await page.locator('#nb-notice').innerText(), /replaced were kept too: Undo puts them back/);
      await page.locator('#nb-undo').click();
      assert.equal(await page.locator(`${cell(2)} textarea`).inputValue(), 'print("mine")\n');
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA');
      await page.locator('#nb-seed').click();
      await page.locator('#nb-dismiss').click();
      await page.reload();
      await waitReady(page);
      assert.equal(await page.locator(`${cell(2)} textarea`).inputValue(), seed2);
      assert.equal(await page.locator('#nb-notice-box').isHidden(), true);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('Stop ends a while True: cell, returns control and says the kernel restarted', { skip: NO_SEED }, async () => {
      const { page, problems } = await fixture.open(name, '#notebook');
      await runCell(page, 1, 'x = 5\n');
      await page.locator(`${cell(2)} textarea`).fill('n = 0\nwhile True:\n    n += 1\n');
      await page.locator(`${cell(2)} button`, { hasText: 'Run' }).click();
      await page.waitForFunction(
        () => document.querySelector('#nb-cells > li:nth-child(2)').dataset.status === 'running',
      );
      // The page is not frozen while the cell runs: the main thread answers, Stop is enabled.
      assert.equal(await page.evaluate(() => 1 + 1), 2);
      assert.equal(await page.locator('#nb-stop').isEnabled(), true);
      assert.equal(await page.locator('#nb-run-all').isEnabled(), false);
      await page.locator('#nb-stop').click();
      assert.equal(await page.locator(cell(2)).getAttribute('data-status'), 'stopped');
      assert.match(
        await page.locator('#nb-notice').innerText(),
        /kernel restarted.*variables of earlier cells are gone.*Run all/s,
      );
      assert.equal(await page.locator('#nb-run-all').isEnabled(), true);
      assert.equal(await page.locator('#nb-stop').isEnabled(), false);
      // A fresh kernel: cell 1's x is gone until cell 1 runs again.
      await runCell(page, 3, 'print(x)\n');
      assert.match(await page.locator(`${cell(3)} .nb-error`).textContent(), /NameError: name 'x' is not defined/);
      await runCell(page, 1, 'x = 5\n');
      await runCell(page, 3, 'print(x)\n');
      assert.equal(await page.locator(`${cell(3)} .nb-out`).textContent(), '5\n');
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

describe('the Notebook view: accessibility', () => {
  test(
    'axe-core finds no serious or critical violation in the Notebook with output and a traceback',
    { skip: NO_SEED },
    async () => {
      const context = await fixture.browser.newContext({ bypassCSP: true });
      const { page, problems } = await openPage(fixture.browser, `${fixture.origins['http://127.0.0.1']()}#notebook`, {
        context,
      });
      await waitReady(page);
      await runCell(page, 1, 'print("hello")\n');
      await runCell(page, 2, 'print(1)\n1 / 0\n');
      await page.addScriptTag({ path: join(ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
      const result = await page.evaluate(() => window.axe.run({ include: [['#nb']] }, { resultTypes: ['violations'] }));
      const serious = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      assert.deepEqual(serious, []);
      assert.deepEqual(problems, []);
      await context.close();
    },
  );
});
