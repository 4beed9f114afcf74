// Section 4: runs the measurements in the Worker, shows progress, cancel and the results.
// All text goes in with textContent; every value here is a measurement of this machine.
import { CancelledError } from '../measure_client.js';
import { MEASUREMENT_LABEL } from '../model/measure.js';
import { parseNumber } from '../model/parse.js';
import { sci, short } from '../model/format.js';

const $ = (selector) => document.querySelector(selector);

function row(cells) {
  const tr = document.createElement('tr');
  for (const cell of cells) {
    const td = document.createElement('td');
    td.textContent = cell;
    tr.append(td);
  }
  return tr;
}

export function renderMeasurements(m) {
  $('#measure-results').hidden = !m;
  if (!m) return;
  $('#lesson-size-note').textContent = m.timing.note;
  const t = m.timing;
  const big = m.bigger_size_timing;
  $('#timing tbody').replaceChildren(
    row(['32×16×8', m.local_samples_seconds.map((s) => sci(s)).join(', '), sci(t.median), sci(t.min), sci(t.max),
      String(t.repeats), `${sci(t.timer_resolution)} s`, short(t.gflops)]),
    row([`${big.m}×${big.k}×${big.n}`, '', sci(big.median), sci(big.min), sci(big.max), String(big.repeats),
      `${sci(big.timer_resolution)} s`, short(big.gflops)]),
  );
  const c = m.measured_ceilings;
  const kib = (b) => `${short(b / 1024)} KiB`;
  $('#measured-ceilings tbody').replaceChildren(
    row(['compute', `${short(c.gflops)} GFLOP/s`, 'independent f32x4 multiply-add chains']),
    row(['bandwidth, L1-sized', `${short(c.bandwidth_gbs.l1)} GB/s`, `triad over ${kib(c.working_set_bytes.l1)}`]),
    row(['bandwidth, L2-sized', `${short(c.bandwidth_gbs.l2)} GB/s`, `triad over ${kib(c.working_set_bytes.l2)}`]),
    row(['bandwidth, memory-sized', `${short(c.bandwidth_gbs.memory)} GB/s`, `triad over ${short(c.working_set_bytes.memory / 1048576)} MiB`]),
  );
}

/**
 * Wires the form. `onResult(measurements)` stores a finished measurement in the page state.
 * @param {import('../measure_client.js').MeasureClient} client
 */
export function bindMeasureView(client, onResult) {
  const form = $('#measure-form');
  const status = $('#measure-status');
  const progress = $('#measure-progress');
  const start = $('#measure');
  const cancel = $('#cancel');
  const samplesInput = form.elements.samples;

  const setRunning = (running) => {
    start.disabled = running;
    cancel.disabled = !running;
    progress.hidden = !running;
    samplesInput.disabled = running;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const parsed = parseNumber('samples', samplesInput.value);
    const samples = parsed.ok ? parsed.value : NaN;
    if (!parsed.ok || !(Number.isInteger(samples) && samples >= 1 && samples <= 1000)) {
      status.textContent = parsed.ok ? `samples must be an integer from 1 to 1000, got ${samplesInput.value.trim()}` : parsed.error;
      samplesInput.setAttribute('aria-invalid', 'true');
      return;
    }
    samplesInput.setAttribute('aria-invalid', 'false');
    setRunning(true);
    progress.value = 0;
    status.textContent = 'starting…';
    try {
      const value = await client.run({ samples }, (done, total, label) => {
        progress.max = total;
        progress.value = done;
        status.textContent = done < total ? `${done + 1}/${total}: ${label}…` : 'done';
      });
      status.textContent = `Done: ${MEASUREMENT_LABEL}.`;
      onResult(value);
    } catch (e) {
      status.textContent = e instanceof CancelledError ? 'Cancelled; the earlier results (if any) are kept.' : `Measurement failed: ${e.message}`;
    } finally {
      setRunning(false);
    }
  });
  cancel.addEventListener('click', () => client.cancel());
}
