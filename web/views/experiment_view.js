// Section 6: the traffic experiment's table and the sentence that says which sizes change bound.
import { short } from '../model/format.js';
import { $, fillRows } from './dom.js';

export function renderExperiment(state) {
  const f = state.figure;
  if (!f) return;
  const factor = short(f.factor);
  fillRows($('#traffic tbody'), f.traffic.map((r) => [
    r.n, short(r.ceiling), short(r.revised_ceiling), r.bound, r.revised_bound,
    r.bound_changed ? ['yes', 'changed'] : 'no',
  ]));
  const changed = f.traffic.filter((r) => r.bound_changed);
  const summary = changed.length === 0
    ? `With ${factor}× the traffic, no size changes bound.`
    : `With ${factor}× the traffic, ${changed.map((r) =>
      `n=${r.n} changes bound: ${r.bound} at ${short(r.ceiling)} GFLOP/s → ${r.revised_bound} at ${short(r.revised_ceiling)} GFLOP/s`).join('; ')}.`;
  $('#traffic-summary').textContent = summary;
}
