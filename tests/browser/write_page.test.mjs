// Section 8's Write tab (issue 26): dist/index.html from file:// and over http, and
// dist/roofline-lab.html alone. A function typed into the editor is lowered in the Worker to the
// StableHLO the core lowers it to in Node, shown beside it, analysed and run as pasted text; a
// program that does not lower shows program.py:LINE:COL and is marked in the editor at that place;
// undo brings the last one back; the link carries the source and reproduces it; a bad link is
// said; the tabs and the editor work from the keyboard; axe-core finds nothing serious; no long
// main-thread task while typing.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { encodeSource } from '../../web/model/source_link.js';
import { browserAndServer, npyFile, openPage, ROOT, waitReady } from './browser.mjs';

const fixture = browserAndServer({ alone: true });
const { pages } = fixture;
const AXE = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');
let core;
before(async () => {
  core = await loadNodeCore();
});

const LAYER = `import jax
import jax.numpy as jnp

def layer(x, w):
    return jnp.tanh(x @ w) * 0.5

x = jax.ShapeDtypeStruct((8, 24), jnp.float32)
w = jax.ShapeDtypeStruct((24, 40), jnp.float32)
jax.jit(layer).lower(x, w)
`;
// jnp.foo on line 5, column 12.
const BAD = LAYER.replace('return jnp.tanh(x @ w) * 0.5', 'return jnp.foo(x @ w) * 0.5');
// jnp.foo after a 2-byte character on its line: the core's column 19 (UTF-8 bytes) is the editor's 18.
const BAD_UTF8 = LAYER.replace('return jnp.tanh(x @ w) * 0.5', "return ('ü', jnp.foo(x @ w))");

const view = (page) => page.evaluate(() => window.rooflineLab.writeView());
/** Waits until the Write tab shows function `fn` lowered, with nothing pending, and its analysis is on show. */
async function waitLowered(page, fn) {
  await page.waitForFunction(
    (f) => {
      const v = window.rooflineLab.writeView();
      return (
        v.function === f &&
        !v.pending &&
        !v.error &&
        window.rooflineLab.analysis()?.file === `program.py (${f}, lowered)` &&
        !window.rooflineLab.analyzeView().pending
      );
    },
    fn,
    { timeout: 20000 },
  );
}
const editorContent = (page) => page.locator('#write-editor .cm-content');
/** The text of the read-only StableHLO editor, as the page draws it (its lines). */
const hloShown = (page) =>
  page
    .locator('#write-hlo .cm-line')
    .allTextContents()
    .then((lines) => lines.join('\n'));
/**
 * Replaces the editor's text as a reader's paste does: all selected, then a paste event carrying
 * the text (CodeMirror reads it from the event; Playwright's insertText would go through the
 * browser's own contenteditable editing instead, which adds inline styles the page's CSP refuses).
 */
async function typeProgram(page, text) {
  await editorContent(page).click();
  await page.keyboard.press('Control+a');
  await editorContent(page).evaluate((content, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

for (const name of Object.keys(pages)) {
  describe(`section 8, Write: ${name}`, () => {
    test('a typed function is lowered beside the editor, analysed and run, an error is marked at its line:col, and the link reproduces it', async () => {
      const { page, problems } = await fixture.open(name);
      assert.equal(await page.locator('#analyze-write').isHidden(), true, 'Paste / open is the first tab');
      await page.locator('#analyze-tab-write').click();
      assert.equal(await page.locator('#analyze-tab-write').getAttribute('aria-selected'), 'true');
      assert.equal(await page.locator('#analyze-paste').isHidden(), true);
      // The Write tab opens on the lesson: the module the emitter prints for tanh(a @ b).
      await waitLowered(page, 'workload');
      const lesson = core.emitWorkload(32, 16, 8, 'f32').value;
      assert.equal((await view(page)).stablehlo, lesson);
      assert.equal(await hloShown(page), lesson);
      assert.equal(
        await page.locator('#analyze-summary tr', { hasText: 'flops' }).first().locator('td').innerText(),
        '8192',
      );

      // Typed: a layer of our own, lowered as the core lowers it in Node, and analysed as its text is.
      await typeProgram(page, LAYER);
      await waitLowered(page, 'layer');
      const expected = core.lower(LAYER, {});
      assert.equal(expected.ok, true);
      assert.equal((await view(page)).stablehlo, expected.text);
      assert.equal(await hloShown(page), expected.text);
      const totals = await page.evaluate(() => window.rooflineLab.analysis().totals);
      assert.equal(totals.flops, core.analyzeText(expected.text).value.totals.flops);
      assert.ok(totals.flops >= 2 * 8 * 24 * 40, `the matmul's flops at least: ${totals.flops}`);
      assert.match(await page.locator('#write-status').innerText(), /^Lowered layer in \d+ ms \(in the Worker\)/);

      // A program that does not lower: program.py:5:12, marked in the editor over jnp.foo.
      await typeProgram(page, BAD);
      await page.waitForFunction(() => window.rooflineLab.writeView().error !== null, null, { timeout: 20000 });
      const bad = await view(page);
      assert.equal(bad.error.line, 5);
      assert.equal(bad.error.column, 12);
      assert.match(bad.error.text, /^program\.py:5:12: jnp\.foo is not supported here; supported: /);
      assert.equal(await page.locator('#write-error').innerText(), bad.error.text);
      assert.deepEqual(
        bad.marks.map(({ line, column, to_column: to }) => ({ line, column, to })),
        [{ line: 5, column: 12, to: 19 }],
      );
      const mark = page.locator('#write-editor .cm-lintRange-error');
      assert.equal(await mark.innerText(), 'jnp.foo');
      assert.equal(
        await page.locator('#write-editor .cm-line').nth(4).locator('.cm-lintRange-error').count(),
        1,
        'on the fifth line',
      );
      // The last module that lowered stays beside it, said to be the last one, with its analysis.
      assert.equal(bad.stablehlo, expected.text);
      assert.equal(await page.locator('#write-stale').isVisible(), true);
      assert.equal(await page.evaluate(() => window.rooflineLab.analysis().file), 'program.py (layer, lowered)');

      // Undo brings the layer back, and the error goes.
      await editorContent(page).click();
      await page.keyboard.press('Control+z');
      await page.waitForFunction(
        () => window.rooflineLab.writeView().error === null && !window.rooflineLab.writeView().pending,
        null,
        { timeout: 20000 },
      );
      assert.equal((await view(page)).source, LAYER);
      assert.equal(await mark.count(), 0);
      assert.equal(await page.locator('#write-error').isHidden(), true);

      // Run in this browser: the lowered module, fused as a compiler would fuse it, each fusion timed.
      await page.locator('#analyze-run').click();
      await page.waitForFunction(() => window.rooflineLab.runView().state === 'done', null, { timeout: 60000 });
      const run = await page.evaluate(() => window.rooflineLab.runView());
      assert.equal(run.name, 'program.py (layer, lowered)');
      assert.equal(run.status, 'passed');
      assert.ok(
        run.fusions.some((f) => f.ops.some((o) => o.op === 'stablehlo.dot_general') && f.seconds > 0) ||
          run.rows.some((r) => r.op === 'stablehlo.dot_general' && r.seconds > 0),
        JSON.stringify(run.fusions.map((f) => f.ops.map((o) => o.op))),
      );
      // A table row selects its op's line in the StableHLO beside the editor.
      const rows = await page.evaluate(() => window.rooflineLab.analyzeRows());
      const tanh = rows.findIndex((r) => r.op === 'stablehlo.tanh');
      assert.ok(tanh >= 0);
      await page.locator('#analyze-ops tbody tr').nth(tanh).click();
      await page.waitForFunction((l) => window.rooflineLab.writeView().stablehlo_line === l, rows[tanh].line, {
        timeout: 5000,
      });
      assert.match(expected.text.split('\n')[rows[tanh].line - 1], /stablehlo\.tanh/);

      // The link carries the source: opened anew, it shows the same program, lowered the same.
      const hash = await page.evaluate(() => location.hash);
      assert.match(hash, /(^#|&)py=[A-Za-z0-9_-]+(&|$)/);
      assert.ok(hash.includes(`py=${encodeSource(LAYER).value}`));
      const again = await fixture.open(name, hash);
      await waitLowered(again.page, 'layer');
      const reopened = await view(again.page);
      assert.equal(reopened.mode, 'write');
      assert.equal(reopened.source, LAYER);
      assert.equal(reopened.stablehlo, expected.text);
      assert.deepEqual(again.problems, []);
      await again.page.close();

      // Paste / open shows its own program; back on Write, the written one is analysed again.
      await page.locator('#analyze-tab-paste').click();
      await page.locator('#analyze-examples button[data-example="mlp"]').click();
      await page.waitForFunction(() => window.rooflineLab.analysis()?.file === 'mlp.mlir', null, { timeout: 20000 });
      await page.locator('#analyze-tab-write').click();
      await waitLowered(page, 'layer');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test("the reader's program is not lost: an example replacing it offers Undo, and a reload keeps it", async () => {
      const { page, problems } = await fixture.open(name);
      await page.locator('#analyze-tab-write').click();
      await waitLowered(page, 'workload');
      await typeProgram(page, LAYER);
      await waitLowered(page, 'layer');
      // An example replaces the program: the page says so, and Undo brings it back.
      await page.locator('#write-example').selectOption('mlp');
      await page.waitForFunction(() => window.rooflineLab.writeView().example === 'mlp');
      assert.match(
        await page.locator('#write-notice').innerText(),
        /replaced your program\. Undo puts your program back in the editor/,
      );
      assert.equal((await view(page)).undo, true);
      // An edit to the example keeps the Undo.
      await editorContent(page).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('# x');
      await page.waitForFunction(() => window.rooflineLab.writeView().source.endsWith('# x'));
      assert.equal((await view(page)).undo, true);
      await page.locator('#write-undo').click();
      await waitLowered(page, 'layer');
      assert.equal(
        await page.evaluate(() => document.activeElement?.closest('#write-editor') !== null),
        true,
        'the focus goes to the editor',
      );
      const back = await view(page);
      assert.equal(back.source, LAYER);
      assert.equal(back.undo, false);
      assert.equal(await page.locator('#write-notice-box').isHidden(), true);
      // Kept in this browser: the page opened again without a link shows it in the Write tab.
      await page.evaluate(() => history.replaceState(null, '', location.pathname));
      await page.reload();
      await waitReady(page);
      await page.locator('#analyze-tab-write').click();
      await waitLowered(page, 'layer');
      assert.equal((await view(page)).source, LAYER);
      assert.equal(await page.locator('#write-drafts-note').isHidden(), true, 'nothing failed to save');
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

// A function of the reader's, run on their own data: two .npy files dropped on the run's row (as
// from a file manager: a drop event carrying Files), the result downloaded as NumPy reads it.
const SCALED = `import jax
import jax.numpy as jnp

def scaled(x, w):
    return jnp.tanh(x @ w) * 0.5

x = jax.ShapeDtypeStruct((2, 3), jnp.float32)
w = jax.ShapeDtypeStruct((3, 2), jnp.float32)
jax.jit(scaled).lower(x, w)
`;
const X = [0.5, -1, 2, 0.25, 0, -0.75];
const W = [1, -2, 0.5, 0.125, -1, 3];

/** Drops `files` ({name, bytes: number[]}) on the element `selector`, as a browser does a drag from the desktop. */
async function dropFiles(page, selector, files) {
  await page.locator(selector).evaluate((target, list) => {
    const data = new DataTransfer();
    for (const f of list)
      data.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: 'application/octet-stream' }));
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
}

for (const name of ['index.html over http://127.0.0.1', 'roofline-lab.html alone, from file://']) {
  test(`section 8, Write (${name}): a written function runs on dropped .npy files and its result downloads as NumPy reads it`, async () => {
    const { page, problems } = await fixture.open(name);
    await page.locator('#analyze-tab-write').click();
    await waitLowered(page, 'workload');
    await typeProgram(page, SCALED);
    await waitLowered(page, 'scaled');
    assert.equal(await hloShown(page), core.lower(SCALED, {}).text);
    assert.match(await hloShown(page), /func\.func public @main\(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf32>\)/);
    assert.equal(await page.locator('#analyze-args-hint').isVisible(), true, 'the row says it takes dropped files');

    // Dropped in the argument order; the choice turns to files by itself.
    await dropFiles(page, '#analyze-run-controls', [
      { name: 'x.npy', bytes: [...npyFile('<f4', [2, 3], new Float32Array(X))] },
      { name: 'w.npy', bytes: [...npyFile('<f4', [3, 2], new Float32Array(W))] },
    ]);
    await page.waitForFunction(() => window.rooflineLab.runView().choice.files?.length === 2);
    assert.equal(await page.locator('#analyze-inputs').inputValue(), 'files');
    assert.deepEqual(
      (await page.evaluate(() => window.rooflineLab.runView().choice.files)).map((f) => f.name),
      ['x.npy', 'w.npy'],
    );
    await page.locator('#analyze-run').click();
    await page.waitForFunction(() => window.rooflineLab.runView().state === 'done', null, { timeout: 60000 });
    const run = await page.evaluate(() => window.rooflineLab.runView());
    assert.equal(run.status, 'passed');
    assert.equal(run.inputs, 'x.npy, w.npy');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#analyze-run-files a', { hasText: 'result_0.npy' }).click(),
    ]);
    const bytes = readFileSync(await download.path());
    const headerLength = bytes[8] | (bytes[9] << 8);
    assert.equal(
      bytes
        .subarray(10, 10 + headerLength)
        .toString('latin1')
        .trim(),
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }",
    );
    const data = bytes.subarray(10 + headerLength);
    const got = [...new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength))];
    // tanh(x @ w) * 0.5 by hand, in double: f32 results within 2 ulp-ish of it (the lesson's tolerance).
    const want = [];
    for (let i = 0; i < 2; i++)
      for (let j = 0; j < 2; j++) {
        let dot = 0;
        for (let k = 0; k < 3; k++) dot += X[i * 3 + k] * W[k * 2 + j];
        want.push(Math.tanh(dot) * 0.5);
      }
    got.forEach((g, i) =>
      assert.ok(Math.abs(g - want[i]) <= 2e-5 + 2e-5 * Math.abs(want[i]), `result[${i}] = ${g}, expected ${want[i]}`),
    );

    // A dropped file that is not NumPy's format is named by the core when the run reads it (the run stops with that error).
    await dropFiles(page, '#analyze-run-controls', [
      { name: 'notes.txt', bytes: [...Buffer.from('not an array')] },
      { name: 'w.npy', bytes: [...npyFile('<f4', [3, 2], new Float32Array(W))] },
    ]);
    await page.waitForFunction(() => window.rooflineLab.runView().choice.files?.[0]?.name === 'notes.txt');
    await page.locator('#analyze-run').click();
    await page.waitForFunction(() => window.rooflineLab.runView().state === 'error', null, { timeout: 60000 });
    const said = await page.locator('#analyze-run-status').innerText();
    assert.match(said, /notes\.txt/, said);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

describe('section 8, Write: links, keyboard, accessibility, long tasks', () => {
  test('a link whose program cannot be read says why and opens Write on the lesson', async () => {
    const { page, problems } = await fixture.open('index.html from file://', '#py=abc$def&m=64');
    const notice = page.locator('#write-link-error');
    assert.equal(await notice.isVisible(), true);
    assert.match(
      await notice.innerText(),
      /^py= in the link is not base64url: it has "\$" at character 4 .*; the program on show is kept$/,
    );
    await waitLowered(page, 'workload');
    assert.equal((await view(page)).example, 'lesson');
    assert.equal(await page.evaluate(() => window.rooflineLab.state().m), 64, "the lesson's keys still apply");
    // A link opened on the page (hashchange) with a good program replaces it and the notice goes.
    await page.evaluate(
      (h) => {
        location.hash = h;
      },
      `#py=${encodeSource(LAYER).value}`,
    );
    await waitLowered(page, 'layer');
    assert.equal(await notice.isHidden(), true);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a program too long for a link is said, and the link keeps the rest', async () => {
    const { page, problems } = await fixture.open('index.html from file://');
    await page.locator('#analyze-tab-write').click();
    await waitLowered(page, 'workload');
    const long = `${LAYER}${'# a comment to make the program long\n'.repeat(500)}`;
    await typeProgram(page, long);
    await page.waitForFunction(() => window.rooflineLab.writeView().link_note !== null, null, { timeout: 20000 });
    assert.match(
      await page.locator('#write-link-note').innerText(),
      /the program is 18\d{3} bytes of UTF-8; a link carries at most 16384, so the link does not carry it/,
    );
    assert.ok(!(await page.evaluate(() => location.hash)).includes('py='));
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`the tabs and the editor from the keyboard, axe-core clean with an error on show (${colorScheme})`, async (t) => {
      const context = await fixture.browser.newContext({ bypassCSP: true, colorScheme });
      const { page, problems } = await openPage(fixture.browser, pages['index.html over http://127.0.0.1']().url, {
        context,
      });
      await waitReady(page);
      // Arrow keys move between the tabs and open them.
      await page.locator('#analyze-tab-paste').focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'analyze-tab-write');
      assert.equal(await page.locator('#analyze-write').isVisible(), true);
      await waitLowered(page, 'workload');
      // Line numbers, and Python highlighted: a keyword in another colour than a plain name.
      const numbers = await page.locator('#write-editor .cm-lineNumbers .cm-gutterElement').allTextContents();
      // (CodeMirror's first gutter element is a hidden spacer that sizes the gutter.)
      assert.deepEqual(numbers.slice(numbers.indexOf('1'), numbers.indexOf('1') + 11), [
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
        '7',
        '8',
        '9',
        '10',
        '11',
      ]);
      const colours = await page
        .locator('#write-editor .cm-line')
        .nth(4)
        .evaluate((line) => {
          const def = [...line.querySelectorAll('span')].find((s) => s.textContent === 'def');
          return { def: def ? getComputedStyle(def).color : null, line: getComputedStyle(line).color };
        });
      assert.ok(colours.def && colours.def !== colours.line, `def is highlighted: ${JSON.stringify(colours)}`);
      // Tab indents in the editor (by 4 spaces, Python's unit), typed keys go in, and lowering follows.
      await editorContent(page).click();
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('Tab');
      await page.waitForFunction(() => window.rooflineLab.writeView().source.startsWith('    import jax'), null, {
        timeout: 5000,
      });
      await page.waitForFunction(() => window.rooflineLab.writeView().error?.line === 1, null, { timeout: 20000 });
      await page.keyboard.press('Shift+Tab');
      await page.waitForFunction(
        () => !window.rooflineLab.writeView().pending && window.rooflineLab.writeView().error === null,
        null,
        { timeout: 20000 },
      );
      // Typing a program key by key, an example picked from the list: each lowered.
      await page.keyboard.press('Control+End');
      await page.keyboard.type('y = 1 +\n');
      await page.waitForFunction(() => window.rooflineLab.writeView().error?.line === 11, null, { timeout: 20000 });
      const error = (await view(page)).error;
      await page.locator('#write-example').selectOption('attention');
      await waitLowered(page, 'attention');
      // The fori_loop example: one stablehlo.while beside it, and it runs.
      await page.locator('#write-example').selectOption('fori_loop');
      await waitLowered(page, 'power_iteration');
      assert.match((await view(page)).stablehlo, /= stablehlo\.while\(/);
      await page.locator('#analyze-run').click();
      await page.waitForFunction(
        () =>
          window.rooflineLab.runView().state === 'done' &&
          window.rooflineLab.runView().name === 'program.py (power_iteration, lowered)',
        null,
        { timeout: 60000 },
      );
      const loopRun = await page.evaluate(() => window.rooflineLab.runView());
      assert.equal(loopRun.status, 'passed');
      assert.ok(
        loopRun.rows.some((r) => r.op === 'stablehlo.while'),
        JSON.stringify(loopRun.rows.map((r) => r.op)),
      );
      await page.locator('#analyze-tab-write').focus();
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.locator('#analyze-paste').isVisible(), true);
      await page.keyboard.press('End');
      assert.equal(await page.locator('#analyze-write').isVisible(), true);
      t.diagnostic(`the error typed: ${error.text}`);
      // axe-core on section 8 with the Write tab, a lowered program and an error marked: one after
      // a character of two UTF-8 bytes, marked where it is all the same.
      await typeProgram(page, BAD_UTF8);
      await page.waitForFunction(() => window.rooflineLab.writeView().marks.length === 1, null, { timeout: 20000 });
      const utf8 = await view(page);
      assert.deepEqual([utf8.error.line, utf8.error.column], [5, 19]);
      assert.deepEqual([utf8.marks[0].line, utf8.marks[0].column], [5, 18]);
      assert.equal(await page.locator('#write-editor .cm-lintRange-error').innerText(), 'jnp.foo');
      if (colorScheme === 'light') {
        // build/screenshots/write.png (docs/screenshot-write.png is a copy taken by hand).
        await page.locator('#analyze-write').scrollIntoViewIfNeeded();
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        mkdirSync(join(ROOT, 'build', 'screenshots'), { recursive: true });
        await page.locator('#analyze-write').screenshot({ path: join(ROOT, 'build', 'screenshots', 'write.png') });
      }
      await page.addScriptTag({ path: AXE });
      const result = await page.evaluate(() =>
        window.axe.run(document.getElementById('analyze'), { resultTypes: ['violations'] }),
      );
      const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      const minor = result.violations.filter((v) => !serious.includes(v));
      if (minor.length) t.diagnostic(`minor: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}`);
      assert.deepEqual(
        serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
      );
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  // The issue's goal is no main-thread task over 200 ms; as tests/browser/long_tasks.test.mjs does,
  // the test fails at twice that, and only when a second measurement is over too: on this shared
  // 2-core VM single tasks stretch 2-4x under load (the first editor's task took 100-160 ms on a
  // quiet machine and 290-500 ms with load average 10).
  test('no long main-thread task opening Write, typing and lowering (goal 200 ms, printed)', async (t) => {
    const measure = async () => {
      const { page, problems } = await fixture.open('index.html over http://127.0.0.1');
      // The page's own start (section 2's check arriving) is over before the tasks are recorded.
      await page.waitForFunction(() => window.rooflineLab.lessonChecks() !== null, null, { timeout: 60000 });
      await page.evaluate(() => {
        window.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
        }).observe({ type: 'longtask' });
      });
      await page.locator('#analyze-tab-write').click();
      await waitLowered(page, 'workload');
      await editorContent(page).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('y = a + 1\n');
      await page.waitForFunction(() => window.rooflineLab.writeView().source.endsWith('y = a + 1\n'), null, {
        timeout: 20000,
      });
      await page.locator('#write-example').selectOption('attention');
      await waitLowered(page, 'attention');
      const tasks = await page.evaluate(() => [...window.__longTasks]);
      assert.deepEqual(problems, []);
      await page.close();
      return tasks;
    };
    let tasks = await measure();
    t.diagnostic(
      `long tasks opening Write, typing and lowering: ${tasks.length ? tasks.join(', ') : 'none'} ms (goal: none over 200 ms)`,
    );
    if (Math.max(0, ...tasks) >= 400) {
      tasks = await measure();
      t.diagnostic(`over 400 ms once: measured again: ${tasks.length ? tasks.join(', ') : 'none'} ms`);
    }
    assert.ok(Math.max(0, ...tasks) < 400, `no main-thread task near the goal's double: ${tasks.join(', ')}`);
  });
});
