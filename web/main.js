// Boot: core → state → views. The core's glue is embedded in this bundle (core_source.js).
// Also the scripting surface, window.rooflineLab (documented in web/README.md).
import { loadCore } from './core.js';
import { coreFactory, workerURL } from './core_source.js';
import { MeasureClient } from './measure_client.js';
import {
  applyHash, applyPartial, createState, hashOf, publicState, resetInputs, setInput, setMeasurements, setShow,
} from './state.js';
import { bindExerciseView } from './views/exercise_view.js';
import { renderExperiment } from './views/experiment_view.js';
import { bindFigureView, lessonFigureData } from './views/figure_view.js';
import { bindInputs, renderInputs, renderNotices } from './views/inputs_view.js';
import { renderReport } from './views/lesson_view.js';
import { bindMeasureView, renderMeasurements } from './views/measure_view.js';

let state = null;
let figureView = null;
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
  error: () => (state?.error ? { ...state.error } : null),
  /** Milliseconds from navigation start until the page was ready. */
  timings: () => ({ readyMs }),
};
globalThis.rooflineLab = api;

let core = null;
let exerciseView = null;

function render() {
  renderInputs(state);
  renderNotices(state);
  renderReport(state);
  renderMeasurements(state.measurements);
  figureView.render(state);
  renderExperiment(state);
  exerciseView.render(state);
}

/** Writes the last valid view into the URL hash (no history entry, no hashchange event). */
function writeHash() {
  const hash = hashOf(state);
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
  state = createState(core);
  if (location.hash.length > 1) state = applyHash(core, state, location.hash);

  bindInputs(
    (field, text) => update(setInput(core, state, field, text)),
    () => update(resetInputs(core, state)),
    () => update({ ...state, notices: [] }),
  );
  bindMeasureView(new MeasureClient(workerURL), (value) => update(setMeasurements(core, state, value)));
  figureView = bindFigureView(() => state, (key, on) => update(setShow(state, key, on)));
  exerciseView = bindExerciseView(() => state);
  window.addEventListener('hashchange', () => update(applyHash(core, resetInputs(core, state), location.hash)));

  document.querySelector('main').hidden = false;
  render();
  if (!state.error) writeHash();
  status.textContent = 'Core loaded.';
  readyMs = performance.now();
  resolveReady(api);
}

boot().catch((e) => {
  // A bug, not bad input: say so on the page rather than leave it half drawn.
  document.getElementById('status').textContent = `The page could not start: ${e.message}`;
  rejectReady(e);
});
