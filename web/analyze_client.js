// The main thread's side of the analysis Worker (its own instance of web/worker.js, apart from
// the measurement one, so a measurement never waits for an analysis or the reverse). Requests
// run in order; each resolves to its own result. cancel() ends the Worker and rejects every
// pending request with CancelledError (a new Worker starts on the next request).
import { expandAnalysis } from './core.js';
import { CancelledError } from './measure_client.js';
import { summarizeFile } from './model/analysis.js';
import { placeOps } from './model/analysis_view.js';

/**
 * {summary, placement, errors, ms} from what the Worker posts ({result, ms}: the core's compact
 * analysis): the rows become objects here, once, instead of in the Worker and again in a
 * structured clone.
 */
function summarize(name, { result, ms }) {
  const analysis = result.ok ? expandAnalysis(result.value) : result;
  const summary = summarizeFile(name, analysis);
  return { summary, placement: placeOps(analysis), errors: summary.errorPlaces, ms };
}

export class AnalyzeClient {
  /** @param {() => string} makeWorkerURL */
  constructor(makeWorkerURL) {
    this.makeWorkerURL = makeWorkerURL;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
  }

  get busy() {
    return this.pending.size > 0;
  }

  /**
   * Analyses `text` as the file `name`; resolves to {summary, placement, errors, ms}.
   * @param {(done: number, total: number, label: string) => void} [onProgress]
   */
  analyze(text, name, onProgress = () => {}) {
    if (!this.worker) this.startWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, name });
      this.worker.postMessage({ id, type: 'analyze', text, name });
    });
  }

  cancel() {
    this.discardWorker();
    this.rejectAll(new CancelledError());
  }

  startWorker() {
    this.worker = new Worker(this.makeWorkerURL());
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.discardWorker();
      this.rejectAll(new Error(`the analysis Worker failed: ${e.message || 'unknown error'}`));
    };
  }

  receive(message) {
    const p = this.pending.get(message.id);
    if (!p) return;
    if (message.type === 'progress') {
      p.onProgress(message.done, message.total, message.label);
      return;
    }
    this.pending.delete(message.id);
    if (message.type === 'result') p.resolve(summarize(p.name, message.value));
    else p.reject(new Error(message.error));
  }

  rejectAll(error) {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(error);
  }

  discardWorker() {
    this.worker?.terminate();
    this.worker = null;
  }
}
