// Boot: core → state → views. The core is embedded in this bundle, once (core_source.js).
// Holds the page's one state (web/state.js): every change goes through update(), which redraws
// every view from it and writes its two views outside the page — the URL hash (the lesson's
// inputs and the classroom's set) and localStorage (the classroom's progress).
// Also the scripting surface, window.rooflineLab (documented in web/README.md, typed in
// web/roofline-lab.d.ts).
import { loadCore } from './core.js';
import { coreBytes, coreFactory, workerURL } from './core_source.js';
import { runMeasurements } from './measurements.js';
import { PAGE_TIME_BUDGET_SECONDS, PAGE_TIMING_BUDGET_SECONDS } from './model/run.js';
import { browserSpawn, defaultWorkerCount, WorkerPool } from './pool.js';
import { analysisOfWorkerSteps } from './worker_host.js';
import { sliced } from './model/steps.js';
import {
  applyHash,
  applyLink,
  applyPartial,
  checkExercise,
  createState,
  hashOf,
  publicState,
  resetInputs,
  setInput,
  setMeasurements,
  setShow,
  setTrafficMeasurement,
} from './state.js';
import {
  applyClassroomLink,
  askClassroomReset,
  checkClassroomAnswer,
  classroomHashPart,
  classroomSnapshot,
  dismissClassroomNotices,
  loadProgress,
  nameUnnamedExport,
  resetClassroomSet,
  setClassroomSheet,
  showClassroomHint,
  showClassroomSolution,
  storageResult,
  submitSettings,
} from './classroom_state.js';
import { classroomMoodle } from './classroom_state.js';
import { runHashPart } from './analyze_state.js';
import {
  addGradebookFiles,
  applyGradebookLink,
  clearGradebook,
  closeGradebook,
  gradebookHashPart,
  openGradebook,
  setGradebookSort,
} from './gradebook_state.js';
import { installOffline } from './offline.js';
import { bindGradebookView } from './views/gradebook_view.js';
import { encodeProgress, PROGRESS_KEY } from './model/progress.js';
import { decodeDrafts, draftParts, DRAFTS_KEY, emptyDrafts, encodeDrafts, mergeDrafts } from './model/drafts.js';
import { bindAnalyzeView } from './views/analyze_view.js';
import { bindWriteView } from './views/write_view.js';
import { bindNotebookView } from './views/notebook_view.js';
import {
  adoptNotebookReplaced,
  applyNotebookDraft,
  applyNotebookLink,
  createNotebookState,
  notebookDraft,
  notebookHashPart,
  openNotebook,
} from './notebook_state.js';
import { SEED_MISSING, SEED_NOTEBOOK } from './seed_source.js';
import {
  adoptReplaced,
  applyWriteDraft,
  applyWriteLink,
  createWriteState,
  writeLink,
  writePart,
} from './write_state.js';
import { bindClassroomView } from './views/classroom_view.js';
import { bindExerciseView } from './views/exercise_view.js';
import { bindTrafficMeasureView, renderExperiment, renderTrafficMeasurement } from './views/experiment_view.js';
import { bindFigureView, lessonFigureData } from './views/figure_view.js';
import { bindInputs, renderInputs, renderNotices } from './views/inputs_view.js';
import { renderReport } from './views/lesson_view.js';
import { bindMeasureView, renderMeasurements } from './views/measure_view.js';

let state = null;
let core = null;
let views = null;
let analyzeClient = null;
let pool = null;

/**
 * The Notebook with clockTick measured, the first time it is open: how coarsely the clock its
 * time.perf_counter() reads ticks here (file:// pages often get 100 µs), by the core's rule. At
 * most a quarter second of waiting; a clock coarser than that is left unmeasured (null).
 */
function withClockTick(notebook) {
  if (!notebook.open || notebook.clockTick !== undefined) return notebook;
  const tick = core.timerResolution(() => performance.now() / 1000, 0.25);
  return { ...notebook, clockTick: tick.ok ? tick.value.seconds : null };
}
// Milliseconds from navigation start: the core answered, the lesson was drawn (first render), the
// whole page was ready. The lesson is drawn as soon as the core answers; the rest follows.
const marks = { coreMs: null, firstRenderMs: null, readyMs: null };
let resolveReady;
let rejectReady;
const ready = new Promise((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
ready.catch(() => {}); // a failed start is shown on the page; scripts awaiting `ready` still see it

/** localStorage under `key`, which a browser may refuse (privacy settings, a full quota): never throws. */
const storageFor = (key) => ({
  read() {
    try {
      return { ok: true, text: globalThis.localStorage.getItem(key) };
    } catch (e) {
      return { ok: false, error: e.message };
    }
  },
  /** Writes `text`, or removes the key when text is null. */
  write(text) {
    try {
      if (text === null) globalThis.localStorage.removeItem(key);
      else globalThis.localStorage.setItem(key, text);
      return { ok: true };
    } catch (e) {
      return { ok: false, error: e.message };
    }
  },
});
const storage = storageFor(PROGRESS_KEY);
const draftStorage = storageFor(DRAFTS_KEY);

/** The scripting surface: for tests, automation and teachers' own pages. */
const api = {
  /** Resolves to this object once the core has loaded and the page is drawn; rejects if it cannot start. */
  ready,
  /** The view: the last valid m, k, n, dtype, itemsize, sizes, peak, bandwidth, traffic_factor, the toggles, the error. */
  state: () => (state ? publicState(state) : null),
  /**
   * Changes the view as if typed: {m: 64, dtype: 'bf16', bandwidth: 40, traffic_factor: 2 (or factor),
   * sizes: [8, 16], showMeasuredRoof: true}. Returns {ok, error, state}; a bad value is refused
   * with the page's message and the last valid view stays.
   */
  setState: (partial) => {
    if (!state) return { ok: false, error: 'the page is not ready yet: await rooflineLab.ready', state: null };
    const applied = applyPartial(core, state, partial);
    update(applied.state);
    const unknown = applied.unknown.length ? `unknown keys: ${applied.unknown.join(', ')}` : null;
    const error = state.error?.message ?? unknown;
    return { ok: !error, error, state: publicState(state) };
  },
  /** The figure's data with the lesson's structure {kind, x, xlabel, ylabel, series} (as downloaded). */
  figureData: () => (state ? lessonFigureData(state) : null),
  /** What the Chart.js instance holds: [{role, label, measured, points: [[x, y], …]}] (a test hook). */
  chartSeries: () => (views ? views.figure.figure.series() : []),
  report: () => (state?.report ? structuredClone(state.report) : null),
  measurements: () => (state?.measurements ? structuredClone(state.measurements) : null),
  /** The Worker pool's Workers: [{index, state: 'off'|'starting'|'ready'|'failed', busy, leased, error}] (a test hook). */
  workers: () => (pool ? pool.status() : []),
  error: () => (state?.error ? { ...state.error } : null),
  /**
   * Analyses StableHLO or HLO text in the Worker, without changing the page. Resolves to the
   * object `node scripts/analyze.mjs --json` prints for one file holding `text`, its `file`
   * being `name`; rejects if the Worker fails.
   */
  analyze: (text, name = 'input') => {
    if (!analyzeClient) return Promise.reject(new Error('the page is not ready yet: await rooflineLab.ready'));
    return analyzeClient.analyze(String(text), String(name)).then((v) => v.summary);
  },
  /** The analysis section 8 shows (the same object as analyze() gave for its text), or null. */
  analysis: () => (state?.analyze?.shown ? structuredClone(state.analyze.shown.summary) : null),
  /**
   * Section 8's view: {pending (also while a big program's figure and table are still being drawn), errors: [{line, column, message}], ms (the Worker's time), render_ms (the last redraw), roof: {id, label, kind, peak, bandwidth,
   * interconnect, dtype_used}, dtype, bound, sort, selected, selected_fusion (a run's fusion, its position in report.fusions), ms}, or null before the page is ready.
   */
  analyzeView: () => {
    if (!state?.analyze) return null;
    const a = state.analyze;
    const v = views?.analyze.view();
    return structuredClone({
      pending: a.pending ?? (views?.analyze.drawing() ? 'drawing the results' : null),
      errors: a.errors,
      sort: a.sort,
      selected: a.selected,
      selected_fusion: a.selectedFusion ?? null,
      ms: a.ms,
      render_ms: views?.analyze.renderMs() ?? null,
      roof: v
        ? {
            id: v.roof.id,
            label: v.roof.label,
            kind: v.roof.kind,
            peak: v.roof.peak,
            bandwidth: v.roof.bandwidth,
            interconnect: v.roof.interconnect,
            dtype_used: v.roof.dtype_used,
          }
        : null,
      dtype: v ? v.dtype : null,
      bound: v ? v.bound : null,
    });
  },
  /**
   * Lowers JAX-style Python (source) to the StableHLO `jax.jit(f).lower(...).as_text()` prints, as
   * `node scripts/lower.mjs` does: {ok: true, text, function} or {ok: false, error: 'LINE:COL:
   * message', line, column, message}. options: {entry: the function to lower}.
   */
  lower: (source, options = {}) => {
    if (!core) return { ok: false, error: 'the page is not ready yet: await rooflineLab.ready' };
    return core.lower(String(source), { entry: options?.entry == null ? undefined : String(options.entry) });
  },
  /**
   * Runs a Python notebook (source) in a Worker, as `node scripts/notebook.mjs` does, without
   * changing the page: resolves to {stdout, error} (error: Python's traceback of the uncaught
   * exception, '' when the program ran to the end; also errorType and line). options: {filename,
   * maxSteps}. Rejects when the core refuses the options or the Worker fails.
   */
  notebook: (source, options = {}) => {
    if (!analyzeClient) return Promise.reject(new Error('the page is not ready yet: await rooflineLab.ready'));
    const { filename, maxSteps } = options ?? {};
    return analyzeClient
      .notebook(String(source), { filename: filename == null ? undefined : String(filename), maxSteps })
      .then((r) => ({ stdout: r.stdout, error: r.error, errorType: r.errorType, line: r.line }));
  },
  /**
   * Runs StableHLO text in the core's interpreter in a Worker, without changing the page: resolves
   * to the object `node scripts/run.mjs --json` prints for one file holding `text` (its `file`
   * being `name`); options {inputs: 'none'|'seeded'|'arange', seed, name, fuse (default true: fused
   * as run.mjs runs; false: op by op, as --no-fuse)}. Rejects when the core refuses the options or the Worker fails.
   */
  run: (text, options = {}) => {
    if (!analyzeClient) return Promise.reject(new Error('the page is not ready yet: await rooflineLab.ready'));
    const { inputs, seed, name = 'input', fuse } = options ?? {};
    return analyzeClient.scriptedRun(String(text), { inputs, seed, name: String(name), fuse }).then((v) => v.report);
  },
  /** What section 8's run shows: its state, the checks' verdicts, what did not run, the measured total and rows. */
  runView: () => (views ? views.analyze.runView() : null),
  /**
   * Section 8's Write tab: {mode: 'paste' | 'write', source, example, pending, function, stablehlo
   * (the last module that lowered), error: {line, column, message, text: 'program.py:L:C: message'}
   * | null, marks: the errors the editor marks [{line, column, to_column, message}], link_error,
   * link_note, stablehlo_line: the StableHLO line selected}, or null before the page is ready.
   */
  writeView: () => (views?.write ? views.write.view() : null),
  /** Section 8's rows in the table's order: [{index, line, op, shape, flops, …, bound, flopShare, byteShare, top, where}]. */
  analyzeRows: () => views?.analyze.rows() ?? [],
  /** What section 8's chart holds: [{role, label, points: [[x, y], …], indices?, fusions?}]. */
  analysisSeries: () => (views ? views.analyze.figure.series() : []),
  /** Where op `index`'s point is on section 8's canvas ({x, y} in CSS pixels), or null (a test hook). */
  analysisPointPixel: (index) => (views ? views.analyze.figure.pixelOf(index) : null),
  /** Where a run's fusion `j` (its position in the report's fusions) is on section 8's canvas: its estimate, or with measured its measurement; or null (a test hook). */
  analysisFusionPixel: (j, measured = false) =>
    views ? views.analyze.figure.pixelOfFusion(j, Boolean(measured)) : null,
  /**
   * Section 9: {settings: {seed, count, families, student}, seed_used, exercises: [{index, family, title,
   * statement}], score: {right, answered, total}}, or null before the page is ready.
   */
  classroom: () => (state ? classroomSnapshot(state.classroom) : null),
  /**
   * The teacher's gradebook for result files ([{name, text}]), graded against `set` ({seed, count,
   * families?}) or the set most files belong to: the class table the page shows and
   * `node scripts/exercises.mjs --grade FILE… --json` prints. Does not change the page; a bad
   * argument throws with the core's message.
   */
  gradebook: (files, set) => {
    if (!core) throw new Error('the page is not ready yet: await rooflineLab.ready');
    const r = core.gradebook(files, set);
    if (!r.ok) throw new TypeError(r.error);
    return r.value;
  },
  /** Section 2's check of the lesson's IR beside the kernel's, with both times (null until the Worker answers). */
  lessonChecks: () => (state?.lessonChecks?.value ? structuredClone(state.lessonChecks.value) : null),
  trafficMeasurement: () => (state?.trafficMeasurement ? structuredClone(state.trafficMeasurement) : null),
  /**
   * Milliseconds from navigation start: {coreMs} the wasm core loaded, {firstRenderMs} the lesson
   * (inputs, sections 1–3, 6 and 7) drawn, {readyMs} every section drawn and wired; null until then.
   */
  timings: () => ({ ...marks }),
  /** Calls made into the wasm module so far, on the page's main thread: {total, by: {name: count}}. */
  coreCalls: () => (core ? core.embindCalls() : null),
};
globalThis.rooflineLab = api;

/** The lesson's text: what the page draws first, before the figure and sections 4, 8 and 9 exist. */
function renderLesson() {
  renderInputs(state);
  renderNotices(state);
  renderReport(state);
  renderExperiment(state);
  views?.exercise.render(state);
}

function render() {
  renderLesson();
  if (!views?.figure) return; // the rest is not drawn yet: boot draws it once wired
  renderMeasurements(state.measurements);
  renderTrafficMeasurement(state);
  views.figure.render(state);
  views.analyze.render(state);
  views.write.render(state);
  views.classroom.render(state);
  views.gradebook.render(state);
  views.notebook.render(state);
}

/** The hash the page last read or wrote; any other hash is a link whose hashchange is still to come. */
let knownHash = '';

/**
 * Writes the last valid view into the URL hash (no history entry, no hashchange event), after
 * section 9's set when the link carries one. A hash changed by the reader (a pasted link) is left
 * alone until its hashchange has applied it: an update landing in between (a Worker's result)
 * must not put the old view back over the link.
 */
function writeHash() {
  if (location.hash !== knownHash) return;
  const hash = [
    notebookHashPart(state.notebook),
    gradebookHashPart(state.gradebook) || classroomHashPart(state.classroom),
    writeLink(state.write).part,
    hashOf(state),
  ]
    .filter(Boolean)
    .join('&');
  if (!hash || location.hash.slice(1) === hash) return;
  try {
    history.replaceState(null, '', `#${hash}`);
    knownHash = location.hash;
  } catch {
    // Some embedding pages forbid it; the page works without a shareable hash.
  }
}

let savedProgress = null; // the progress object last written to localStorage (or read from it)

/** localStorage as a view of state.classroom.progress: written when it changes. */
function writeProgress() {
  if (state.classroom.progress === savedProgress) return;
  savedProgress = state.classroom.progress;
  const classroom = storageResult(state.classroom, storage.write(encodeProgress(savedProgress)));
  if (classroom !== state.classroom) state = { ...state, classroom };
}

/** The reader's code this tab would keep (web/model/drafts.js's parts). */
const draftsOf = (s) => ({ write: writePart(s.write), notebook: notebookDraft(s.notebook) });
let savedParts = { write: 'null', notebook: 'null' }; // each part as this tab's state last gave it
let writtenParts = null; // each part as this tab last wrote it (null: not yet): another tab's writes differ

/** What the page says when the reader's code cannot be kept (shown in the Write tab and the Notebook). */
const draftsUnsaved = (why) =>
  `Your code cannot be kept in this browser (${why}): it is lost on reload. Copy it somewhere to keep it.`;

/**
 * localStorage as a view of the reader's code (the Write tab's, the Notebook's): the parts this
 * tab changed are written into what storage holds now, so another tab's parts stay; what another
 * tab kept in a part this tab changes becomes this tab's Undo too (web/model/drafts.js).
 */
function writeDrafts() {
  const mine = draftsOf(state);
  const parts = draftParts(mine);
  const changed = new Set(Object.keys(parts).filter((k) => parts[k] !== savedParts[k]));
  if (changed.size === 0) return;
  const stored = draftStorage.read();
  const merged = mergeDrafts(stored.ok ? decodeDrafts(stored.text).drafts : emptyDrafts(), mine, changed, writtenParts);
  const after = draftParts(merged);
  if (merged.write && after.write !== parts.write)
    state = { ...state, write: adoptReplaced(state.write, merged.write.replaced) };
  if (merged.notebook && after.notebook !== parts.notebook)
    state = { ...state, notebook: adoptNotebookReplaced(state.notebook, merged.notebook.replaced) };
  const encoded = encodeDrafts(merged);
  const result = encoded.ok ? draftStorage.write(encoded.text) : encoded;
  // Saved: these parts are this tab's now. Not saved: tried again at the next change.
  if (result.ok) {
    savedParts = draftParts(draftsOf(state));
    writtenParts = after;
  }
  const notice = result.ok ? null : draftsUnsaved(result.error);
  if (notice !== state.drafts.notice) state = { ...state, drafts: { notice } };
}

/** The one way the state changes: then every view redraws and the hash and storage follow. */
function update(next) {
  state = next;
  writeProgress();
  writeDrafts();
  render();
  if (!state.error) writeHash();
}

/** A change to section 9 only. */
const classroom = (change) => update({ ...state, classroom: change(state.classroom) });

async function boot() {
  const status = document.getElementById('status');
  try {
    core = await loadCore(coreFactory(), { wasmBinary: await coreBytes() });
    marks.coreMs = performance.now();
  } catch (e) {
    status.textContent = `The wasm core could not start: ${e.message}. Try a current browser with WebAssembly enabled.`;
    rejectReady(e);
    return;
  }
  state = createState(core);
  state = { ...state, classroom: loadProgress(state.classroom, storage.read()) };
  savedProgress = state.classroom.progress;
  knownHash = location.hash;
  if (location.hash.length > 1) state = applyHash(core, state, location.hash);
  state = { ...state, classroom: applyClassroomLink(core, state.classroom, location.hash) };
  state = {
    ...state,
    gradebook: applyGradebookLink(
      core,
      state.gradebook,
      location.hash,
      state.classroom.settings,
      state.classroom.notices.link,
    ),
  };
  // The reader's code kept from the last visit, then the link's (which may replace it, with an Undo).
  const kept = draftStorage.read();
  const drafts = kept.ok ? decodeDrafts(kept.text) : { drafts: emptyDrafts(), notice: draftsUnsaved(kept.error) };
  state = {
    ...state,
    write: applyWriteLink(applyWriteDraft(createWriteState(), drafts.drafts.write), location.hash),
    notebook: withClockTick(
      applyNotebookLink(
        applyNotebookDraft(createNotebookState(seedCells(core), SEED_MISSING), drafts.drafts.notebook),
        location.hash,
      ),
    ),
    drafts: { notice: drafts.notice },
  };
  savedParts = draftParts(draftsOf(state));
  writtenParts = kept.ok ? draftParts(drafts.drafts) : null;
  const linkedClassroom = state.classroom.inLink;

  bindInputs(
    (field, text) => update(setInput(core, state, field, text)),
    () => update(resetInputs(core, state)),
    () => update({ ...state, notices: [] }),
  );
  // First render: the lesson's text as soon as the core has answered (one core call, made in
  // createState above), and section 7 with it. The figure (Chart.js), the Worker pool, sections 4,
  // 8 and 9 and the gradebook are wired after the browser has had a chance to paint it.
  views = { exercise: bindExerciseView((answers) => update(checkExercise(core, state, answers))) };
  document.querySelector('main').hidden = false;
  renderLesson();
  status.textContent = 'Core loaded; drawing the figure and the other sections…';
  marks.firstRenderMs = performance.now();
  await nextPaint();

  // One pool of Workers for the page: the measurements and the analyses each cancel their own.
  const hardwareCores = Number.isInteger(navigator.hardwareConcurrency) ? navigator.hardwareConcurrency : null;
  const defaultWorkers = defaultWorkerCount(hardwareCores);
  pool = new WorkerPool({ size: defaultWorkers, spawn: browserSpawn(workerURL) });
  const measuring = pool.group();
  bindMeasureView({
    defaultWorkers,
    hardwareCores,
    run: ({ samples, workers }, onProgress) => {
      if (workers > pool.size) pool.resize(workers);
      return runMeasurements(core, measuring, { samples, workers, hardwareCores }, onProgress);
    },
    cancel: () => measuring.cancel(),
    // The harness's rule for a sample count, asked of the core (a sampler made and dropped).
    checkSamples: (n) => core.samplerStart(1e-3, 0, n),
    onResult: (value) => update(setMeasurements(core, state, value)),
  });
  const trafficRuns = pool.group();
  bindTrafficMeasureView({
    run: (factor, reread) => trafficRuns.run('traffic', { factor, reread }),
    cancel: () => trafficRuns.cancel(),
    factor: () => state.figure?.factor ?? null,
    onResult: (value) => update(setTrafficMeasurement(state, value)),
  });
  const examples = core.exampleModules();
  const analyses = pool.group();
  const runs = pool.group();
  const scripted = pool.group(); // rooflineLab.run: the page's Cancel does not touch it
  analyzeClient = {
    // The rows become objects across tasks (a 5 MB module has ~100,000): no long main-thread task.
    analyze: (text, name) =>
      analyses
        .run('analyze', { text })
        .then(
          (value) =>
            new Promise((resolve, reject) => sliced(analysisOfWorkerSteps(name, value), () => true, resolve, reject)),
        ),
    cancel: () => analyses.cancel(),
    run: (text, name, { inputs, seed, files, fuse, dotEpilogues, memoryCap }, onProgress) =>
      runs.run(
        'run',
        {
          text,
          name,
          inputs,
          seed,
          files,
          fuse,
          dotEpilogues,
          memoryCap,
          timingBudget: PAGE_TIMING_BUDGET_SECONDS,
          timeBudget: PAGE_TIME_BUDGET_SECONDS,
        },
        { onProgress },
      ),
    cancelRun: () => runs.cancel(),
    scriptedRun: (text, options) => scripted.run('run', { text, ...options }),
    notebook: (source, options) => scripted.run('notebook', { source, ...options }),
  };
  const lowerings = pool.group(); // section 8's Write: JAX-style Python → StableHLO, as you type
  // The Notebook's kernel lives in a Worker of its own (its wasm instance holds the variables):
  // Stop ends that Worker, and the next run starts a fresh one, without touching the page's pool.
  const notebookPool = new WorkerPool({ size: 1, spawn: browserSpawn(workerURL) });
  const notebookRuns = notebookPool.group();
  const setNotebook = (notebook) => {
    state = { ...state, notebook: withClockTick(notebook) }; // only the Notebook and the link change
    writeDrafts();
    views.notebook.render(state);
    if (!state.error) writeHash();
  };
  const now = () => new Date().toISOString();
  views = {
    ...views,
    figure: bindFigureView(
      () => state,
      (key, on) => update(setShow(state, key, on)),
    ),
    analyze: bindAnalyzeView(
      analyzeClient,
      examples.ok ? examples.value : [],
      () => state,
      (analyze) => {
        const linkChanged = runHashPart(analyze) !== runHashPart(state.analyze); // #fuse=… follows the choice
        state = { ...state, analyze }; // only section 8 changes: only it redraws
        views.analyze.render(state);
        if (linkChanged && !state.error) writeHash();
      },
      core,
      { onSelectLine: (line, column, name) => views.write.selectLine(line, column, name) },
    ),
    write: bindWriteView(
      { lower: (source) => lowerings.run('lower', { source }) },
      () => state,
      (write) => {
        state = { ...state, write }; // only the Write tab and the link change
        writeDrafts();
        views.write.render(state);
        if (!state.error) writeHash();
      },
      (text, name) => views.analyze.analyzeProgram(text, name),
    ),
    classroom: bindClassroomView(
      {
        apply: (form) => classroom((c) => submitSettings(core, c, form)),
        check: (index, questionId, text) =>
          classroom((c) => checkClassroomAnswer(core, c, index, questionId, text, now())),
        hint: (index, questionId) => classroom((c) => showClassroomHint(c, index, questionId, now())),
        solution: (index) => classroom((c) => showClassroomSolution(c, index, now())),
        askReset: (on) => classroom((c) => askClassroomReset(c, on)),
        reset: () => classroom((c) => resetClassroomSet(c)),
        sheet: (on) => classroom((c) => setClassroomSheet(c, on)),
        dismiss: () => classroom((c) => dismissClassroomNotices(c)),
        moodle: () => classroomMoodle(core, state.classroom),
        unnamed: (id) => classroom((c) => nameUnnamedExport(c, id)),
        gradebook: () =>
          update({
            ...state,
            gradebook: openGradebook(core, state.gradebook, { ...state.classroom.settings, student: '' }),
          }),
      },
      () => state,
    ),
    notebook: bindNotebookView(
      {
        runCell: (source, cell) => notebookRuns.run('notebook-cell', { source, cell }),
        reset: () => notebookRuns.run('notebook-reset', {}),
        stop: () => notebookRuns.cancel(),
      },
      () => state,
      setNotebook,
    ),
    gradebook: bindGradebookView(
      {
        add: (files) => update({ ...state, gradebook: addGradebookFiles(core, state.gradebook, files) }),
        clear: () => update({ ...state, gradebook: clearGradebook(state.gradebook) }),
        close: () => update({ ...state, gradebook: closeGradebook(state.gradebook) }),
        sort: (key) => update({ ...state, gradebook: setGradebookSort(state.gradebook, key) }),
      },
      () => state,
    ),
  };
  document.getElementById('open-notebook').addEventListener('click', () => setNotebook(openNotebook(state.notebook)));
  window.addEventListener('hashchange', () => {
    knownHash = location.hash;
    // A plain fragment such as #lowered (the skip link, a heading) is in-page navigation, not
    // a view: keep the reader's inputs and put the view's hash back.
    const fragment = location.hash.slice(1);
    if (fragment && !fragment.includes('=') && document.getElementById(fragment)) {
      writeHash();
      return;
    }
    // A link: the seed's view with the link's values (one rebuild), and its classroom set.
    const linked = applyLink(core, state, location.hash);
    const classroomLinked = applyClassroomLink(core, state.classroom, location.hash);
    update({
      ...linked,
      classroom: classroomLinked,
      write: applyWriteLink(state.write, location.hash),
      notebook: applyNotebookLink(state.notebook, location.hash),
      gradebook: applyGradebookLink(
        core,
        state.gradebook,
        location.hash,
        classroomLinked.settings,
        classroomLinked.notices.link,
      ),
    });
  });

  render();
  if (!state.error) writeHash();
  status.textContent = 'Core loaded.';
  if (linkedClassroom && !state.gradebook.open) document.getElementById('classroom').scrollIntoView();
  installOffline((use) => {
    const notice = document.getElementById('update-notice');
    notice.hidden = false;
    document.getElementById('update-reload').onclick = use;
  });
  marks.readyMs = performance.now();
  resolveReady(api);
  // Section 2: the lesson's StableHLO through the interpreter, beside the kernel's check (in a Worker).
  pool.run('lesson-checks', {}).then(
    (value) => update({ ...state, lessonChecks: { value, error: null } }),
    (e) => update({ ...state, lessonChecks: { value: null, error: e.message } }),
  );
}

/** The seed's code as cells (core.notebookCells), or null when the page was built without it. */
function seedCells(c) {
  if (typeof SEED_NOTEBOOK !== 'string') return null;
  const r = c.notebookCells(SEED_NOTEBOOK);
  return r.ok ? r.value : null;
}

/** Resolves after the browser's next paint (or 100 ms, where a hidden page paints nothing). */
function nextPaint() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

boot().catch((e) => {
  // A bug, not bad input: say so on the page rather than leave it half drawn.
  document.getElementById('status').textContent = `The page could not start: ${e.message}`;
  rejectReady(e);
});
