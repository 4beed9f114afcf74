// The lesson's report: composed by the core in one call (core.lessonReport, cpp/report), so the
// page and `node scripts/lesson.mjs` print and draw the same object and JS computes none of it.
// Here: the report's one label from this side (the estimate's, shared with the analyze view) and
// the report as the seed prints it. Pure: no DOM.
import { pyFloat, pyFloatList, sci, short } from './format.js';
import { ESTIMATE_LABEL } from './analysis.js';

/**
 * Builds the lesson's report: one call into the core.
 * @param {ReturnType<typeof import('../core.js').loadCore> extends Promise<infer C> ? C : never} core
 * @param {Partial<{m:number,k:number,n:number,dtype:string,itemsize:number,peak:number,bandwidth:number,
 *                   traffic_factor:number,sizes:number[]}>} params  missing ones take the seed's values.
 *   `dtype` ('f32'|'bf16'|'f16'|'f64') sets the StableHLO element type and, when itemsize is not
 *   given, the itemsize; without it the element type follows the itemsize (2 → bf16).
 * @param {{measured?: object, answers?: Record<string, string>}} extras  this machine's roofs and
 *   point for the figure (web/model/measure.js measuredForReport), section 7's answers to check
 * @returns {{ok: true, report: object, measured: object|null, check: object} | {ok: false, input: string, error: string,
 *   errors: {input: string, error: string}[]}}  `errors`: every refused input (the first is `input`)
 *   `report`: the model's report (what `node scripts/lesson.mjs --json` prints, and `rooflineLab.report()`
 *   gives); apart from it, as the state keeps them apart: `measured`, this machine's roofs and point
 *   for the figure (null without measurements), and `check`, the core's verdicts on `answers` by id.
 */
export function buildLesson(core, params = {}, extras = {}) {
  const r = core.lessonReport(params, extras);
  if (!r.ok)
    return {
      ok: false,
      input: r.input ?? 'core',
      error: r.error,
      errors: r.errors ?? [{ input: r.input ?? 'core', error: r.error }],
    };
  const { measured_roofline: measured, ...report } = r.value;
  const { check, ...exercise } = report.exercise;
  report.exercise = exercise;
  // The estimate's label first, as the analyze view labels the same numbers.
  if (report.cost_estimate) report.cost_estimate = { label: ESTIMATE_LABEL, ...report.cost_estimate };
  return { ok: true, report, measured, check };
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
  const kernels = (r.kernel_timings ?? []).map(
    (k) =>
      `  tanh(A@B) at ${k.m}×${k.k}×${k.n} on ${on(k.cores)}: median ${sci(k.median)} s per call = ` +
      `${short(k.gflops)} GFLOP/s (2·m·k·n per call)` +
      (k.cores > 1 && k.speedup !== null
        ? `; ${short(k.speedup)}× 1 core, efficiency ${short(k.efficiency * 100)}%`
        : ''),
  );
  const ceilings = (c.cores ?? [1]).map((n) => {
    const v = c.by_cores?.[n] ?? c;
    return (
      `  measured ceilings, ${on(n)}: mul+add ${short(v.gflops)} GFLOP/s; triad bandwidth L1 ${short(v.bandwidth_gbs.l1)}, ` +
      `L2 ${short(v.bandwidth_gbs.l2)}, memory ${short(v.bandwidth_gbs.memory)} GB/s`
    );
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
  const xlaKeys =
    ce &&
    [
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
      ? [
          '',
          'The lowered computation (jax.jit(workload).lower(a, b).as_text(), emitted by the core):',
          ...r.stablehlo.text.trimEnd().split('\n'),
        ]
      : []),
  ];
}
