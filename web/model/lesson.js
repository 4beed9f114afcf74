// The lesson's report: the seed's steps composed from core calls. The page and
// `node scripts/lesson.mjs` both build it here, so they cannot disagree. Pure: no DOM.
import { pyFloat, pyFloatList, sci, short } from './format.js';

// Parts owned by issues that have not landed. They are reported as missing, never invented.
import { ESTIMATE_LABEL } from './analysis.js';

// StableHLO element types by itemsize; other itemsizes have a model but no StableHLO here.
// Used when no dtype is given (the CLI); an explicit dtype wins (the page's selector).
export const DTYPE_OF_ITEMSIZE = { 2: 'bf16', 4: 'f32', 8: 'f64' };

/** The element types the core emits, and their itemsize in bytes. */
export const ITEMSIZE_OF_DTYPE = { f32: 4, bf16: 2, f16: 2, f64: 8 };

/**
 * Step 1 and the estimate of step 2: the StableHLO of tanh(a @ b) as JAX prints it, its
 * operation and shape contract read back by the core's parser and verifier, and the cost
 * estimate of that IR with XLA's counting rules.
 */
function lowered(core, m, k, n, itemsize, explicitDtype) {
  const dtype = explicitDtype ?? DTYPE_OF_ITEMSIZE[itemsize];
  if (!dtype) {
    return { ok: true, value: { stablehlo: null, reason: `no StableHLO float type has itemsize ${itemsize} (f32 4, bf16 2, f64 8)` } };
  }
  const text = core.emitWorkload(m, k, n, dtype);
  if (!text.ok) return text;
  const analysis = core.analyzeText(text.value);
  if (!analysis.ok) return analysis;
  const module = analysis.value.modules[0];
  if (module.error) return { ok: false, error: module.error };
  const dot = module.ops.find((o) => o.op === 'stablehlo.dot_general');
  const tanh = module.ops.find((o) => o.op === 'stablehlo.tanh');
  const t = module.totals;
  return {
    ok: true,
    value: {
      stablehlo: {
        dtype,
        text: text.value,
        ops_present: module.ops.map((o) => o.op.replace(/^stablehlo\./, '')),
        contract: {
          dot_general: Boolean(dot), tanh: Boolean(tanh),
          lhs: [m, k], rhs: [k, n], result: [m, n], contracting: 'lhs dimension 1 with rhs dimension 0',
          result_type: dot?.shape ?? null, verified: true,
        },
      },
      cost_estimate: {
        label: ESTIMATE_LABEL,
        flops: t.flops, transcendentals: t.transcendentals, bytes_accessed: t.bytes_accessed,
        bytes_accessed_operand: t.bytes_accessed_operand, bytes_accessed_output: t.bytes_accessed_output,
        minimum_traffic_bytes: t.minimum_traffic_bytes,
        per_op: module.ops.map((o) => ({ line: o.line, op: o.op, flops: o.flops, transcendentals: o.transcendentals, bytes_accessed: o.bytes_accessed })),
      },
    },
  };
}

/** The inputs a report is built from; every one can be changed, none is required. */
export const PARAM_NAMES = ['m', 'k', 'n', 'dtype', 'itemsize', 'peak', 'bandwidth', 'traffic_factor', 'sizes'];

function fail(input, error) {
  return { ok: false, input, error };
}

/**
 * Builds the lesson's report.
 * @param {ReturnType<typeof import('../core.js').loadCore> extends Promise<infer C> ? C : never} core
 * @param {Partial<{m:number,k:number,n:number,dtype:string,itemsize:number,peak:number,bandwidth:number,
 *                   traffic_factor:number,sizes:number[]}>} params  missing ones take the seed's values.
 *   `dtype` ('f32'|'bf16'|'f16'|'f64') sets the StableHLO element type and, when itemsize is not
 *   given, the itemsize; without it the element type follows the itemsize (2 → bf16).
 * @returns {{ok: true, report: object} | {ok: false, input: string, error: string}}
 */
export function buildLesson(core, params = {}) {
  const defaults = core.lessonDefaults();
  if (!defaults.ok) return fail('core', defaults.error);
  const d = defaults.value;
  // A missing value takes the seed's; an empty dtype means "follow the itemsize".
  const given = Object.fromEntries(Object.entries(params).filter(([key, v]) =>
    v !== undefined && !(key === 'dtype' && (v === null || v === ''))));
  if (given.dtype !== undefined) {
    const size = ITEMSIZE_OF_DTYPE[given.dtype];
    if (size === undefined) {
      return fail('dtype', `dtype must be one of ${Object.keys(ITEMSIZE_OF_DTYPE).join(', ')}, got ${JSON.stringify(given.dtype)}`);
    }
    if (given.itemsize === undefined) given.itemsize = size;
    else if (given.itemsize !== size) {
      return fail('dtype', `dtype ${given.dtype} has itemsize ${size}, got itemsize ${given.itemsize}`);
    }
  }
  const p = { ...d, ...given };

  const accounting = core.contract(p.m, p.k, p.n, p.itemsize);
  if (!accounting.ok) {
    const named = accounting.error.split(' ')[0];
    return fail(['m', 'k', 'n', 'itemsize'].includes(named) ? named : 'dimensions', accounting.error);
  }

  if (!Array.isArray(p.sizes) || p.sizes.length === 0) {
    return fail('sizes', `sizes must be a non-empty list of positive integers, got ${JSON.stringify(p.sizes)}`);
  }
  const squares = [];
  for (const [i, n] of p.sizes.entries()) {
    const c = core.contract(n, n, n, p.itemsize);
    if (!c.ok) return fail('sizes', `sizes[${i}]: ${c.error.replace(/^m /, 'size ')}`);
    squares.push(c.value);
  }
  const intensities = squares.map((c) => c.intensity);

  const ceilings = core.ceilings(p.peak, p.bandwidth, intensities);
  if (!ceilings.ok) return fail(ceilings.error.split(' ')[0], ceilings.error);
  const traffic = core.trafficExperiment(p.peak, p.bandwidth, intensities, p.traffic_factor);
  if (!traffic.ok) return fail('traffic_factor', traffic.error);
  const figure = core.figure(p.peak, p.bandwidth, intensities);
  if (!figure.ok) return fail('figure', figure.error);

  const [aRows, aCols] = d.exercise.a;
  const [bRows, bCols] = d.exercise.b;
  const exercise = core.contractShapes(aRows, aCols, bRows, bCols, d.itemsize);
  if (!exercise.ok) return fail('exercise', exercise.error);
  const exerciseCeiling = core.ceilings(p.peak, p.bandwidth, [exercise.value.intensity]);
  if (!exerciseCeiling.ok) return fail('exercise', exerciseCeiling.error);
  const at = exerciseCeiling.value.rows[0];

  const ir = lowered(core, p.m, p.k, p.n, p.itemsize, given.dtype);
  if (!ir.ok) return fail('stablehlo', ir.error);

  // Step 2 of the seed: run tanh(a@b) on its inputs and check it against a reference.
  const kernelCheck = core.checkLessonKernel(undefined);
  if (!kernelCheck.ok) return fail('kernel', kernelCheck.error);

  const a = accounting.value;
  const report = {
    stablehlo: ir.value.stablehlo,
    stablehlo_ops: ir.value.stablehlo ? ir.value.stablehlo.ops_present : null,
    stablehlo_unavailable: ir.value.reason ?? null,
    cost_estimate: ir.value.cost_estimate ?? null,
    kernel_check: kernelCheck.value,
    // Filled by the measurements (scripts/lesson.mjs, or the page's Worker), never by the model.
    local_samples_seconds: null,
    matmul_accounting: {
      m: a.m, k: a.k, n: a.n, itemsize: a.itemsize,
      flops: a.flops,
      minimum_bytes: a.minimum_bytes,
      flops_per_byte: a.intensity,
      flops_exact: a.flops_exact,
      minimum_bytes_exact: a.minimum_bytes_exact,
      flops_per_byte_fraction: a.intensity_fraction,
    },
    sizes: squares.map((c) => c.m),
    intensity: intensities,
    intensity_fraction: squares.map((c) => c.intensity_fraction),
    hypothetical_ceilings_gflops: ceilings.value.rows.map((r) => r.ceiling),
    bounds: ceilings.value.rows.map((r) => r.bound),
    traffic_factor: p.traffic_factor,
    doubled_traffic_ceilings_gflops: traffic.value.map((r) => r.revised.ceiling),
    traffic_bound_changed_sizes: squares.filter((_, i) => traffic.value[i].bound_changed).map((c) => c.m),
    ridge: ceilings.value.ridge,
    figure: figure.value,
    exercise: {
      a: d.exercise.a,
      b: d.exercise.b,
      itemsize: exercise.value.itemsize,
      work: exercise.value.flops,
      traffic: exercise.value.minimum_bytes,
      ratio: exercise.value.intensity,
      ratio_fraction: exercise.value.intensity_fraction,
      bandwidth_times_ratio_gflops: at.bandwidth_ceiling,
      ceiling_gflops: at.ceiling,
      bound: at.bound,
    },
    budgets: { peak: p.peak, bandwidth: p.bandwidth, hypothetical: true, units: { peak: 'GFLOP/s', bandwidth: 'GB/s' } },
  };
  return { ok: true, report };
}

function trafficWords(factor) {
  return factor === 2 ? 'twice' : `${pyFloat(factor).replace(/\.0$/, '')}×`;
}

function measurementLines(r) {
  if (!r.local_samples_seconds) {
    return [`Local CPU samples seconds: ${r.measurements_skipped ?? 'not measured'}`];
  }
  const t = r.timing;
  const c = r.measured_ceilings;
  const on = (n) => (n === 1 ? '1 core' : `${n} cores at once`);
  const kernels = (r.kernel_timings ?? []).map((k) => `  tanh(A@B) at ${k.m}×${k.k}×${k.n} on ${on(k.cores)}: median ${sci(k.median)} s per call = ` +
    `${short(k.gflops)} GFLOP/s (2·m·k·n per call)` +
    (k.cores > 1 && k.speedup !== null ? `; ${short(k.speedup)}× 1 core, efficiency ${short(k.efficiency * 100)}%` : ''));
  const ceilings = (c.cores ?? [1]).map((n) => {
    const v = c.by_cores?.[n] ?? c;
    return `  measured ceilings, ${on(n)}: mul+add ${short(v.gflops)} GFLOP/s; triad bandwidth L1 ${short(v.bandwidth_gbs.l1)}, ` +
      `L2 ${short(v.bandwidth_gbs.l2)}, memory ${short(v.bandwidth_gbs.memory)} GB/s`;
  });
  const problem = r.workers?.all_cores_error ? [`  all cores not measured: ${r.workers.all_cores_error}`] : [];
  return [
    `Local CPU samples seconds: ${pyFloatList(r.local_samples_seconds)}`,
    `  (${r.measurements_label}: ${t.variant}, each sample the mean of ${t.repeats} calls lasting ≥ 100 timer ticks; ` +
      `timer resolution ${sci(t.timer_resolution)} s; median ${sci(t.median)} s, min ${sci(t.min)} s, max ${sci(t.max)} s)`,
    `  ${t.note}`,
    ...kernels,
    ...ceilings,
    ...problem,
  ];
}

/** The report as the seed prints it, line by line, then a few labelled extras. */
export function reportLines(r) {
  const acc = r.matmul_accounting;
  const ex = r.exercise;
  const kc = r.kernel_check;
  const relation = ex.bound === 'memory-bound' ? '<' : ex.bound === 'compute-bound' ? '>' : '=';
  const ce = r.cost_estimate;
  const xlaKeys = ce && [
    `'bytes accessed': ${pyFloat(ce.bytes_accessed)}`,
    ...Object.entries(ce.bytes_accessed_operand).map(([i, b]) => `'bytes accessed${i}{}': ${pyFloat(b)}`),
    `'bytes accessedout{}': ${pyFloat(ce.bytes_accessed_output)}`,
    `'flops': ${pyFloat(ce.flops)}`,
    `'transcendentals': ${pyFloat(ce.transcendentals)}`,
  ].join(', ');
  const present = r.stablehlo && ['dot_general', 'tanh'].filter((op) => r.stablehlo_ops.includes(op));
  return [
    r.stablehlo
      ? `StableHLO operations present: ${present.join(' and ')} (${r.stablehlo.dtype}; contract: ${r.stablehlo.contract.lhs.join('×')} · ` +
        `${r.stablehlo.contract.rhs.join('×')} → ${r.stablehlo.contract.result_type}, verified)`
      : `StableHLO operations present: not shown (${r.stablehlo_unavailable})`,
    `Reference check: ${kc.passed ? 'passed' : 'FAILED'}, max |x − y| = ${sci(kc.max_abs_error)} ` +
      `(rule |x − y| ≤ ${sci(kc.atol)} + ${sci(kc.rtol)}·|y|, wasm kernel ${kc.variant}, lesson inputs)`,
    ce ? `Cost estimate (${ce.label}): {${xlaKeys}}` : 'Cost estimate: not shown (no StableHLO)',
    ...measurementLines(r),
    `Matmul-only accounting: {'flops': ${acc.flops_exact}, 'minimum_bytes': ${acc.minimum_bytes_exact}, 'flops_per_byte': ${pyFloat(acc.flops_per_byte)}}`,
    `Hypothetical ceilings GFLOP/s: ${pyFloatList(r.hypothetical_ceilings_gflops)}`,
    `Ceilings with ${trafficWords(r.traffic_factor)} minimum traffic GFLOP/s: ${pyFloatList(r.doubled_traffic_ceilings_gflops)}`,
    `Exercise (${ex.a.join(',')})·(${ex.b.join(',')}): work ${ex.work} flops, traffic ${ex.traffic} bytes, ` +
      `ratio ${ex.ratio_fraction} ≈ ${short(ex.ratio)} flops/byte; bandwidth·ratio ≈ ${short(ex.bandwidth_times_ratio_gflops)} GFLOP/s ` +
      `${relation} peak ${short(r.budgets.peak)} GFLOP/s: ${ex.bound}`,
    '',
    `Model of (${acc.m}×${acc.k})·(${acc.k}×${acc.n}), itemsize ${acc.itemsize}: flops = 2·m·k·n, minimum bytes = itemsize·(mk+kn+mn), ` +
      `intensity ${acc.flops_per_byte_fraction} flops/byte`,
    `Budgets: peak ${short(r.budgets.peak)} GFLOP/s, bandwidth ${short(r.budgets.bandwidth)} GB/s — hypothetical, not a device specification; ` +
      `ridge ${short(r.ridge)} flops/byte`,
    `Square sizes ${r.sizes.join(', ')}: intensity ${r.intensity_fraction.join(', ')} flops/byte; ${r.bounds.join(', ')}`,
    `With ${trafficWords(r.traffic_factor)} the traffic, sizes that change bound: ${r.traffic_bound_changed_sizes.join(', ') || 'none'}`,
    ...(r.stablehlo
      ? ['', 'The lowered computation (jax.jit(workload).lower(a, b).as_text(), emitted by the core):', ...r.stablehlo.text.trimEnd().split('\n')]
      : []),
  ];
}
