// Section 8's per-op table: sortable by every column (the headers are buttons, so the keyboard
// sorts too), a row per op drawn a page (TABLE_PAGE rows) at a time in the chosen order, with
// First / Previous / Next / Last, and selection: a click on a row (or its line button) or Enter
// on a focused row selects it; the selected row is marked. The measured columns are a run's
// (this machine's measurements), '—' until the program is run.
import { fusedOpsText, overRoofNote, TABLE_PAGE, VIEW_NOTE, VIEW_TITLE } from '../model/analysis_view.js';
import { grouped, percent, sci, short } from '../model/format.js';
import { $, el } from './dom.js';

const COLUMNS = [
  ['line', 'line'],
  ['op', 'op'],
  ['shape', 'shape'],
  ['flops', 'flops'],
  ['transcendentals', 'transcen\u00addentals'],
  ['bytes', 'bytes accessed'],
  ['intensity', 'intensity (flops/byte)'],
  ['bound', 'bound under the roof'],
  ['flopShare', 'share of flops'],
  ['byteShare', 'share of bytes'],
  ['seconds', 'measured time'],
  ['gflops', 'achieved GFLOP/s'],
  ['gbs', 'achieved GB/s'],
  ['ofRoof', 'share of the roof reached'],
];
/** The measured columns (a run's, this machine's): marked as measurements. */
const MEASURED = new Set(['seconds', 'gflops', 'gbs', 'ofRoof']);

// Exact counts with their thousands grouped (format.js's grouped, as sections 2 and 3 print them).
const num = (x) =>
  x === null || x === undefined ? '—' : Number.isInteger(x) && Math.abs(x) < 1e15 ? grouped(x) : short(x);

/** The page a button asks for, from the page on show and the number of pages. */
const PAGE_MOVES = { first: () => 0, previous: (p) => p - 1, next: (p) => p + 1, last: (_p, pages) => pages - 1 };

/**
 * @param {{onSort: (key: string) => void, onSelect: (index: number) => void,
 *          onPage: (move: (page: number, pages: number) => number) => void}} handlers
 */
export function bindAnalyzeTable({ onSort, onSelect, onPage }) {
  for (const b of document.querySelectorAll('#analyze-pages button'))
    b.addEventListener('click', () => onPage(PAGE_MOVES[b.dataset.page]));
  const head = $('#analyze-ops thead tr');
  head.replaceChildren(
    ...COLUMNS.map(([key, label]) => {
      const th = el('th');
      th.scope = 'col';
      th.dataset.key = key;
      const b = el('button', label, 'sort');
      b.type = 'button';
      b.addEventListener('click', () => onSort(key));
      th.append(b);
      if (MEASURED.has(key)) th.classList.add('measured');
      return th;
    }),
  );
  // The whole row selects: a click anywhere on it, or Enter on the focused row (or its line button).
  const body = $('#analyze-ops tbody');
  body.addEventListener('click', (e) => {
    const tr = e.target.closest('tr[data-index]');
    if (tr) onSelect(Number(tr.dataset.index));
  });
  body.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName === 'BUTTON') return; // a button's Enter is its click
    const tr = e.target.closest('tr[data-index]');
    if (!tr) return;
    e.preventDefault();
    onSelect(Number(tr.dataset.index));
  });
}

function rowElement(r, selected, fusions, inFusion) {
  const tr = el('tr');
  tr.dataset.index = String(r.index);
  tr.tabIndex = 0;
  if (!r.top) tr.classList.add('nested');
  if (selected) tr.classList.add('selected');
  if (selected) tr.setAttribute('aria-selected', 'true');
  if (inFusion) {
    tr.classList.add('in-fusion');
    tr.dataset.fusion = String(r.fusion);
  }
  // An op that ran inside a fusion has no time of its own: the fusion's time is in its row below.
  const fused = r.fusion !== null && r.fusion !== undefined ? fusions[r.fusion] : null;
  const measuredCells = fused
    ? [
        (() => {
          const names = [fused, ...(r.alsoIn ?? []).map((j) => fusions[j])].map((f) => `${f.name} (${f.kind})`);
          const td = el(
            'td',
            `ran in ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]}`,
            'measured text fused-in',
          );
          td.colSpan = 4;
          return td;
        })(),
      ]
    : [
        el('td', r.seconds === null ? '—' : `${sci(r.seconds, 3)} s`, 'measured'),
        el('td', num(r.gflops), 'measured'),
        el('td', num(r.gbs), 'measured'),
        r.view
          ? Object.assign(el('td', VIEW_NOTE, 'measured text'), { title: VIEW_TITLE })
          : el('td', percent(r.ofRoof), 'measured'),
      ];
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
  tr.append(
    line,
    op,
    el('td', r.shape, 'text shape'),
    el('td', num(r.flops)),
    el('td', num(r.transcendentals)),
    el('td', num(r.bytes)),
    el('td', r.intensity === null ? '—' : short(r.intensity)),
    el('td', r.bound ?? '—', 'text'),
    el('td', percent(r.flopShare)),
    el('td', percent(r.byteShare)),
    ...measuredCells,
  );
  return tr;
}

/** The page that holds the row at position `at` of the chosen order. */
export const pageOf = (at) => Math.floor(at / TABLE_PAGE);

/**
 * Draws page `page` of the rows of `view` (deriveAnalyzeView) in the order of `sort`, marking
 * `selected`, and the ops of `fusion` (a selected fusion of the run, or null).
 */
export function renderAnalyzeTable(view, sort, selected, page = 0, fusion = null) {
  for (const th of document.querySelectorAll('#analyze-ops thead th')) {
    const on = th.dataset.key === sort.key;
    if (on) th.setAttribute('aria-sort', sort.dir === 'asc' ? 'ascending' : 'descending');
    else th.removeAttribute('aria-sort');
    th.querySelector('button').textContent =
      `${COLUMNS.find(([k]) => k === th.dataset.key)[1]}${on ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}`;
  }
  const n = view.sorted.length;
  const pages = Math.max(1, Math.ceil(n / TABLE_PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const first = p * TABLE_PAGE;
  const shown = view.sorted.slice(first, first + TABLE_PAGE);
  const body = $('#analyze-ops tbody');
  // Redrawing replaces the rows: the keyboard's place (a row or its line button) is kept.
  const focused = body.contains(document.activeElement) ? document.activeElement : null;
  const focusIndex = focused?.closest('tr[data-index]')?.dataset.index ?? null;
  const onButton = focused?.tagName === 'BUTTON';
  const members = new Set(fusion?.indices ?? []);
  body.replaceChildren(
    ...shown.map((r) => rowElement(r, r.index === selected, view.fusions ?? [], members.has(r.index))),
  );
  if (focusIndex !== null) {
    const tr = body.querySelector(`tr[data-index="${focusIndex}"]`);
    (onButton ? tr?.querySelector('button') : tr)?.focus({ preventScroll: true });
  }
  const nav = $('#analyze-pages');
  nav.hidden = pages === 1;
  // A page button that becomes disabled would drop the keyboard's focus to <body>: it moves to
  // the one that still leads somewhere.
  const had = nav.contains(document.activeElement) ? document.activeElement.dataset.page : null;
  for (const b of nav.querySelectorAll('button'))
    b.disabled = ['first', 'previous'].includes(b.dataset.page) ? p === 0 : p === pages - 1;
  if (had && nav.querySelector(`[data-page="${had}"]`).disabled) {
    nav.querySelector(['first', 'previous'].includes(had) ? '[data-page="next"]' : '[data-page="previous"]')?.focus();
  }
  $('#analyze-page-status').textContent =
    pages === 1 ? '' : `rows ${first + 1}–${first + shown.length} of ${n} (page ${p + 1} of ${pages})`;
  const nested = view.rows.filter((r) => !r.top).length;
  $('#analyze-table-note').textContent = [
    `${n} ops${pages > 1 ? `, ${TABLE_PAGE} to a page in the chosen order (sort by a column to bring its largest first)` : ''}.`,
    nested
      ? `${nested} of them sit inside a fusion, loop body or region (marked "in …", lighter): their costs are already in the row of the op that holds them, so the shares of the top-level ops sum to 100%.`
      : '',
    `Bound: compute time (flops / peak) against memory time (bytes / bandwidth) under ${view.roof.label}.`,
    overRoofNote(view.rows.filter((r) => r.ofRoof > 1).length, view.roof),
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The table of a fused run's fusions, TABLE_PAGE to a page: a click on a row (or Enter on it)
 * selects the fusion; Previous / Next turn the page.
 * @param {{onSelect: (fusion: number) => void, onPage: (step: number) => void}} handlers
 */
export function bindAnalyzeFusions({ onSelect, onPage }) {
  for (const b of document.querySelectorAll('#analyze-fusion-pages button'))
    b.addEventListener('click', () => onPage(b.dataset.page === 'next' ? 1 : -1));
  const body = $('#analyze-fusions tbody');
  body.addEventListener('click', (e) => {
    const tr = e.target.closest('tr[data-fusion]');
    if (tr) onSelect(Number(tr.dataset.fusion));
  });
  body.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const tr = e.target.closest('tr[data-fusion]');
    if (!tr) return;
    e.preventDefault();
    onSelect(Number(tr.dataset.fusion));
  });
}

/** Draws page `page` of the run's fusions (view.fusions, the core's grouping and numbers), marking `selected`; hidden for an op-by-op run. */
export function renderAnalyzeFusions(view, selected, page = 0) {
  const box = $('#analyze-fusions-box');
  const fusions = view.fusions ?? [];
  box.hidden = fusions.length === 0;
  if (box.hidden) return;
  const pages = Math.max(1, Math.ceil(fusions.length / TABLE_PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const nav = $('#analyze-fusion-pages');
  nav.hidden = pages === 1;
  const had = nav.contains(document.activeElement) ? document.activeElement.dataset.page : null;
  for (const b of nav.querySelectorAll('button'))
    b.disabled = b.dataset.page === 'previous' ? p === 0 : p === pages - 1;
  if (had && nav.querySelector(`[data-page="${had}"]`).disabled)
    nav.querySelector(`[data-page="${had === 'next' ? 'previous' : 'next'}"]`)?.focus();
  $('#analyze-fusion-page-status').textContent =
    pages === 1
      ? ''
      : `fusions ${p * TABLE_PAGE + 1}–${Math.min(fusions.length, (p + 1) * TABLE_PAGE)} of ${fusions.length} (page ${p + 1} of ${pages})`;
  const body = $('#analyze-fusions tbody');
  const focused = body.contains(document.activeElement)
    ? (document.activeElement.closest('tr')?.dataset.fusion ?? null)
    : null;
  body.replaceChildren(
    ...fusions.slice(p * TABLE_PAGE, (p + 1) * TABLE_PAGE).map((f) => {
      const tr = el('tr');
      tr.dataset.fusion = String(f.fusion);
      tr.tabIndex = 0;
      if (f.fusion === selected) {
        tr.classList.add('selected');
        tr.setAttribute('aria-selected', 'true');
      }
      const ops = el('td', '', 'text');
      ops.append(el('span', fusedOpsText(f, 50)));
      if (f.within)
        ops.append(el('span', ` — in the body of ${f.within.op} at line ${f.within.line} (timed with it)`, 'where'));
      if (f.fallback) ops.append(el('span', ` — ran op by op inside it: ${f.fallback}`, 'where'));
      const name = el('td', '', 'text');
      name.append(el('code', f.name));
      tr.append(
        name,
        el('td', f.kind, 'text'),
        ops,
        el('td', num(f.flops)),
        el('td', num(f.bytes)),
        el('td', f.intensity === null ? '—' : short(f.intensity)),
        el('td', f.bound ?? '—', 'text'),
        el('td', f.seconds === null ? '—' : `${sci(f.seconds, 3)} s`, 'measured'),
        el('td', num(f.gflops), 'measured'),
        el('td', num(f.gbs), 'measured'),
        el('td', percent(f.ofRoof), 'measured'),
      );
      return tr;
    }),
  );
  if (focused !== null) body.querySelector(`tr[data-fusion="${focused}"]`)?.focus({ preventScroll: true });
  const inBodies = fusions.filter((f) => f.within).length;
  const overRoof = overRoofNote(fusions.filter((f) => f.ofRoof > 1).length, view.roof, 'fusion');
  const cpu = view.run?.report?.dot_epilogues === false;
  $('#analyze-fusions-note').textContent =
    `The run fused ${fusions.length} ${fusions.length === 1 ? 'group' : 'groups'} of ops as ${cpu ? "XLA's CPU backend would" : 'a compiler would'} (the core's fusion pass, XLA's rules, ` +
    (cpu
      ? "a dot's epilogue fused only as XLA's CPU backend fuses it, an add into a matrix-vector dot; "
      : "a dot's elementwise epilogue fused into it as XLA's GPU backend does; ") +
    `calls inlined first; node scripts/analyze.mjs --fused${cpu ? ' --xla-cpu' : ''} prints them as HLO). ` +
    'Its flops and bytes are estimates, its bound the model, its times measurements. ' +
    'Each ran as one loop with no intermediate tensors and was timed as one: ' +
    "its point on the roofline is at its own intensity (flops over the bytes at its boundary), and its ops' rows say which fusion they ran in. " +
    (inBodies
      ? `${inBodies} of them sit in a loop or call body: they ran each time it did, timed with the op that holds them. `
      : '') +
    "Select a row (or a fusion's point) to mark its ops in the table and its lines in the text." +
    (overRoof ? ` ${overRoof}` : '');
}

/** Focuses the selected row's button (after a click on the figure, for keyboard users). */
export function scrollToSelected() {
  const tr = document.querySelector('#analyze-ops tbody tr.selected');
  tr?.scrollIntoView({ block: 'nearest' });
}
