// The analyze view's pure parts: hardware presets, dtype → peak, the time lower bound, op
// placement and sorting (web/model/hardware_presets.js, roofs.js, analysis_view.js, analyze_state.js).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HARDWARE_PRESETS, PRESET_KIND, presetById } from '../../web/model/hardware_presets.js';
import {
  availableRoofs, ceilingAt, elementTypeOf, opBound, peakClassOf, peakFor, presetRoof, programDtype, roofCurve, timeLowerBound,
} from '../../web/model/roofs.js';
import {
  buildRows, errorLocations, excerpt, figurePoints, lineStarts, nextSort, parseErrorText, placeOps, sortRows,
} from '../../web/model/analysis_view.js';
import { createAnalyzeState, deriveAnalyzeView, setAnalysis, setSelected } from '../../web/analyze_state.js';
import { summarizeFile } from '../../web/model/analysis.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('hardware presets', () => {
  test('every number has a source that names a document and a section, and no URL', () => {
    assert.ok(HARDWARE_PRESETS.length >= 5);
    for (const p of HARDWARE_PRESETS) {
      const entries = [...Object.entries(p.dense), ...Object.entries(p.sparse), ['bandwidth', p.bandwidth], ['interconnect', p.interconnect]];
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

  test('the issue\'s numbers: v5e 197/819, H100 989.4/3350, H200 989.4/4800, A100 312/2039, MI300X 1307.4/5300', () => {
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
    const walk = (dir) => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
    for (const file of walk(join(ROOT, 'web'))) assert.doesNotMatch(readFileSync(file, 'utf8'), /\bhttps?:\/\//, file);
  });
});

describe('dtype → peak', () => {
  test('element types from both dialects', () => {
    assert.equal(elementTypeOf('tensor<32x8xf32>'), 'f32');
    assert.equal(elementTypeOf('tensor<bf16>'), 'bf16');
    assert.equal(elementTypeOf('tensor<4x?xf8E4M3FN>'), 'f8E4M3FN');
    assert.equal(elementTypeOf('f16[128,64]{1,0}'), 'f16');
    assert.equal(elementTypeOf('(pred[], f32[2])'), 'pred');
    assert.deepEqual(['f8e5m2', 'bf16', 'f16', 'f32', 'f64', 's8', 'pred', 'i32'].map(peakClassOf), ['fp8', 'bf16', 'f16', 'f32', 'f64', 'int8', null, null]);
  });

  test('the program dtype is the one carrying the most flops', () => {
    const ops = [
      { shape: 'tensor<8xf32>', flops: 10, bytes_accessed: 1 },
      { shape: 'tensor<8x8xbf16>', flops: 1000, bytes_accessed: 1 },
      { shape: 'tensor<8xi32>', flops: 5000, bytes_accessed: 1 },
    ];
    assert.equal(programDtype(ops).dtype, 'bf16');
    assert.equal(programDtype([]).dtype, 'f32');
  });

  test('peaks by dtype, with the fallback said', () => {
    const h100 = presetById('h100-sxm');
    assert.deepEqual([peakFor(h100, 'bf16').tflops, peakFor(h100, 'f16').tflops, peakFor(h100, 'fp8').tflops, peakFor(h100, 'f32').tflops], [989.4, 989.4, 1979, 67]);
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
    assert.deepEqual(roofs.slice(0, 2).map((r) => [r.id, r.kind, r.peak, r.bandwidth]), [['lesson', 'hypothetical', 100e9, 20e9], ['measured', 'measurement', 50e9, 10e9]]);
    assert.equal(roofs.length, 2 + HARDWARE_PRESETS.length);
    assert.equal(availableRoofs({ peak: 100, bandwidth: 20 }, null, 'f32')[1].kind, 'specification');
  });

  test('"this machine, all cores" follows the single-core roof once all cores were measured', () => {
    const one = { gflops: 50, bandwidth_gbs: { l1: 200, l2: 100, memory: 10 } };
    const four = { gflops: 190, bandwidth_gbs: { l1: 800, l2: 390, memory: 25 } };
    const m = { measured_ceilings: { ...one, cores: [1, 4], by_cores: { 1: one, 4: four } } };
    const roofs = availableRoofs({ peak: 100, bandwidth: 20 }, m, 'f32');
    assert.deepEqual(roofs.slice(1, 3).map((r) => [r.id, r.kind, r.peak, r.bandwidth]), [['measured', 'measurement', 50e9, 10e9], ['measured-all', 'measurement', 190e9, 25e9]]);
    assert.match(roofs[2].label, /^this machine, all cores \(4\), measured: 190 GFLOP\/s, 25 GB\/s/);
    assert.equal(roofs.length, 3 + HARDWARE_PRESETS.length);
    // Only one core measured (a Worker did not start): no all-core roof.
    const single = { measured_ceilings: { ...one, cores: [1], by_cores: { 1: one } } };
    assert.equal(availableRoofs(null, single, 'f32').some((r) => r.id === 'measured-all'), false);
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
    assert.equal(timeLowerBound({ flops: 100, bytes_accessed: 20, collective_bytes: 0 }, roof).bound, 'balanced (compute = memory)');
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
    assert.equal(opBound(8192, 3584, roof), 'memory-bound');
    assert.equal(opBound(1e6, 1, roof), 'compute-bound');
    assert.equal(opBound(5, 1, roof), 'balanced');
    assert.equal(opBound(0, 0, roof), null);
    assert.equal(ceilingAt(2, roof), 40e9);
    assert.deepEqual(roofCurve(roof, 1, 100), [{ x: 1, y: 20 }, { x: 5, y: 100 }, { x: 100, y: 100 }]);
  });
});

describe('rows, placement and sorting', () => {
  const rows = [
    { index: 0, line: 3, op: 'b', flops: 5, intensity: null, bound: 'memory-bound' },
    { index: 1, line: 4, op: 'a', flops: 5, intensity: 2, bound: 'compute-bound' },
    { index: 2, line: 5, op: 'c', flops: 9, intensity: 1, bound: null },
  ];
  test('sorts by a column, ties in program order, missing values last either way', () => {
    assert.deepEqual(sortRows(rows, 'flops', 'desc').map((r) => r.index), [2, 0, 1]);
    assert.deepEqual(sortRows(rows, 'flops', 'asc').map((r) => r.index), [0, 1, 2]);
    assert.deepEqual(sortRows(rows, 'op', 'asc').map((r) => r.index), [1, 0, 2]);
    assert.deepEqual(sortRows(rows, 'intensity', 'asc').map((r) => r.index), [2, 1, 0]);
    assert.deepEqual(sortRows(rows, 'intensity', 'desc').map((r) => r.index), [1, 2, 0]);
    assert.deepEqual(sortRows(rows, 'bound', 'desc').map((r) => r.index), [0, 1, 2]);
    assert.throws(() => sortRows(rows, 'colour'), /cannot sort by "colour"/);
    assert.deepEqual(rows.map((r) => r.index), [0, 1, 2], 'the input is not changed');
  });

  test('a click on a new column starts descending for numbers, ascending for text; again flips', () => {
    assert.deepEqual(nextSort({ key: 'line', dir: 'asc' }, 'flops'), { key: 'flops', dir: 'desc' });
    assert.deepEqual(nextSort({ key: 'flops', dir: 'desc' }, 'flops'), { key: 'flops', dir: 'asc' });
    assert.deepEqual(nextSort({ key: 'flops', dir: 'desc' }, 'op'), { key: 'op', dir: 'asc' });
  });

  test('errors with line and column', () => {
    assert.deepEqual(parseErrorText('4:1: error: unterminated region'), { line: 4, column: 1, message: 'error: unterminated region' });
    assert.deepEqual(parseErrorText('no place'), { line: null, column: null, message: 'no place' });
    assert.deepEqual(errorLocations({ ok: false, error: '2:3: error: x' }), [{ line: 2, column: 3, message: 'error: x' }]);
    assert.deepEqual(errorLocations({ ok: true, value: { modules: [{ error: '7:5: error: y' }, { ops: [] }] } }), [{ line: 7, column: 5, message: 'error: y' }]);
  });

  test('excerpts of a text around a line', () => {
    const text = 'a\nbb\nccc\ndddd\n';
    const starts = lineStarts(text);
    assert.deepEqual(starts, [0, 2, 5, 9, 14]);
    assert.deepEqual(excerpt(text, starts, 2, { before: 1, after: 1 }), [{ number: 1, text: 'a' }, { number: 2, text: 'bb' }, { number: 3, text: 'ccc' }]);
    assert.deepEqual(excerpt(text, starts, 4, { before: 0, after: 5 }).map((l) => l.text), ['dddd', '']);
  });

  test('with the core: top-level ops sum to the totals (StableHLO examples and an HLO fusion)', async () => {
    const core = await loadNodeCore();
    const texts = core.exampleModules().value.map((e) => e.text);
    texts.push([
      'HloModule m', '', '%fused (p0: f32[4], p1: f32[4]) -> f32[4] {', '  %p0 = f32[4] parameter(0)', '  %p1 = f32[4] parameter(1)',
      '  %a = f32[4] add(f32[4] %p0, f32[4] %p1)', '  ROOT %m = f32[4] multiply(f32[4] %a, f32[4] %a)', '}', '',
      'ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {', '  %x = f32[4] parameter(0)', '  %y = f32[4] parameter(1)',
      '  ROOT %f = f32[4] fusion(f32[4] %x, f32[4] %y), kind=kLoop, calls=%fused', '}', ''].join('\n'));
    for (const text of texts) {
      const result = core.analyzeText(text);
      const summary = summarizeFile('t', result);
      const placement = placeOps(result);
      assert.equal(placement.length, summary.ops.length);
      const roof = { peak: 100e9, bandwidth: 20e9, interconnect: null };
      const built = buildRows(summary, placement, roof);
      const top = built.filter((r) => r.top);
      assert.equal(top.reduce((s, r) => s + r.flops, 0), summary.totals.flops);
      assert.equal(top.reduce((s, r) => s + r.bytes, 0), summary.totals.bytes_accessed);
      assert.ok(Math.abs(top.reduce((s, r) => s + r.byteShare, 0) - 1) < 1e-12);
      const fig = figurePoints(built, summary.totals, roof);
      assert.ok(fig.points.every((p) => built[p.index].top && p.x > 0 && p.y > 0));
    }
    const hlo = placeOps(core.analyzeText(texts.at(-1)));
    assert.deepEqual(hlo.map((p) => p.where), ['fused', 'fused', null]);
  });

  test('the state keeps the last valid analysis when a text fails', async () => {
    const core = await loadNodeCore();
    const good = core.analyzeText(core.exampleModules().value[0].text);
    let a = setAnalysis(createAnalyzeState(), { summary: summarizeFile('lesson.mlir', good), placement: placeOps(good), errors: [], ms: 1 });
    a = setSelected(a, 1);
    assert.equal(a.selected, 1);
    const bad = core.analyzeText('garbage');
    a = setAnalysis(a, { summary: summarizeFile('input', bad), placement: [], errors: errorLocations(bad), ms: 1 });
    assert.equal(a.shown.name, 'lesson.mlir');
    assert.equal(a.errors[0].line, 1);
    const view = deriveAnalyzeView(a, { peak: 100, bandwidth: 20 }, null);
    assert.equal(view.summary.totals.flops, 8192);
    assert.equal(view.bound.bound, 'memory');
    assert.equal(view.dtype.used, 'f32');
    assert.equal(setSelected(a, 99).selected, null);
  });
});
