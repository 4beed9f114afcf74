// The Notebook (a view of its own, opened from the lesson by "Run the seed's code" or a #notebook
// link): the seed's code in cells, each editable, each with Run and its printed output under it;
// Run all, Stop, Reset. The cells run one at a time in the Notebook's own Worker, whose wasm
// instance holds the kernel (core.notebookRunCell): a cell's variables stay for the next cells.
// Stop ends that Worker (no SharedArrayBuffer from file://: a running cell cannot be interrupted
// otherwise) and a fresh one starts with the next run; the page says the variables are gone.
// An error is shown as Python shows it, and its line is marked in the cell's gutter.
import { CancelledError } from '../pool.js';
import {
  cellFinished,
  cellStarted,
  cellStopped,
  closeNotebook,
  clearNotice,
  dismissNotice,
  editCell,
  kernelReset,
  lineKind,
  notebookBusy,
  noticeShown,
  queueCells,
  restoreSeed,
  undoSeed,
  SEED_NOTEBOOK_FILE,
  unqueue,
} from '../notebook_state.js';
import { sci } from '../model/format.js';
import { $, el } from './dom.js';

const STATUS_TEXT = {
  idle: '',
  queued: 'waiting',
  running: 'running…',
  done: 'done',
  error: 'raised an exception',
  stopped: 'stopped',
};

/**
 * @param {{runCell: (source: string, cell: number) => Promise<object>, reset: () => Promise<{kernel: string}>, stop: () => void}} client
 *   the Notebook's Worker: one cell in its kernel, a reset of the kernel, and Stop (ends the Worker)
 * @param {() => object} getState  the page state (state.notebook)
 * @param {(n: object) => void} setNotebook  stores a new state.notebook and redraws it (and the link)
 */
export function bindNotebookView(client, getState, setNotebook) {
  const nb = () => getState().notebook;
  let generation = 0; // Stop and Reset end the runs of older generations
  let drawnCells = null; // the cells the list was built for (rebuilt when their number changes)
  let items = [];

  async function runCells(indices) {
    if (notebookBusy(nb()) || indices.length === 0) return;
    const gen = ++generation;
    setNotebook(queueCells(clearNotice(nb()), indices));
    for (const i of indices) {
      if (gen !== generation) return;
      setNotebook(cellStarted(nb(), i));
      let r;
      try {
        r = await client.runCell(nb().cells[i].source, i + 1);
      } catch (e) {
        if (gen !== generation) return; // Stop or Reset already said what happened
        generation++;
        setNotebook(
          cellStopped(nb(), i, e instanceof CancelledError ? null : `The Notebook's Worker failed: ${e.message}`),
        );
        return;
      }
      if (gen !== generation) return;
      setNotebook(cellFinished(nb(), i, r));
      if (r.error) {
        setNotebook(unqueue(nb())); // Run all stops at a cell that raised, as Jupyter's does
        return;
      }
    }
  }

  function stop() {
    if (!notebookBusy(nb())) return;
    generation++;
    client.stop();
    setNotebook(
      cellStopped(
        nb(),
        nb().cells.findIndex((c) => c.status === 'running'),
      ),
    );
    $('#nb-run-all').focus();
  }

  async function reset() {
    if (notebookBusy(nb())) return;
    const gen = ++generation;
    try {
      const { kernel } = await client.reset();
      if (gen === generation) setNotebook(kernelReset(nb(), kernel));
    } catch (e) {
      if (gen === generation) setNotebook(cellStopped(nb(), -1, null));
      if (!(e instanceof CancelledError)) $('#nb-status').textContent = `The kernel could not be reset: ${e.message}`;
    }
  }

  $('#nb-run-all').addEventListener('click', () => runCells(nb().cells.map((_, i) => i)));
  $('#nb-stop').addEventListener('click', stop);
  $('#nb-reset').addEventListener('click', reset);
  $('#nb-seed').addEventListener('click', () => {
    if (!notebookBusy(nb())) setNotebook(restoreSeed(nb()));
  });
  $('#nb-close').addEventListener('click', () => setNotebook(closeNotebook(nb())));
  // Undo and Dismiss hide their own button: the focus goes to the cells (the first one), or to
  // Run all, not back to the top of the page.
  const focusCells = () => ($('#nb-cells textarea') ?? $('#nb-run-all')).focus();
  $('#nb-dismiss').addEventListener('click', () => {
    setNotebook(dismissNotice(nb()));
    focusCells();
  });
  $('#nb-undo').addEventListener('click', () => {
    if (notebookBusy(nb())) return;
    setNotebook(undoSeed(nb()));
    if (nb().undo.length === 0) focusCells();
  });

  /** One cell's elements, made once per cell; render fills them. */
  function makeItem(i) {
    const li = el('li', '', 'nb-cell');
    const head = el('div', '', 'nb-head');
    const count = el('span', '', 'nb-count');
    const title = el('span', `Cell ${i + 1}`, 'nb-title');
    const run = el('button', 'Run');
    run.type = 'button';
    run.setAttribute('aria-label', `Run cell ${i + 1}`);
    run.addEventListener('click', () => runCells([i]));
    const state = el('span', '', 'nb-state');
    head.append(count, title, run, state);
    const code = el('div', '', 'nb-code');
    const gutter = el('pre', '', 'nb-gutter');
    gutter.setAttribute('aria-hidden', 'true');
    const area = el('textarea');
    area.spellcheck = false;
    area.wrap = 'off';
    area.setAttribute('autocapitalize', 'off');
    area.setAttribute('aria-label', `Cell ${i + 1}'s code`);
    area.addEventListener('input', () => {
      area.rows = Math.max(1, area.value.split('\n').length);
      setNotebook(editCell(nb(), i, area.value));
    });
    area.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.shiftKey || e.ctrlKey)) {
        // Shift+Enter runs the cell, as in Jupyter
        e.preventDefault();
        runCells([i]);
      }
    });
    code.append(gutter, area);
    const out = el('pre', '', 'nb-out');
    out.tabIndex = 0;
    out.setAttribute('aria-label', `Cell ${i + 1}'s output`);
    // The last expression's value, as Jupyter shows it (Out[n]).
    const display = el('pre', '', 'nb-display');
    display.tabIndex = 0;
    display.setAttribute('aria-label', `Cell ${i + 1}'s value`);
    const kinds = el('p', '', 'note nb-kinds');
    const where = el('p', '', 'nb-where');
    const error = el('pre', '', 'nb-error');
    error.tabIndex = 0;
    error.setAttribute('aria-label', `Cell ${i + 1}'s error`);
    li.append(head, code, out, display, kinds, where, error);
    return { li, count, run, state, gutter, area, out, display, kinds, where, error, title };
  }

  let tick = null; // the page clock's tick (state.notebook.clockTick), for the samples' note
  function renderCell(item, c, i, busy) {
    item.count.textContent = c.count ? `[${c.count}]` : '[ ]';
    item.title.textContent = `Cell ${i + 1} (${SEED_NOTEBOOK_FILE} from line ${c.firstLine})`;
    item.run.disabled = busy;
    item.state.textContent = STATUS_TEXT[c.status];
    item.li.dataset.status = c.status;
    if (item.area.value !== c.source) {
      item.area.value = c.source;
      item.area.rows = Math.max(1, c.source.split('\n').length);
    }
    item.area.readOnly = c.status === 'running' || c.status === 'queued';
    // The failing line of this cell (where the error surfaced in it), marked in the gutter.
    const marked = c.error && c.error.sourceLine > 0 ? c.error.sourceLine : 0;
    const lines = c.source.split('\n').length;
    const gutter = [];
    for (let k = 1; k <= lines; k++) {
      const span = el('span', String(k), k === marked ? 'nb-marked' : '');
      gutter.push(span, '\n');
    }
    item.gutter.replaceChildren(...gutter);
    item.out.textContent = c.stdout;
    item.out.hidden = c.stdout === '';
    const shown = c.display ?? '';
    item.display.replaceChildren(...(shown ? [el('span', `Out[${c.count ?? ' '}]: `, 'nb-count'), shown] : []));
    item.display.hidden = shown === '';
    const kinds = new Set(c.stdout.split('\n').map(lineKind).filter(Boolean));
    item.kinds.replaceChildren();
    if (kinds.has('measurement'))
      item.kinds.append(
        el('span', 'measurement', 'tag measurement'),
        " the timing samples are this machine's clock" +
          (tick
            ? `, which ticks every ${sci(tick, 2)} s in this page (measured): a sample of a few ticks is mostly the tick. `
            : '. '),
      );
    if (kinds.has('estimate'))
      item.kinds.append(
        el('span', 'estimate', 'tag estimate'),
        " the cost_analysis() dict is the core's estimate from the IR, with XLA's keys.",
      );
    item.kinds.hidden = kinds.size === 0;
    item.error.textContent = c.error ? c.error.text : '';
    item.error.hidden = !c.error;
    item.where.hidden = !c.error;
    item.where.textContent = !c.error
      ? ''
      : marked
        ? `${c.error.type} at line ${marked}${c.error.column > 0 ? `, column ${c.error.column}` : ''} of this cell${c.error.file && c.error.file !== `<cell ${i + 1}>` ? ` (raised in ${c.error.file}, line ${c.error.line})` : ''}: the line is marked.`
        : c.error.text;
    if (c.error && c.error.type === 'WorkerError') item.where.hidden = true;
  }

  // Focus follows the view, as in the gradebook: opened, its heading; closed, the opener again.
  let wasOpen = null;
  let opener = null;
  let scrolledTo = 0;

  function render(state) {
    const n = state.notebook;
    const opening = wasOpen === false && n.open,
      closing = wasOpen === true && !n.open;
    if (opening) {
      const from = document.activeElement;
      opener = from && from !== document.body && !$('#nb').contains(from) ? from : null;
      scrolledTo = window.scrollY;
    }
    document.body.classList.toggle('notebook-mode', n.open);
    $('#nb').hidden = !n.open;
    wasOpen = n.open;
    if (opening) $('#h-notebook').focus();
    if (closing) {
      window.scrollTo(0, scrolledTo);
      const back = opener?.isConnected && opener.getClientRects().length ? opener : $('#open-notebook');
      back.focus({ preventScroll: true });
      opener = null;
    }
    if (!n.open) return;
    const busy = notebookBusy(n);
    $('#nb-run-all').disabled = busy || n.cells.length === 0;
    $('#nb-stop').disabled = !busy;
    $('#nb-reset').disabled = busy;
    $('#nb-seed').disabled = busy || !n.seed;
    $('#nb-seed-error').hidden = !n.seedError;
    $('#nb-seed-error').textContent = n.seedError ?? '';
    const shown = noticeShown(n);
    $('#nb-notice-box').hidden = !shown.text;
    $('#nb-notice').textContent = shown.text ?? '';
    $('#nb-undo').hidden = !shown.undo;
    $('#nb-undo').disabled = busy;
    $('#nb-drafts-note').hidden = !state.drafts?.notice;
    $('#nb-drafts-note').textContent = state.drafts?.notice ?? '';
    const running = n.cells.findIndex((c) => c.status === 'running');
    const errors = n.cells.filter((c) => c.status === 'error').length;
    $('#nb-status').textContent =
      running >= 0
        ? `Running cell ${running + 1}…`
        : n.kernel
          ? `Kernel ready: ${n.runs} cell run${n.runs === 1 ? '' : 's'} so far${errors ? `; ${errors} cell${errors === 1 ? '' : 's'} raised an exception` : ''}.`
          : 'No cell has run yet in this kernel.';
    if (drawnCells === null || drawnCells.length !== n.cells.length) {
      items = n.cells.map((_, i) => makeItem(i));
      $('#nb-cells').replaceChildren(...items.map((it) => it.li));
    }
    drawnCells = n.cells;
    tick = n.clockTick;
    n.cells.forEach((c, i) => renderCell(items[i], c, i, busy));
  }

  return { render };
}
