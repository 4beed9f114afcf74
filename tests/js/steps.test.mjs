// Work done in steps (web/model/steps.js) and what the page derives with it: the same values at
// once and across tasks, sorting by rank equal to sorting by localeCompare, the table's pages
// (web/analyze_state.js), and the Worker's answer made objects in steps (web/core.js,
// web/worker_host.js) equal to the CLI's object.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { denseHlo, denseStablehlo } from '../../scripts/lib/dense_modules.mjs';
import { expandAnalysis, expandAnalysisSteps } from '../../web/core.js';
import { summarizeFile } from '../../web/model/analysis.js';
import {
  drawable,
  figurePoints,
  orderOf,
  placeOps,
  POINT_LIMIT,
  sortRows,
  TABLE_PAGE,
} from '../../web/model/analysis_view.js';
import { runSteps, sliced } from '../../web/model/steps.js';
import {
  analyzeBaseSteps,
  createAnalyzeState,
  deriveAnalyzeView,
  setAnalysis,
  setPage,
  setSort,
  withSort,
} from '../../web/analyze_state.js';
import { analysisOfWorker, analysisOfWorkerSteps, TASKS } from '../../web/worker_host.js';

let core;
before(async () => {
  core = await loadNodeCore();
});

/** A generator of `n` steps that records each and returns their sum. */
function* counted(n, seen) {
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    seen.push(i);
    sum += i;
    if (i < n) yield;
  }
  return sum;
}

describe('steps', () => {
  test('runSteps runs every step now and gives the return value', () => {
    const seen = [];
    assert.equal(runSteps(counted(5, seen)), 15);
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
  });

  test('sliced runs the steps in later tasks, and gives the same value', async () => {
    const seen = [];
    let tasks = 0;
    const later = (f) =>
      setTimeout(() => {
        tasks += 1;
        f();
      }, 0);
    const value = await new Promise((resolve, reject) =>
      sliced(counted(1000, seen), () => true, resolve, reject, later),
    );
    assert.equal(value, 500500);
    assert.equal(seen.length, 1000);
    assert.ok(tasks >= 1);
    // Nothing runs in the calling task.
    const none = [];
    sliced(
      counted(3, none),
      () => true,
      () => {},
      () => {},
    );
    assert.deepEqual(none, []);
  });

  test('a slice hands the thread back once its time is spent: a step of 30 ms per slice', async () => {
    let tasks = 0;
    function* slow() {
      for (let i = 0; i < 4; i++) {
        const t0 = performance.now();
        while (performance.now() - t0 < 30); // a step longer than a slice
        yield;
      }
      return 'done';
    }
    const later = (f) =>
      setTimeout(() => {
        tasks += 1;
        f();
      }, 0);
    assert.equal(await new Promise((resolve, reject) => sliced(slow(), () => true, resolve, reject, later)), 'done');
    assert.equal(tasks, 5, 'one task per step (each takes a whole slice), and one to return');
  });

  test('sliced stops when it is no longer wanted, and hands a throw to onError', async () => {
    const seen = [];
    let alive = true;
    let called = false;
    sliced(
      counted(10, seen),
      () => alive,
      () => {
        called = true;
      },
      () => {
        called = true;
      },
    );
    alive = false;
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(seen, []);
    assert.equal(called, false);
    function* broken() {
      yield;
      throw new Error('a bug');
    }
    const e = await new Promise((resolve) =>
      sliced(
        broken(),
        () => true,
        () => resolve(null),
        resolve,
      ),
    );
    assert.match(e.message, /a bug/);
  });
});

describe("the page's work in steps gives what it gave at once", () => {
  test("the Worker's answer, made objects in steps, is the CLI's object (HLO and StableHLO)", async () => {
    for (const [name, text] of [
      ['d.hlo', denseHlo(3e5)],
      ['d.mlir', denseStablehlo(6e5)],
    ]) {
      const answer = TASKS.analyze(core, { text }, { progress: () => {}, transfer: () => {} });
      const direct = core.analyzeText(text);
      const stepped = expandAnalysisSteps(answer.result.value);
      let yields = 0;
      let r;
      while (!(r = stepped.next()).done) yields += 1;
      assert.deepEqual(r.value, direct, name);
      assert.ok(yields >= 2, `${name}: ${yields} yields`);
      assert.deepEqual(expandAnalysis(answer.result.value), direct, name);
      const summary = analysisOfWorker(name, answer);
      assert.deepEqual(summary.summary, summarizeFile(name, direct));
      assert.deepEqual(summary.placement, placeOps(direct));
      const slicedValue = await new Promise((resolve, reject) =>
        sliced(analysisOfWorkerSteps(name, answer), () => true, resolve, reject),
      );
      assert.deepEqual(slicedValue, summary);
    }
  });

  test('the view derived in steps is the one derived at once; the order is kept apart from the rest', () => {
    const text = denseHlo(2e5);
    const a = setAnalysis(
      createAnalyzeState(),
      analysisOfWorker('d.hlo', TASKS.analyze(core, { text }, { progress: () => {}, transfer: () => {} })),
    );
    const budgets = { peak: 100, bandwidth: 20 };
    const steps = analyzeBaseSteps(core, a, budgets, null);
    let yields = 0;
    let r;
    while (!(r = steps.next()).done) yields += 1;
    assert.ok(yields >= 4, `${yields} yields`);
    const whole = deriveAnalyzeView(core, a, budgets, null);
    assert.deepEqual(withSort(r.value, a.sort), whole);
    const byBytes = withSort(r.value, { key: 'bytes', dir: 'desc' });
    assert.equal(byBytes.rows, r.value.rows, 'a new order shares the rows');
    assert.deepEqual(byBytes.sorted, sortRows(whole.rows, 'bytes', 'desc'));
    // The figure: at most POINT_LIMIT points, the ones with the most bytes, and the rest counted.
    const all = drawable(whole.rows).all;
    assert.ok(all.length > POINT_LIMIT, `${all.length} drawable ops`);
    assert.equal(whole.figure.points.length, POINT_LIMIT);
    assert.equal(whole.figure.notDrawn.overLimit, all.length - POINT_LIMIT);
    const least = Math.min(...whole.figure.points.map((p) => p.bytes));
    assert.ok(all.filter((row) => row.bytes > least).length <= POINT_LIMIT);
    assert.deepEqual(
      figurePoints(whole.rows, { ops: { ceilings: whole.ceilings }, program: null }).points,
      whole.figure.points,
    );
  });
});

describe("sorting by rank and the table's pages", () => {
  test('text sorts as localeCompare orders it, values that compare equal kept in program order, missing last', () => {
    const ops = ['b', 'a', 'B', 'é', 'e', null, 'a', 'A', 'z', 'résumé', 'resume', undefined, 'ä'];
    const rows = ops.map((op, index) => ({ index, op }));
    const missing = (v) => v === null || v === undefined;
    for (const dir of ['asc', 'desc']) {
      const sign = dir === 'desc' ? -1 : 1;
      const naive = [...rows].sort((x, y) => {
        if (missing(x.op) || missing(y.op))
          return missing(x.op) === missing(y.op) ? x.index - y.index : missing(x.op) ? 1 : -1;
        return sign * x.op.localeCompare(y.op) || x.index - y.index;
      });
      assert.deepEqual(
        sortRows(rows, 'op', dir).map((r) => r.index),
        naive.map((r) => r.index),
        dir,
      );
    }
  });

  test("numbers sort as a comparator sorts them: ties in program order, missing last, whatever the rows' order", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values = [0, -0, 1, 1, 2.5, -3, Infinity, -Infinity, 1e300, 5e-324, null, undefined, NaN];
    const rows = Array.from({ length: 3000 }, (_, index) => ({
      index,
      flops: values[Math.floor(random() * values.length)],
    }));
    const shuffled = [...rows].sort(() => random() - 0.5);
    const missing = (v) => v === null || v === undefined || Number.isNaN(v);
    for (const dir of ['asc', 'desc']) {
      const sign = dir === 'desc' ? -1 : 1;
      const naive = [...rows]
        .sort((x, y) => {
          if (missing(x.flops) || missing(y.flops))
            return missing(x.flops) === missing(y.flops) ? x.index - y.index : missing(x.flops) ? 1 : -1;
          return (x.flops === y.flops ? 0 : sign * (x.flops < y.flops ? -1 : 1)) || x.index - y.index;
        })
        .map((r) => r.index);
      assert.deepEqual(
        sortRows(rows, 'flops', dir).map((r) => r.index),
        naive,
        dir,
      );
      assert.deepEqual(
        sortRows(shuffled, 'flops', dir).map((r) => r.index),
        naive,
        `${dir}, rows shuffled`,
      );
    }
    assert.deepEqual(Array.from(orderOf(new Float64Array([3, NaN, 1, 3, 2]), 'desc')), [0, 3, 4, 2, 1]);
  });

  test('pages: a new analysis and a new order start at the first; a page past either end is the end one', () => {
    const summary = { ops: Array.from({ length: 2 * TABLE_PAGE + 1 }, () => ({})) };
    const a = { ...createAnalyzeState(), shown: { summary } };
    assert.equal(setPage(a, 2).page, 2);
    assert.equal(setPage(a, 3).page, 2);
    assert.equal(setPage(a, -1).page, 0);
    assert.equal(setPage(a, 1.5).page, 0, 'not an integer: unchanged');
    assert.equal(setSort(setPage(a, 2), { key: 'flops', dir: 'desc' }).page, 0);
    assert.equal(setPage(createAnalyzeState(), 4).page, 0, 'nothing shown: one page');
  });
});
