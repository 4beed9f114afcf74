// The analyze view's part of the page state (state.analyze) and the pure functions that change
// it and derive what the view shows. No DOM here.
//
// state.analyze = {
//   shown:   {summary, placement, name, text} of the last analysis that gave at least one module
//            (kept while a later text fails to parse, so the previous valid analysis stays
//            visible); text: the text it was analysed from (what its rows' lines and columns,
//            the excerpts and a run refer to);
//   errors:  [{line, column, message}] of the latest text, or [];
//   failedText: the latest text when it gave no module (its errors refer to it), else null: the
//            errors refer to shown.text then (errorsText). Each text is kept once, in the
//            serialized state too (a text is smaller than the summary made from it);
//   request: the number of the newest request to the Worker (setPending counts it, Clear too):
//            an answer to an older one changes nothing (isLatestRequest);
//   seq:     the number of analyses shown so far: shown.seq is the newest's (a run carries it;
//            never reused, Clear included, so a run's answer cannot land on a later analysis);
//   pending: the latest request's label while the Worker works, else null;
//   roofId:  the chosen roof ('lesson', 'measured' or a preset id);
//   dtype:   '' (from the program) or a peak column to use instead ('bf16', 'f16', 'fp8', 'f32', 'f64', 'int8');
//   sort:    {key, dir};  selected: the index of the selected op in summary.ops, or null;
//   selectedFusion: the position of the selected fusion in the run's report.fusions, or null
//            (its ops' rows and lines are marked; selecting an op unselects it, and back);
//   fusionPage: the page of the run's table of fusions (TABLE_PAGE fusions to a page, in program order);
//   page:    the table's page (0 is the first TABLE_PAGE rows in the chosen order);
//   allRoofs: whether the figure draws every roof, not only the chosen one;
//   ms:      the Worker's time for the latest analysis (parse + verify + lower + cost, in the core);
//   cancelled: the latest request was cancelled (a calm state of its own, not an error);
//   cleared: the text was cleared (nothing is shown);
//   runChoice: {inputs: 'seeded' | 'arange' | 'files', seed, files, fuse, memoryCap}: how a
//            function's arguments are made for a run, whether it runs as a compiler would fuse it
//            (fuse: true, the default, as run.mjs) or op by op, and the bytes its live tensors may
//            take (memoryCap: null, the default, as much as the core's heap can still give);
//   run:     null, or the run of the analysis on show ("Run in this browser"):
//            {seq, name, pending: label | null, report: the run report | null, at: ISO time | null,
//             ms, inputs, seed, cancelled, error: string | null}; a new run keeps the previous
//            report until it finishes, and a cancelled one keeps it.
// }
// shown carries seq (one per analysis shown) and at (when it was analysed): results name their
// program and when; a run belongs to the analysis whose seq it carries.
//
// What the view derives from it (analyzeBaseSteps, withSort) is not kept here: it is a function
// of this state (analyzeBaseKey and analyzeFigureKey say of which parts), which the view holds
// only as a cache; kept here it would multiply the serialized state (rows, the roofline's
// arrays, the figure's points) and could disagree with the parts it came from.
import {
  buildRowsInSteps,
  drawable,
  figurePoints,
  figureRange,
  fusionPoints,
  measuredSeconds,
  runFusionsSteps,
  sortRowsSteps,
  TABLE_PAGE,
  withBounds,
  withFusionRoofline,
  withMeasured,
} from './model/analysis_view.js';
import { availableRoofs, programDtype, roofBudgets } from './model/roofs.js';
import { PAGE_MEMORY_CAPS, RUN_INPUTS } from './model/run.js';
import { runSteps } from './model/steps.js';

export const DTYPE_CHOICES = ['bf16', 'f16', 'fp8', 'f32', 'f64', 'int8'];

export function createAnalyzeState() {
  return {
    shown: null,
    errors: [],
    failedText: null,
    request: 0,
    seq: 0,
    pending: null,
    roofId: 'lesson',
    dtype: '',
    sort: { key: 'line', dir: 'asc' },
    page: 0,
    selected: null,
    selectedFusion: null,
    fusionPage: 0,
    allRoofs: false,
    ms: null,
    cancelled: false,
    cleared: false,
    runChoice: { inputs: 'seeded', seed: 1, files: [], fuse: true, dotEpilogues: true, memoryCap: null },
    run: null,
  };
}

/** A request goes to the Worker: it is the newest (its number is the new `request`). */
export function setPending(a, label) {
  return { ...a, request: a.request + 1, pending: label, cancelled: false, cleared: false };
}

/** Whether `request` (a number setPending gave) is still the newest: an answer to another is dropped. */
export function isLatestRequest(a, request) {
  return request === a.request;
}

/**
 * A finished analysis of `text` for request `request` (setPending's number; without it, the
 * newest): shown if it has a module; its errors in any case. An answer to an older request
 * changes nothing. `at`: when (ISO time).
 */
export function setAnalysis(
  a,
  { summary, placement, errors, ms, text = null, request = a.request },
  at = new Date().toISOString(),
) {
  if (!isLatestRequest(a, request)) return a;
  const next = { ...a, pending: null, errors, ms, cancelled: false, cleared: false };
  if (summary.modules.length === 0) return { ...next, failedText: text };
  return {
    ...next,
    failedText: null,
    seq: a.seq + 1,
    shown: { summary, placement, name: summary.file, text, seq: a.seq + 1, at, ms },
    selected: null,
    selectedFusion: null,
    page: 0,
    run: null,
  };
}

/** The text the errors on show refer to (their lines and columns, the excerpt), or null. */
export function errorsText(a) {
  return a.failedText ?? a.shown?.text ?? null;
}

/** The Worker failed request `request` (the newest if not given): the message as an error without a place. */
export function setFailure(a, message, request = a.request) {
  if (!isLatestRequest(a, request)) return a;
  return { ...a, pending: null, cancelled: false, errors: [{ line: null, column: null, message }] };
}

/** The reader cancelled request `request` (the newest if not given): not a failure; whatever was shown stays. */
export function setCancelled(a, request = a.request) {
  if (!isLatestRequest(a, request)) return a;
  return { ...a, pending: null, cancelled: true };
}

/** Clear: the text is gone, and so are its results, errors and run; an answer still to come is dropped. */
export function setCleared(a) {
  return {
    ...a,
    shown: null,
    errors: [],
    failedText: null,
    request: a.request + 1,
    pending: null,
    ms: null,
    cancelled: false,
    cleared: true,
    selected: null,
    selectedFusion: null,
    page: 0,
    run: null,
  };
}

/**
 * How a run makes arguments: {inputs: 'seeded' | 'arange' | 'files', seed: integer ≥ 0, files:
 * [{name, bytes: Uint8Array}] (.npy files, one per argument, checked by the core when it runs)},
 * fuse: a boolean (true: as a compiler would fuse it; false: op by op), dotEpilogues: a boolean
 * (true: a dot's elementwise epilogue joins its fusion, as XLA's GPU backend fuses it; false: as
 * XLA's CPU backend fuses it, only an add into a matrix-vector dot), and memoryCap: one of
 * PAGE_MEMORY_CAPS (bytes the run's live tensors may take; null: as much as the core's heap can
 * still give); anything else is ignored.
 */
export function setRunChoice(a, choice) {
  const inputs = RUN_INPUTS.includes(choice.inputs) ? choice.inputs : a.runChoice.inputs;
  const seed = Number.isInteger(choice.seed) && choice.seed >= 0 ? choice.seed : a.runChoice.seed;
  const files =
    Array.isArray(choice.files) &&
    choice.files.every((f) => typeof f?.name === 'string' && f.bytes instanceof Uint8Array)
      ? choice.files
      : a.runChoice.files;
  const fuse = typeof choice.fuse === 'boolean' ? choice.fuse : a.runChoice.fuse;
  const dotEpilogues = typeof choice.dotEpilogues === 'boolean' ? choice.dotEpilogues : a.runChoice.dotEpilogues;
  const memoryCap =
    'memoryCap' in choice && PAGE_MEMORY_CAPS.includes(choice.memoryCap) ? choice.memoryCap : a.runChoice.memoryCap;
  return { ...a, runChoice: { inputs, seed, files, fuse, dotEpilogues, memoryCap } };
}

/**
 * The run choice's words (the page's select and a link's #fuse=…) → {fuse, dotEpilogues}: fused
 * as a compiler would fuse it (a dot's epilogue joining it, as XLA's GPU backend fuses it), fused
 * as XLA's CPU backend fuses it, or op by op.
 */
export const FUSE_IN_LINK = {
  fused: { fuse: true, dotEpilogues: true },
  'xla-cpu': { fuse: true, dotEpilogues: false },
  ops: { fuse: false, dotEpilogues: true },
};

/** The run choice's word (a key of FUSE_IN_LINK). */
export function fuseWord(choice) {
  if (choice.fuse === false) return 'ops';
  return choice.dotEpilogues === false ? 'xla-cpu' : 'fused';
}

/**
 * The run choice a link gives (decodeHash's `run`: {fuse: 'fused' | 'xla-cpu' | 'ops'}, or null): a link
 * without fuse= runs fused (the default). A bad value is ignored with a notice naming the key,
 * the values allowed and the value; the choice is then the default.
 * @returns {{analyze: object, notices: string[]}}
 */
export function runChoiceFromLink(a, run) {
  const text = run?.fuse;
  if (text === undefined) return { analyze: setRunChoice(a, FUSE_IN_LINK.fused), notices: [] };
  if (Object.hasOwn(FUSE_IN_LINK, text)) return { analyze: setRunChoice(a, FUSE_IN_LINK[text]), notices: [] };
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return {
    analyze: setRunChoice(a, FUSE_IN_LINK.fused),
    notices: [
      `ignored fuse=${JSON.stringify(shown)} in the link: fuse is one of ${Object.keys(FUSE_IN_LINK).join(', ')}; the run fuses (the default)`,
    ],
  };
}

/** The run choice's part of the URL hash: 'fuse=ops' (op by op), 'fuse=xla-cpu'; '' for the default (fused). */
export function runHashPart(a) {
  const word = fuseWord(a.runChoice);
  return word === 'fused' ? '' : `fuse=${word}`;
}

/** A run of the analysis on show has started: its earlier report (if any) stays until it ends. */
export function setRunPending(a, label) {
  if (!a.shown) return a;
  const keep = a.run?.seq === a.shown.seq ? a.run : null;
  return {
    ...a,
    run: {
      seq: a.shown.seq,
      name: a.shown.name,
      report: keep?.report ?? null,
      at: keep?.at ?? null,
      ms: keep?.ms ?? null,
      inputs: keep?.inputs ?? a.runChoice.inputs,
      seed: keep?.seed ?? a.runChoice.seed,
      pending: label,
      cancelled: false,
      error: null,
      asked: { ...a.runChoice },
    },
  };
}

/**
 * A run finished (for the analysis `seq`): its report (and its results as .npy files) replaces the
 * earlier one. fusedTotals: a fused run's {flops, transcendentals, bytes_accessed} as the fusion
 * pass counts them (core.fuseText's fused_totals), or null: the summary's fused lower bound.
 */
export function setRun(a, seq, { report, ms, files, fusedTotals }, at = new Date().toISOString()) {
  if (a.run?.seq !== seq) return a;
  return {
    ...a,
    run: {
      ...a.run,
      report,
      ms,
      at,
      files: files ?? [],
      fusedTotals: fusedTotals ?? null,
      inputs: a.run.asked.inputs,
      seed: a.run.asked.seed,
      memoryCap: a.run.asked.memoryCap ?? null,
      pending: null,
      cancelled: false,
      error: null,
    },
    selectedFusion: null,
    fusionPage: 0,
  };
}

/** The reader cancelled the run: a calm state; the earlier report (if any) stays. */
export function setRunCancelled(a, seq) {
  if (a.run?.seq !== seq) return a;
  return { ...a, run: { ...a.run, pending: null, cancelled: true, error: null } };
}

/** The Worker failed the run (not the program: that is a report): the message. */
export function setRunFailure(a, seq, message) {
  if (a.run?.seq !== seq) return a;
  return { ...a, run: { ...a.run, pending: null, cancelled: false, error: message } };
}

export function setRoof(a, roofId) {
  return { ...a, roofId };
}

export function setDtype(a, dtype) {
  return { ...a, dtype: DTYPE_CHOICES.includes(dtype) ? dtype : '' };
}

/** A new order starts at its first page. */
export function setSort(a, sort) {
  return { ...a, sort, page: 0 };
}

/** The table's page: an integer from 0 to the last page of the program on show (clamped). */
export function setPage(a, page) {
  const last = Math.max(0, Math.ceil((a.shown?.summary.ops.length ?? 0) / TABLE_PAGE) - 1);
  return Number.isInteger(page) ? { ...a, page: Math.min(last, Math.max(0, page)) } : a;
}

export function setSelected(a, index) {
  const n = a.shown?.summary.ops.length ?? 0;
  return { ...a, selected: Number.isInteger(index) && index >= 0 && index < n ? index : null, selectedFusion: null };
}

/** Selects fusion `j` of the run on show (its position in report.fusions); anything else unselects. */
export function setSelectedFusion(a, j) {
  const run = a.shown && a.run?.seq === a.shown.seq ? a.run.report : null;
  const n = run?.fusions?.length ?? 0;
  const ok = Number.isInteger(j) && j >= 0 && j < n;
  // The table of fusions shows the selected one's page.
  return {
    ...a,
    selectedFusion: ok ? j : null,
    selected: null,
    fusionPage: ok ? Math.floor(j / TABLE_PAGE) : (a.fusionPage ?? 0),
  };
}

/** The page of the table of fusions: an integer from 0 to the last page of the run on show (clamped). */
export function setFusionPage(a, page) {
  const run = a.shown && a.run?.seq === a.shown.seq ? a.run.report : null;
  const last = Math.max(0, Math.ceil((run?.fusions?.length ?? 0) / TABLE_PAGE) - 1);
  return Number.isInteger(page) ? { ...a, fusionPage: Math.min(last, Math.max(0, page)) } : a;
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
  const base = runSteps(analyzeBaseSteps(core, a, budgets, measurements));
  return base && withSort(base, a.sort);
}

/**
 * What analyzeBaseStepsOf(core, state) is derived from, the rows' order aside, as a list of the
 * page state's parts: the analysis on show, the roof and dtype chosen, the lesson's budgets, this
 * machine's measurements and the run's report. The view derives its base again only when one of
 * them is another (sameKey): a new order, page or selection, or a request still in the Worker,
 * keeps it.
 */
export function analyzeBaseKey(state) {
  const a = state.analyze;
  return [a.shown, a.roofId, a.dtype, state.params?.peak, state.params?.bandwidth, state.measurements, a.run?.report];
}

/**
 * What the figure draws from: its base (analyzeBaseKey), whether it draws every roof, and the
 * selection (op or fusion). A new order or page of the table keeps it, so the figure is not drawn
 * again (a redraw of 1000 points is the longest step of a big program's).
 */
export function analyzeFigureKey(state) {
  const a = state.analyze;
  return [...analyzeBaseKey(state), a.allRoofs, a.selected, a.selectedFusion];
}

/** Whether key `k` names the same parts as key `l` (analyzeBaseKey, analyzeFigureKey); l null: nothing yet, no match. */
export function sameKey(k, l) {
  return l !== null && k.length === l.length && k.every((x, i) => x === l[i]);
}

/** analyzeBaseSteps for the page state `state`: its analysis, the lesson's budgets and this machine's measurements. */
export function analyzeBaseStepsOf(core, state) {
  const budgets = state.params ? { peak: state.params.peak, bandwidth: state.params.bandwidth } : null;
  return analyzeBaseSteps(core, state.analyze, budgets, state.measurements);
}

/** The view of `base` (analyzeBaseSteps' value) with its rows in the order of `sort` ({key, dir}). */
export function withSort(base, sort) {
  return runSteps(withSortSteps(base, sort));
}

/** withSort as steps (web/model/steps.js). */
export function* withSortSteps(base, sort) {
  return { ...base, sorted: yield* sortRowsSteps(base.rows, sort.key, sort.dir) };
}

/**
 * deriveAnalyzeView's work but the order of the rows (withSort), as steps: a generator that
 * yields between pieces of work (web/model/steps.js runs it at once or across tasks) and returns
 * the view without `sorted` (null with nothing shown). The view keeps it while only the order changes.
 */
export function* analyzeBaseSteps(core, a, budgets, measurements) {
  if (!a.shown) return null;
  const { summary, placement } = a.shown;
  const topOps = summary.ops.filter((_, i) => placement[i]?.top ?? true);
  yield;
  const detected = programDtype(topOps);
  const dtype = a.dtype || detected.dtype;
  const found = availableRoofs(budgets, measurements, dtype);
  const roof = found.find((r) => r.id === a.roofId) ?? found[0];
  yield;
  const rows = yield* buildRowsInSteps(summary, placement); // their bounds follow from the core's answer
  const run = a.run?.seq === a.shown.seq && a.run.report ? a.run : null;
  const measured = run ? measuredSeconds(summary, placement, run.report) : null;
  // A fused run's fusions: after the ops in the core's roofline call (fusion j at n + j), so
  // their ceilings, bounds and what they achieved are the core's, as the ops' are.
  const { fusions, ofOp, alsoIn } = run
    ? yield* runFusionsSteps(summary, run.report)
    : { fusions: [], ofOp: null, alsoIn: null };
  yield;
  const drawn = drawable(rows);
  yield;
  const n = summary.ops.length;
  const flops = new Float64Array(n + fusions.length);
  const bytes = new Float64Array(n + fusions.length);
  summary.ops.forEach((o, i) => {
    flops[i] = o.flops;
    bytes[i] = o.bytes_accessed;
  });
  fusions.forEach((f, j) => {
    flops[n + j] = f.flops;
    bytes[n + j] = f.bytes;
  });
  let seconds = null;
  if (measured) {
    seconds = new Float64Array(n + fusions.length).fill(NaN);
    seconds.set(measured.seconds);
    fusions.forEach((f, j) => {
      if (f.seconds !== null) seconds[n + j] = f.seconds;
    });
  }
  const line = core.roofline({
    roofs: [roof, ...found.filter((r) => r !== roof)].map(roofBudgets),
    flops,
    bytes,
    totals: {
      flops: summary.totals.flops,
      bytes_accessed: summary.totals.bytes_accessed,
      collective_bytes: summary.totals.collective_bytes || 0,
    },
    range: figureRange(rows, summary.totals, drawn, fusions),
    ...(measured ? { seconds, measured_seconds: measured.total } : {}),
  });
  if (!line.ok) throw new Error(`the roofline of this program: ${line.error}`); // a bug: the roofs are checked data
  // A fused run: the program's lower bound from its fused totals (bytes at the fusions'
  // boundaries, the traffic the run did), by the core as the unfused one; its measured total is
  // set beside this bound. The unfused bound stays on show, named as such.
  const ft = run?.report.fused ? run.fusedTotals : null;
  let fusedLine = null;
  if (ft) {
    const r = core.roofline({
      roofs: [roofBudgets(roof)],
      flops: new Float64Array(0),
      bytes: new Float64Array(0),
      totals: {
        flops: ft.flops,
        bytes_accessed: ft.bytes_accessed,
        collective_bytes: summary.totals.collective_bytes || 0,
      },
      range: figureRange(rows, summary.totals, drawn, fusions),
      ...(measured ? { measured_seconds: measured.total } : {}),
    });
    if (!r.ok) throw new Error(`the fused roofline of this program: ${r.error}`); // a bug, as above
    fusedLine = r.value;
  }
  yield;
  const others = line.value.roofs.slice(1);
  const roofs = found.map((r) => ({ ...r, line: r === roof ? line.value.roofs[0] : others.shift() }));
  const chosen = roofs.find((r) => r.id === roof.id);
  withBounds(rows, line.value.ops.bounds);
  if (measured) withMeasured(rows, measured.seconds, line.value.measured_ops, measured.views);
  if (ofOp)
    for (const r of rows) {
      r.fusion = Number.isNaN(ofOp[r.index]) ? null : ofOp[r.index];
      if (alsoIn.has(r.index)) r.alsoIn = alsoIn.get(r.index);
    }
  withFusionRoofline(fusions, line.value, n);
  yield;
  return {
    summary,
    roofs,
    roof: chosen,
    rows,
    dtype: { used: dtype, detected: detected.dtype, from: a.dtype ? 'chosen by you' : detected.from },
    bound: chosen.line.time,
    // A fused run's bound from its fused totals (null otherwise): {seconds, compute, memory, …, bytes_accessed}.
    fusedBound: fusedLine ? { ...fusedLine.roofs[0].time, bytes_accessed: ft.bytes_accessed } : null,
    figure: { ...figurePoints(rows, line.value, drawn), fusions: fusionPoints(fusions) },
    ceilings: line.value.ops.ceilings,
    fusions,
    run: run
      ? { ...run, measured: line.value.measured, measuredFused: fusedLine?.measured ?? null, timedOps: measured.timed }
      : null,
  };
}
