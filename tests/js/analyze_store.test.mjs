// Section 8's part of the store (web/analyze_state.js) without the core: which request is the
// newest (an older answer changes nothing), the texts the rows and the errors refer to, the
// analyses' numbers, and which parts of the page state the view's derivation and its figure are
// made from (analyzeBaseKey, analyzeFigureKey: a new key, a new derivation or drawing).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  analyzeBaseKey,
  analyzeFigureKey,
  createAnalyzeState,
  errorsText,
  isLatestRequest,
  sameKey,
  setAllRoofs,
  setAnalysis,
  setCancelled,
  setCleared,
  setDtype,
  setFailure,
  setPage,
  setPending,
  setRoof,
  setRun,
  setRunCancelled,
  setRunPending,
  setSelected,
  setSelectedFusion,
  setSort,
} from '../../web/analyze_state.js';

const T = '2030-01-02T03:04:05.000Z';
/** What the Worker answers for a text that analyses (ops: 60, so the table has two pages). */
const good = (file, over = {}) => ({
  summary: { file, modules: [{ name: 'main' }], ops: Array.from({ length: 60 }, (_, i) => ({ line: i + 1 })) },
  placement: [],
  errors: [],
  ms: 1,
  ...over,
});
/** What it answers for a text that does not: no module, an error at line 2. */
const bad = (over = {}) => ({
  summary: { file: 'input', modules: [], ops: [] },
  placement: [],
  errors: [{ line: 2, column: 3, message: 'expected an op' }],
  ms: 1,
  ...over,
});

describe('the newest request', () => {
  test('an answer to an older request changes nothing, and the newest is shown with its text', () => {
    const a1 = setPending(createAnalyzeState(), 'first');
    const first = a1.request;
    const a2 = setPending(a1, 'second');
    const second = a2.request;
    assert.notEqual(first, second);
    assert.equal(isLatestRequest(a2, second), true);
    assert.equal(isLatestRequest(a2, first), false);
    assert.equal(setAnalysis(a2, good('old.mlir', { text: 'old', request: first }), T), a2);
    assert.equal(setFailure(a2, 'the Worker stopped', first), a2);
    assert.equal(setCancelled(a2, first), a2);
    const b = setAnalysis(a2, good('new.mlir', { text: 'new', request: second }), T);
    assert.equal(b.pending, null);
    assert.equal(b.shown.name, 'new.mlir');
    assert.equal(b.shown.text, 'new');
    assert.equal(b.failedText, null);
    assert.equal(errorsText(b), 'new');
    // The newest request's cancel and failure are taken.
    assert.equal(setCancelled(setPending(b, 'x'), b.request + 1).cancelled, true);
    assert.equal(setFailure(setPending(b, 'x'), 'gone', b.request + 1).errors[0].message, 'gone');
  });

  test('a text that gives no module keeps the one on show, and its errors refer to the text that failed', () => {
    let a = setAnalysis(setPending(createAnalyzeState(), 'x'), good('a.mlir', { text: 'A' }), T);
    const shown = a.shown;
    a = setPending(a, 'y');
    a = setAnalysis(a, bad({ text: 'B', request: a.request }), T);
    assert.equal(a.shown, shown, 'the previous valid analysis stays');
    assert.equal(a.shown.text, 'A', 'its rows refer to its own text');
    assert.equal(a.failedText, 'B');
    assert.equal(errorsText(a), 'B', 'the errors refer to the text that failed');
    // The Worker failing, or a cancel, leaves the text the errors refer to as it was.
    assert.equal(errorsText(setFailure(setPending(a, 'z'), 'gone')), 'B');
    assert.equal(errorsText(setCancelled(setPending(a, 'z'))), 'B');
    // A later text that analyses is shown, and the errors refer to it again.
    a = setAnalysis(setPending(a, 'w'), good('c.mlir', { text: 'C' }), T);
    assert.equal(a.failedText, null);
    assert.equal(errorsText(a), 'C');
    assert.equal(errorsText(createAnalyzeState()), null);
  });

  test('Clear drops the texts and every answer still to come', () => {
    const a = setPending(setAnalysis(setPending(createAnalyzeState(), 'x'), good('a.mlir', { text: 'A' }), T), 'y');
    const pending = a.request;
    const cleared = setCleared(a);
    assert.equal(cleared.shown, null);
    assert.equal(cleared.failedText, null);
    assert.equal(errorsText(cleared), null);
    assert.equal(isLatestRequest(cleared, pending), false);
    assert.equal(setAnalysis(cleared, good('late.mlir', { text: 'late', request: pending }), T), cleared);
    assert.equal(setCancelled(cleared, pending), cleared, "the cancel Clear asked for is not the page's state");
    assert.equal(setFailure(cleared, 'gone', pending), cleared);
  });
});

describe('the analyses shown are numbered by the store', () => {
  test('the same changes give the same state, and each analysis shown its own number', () => {
    const once = () => setAnalysis(createAnalyzeState(), good('a.mlir', { text: 'A' }), T);
    assert.deepEqual(once(), once(), 'no number comes from outside the store');
    let a = once();
    assert.equal(a.shown.seq, 1);
    a = setAnalysis(a, bad({ text: 'B' }), T);
    assert.equal(a.seq, 1, 'a text that gives no module is not shown, so not numbered');
    const ran = setRunPending(a, 'running');
    assert.equal(ran.run.seq, 1);
    // After Clear the numbers go on: the run's answer (or its cancel) cannot land on a later analysis.
    a = setAnalysis(setCleared(ran), good('b.mlir', { text: 'B2' }), T);
    assert.equal(a.shown.seq, 2);
    const again = setRunPending(a, 'running');
    assert.equal(setRunCancelled(again, 1), again);
    assert.equal(setRun(again, 1, { report: {}, ms: 1 }), again);
    assert.equal(setRunCancelled(again, 2).run.cancelled, true);
  });

  test('the texts, the request and the numbers survive JSON and structuredClone', () => {
    let a = setAnalysis(setPending(createAnalyzeState(), 'x'), good('a.mlir', { text: 'A\nB\n' }), T);
    a = setAnalysis(setPending(a, 'y'), bad({ text: 'bad\ntext' }), T);
    a = setPending(a, 'z');
    const copy = JSON.parse(JSON.stringify(a));
    assert.deepEqual(copy, a);
    assert.deepEqual(structuredClone(a), a);
    assert.equal(errorsText(copy), 'bad\ntext');
    assert.equal(copy.shown.text, 'A\nB\n');
    assert.equal(isLatestRequest(copy, a.request), true);
    assert.equal(setAnalysis(copy, good('c.mlir', { request: a.request - 1 }), T), copy);
  });
});

describe('what the view is derived from', () => {
  const page = (analyze, over = {}) => ({
    analyze,
    params: { peak: 100, bandwidth: 20 },
    measurements: null,
    ...over,
  });
  const shown = setAnalysis(createAnalyzeState(), good('a.mlir', { text: 'A' }), T);
  const withRun = (a) => {
    const pending = setRunPending(a, 'running');
    return setRun(pending, pending.run.seq, { report: { fusions: [{}, {}] }, ms: 1 }, T);
  };

  test('a new order, page or selection, or a request in the Worker, derives nothing again', () => {
    const s = page(shown);
    const key = analyzeBaseKey(s);
    for (const [what, a] of [
      ['order', setSort(shown, { key: 'flops', dir: 'desc' })],
      ['page', setPage(shown, 1)],
      ['selection', setSelected(shown, 3)],
      ['every roof', setAllRoofs(shown, true)],
      ['a request', setPending(shown, 'x')],
      ['a text that failed', setAnalysis(shown, bad(), T)],
    ])
      assert.equal(sameKey(analyzeBaseKey(page(a)), key), true, what);
    assert.equal(setPage(shown, 1).page, 1, 'the page did change');
  });

  test('a new analysis, roof, dtype, budget, measurement or run report derives it again', () => {
    const s = page(shown);
    const key = analyzeBaseKey(s);
    for (const [what, other] of [
      ['analysis', page(setAnalysis(shown, good('b.mlir'), T))],
      ['roof', page(setRoof(shown, 'h100-sxm'))],
      ['dtype', page(setDtype(shown, 'bf16'))],
      ['peak', page(shown, { params: { peak: 200, bandwidth: 20 } })],
      ['bandwidth', page(shown, { params: { peak: 100, bandwidth: 40 } })],
      ['measurements', page(shown, { measurements: { cores: 1 } })],
      ['run report', page(withRun(shown))],
    ])
      assert.equal(sameKey(analyzeBaseKey(other), key), false, what);
    assert.equal(sameKey(key, null), false, 'nothing derived yet matches no key');
    assert.equal(sameKey(key, key.slice(0, -1)), false);
  });

  test('the figure is drawn again for a new base, roofs drawn or selection, not for a new order or page', () => {
    const ran = withRun(shown);
    const key = analyzeFigureKey(page(ran));
    assert.equal(sameKey(analyzeFigureKey(page(setSort(ran, { key: 'bytes', dir: 'asc' }))), key), true, 'order');
    assert.equal(sameKey(analyzeFigureKey(page(setPage(ran, 1))), key), true, 'page');
    assert.equal(sameKey(analyzeFigureKey(page(setPending(ran, 'x'))), key), true, 'a request');
    assert.equal(sameKey(analyzeFigureKey(page(setSelected(ran, 2))), key), false, 'an op selected');
    assert.equal(sameKey(analyzeFigureKey(page(setSelectedFusion(ran, 1))), key), false, 'a fusion selected');
    assert.equal(sameKey(analyzeFigureKey(page(setAllRoofs(ran, true))), key), false, 'every roof');
    assert.equal(sameKey(analyzeFigureKey(page(setRoof(ran, 'measured'))), key), false, 'another roof');
  });
});
