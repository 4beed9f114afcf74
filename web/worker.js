// The page's Web Worker: runs the measurements (web/model/measure.js) off the main thread and
// posts progress between steps. The core's glue precedes this code in the same blob, so
// createCore is a global here. The page cancels by terminating the Worker.
import { loadCore } from './core.js';
import { assembleMeasurements, measurementSteps } from './model/measure.js';

const corePromise = loadCore(self.createCore);

self.onmessage = async (event) => {
  const { id, type, options } = event.data;
  if (type !== 'measure') {
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
};
