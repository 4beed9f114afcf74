// Roofs for the analyze view and the arithmetic of a roofline over them. Pure: no DOM.
//
// A roof is {id, label, kind, peak (FLOP/s), bandwidth (B/s), interconnect (B/s) | null,
//            dtype_used, notes: string[], sources: string[]}
// kind: 'hypothetical' (the lesson's budgets), 'measurement' (this machine), or
// 'specification' (a vendor's number from web/model/hardware_presets.js, never a measurement).
import { HARDWARE_PRESETS, PRESET_KIND, presetById } from './hardware_presets.js';

/** Element type of a result type as either dialect prints it: "tensor<32x8xbf16>", "f32[2,3]{1,0}", "(pred[])". */
export function elementTypeOf(shape) {
  if (typeof shape !== 'string') return null;
  const s = shape.trim().replace(/^\(+/, '');
  const mlir = /^tensor<(?:[0-9?]+x)*([A-Za-z][A-Za-z0-9]*)/.exec(s);
  if (mlir) return mlir[1];
  const hlo = /^([A-Za-z][A-Za-z0-9]*)\[/.exec(s);
  return hlo ? hlo[1] : null;
}

/** The peak column an element type reads: 'bf16', 'f16', 'fp8', 'f32', 'f64', 'int8', or null (no flops column). */
export function peakClassOf(elementType) {
  if (!elementType) return null;
  const t = elementType.toLowerCase();
  if (t.startsWith('f8')) return 'fp8';
  if (t === 'bf16') return 'bf16';
  if (t === 'f16') return 'f16';
  if (t === 'f32' || t === 'tf32') return 'f32';
  if (t === 'f64') return 'f64';
  if (/^(s8|u8|i8|ui8|si8)$/.test(t)) return 'int8';
  return null;
}

/**
 * The program's dtype for choosing a peak: the peak class carrying the most flops over the
 * given ops (then the most bytes); 'f32' when no op says.
 * @returns {{dtype: string, from: string}}
 */
export function programDtype(ops) {
  const flops = new Map();
  const bytes = new Map();
  for (const o of ops) {
    const c = peakClassOf(elementTypeOf(o.shape));
    if (!c) continue;
    flops.set(c, (flops.get(c) ?? 0) + (o.flops || 0));
    bytes.set(c, (bytes.get(c) ?? 0) + (o.bytes_accessed || 0));
  }
  if (flops.size === 0) return { dtype: 'f32', from: 'no op has a float or int8 result type; f32 assumed' };
  const [best] = [...flops.keys()].sort((a, b) => (flops.get(b) - flops.get(a)) || (bytes.get(b) - bytes.get(a)));
  return { dtype: best, from: 'the result type carrying the most flops' };
}

/** Where to look for a peak when the table has none for `dtype`, in order. */
const FALLBACKS = { bf16: ['bf16'], f16: ['bf16'], fp8: ['fp8', 'bf16'], f32: ['f32', 'bf16'], f64: ['f64', 'f32', 'bf16'], int8: ['int8', 'bf16'] };
const COLUMN_NAME = { bf16: 'BF16/FP16', fp8: 'FP8', f32: 'FP32', f64: 'FP64', int8: 'INT8' };

/**
 * The dense peak a preset gives a program of this dtype.
 * @returns {{tflops: number, column: string, source: string, note: string|null}}
 */
export function peakFor(preset, dtype) {
  const order = FALLBACKS[dtype] ?? ['bf16'];
  for (const key of order) {
    const entry = preset.dense[key];
    if (!entry) continue;
    const fallback = key !== order[0] && key !== dtype;
    let note = null;
    if (fallback) {
      note = `${preset.name} lists no dense ${COLUMN_NAME[order[0]] ?? dtype} peak; the ${COLUMN_NAME[key]} peak is used, ` +
        (key === 'bf16' && (dtype === 'f32' || dtype === 'f64') ? 'an upper bound (f32 work runs as several bf16 passes or not at all)' : 'which may not apply');
    } else if (dtype === 'f32' && key === 'f32') {
      note = 'FP32 non-matrix peak; XLA may run f32 dots as TF32 on the matrix units, which are faster';
    }
    return { tflops: entry.value, column: COLUMN_NAME[key], source: entry.source, note };
  }
  return null;
}

/** The roof of a hardware preset for a program of `dtype`. */
export function presetRoof(preset, dtype) {
  const peak = peakFor(preset, dtype);
  return {
    id: preset.id, label: `${preset.name} (${peak.column} dense, ${PRESET_KIND})`, kind: 'specification',
    peak: peak.tflops * 1e12, bandwidth: preset.bandwidth.value * 1e9,
    interconnect: preset.interconnect ? preset.interconnect.value * 1e9 : null,
    dtype_used: peak.column,
    notes: [...(peak.note ? [peak.note] : []), ...preset.notes],
    sources: [`peak ${peak.tflops} TFLOP/s: ${peak.source}`, `bandwidth ${preset.bandwidth.value} GB/s: ${preset.bandwidth.source}`,
      ...(preset.interconnect ? [`interconnect ${preset.interconnect.value} GB/s one way: ${preset.interconnect.source}`] : [])],
  };
}

/**
 * Every roof the view can choose: the lesson's hypothetical budgets (GFLOP/s, GB/s), this
 * machine's measured ceilings on 1 core and on all cores (if measured), then the presets.
 * @param {{peak: number, bandwidth: number}|null} budgets
 * @param {object|null} measurements  state.measurements (web/model/measure.js)
 */
export function availableRoofs(budgets, measurements, dtype) {
  const roofs = [];
  if (budgets && budgets.peak > 0 && budgets.bandwidth > 0) {
    roofs.push({
      id: 'lesson', label: `hypothetical budgets: ${budgets.peak} GFLOP/s, ${budgets.bandwidth} GB/s (from the lesson)`, kind: 'hypothetical',
      peak: budgets.peak * 1e9, bandwidth: budgets.bandwidth * 1e9, interconnect: null, dtype_used: 'any',
      notes: ['budgets you choose in the lesson above, not a device'], sources: [],
    });
  }
  const c = measurements?.measured_ceilings;
  if (c && c.gflops > 0 && c.bandwidth_gbs?.memory > 0) {
    roofs.push({
      id: 'measured', label: `this machine, 1 core, measured: ${Number(c.gflops.toPrecision(4))} GFLOP/s, ${Number(c.bandwidth_gbs.memory.toPrecision(4))} GB/s (memory-sized triad)`,
      kind: 'measurement', peak: c.gflops * 1e9, bandwidth: c.bandwidth_gbs.memory * 1e9, interconnect: null, dtype_used: 'f32 (wasm SIMD)',
      notes: ['measured in this browser (f32x4 multiply-add chains; triad over a memory-sized working set), whatever the program\'s dtype'], sources: [],
    });
  }
  // The same on every core at once (section 4's all-core column), when it was measured.
  const allCores = Math.max(...(c?.cores ?? [1]));
  const all = allCores > 1 ? c.by_cores?.[allCores] : null;
  if (all && all.gflops > 0 && all.bandwidth_gbs?.memory > 0) {
    roofs.push({
      id: 'measured-all', label: `this machine, all cores (${allCores}), measured: ${Number(all.gflops.toPrecision(4))} GFLOP/s, ${Number(all.bandwidth_gbs.memory.toPrecision(4))} GB/s (memory-sized triad)`,
      kind: 'measurement', peak: all.gflops * 1e9, bandwidth: all.bandwidth_gbs.memory * 1e9, interconnect: null, dtype_used: 'f32 (wasm SIMD)',
      notes: [`measured in this browser on ${allCores} Workers at once (aggregate f32x4 multiply-add chains; triads over a memory-sized working set shared out among them), whatever the program's dtype`], sources: [],
    });
  }
  for (const p of HARDWARE_PRESETS) roofs.push(presetRoof(p, dtype));
  return roofs;
}

export { presetById };

/** The ridge of a roof, flops per byte. */
export function ridgeOf(roof) {
  return roof.peak / roof.bandwidth;
}

/**
 * Time for `flops` and `bytes` under a roof, as in the lesson: compute time and memory time;
 * the bound is the larger. 'balanced' when equal; null when both are 0.
 */
export function opBound(flops, bytes, roof) {
  const compute = flops / roof.peak;
  const memory = bytes / roof.bandwidth;
  if (compute === 0 && memory === 0) return null;
  return compute > memory ? 'compute-bound' : compute < memory ? 'memory-bound' : 'balanced';
}

/** The ceiling at an intensity (flops/byte), in FLOP/s: min(peak, bandwidth · intensity). */
export function ceilingAt(intensity, roof) {
  return Math.min(roof.peak, roof.bandwidth * intensity);
}

/**
 * The lower bound on the program's time under a roof: max(compute time, memory time,
 * collectives time). Collectives count when collective_bytes > 0 and the roof states an
 * interconnect bandwidth; otherwise `collectives` says why they are left out.
 * @param {{flops: number, bytes_accessed: number, collective_bytes?: number}} totals
 */
export function timeLowerBound(totals, roof) {
  const compute = totals.flops / roof.peak;
  const memory = totals.bytes_accessed / roof.bandwidth;
  const cbytes = totals.collective_bytes || 0;
  let collective = null;
  let collectives = 'none in the program';
  if (cbytes > 0) {
    if (roof.interconnect > 0) {
      collective = cbytes / roof.interconnect;
      collectives = 'modelled';
    } else {
      collectives = 'not modelled: this roof states no interconnect bandwidth';
    }
  }
  const parts = [['compute', compute], ['memory', memory]];
  if (collective !== null) parts.push(['collectives', collective]);
  const seconds = Math.max(...parts.map(([, s]) => s));
  const winners = parts.filter(([, s]) => s === seconds).map(([k]) => k);
  const bound = seconds === 0 ? null : winners.length > 1 ? `balanced (${winners.join(' = ')})` : winners[0];
  return { seconds, compute, memory, collective, collectives, bound };
}

/**
 * Points of a roof's curve over [xmin, xmax] flops/byte, in GFLOP/s: the ends and the ridge
 * (straight in log–log between them).
 */
export function roofCurve(roof, xmin, xmax) {
  const xs = [xmin, ridgeOf(roof), xmax].filter((x) => x >= xmin && x <= xmax).sort((a, b) => a - b);
  return xs.map((x) => ({ x, y: ceilingAt(x, roof) / 1e9 }));
}
