// Boot: core → state → views. The core's glue is embedded in this bundle (core_source.js).
// Also the scripting surface, window.rooflineLab (documented in web/README.md).
import { loadCore } from './core.js';
import { coreFactory, workerURL } from './core_source.js';
import { createAnalyzeState } from './analyze_state.js';
import { runMeasurements } from './model/measure.js';
import { browserSpawn, defaultWorkerCount, WorkerPool } from './pool.js';
import {
  applyHash, applyPartial, createState, hashOf, publicState, resetInputs, setInput, setMeasurements, setShow,
} from './state.js';
import { bindAnalyzeView } from './views/analyze_view.js';
import { bindClassroomView } from './views/classroom_view.js';
import { bindExerciseView } from './views/exercise_view.js';
import { renderExperiment } from './views/experiment_view.js';
import { bindFigureView, lessonFigureData } from './views/figure_view.js';
import { bindInputs, renderInputs, renderNotices } from './views/inputs_view.js';
import { renderReport } from './views/lesson_view.js';
import { bindMeasureView, renderMeasurements } from './views/measure_view.js';

let state = null;
let figureView = null;
let analyzeView = null;
let analyzeClient = null;
let pool = null;
let readyMs = null;
let resolveReady;
let rejectReady;
const ready = new Promise((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
ready.catch(() => {});  // a failed start is shown on the page; scripts awaiting `ready` still see it

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
  chartSeries: () => (figureView ? figureView.figure.series() : []),
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
   * Section 8's view: {pending, errors: [{line, column, message}], ms (the Worker's time), render_ms (the last redraw), roof: {id, label, kind, peak, bandwidth,
   * interconnect, dtype_used}, dtype, bound, sort, selected, ms}, or null before the page is ready.
   */
  analyzeView: () => {
    if (!state?.analyze) return null;
    const a = state.analyze;
    const v = analyzeView?.view();
    return structuredClone({
      pending: a.pending, errors: a.errors, sort: a.sort, selected: a.selected, ms: a.ms, render_ms: analyzeView?.renderMs() ?? null,
      roof: v ? { id: v.roof.id, label: v.roof.label, kind: v.roof.kind, peak: v.roof.peak, bandwidth: v.roof.bandwidth, interconnect: v.roof.interconnect, dtype_used: v.roof.dtype_used } : null,
      dtype: v ? v.dtype : null, bound: v ? v.bound : null,
    });
  },
  /** Section 8's rows in the table's order: [{index, line, op, shape, flops, …, bound, flopShare, byteShare, top, where}]. */
  analyzeRows: () => analyzeView?.rows() ?? [],
  /** What section 8's chart holds: [{role, label, points: [[x, y], …], indices?}]. */
  analysisSeries: () => (analyzeView ? analyzeView.figure.series() : []),
  /** Where op `index`'s point is on section 8's canvas ({x, y} in CSS pixels), or null (a test hook). */
  analysisPointPixel: (index) => (analyzeView ? analyzeView.figure.pixelOf(index) : null),
  /**
   * Section 9: {settings: {seed, count, families, student}, seed_used, exercises: [{index, family, title,
   * statement}], score: {right, answered, total}}, or null before the page is ready.
   */
  classroom: () => (classroomView ? classroomView.snapshot() : null),
  /** Milliseconds from navigation start until the page was ready. */
  timings: () => ({ readyMs }),
};
globalThis.rooflineLab = api;

let core = null;
let exerciseView = null;
let classroomView = null;

function render() {
  renderInputs(state);
  renderNotices(state);
  renderReport(state);
  renderMeasurements(state.measurements);
  figureView.render(state);
  renderExperiment(state);
  exerciseView.render(state);
  analyzeView.render(state);
}

/**
 * Writes the last valid view into the URL hash (no history entry, no hashchange event), after
 * section 9's set when the link carries one.
 */
function writeHash() {
  const hash = [classroomView?.hashPart() ?? '', hashOf(state)].filter(Boolean).join('&');
  if (!hash || location.hash.slice(1) === hash) return;
  try {
    history.replaceState(null, '', `#${hash}`);
  } catch {
    // Some embedding pages forbid it; the page works without a shareable hash.
  }
}

function update(next) {
  state = next;
  render();
  if (!state.error) writeHash();
}

async function boot() {
  const status = document.getElementById('status');
  try {
    core = await loadCore(coreFactory());
  } catch (e) {
    status.textContent = `The wasm core could not start: ${e.message}. Try a current browser with WebAssembly enabled.`;
    rejectReady(e);
    return;
  }
  state = { ...createState(core), analyze: createAnalyzeState() };
  if (location.hash.length > 1) state = applyHash(core, state, location.hash);

  bindInputs(
    (field, text) => update(setInput(core, state, field, text)),
    () => update(resetInputs(core, state)),
    () => update({ ...state, notices: [] }),
  );
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
    onResult: (value) => update(setMeasurements(core, state, value)),
  });
  figureView = bindFigureView(() => state, (key, on) => update(setShow(state, key, on)));
  exerciseView = bindExerciseView(() => state, core);
  const examples = core.exampleModules();
  const analyses = pool.group();
  analyzeClient = {
    analyze: (text, name) => analyses.run('analyze', { text, name }),
    cancel: () => analyses.cancel(),
  };
  analyzeView = bindAnalyzeView(analyzeClient, examples.ok ? examples.value : [], () => state,
    (analyze) => {
      state = { ...state, analyze };  // only section 8 changes: only it redraws
      analyzeView.render(state);
    });
  classroomView = bindClassroomView(core, { onSettings: () => writeHash() });
  const linkedClassroom = classroomView.applyHash(location.hash);
  window.addEventListener('hashchange', () => {
    // A plain fragment such as #lowered (the skip link, a heading) is in-page navigation, not
    // a view: keep the reader's inputs and put the view's hash back.
    const fragment = location.hash.slice(1);
    if (fragment && !fragment.includes('=') && document.getElementById(fragment)) {
      writeHash();
      return;
    }
    classroomView.applyHash(location.hash);
    update(applyHash(core, resetInputs(core, state), location.hash));
  });

  document.querySelector('main').hidden = false;
  render();
  if (!state.error) writeHash();
  status.textContent = 'Core loaded.';
  if (linkedClassroom) document.getElementById('classroom').scrollIntoView();
  readyMs = performance.now();
  resolveReady(api);
}

boot().catch((e) => {
  // A bug, not bad input: say so on the page rather than leave it half drawn.
  document.getElementById('status').textContent = `The page could not start: ${e.message}`;
  rejectReady(e);
});
