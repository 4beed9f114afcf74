// The Notebook view's part of the page state (state.notebook) and the pure functions that change
// it. No DOM, no Worker: web/views/notebook_view.js draws it and web/main.js runs the cells in the
// Notebook's own Worker (a kernel: core.notebookRunCell in that Worker's wasm instance).
//
// state.notebook = {
//   open:    whether the Notebook is on show instead of the lesson (a #notebook link, or the
//            lesson's "Run the seed's code");
//   seed:    [{source, firstLine}]: the seed's code (../shared/seed/lesson.py, bundled into the
//            page) as core.notebookCells splits it, or null when the page was built without it;
//   seedError: why there is no seed (null when there is);
//   cells:   [{source, firstLine, status, stdout, display, error, count}]: the cells as the reader
//            has them; status 'idle' | 'queued' | 'running' | 'done' | 'error' | 'stopped'; stdout
//            what the cell printed in its last run; display the repr of its last expression, as
//            Jupyter shows it (Out[n]), '' when none; error {text (Python's traceback), type, exception, line,
//            file, sourceLine, column} or null; count the run's number in the kernel (In [n]) or null;
//   kernel:  the id of the kernel that ran the cells shown (null: none yet, or it was lost);
//   runs:    cells run since the kernel started (the next count);
//   notice:  what the page says about the kernel (it restarted, it was reset) or the cells (the
//            seed's code replaced edits), or null;
//   undo:    the cells as they were before "The seed's code again" replaced edited ones (Undo puts
//            them back), or null;
//   clockTick: how coarsely the page's clock (time.perf_counter's) ticks, in seconds, measured by
//            the core the first time the Notebook is open (undefined: not yet; null: too coarse
//            to measure in a quarter second).
// }
import { seedFingerprint } from './model/drafts.js';
import { decodeHash } from './model/hash.js';

/** The Notebook's file name in the page's words. */
export const SEED_NOTEBOOK_FILE = 'lesson.py';

/** A cell's run, before any or once cleared: no output, no value, no error, no count. */
const NO_RUN = { stdout: '', display: '', error: null, count: null };

const freshCell = ({ source, firstLine }) => ({ source, firstLine, status: 'idle', ...NO_RUN });

/**
 * The state for the seed's cells (core.notebookCells's value), or for none with why (seedError).
 * @param {{source: string, firstLine: number}[] | null} seed
 */
export function createNotebookState(seed, seedError = null) {
  return {
    open: false,
    seed,
    seedError: seed ? null : seedError,
    cells: (seed ?? []).map(freshCell),
    kernel: null,
    runs: 0,
    notice: null,
    undo: null,
    clockTick: undefined,
  };
}

export const openNotebook = (n) => ({ ...n, open: true });
export const closeNotebook = (n) => ({ ...n, open: false });

const withCell = (n, i, change) => ({ ...n, cells: n.cells.map((c, j) => (j === i ? { ...c, ...change(c) } : c)) });

/** The reader typed in cell i: its text changes (its output stays until it runs again). */
export function editCell(n, i, source) {
  if (!n.cells[i] || n.cells[i].source === source) return n;
  return { ...withCell(n, i, () => ({ source: String(source) })), undo: null };
}

/** What the page says when the seed's code replaced the reader's edits to `k` cells. */
export const seedRestored = (k) =>
  `The seed's code is back: your edits to ${k} cell${k === 1 ? '' : 's'} were replaced, with the outputs. ` +
  'Undo brings them back.';

/**
 * The seed's code again, as bundled, every output cleared (the kernel keeps its variables). Edited
 * cells are not lost: the page says so, and undoSeed puts them back.
 */
export function restoreSeed(n) {
  const cells = (n.seed ?? []).map(freshCell);
  const edited = n.cells.filter((c, j) => c.source !== cells[j]?.source).length;
  if (edited === 0) return { ...n, cells };
  return { ...n, cells, undo: n.cells, notice: seedRestored(edited) };
}

/**
 * The cells to keep in this browser between visits ({seed, cells}: the seed's fingerprint and
 * every cell's source), or null when no cell differs from the seed's.
 */
export function notebookDraft(n) {
  if (!n.seed || n.cells.every((c, j) => c.source === n.seed[j]?.source)) return null;
  return { seed: seedFingerprint(n.seed), cells: n.cells.map((c) => c.source) };
}

/** What the page says when edits kept in this browser are back. */
export const draftRestored = (k) =>
  `Your edits to ${k} cell${k === 1 ? '' : 's'}, kept in this browser, are back. ` +
  "\u201cThe seed's code again\u201d puts the seed's code back (and offers an Undo).";
/** What the page says when kept edits were made to another version of the seed's code. */
export const DRAFT_OTHER_SEED =
  "Edits kept in this browser were made to another version of the seed's code, so they were not put " +
  'back; Undo puts them in the cells anyway (outputs cleared).';

/**
 * Edits kept in this browser (notebookDraft's value, or null) put back into the cells: those made
 * to this seed's code at once; those made to another version are offered (Undo), not imposed.
 */
export function applyNotebookDraft(n, draft) {
  if (!draft || !n.seed) return n;
  const edited = draft.cells.filter((source, j) => source !== n.seed[j]?.source).length;
  if (edited === 0) return n;
  const cells = draft.cells.map((source, j) => freshCell({ source, firstLine: n.seed[j]?.firstLine ?? 1 }));
  if (draft.seed === seedFingerprint(n.seed)) return { ...n, cells, notice: draftRestored(edited) };
  return { ...n, undo: cells, notice: DRAFT_OTHER_SEED };
}

/** Undo of restoreSeed: the cells as the reader had them (their outputs too). */
export function undoSeed(n) {
  if (!n.undo) return n;
  return { ...n, cells: n.undo, undo: null, notice: null };
}

/** Cells waiting for the kernel (Run all queues every cell, in order). */
export function queueCells(n, indices) {
  return { ...n, cells: n.cells.map((c, j) => (indices.includes(j) ? { ...c, status: 'queued' } : c)) };
}

export function cellStarted(n, i) {
  return withCell(n, i, () => ({ status: 'running' }));
}

/**
 * The kernel answered cell i (core.notebookRunCell's value with the kernel's id). An answer from
 * another kernel than the one that ran the earlier cells means the Worker was started afresh.
 */
export function cellFinished(n, i, r) {
  const lost = n.kernel !== null && r.kernel !== n.kernel;
  const error = r.error
    ? {
        text: r.error,
        type: r.errorType,
        exception: r.exception,
        line: r.line,
        file: r.file,
        sourceLine: r.sourceLine,
        column: r.column,
      }
    : null;
  const next = withCell(n, i, () => ({
    status: error ? 'error' : 'done',
    stdout: r.stdout,
    display: r.display ?? '',
    error,
    count: r.cellsRun,
  }));
  return { ...next, kernel: r.kernel, runs: r.cellsRun, notice: lost ? KERNEL_LOST : n.notice };
}

/** What the page says when the kernel's Worker was ended (Stop) or failed: the variables are gone. */
export const KERNEL_RESTARTED =
  "The kernel restarted: the cell was stopped and the Notebook's Worker started afresh, so the " +
  'variables of earlier cells are gone. Run all (or run the cells again in order) to restore them.';
export const KERNEL_LOST =
  'The kernel restarted (its Worker was started afresh): the variables of cells run before are gone. ' +
  'Run all (or run the cells again in order) to restore them.';
export const KERNEL_RESET = 'The kernel was reset: every variable, function and import is gone.';

/**
 * Cell i was stopped (the reader's Stop ended the Worker) or its Worker failed (`why`): the queued
 * cells go back to idle and the kernel is gone.
 */
export function cellStopped(n, i, why = null) {
  const cells = n.cells.map((c, j) => {
    if (j === i)
      return {
        ...c,
        status: 'stopped',
        ...NO_RUN,
        error: why
          ? { text: why, type: 'WorkerError', exception: why, line: 0, file: '', sourceLine: 0, column: 0 }
          : null,
      };
    return c.status === 'queued' || c.status === 'running' ? { ...c, status: 'idle' } : c;
  });
  return { ...n, cells, kernel: null, runs: 0, notice: KERNEL_RESTARTED };
}

/** Queued cells not run (an earlier cell failed: Run all stops there, as Jupyter does). */
export function unqueue(n) {
  return { ...n, cells: n.cells.map((c) => (c.status === 'queued' ? { ...c, status: 'idle' } : c)) };
}

/** The kernel was reset (its id given): every output cleared. */
export function kernelReset(n, kernel) {
  return {
    ...n,
    cells: n.cells.map((c) => ({ ...c, status: 'idle', ...NO_RUN })),
    kernel,
    runs: 0,
    notice: KERNEL_RESET,
  };
}

export const dismissNotice = (n) => ({ ...n, notice: null, undo: null });

/** Whether a cell is running or waiting. */
export const notebookBusy = (n) => n.cells.some((c) => c.status === 'running' || c.status === 'queued');

/** A link's notebook part: `#notebook` opens the Notebook; without it, it closes. */
export function applyNotebookLink(n, hash) {
  const open = Boolean(decodeHash(hash).notebook);
  return open === n.open ? n : { ...n, open };
}

/** The Notebook's part of the page's link: 'notebook' when it is open, else ''. */
export const notebookHashPart = (n) => (n.open ? 'notebook' : '');

/**
 * The cells' printed output, joined in the cells' order, as the CLI prints the whole file (a
 * cell's traceback where the CLI would stop): what `node scripts/notebook.mjs` prints for it.
 */
export function notebookOutput(n) {
  return n.cells.map((c) => c.stdout).join('');
}

/** Timing samples the seed prints (time.perf_counter differences): measurements of this machine, not estimates. */
export const MEASURED_LINE = /^Local CPU samples seconds: /;
/** The compiled function's cost_analysis() dict: XLA's keys from the core's cost rules, an estimate. */
export const ESTIMATE_LINE = /^Compiler estimates \(backend-specific\): /;

/** What a printed line of the seed is: 'measurement', 'estimate' or null (a plain value). */
export function lineKind(line) {
  if (MEASURED_LINE.test(line)) return 'measurement';
  if (ESTIMATE_LINE.test(line)) return 'estimate';
  return null;
}
