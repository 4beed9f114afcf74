// Boot: core → state → views. roofline-core.js (a classic script) defines createCore.
import { loadCore } from './core.js';
import { createState, setInput } from './state.js';
import { renderInputs, renderReport } from './views/lesson_view.js';

async function boot() {
  const status = document.getElementById('status');
  let core;
  try {
    core = await loadCore(globalThis.createCore);
  } catch (e) {
    status.textContent = `The wasm core could not start: ${e.message}. Try a current browser with WebAssembly enabled.`;
    return;
  }
  const form = document.getElementById('inputs');
  let state = createState(core);
  const render = () => {
    renderInputs(form, state);
    renderReport(state);
  };
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
    error: () => state.error && { ...state.error },
  };
}

boot();
