// The Worker side of web/pool.js, the same in the page's Web Workers (web/worker.js) and in
// Node's worker_threads (scripts/lib/pool_worker.mjs): it says 'ready' (or 'failed') once its
// own wasm core has loaded, then answers requests {id, type, payload} by type. Typed arrays in
// a result are moved back, not copied.
//
// Request types:
//   analyze       {text} → {result, ms}: the analysis of pasted text in the core's compact form
//                 (core.analyzeTextColumns: JSON text and typed arrays, the arrays moved); the
//                 caller makes it {summary, placement, errors, ms} with analysisOfWorker
//   run           {text, name, inputs?, seed?, files?, fuse?, dotEpilogues?, memoryCap?, timingBudget?, timeBudget?} → {report, ms, files, fusedTotals}: the text run in the core's
//                 interpreter, fused unless fuse is false (dotEpilogues false: XLA CPU's rule for a dot's epilogue), each of its entry's ops and fusions timed (web/model/run.js: the object
//                 `node scripts/run.mjs --json` prints for one file); progress: the entry's ops
//                 run so far, of all, as the core tells them (at most every 0.1 s); fusedTotals: a
//                 fused run's {flops, transcendentals, bytes_accessed} by core.fuseText (else null)
//   lesson-checks {} → {ir: core.checkLessonIr's value, kernel_seconds, kernel_variant}: section 2's
//                 check of the lesson's IR beside the kernel's, with both times
//   traffic       {factor, reread} → core.measureTraffic's value: section 6's experiment measured
//   time-kernel   {variant?, m, k, n, samples, minSeconds} → core.timeKernel's value (one core,
//                 timed inside wasm by the core's harness)
//   kernel-rows   {variant?, rows, k, n, a, packed_b} → {c}: rows of tanh(A·B) from a block of A
//                 and the packed B (web/parallel.js splits a product across the pool)
//   work-create   a core.createWork spec → {handle, kind, flops_per_unit, bytes_per_unit, …}
//   work-run      {handle, units} → {checksum}; work-output {handle} → Float32Array;
//   work-release  {handle}: fork–join timing of one or all cores (web/measurements.js)
//   notebook-cell {source, cell, maxSteps?} → core.notebookRunCell's value and kernel: one cell of
//                 the page's Notebook run in this Worker's kernel (made on the first cell, with
//                 maxSteps); kernel names the kernel, so the page sees when a fresh Worker answers
//   notebook-reset {} → {kernel}: the kernel forgets every variable (a fresh one if none yet)
import { expandAnalysisSteps } from './core.js';
import { summarizeFile } from './model/analysis.js';
import { placeOps } from './model/analysis_view.js';
import { runFile } from './model/run.js';
import { runSteps } from './model/steps.js';

/** The value of a core result, or an Error with its message. */
function valueOf(result) {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/**
 * {result, ms}: the core's analysis of the text in its compact form ({ok, value: {json, columns}}
 * or {ok: false, error}), the columns' buffers moved, not copied. The rows become objects on the
 * caller's side, once (analysisOfWorker): a program of a million ops as objects would take the
 * structured clone longer than the analysis (measured: 17 s for 1.6 million rows in Node).
 */
function analyze(core, { text }, ctx) {
  if (typeof text !== 'string') throw new Error('analyze: text must be a string');
  ctx.progress(0, 1, 'parsing, verifying and costing');
  const t0 = performance.now();
  const result = core.analyzeTextColumns(text);
  const ms = performance.now() - t0;
  if (result.ok)
    for (const module of result.value.columns) ctx.transfer(Object.values(module).map((column) => column.buffer));
  ctx.progress(1, 1, 'done');
  return { result, ms };
}

/**
 * {summary, placement, errors, ms} from what 'analyze' answers ({result, ms}): the CLI's object
 * for the text (`node scripts/analyze.mjs --json` prints it), where each op sits, the errors'
 * places, and the Worker's time (parse + verify + lower + cost, in the core).
 * @param {string} name  the file's name, as the summary shows it
 */
export function analysisOfWorker(name, answer) {
  return runSteps(analysisOfWorkerSteps(name, answer));
}

/** analysisOfWorker as steps (web/model/steps.js): the page makes a big analysis's rows across tasks. */
export function* analysisOfWorkerSteps(name, { result, ms }) {
  const analysis = result.ok ? yield* expandAnalysisSteps(result.value) : result;
  const summary = summarizeFile(name, analysis);
  yield;
  const placement = placeOps(analysis);
  return { summary, placement, errors: summary.errorPlaces, ms };
}

/** {report, ms}: the run of the text in this Worker's core (options the core refuses fail the request). */
function run(core, { text, name, inputs, seed, files, timingBudget, timeBudget, fuse, dotEpilogues, memoryCap }, ctx) {
  if (typeof text !== 'string') throw new Error('run: text must be a string');
  const t0 = performance.now();
  // The core tells how many of the entry's ops have run (at most every 0.1 s); each call is
  // posted to the page at once, while the core goes on running.
  const on_progress = (done, total) => ctx.progress(done, total, `${done} of ${total} ops run`);
  // 'files': the reader's .npy files are the arguments (the core checks them against the signature).
  const given = inputs === 'files' ? { args: files ?? [] } : { inputs, seed };
  // Fused as a compiler would fuse it (the core's default, as run.mjs) unless fuse is false: op by op;
  // dotEpilogues false: a dot's epilogue fused only as XLA's CPU backend fuses it.
  const fusion = { dot_epilogues: dotEpilogues !== false };
  const options = {
    ...given,
    on_progress,
    fuse: fuse !== false,
    ...fusion,
    // The page's memory choice in bytes; none: the core's default, what its heap can still give.
    ...(memoryCap != null ? { memory_cap: memoryCap } : {}),
    ...(timingBudget !== undefined ? { timing_budget_seconds: timingBudget } : {}),
    ...(timeBudget !== undefined ? { time_budget_seconds: timeBudget } : {}),
  };
  // The results come back as .npy files too (result_N.npy), for the page to offer as downloads.
  const r = runFile(core, name ?? 'input', text, options, { npy: true });
  const report = valueOf(r);
  // A fused run's program totals as the fusion pass counts them (core.fuseText: the pass the run
  // used, bytes at the fusions' boundaries): the page's lower bound for the run is theirs.
  const fused = report.fused ? core.fuseText(text, fusion) : null;
  const fusedTotals = fused?.ok ? fused.value.fused_totals : null;
  return { report, ms: performance.now() - t0, files: r.files ?? [], fusedTotals };
}

/** Section 2's checks: the lesson's IR through the interpreter, and the kernel's time at the lesson's size. */
function lessonChecks(core, _payload, ctx) {
  ctx.progress(0, 2, "running the lesson's StableHLO in the interpreter");
  const ir = valueOf(core.checkLessonIr());
  ctx.progress(1, 2, 'timing the kernel at 32×16×8');
  const t = valueOf(core.timeKernel(undefined, 32, 16, 8, 5, 0));
  ctx.progress(2, 2, 'done');
  return { ir, kernel_seconds: t.median, kernel_variant: t.variant };
}

/** Section 6's experiment measured: seconds of work, so it runs here, never on the page's thread. */
function traffic(core, { factor, reread }, ctx) {
  ctx.progress(0, 1, 'timing the two workloads at 1× and at the factor');
  const value = valueOf(core.measureTraffic(factor, { reread }));
  ctx.progress(1, 1, 'done');
  return value;
}

function kernelRows(core, { variant, rows, k, n, a, packed_b: packedB }, ctx) {
  const work = valueOf(core.createWork({ kind: 'kernel', variant, rows, k, n, a, packed_b: packedB }));
  try {
    valueOf(core.runWork(work.handle, 1));
    const c = valueOf(core.workOutput(work.handle));
    ctx.transfer([c.buffer]);
    return { c };
  } finally {
    core.releaseWork(work.handle);
  }
}

// This Worker's notebook kernel (the page's Notebook view): {handle, id}, made by the first cell.
let kernel = null;

function kernelOf(core, maxSteps) {
  if (kernel) return kernel;
  const made = valueOf(core.notebookSession(maxSteps === undefined ? {} : { maxSteps }));
  kernel = { handle: made.handle, id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}` };
  return kernel;
}

export const TASKS = {
  analyze,
  run,
  // Section 8's Write: JAX-style Python → StableHLO ({ok, text, function} or {ok: false, line, column, message, …}).
  lower: (core, { source, entry }) =>
    core.lower(String(source ?? ''), { entry: entry == null ? undefined : String(entry) }),
  // rooflineLab.notebook: a Python notebook run on host values ({ok, stdout, error, errorType, line}).
  notebook: (core, { source, filename, maxSteps }) => {
    const r = core.notebook(String(source ?? ''), { filename, maxSteps });
    if (!r.ok) throw new Error(r.error);
    return r;
  },
  'notebook-cell': (core, { source, cell, maxSteps }) => {
    const k = kernelOf(core, maxSteps);
    return { ...valueOf(core.notebookRunCell(k.handle, String(source ?? ''), cell)), kernel: k.id };
  },
  'notebook-reset': (core) => {
    const k = kernelOf(core);
    valueOf(core.notebookReset(k.handle));
    return { kernel: k.id };
  },
  'lesson-checks': lessonChecks,
  traffic,
  'time-kernel': (core, { variant, m, k, n, samples, minSeconds }) =>
    valueOf(core.timeKernel(variant, m, k, n, samples, minSeconds)),
  'kernel-rows': kernelRows,
  'work-create': (core, spec) => valueOf(core.createWork(spec)),
  'work-run': (core, { handle, units }) => valueOf(core.runWork(handle, units)),
  'work-output': (core, { handle }, ctx) => {
    const c = valueOf(core.workOutput(handle));
    ctx.transfer([c.buffer]);
    return c;
  },
  'work-release': (core, { handle }) => valueOf(core.releaseWork(handle)),
};

/** {restart: why} once a trap has stopped the Worker's core (core.js): the pool starts it afresh. */
function restart(core) {
  const why = core.trapped?.();
  return why ? { restart: `its core stopped on an internal error (${why}) and was started afresh` } : {};
}

/**
 * Serves the pool's requests.
 * @param {{corePromise: Promise<object>, post: (message: object, transfer?: Transferable[]) => void,
 *          listen: (onMessage: (data: object) => void) => void}} io
 */
export function serveWorker({ corePromise, post, listen }) {
  corePromise.then(
    () => post({ type: 'ready' }),
    (e) =>
      post({ type: 'failed', error: `the wasm core did not start in the Worker: ${e && e.message ? e.message : e}` }),
  );
  listen(async (message) => {
    const { id, type, payload } = message ?? {};
    const task = Object.hasOwn(TASKS, type) ? TASKS[type] : null;
    if (!task) {
      post({ id, type: 'error', error: `unknown request type ${JSON.stringify(type)}` });
      return;
    }
    let core;
    try {
      core = await corePromise;
    } catch (e) {
      post({ id, type: 'error', error: `the wasm core did not start in the Worker: ${e.message}` });
      return;
    }
    const transfer = [];
    const ctx = {
      progress: (done, total, label) => post({ id, type: 'progress', done, total, label }),
      transfer: (list) => transfer.push(...list),
    };
    let value;
    try {
      value = task(core, payload ?? {}, ctx);
    } catch (e) {
      post({ id, type: 'error', error: e && e.message ? e.message : String(e), ...restart(core) });
      return;
    }
    post({ id, type: 'result', value, ...restart(core) }, transfer);
  });
}
