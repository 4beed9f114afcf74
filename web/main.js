// Boot: core → state → views. The core's glue is embedded in this bundle (core_source.js).
import { loadCore } from './core.js';
import { coreFactory, workerURL } from './core_source.js';
import { MeasureClient } from './measure_client.js';
import { createState, setInput } from './state.js';
import { renderInputs, renderReport } from './views/lesson_view.js';
import { bindMeasureView, renderMeasurements } from './views/measure_view.js';

async function boot() {
  const status = document.getElementById('status');
  let core;
  try {
    core = await loadCore(coreFactory());
  } catch (e) {
    status.textContent = `The wasm core could not start: ${e.message}. Try a current browser with WebAssembly enabled.`;
    return;
  }
  const form = document.getElementById('inputs');
  let state = createState(core);
  // Measurements live in their own part of the state; the model's numbers never include them.
  let measurements = null;
  const render = () => {
    renderInputs(form, state);
    renderReport(state);
    renderMeasurements(measurements);
  };
  bindMeasureView(new MeasureClient(workerURL), (value) => {
    measurements = value;
    render();
  });
  form.addEventListener('input', (event) => {
    state = setInput(core, state, event.target.name, event.target.value);
    render();
  });
  form.addEventListener('submit', (event) => event.preventDefault());
  document.getElementById('reset').addEventListener('click', () => {
    state = createState(core);
    render();
  });
  render();
  document.querySelector('main').hidden = false;
  status.textContent = 'Core loaded.';
  // A scripting surface for tests and for people at the console.
  globalThis.rooflineLab = {
    report: () => structuredClone(state.report),
    measurements: () => structuredClone(measurements),
    error: () => state.error && { ...state.error },
  };
}

boot();
