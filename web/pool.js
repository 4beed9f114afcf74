// One pool of Workers for the page and, through scripts/lib/node_pool.mjs, for the Node CLIs:
// N Workers, each with its own wasm instance, serving requests of any type (the measurements,
// the analyses, later the interpreter's runs). Plain JS, no DOM: the page's Web Workers and
// Node's worker_threads differ only in `spawn`.
//
//   const pool = new WorkerPool({size: 4, spawn});
//   const jobs = pool.group();                     // requests that are cancelled together
//   const value = await jobs.run('analyze', {text}, {onProgress, transfer: []});
//   const lease = await jobs.lease(4);             // four Workers, held until released:
//   await lease.all('work-run', (i) => ({...}));   //   one request on each, all at once
//   lease.release();
//   jobs.cancel();                                 // ends the Workers running this group's
//                                                  // requests; the others carry on
//
// Protocol (web/worker_host.js is the other side):
//   pool → Worker  {id, type, payload}                 (payload's buffers moved, not copied)
//   Worker → pool  {type: 'ready'} | {type: 'failed', error}   once, when its core has loaded
//                  {id, type: 'progress', done, total, label}
//                  {id, type: 'result', value} | {id, type: 'error', error}
//                  (either with restart: why, once a trap stopped its core: the pool ends it)
// No SharedArrayBuffer anywhere, so it works from file:// and the single-file page.
//
// Workers start when first needed. One that fails to start is left out with its reason (a
// request that needs more Workers than can start is refused, naming them); the others serve.

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/** A Worker that did not start, or a request that needs more Workers than could start. */
export class WorkerStartError extends Error {
  constructor(message) {
    super(message);
    this.name = 'WorkerStartError';
  }
}

/** The most Workers the page starts unless told otherwise; hardwareConcurrency can be 64+. */
export const DEFAULT_MAX_WORKERS = 16;
/** The most Workers anyone may ask for. */
export const MAX_WORKERS = 64;

/** The Worker count for `cores` logical cores (navigator.hardwareConcurrency, os.availableParallelism()). */
export function defaultWorkerCount(cores, cap = DEFAULT_MAX_WORKERS) {
  const n = Number.isInteger(cores) && cores > 0 ? cores : 1;
  return Math.max(1, Math.min(n, cap));
}

/** Refuses a Worker count by name, as the rest of the page refuses input. */
export function checkWorkerCount(workers, name = 'workers') {
  if (!(Number.isInteger(workers) && workers >= 1 && workers <= MAX_WORKERS)) {
    return { ok: false, error: `${name} must be an integer from 1 to ${MAX_WORKERS}, got ${workers}` };
  }
  return { ok: true, value: workers };
}

/**
 * @typedef {{post: (message: object, transfer: Transferable[]) => void, terminate: () => void}} Endpoint
 * @typedef {{message: (data: object) => void, error: (message: string) => void}} EndpointEvents
 * @typedef {(index: number, events: EndpointEvents) => Endpoint} Spawn
 *   Starts Worker `index`; calls events.message for each message it posts and events.error when
 *   it fails (an uncaught error, a script that does not load, an unexpected exit).
 * @typedef {{onProgress?: (done: number, total: number, label: string) => void, transfer?: Transferable[]}} RunOptions
 */

export class WorkerPool {
  /**
   * @param {{size: number, spawn: Spawn, startTimeoutMs?: number}} options
   */
  constructor({ size, spawn, startTimeoutMs = 60000 }) {
    const checked = checkWorkerCount(size, 'size');
    if (!checked.ok) throw new RangeError(checked.error);
    this.spawn = spawn;
    this.startTimeoutMs = startTimeoutMs;
    this.slots = [];
    this.queue = [];
    this.nextId = 1;
    this.resize(size);
    this.defaultGroup = this.group();
  }

  /** How many Workers the pool holds (started or not). */
  get size() {
    return this.slots.length;
  }

  /** Changes the number of Workers; Workers beyond it end once they are idle. */
  resize(size) {
    const checked = checkWorkerCount(size, 'size');
    if (!checked.ok) throw new RangeError(checked.error);
    while (this.slots.length < size) this.slots.push(newSlot(this.slots.length));
    for (const slot of this.slots.slice(size)) slot.retire = true;
    this.targetSize = size;
    this.retireIdle();
    this.pump();
  }

  /** Each Worker's state: 'off' (not started), 'starting', 'ready' or 'failed' (with its error). */
  status() {
    return this.slots.map((s) => ({
      index: s.index,
      state: s.state,
      busy: s.tasks.size > 0,
      leased: Boolean(s.lease),
      error: s.error,
    }));
  }

  /** The Workers that did not start: [{index, error}]. */
  failures() {
    return this.slots.filter((s) => s.state === 'failed').map((s) => ({ index: s.index, error: s.error }));
  }

  /** A set of requests cancelled together. */
  group() {
    return new RequestGroup(this);
  }

  /** A request on any free Worker, in the pool's default group. */
  run(type, payload, options) {
    return this.defaultGroup.run(type, payload, options);
  }

  /** Ends every Worker; pending requests are cancelled. The pool starts afresh on the next request. */
  terminate() {
    for (const r of this.queue.splice(0)) r.reject(new CancelledError());
    for (const slot of this.slots) this.stopSlot(slot, new CancelledError(), 'off');
  }

  // ---- internals ------------------------------------------------------------------------

  enqueue(request) {
    this.queue.push(request);
    this.pump();
  }

  /** Serves the queue in order: a request waits until the ones before it have their Workers. */
  pump() {
    while (this.queue.length) {
      const head = this.queue[0];
      const wanted = head.kind === 'lease' ? head.count : 1;
      const live = this.slots.filter((s) => !s.retire && s.state !== 'failed');
      if (live.length < wanted) {
        this.queue.shift();
        head.reject(new WorkerStartError(this.startFailureMessage(wanted, live.length)));
        continue;
      }
      const free = live.filter((s) => s.state === 'ready' && s.tasks.size === 0 && !s.lease);
      if (free.length < wanted) {
        // Start as many more as the request lacks (they answer 'ready' or 'failed' later).
        const starting = live.filter((s) => s.state === 'starting').length;
        let lacking = wanted - free.length - starting;
        for (const s of live) {
          if (lacking <= 0) break;
          if (s.state === 'off') {
            this.startSlot(s);
            lacking--;
          }
        }
        return;
      }
      this.queue.shift();
      if (head.kind === 'lease') {
        const lease = new Lease(this, head.group, free.slice(0, wanted));
        head.group.leases.add(lease);
        head.resolve(lease);
      } else {
        this.dispatch(free[0], head);
      }
    }
  }

  startFailureMessage(wanted, live) {
    const reasons = this.failures()
      .map((f) => f.error)
      .join('; ');
    const need = wanted === 1 ? 'a Worker' : `${wanted} Workers`;
    return `this needs ${need} and only ${live} of ${this.targetSize} can start: ${reasons || 'the pool is smaller'}`;
  }

  startSlot(slot) {
    slot.state = 'starting';
    slot.error = null;
    const generation = ++slot.generation;
    const current = () => slot.generation === generation;
    const events = {
      message: (data) => {
        if (current()) this.receive(slot, data);
      },
      error: (message) => {
        if (current()) this.slotError(slot, message);
      },
    };
    try {
      slot.endpoint = this.spawn(slot.index, events);
    } catch (e) {
      this.startFailed(slot, e && e.message ? e.message : String(e));
      return;
    }
    slot.timer = setTimeout(() => {
      if (current() && slot.state === 'starting') {
        this.startFailed(slot, `no answer within ${Math.round(this.startTimeoutMs / 1000)} s`);
      }
    }, this.startTimeoutMs);
  }

  startFailed(slot, reason) {
    const error = `Worker ${slot.index + 1} did not start: ${reason}`;
    this.stopSlot(slot, new WorkerStartError(error), 'failed');
    slot.error = error;
    this.pump();
  }

  slotError(slot, message) {
    if (slot.state === 'starting') {
      this.startFailed(slot, message || 'its script failed');
      return;
    }
    const error = new Error(`Worker ${slot.index + 1} failed: ${message || 'unknown error'}`);
    this.stopSlot(slot, error, 'off');
    this.pump();
  }

  /** Ends a slot's Worker; its requests (and its lease's next ones) fail with `error`. */
  stopSlot(slot, error, state) {
    clearTimeout(slot.timer);
    slot.generation++;
    try {
      slot.endpoint?.terminate();
    } catch {
      // already gone
    }
    slot.endpoint = null;
    slot.state = state;
    const tasks = [...slot.tasks.values()];
    slot.tasks.clear();
    for (const t of tasks) t.reject(error);
    if (slot.lease) slot.lease.broken ??= error;
  }

  receive(slot, data) {
    if (!data || typeof data !== 'object') return;
    if (data.type === 'ready' && slot.state === 'starting') {
      clearTimeout(slot.timer);
      slot.state = 'ready';
      this.pump();
      return;
    }
    if (data.type === 'failed' && slot.state === 'starting') {
      this.startFailed(slot, data.error);
      return;
    }
    const task = slot.tasks.get(data.id);
    if (!task) return;
    if (data.type === 'progress') {
      task.onProgress?.(data.done, data.total, data.label);
      return;
    }
    slot.tasks.delete(data.id);
    if (data.type === 'result') task.resolve(data.value);
    else task.reject(new Error(data.error));
    if (data.restart) {
      // Its core trapped (core.js): the Worker is ended, its memory with it, and the next request
      // starts a fresh one; its other requests fail saying why.
      this.stopSlot(slot, new Error(`Worker ${slot.index + 1} was restarted: ${data.restart}`), 'off');
      this.pump();
      return;
    }
    if (slot.tasks.size === 0) {
      this.retireIdle();
      this.pump();
    }
  }

  dispatch(slot, request) {
    const id = this.nextId++;
    slot.tasks.set(id, request);
    request.slot = slot;
    try {
      slot.endpoint.post({ id, type: request.type, payload: request.payload }, request.transfer ?? []);
    } catch (e) {
      slot.tasks.delete(id);
      request.reject(new Error(`could not send ${request.type} to Worker ${slot.index + 1}: ${e.message}`));
    }
  }

  retireIdle() {
    for (const slot of [...this.slots]) {
      if (slot.retire && slot.tasks.size === 0 && !slot.lease) {
        this.stopSlot(slot, new CancelledError(), 'off');
        this.slots.splice(this.slots.indexOf(slot), 1);
      }
    }
  }
}

function newSlot(index) {
  return {
    index,
    state: 'off',
    endpoint: null,
    tasks: new Map(),
    lease: null,
    error: null,
    generation: 0,
    timer: null,
    retire: false,
  };
}

/** Requests cancelled together: one part of the page (the measurements, the analyses). */
export class RequestGroup {
  constructor(pool) {
    this.pool = pool;
    this.pending = new Set();
    this.leases = new Set();
  }

  /** Whether a request or a lease of this group is under way. */
  get busy() {
    return this.pending.size > 0 || this.leases.size > 0;
  }

  /**
   * One request on any free Worker; resolves to its value, rejects with its error or CancelledError.
   * @param {string} type  @param {any} payload  @param {RunOptions} [options]
   */
  run(type, payload, { onProgress, transfer } = {}) {
    return this.track({ kind: 'run', group: this, type, payload, transfer, onProgress });
  }

  /** `count` Workers held by the caller until lease.release(); they serve nothing else meanwhile. */
  lease(count) {
    const checked = checkWorkerCount(count, 'count');
    if (!checked.ok) return Promise.reject(new RangeError(checked.error));
    return this.track({ kind: 'lease', group: this, count });
  }

  /** Queues a request (for any free Worker, or for a lease) or, with `slot`, sends it there now. */
  track(request, slot = null) {
    return new Promise((resolve, reject) => {
      const done = () => this.pending.delete(request);
      request.resolve = (v) => {
        done();
        resolve(v);
      };
      request.reject = (e) => {
        done();
        reject(e);
      };
      this.pending.add(request);
      if (slot) this.pool.dispatch(slot, request);
      else this.pool.enqueue(request);
    });
  }

  /** Cancels this group's requests: queued ones are dropped, running ones end with their Workers. */
  cancel() {
    const pool = this.pool;
    const slots = new Set();
    for (const r of [...this.pending]) {
      const queued = pool.queue.indexOf(r);
      if (queued >= 0) pool.queue.splice(queued, 1);
      if (r.slot) slots.add(r.slot);
      r.reject(new CancelledError());
    }
    for (const lease of [...this.leases]) {
      for (const s of lease.slots) slots.add(s);
      lease.broken = new CancelledError();
      lease.release(false);
    }
    for (const s of slots) pool.stopSlot(s, new CancelledError(), 'off');
    pool.retireIdle();
    pool.pump();
  }
}

/** Workers held by one caller: requests go to a chosen one, or one to each at once. */
export class Lease {
  constructor(pool, group, slots) {
    this.pool = pool;
    this.group = group;
    this.slots = slots;
    this.broken = null;
    for (const s of slots) s.lease = this;
  }

  get size() {
    return this.slots.length;
  }

  /** A request on the lease's Worker `i` (0-based). */
  run(i, type, payload, { onProgress, transfer } = {}) {
    if (this.broken) return Promise.reject(this.broken);
    const slot = this.slots[i];
    if (!slot || slot.lease !== this)
      return Promise.reject(new RangeError(`this lease holds Workers 0 to ${this.size - 1}, got ${i}`));
    if (slot.state !== 'ready') return Promise.reject(new Error(`Worker ${slot.index + 1} ended during the request`));
    return this.group.track({ kind: 'run', group: this.group, type, payload, transfer, onProgress }, slot);
  }

  /**
   * One request on each Worker at once; resolves to their values in order.
   * @param {string} type
   * @param {(i: number) => any} payloadOf
   * @param {(i: number, payload: any) => Transferable[]} [transferOf]
   */
  all(type, payloadOf, transferOf = () => []) {
    return Promise.all(
      this.slots.map((_, i) => {
        const payload = payloadOf(i);
        return this.run(i, type, payload, { transfer: transferOf(i, payload) });
      }),
    );
  }

  /** Gives the Workers back to the pool. */
  release(serveNext = true) {
    for (const s of this.slots) if (s.lease === this) s.lease = null;
    this.group.leases.delete(this);
    if (!serveNext) return;
    this.pool.retireIdle();
    this.pool.pump();
  }
}

/**
 * The page's Workers: classic Web Workers from a blob: URL (the core's glue, then
 * web/worker.js), so they start from file:// and from the single-file page too.
 * @param {() => string} makeURL
 * @returns {Spawn}
 */
export function browserSpawn(makeURL) {
  let url = null; // one blob: URL for every Worker
  return (index, events) => {
    url ??= makeURL();
    const worker = new Worker(url, { name: `roofline-lab ${index + 1}` });
    worker.onmessage = (e) => events.message(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      events.error(e.message || 'its script failed');
    };
    worker.onmessageerror = () => events.error('a message could not be read');
    return { post: (message, transfer) => worker.postMessage(message, transfer), terminate: () => worker.terminate() };
  };
}
