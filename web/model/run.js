// One file's run in the core's interpreter, as `node scripts/run.mjs --json` prints it, the
// Worker's 'run' task returns and rooflineLab.run() gives: the core's run report
// (cpp/report/run_report.h) with the file's name first. Pure: no DOM.

/**
 * Seconds a run on the page spends timing ops at most; later ops run untimed (a browser's timer
 * is coarse: each timed op lasts 100 of its ticks, so 10^4 small ops would take minutes).
 */
export const PAGE_TIMING_BUDGET_SECONDS = 15;

/**
 * Seconds a run on the page may last at most (the page's choice, given to the core, which stops
 * the run with an error past it); shown beside the run's progress with the time gone so far.
 */
export const PAGE_TIME_BUDGET_SECONDS = 60;

/**
 * The page's caps on a run's live tensors, in bytes (null, the default: as much as the core's heap
 * can still give, the core's own default, as run.mjs without --memory-cap). index.html's
 * #analyze-memory lists the same values.
 */
export const PAGE_MEMORY_CAPS = [null, 64 * 2 ** 20, 256 * 2 ** 20, 2 ** 30];

/** The page's choices for the arguments of an entry function with arguments (files: .npy files the reader chose). */
export const RUN_INPUTS = ['seeded', 'arange', 'files'];

/**
 * Runs `text` (named `file`) with the core's interpreter, timing each of the entry's own ops and
 * fusions: fused as a compiler would fuse it unless options.fuse is false (op by op), as run.mjs.
 * @param {object} core  web/core.js's core
 * @param {{inputs?: string, args?: {name: string, bytes: Uint8Array}[], seed?: number, time_ops?: boolean,
 *   fuse?: boolean, timing_budget_seconds?: number}} options  passed to core.runText (args: .npy files,
 *   one per argument; fuse: default true, the core's)
 * @param {{npy?: boolean}} how  npy: also return the results as .npy files (`files`, core.runTextNpy)
 * @returns {{ok: true, value: object, files?: object[]} | {ok: false, error: string}}  refused options
 *   fail; a text that does not parse or run is a report with status 'error' or 'not_run'
 */
export function runFile(core, file, text, options = {}, { npy = false } = {}) {
  if (npy) {
    const r = core.runTextNpy(text, { time_ops: true, ...options });
    if (!r.ok) return r;
    return { ok: true, value: { file, ...r.value.report }, files: r.value.files };
  }
  const r = core.runText(text, { time_ops: true, ...options });
  if (!r.ok) return r;
  return { ok: true, value: { file, ...r.value } };
}

/**
 * Lowers JAX-style Python (`core.lower`, cpp/python) and runs the StableHLO it gives, as runFile
 * does; the function's arguments default to arange(size)/size each — the seed's own inputs for
 * its lesson (a = arange(512)/512 as 32×16) — since the module keeps only their shapes — unless
 * options.args gives them (.npy files), one per argument of the Python function: those jit left
 * out of the module (nothing reads them) are not passed.
 * A program that does not lower is a report with status 'error' and the lowering's place.
 * @returns {{ok: true, value: object} | {ok: false, error: string}}
 */
export function runPythonFile(core, file, source, options = {}, entry = undefined, how = {}) {
  const lowered = core.lower(source, { entry });
  if (!lowered.ok) {
    const e = {
      error: lowered.error,
      message: lowered.message ?? lowered.error,
      line: lowered.line ?? 0,
      column: lowered.column ?? 0,
    };
    return { ok: true, value: { ...unreadableReport(file, ''), errors: [e] } };
  }
  // One .npy per argument of the function: the module takes those its kept_args name.
  const kept = lowered.kept_args ?? [];
  const given =
    options.args && options.args.length > kept.length && kept.every((k) => k < options.args.length)
      ? { ...options, args: kept.map((k) => options.args[k]) }
      : options;
  const r = runFile(core, file, lowered.text, given.args ? given : { inputs: 'arange', ...given }, how);
  if (!r.ok) return r;
  return { ...r, value: { ...r.value, lowered_function: lowered.function } };
}

/** The report of a file that could not be read (the CLI's; a run with no text). */
export function unreadableReport(file, why) {
  return {
    file,
    dialect: null,
    status: 'error',
    checks: [],
    ops: [],
    unsupported: [],
    results: [],
    inputs: 'none',
    seconds: 0,
    ops_seconds: 0,
    untimed_ops: 0,
    peak_bytes: 0,
    memory_need_bytes: 0,
    errors: [{ error: `cannot read: ${why}`, message: `cannot read: ${why}`, line: 0, column: 0 }],
  };
}
