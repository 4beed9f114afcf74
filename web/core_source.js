// The wasm core's glue (dist/roofline-core.js, wasm embedded) as text, put into the bundle by
// scripts/bundle.mjs, with the Worker's code beside it. The page makes its core from this
// text and its Worker from a blob of both: no second file to fetch, so file:// works too.
/* global __CORE_SOURCE__, __WORKER_SOURCE__ */

/** The createCore factory, evaluated from the embedded text (CSP: 'unsafe-eval'). */
export function coreFactory() {
  // eslint-disable-next-line no-new-func
  return new Function(`${__CORE_SOURCE__}\nreturn createCore;`)();
}

/** A blob: URL of a classic Worker script: the core's glue, then web/worker.js. */
export function workerURL() {
  const blob = new Blob([__CORE_SOURCE__, '\n;\n', __WORKER_SOURCE__], { type: 'text/javascript' });
  return URL.createObjectURL(blob);
}
