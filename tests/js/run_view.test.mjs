// Section 8's run, its pure parts through the real wasm core: the run report (web/model/run.js,
// the object run.mjs --json prints), the measured seconds matched to the analysis's rows, what
// each op achieved under the chosen roof (the core's, model::achieved through core.roofline),
// the program's measured total against its lower bound, and the run's states (Cancel is calm and
// keeps the earlier report; Clear empties; a new analysis drops the old run).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import {
  createAnalyzeState,
  deriveAnalyzeView,
  setAnalysis,
  setCancelled,
  setCleared,
  setRun,
  setRunCancelled,
  setRunChoice,
  setRunFailure,
  setRunPending,
  setSelected,
  setSelectedFusion,
} from '../../web/analyze_state.js';
import { summarizeFile } from '../../web/model/analysis.js';
import { fusedOpsText, fusionSpan, measuredSeconds, placeOps, sortRows } from '../../web/model/analysis_view.js';
import { runFile } from '../../web/model/run.js';
import { TASKS } from '../../web/worker_host.js';

let core;
let examples;
before(async () => {
  core = await loadNodeCore();
  examples = Object.fromEntries(core.exampleModules().value.map((e) => [e.name, e.text]));
});

const LESSON = { peak: 100, bandwidth: 20 };

/** `text` analysed as `name` and shown in `a` (a fresh store's section 8 by default). */
function analysed(name, text, a = createAnalyzeState()) {
  const result = core.analyzeText(text);
  return setAnalysis(a, {
    summary: summarizeFile(name, result),
    placement: placeOps(result),
    errors: [],
    ms: 1,
  });
}

describe('a run set beside the analysis', () => {
  test('runFile gives the run report with the file name first, as run.mjs --json prints it', () => {
    const r = runFile(core, 'mlp.mlir', examples.mlp, { inputs: 'seeded', seed: 3, fuse: false });
    assert.ok(r.ok, r.error);
    assert.equal(Object.keys(r.value)[0], 'file');
    assert.equal(r.value.file, 'mlp.mlir');
    assert.equal(r.value.status, 'passed');
    assert.equal(r.value.inputs, 'seeded (seed 3)');
    assert.ok(r.value.ops.length > 0 && r.value.ops.every((o) => o.seconds > 0));
    // ops_seconds is the timed ops' times summed (not the run's wall clock with its repeats).
    const sum = r.value.ops.reduce((s, o) => s + o.seconds, 0);
    assert.ok(Math.abs(r.value.ops_seconds - sum) <= 1e-12 * sum, `${r.value.ops_seconds} vs ${sum}`);
    assert.equal(runFile(core, 'x', examples.mlp, { inputs: 'sideways' }).ok, false);
  });

  test('each measured op gets its achieved GFLOP/s and GB/s and its share of the chosen roof, from the core', () => {
    let a = analysed('lesson.mlir', examples.lesson);
    a = setRunPending(a, 'running');
    const report = runFile(core, 'lesson.mlir', examples.lesson, { inputs: 'arange', fuse: false }).value;
    a = setRun(a, a.shown.seq, { report, ms: 5 });
    const view = deriveAnalyzeView(core, a, LESSON, null);
    const measured = view.rows.filter((r) => r.seconds !== null);
    assert.ok(measured.length > 0);
    assert.equal(measured.length, measuredSeconds(a.shown.summary, a.shown.placement, report).timed);
    for (const r of measured) {
      const op = report.ops.find((o) => o.line === r.line && o.column === r.column);
      assert.equal(r.seconds, op.seconds);
      assert.ok(r.top, `line ${r.line} is one of the entry's own ops`);
      assert.ok(Math.abs(r.gflops - r.flops / r.seconds / 1e9) <= 1e-12 * Math.max(r.gflops, 1e-300));
      assert.ok(Math.abs(r.gbs - r.bytes / r.seconds / 1e9) <= 1e-12 * Math.max(r.gbs, 1e-300));
      const bound = Math.max(r.flops / 100e9, r.bytes / 20e9);
      if (bound > 0) assert.ok(Math.abs(r.ofRoof - bound / r.seconds) <= 1e-12 * r.ofRoof, `line ${r.line}`);
      else assert.equal(r.ofRoof, null);
      // With flops, the share of the roof is achieved GFLOP/s over the op's ceiling.
      if (r.flops > 0 && r.bytes > 0)
        assert.ok(Math.abs(r.ofRoof - r.gflops / view.ceilings[r.index]) <= 1e-9 * r.ofRoof);
    }
    // The program: the timed ops summed, beside the lower bound, with the ratio.
    assert.equal(view.run.measured.seconds, report.ops_seconds);
    assert.equal(view.run.measured.bound_seconds, view.bound.seconds);
    assert.ok(
      Math.abs(view.run.measured.over_bound - report.ops_seconds / view.bound.seconds) <=
        1e-12 * view.run.measured.over_bound,
    );
    // Measured points: the same ops at their achieved rate, each with its ceiling for the link.
    assert.ok(view.figure.measured.length > 0);
    for (const p of view.figure.measured) {
      assert.equal(p.y, view.rows[p.index].gflops);
      assert.equal(p.ceiling, view.ceilings[p.index]);
    }
    // The measured columns sort like the others (missing values last).
    const bySeconds = sortRows(view.rows, 'seconds', 'desc');
    assert.equal(bySeconds[0].seconds, Math.max(...measured.map((r) => r.seconds)));
    assert.equal(bySeconds.at(-1).seconds, view.rows.length > measured.length ? null : bySeconds.at(-1).seconds);
  });

  test('a roof changes the shares, not the measurements', () => {
    let a = analysed('mlp.mlir', examples.mlp);
    a = setRunPending(a, 'running');
    a = setRun(a, a.shown.seq, {
      report: runFile(core, 'mlp.mlir', examples.mlp, { inputs: 'seeded', fuse: false }).value,
      ms: 1,
    });
    const slow = deriveAnalyzeView(core, a, LESSON, null);
    const fast = deriveAnalyzeView(core, a, { peak: 1000, bandwidth: 200 }, null);
    const i = slow.rows.findIndex((r) => r.seconds !== null && r.flops > 0);
    assert.equal(slow.rows[i].gflops, fast.rows[i].gflops);
    assert.ok(Math.abs(fast.rows[i].ofRoof / slow.rows[i].ofRoof - 0.1) < 1e-9);
  });

  test('a program that cannot run keeps its estimates; the run names the op', () => {
    const text =
      'func.func @main() -> tensor<2xf32> {\n  %a = stablehlo.constant dense<1.0> : tensor<2xf32>\n  %b = stablehlo.add %a, %a : tensor<2xf32>\n  %c = "my.op"(%b) : (tensor<2xf32>) -> tensor<2xf32>\n  return %c : tensor<2xf32>\n}\n';
    let a = analysed('odd.mlir', text);
    a = setRunPending(a, 'running');
    const report = runFile(core, 'odd.mlir', text).value;
    assert.equal(report.status, 'not_run');
    assert.deepEqual(
      report.unsupported.map((u) => [u.op, u.line]),
      [['my.op', 4]],
    );
    a = setRun(a, a.shown.seq, { report, ms: 1 });
    const view = deriveAnalyzeView(core, a, LESSON, null);
    assert.ok(view.rows.length > 0 && view.rows.every((r) => r.seconds === null));
    assert.equal(view.run.measured, null);
    assert.equal(view.summary.totals.flops, 2); // the estimate stays
  });
});

// An elementwise chain (2·x + 1, tanh, ·y: one kLoop fusion) whose result feeds a dot with a tanh
// epilogue (one kOutput fusion), and a while whose body's tanh(x)·x fuses (kLoop, in the body).
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
const LOOP = `func.func @main() -> tensor<256xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %x0 = stablehlo.constant dense<0.5> : tensor<256xf32>
  %r:2 = stablehlo.while(%i = %c0, %x = %x0) : tensor<i32>, tensor<256xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i2 = stablehlo.add %i, %one : tensor<i32>
      %x2 = stablehlo.tanh %x : tensor<256xf32>
      %x3 = stablehlo.multiply %x2, %x : tensor<256xf32>
      stablehlo.return %i2, %x3 : tensor<i32>, tensor<256xf32>
    }
  %y = stablehlo.exponential %r#1 : tensor<256xf32>
  %z = stablehlo.add %y, %r#1 : tensor<256xf32>
  return %z : tensor<256xf32>
}
`;

function ranView(name, text, options) {
  let a = analysed(name, text);
  a = setRunPending(a, 'running');
  const report = runFile(core, name, text, options).value;
  a = setRun(a, a.shown.seq, { report, ms: 1 });
  return { a, report, view: deriveAnalyzeView(core, a, LESSON, null) };
}

describe('a fused run beside the analysis: one measured point per fusion', () => {
  test("a helper's op inlined at two calls ran in both fusions, and its row names both", () => {
    const text = `func.func @main(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = call @relu(%0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.dot_general %1, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = call @relu(%2) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
func.func private @relu(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %m = stablehlo.maximum %x, %b : tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
`;
    const { view } = ranView('relu.mlir', text, { inputs: 'seeded' });
    assert.equal(view.fusions.length, 2);
    const max = view.rows.find((r) => r.op === 'stablehlo.maximum');
    assert.equal(max.fusion, 0);
    assert.deepEqual(max.alsoIn, [1]);
    const dot = view.rows.find((r) => r.op === 'stablehlo.dot_general' && r.line === 4);
    assert.equal(dot.fusion, 1);
    assert.equal(dot.alsoIn, undefined);
  });

  test("a fused run's lower bound comes from its fused totals (the core's), at most the unfused one", () => {
    // Through the Worker's run task, as the page runs it: the report and the fusion pass's totals.
    const ctx = { progress: () => {}, transfer: () => {} };
    const ran = TASKS.run(core, { text: CHAIN, name: 'chain.mlir', inputs: 'arange' }, ctx);
    assert.equal(ran.report.fused, true);
    // Worked by hand: flops 3·4096 (multiply, add, multiply) + 2·64³ (dot) = 536576; unfused bytes
    // 262144 (the analysis); fused 131072: the kLoop fusion's 81920 and the kOutput's 49152.
    assert.deepEqual(ran.fusedTotals, { flops: 536576, transcendentals: 8192, bytes_accessed: 131072 });
    assert.equal(
      ran.fusedTotals.bytes_accessed,
      ran.report.fusions.reduce((s, f) => s + f.bytes_accessed, 0),
    );
    let a = setRunPending(analysed('chain.mlir', CHAIN), 'running');
    a = setRun(a, a.shown.seq, ran);
    const view = deriveAnalyzeView(core, a, LESSON, null);
    // Under the lesson's roof (100 GFLOP/s, 20 GB/s): unfused max(536576 / 1e11, 262144 / 2e10) =
    // 13.1072 µs; fused max(5.36576 µs, 131072 / 2e10 = 6.5536 µs) = 6.5536 µs, memory bound.
    assert.ok(Math.abs(view.bound.seconds - 13.1072e-6) <= 1e-15, `${view.bound.seconds}`);
    assert.ok(Math.abs(view.fusedBound.seconds - 6.5536e-6) <= 1e-15, `${view.fusedBound.seconds}`);
    assert.equal(view.fusedBound.bound, 'memory');
    assert.equal(view.fusedBound.bytes_accessed, 131072);
    assert.ok(view.fusedBound.seconds <= view.bound.seconds);
    // The measured total against each bound, by the core.
    assert.ok(view.run.measured && view.run.measuredFused);
    assert.equal(view.run.measuredFused.seconds, view.run.measured.seconds);
    assert.equal(view.run.measuredFused.bound_seconds, view.fusedBound.seconds);
    assert.ok(
      Math.abs(view.run.measuredFused.over_bound - view.run.measured.seconds / view.fusedBound.seconds) <=
        1e-9 * view.run.measuredFused.over_bound,
    );
    // Op by op: no fused totals, no fused bound.
    const plain = TASKS.run(core, { text: CHAIN, name: 'chain.mlir', inputs: 'arange', fuse: false }, ctx);
    assert.equal(plain.fusedTotals, null);
    let b = setRunPending(analysed('chain.mlir', CHAIN), 'running');
    b = setRun(b, b.shown.seq, plain);
    const opView = deriveAnalyzeView(core, b, LESSON, null);
    assert.equal(opView.fusedBound, null);
    assert.equal(opView.run.measuredFused, null);
  });

  test("runFile fuses by default; each fusion is matched to its ops' rows and measured against the roof by the core", () => {
    const { report, view } = ranView('chain.mlir', CHAIN, { inputs: 'arange' });
    assert.equal(report.status, 'passed');
    assert.equal(report.fused, true);
    // As many fusions as the core's fusion pass makes (no grouping in JS).
    const pass = core.fuseText(CHAIN).value;
    assert.equal(report.fusions.length, pass.modules[0].fusions.length);
    assert.deepEqual(
      report.fusions.map((f) => f.kind),
      ['kLoop', 'kOutput'],
    );
    assert.equal(view.fusions.length, 2);
    for (const f of view.fusions) {
      // Its ops are the rows at their places, marked as run in it; their own measured cells are empty.
      assert.equal(f.indices.length, f.ops.length);
      for (const [k, i] of f.indices.entries()) {
        assert.equal(view.rows[i].line, f.ops[k].line);
        assert.equal(view.rows[i].op, f.ops[k].op);
        assert.equal(view.rows[i].fusion, f.fusion);
        assert.equal(view.rows[i].seconds, null);
      }
      assert.equal(f.within, null);
      assert.ok(f.seconds > 0);
      // What it achieved, from the core (model::achieved): flops over its time, and its share of the roof.
      assert.ok(Math.abs(f.gflops - f.flops / f.seconds / 1e9) <= 1e-12 * f.gflops);
      assert.ok(Math.abs(f.gbs - f.bytes / f.seconds / 1e9) <= 1e-12 * f.gbs);
      assert.equal(f.intensity, f.flops / f.bytes);
      assert.ok(
        Math.abs(f.ceiling - Math.min(100, 20 * f.intensity)) <= 1e-12 * f.ceiling,
        `ceiling ${f.ceiling} at ${f.intensity}`,
      );
      assert.ok(Math.abs(f.ofRoof - f.gflops / f.ceiling) <= 1e-9 * f.ofRoof);
    }
    assert.equal(view.fusions[0].bound, 'memory-bound');
    assert.equal(view.fusions[1].bound, 'compute-bound');
    // The figure: each fusion's estimate at its ceiling and its measurement at what it achieved.
    assert.deepEqual(
      view.figure.fusions.estimated.map((p) => [p.x, p.y, p.kind]),
      view.fusions.map((f) => [f.intensity, f.ceiling, f.kind]),
    );
    assert.deepEqual(
      view.figure.fusions.measured.map((p) => [p.x, p.y]),
      view.fusions.map((f) => [f.intensity, f.gflops]),
    );
    // No op of a fusion has a point of its own as a measurement; the program's total sums what ran.
    assert.deepEqual(view.figure.measured, []);
    assert.equal(view.run.measured.seconds, report.ops_seconds);
    assert.equal(fusedOpsText(view.fusions[1]), 'line 8 stablehlo.dot_general, line 9 stablehlo.tanh');
    assert.deepEqual(fusionSpan(view.fusions[0]), { from: { line: 4, column: 3 }, to: 7 });
  });

  test('op by op gives per-op points and no fusions, and the values are the same both ways', () => {
    const fused = ranView('chain.mlir', CHAIN, { inputs: 'arange' });
    const plain = ranView('chain.mlir', CHAIN, { inputs: 'arange', fuse: false });
    assert.equal(plain.report.fused, false);
    assert.deepEqual(plain.view.fusions, []);
    assert.deepEqual(plain.view.figure.fusions, {
      estimated: [],
      measured: [],
      notDrawn: { noFlops: 0, overLimit: 0 },
    });
    assert.ok(plain.view.rows.every((r) => r.fusion === null && r.seconds > 0));
    assert.equal(plain.view.figure.measured.length, plain.view.rows.filter((r) => r.flops > 0).length);
    // The same results, bit for bit (the fused loop runs the same f32 functions).
    assert.deepEqual(
      fused.report.results.map((r) => r.bits),
      plain.report.results.map((r) => r.bits),
    );
    assert.deepEqual(
      fused.report.results.map((r) => r.checksum),
      plain.report.results.map((r) => r.checksum),
    );
  });

  test("a fusion in a while body is listed with the while that holds it, untimed, its ops' rows marked", () => {
    const { report, view } = ranView('loop.mlir', LOOP, {});
    assert.equal(report.status, 'passed');
    assert.equal(view.fusions.length, 2);
    const body = view.fusions.find((f) => f.within);
    assert.deepEqual(body.within, { line: 6, column: 3, op: 'stablehlo.while' });
    assert.equal(body.seconds, null);
    assert.equal(body.gflops, null);
    assert.deepEqual(
      body.ops.map((o) => o.line),
      [12, 13],
    );
    for (const i of body.indices) assert.equal(view.rows[i].top, false);
    // Its estimate is drawn; it has no measured point of its own (its time is the while's).
    assert.ok(view.figure.fusions.estimated.some((p) => p.fusion === body.fusion));
    assert.ok(!view.figure.fusions.measured.some((p) => p.fusion === body.fusion));
    assert.ok(view.rows.find((r) => r.op === 'stablehlo.while').seconds > 0);
  });

  test('selecting a fusion unselects the op, and back; a fusion that is not there selects nothing', () => {
    const { a } = ranView('chain.mlir', CHAIN, { inputs: 'arange' });
    const s = setSelectedFusion(setSelected(a, 2), 1);
    assert.equal(s.selectedFusion, 1);
    assert.equal(s.selected, null);
    assert.equal(setSelected(s, 0).selectedFusion, null);
    assert.equal(setSelectedFusion(a, 2).selectedFusion, null);
    assert.equal(setSelectedFusion(a, '1').selectedFusion, null);
    assert.equal(setSelectedFusion(analysed('chain.mlir', CHAIN), 0).selectedFusion, null, 'no run, no fusion');
  });
});

describe('the run states', () => {
  test('Cancel is calm and keeps the earlier report; a failure says why; a new analysis drops the run', () => {
    let a = analysed('lesson.mlir', examples.lesson);
    const seq = a.shown.seq;
    a = setRunPending(a, 'running');
    const report = runFile(core, 'lesson.mlir', examples.lesson, { inputs: 'arange' }).value;
    a = setRun(a, seq, { report, ms: 1 });
    assert.ok(a.run.at);
    a = setRunChoice(a, { inputs: 'arange', seed: 7 });
    a = setRunPending(a, 'again');
    assert.equal(a.run.report, report, 'the earlier report stays while the next run works');
    a = setRunCancelled(a, seq);
    assert.equal(a.run.cancelled, true);
    assert.equal(a.run.error, null);
    assert.equal(a.run.report, report);
    assert.equal(a.run.inputs, 'seeded', 'the kept report keeps the choice it was run with');
    a = setRunFailure(setRunPending(a, 'again'), seq, 'the Worker stopped');
    assert.equal(a.run.error, 'the Worker stopped');
    // An answer for an older analysis is dropped (a new analysis on the same store).
    const b = analysed('mlp.mlir', examples.mlp, a);
    assert.equal(b.run, null);
    assert.equal(
      setRun(a, seq + 1000, { report: null, ms: 1 }).run.report,
      report,
      'an answer for another analysis changes nothing',
    );
    assert.notEqual(b.shown.seq, seq);
    // A run of another analysis is not drawn for this one.
    const view = deriveAnalyzeView(core, { ...b, run: a.run }, LESSON, null);
    assert.equal(view.run, null);
  });

  test('the seed and inputs choice refuse bad values; Clear empties; the analysis Cancel is its own state', () => {
    let a = createAnalyzeState();
    assert.deepEqual(setRunChoice(a, { inputs: 'sideways', seed: -1 }).runChoice, {
      inputs: 'seeded',
      seed: 1,
      files: [],
      fuse: true,
      dotEpilogues: true,
      memoryCap: null,
    });
    assert.deepEqual(setRunChoice(a, { seed: 2.5 }).runChoice, {
      inputs: 'seeded',
      seed: 1,
      files: [],
      fuse: true,
      dotEpilogues: true,
      memoryCap: null,
    });
    assert.deepEqual(setRunChoice(a, { inputs: 'arange', seed: 9 }).runChoice, {
      inputs: 'arange',
      seed: 9,
      files: [],
      fuse: true,
      dotEpilogues: true,
      memoryCap: null,
    });
    // .npy files: kept as chosen; anything but {name, bytes: Uint8Array} is ignored.
    const files = [{ name: 'a.npy', bytes: new Uint8Array([1, 2]) }];
    assert.deepEqual(setRunChoice(a, { inputs: 'files', files }).runChoice, {
      inputs: 'files',
      seed: 1,
      files,
      fuse: true,
      dotEpilogues: true,
      memoryCap: null,
    });
    assert.deepEqual(
      setRunChoice(a, { inputs: 'files', files: [{ name: 'a.npy', bytes: [1, 2] }] }).runChoice.files,
      [],
    );
    // Fused (as a compiler would fuse it) by default; op by op when chosen; anything but a boolean is ignored.
    assert.equal(setRunChoice(a, { fuse: false }).runChoice.fuse, false);
    assert.equal(setRunChoice(setRunChoice(a, { fuse: false }), { fuse: 'yes' }).runChoice.fuse, false);
    assert.equal(
      setRunChoice(setRunChoice(a, { fuse: false }), { seed: 4 }).runChoice.fuse,
      false,
      'another choice keeps it',
    );
    // The fusion rule: a dot's epilogue as XLA's GPU backend fuses it by default, as XLA's CPU
    // backend when chosen; anything but a boolean is ignored, and another choice keeps it.
    assert.equal(a.runChoice.dotEpilogues, true);
    const cpu = setRunChoice(a, { dotEpilogues: false });
    assert.equal(cpu.runChoice.dotEpilogues, false);
    assert.equal(setRunChoice(cpu, { dotEpilogues: 'no' }).runChoice.dotEpilogues, false);
    assert.equal(setRunChoice(cpu, { seed: 4 }).runChoice.dotEpilogues, false);
    // The memory cap (issue 22 item 15): one of the page's caps in bytes, or null (the core's
    // heap decides); any other value is ignored, and another choice keeps it.
    assert.equal(setRunChoice(a, { memoryCap: 64 * 2 ** 20 }).runChoice.memoryCap, 64 * 2 ** 20);
    const capped = setRunChoice(a, { memoryCap: 2 ** 30 });
    assert.equal(setRunChoice(capped, { memoryCap: null }).runChoice.memoryCap, null);
    for (const bad of [12345, -1, '1073741824', NaN, 2 ** 40, undefined])
      assert.equal(setRunChoice(capped, { memoryCap: bad }).runChoice.memoryCap, 2 ** 30, String(bad));
    assert.equal(setRunChoice(capped, { seed: 3 }).runChoice.memoryCap, 2 ** 30);
    a = analysed('lesson.mlir', examples.lesson);
    const c = setCancelled(a);
    assert.equal(c.cancelled, true);
    assert.deepEqual(c.errors, []);
    assert.equal(c.shown, a.shown);
    const cleared = setCleared(setRunPending(a, 'x'));
    assert.equal(cleared.shown, null);
    assert.equal(cleared.run, null);
    assert.equal(cleared.cleared, true);
    assert.equal(deriveAnalyzeView(core, cleared, LESSON, null), null);
    assert.ok(a.shown.at && a.shown.name === 'lesson.mlir', 'results name their program and when');
  });
});

test('a run past its time limit says so with durations people read ("at most 1 s, got 1.02 s", not 1.000000)', () => {
  const forever =
    'func.func @main() -> tensor<i32> {\n  %c = stablehlo.constant dense<0> : tensor<i32>\n' +
    '  %r = stablehlo.while(%i = %c) : tensor<i32>\n   cond {\n    %t = stablehlo.constant dense<true> : tensor<i1>\n' +
    '    stablehlo.return %t : tensor<i1>\n  } do {\n    stablehlo.return %i : tensor<i32>\n  }\n  return %r : tensor<i32>\n}\n';
  const r = runFile(core, 'forever.mlir', forever, { time_budget_seconds: 1, max_iterations: 1e12 });
  assert.equal(r.ok, true);
  assert.equal(r.value.status, 'error');
  const message = r.value.errors[0].message;
  assert.match(message, /the run took too long — expected at most 1 s, got (1|1\.\d{1,2}) s$/, message);
});

describe('an op run as a view', () => {
  test('a reshape that moved no data shows its time, not a GB/s or a share of the roof', () => {
    const text = `func.func @main(%x: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %0 = stablehlo.add %x, %x : tensor<64x96xf32>
  %1 = stablehlo.reshape %0 : (tensor<64x96xf32>) -> tensor<96x64xf32>
  %2 = stablehlo.add %1, %1 : tensor<96x64xf32>
  return %2 : tensor<96x64xf32>
}
`;
    let a = analysed('view.mlir', text);
    a = setRunPending(a, 'running');
    const report = runFile(core, 'view.mlir', text, { inputs: 'seeded', fuse: false }).value;
    assert.deepEqual(
      report.ops.map((o) => [o.op, o.view]),
      [
        ['stablehlo.add', false],
        ['stablehlo.reshape', true],
        ['stablehlo.add', false],
      ],
    );
    a = setRun(a, a.shown.seq, { report, ms: 1 });
    const view = deriveAnalyzeView(core, a, LESSON, null);
    const reshape = view.rows.find((r) => r.op === 'stablehlo.reshape');
    assert.ok(reshape.seconds > 0, 'its time is a measurement, shown');
    assert.equal(reshape.view, true);
    assert.equal(reshape.gbs, null);
    assert.equal(reshape.ofRoof, null);
    assert.ok(reshape.bytes > 0, "the cost analysis still counts XLA's bytes for it");
    const add = view.rows.find((r) => r.op === 'stablehlo.add');
    assert.equal(add.view, false);
    assert.ok(add.gbs > 0 && add.ofRoof > 0);
  });
});
