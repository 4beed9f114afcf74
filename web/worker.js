// The page's Web Worker: runs the measurements (web/model/measure.js) and the analysis of
// pasted text (core.analyzeTextColumns; the page makes it the object `node scripts/analyze.mjs
// --json` prints) off the main thread, posting progress between steps. The core's glue
// precedes this code in the same blob, so createCore is a global here. The page cancels by
// terminating the Worker.
import { loadCore } from './core.js';
import { assembleMeasurements, measurementSteps } from './model/measure.js';

const corePromise = loadCore(self.createCore);

function measure(core, id, options) {
  const steps = measurementSteps(core, options);
  const values = {};
  for (const [i, step] of steps.entries()) {
    self.postMessage({ id, type: 'progress', done: i, total: steps.length, label: step.label });
    const r = step.run();
    if (!r.ok) {
      self.postMessage({ id, type: 'error', error: `${step.label}: ${r.error}` });
      return;
    }
    values[step.key] = r.value;
  }
  self.postMessage({ id, type: 'progress', done: steps.length, total: steps.length, label: 'done' });
  self.postMessage({ id, type: 'result', value: assembleMeasurements(values) });
}

/**
 * {result, ms}: the core's analysis of the text in its compact form ({ok, value: {json, columns}}
 * or {ok: false, error}), the columns' buffers transferred, not copied. The page makes it the
 * CLI's object (analyze_client.js): a program of a million ops as objects would take the
 * structured clone longer than the analysis (measured: 17 s for 1.6 million rows in Node).
 */
function analyze(core, id, { text }) {
  if (typeof text !== 'string') {
    self.postMessage({ id, type: 'error', error: 'analyze: text must be a string' });
    return;
  }
  self.postMessage({ id, type: 'progress', done: 0, total: 1, label: 'parsing, verifying and costing' });
  const t0 = performance.now();
  const result = core.analyzeTextColumns(text);
  const ms = performance.now() - t0;
  const buffers = [];
  if (result.ok) for (const module of result.value.columns) for (const column of Object.values(module)) buffers.push(column.buffer);
  self.postMessage({ id, type: 'progress', done: 1, total: 1, label: 'done' });
  self.postMessage({ id, type: 'result', value: { result, ms } }, buffers);
}

const HANDLERS = { measure: (core, id, data) => measure(core, id, data.options), analyze };

self.onmessage = async (event) => {
  const { id, type } = event.data;
  const handler = HANDLERS[type];
  if (!handler) {
    self.postMessage({ id, type: 'error', error: `unknown request type ${JSON.stringify(type)}` });
    return;
  }
  let core;
  try {
    core = await corePromise;
  } catch (e) {
    self.postMessage({ id, type: 'error', error: `the wasm core did not start in the Worker: ${e.message}` });
    return;
  }
  handler(core, id, event.data);
};
