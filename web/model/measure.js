// What "measure this machine" runs, as a list of steps, shared by `node scripts/lesson.mjs`
// and the page's Web Worker. Each step is one synchronous call into the wasm core; whoever
// runs them reports progress between steps (and the page cancels by ending the Worker).
// Every value here is a measurement of this machine, kept apart from the model's numbers.

export const MEASUREMENT_LABEL = 'measurements of this machine (wasm in this JS engine), not the model and not a device specification';

// reference/lesson.md: say this next to any measurement of the lesson's size.
export const LESSON_SIZE_NOTE =
  "The lesson's operands total 3.5 KiB and live in L1: at this size timer resolution, call " +
  'overhead and tanh dominate, and a DRAM bandwidth roof is the wrong roof. The 256×256×256 ' +
  'row is the meaningful rate.';

export const BIG_SIZE = 256;

/**
 * @param core the object loadCore returns
 * @param {{samples?: number, minSeconds?: number}} options  samples per timing (5, as the seed)
 * @returns {{key: string, label: string, run: () => {ok: boolean, value?: any, error?: string}}[]}
 */
export function measurementSteps(core, { samples = 5, minSeconds = 0.05 } = {}) {
  return [
    { key: 'lesson', label: 'timing tanh(a@b) at 32×16×8', run: () => core.timeKernel(undefined, 32, 16, 8, samples, 0) },
    { key: 'big', label: `timing tanh(A@B) at ${BIG_SIZE}³`, run: () => core.timeKernel(undefined, BIG_SIZE, BIG_SIZE, BIG_SIZE, samples, minSeconds) },
    { key: 'compute', label: 'compute ceiling (f32x4 mul+add chains)', run: () => core.measureCompute(minSeconds) },
    { key: 'l1', label: 'bandwidth, L1-sized working set', run: () => core.measureBandwidth('l1', minSeconds) },
    { key: 'l2', label: 'bandwidth, L2-sized working set', run: () => core.measureBandwidth('l2', minSeconds) },
    { key: 'memory', label: 'bandwidth, memory-sized working set', run: () => core.measureBandwidth('memory', minSeconds) },
  ];
}

/** Puts the steps' values (by key) into the report's measurement fields. */
export function assembleMeasurements(values) {
  const t = values.lesson;
  const big = values.big;
  return {
    measurements_label: MEASUREMENT_LABEL,
    local_samples_seconds: t.seconds_per_call,
    timing: {
      variant: t.variant, median: t.median, min: t.min, max: t.max, repeats: t.repeats,
      timer_resolution: t.timer_resolution, warm_seconds: t.warm_seconds, gflops: t.gflops_median, note: LESSON_SIZE_NOTE,
    },
    bigger_size_timing: {
      variant: big.variant, m: big.m, k: big.k, n: big.n, median: big.median, min: big.min, max: big.max,
      repeats: big.repeats, timer_resolution: big.timer_resolution, gflops: big.gflops_median,
    },
    measured_ceilings: {
      gflops: values.compute.gflops,
      bandwidth_gbs: { l1: values.l1.gbs, l2: values.l2.gbs, memory: values.memory.gbs },
      working_set_bytes: { l1: values.l1.working_set_bytes, l2: values.l2.working_set_bytes, memory: values.memory.working_set_bytes },
    },
  };
}

/** Runs every step in turn (blocking); onProgress(done, total, label) before each. */
export function runMeasurements(core, options, onProgress = () => {}) {
  const steps = measurementSteps(core, options);
  const values = {};
  for (const [i, step] of steps.entries()) {
    onProgress(i, steps.length, step.label);
    const r = step.run();
    if (!r.ok) return { ok: false, error: `${step.label}: ${r.error}` };
    values[step.key] = r.value;
  }
  onProgress(steps.length, steps.length, 'done');
  return { ok: true, value: assembleMeasurements(values) };
}

/**
 * What the lesson's report needs of the measurements to draw this machine's roofs and point (the
 * `measured` extra of core.lessonReport), or undefined before a measurement. Reads only the fields
 * it needs, so the measurements may carry more (per core count, say) without changing it.
 * @param {object|null} measurements  assembleMeasurements(...)
 */
export function measuredForReport(measurements) {
  if (!measurements) return undefined;
  const c = measurements.measured_ceilings;
  const big = measurements.bigger_size_timing;
  return {
    gflops: c.gflops,
    bandwidth_gbs: { ...c.bandwidth_gbs },
    point: { m: big.m, k: big.k, n: big.n, gflops: big.gflops },
  };
}
