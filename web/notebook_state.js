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
//   notice:  what the page says about the kernel (it restarted, it was reset) or the cells (edits
//            kept in this browser are back), or null; shown before undoNotice, and Dismiss or a
//            run clears it alone;
//   undoNotice: what the page says of the cells Undo can bring back (the seed's code replaced
//            them; they were kept in this browser), shown with Undo when there is no notice;
//   undo:    [cells]: the cells as they were each time "The seed's code again" replaced edited
//            ones, the latest last (Undo puts it back, in place of the cells as they are; edits
//            after it keep it; only Dismiss lets them go), at most MAX_NOTEBOOK_UNDO;
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
    undoNotice: null,
    undo: [],
    clockTick: undefined,
  };
}

export const openNotebook = (n) => ({ ...n, open: true });
export const closeNotebook = (n) => ({ ...n, open: false });

const withCell = (n, i, change) => ({ ...n, cells: n.cells.map((c, j) => (j === i ? { ...c, ...change(c) } : c)) });

/** The reader typed in cell i: its text changes (its output stays until it runs again). */
export function editCell(n, i, source) {
  if (!n.cells[i] || n.cells[i].source === source) return n;
  return withCell(n, i, () => ({ source: String(source) }));
}

/** How many replaced sets of cells Undo can bring back. */
export const MAX_NOTEBOOK_UNDO = 5;
const pushUndo = (stack, cells) => [...stack, cells].slice(-MAX_NOTEBOOK_UNDO);

/** What the page says when the seed's code replaced the reader's edits to `k` cells (`ran`: some had output). */
export const seedRestored = (k, ran = false) =>
  `The seed's code is back: your edits to ${k} cell${k === 1 ? '' : 's'} were replaced${ran ? ', with the outputs' : ''}. ` +
  'Undo puts them back, in place of the cells as they are now.';
/** What the page says when Undo has more to bring back. */
export const NOTEBOOK_UNDO_MORE = 'Your cells are back. Undo again brings back the ones replaced before them.';

const edits = (cells, seed) => cells.filter((c, j) => c.source !== seed[j]?.source).length;
const hasOutput = (c) => c.stdout !== '' || c.display !== '' || c.error !== null;

/**
 * The seed's code again, as bundled, every output cleared (the kernel keeps its variables). Edited
 * cells are not lost: the page says so, and undoSeed puts them back.
 */
export function restoreSeed(n) {
  const cells = (n.seed ?? []).map(freshCell);
  const edited = edits(n.cells, cells);
  if (edited === 0) return { ...n, cells };
  return {
    ...n,
    cells,
    notice: null, // what this says of the cells supersedes the notice on show
    undo: pushUndo(n.undo, n.cells),
    undoNotice: seedRestored(edited, n.cells.some(hasOutput)),
  };
}

/**
 * What to keep in this browser between visits ({seed, cells, replaced}: the seed's fingerprint,
 * every cell's source when any differs from the seed's (else null), and the sources of each set
 * of cells Undo can bring back), or null when there is none of it.
 */
export function notebookDraft(n) {
  if (!n.seed) return null;
  const edited = edits(n.cells, n.seed) > 0;
  if (!edited && n.undo.length === 0) return null;
  return {
    seed: seedFingerprint(n.seed),
    cells: edited ? n.cells.map((c) => c.source) : null,
    replaced: n.undo.map((cells) => cells.map((c) => c.source)),
  };
}

/** What the page says when edits kept in this browser are back (`undo`: replaced cells were kept too). */
export const draftRestored = (k, undo = false) =>
  `Your edits to ${k} cell${k === 1 ? '' : 's'}, kept in this browser, are back. ` +
  (undo
    ? "Cells of yours that the seed's code replaced were kept too: Undo puts them back."
    : "\u201cThe seed's code again\u201d puts the seed's code back (and offers an Undo).");
/** What the page says when only replaced cells (Undo's) were kept. */
export const DRAFT_REPLACED_KEPT =
  "Cells of yours that the seed's code replaced were kept in this browser: Undo puts them back.";
/** What the page says when kept edits were made to another version of the seed's code. */
export const DRAFT_OTHER_SEED =
  "Edits kept in this browser were made to another version of the seed's code, so they were not put " +
  'back; Undo puts them in the cells anyway (outputs cleared).';

/**
 * What this browser kept (notebookDraft's value, or null) put back: edits made to this seed's
 * code at once, and the replaced cells as Undo's; edits made to another version are offered
 * (Undo), not imposed.
 */
export function applyNotebookDraft(n, draft) {
  if (!draft || !n.seed) return n;
  const asCells = (sources) => sources.map((source, j) => freshCell({ source, firstLine: n.seed[j]?.firstLine ?? 1 }));
  const replaced = draft.replaced.map(asCells);
  if (draft.seed !== seedFingerprint(n.seed)) {
    const offered = draft.cells ? [...replaced, asCells(draft.cells)] : replaced;
    if (offered.length === 0) return n;
    return { ...n, undo: offered.slice(-MAX_NOTEBOOK_UNDO), undoNotice: DRAFT_OTHER_SEED };
  }
  const edited = draft.cells ? edits(asCells(draft.cells), n.seed) : 0;
  // One message: the edits back, and (then with Undo) the replaced cells kept too.
  const kept = replaced.length > 0;
  return {
    ...n,
    cells: edited > 0 ? asCells(draft.cells) : n.cells,
    notice: edited > 0 && !kept ? draftRestored(edited) : null,
    undo: replaced.slice(-MAX_NOTEBOOK_UNDO),
    undoNotice: !kept ? null : edited > 0 ? draftRestored(edited, true) : DRAFT_REPLACED_KEPT,
  };
}

/** Cells another tab of this page kept (the saved Notebook part's replaced ones): Undo's here too. */
export function adoptNotebookReplaced(n, replaced) {
  const key = (cells) => JSON.stringify(cells);
  const held = new Set(n.undo.map((cells) => key(cells.map((c) => c.source))));
  const theirs = replaced.filter((sources) => !held.has(key(sources)));
  if (theirs.length === 0 || !n.seed) return n;
  const asCells = (sources) => sources.map((source, j) => freshCell({ source, firstLine: n.seed[j]?.firstLine ?? 1 }));
  return {
    ...n,
    undo: [...theirs.map(asCells), ...n.undo].slice(-MAX_NOTEBOOK_UNDO),
    undoNotice: n.undoNotice ?? DRAFT_REPLACED_KEPT,
  };
}

/** Undo of restoreSeed: the latest cells replaced (their outputs too), in place of the cells as they are. */
export function undoSeed(n) {
  if (n.undo.length === 0) return n;
  const undo = n.undo.slice(0, -1);
  return {
    ...n,
    cells: n.undo.at(-1),
    notice: null,
    undo,
    undoNotice: undo.length > 0 ? NOTEBOOK_UNDO_MORE : null,
  };
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

/**
 * Dismiss: the notice on show goes; when it is Undo's (no other notice), what Undo could bring
 * back goes with it.
 */
export const dismissNotice = (n) => (n.notice ? { ...n, notice: null } : { ...n, undo: [], undoNotice: null });

/** A run clears the notice about the kernel or the cells, not what Undo can bring back. */
export const clearNotice = (n) => (n.notice ? { ...n, notice: null } : n);

/** What the notice box shows: {text, undo (whether Undo goes with it)}, text null when nothing. */
export function noticeShown(n) {
  if (n.notice) return { text: n.notice, undo: false };
  if (n.undo.length > 0) return { text: n.undoNotice, undo: true };
  return { text: null, undo: false };
}

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
