// The analyze view's part of the page state (state.analyze) and the pure functions that change
// it and derive what the view shows. No DOM here.
//
// state.analyze = {
//   shown:   {summary, placement, name} of the last analysis that gave at least one module (kept
//            while a later text fails to parse, so the previous valid analysis stays visible);
//   errors:  [{line, column, message}] of the latest text, or [];
//   pending: the latest request's label while the Worker works, else null;
//   roofId:  the chosen roof ('lesson', 'measured' or a preset id);
//   dtype:   '' (from the program) or a peak column to use instead ('bf16', 'f16', 'fp8', 'f32', 'f64', 'int8');
//   sort:    {key, dir};  selected: the index of the selected op in summary.ops, or null;
//   allRoofs: whether the figure draws every roof, not only the chosen one;
//   ms:      the Worker's time for the latest analysis (parse + verify + lower + cost, in the core).
// }
import { buildRows, figurePoints, figureRange, sortRows, withBounds } from './model/analysis_view.js';
import { availableRoofs, programDtype, roofBudgets } from './model/roofs.js';

export const DTYPE_CHOICES = ['bf16', 'f16', 'fp8', 'f32', 'f64', 'int8'];

export function createAnalyzeState() {
  return {
    shown: null, errors: [], pending: null, roofId: 'lesson', dtype: '', sort: { key: 'line', dir: 'asc' },
    selected: null, allRoofs: false, ms: null,
  };
}

export function setPending(a, label) {
  return { ...a, pending: label };
}

/** A finished analysis: shown if it has a module; its errors in any case. */
export function setAnalysis(a, { summary, placement, errors, ms }) {
  const next = { ...a, pending: null, errors, ms };
  if (summary.modules.length === 0) return next;
  return { ...next, shown: { summary, placement, name: summary.file }, selected: null };
}

/** The Worker failed or was cancelled: the message as an error without a place. */
export function setFailure(a, message) {
  return { ...a, pending: null, errors: [{ line: null, column: null, message }] };
}

export function setRoof(a, roofId) {
  return { ...a, roofId };
}

export function setDtype(a, dtype) {
  return { ...a, dtype: DTYPE_CHOICES.includes(dtype) ? dtype : '' };
}

export function setSort(a, sort) {
  return { ...a, sort };
}

export function setSelected(a, index) {
  const n = a.shown?.summary.ops.length ?? 0;
  return { ...a, selected: Number.isInteger(index) && index >= 0 && index < n ? index : null };
}

export function setAllRoofs(a, on) {
  return { ...a, allRoofs: Boolean(on) };
}

/**
 * Everything the view draws, from the analyze state, the lesson's budgets {peak, bandwidth}
 * (GFLOP/s, GB/s) and this machine's measurements (or null). The roofline arithmetic — every
 * roof's ridge, curve and lower bound on time, each op's bound and ceiling under the chosen roof —
 * is the core's, in one call (core.roofline); `roofs[i].line` is roof i's part of it.
 */
export function deriveAnalyzeView(core, a, budgets, measurements) {
  if (!a.shown) return null;
  const { summary, placement } = a.shown;
  const topOps = summary.ops.filter((_, i) => placement[i]?.top ?? true);
  const detected = programDtype(topOps);
  const dtype = a.dtype || detected.dtype;
  const found = availableRoofs(budgets, measurements, dtype);
  const roof = found.find((r) => r.id === a.roofId) ?? found[0];
  const rows = buildRows(summary, placement);  // their bounds follow from the core's answer
  const line = core.roofline({
    roofs: [roof, ...found.filter((r) => r !== roof)].map(roofBudgets),
    flops: Float64Array.from(summary.ops, (o) => o.flops),
    bytes: Float64Array.from(summary.ops, (o) => o.bytes_accessed),
    totals: { flops: summary.totals.flops, bytes_accessed: summary.totals.bytes_accessed, collective_bytes: summary.totals.collective_bytes || 0 },
    range: figureRange(rows, summary.totals),
  });
  if (!line.ok) throw new Error(`the roofline of this program: ${line.error}`);  // a bug: the roofs are checked data
  const others = line.value.roofs.slice(1);
  const roofs = found.map((r) => ({ ...r, line: r === roof ? line.value.roofs[0] : others.shift() }));
  const chosen = roofs.find((r) => r.id === roof.id);
  withBounds(rows, line.value.ops.bounds);
  return {
    summary, roofs, roof: chosen, rows, sorted: sortRows(rows, a.sort.key, a.sort.dir),
    dtype: { used: dtype, detected: detected.dtype, from: a.dtype ? 'chosen by you' : detected.from },
    bound: chosen.line.time,
    figure: figurePoints(rows, line.value),
  };
}
