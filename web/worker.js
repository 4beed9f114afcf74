// The page's Web Worker, one of web/pool.js's: its own wasm core (the core's glue precedes
// this code in the same blob, so createCore is a global here) serving the pool's requests
// (web/worker_host.js). The page cancels by ending the Worker.
import { loadCore } from './core.js';
import { serveWorker } from './worker_host.js';

serveWorker({
  corePromise: loadCore(self.createCore),
  post: (message, transfer = []) => self.postMessage(message, transfer),
  listen: (onMessage) => {
    self.onmessage = (event) => onMessage(event.data);
  },
});
