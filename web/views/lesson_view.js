// Sections 1–3 and the seed's printout: draws the lesson's report into index.html's skeleton.
// Text goes in with textContent only. (Inputs: inputs_view.js; figure: figure_view.js;
// experiment: experiment_view.js; exercise: exercise_view.js.)
import { reportLines } from '../model/lesson.js';
import { grouped, sci, short } from '../model/format.js';
import { $, fillRows, setField } from './dom.js';

/** Sections 1–3 and the printout, from the last valid report. */
export function renderReport(state) {
  const r = state.report;
  if (!r) return;
  renderLowered(r);
  const kc = r.kernel_check;
  $('#kernel-check').textContent =
    `${kc.passed ? 'Passed' : 'FAILED'}: max |x − y| = ${sci(kc.max_abs_error)} over the 32×8 outputs ` +
    `(kernel ${kc.variant}; the tightest output used ${short(100 * kc.worst_ratio, 2)}% of its allowance).`;
  renderIrCheck(state.lessonChecks ?? null, r);
  const acc = r.matmul_accounting;
  const dtype = r.stablehlo ? `${r.stablehlo.dtype}, ` : '';
  setField('shape', `(${acc.m}×${acc.k})·(${acc.k}×${acc.n}), ${dtype}itemsize ${acc.itemsize}`);
  setField('flops', grouped(acc.flops_exact));
  setField('minimum_bytes', grouped(acc.minimum_bytes_exact));
  setField('intensity', `${acc.flops_per_byte_fraction} ≈ ${short(acc.flops_per_byte)}`);
  setField('peak', short(r.budgets.peak));
  setField('bandwidth', short(r.budgets.bandwidth));
  setField('ridge', short(r.ridge));
  setField('traffic_factor', short(r.traffic_factor));
  fillRows(
    $('#sizes tbody'),
    r.sizes.map((n, i) => [
      n,
      `${r.intensity_fraction[i]} ≈ ${short(r.intensity[i])}`,
      short(r.hypothetical_ceilings_gflops[i]),
      r.bounds[i],
    ]),
  );
  $('#seed-lines').textContent = reportLines(r).join('\n');
}

/**
 * Section 2's second check: the seed's StableHLO run by the interpreter, with both times. It is
 * the module section 1 shows only at the seed's sizes and dtype; otherwise the text says which ran.
 */
function renderIrCheck(checks, r) {
  const out = $('#ir-check');
  if (!checks) {
    out.textContent = "Running the lesson's StableHLO in the core's interpreter (in a Worker)…";
    return;
  }
  if (!checks.value) {
    out.textContent = `The lesson's StableHLO could not be run in the Worker: ${checks.error}`;
    return;
  }
  const { ir, kernel_seconds: kernel, kernel_variant: variant } = checks.value;
  const acc = r.matmul_accounting;
  const shown = acc.m === ir.m && acc.k === ir.k && acc.n === ir.n && r.stablehlo?.dtype === ir.dtype;
  const module = shown
    ? 'The StableHLO above'
    : `The seed's StableHLO (${ir.m}×${ir.k} · ${ir.k}×${ir.n}, ${ir.dtype}), not the module above`;
  out.textContent =
    `${module}, run by the core's interpreter on the same inputs (arguments: ${ir.inputs}): ` +
    `${ir.passed ? 'passed' : 'FAILED'}, max |x − y| = ${sci(ir.max_abs_error)} (the tightest output used ` +
    `${short(100 * ir.worst_ratio, 2)}% of its allowance). Time per run, measured on this machine: the IR's ${ir.ops} ops ${sci(ir.ops_seconds)} s, ` +
    `the hand-written kernel (${variant}) ${sci(kernel)} s (median).`;
}

/** The StableHLO text with dot_general and tanh marked, and the contract as checks. */
function renderLowered(r) {
  const pre = $('#stablehlo');
  const list = $('#contract');
  const ce = r.cost_estimate;
  if (!r.stablehlo) {
    pre.textContent = `Not shown: ${r.stablehlo_unavailable}.`;
    list.replaceChildren();
    $('#cost tbody').replaceChildren();
    $('#cost tfoot').replaceChildren();
    $('#cost-note').textContent = '';
    return;
  }
  const parts = r.stablehlo.text.split(/(stablehlo\.dot_general|stablehlo\.tanh)/);
  pre.replaceChildren(
    ...parts.map((part) => {
      if (part !== 'stablehlo.dot_general' && part !== 'stablehlo.tanh') return document.createTextNode(part);
      const mark = document.createElement('mark');
      mark.textContent = part;
      return mark;
    }),
  );
  const c = r.stablehlo.contract;
  const checks = [
    [c.dot_general && c.tanh, 'operations present: dot_general and tanh'],
    [
      true,
      `contracting sizes equal: a is ${c.lhs.join('×')}, b is ${c.rhs.join('×')}; ${c.contracting}, both ${c.lhs[1]}`,
    ],
    [c.verified, `result shape: ${c.result.join('×')} (${c.result_type}), checked by the core's verifier`],
  ];
  list.replaceChildren(
    ...checks.map(([ok, text]) => {
      const li = document.createElement('li');
      li.textContent = `${ok ? '✓' : '✗'} ${text}`;
      return li;
    }),
  );
  const cell = (tag, text) => {
    const el = document.createElement(tag);
    el.textContent = text;
    return el;
  };
  $('#cost tbody').replaceChildren(
    ...ce.per_op.map((o) => {
      const tr = document.createElement('tr');
      tr.append(
        cell('td', String(o.line)),
        cell('td', o.op),
        cell('td', grouped(o.flops)),
        cell('td', grouped(o.transcendentals)),
        cell('td', grouped(o.bytes_accessed)),
      );
      return tr;
    }),
  );
  // The total's row header spans the line and op columns (an empty header cell names nothing).
  const total = document.createElement('tr');
  const head = cell('th', 'program');
  head.colSpan = 2;
  head.scope = 'row';
  total.append(
    head,
    cell('td', grouped(ce.flops)),
    cell('td', grouped(ce.transcendentals)),
    cell('td', grouped(ce.bytes_accessed)),
  );
  $('#cost tfoot').replaceChildren(total);
  $('#cost-note').textContent =
    `Bytes accessed ${grouped(ce.bytes_accessed)} = minimum traffic ${grouped(ce.minimum_traffic_bytes)} (arguments and result once) + ` +
    `${grouped(ce.bytes_accessed - ce.minimum_traffic_bytes)} for the intermediate a@b written and read back; flops count the ` +
    'multiply-adds of the dot only, tanh is a transcendental.' +
    (c.lhs.join() === '32,16' && c.rhs.join() === '16,8' && r.stablehlo.dtype === 'f32'
      ? " For these shapes XLA's own CPU cost analysis recorded the same: flops 8192, transcendentals 256, bytes accessed 5632 (JAX 0.9.2)."
      : '');
}
