// The page's Web Worker, one of web/pool.js's: its own wasm core (the core's glue and its
// compressed wasm precede this code in the same blob, so createCore and __RL_CORE_WASM__ are
// globals here: web/core_source.js) serving the pool's requests (web/worker_host.js). The page
// cancels by ending the Worker.
import { loadCore } from './core.js';
import { wasmFromEmbedded } from './wasm_bytes.js';
import { serveWorker } from './worker_host.js';

serveWorker({
  corePromise: wasmFromEmbedded(self.__RL_CORE_WASM__).then((wasmBinary) => loadCore(self.createCore, { wasmBinary })),
  post: (message, transfer = []) => self.postMessage(message, transfer),
  listen: (onMessage) => {
    self.onmessage = (event) => onMessage(event.data);
  },
});
