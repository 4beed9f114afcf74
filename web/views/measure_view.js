// Section 4: runs the measurements on the Worker pool (1 core, then all cores), shows progress,
// cancel and the results: one column per core count. All text goes in with textContent; every
// value here is a measurement of this machine.
import { checkWorkerCount, CancelledError } from '../pool.js';
import { LEVELS, MEASUREMENT_LABEL } from '../model/measure.js';
import { parseNumber } from '../model/parse.js';
import { sci, short } from '../model/format.js';
import { $, el, fillRows, startStopSwitch } from './dom.js';

const LEVEL_NAME = { l1: 'L1', l2: 'L2', memory: 'memory' };
const coresName = (c) => (c === 1 ? '1 core' : `${c} cores at once`);

/** The summary table's rows: [quantity, value per core count…, ratio, how]. Pure. */
export function summaryRows(m) {
  const c = m.measured_ceilings;
  const counts = c.cores;
  const all = counts[counts.length - 1];
  const ratio = (values) =>
    counts.length > 1 && values[0] > 0 ? `${short(values[values.length - 1] / values[0])}×` : '—';
  const rows = [];
  for (const size of [...new Set(m.kernel_timings.map((t) => t.m))]) {
    const values = counts.map((n) => m.kernel_timings.find((t) => t.m === size && t.cores === n)?.gflops);
    const best = m.kernel_timings.find((t) => t.m === size && t.cores === all);
    rows.push([
      `tanh(A@B) at ${size}³, GFLOP/s (median)`,
      ...values.map((v) => (v === undefined ? '—' : short(v))),
      ratio(values) +
        (best && best.cores > 1 && best.efficiency !== null ? ` (efficiency ${short(best.efficiency * 100)}%)` : ''),
      'B packed once; each Worker computes its block of rows',
    ]);
  }
  const compute = counts.map((n) => c.by_cores[n].gflops);
  rows.push([
    'compute ceiling, GFLOP/s',
    ...compute.map((v) => short(v)),
    ratio(compute),
    'independent f32x4 multiply-add chains, per Worker',
  ]);
  for (const level of LEVELS) {
    const values = counts.map((n) => c.by_cores[n].bandwidth_gbs[level]);
    const sets = counts.map((n) => c.by_cores[n].working_set_bytes[level]);
    const size = (b) => (b >= 1048576 ? `${short(b / 1048576)} MiB` : `${short(b / 1024)} KiB`);
    rows.push([
      `bandwidth, ${LEVEL_NAME[level]}-sized, GB/s`,
      ...values.map((v) => short(v)),
      ratio(values),
      `triad over ${sets.map(size).join(' / ')} per Worker${level === 'memory' && counts.length > 1 ? ' (96 MiB shared out)' : ''}`,
    ]);
  }
  return rows;
}

/** The timing table's rows: the lesson's size, then each kernel timing (1 core, all cores). Pure. */
export function timingRows(m) {
  const t = m.timing;
  const ticks = (repeats, min, resolution) => short((repeats * min) / resolution);
  return [
    [
      '32×16×8',
      '1',
      m.local_samples_seconds.map((s) => sci(s)).join(', '),
      sci(t.median),
      sci(t.min),
      sci(t.max),
      String(t.repeats),
      `${sci(t.timer_resolution)} s`,
      ticks(t.repeats, t.min, t.timer_resolution),
      short(t.gflops),
    ],
    ...m.kernel_timings.map((k) => [
      `${k.m}×${k.k}×${k.n}`,
      String(k.cores),
      k.seconds_per_call.map((s) => sci(s)).join(', '),
      sci(k.median),
      sci(k.min),
      sci(k.max),
      String(k.repeats),
      `${sci(k.timer_resolution)} s`,
      ticks(k.repeats, k.min, k.timer_resolution),
      short(k.gflops),
    ]),
  ];
}

export function renderMeasurements(m) {
  $('#measure-results').hidden = !m;
  if (!m) return;
  $('#lesson-size-note').textContent = m.timing.note;
  const problem = $('#all-cores-error');
  problem.hidden = !m.workers?.all_cores_error;
  problem.textContent = m.workers?.all_cores_error
    ? `All cores not measured: ${m.workers.all_cores_error}. The single-core results are complete.`
    : '';
  const head = el('tr');
  head.append(
    el('th', 'measured'),
    ...m.measured_ceilings.cores.map((c) => el('th', coresName(c))),
    el('th', 'all ÷ 1 core'),
    el('th', 'how'),
  );
  $('#measured-ceilings thead').replaceChildren(head);
  fillRows($('#measured-ceilings tbody'), summaryRows(m));
  fillRows($('#timing tbody'), timingRows(m));
}

/**
 * Wires the form.
 * @param {{run: (options: {samples: number, workers: number}, onProgress: Function) => Promise<object>,
 *          cancel: () => void, checkSamples: (n: number) => {ok: boolean, error?: string},
 *          defaultWorkers: number, hardwareCores: number|null,
 *          onResult: (measurements: object) => void}} io  checkSamples: the harness's rule (the core's)
 */
export function bindMeasureView({ run, cancel, checkSamples, defaultWorkers, hardwareCores, onResult }) {
  const form = $('#measure-form');
  const status = $('#measure-status');
  const progress = $('#measure-progress');
  const start = $('#measure');
  const stop = $('#cancel');
  const samplesInput = form.elements.samples;
  const workersInput = form.elements.workers;
  workersInput.value = String(defaultWorkers);
  $('#workers-note').textContent =
    `This browser reports ${hardwareCores ?? 'an unknown number of'} logical cores ` +
    `(navigator.hardwareConcurrency); the page uses ${defaultWorkers} Worker${defaultWorkers === 1 ? '' : 's'} for "all cores" ` +
    '(at most 16 unless you ask for more, up to 64), each with its own copy of the core.';

  const results = $('#measure-results');
  // Focus: Measure hands it to Cancel, the run's end to the results or back to Measure.
  const switchRunning = startStopSwitch(start, stop, [samplesInput, workersInput]);
  const setRunning = (running) => {
    progress.hidden = !running;
    return switchRunning(running);
  };
  const refuse = (input, message) => {
    status.textContent = message;
    input.setAttribute('aria-invalid', 'true');
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const parsed = parseNumber('samples', samplesInput.value);
    const checked = parsed.ok ? checkSamples(parsed.value) : parsed;
    if (!checked.ok) {
      refuse(samplesInput, checked.error);
      return;
    }
    const samples = parsed.value;
    samplesInput.setAttribute('aria-invalid', 'false');
    const parsedWorkers = parseNumber('Workers', workersInput.value);
    const workers = parsedWorkers.ok ? checkWorkerCount(parsedWorkers.value, 'Workers') : parsedWorkers;
    if (!workers.ok) {
      refuse(workersInput, workers.error);
      return;
    }
    workersInput.setAttribute('aria-invalid', 'false');
    setRunning(true);
    progress.value = 0;
    status.textContent = 'starting the Workers…';
    let measured = false;
    try {
      const value = await run({ samples, workers: workers.value }, (done, total, label) => {
        progress.max = total;
        progress.value = done;
        status.textContent = done < total ? `${done + 1}/${total}: ${label}…` : 'done';
      });
      status.textContent = `Done: ${MEASUREMENT_LABEL}.`;
      onResult(value);
      measured = true;
    } catch (e) {
      status.textContent =
        e instanceof CancelledError
          ? 'Cancelled; the earlier results (if any) are kept.'
          : `Measurement failed: ${e.message}`;
    } finally {
      // Results: focus goes to them (their region is focusable); otherwise back to Measure.
      if (setRunning(false) && measured && !results.hidden) results.focus();
    }
  });
  stop.addEventListener('click', () => cancel());
}
