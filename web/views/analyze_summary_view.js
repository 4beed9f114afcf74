// Section 8's roofs (the chosen roof, the dtype its peak is read for, every roof's kind and
// sources) and the program summary: totals, the lower bound on time, fusion's savings,
// unmodeled ops and the core's notes.
import { grouped, percent, sci, short } from '../model/format.js';
import { $, el } from './dom.js';

const KIND_TAG = {
  hypothetical: ['hypothetical', 'hypothetical budgets, not a device'],
  measurement: ['measurement', 'measurement of this machine'],
  specification: ['model', 'vendor specification, not a measurement'],
};

const seconds = (s) => (s === null ? '—' : s === 0 ? '0 s' : `${sci(s, 4)} s`);
const count = (x) => (Number.isInteger(x) && Math.abs(x) < 1e15 ? grouped(x) : sci(x, 4));

/** @param {{onRoof: (id: string) => void, onDtype: (d: string) => void, onAllRoofs: (on: boolean) => void}} handlers */
export function bindAnalyzeSummary({ onRoof, onDtype, onAllRoofs }) {
  $('#analyze-roof').addEventListener('change', (e) => onRoof(e.target.value));
  $('#analyze-dtype').addEventListener('change', (e) => onDtype(e.target.value));
  $('#analyze-all-roofs').addEventListener('change', (e) => onAllRoofs(e.target.checked));
}

function renderRoofs(view, a) {
  const select = $('#analyze-roof');
  const ids = view.roofs.map((r) => r.id).join(',');
  if (select.dataset.ids !== ids || select.dataset.labels !== view.roofs.map((r) => r.label).join('|')) {
    select.replaceChildren(
      ...view.roofs.map((r) => {
        const o = el('option', r.label);
        o.value = r.id;
        return o;
      }),
    );
    select.dataset.ids = ids;
    select.dataset.labels = view.roofs.map((r) => r.label).join('|');
  }
  select.value = view.roof.id;
  $('#analyze-dtype').value = a.dtype;
  $('#analyze-all-roofs').checked = a.allRoofs;
  const r = view.roof;
  const [tag, words] = KIND_TAG[r.kind];
  const kind = $('#analyze-roof-kind');
  kind.replaceChildren(
    el('span', words, `tag ${tag}`),
    document.createTextNode(
      ` peak ${short(r.peak / 1e9)} GFLOP/s, bandwidth ${short(r.bandwidth / 1e9)} GB/s, ridge ${short(r.line.ridge)} flops/byte` +
        (r.interconnect ? `, interconnect ${short(r.interconnect / 1e9)} GB/s one way per chip` : '') +
        `. Peak for dtype ${view.dtype.used} (${view.dtype.from}); column used: ${r.dtype_used}.`,
    ),
  );
  $('#analyze-roof-notes').replaceChildren(
    ...[...r.notes, ...r.sources.map((s) => `source: ${s}`)].map((t) => el('li', t)),
  );
}

function row(label, value, className = '') {
  const tr = el('tr');
  const th = el('th', label);
  th.scope = 'row';
  tr.append(th, el('td', value, className));
  return tr;
}

function renderTotals(view) {
  const s = view.summary;
  const t = s.totals;
  const b = view.bound;
  const rows = [
    row('dialect', `${s.dialect}${s.modules.length > 1 ? ` (${s.modules.length} modules, summed)` : ''}`, 'text'),
    row('flops', count(t.flops)),
    row('transcendentals', count(t.transcendentals)),
    row('bytes accessed', count(t.bytes_accessed)),
    row('minimum traffic (arguments + results, once each)', count(t.minimum_traffic_bytes)),
    row('intensity (flops / bytes accessed)', t.intensity === null ? '—' : short(t.intensity)),
    row('compute time (flops / peak)', seconds(b.compute)),
    row('memory time (bytes accessed / bandwidth)', seconds(b.memory)),
  ];
  if (t.collective_bytes > 0) {
    rows.push(row('collective bytes per device', count(t.collective_bytes)));
    rows.push(
      row(
        'collectives time (collective bytes / interconnect)',
        b.collective === null ? b.collectives : seconds(b.collective),
        b.collective === null ? 'text' : '',
      ),
    );
  }
  // Ops without a cost rule add time the bound cannot see: it covers the modeled ops only, and
  // with none of those doing work it is unknown, not 0 s.
  const unmodeled = s.unmodeled.reduce((n, u) => n + u.count, 0);
  const modeledOnly = unmodeled ? `, the modeled ops only (${unmodeled} unmodeled not counted)` : '';
  const bound = (secs) => (unmodeled && secs === 0 ? 'unknown (only unmodeled ops do work)' : seconds(secs));
  const fb = view.fusedBound;
  const tagged = (tr, kind) => {
    tr.querySelector('th').append(' ', el('span', kind, `tag ${kind}`));
    return tr;
  };
  if (fb) {
    // A fused run: the bound from the bytes the run moved (at its fusions' boundaries) is the
    // true one; the unfused bytes' bound can exceed what was measured.
    rows.push(
      tagged(
        row(`lower bound on time under this roof, from the unfused bytes${modeledOnly}`, bound(b.seconds)),
        'estimate',
      ),
    );
    rows.push(
      tagged(
        row(
          `lower bound on time under this roof, from the fused bytes (${count(fb.bytes_accessed)} bytes at the run's fusion boundaries)${modeledOnly}`,
          bound(fb.seconds),
          'fused-bound',
        ),
        'estimate',
      ),
    );
  } else {
    rows.push(row(`lower bound on time under this roof${modeledOnly}`, bound(b.seconds)));
  }
  const run = view.run;
  const overBound = (m, which) =>
    m.over_bound > 0
      ? `${short(m.over_bound, 3)}× the ${which}lower bound (the program reaches ${percent(m.of_roof)} of this roof)`
      : unmodeled
        ? '— (only unmodeled ops do work: no bound)'
        : '— (no work: no bound)';
  if (run?.measured) {
    const m = run.measured;
    rows.push(
      tagged(
        row(
          `measured time on this machine (the timed ${run.measuredFused ? 'fusions and ops' : 'ops'} summed)`,
          seconds(m.seconds),
          'measured',
        ),
        'measurement',
      ),
    );
    if (run.measuredFused)
      rows.push(row('measured / fused lower bound', overBound(run.measuredFused, 'fused '), 'text measured'));
    rows.push(
      row(
        run.measuredFused ? 'measured / unfused lower bound' : 'measured / lower bound',
        overBound(m, run.measuredFused ? 'unfused ' : ''),
        'text measured',
      ),
    );
  } else if (run) {
    const why =
      run.report.status === 'not_run'
        ? 'not run (see "Run it in this browser"); the estimate stays'
        : run.report.untimed_ops > 0
          ? `no total: ${run.report.untimed_ops} ops ran untimed (the run's timing budget was spent)`
          : 'nothing was timed';
    rows.push(row('measured time on this machine', why, 'text'));
  }
  // A fused run: each lower bound above has its own bound (the fused bytes may move it to compute).
  rows.push(
    row(
      'bound by',
      fb && fb.bound !== b.bound
        ? `${b.bound ?? '—'} from the unfused bytes; ${fb.bound ?? '—'} from the fused bytes`
        : (b.bound ?? '—'),
      'text bound',
    ),
  );
  if (s.dialect === 'hlo' || t.unfused_bytes_accessed !== t.bytes_accessed) {
    const saved = t.unfused_bytes_accessed - t.bytes_accessed;
    rows.push(row('bytes at fusion boundaries', count(t.bytes_accessed)));
    rows.push(row('bytes if no op were fused (unfused sum)', count(t.unfused_bytes_accessed)));
    rows.push(
      row(
        'fusion saves',
        `${count(saved)} bytes${t.unfused_bytes_accessed > 0 ? ` (${short((100 * saved) / t.unfused_bytes_accessed, 3)}% of the unfused traffic)` : ''}`,
      ),
    );
  }
  $('#analyze-summary tbody').replaceChildren(...rows);
}

function renderNotes(view) {
  const s = view.summary;
  const items = [el('li', s.label)];
  if (view.summary.totals.collective_bytes === 0)
    items.push(el('li', 'No collectives in the program: no interconnect time.'));
  if (s.unmodeled.length)
    items.push(
      el('li', `Unmodeled (no cost rule; not counted): ${s.unmodeled.map((u) => `${u.op} ×${u.count}`).join(', ')}`),
    );
  else items.push(el('li', 'Every op has a cost rule.'));
  for (const r of view.rows) {
    if (/(^|\.)while$/.test(r.op) && r.note) items.push(el('li', `line ${r.line}, ${r.op}: ${r.note}`));
  }
  for (const n of s.notes) items.push(el('li', `note: ${n}`));
  $('#analyze-notes').replaceChildren(...items);
}

/** Draws the roofs and the summary for `view` (deriveAnalyzeView) and state.analyze `a`. */
export function renderAnalyzeSummary(view, a) {
  renderRoofs(view, a);
  renderTotals(view);
  renderNotes(view);
}
