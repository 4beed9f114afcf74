// Roofs for the analyze view: which roofs there are, with their sources, and the peak a program's
// dtype reads. The arithmetic over them (ridge, ceilings, bounds, the lower bound on time) is the
// core's (core.roofline, cpp/model). Pure: no DOM.
//
// A roof is {id, label, kind, peak (FLOP/s), bandwidth (B/s), interconnect (B/s) | null,
//            dtype_used, notes: string[], sources: string[]}
// kind: 'hypothetical' (the lesson's budgets), 'measurement' (this machine), or
// 'specification' (a vendor's number from web/model/hardware_presets.js, never a measurement).
import { HARDWARE_PRESETS, PRESET_KIND, presetById } from './hardware_presets.js';
import { short } from './format.js';

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
  const classes = new Map(); // a program has a few element types and maybe 100,000 ops
  for (const o of ops) {
    let c = classes.get(o.element_type);
    if (c === undefined) classes.set(o.element_type, (c = peakClassOf(o.element_type)));
    if (!c) continue;
    flops.set(c, (flops.get(c) ?? 0) + (o.flops || 0));
    bytes.set(c, (bytes.get(c) ?? 0) + (o.bytes_accessed || 0));
  }
  if (flops.size === 0) return { dtype: 'f32', from: 'no op has a float or int8 result type; f32 assumed' };
  const [best] = [...flops.keys()].sort((a, b) => flops.get(b) - flops.get(a) || bytes.get(b) - bytes.get(a));
  return { dtype: best, from: 'the result type carrying the most flops' };
}

/** Where to look for a peak when the table has none for `dtype`, in order. */
const FALLBACKS = {
  bf16: ['bf16'],
  f16: ['bf16'],
  fp8: ['fp8', 'bf16'],
  f32: ['f32', 'bf16'],
  f64: ['f64', 'f32', 'bf16'],
  int8: ['int8', 'bf16'],
};
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
      note =
        `${preset.name} lists no dense ${COLUMN_NAME[order[0]] ?? dtype} peak; the ${COLUMN_NAME[key]} peak is used, ` +
        (key === 'bf16' && (dtype === 'f32' || dtype === 'f64')
          ? 'an upper bound (f32 work runs as several bf16 passes or not at all)'
          : 'which may not apply');
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
    id: preset.id,
    label: `${preset.name} (${peak.column} dense, ${PRESET_KIND})`,
    kind: 'specification',
    peak: peak.tflops * 1e12,
    bandwidth: preset.bandwidth.value * 1e9,
    interconnect: preset.interconnect ? preset.interconnect.value * 1e9 : null,
    dtype_used: peak.column,
    notes: [...(peak.note ? [peak.note] : []), ...preset.notes],
    sources: [
      `peak ${peak.tflops} TFLOP/s: ${peak.source}`,
      `bandwidth ${preset.bandwidth.value} GB/s: ${preset.bandwidth.source}`,
      ...(preset.interconnect
        ? [`interconnect ${preset.interconnect.value} GB/s one way: ${preset.interconnect.source}`]
        : []),
    ],
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
      id: 'lesson',
      label: `hypothetical budgets: ${budgets.peak} GFLOP/s, ${budgets.bandwidth} GB/s (from the lesson)`,
      kind: 'hypothetical',
      peak: budgets.peak * 1e9,
      bandwidth: budgets.bandwidth * 1e9,
      interconnect: null,
      dtype_used: 'any',
      notes: ['budgets you choose in the lesson above, not a device'],
      sources: [],
    });
  }
  const c = measurements?.measured_ceilings;
  if (c && c.gflops > 0 && c.bandwidth_gbs?.memory > 0) {
    roofs.push({
      id: 'measured',
      label: `this machine, 1 core, measured: ${short(c.gflops)} GFLOP/s, ${short(c.bandwidth_gbs.memory)} GB/s (memory-sized triad)`,
      kind: 'measurement',
      peak: c.gflops * 1e9,
      bandwidth: c.bandwidth_gbs.memory * 1e9,
      interconnect: null,
      dtype_used: 'f32 (wasm SIMD)',
      notes: [
        "measured in this browser (f32x4 multiply-add chains; triad over a memory-sized working set), whatever the program's dtype",
      ],
      sources: [],
    });
  }
  // The same on every core at once (section 4's all-core column), when it was measured.
  const allCores = Math.max(...(c?.cores ?? [1]));
  const all = allCores > 1 ? c.by_cores?.[allCores] : null;
  if (all && all.gflops > 0 && all.bandwidth_gbs?.memory > 0) {
    roofs.push({
      id: 'measured-all',
      label: `this machine, all cores (${allCores}), measured: ${short(all.gflops)} GFLOP/s, ${short(all.bandwidth_gbs.memory)} GB/s (memory-sized triad)`,
      kind: 'measurement',
      peak: all.gflops * 1e9,
      bandwidth: all.bandwidth_gbs.memory * 1e9,
      interconnect: null,
      dtype_used: 'f32 (wasm SIMD)',
      notes: [
        `measured in this browser on ${allCores} Workers at once (aggregate f32x4 multiply-add chains; triads over a memory-sized working set shared out among them), whatever the program's dtype`,
      ],
      sources: [],
    });
  }
  for (const p of HARDWARE_PRESETS) roofs.push(presetRoof(p, dtype));
  return roofs;
}

export { presetById };

/**
 * A roof in the core's units (GFLOP/s, GB/s), for core.roofline: the core owns the ridge, the
 * ceiling, the bound and the lower bound on time.
 */
export function roofBudgets(roof) {
  return {
    peak: roof.peak / 1e9,
    bandwidth: roof.bandwidth / 1e9,
    interconnect: roof.interconnect ? roof.interconnect / 1e9 : null,
  };
}
