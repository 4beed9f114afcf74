// Section 6: the traffic experiment's table and the sentence that says which sizes change bound;
// then "measure it": the same experiment run on this machine in a Worker (core.measureTraffic).
import { CancelledError } from '../pool.js';
import { short } from '../model/format.js';
import {
  trafficMeasuredNotes,
  trafficMeasuredRows,
  trafficMeasuredSummary,
  trafficStaleNote,
} from '../model/traffic_measured.js';
import { $, el, fillRows, startStopSwitch } from './dom.js';

export function renderExperiment(state) {
  const f = state.figure;
  if (!f) return;
  const factor = short(f.factor);
  fillRows(
    $('#traffic tbody'),
    f.traffic.map((r) => [
      r.n,
      short(r.ceiling),
      short(r.revised_ceiling),
      r.bound,
      r.revised_bound,
      r.bound_changed ? ['yes', 'changed'] : 'no',
    ]),
  );
  const changed = f.traffic.filter((r) => r.bound_changed);
  const summary =
    changed.length === 0
      ? `With ${factor}× the traffic, no size changes bound.`
      : `With ${factor}× the traffic, ${changed
          .map(
            (r) =>
              `n=${r.n} changes bound: ${r.bound} at ${short(r.ceiling)} GFLOP/s → ${r.revised_bound} at ${short(r.revised_ceiling)} GFLOP/s`,
          )
          .join('; ')}.`;
  $('#traffic-summary').textContent = summary;
}

/** "Measure it": the last measurement (a measurement of this machine), marked stale when the factor has moved since. */
export function renderTrafficMeasurement(state) {
  const m = state.trafficMeasurement;
  const box = $('#traffic-measured');
  box.hidden = !m;
  if (!m) return;
  $('#traffic-measured-summary').textContent = trafficMeasuredSummary(m);
  const stale = trafficStaleNote(m, state.figure?.factor);
  $('#traffic-measured-stale').hidden = !stale;
  $('#traffic-measured-stale').textContent = stale ?? '';
  fillRows($('#traffic-measured-table tbody'), trafficMeasuredRows(m));
  $('#traffic-measured-notes').replaceChildren(...trafficMeasuredNotes(m).map((note) => el('li', note)));
}

/**
 * Wires "measure it".
 * @param {{run: (factor: number, reread: string) => Promise<object>, cancel: () => void,
 *          factor: () => number|null, onResult: (measurement: object) => void}} io
 */
export function bindTrafficMeasureView({ run, cancel, factor, onResult }) {
  const form = $('#traffic-measure-form');
  const start = $('#traffic-measure');
  const stop = $('#traffic-cancel');
  const status = $('#traffic-measure-status');
  const reread = form.elements.reread;
  const setRunning = startStopSwitch(start, stop, [reread]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const f = factor();
    if (f === null || f === undefined) {
      status.textContent = 'Not measured: the traffic factor above has no valid value yet.';
      return;
    }
    setRunning(true);
    status.textContent = `Measuring at 1× and ${short(f)}× in a Worker (four timed runs of a 64 MiB array: a few seconds)…`;
    let measured = false;
    try {
      const value = await run(f, reread.value);
      onResult(value);
      status.textContent = 'Done: measurements of this machine.';
      measured = true;
    } catch (e) {
      status.textContent =
        e instanceof CancelledError
          ? 'Cancelled; the earlier results (if any) are kept.'
          : `Not measured: ${e.message}`;
    } finally {
      if (setRunning(false) && measured) $('#traffic-measured').focus();
    }
  });
  stop.addEventListener('click', () => cancel());
}
