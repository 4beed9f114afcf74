// The main thread's side of the measurement Worker: one run at a time, progress callbacks, and
// a cancel that ends the Worker (a new one starts on the next run).

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export class MeasureClient {
  /** @param {() => string} makeWorkerURL */
  constructor(makeWorkerURL) {
    this.makeWorkerURL = makeWorkerURL;
    this.worker = null;
    this.pending = null;
    this.nextId = 1;
  }

  get busy() {
    return this.pending !== null;
  }

  /** Runs the measurements; resolves to their value, rejects with a message or CancelledError. */
  run(options, onProgress = () => {}) {
    if (this.pending) return Promise.reject(new Error('a measurement is already running'));
    if (!this.worker) {
      this.worker = new Worker(this.makeWorkerURL());
      this.worker.onmessage = (e) => this.receive(e.data);
      this.worker.onerror = (e) => {
        e.preventDefault();
        this.settle('reject', new Error(`the measurement Worker failed: ${e.message || 'unknown error'}`));
        this.discardWorker();
      };
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onProgress };
      this.worker.postMessage({ id, type: 'measure', options });
    });
  }

  cancel() {
    if (!this.pending) return;
    this.discardWorker();
    this.settle('reject', new CancelledError());
  }

  receive(message) {
    if (!this.pending || message.id !== this.pending.id) return;
    if (message.type === 'progress') this.pending.onProgress(message.done, message.total, message.label);
    else if (message.type === 'result') this.settle('resolve', message.value);
    else if (message.type === 'error') this.settle('reject', new Error(message.error));
  }

  settle(how, value) {
    const p = this.pending;
    this.pending = null;
    if (p) p[how](value);
  }

  discardWorker() {
    this.worker?.terminate();
    this.worker = null;
  }
}
