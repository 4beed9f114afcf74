// Section 8's per-op table: sortable by every column (the headers are buttons, so the keyboard
// sorts too), a row per op (the first ROW_LIMIT in the chosen order), and selection: a click on
// a row (or its line button) or Enter on a focused row selects it; the selected row is marked.
// The measured columns are a run's (this machine's measurements), '—' until the program is run.
import { ROW_LIMIT } from '../model/analysis_view.js';
import { percent, sci, short } from '../model/format.js';
import { $, el } from './dom.js';

const COLUMNS = [
  ['line', 'line'], ['op', 'op'], ['shape', 'shape'], ['flops', 'flops'], ['transcendentals', 'transcendentals'],
  ['bytes', 'bytes accessed'], ['intensity', 'intensity (flops/byte)'], ['bound', 'bound under the roof'],
  ['flopShare', 'share of flops'], ['byteShare', 'share of bytes'],
  ['seconds', 'measured time'], ['gflops', 'achieved GFLOP/s'], ['gbs', 'achieved GB/s'], ['ofRoof', 'share of the roof reached'],
];
/** The measured columns (a run's, this machine's): marked as measurements. */
const MEASURED = new Set(['seconds', 'gflops', 'gbs', 'ofRoof']);

const num = (x) => (x === null || x === undefined ? '—' : short(x));

/** @param {{onSort: (key: string) => void, onSelect: (index: number) => void}} handlers */
export function bindAnalyzeTable({ onSort, onSelect }) {
  const head = $('#analyze-ops thead tr');
  head.replaceChildren(...COLUMNS.map(([key, label]) => {
    const th = el('th');
    th.scope = 'col';
    th.dataset.key = key;
    const b = el('button', label, 'sort');
    b.type = 'button';
    b.addEventListener('click', () => onSort(key));
    th.append(b);
    if (MEASURED.has(key)) th.classList.add('measured');
    return th;
  }));
  // The whole row selects: a click anywhere on it, or Enter on the focused row (or its line button).
  const body = $('#analyze-ops tbody');
  body.addEventListener('click', (e) => {
    const tr = e.target.closest('tr[data-index]');
    if (tr) onSelect(Number(tr.dataset.index));
  });
  body.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName === 'BUTTON') return;  // a button's Enter is its click
    const tr = e.target.closest('tr[data-index]');
    if (!tr) return;
    e.preventDefault();
    onSelect(Number(tr.dataset.index));
  });
}

function rowElement(r, selected) {
  const tr = el('tr');
  tr.dataset.index = String(r.index);
  tr.tabIndex = 0;
  if (!r.top) tr.classList.add('nested');
  if (selected) tr.classList.add('selected');
  if (selected) tr.setAttribute('aria-selected', 'true');
  const line = el('td');
  const b = el('button', String(r.line), 'line-button');
  b.type = 'button';
  b.dataset.index = String(r.index);
  b.setAttribute('aria-label', `select line ${r.line}, ${r.op}`);
  line.append(b);
  const op = el('td', '', 'text');
  op.append(el('code', r.op));
  if (r.where) op.append(el('span', ` in ${r.where}`, 'where'));
  if (!r.modeled) op.append(el('span', ' (unmodeled)', 'where'));
  if (r.note) op.title = r.note;
  tr.append(line, op, el('td', r.shape, 'text shape'), el('td', num(r.flops)), el('td', num(r.transcendentals)), el('td', num(r.bytes)),
    el('td', r.intensity === null ? '—' : short(r.intensity)), el('td', r.bound ?? '—', 'text'), el('td', percent(r.flopShare)), el('td', percent(r.byteShare)),
    el('td', r.seconds === null ? '—' : `${sci(r.seconds, 3)} s`, 'measured'), el('td', num(r.gflops), 'measured'), el('td', num(r.gbs), 'measured'),
    el('td', percent(r.ofRoof), 'measured'));
  return tr;
}

/** Draws the rows of `view` (deriveAnalyzeView) in the order of `sort`, marking `selected`. */
export function renderAnalyzeTable(view, sort, selected) {
  for (const th of document.querySelectorAll('#analyze-ops thead th')) {
    const on = th.dataset.key === sort.key;
    if (on) th.setAttribute('aria-sort', sort.dir === 'asc' ? 'ascending' : 'descending');
    else th.removeAttribute('aria-sort');
    th.querySelector('button').textContent = `${COLUMNS.find(([k]) => k === th.dataset.key)[1]}${on ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}`;
  }
  const shown = view.sorted.slice(0, ROW_LIMIT);
  if (selected !== null && !shown.some((r) => r.index === selected)) shown.push(view.rows[selected]);
  const body = $('#analyze-ops tbody');
  // Redrawing replaces the rows: the keyboard's place (a row or its line button) is kept.
  const focused = body.contains(document.activeElement) ? document.activeElement : null;
  const focusIndex = focused?.closest('tr[data-index]')?.dataset.index ?? null;
  const onButton = focused?.tagName === 'BUTTON';
  body.replaceChildren(...shown.map((r) => rowElement(r, r.index === selected)));
  if (focusIndex !== null) {
    const tr = body.querySelector(`tr[data-index="${focusIndex}"]`);
    (onButton ? tr?.querySelector('button') : tr)?.focus({ preventScroll: true });
  }
  const nested = view.rows.filter((r) => !r.top).length;
  $('#analyze-table-note').textContent = [
    `${view.rows.length} ops${view.rows.length > ROW_LIMIT ? `; the first ${ROW_LIMIT} in this order are shown (sort to see others)` : ''}.`,
    nested ? `${nested} of them sit inside a fusion, loop body or region (marked "in …", lighter): their costs are already in the row of the op that holds them, so the shares of the top-level ops sum to 100%.` : '',
    `Bound: compute time (flops / peak) against memory time (bytes / bandwidth) under ${view.roof.label}.`,
  ].filter(Boolean).join(' ');
}

/** Focuses the selected row's button (after a click on the figure, for keyboard users). */
export function scrollToSelected() {
  const tr = document.querySelector('#analyze-ops tbody tr.selected');
  tr?.scrollIntoView({ block: 'nearest' });
}
