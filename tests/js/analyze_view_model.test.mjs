// The analyze view's pure parts: hardware presets, dtype → peak, op placement and sorting
// (web/model/hardware_presets.js, roofs.js, analysis_view.js, analyze_state.js), and the roofline
// arithmetic over the roofs — the time lower bound, each op's bound and ceiling, the roofs' curves —
// which is the core's (core.roofline), through the real wasm core.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HARDWARE_PRESETS, PRESET_KIND, presetById } from '../../web/model/hardware_presets.js';
import { availableRoofs, peakClassOf, peakFor, presetRoof, programDtype, roofBudgets } from '../../web/model/roofs.js';
import {
  buildRows,
  excerpt,
  figurePoints,
  lineStarts,
  nextSort,
  overRoofNote,
  placeOps,
  sortRows,
} from '../../web/model/analysis_view.js';
import { createAnalyzeState, deriveAnalyzeView, setAnalysis, setSelected } from '../../web/analyze_state.js';
import { summarizeFile } from '../../web/model/analysis.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

let core;
before(async () => {
  core = await loadNodeCore();
});

/** The core's roofline of one program (totals) and its ops under `roof` (FLOP/s, B/s, as roofs.js builds them). */
function roofline(roof, totals, ops = []) {
  const r = core.roofline({
    roofs: [roofBudgets(roof)],
    flops: ops.map((o) => o[0]),
    bytes: ops.map((o) => o[1]),
    totals: { collective_bytes: 0, ...totals },
    range: [1, 100],
  });
  assert.ok(r.ok, r.error);
  return r.value;
}
const timeLowerBound = (totals, roof) => roofline(roof, totals).roofs[0].time;

describe('hardware presets', () => {
  test('every number has a source that names a document and a section, and no URL', () => {
    assert.ok(HARDWARE_PRESETS.length >= 5);
    for (const p of HARDWARE_PRESETS) {
      const entries = [
        ...Object.entries(p.dense),
        ...Object.entries(p.sparse),
        ['bandwidth', p.bandwidth],
        ['interconnect', p.interconnect],
      ];
      for (const [key, e] of entries) {
        assert.ok(Number.isFinite(e.value) && e.value > 0, `${p.id} ${key}`);
        assert.equal(typeof e.source, 'string', `${p.id} ${key}`);
        assert.match(e.source, /hardware-specs\.md §B\.\d/, `${p.id} ${key}: cites the section`);
        assert.doesNotMatch(e.source, /[a-z]+:\/\//i, `${p.id} ${key}: no URL`);
      }
      assert.ok(p.dense.bf16, `${p.id} has a dense bf16 peak`);
    }
    assert.equal(new Set(HARDWARE_PRESETS.map((p) => p.id)).size, HARDWARE_PRESETS.length);
  });

  test('dense and sparse are kept apart: sparse is twice dense, never the same number', () => {
    for (const p of HARDWARE_PRESETS) {
      for (const [dtype, s] of Object.entries(p.sparse)) {
        const d = p.dense[dtype];
        assert.ok(d, `${p.id}: sparse ${dtype} has a dense twin`);
        assert.notEqual(s.value, d.value, `${p.id} ${dtype}`);
        assert.ok(Math.abs(s.value / d.value - 2) < 2e-3, `${p.id} ${dtype}: ${s.value} vs ${d.value}`);
      }
    }
  });

  test("the issue's numbers: v5e 197/819, H100 989.4/3350, H200 989.4/4800, A100 312/2039, MI300X 1307.4/5300", () => {
    const got = (id) => [presetById(id).dense.bf16.value, presetById(id).bandwidth.value];
    assert.deepEqual(got('tpu-v5e'), [197, 819]);
    assert.deepEqual(got('h100-sxm'), [989.4, 3350]);
    assert.deepEqual(got('h200-sxm'), [989.4, 4800]);
    assert.deepEqual(got('a100-sxm-80gb'), [312, 2039]);
    assert.deepEqual(got('mi300x'), [1307.4, 5300]);
    assert.equal(presetById('h100-sxm').sparse.bf16.value, 1979);
  });

  test('roofs of presets are labelled vendor specifications', () => {
    for (const p of HARDWARE_PRESETS) {
      const r = presetRoof(p, 'bf16');
      assert.equal(r.kind, 'specification');
      assert.ok(r.label.includes(PRESET_KIND));
      assert.ok(r.sources.length >= 2);
    }
  });

  test('no URL with a scheme anywhere under web/', () => {
    const walk = (dir) =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
    for (const file of walk(join(ROOT, 'web'))) assert.doesNotMatch(readFileSync(file, 'utf8'), /\bhttps?:\/\//, file);
  });
});

describe('dtype → peak', () => {
  test('peak classes of element types', () => {
    assert.deepEqual(['f8e5m2', 'bf16', 'f16', 'f32', 'f64', 's8', 'pred', 'i32'].map(peakClassOf), [
      'fp8',
      'bf16',
      'f16',
      'f32',
      'f64',
      'int8',
      null,
      null,
    ]);
  });

  test('the program dtype is the one carrying the most flops', () => {
    const ops = [
      { element_type: 'f32', flops: 10, bytes_accessed: 1 },
      { element_type: 'bf16', flops: 1000, bytes_accessed: 1 },
      { element_type: 'i32', flops: 5000, bytes_accessed: 1 },
    ];
    assert.equal(programDtype(ops).dtype, 'bf16');
    assert.equal(programDtype([]).dtype, 'f32');
  });

  test('peaks by dtype, with the fallback said', () => {
    const h100 = presetById('h100-sxm');
    assert.deepEqual(
      [
        peakFor(h100, 'bf16').tflops,
        peakFor(h100, 'f16').tflops,
        peakFor(h100, 'fp8').tflops,
        peakFor(h100, 'f32').tflops,
      ],
      [989.4, 989.4, 1979, 67],
    );
    assert.equal(peakFor(h100, 'bf16').note, null);
    assert.match(peakFor(h100, 'f32').note, /TF32/);
    const a100 = presetById('a100-sxm-80gb');
    const fp8 = peakFor(a100, 'fp8');
    assert.deepEqual([fp8.tflops, fp8.column], [312, 'BF16/FP16']);
    assert.match(fp8.note, /lists no dense FP8 peak/);
    const v5e = peakFor(presetById('tpu-v5e'), 'f32');
    assert.deepEqual([v5e.tflops, v5e.column], [197, 'BF16/FP16']);
    assert.match(v5e.note, /upper bound/);
    assert.equal(presetRoof(presetById('tpu-v5e'), 'bf16').peak, 197e12);
  });

  test('available roofs: hypothetical budgets, then the measured ceilings if any, then the presets', () => {
    const m = { measured_ceilings: { gflops: 50, bandwidth_gbs: { l1: 200, l2: 100, memory: 10 } } };
    const roofs = availableRoofs({ peak: 100, bandwidth: 20 }, m, 'f32');
    assert.deepEqual(
      roofs.slice(0, 2).map((r) => [r.id, r.kind, r.peak, r.bandwidth]),
      [
        ['lesson', 'hypothetical', 100e9, 20e9],
        ['measured', 'measurement', 50e9, 10e9],
      ],
    );
    assert.equal(roofs.length, 2 + HARDWARE_PRESETS.length);
    assert.equal(availableRoofs({ peak: 100, bandwidth: 20 }, null, 'f32')[1].kind, 'specification');
  });

  test('"this machine, all cores" follows the single-core roof once all cores were measured', () => {
    const one = { gflops: 50, bandwidth_gbs: { l1: 200, l2: 100, memory: 10 } };
    const four = { gflops: 190, bandwidth_gbs: { l1: 800, l2: 390, memory: 25 } };
    const m = { measured_ceilings: { ...one, cores: [1, 4], by_cores: { 1: one, 4: four } } };
    const roofs = availableRoofs({ peak: 100, bandwidth: 20 }, m, 'f32');
    assert.deepEqual(
      roofs.slice(1, 3).map((r) => [r.id, r.kind, r.peak, r.bandwidth]),
      [
        ['measured', 'measurement', 50e9, 10e9],
        ['measured-all', 'measurement', 190e9, 25e9],
      ],
    );
    assert.match(roofs[2].label, /^this machine, all cores \(4\), measured: 190 GFLOP\/s, 25 GB\/s/);
    assert.equal(roofs.length, 3 + HARDWARE_PRESETS.length);
    // Only one core measured (a Worker did not start): no all-core roof.
    const single = { measured_ceilings: { ...one, cores: [1], by_cores: { 1: one } } };
    assert.equal(
      availableRoofs(null, single, 'f32').some((r) => r.id === 'measured-all'),
      false,
    );
  });
});

describe('the lower bound on time', () => {
  const roof = { peak: 100e9, bandwidth: 20e9, interconnect: null };
  test('max of compute and memory time; the lesson module is memory-bound', () => {
    const b = timeLowerBound({ flops: 8192, bytes_accessed: 5632, collective_bytes: 0 }, roof);
    assert.equal(b.compute, 8192 / 100e9);
    assert.equal(b.memory, 5632 / 20e9);
    assert.equal(b.seconds, b.memory);
    assert.equal(b.bound, 'memory');
    assert.equal(b.collective, null);
    assert.equal(b.collectives, 'none in the program');
    assert.equal(timeLowerBound({ flops: 1e12, bytes_accessed: 1, collective_bytes: 0 }, roof).bound, 'compute');
    assert.equal(
      timeLowerBound({ flops: 100, bytes_accessed: 20, collective_bytes: 0 }, roof).bound,
      'balanced (compute = memory)',
    );
    assert.equal(timeLowerBound({ flops: 0, bytes_accessed: 0, collective_bytes: 0 }, roof).bound, null);
  });

  test('collectives count with an interconnect bandwidth, and are said to be unmodelled without one', () => {
    const totals = { flops: 1e9, bytes_accessed: 1e6, collective_bytes: 9e9 };
    const without = timeLowerBound(totals, roof);
    assert.equal(without.collective, null);
    assert.match(without.collectives, /^not modelled/);
    assert.equal(without.bound, 'compute');
    const h100 = presetRoof(presetById('h100-sxm'), 'bf16');
    const withIt = timeLowerBound(totals, h100);
    assert.equal(withIt.collective, 9e9 / 450e9);
    assert.equal(withIt.collectives, 'modelled');
    assert.equal(withIt.bound, 'collectives');
    assert.equal(withIt.seconds, withIt.collective);
  });

  test('op bound and ceilings follow the ridge', () => {
    const line = roofline(roof, { flops: 8192, bytes_accessed: 3584 }, [
      [8192, 3584],
      [1e6, 1],
      [5, 1],
      [0, 0],
      [2, 1],
    ]);
    assert.deepEqual(line.ops.bounds, ['memory-bound', 'compute-bound', 'balanced', null, 'memory-bound']);
    assert.equal(line.ops.ceilings[4], 40); // GFLOP/s: 20 GB/s · 2 flops/byte
    assert.equal(line.ops.ceilings[3], null); // no flops, no bytes: no place on the roof
    assert.equal(line.roofs[0].ridge, 5);
    assert.deepEqual(line.roofs[0].curve, [
      { x: 1, y: 20 },
      { x: 5, y: 100 },
      { x: 100, y: 100 },
    ]);
    assert.deepEqual(line.program, { x: 8192 / 3584, y: 20 * (8192 / 3584) });
  });

  test('a refused roof or request is an error naming it, never a throw', () => {
    assert.deepEqual(core.roofline(null), { ok: false, error: 'request must be an object, got null' });
    const r = core.roofline({ roofs: [{ peak: 0, bandwidth: 20 }], range: [1, 10] });
    assert.deepEqual(r, { ok: false, error: 'roofs[0]: peak must be a positive, finite number of GFLOP/s, got 0' });
    assert.match(
      core.roofline({ roofs: [{ peak: 1, bandwidth: 1 }], flops: [1], bytes: [], range: [1, 10] }).error,
      /one entry per op/,
    );
  });
});

describe('rows, placement and sorting', () => {
  const rows = [
    { index: 0, line: 3, op: 'b', flops: 5, intensity: null, bound: 'memory-bound' },
    { index: 1, line: 4, op: 'a', flops: 5, intensity: 2, bound: 'compute-bound' },
    { index: 2, line: 5, op: 'c', flops: 9, intensity: 1, bound: null },
  ];
  test('sorts by a column, ties in program order, missing values last either way', () => {
    assert.deepEqual(
      sortRows(rows, 'flops', 'desc').map((r) => r.index),
      [2, 0, 1],
    );
    assert.deepEqual(
      sortRows(rows, 'flops', 'asc').map((r) => r.index),
      [0, 1, 2],
    );
    assert.deepEqual(
      sortRows(rows, 'op', 'asc').map((r) => r.index),
      [1, 0, 2],
    );
    assert.deepEqual(
      sortRows(rows, 'intensity', 'asc').map((r) => r.index),
      [2, 1, 0],
    );
    assert.deepEqual(
      sortRows(rows, 'intensity', 'desc').map((r) => r.index),
      [1, 2, 0],
    );
    assert.deepEqual(
      sortRows(rows, 'bound', 'desc').map((r) => r.index),
      [0, 1, 2],
    );
    assert.throws(() => sortRows(rows, 'colour'), /cannot sort by "colour"/);
    assert.deepEqual(
      rows.map((r) => r.index),
      [0, 1, 2],
      'the input is not changed',
    );
  });

  test('a click on a new column starts descending for numbers, ascending for text; again flips', () => {
    assert.deepEqual(nextSort({ key: 'line', dir: 'asc' }, 'flops'), { key: 'flops', dir: 'desc' });
    assert.deepEqual(nextSort({ key: 'flops', dir: 'desc' }, 'flops'), { key: 'flops', dir: 'asc' });
    assert.deepEqual(nextSort({ key: 'flops', dir: 'desc' }, 'op'), { key: 'op', dir: 'asc' });
  });

  test('errors come from the core with their line and column as fields', async () => {
    const core = await loadNodeCore();
    const parse = core.analyzeText('func.func @f() {\n  %0 = stablehlo.add %x, %x : tensor<f32>\n}\n');
    assert.equal(parse.ok, false);
    assert.deepEqual([parse.line, parse.column], [2, 3]);
    assert.match(parse.message, /^error: use of an undefined value/);
    assert.equal(parse.error, `2:3: ${parse.message}`);
    const s = summarizeFile('f.mlir', parse);
    assert.deepEqual(s.errorPlaces, [{ line: 2, column: 3, message: parse.message }]);
    // A module that does not verify: the others are still analysed; its error has its place.
    const two = core.analyzeText(
      [
        'func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {',
        '  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>',
        '  return %0 : tensor<2x5xf32>',
        '}',
        '// -----',
        'func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {',
        '  %0 = stablehlo.add %a, %a : tensor<4xf32>',
        '  return %0 : tensor<4xf32>',
        '}',
        '',
      ].join('\n'),
    );
    assert.equal(two.ok, true);
    assert.equal(two.value.errors.length, 1);
    assert.deepEqual([two.value.errors[0].line, two.value.errors[0].column], [2, 3]);
    assert.equal(two.value.totals.flops, 4);
    const summary = summarizeFile('two.mlir', two);
    assert.equal(summary.errorPlaces[0].line, 2);
    assert.match(summary.errors[0], /^two\.mlir:2:3: error: dot_general contracting dimension sizes differ/);
  });

  test('rows carry their element type and dims', async () => {
    const core = await loadNodeCore();
    const r = core.analyzeText(core.exampleModules().value[0].text);
    const [dot, tanh] = r.value.modules[0].ops;
    assert.deepEqual([dot.element_type, dot.dims, dot.shape], ['f32', [32, 8], 'tensor<32x8xf32>']);
    assert.equal(tanh.transcendentals, 256);
    assert.equal(programDtype([{ element_type: 'bf16', flops: 10, bytes_accessed: 1 }]).dtype, 'bf16');
  });

  test('excerpts of a text around a line', () => {
    const text = 'a\nbb\nccc\ndddd\n';
    const starts = lineStarts(text);
    assert.deepEqual(starts, [0, 2, 5, 9, 14]);
    assert.deepEqual(excerpt(text, starts, 2, { before: 1, after: 1 }), [
      { number: 1, text: 'a' },
      { number: 2, text: 'bb' },
      { number: 3, text: 'ccc' },
    ]);
    assert.deepEqual(
      excerpt(text, starts, 4, { before: 0, after: 5 }).map((l) => l.text),
      ['dddd', ''],
    );
  });

  test('with the core: top-level ops sum to the totals (StableHLO examples and an HLO fusion)', async () => {
    const texts = core.exampleModules().value.map((e) => e.text);
    texts.push(
      [
        'HloModule m',
        '',
        '%fused (p0: f32[4], p1: f32[4]) -> f32[4] {',
        '  %p0 = f32[4] parameter(0)',
        '  %p1 = f32[4] parameter(1)',
        '  %a = f32[4] add(f32[4] %p0, f32[4] %p1)',
        '  ROOT %m = f32[4] multiply(f32[4] %a, f32[4] %a)',
        '}',
        '',
        'ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {',
        '  %x = f32[4] parameter(0)',
        '  %y = f32[4] parameter(1)',
        '  ROOT %f = f32[4] fusion(f32[4] %x, f32[4] %y), kind=kLoop, calls=%fused',
        '}',
        '',
      ].join('\n'),
    );
    let nested = 0;
    for (const text of texts) {
      const result = core.analyzeText(text);
      const summary = summarizeFile('t', result);
      const placement = placeOps(result);
      assert.equal(placement.length, summary.ops.length);
      let a = setAnalysis(createAnalyzeState(), { summary, placement, errors: [], ms: 1 });
      a = { ...a, roofId: 'lesson' };
      const view = deriveAnalyzeView(core, a, { peak: 100, bandwidth: 20 }, null);
      const built = view.rows;
      const top = built.filter((r) => r.top);
      assert.equal(
        top.reduce((s, r) => s + r.flops, 0),
        summary.totals.flops,
      );
      assert.equal(
        top.reduce((s, r) => s + r.bytes, 0),
        summary.totals.bytes_accessed,
      );
      assert.ok(Math.abs(top.reduce((s, r) => s + r.byteShare, 0) - 1) < 1e-12);
      // An op in a body or a fused computation has no share: it is counted within its op.
      assert.ok(built.filter((r) => !r.top).every((r) => r.flopShare === null && r.byteShare === null));
      nested += built.filter((r) => !r.top).length;
      const fig = view.figure;
      assert.ok(fig.points.every((p) => built[p.index].top && p.x > 0 && p.y > 0));
      // Each point sits on the chosen roof: min(peak, bandwidth · intensity), in GFLOP/s.
      for (const p of fig.points) assert.ok(Math.abs(p.y - Math.min(100, 20 * p.x)) <= 1e-12 * p.y, `${p.x} ${p.y}`);
      assert.equal(view.roof.line.ridge, 5);
    }
    assert.ok(nested > 0, 'the fused module has rows in its fused computation');
    const hlo = placeOps(core.analyzeText(texts.at(-1)));
    assert.deepEqual(
      hlo.map((p) => p.where),
      ['fused', 'fused', null],
    );
    // An op in a region is placed in the op that holds it (the core lists it before its holder).
    const withBody = [
      'func.func @main(%x: tensor<8xf32>) -> tensor<f32> {',
      '  %a = stablehlo.abs %x : tensor<8xf32>',
      '  %z = stablehlo.constant dense<0.0> : tensor<f32>',
      '  %r = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>',
      '   reducer(%p: tensor<f32>, %q: tensor<f32>) {',
      '    %s = stablehlo.maximum %p, %q : tensor<f32>',
      '    stablehlo.return %s : tensor<f32>',
      '  }',
      '  %w = stablehlo.negate %r : tensor<f32>',
      '  return %w : tensor<f32>',
      '}',
      '',
    ].join('\n');
    const bodyResult = core.analyzeText(withBody);
    assert.deepEqual(
      summarizeFile('b', bodyResult).ops.map((o) => o.line),
      [2, 6, 4, 9],
    );
    assert.deepEqual(
      placeOps(bodyResult).map((p) => p.where),
      [null, 'region of line 4', null, null],
    );
    // Rows without a roof carry no bound; figurePoints draws the core's ceilings.
    const summary = summarizeFile('t', core.analyzeText(texts[0]));
    assert.ok(buildRows(summary, placeOps(core.analyzeText(texts[0]))).every((r) => r.bound === null));
    const rows = buildRows(
      summary,
      placeOps(core.analyzeText(texts[0])),
      summary.ops.map(() => 'memory-bound'),
    );
    const fig = figurePoints(rows, { ops: { ceilings: summary.ops.map((_, i) => i + 1) }, program: null });
    assert.deepEqual(
      fig.points.map((p) => p.y),
      fig.points.map((p) => p.index + 1),
    );
  });

  test('the state keeps the last valid analysis when a text fails', async () => {
    const good = core.analyzeText(core.exampleModules().value[0].text);
    let a = setAnalysis(createAnalyzeState(), {
      summary: summarizeFile('lesson.mlir', good),
      placement: placeOps(good),
      errors: [],
      ms: 1,
    });
    a = setSelected(a, 1);
    assert.equal(a.selected, 1);
    const bad = core.analyzeText('garbage');
    a = setAnalysis(a, {
      summary: summarizeFile('input', bad),
      placement: [],
      errors: summarizeFile('input', bad).errorPlaces,
      ms: 1,
    });
    assert.equal(a.shown.name, 'lesson.mlir');
    assert.equal(a.errors[0].line, 1);
    const view = deriveAnalyzeView(core, a, { peak: 100, bandwidth: 20 }, null);
    assert.equal(view.summary.totals.flops, 8192);
    assert.equal(view.bound.bound, 'memory');
    assert.equal(view.dtype.used, 'f32');
    assert.equal(setSelected(a, 99).selected, null);
  });
});

describe('a share of the roof over 100%', () => {
  test('is explained by the roof it was measured against; nothing is said when no op went over', () => {
    const [lesson] = availableRoofs({ peak: 100, bandwidth: 20 }, null, 'f32');
    assert.equal(lesson.kind, 'hypothetical');
    assert.equal(overRoofNote(0, lesson), '');
    assert.equal(
      overRoofNote(1, lesson),
      '1 op ran faster than its ceiling (a share of the roof over 100%): the roof is the hypothetical budgets chosen in the lesson, not this machine, which can be faster.',
    );
    assert.match(overRoofNote(3, lesson, 'fusion'), /^3 fusions ran faster than their ceilings/);
    const preset = presetRoof(HARDWARE_PRESETS[0], 'f32');
    assert.match(overRoofNote(2, preset), /another device's specification\.$/);
    const measured = availableRoofs(
      null,
      { measured_ceilings: { gflops: 40, bandwidth_gbs: { memory: 10 } } },
      'f32',
    )[0];
    assert.equal(measured.kind, 'measurement');
    assert.match(overRoofNote(1, measured), /stay in the caches/);
  });
});
