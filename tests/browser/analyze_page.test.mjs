// Section 8, "Analyze your own program": dist/index.html from file:// and over http, and
// dist/roofline-lab.html alone. Pasted text, the bundled examples and corpus files give the
// same object as `node scripts/analyze.mjs --json`; errors show line:col and keep the last
// analysis; the table, the text and the figure select together; a 5 MB module is parsed in the
// Worker while the page answers input (its time is measured and reported, not asserted).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { dirname, join, resolve } from 'node:path';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { denseStablehlo } from '../../scripts/lib/dense_modules.mjs';
import { TABLE_PAGE } from '../../web/model/analysis_view.js';
import { grouped } from '../../web/model/format.js';
import { browserAndServer, openPage, ROOT, waitReady } from './browser.mjs';

const CORPUS = process.env.ROOFLINE_CORPUS || resolve(ROOT, '..', 'shared', 'corpus');
const TIMES = join(ROOT, 'build', 'screenshots', 'analyze-times.json');

const fixture = browserAndServer({ alone: true });
const { pages } = fixture;
let core;
const times = {};
before(async () => {
  core = await loadNodeCore();
});
after(() => {
  if (Object.keys(times).length) {
    mkdirSync(dirname(TIMES), { recursive: true });
    writeFileSync(TIMES, `${JSON.stringify(times, null, 2)}\n`);
  }
});

const open = (name) => fixture.open(name);

/** What `node scripts/analyze.mjs --json FILE` prints for one file. */
function cli(file) {
  const out = spawnSync(process.execPath, [join(ROOT, 'scripts', 'analyze.mjs'), '--json', file], { encoding: 'utf8' });
  return JSON.parse(out.stdout)[0];
}

const shownFile = (page) => page.evaluate(() => window.rooflineLab.analysis()?.file ?? null);
async function waitShown(page, file, timeout = 15000) {
  await page.waitForFunction(
    (f) => window.rooflineLab.analysis()?.file === f && !window.rooflineLab.analyzeView().pending,
    file,
    { timeout },
  );
}
const summaryRow = (page, label) =>
  page.locator('#analyze-summary tr', { hasText: label }).first().locator('td').innerText();

for (const name of Object.keys(pages)) {
  describe(`section 8, analyze your own program: ${name}`, () => {
    test('a program whose only work is unmodeled has no lower bound: unknown, not 0 s', async () => {
      const { page, problems } = await open(name);
      const text =
        'func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n' +
        '  %0 = chlo.asinh %a : tensor<4xf32> -> tensor<4xf32>\n' +
        '  return %0 : tensor<4xf32>\n}\n';
      await page.locator('#analyze-text').fill(text);
      await waitShown(page, 'input');
      assert.equal(
        await summaryRow(page, 'lower bound on time under this roof, the modeled ops only (1 unmodeled not counted)'),
        'unknown (only unmodeled ops do work)',
      );
      assert.deepEqual(problems, []);
    });

    test('pasting the lesson module gives flops 8192, transcendentals 256, bytes accessed 5632, as the CLI does', async () => {
      const { page, problems } = await open(name);
      const text = core.emitWorkload(32, 16, 8, 'f32').value;
      await page.locator('#analyze-text').fill(text);
      await waitShown(page, 'input');
      assert.equal(await summaryRow(page, 'flops'), '8192');
      assert.equal(await summaryRow(page, 'transcendentals'), '256');
      assert.equal(
        await page
          .locator('#analyze-summary tr', { hasText: /^bytes accessed/ })
          .locator('td')
          .innerText(),
        '5632',
      );
      assert.equal(await summaryRow(page, 'minimum traffic'), '3584');
      assert.equal(await summaryRow(page, 'bound by'), 'memory');
      const dir = mkdtempSync(join(tmpdir(), 'analyze-lesson-'));
      const file = join(dir, 'lesson.mlir');
      writeFileSync(file, text);
      const expected = cli(file);
      rmSync(dir, { recursive: true, force: true });
      assert.deepEqual(await page.evaluate(() => window.rooflineLab.analysis()), { ...expected, file: 'input' });
      // The scripting surface: the same object, with the name given, and the page unchanged.
      const viaApi = await page.evaluate((t) => window.rooflineLab.analyze(t, 'lesson.mlir'), text);
      assert.deepEqual(viaApi, { ...expected, file: 'lesson.mlir' });
      assert.deepEqual(await page.evaluate((t) => window.rooflineLab.analyze(t), text), { ...expected, file: 'input' });
      assert.deepEqual(await page.locator('#analyze-ops tbody tr td:nth-child(2)').allInnerTexts(), [
        'stablehlo.dot_general',
        'stablehlo.tanh',
      ]);
      assert.equal(await page.locator('#analyze-text').getAttribute('aria-invalid'), 'false');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('every bundled example loads and analyses', async () => {
      const { page, problems } = await open(name);
      const examples = core.exampleModules().value;
      assert.deepEqual(
        await page.locator('#analyze-examples button').evaluateAll((bs) => bs.map((b) => b.dataset.example)),
        examples.map((e) => e.name),
      );
      for (const ex of examples) {
        await page.locator(`#analyze-examples button[data-example="${ex.name}"]`).click();
        await waitShown(page, `${ex.name}.mlir`);
        const a = await page.evaluate(() => window.rooflineLab.analysis());
        const direct = core.analyzeText(ex.text).value.modules[0].totals;
        assert.deepEqual(a.errors, [], ex.name);
        assert.equal(a.totals.flops, direct.flops, ex.name);
        assert.equal(a.totals.bytes_accessed, direct.bytes_accessed, ex.name);
        assert.equal(await page.locator('#analyze-text').inputValue(), ex.text);
        assert.equal(await page.locator('#analyze-ops tbody tr').count(), a.ops.length);
        const series = await page.evaluate(() => window.rooflineLab.analysisSeries());
        assert.ok(series.find((s) => s.role === 'ops').points.length >= 1, ex.name);
        assert.equal(series.find((s) => s.role === 'program').points[0][0], a.totals.intensity);
      }
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('an invalid module shows line:col with the message, and the earlier analysis stays', async () => {
      const { page, problems } = await open(name);
      await page.locator('#analyze-examples button[data-example="mlp"]').click();
      await waitShown(page, 'mlp.mlir');
      const before = await page.evaluate(() => window.rooflineLab.analysis());
      const rows = await page.locator('#analyze-ops tbody tr').count();
      await page
        .locator('#analyze-text')
        .fill(
          'module {\n  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n    %0 = stablehlo.add %a, %a : tensor<2xf32>\n',
        );
      await page.waitForFunction(() => window.rooflineLab.analyzeView().errors.length > 0, null, { timeout: 10000 });
      assert.equal(
        await page.locator('#analyze-error-message').innerText(),
        "line 4, column 1 (4:1): error: unterminated region — expected '}', got end of input",
      );
      assert.match(await page.locator('#analyze-error-excerpt').innerText(), /^\s+1 \| module \{/);
      assert.equal(await page.locator('#analyze-text').getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await page.evaluate(() => window.rooflineLab.analysis()), before);
      assert.equal(await page.locator('#analyze-ops tbody tr').count(), rows);
      assert.equal(await page.locator('#analyze-stale').isVisible(), true);
      // A verify error names its line too, and the text area has that line selected.
      const contract =
        'func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {\n' +
        '  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>\n' +
        '  return %0 : tensor<2x5xf32>\n}\n';
      await page.locator('#analyze-text').fill(contract);
      await page.waitForFunction(() => window.rooflineLab.analyzeView().errors[0]?.line === 2, null, {
        timeout: 10000,
      });
      assert.equal(
        await page.locator('#analyze-error-message').innerText(),
        'line 2, column 3 (2:3): error: dot_general contracting dimension sizes differ — expected lhs dim 1 and rhs dim 0 of equal size, got lhs dim 1 = 3, rhs dim 0 = 4',
        'the message prints the sizes it found, each with its dimension (issue 14 item 2)',
      );
      assert.equal(await page.locator('#analyze-error-excerpt mark').innerText(), contract.split('\n')[1]);
      assert.equal(
        (await page.locator('#analyze-error-excerpt').innerText()).split('\n')[2],
        `${' '.repeat(9)}  ^`,
        'the caret under column 3, past the line number',
      );
      // A tab before the fault: the caret's line keeps it, so the caret lines up whatever a tab's width.
      await page.locator('#analyze-text').fill(contract.replace('\n  %0', '\n\t%0'));
      await page.waitForFunction(() => window.rooflineLab.analyzeView().errors[0]?.column === 2, null, {
        timeout: 10000,
      });
      assert.equal((await page.locator('#analyze-error-excerpt').innerText()).split('\n')[2], `${' '.repeat(9)}\t^`);
      await page.locator('#analyze-text').fill(contract);
      await page.waitForFunction(() => window.rooflineLab.analyzeView().errors[0]?.column === 3, null, {
        timeout: 10000,
      });
      assert.equal(
        await page.evaluate(() => {
          const a = document.getElementById('analyze-text');
          return a.value.slice(a.selectionStart, a.selectionEnd);
        }),
        contract.split('\n')[1].slice(2),
      );
      assert.deepEqual(await page.evaluate(() => window.rooflineLab.analysis()), before);
      // Fixing it shows the new analysis and clears the message.
      await page.locator('#analyze-examples button[data-example="lesson"]').click();
      await waitShown(page, 'lesson.mlir');
      assert.equal(await page.locator('#analyze-error').isVisible(), false);
      assert.equal(await page.locator('#analyze-stale').isVisible(), false);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

describe('section 8: corpus files, selection, sorting, roofs and a 5 MB module', () => {
  const corpusFiles = () => {
    const files = [join(CORPUS, 'hlo', 'add_preds.hlo'), join(CORPUS, 'hlo', 'gpu_fusion.hlo')];
    const sdir = join(CORPUS, 'stablehlo');
    if (existsSync(sdir))
      files.push(
        ...readdirSync(sdir)
          .filter((f) => f.startsWith('dot_general') && f.endsWith('.mlir'))
          .slice(0, 1)
          .map((f) => join(sdir, f)),
      );
    return files.filter((f) => existsSync(f));
  };

  for (const name of ['index.html from file://', 'index.html over http://127.0.0.1']) {
    test(`${name}: corpus files set into the file input give the same object as the CLI`, async (t) => {
      if (!existsSync(CORPUS)) {
        t.skip(`corpus absent: ${CORPUS} (set ROOFLINE_CORPUS)`);
        return;
      }
      const files = corpusFiles();
      assert.ok(files.length >= 2, files.join(', '));
      const { page, problems } = await open(name);
      for (const file of files) {
        await page.setInputFiles('#analyze-file', file);
        const base = file.split('/').at(-1);
        await waitShown(page, base);
        const expected = cli(file);
        assert.deepEqual(await page.evaluate(() => window.rooflineLab.analysis()), { ...expected, file: base }, base);
        t.diagnostic(`${base}: flops ${expected.totals.flops}, bytes ${expected.totals.bytes_accessed}`);
        if (expected.dialect === 'hlo' && expected.totals.unfused_bytes_accessed !== expected.totals.bytes_accessed) {
          // Counts printed as everywhere on the page: thousands grouped from seven digits (format.js's grouped).
          assert.equal(
            await summaryRow(page, 'bytes if no op were fused'),
            grouped(expected.totals.unfused_bytes_accessed),
          );
          assert.ok(
            (await summaryRow(page, 'fusion saves')).startsWith(
              `${grouped(expected.totals.unfused_bytes_accessed - expected.totals.bytes_accessed)} bytes`,
            ),
          );
        }
      }
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('sorting by click and keyboard; a row selects its line and point; a point selects its row', async () => {
    const { page, problems } = await open('index.html over http://127.0.0.1');
    await page.locator('#analyze-examples button[data-example="attention"]').click();
    await waitShown(page, 'attention.mlir');
    const flopsHeader = page.locator('#analyze-ops thead th[data-key="flops"]');
    await flopsHeader.locator('button').click();
    assert.equal(await flopsHeader.getAttribute('aria-sort'), 'descending');
    const flops = (await page.evaluate(() => window.rooflineLab.analyzeRows())).map((r) => r.flops);
    assert.deepEqual(
      flops,
      [...flops].sort((a, b) => b - a),
    );
    const shownFlops = await page.locator('#analyze-ops tbody tr td:nth-child(4)').allInnerTexts();
    assert.deepEqual(shownFlops, flops.map(grouped));
    // Keyboard: focus the op header's button, Enter sorts by op; Enter again reverses.
    await page.locator('#analyze-ops thead th[data-key="op"] button').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#analyze-ops thead th[data-key="op"]').getAttribute('aria-sort'), 'ascending');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#analyze-ops thead th[data-key="op"]').getAttribute('aria-sort'), 'descending');
    const ops = (await page.evaluate(() => window.rooflineLab.analyzeRows())).map((r) => r.op);
    assert.deepEqual(
      ops,
      [...ops].sort((a, b) => b.localeCompare(a)),
    );
    await page.locator('#analyze-ops thead th[data-key="line"] button').click();

    // A row: its line is marked under the table and selected in the text, its point ringed.
    const rows = await page.evaluate(() => window.rooflineLab.analyzeRows());
    const dot = rows.find((r) => r.op === 'stablehlo.dot_general');
    await page.locator(`#analyze-ops tbody button[data-index="${dot.index}"]`).click();
    assert.equal(await page.evaluate(() => window.rooflineLab.analyzeView().selected), dot.index);
    assert.equal(await page.locator('#analyze-ops tbody tr.selected').getAttribute('data-index'), String(dot.index));
    const text = await page.locator('#analyze-text').inputValue();
    const lineText = text.split('\n')[dot.line - 1];
    assert.equal(await page.locator('#analyze-excerpt mark').innerText(), lineText);
    assert.equal(
      await page.evaluate(() => {
        const a = document.getElementById('analyze-text');
        return a.value.slice(a.selectionStart, a.selectionEnd);
      }),
      lineText.slice(dot.column - 1),
    );
    let series = await page.evaluate(() => window.rooflineLab.analysisSeries());
    assert.deepEqual(series.find((s) => s.role === 'selected').indices, [dot.index]);

    // A point: clicking it on the canvas selects its row.
    const other = rows
      .filter((r) => r.top && r.flops > 0 && r.index !== dot.index)
      .sort((a, b) => b.bytes - a.bytes)[0];
    await page.locator('#analyze-roofline').scrollIntoViewIfNeeded();
    const at = await page.evaluate((i) => window.rooflineLab.analysisPointPixel(i), other.index);
    const box = await page.locator('#analyze-roofline').boundingBox();
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.waitForFunction(
      (i) => window.rooflineLab.analyzeView().selected !== null && window.rooflineLab.analyzeView().selected !== i,
      dot.index,
    );
    const picked = await page.evaluate(() => window.rooflineLab.analyzeView().selected);
    const pickedRow = rows[picked];
    assert.ok(
      Math.abs(pickedRow.flops / pickedRow.bytes - other.flops / other.bytes) < 1e-9 * (other.flops / other.bytes),
      'the clicked point (or one on top of it)',
    );
    assert.equal(await page.locator('#analyze-ops tbody tr.selected').getAttribute('data-index'), String(picked));
    series = await page.evaluate(() => window.rooflineLab.analysisSeries());
    assert.deepEqual(series.find((s) => s.role === 'selected').indices, [picked]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core finds no serious or critical violation in section 8 with an analysis, an error and a selection (${colorScheme})`, async (t) => {
      const context = await fixture.browser.newContext({ bypassCSP: true, colorScheme });
      const { page, problems } = await openPage(fixture.browser, pages['index.html over http://127.0.0.1']().url, {
        context,
      });
      await waitReady(page);
      await page.locator('#analyze-examples button[data-example="attention"]').click();
      await waitShown(page, 'attention.mlir');
      await page.locator('#analyze-ops tbody button').nth(0).click();
      await page.locator('#analyze-text').fill('garbage');
      await page.waitForFunction(() => window.rooflineLab.analyzeView().errors.length > 0, null, { timeout: 10000 });
      if (colorScheme === 'light') {
        mkdirSync(join(ROOT, 'build', 'screenshots'), { recursive: true });
        await page.locator('#analyze').screenshot({ path: join(ROOT, 'build', 'screenshots', 'analyze.png') });
      }
      await page.addScriptTag({ path: join(ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
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
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  for (const colorScheme of ['light', 'dark']) {
    test(`a program longer than a page: the table's pages by click and keyboard, a point turns to its row's page, axe-core clean (${colorScheme})`, async (t) => {
      const context = await fixture.browser.newContext({ bypassCSP: true, colorScheme });
      const { page, problems } = await openPage(fixture.browser, pages['index.html over http://127.0.0.1']().url, {
        context,
      });
      await waitReady(page);
      // Three pages and more of small ops drawn on top of each other, and on the last page one op of its own place in the figure.
      const t64 = 'tensor<64x64xf32>';
      const text = denseStablehlo(TABLE_PAGE * 250, { dim: 4 }).replace(
        '    return ',
        `    %c64 = stablehlo.constant dense<1.0> : ${t64}\n` +
          `    %own = stablehlo.dot_general %c64, %c64, contracting_dims = [1] x [0] : (${t64}, ${t64}) -> ${t64}\n    return `,
      );
      await page.setInputFiles('#analyze-file', {
        name: 'paged.mlir',
        mimeType: 'text/plain',
        buffer: Buffer.from(text),
      });
      await waitShown(page, 'paged.mlir');
      const n = await page.evaluate(() => window.rooflineLab.analysis().ops.length);
      const pagesOf = Math.ceil(n / TABLE_PAGE);
      assert.ok(pagesOf >= 3, `${n} ops`);
      const status = page.locator('#analyze-page-status');
      const button = (which) => page.locator(`#analyze-pages button[data-page="${which}"]`);
      const idle = () => page.waitForFunction(() => window.rooflineLab.analyzeView().pending === null);
      const firstIndex = () => page.locator('#analyze-ops tbody tr').first().getAttribute('data-index');
      assert.equal(await status.innerText(), `rows 1–${TABLE_PAGE} of ${n} (page 1 of ${pagesOf})`);
      assert.deepEqual(
        [await button('first').isDisabled(), await button('previous').isDisabled(), await button('next').isDisabled()],
        [true, true, false],
      );
      // The keyboard: Enter on Next until the last page; the disabled Next hands focus to Previous.
      await button('next').focus();
      for (let p = 2; p <= pagesOf; p++) {
        await page.keyboard.press('Enter');
        await idle();
        assert.equal(
          await status.innerText(),
          `rows ${TABLE_PAGE * (p - 1) + 1}–${Math.min(TABLE_PAGE * p, n)} of ${n} (page ${p} of ${pagesOf})`,
        );
        assert.equal(await firstIndex(), String(TABLE_PAGE * (p - 1)));
      }
      assert.equal(await page.locator('#analyze-ops tbody tr').count(), n - TABLE_PAGE * (pagesOf - 1));
      assert.deepEqual([await button('next').isDisabled(), await button('last').isDisabled()], [true, true]);
      assert.equal(await page.evaluate(() => document.activeElement.dataset.page), 'previous');
      await button('first').click();
      await idle();
      assert.equal(await firstIndex(), '0');
      // A point of an op on the last page: clicking it selects that op (or one drawn on top of it) and turns to its page.
      const rows = await page.evaluate(() => window.rooflineLab.analyzeRows());
      const far = rows.find((r) => r.shape.includes('64x64') && r.flops > 0);
      assert.ok(far.index >= TABLE_PAGE * (pagesOf - 1), `op ${far.index} on the last page`);
      await page.locator('#analyze-roofline').scrollIntoViewIfNeeded();
      const at = await page.evaluate((i) => window.rooflineLab.analysisPointPixel(i), far.index);
      const box = await page.locator('#analyze-roofline').boundingBox();
      await page.mouse.click(box.x + at.x, box.y + at.y);
      await page.waitForFunction(() => window.rooflineLab.analyzeView()?.selected != null);
      await idle();
      const picked = await page.evaluate(() => window.rooflineLab.analyzeView().selected);
      assert.equal(picked, far.index);
      assert.equal(await page.locator('#analyze-ops tbody tr.selected').getAttribute('data-index'), String(picked));
      const shownPage = Math.floor(picked / TABLE_PAGE) + 1;
      assert.match(await status.innerText(), new RegExp(`\\(page ${shownPage} of ${pagesOf}\\)$`));
      t.diagnostic(`${n} ops in ${pagesOf} pages; the point clicked selected op ${picked}, on page ${shownPage}`);
      // axe-core with the pages' buttons on show.
      await page.addScriptTag({ path: join(ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
      const result = await page.evaluate(() =>
        window.axe.run(document.getElementById('analyze'), { resultTypes: ['violations'] }),
      );
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(
        bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`),
        [],
      );
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test("roofs: the budgets, the presets as vendor specifications with sources, the dtype's peak", async () => {
    const { page, problems } = await open('index.html from file://');
    await page.locator('#analyze-examples button[data-example="lesson"]').click();
    await waitShown(page, 'lesson.mlir');
    let v = await page.evaluate(() => window.rooflineLab.analyzeView());
    assert.deepEqual([v.roof.id, v.roof.kind, v.roof.peak, v.roof.bandwidth], ['lesson', 'hypothetical', 100e9, 20e9]);
    // The lesson's budgets move the roof.
    await page.locator('input[name="bandwidth"]').fill('40');
    await page.locator('#analyze-dtype').focus(); // any event: the lesson updates at once
    v = await page.evaluate(() => window.rooflineLab.analyzeView());
    assert.equal(v.roof.bandwidth, 40e9);
    await page.locator('#analyze-roof').selectOption('h100-sxm');
    v = await page.evaluate(() => window.rooflineLab.analyzeView());
    assert.deepEqual(
      [v.roof.kind, v.roof.peak, v.roof.bandwidth, v.roof.dtype_used, v.dtype.used],
      ['specification', 67e12, 3350e9, 'FP32', 'f32'],
    );
    assert.match(await page.locator('#analyze-roof-kind').innerText(), /^vendor specification, not a measurement/);
    assert.match(
      await page.locator('#analyze-roof-notes').innerText(),
      /source: peak 67 TFLOP\/s: NVIDIA H100 Tensor Core GPU product page \(hardware-specs\.md §B\.2/,
    );
    await page.locator('#analyze-dtype').selectOption('bf16');
    v = await page.evaluate(() => window.rooflineLab.analyzeView());
    assert.deepEqual([v.roof.peak, v.roof.dtype_used], [989.4e12, 'BF16/FP16']);
    assert.equal(v.bound.seconds, Math.max(8192 / 989.4e12, 5632 / 3350e9));
    await page.locator('#analyze-all-roofs').check();
    const series = await page.evaluate(() => window.rooflineLab.analysisSeries());
    assert.ok(series.filter((s) => s.role === 'other roof').length >= 5);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a 5 MB module is parsed in the Worker while the page answers input (time measured, not asserted)', async (t) => {
    const { page, problems } = await open('index.html from file://');
    const lines = [
      'module @jit_big {',
      '  func.func public @main(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>, %b: tensor<64x256xf32>) -> tensor<64x256xf32> {',
    ];
    let prev = '%x';
    let i = 0;
    let size = 0;
    while (size < 5e6) {
      const layer = [
        `    %d${i} = stablehlo.dot_general ${prev}, %w, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>`,
        `    %a${i} = stablehlo.add %d${i}, %b : tensor<64x256xf32>`,
        `    %t${i} = stablehlo.tanh %a${i} : tensor<64x256xf32>`,
      ];
      lines.push(...layer);
      size += layer.reduce((n, l) => n + l.length + 1, 0);
      prev = `%t${i++}`;
    }
    lines.push(`    return ${prev} : tensor<64x256xf32>`, '  }', '}', '');
    const text = lines.join('\n');
    const t0 = Date.now();
    await page.setInputFiles('#analyze-file', { name: 'big.mlir', mimeType: 'text/plain', buffer: Buffer.from(text) });
    // While the Worker parses, the lesson answers typing.
    const typed = Date.now();
    await page.locator('input[name="m"]').fill('64');
    const answered = await page.locator('[data-field="flops"] >> nth=0').innerText();
    const inputMs = Date.now() - typed;
    const pendingDuring = await page.evaluate(() => window.rooflineLab.analyzeView().pending);
    assert.equal(answered, String(2 * 64 * 16 * 8));
    await waitShown(page, 'big.mlir', 120000);
    const totalMs = Date.now() - t0;
    const v = await page.evaluate(() => window.rooflineLab.analyzeView());
    const a = await page.evaluate(() => ({
      ops: window.rooflineLab.analysis().ops.length,
      flops: window.rooflineLab.analysis().totals.flops,
    }));
    assert.equal(a.flops, i * (2 * 64 * 256 * 256 + 64 * 256));
    // A page of the table, and the way to the others.
    assert.equal(await page.locator('#analyze-ops tbody tr').count(), TABLE_PAGE);
    assert.equal(
      await page.locator('#analyze-page-status').innerText(),
      `rows 1–${TABLE_PAGE} of ${a.ops} (page 1 of ${Math.ceil(a.ops / TABLE_PAGE)})`,
    );
    // Shares are percentages without an exponent: an add here is ~1e-5 % of the flops ("1.3e-5%" before).
    const shares = (await page.locator('#analyze-ops tbody td').allInnerTexts()).filter((s) => s.endsWith('%'));
    assert.ok(shares.length >= 2 * TABLE_PAGE, `${shares.length} share cells`);
    for (const s of shares) assert.doesNotMatch(s, /\de[-+]?\d/, `a share written with an exponent: ${s}`);
    assert.ok(shares.includes('< 0.001%'), "the adds' tiny shares say so");
    assert.equal(await page.locator('#analyze-text').evaluate((e) => e.readOnly), true, 'shown as a read-only preview');
    const note = page.locator('#analyze-preview-note');
    assert.match(
      await note.innerText(),
      /^big\.mlir has \d+ characters: the whole text is analysed, and the box shows its first \d+, read-only \(a text box lays out all of its text at once/,
    );
    const shownChars = await page.locator('#analyze-text').evaluate((e) => e.value.length);
    times.five_mb = {
      bytes: text.length,
      ops: a.ops,
      worker_ms: Math.round(v.ms),
      render_ms: Math.round(v.render_ms),
      file_to_drawn_ms: totalMs,
      lesson_input_answered_ms: inputMs,
      pending_while_typing: Boolean(pendingDuring),
    };
    // Offered a way to edit it all the same (issue 22 item 10): the whole text, editable, and a
    // keystroke analyses the edited text.
    assert.ok(shownChars < text.length);
    await note.locator('button', { hasText: `Edit all ${text.length} characters here` }).click();
    const box = await page.locator('#analyze-text').evaluate((e) => ({ readOnly: e.readOnly, length: e.value.length }));
    assert.deepEqual(box, { readOnly: false, length: text.length });
    assert.equal(await note.isHidden(), true);
    await page.locator('#analyze-text').pressSequentially('// edited\n');
    await waitShown(page, 'input', 120000);
    assert.equal(await page.evaluate(() => window.rooflineLab.analysis().ops.length), a.ops);
    t.diagnostic(
      `5 MB module (${(text.length / 1e6).toFixed(2)} MB, ${a.ops} ops): Worker ${Math.round(v.ms)} ms (parse + verify + lower + cost); section redrawn in ${Math.round(v.render_ms)} ms; ` +
        `file set → drawn ${totalMs} ms; the lesson answered an input in ${inputMs} ms while ${pendingDuring ? 'the Worker was busy' : 'the analysis had already finished'}`,
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
});
