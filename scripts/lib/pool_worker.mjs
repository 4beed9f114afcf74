// A worker_threads Worker of the Node CLIs' pool (scripts/lib/node_pool.mjs): its own wasm
// core, loaded from workerData.corePath, serving the same requests as the page's Web Workers.
import { parentPort, workerData } from 'node:worker_threads';
import { serveWorker } from '../../web/worker_host.js';
import { loadNodeCore } from './node-core.mjs';

serveWorker({
  corePromise: loadNodeCore(workerData?.corePath),
  post: (message, transfer = []) => parentPort.postMessage(message, transfer),
  listen: (onMessage) => parentPort.on('message', onMessage),
});
