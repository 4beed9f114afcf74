// The Node CLIs' Worker pool: web/pool.js over worker_threads, each Worker with its own wasm
// instance of dist/roofline-core.js (scripts/lib/pool_worker.mjs), as the page's Web Workers.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { defaultWorkerCount, WorkerPool } from '../../web/pool.js';
import { corePath } from './node-core.mjs';

const WORKER_SCRIPT = new URL('./pool_worker.mjs', import.meta.url);

/** Logical cores of this machine, as Node reports them. */
export function machineCores() {
  return availableParallelism();
}

/**
 * @param {{corePathOf?: (index: number) => string, script?: URL, onSpawn?: (worker: Worker, index: number) => void}} [options]
 *   where Worker i loads the core from (default: dist/roofline-core.js or $ROOFLINE_CORE), its
 *   script, and a hook that sees each worker_threads Worker started (tests watch them exit)
 * @returns {import('../../web/pool.js').Spawn}
 */
export function nodeSpawn({ corePathOf = () => corePath(), script = WORKER_SCRIPT, onSpawn = () => {} } = {}) {
  return (index, events) => {
    const worker = new Worker(script, {
      workerData: { corePath: corePathOf(index) },
      name: `roofline-lab ${index + 1}`,
    });
    onSpawn(worker, index);
    let ended = false;
    worker.on('message', (data) => events.message(data));
    worker.on('error', (e) => events.error(e && e.message ? e.message : String(e)));
    worker.on('exit', (code) => {
      if (!ended) events.error(`it exited with code ${code}`);
    });
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      terminate: () => {
        ended = true;
        worker.terminate();
      },
    };
  };
}

/** A pool of `size` Workers (default: this machine's cores, capped). */
export function createNodePool({ size = defaultWorkerCount(machineCores()), ...spawnOptions } = {}) {
  return new WorkerPool({ size, spawn: nodeSpawn(spawnOptions) });
}
