// The wasm core as the bundle carries it, once: its glue (build/wasm/roofline-core.js) as text and
// its wasm (roofline-core.wasm) LZMA-packed and base-85 encoded, put in by scripts/bundle.mjs,
// with the Worker's code beside them. The page makes its core from these, and each Worker from a
// blob of the same texts: no second file to fetch, so file:// and the single file work too.
/* global __CORE_GLUE__, __CORE_WASM__, __WORKER_SOURCE__ */
import { wasmFromEmbedded } from './wasm_bytes.js';

// Each is named once here: the bundler writes a defined text at every place it is named.
const GLUE = __CORE_GLUE__;
const WASM = __CORE_WASM__;

/** The createCore factory, evaluated from the embedded glue (CSP: 'unsafe-eval'). */
export function coreFactory() {
  // eslint-disable-next-line no-new-func
  return new Function(`${GLUE}\nreturn createCore;`)();
}

/** The core's wasm bytes, unpacked (once per call: the page calls it once). */
export function coreBytes() {
  return wasmFromEmbedded(WASM);
}

/**
 * A blob: URL of a classic Worker script: the core's glue, the compressed wasm as a global the
 * Worker unpacks (web/worker.js), then the Worker's code.
 */
export function workerURL() {
  const blob = new Blob([GLUE, '\n;\nself.__RL_CORE_WASM__ = "', WASM, '";\n', __WORKER_SOURCE__], {
    type: 'text/javascript',
  });
  return URL.createObjectURL(blob);
}
