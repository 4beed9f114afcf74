// "Measure this machine": what the measurements are, and the pure steps around them — the
// labels and notes, the plan of steps, the summary of one timing, the report's fields assembled
// from the steps' values, and what the lesson's report needs of them. No Workers and no clock
// here: web/measurements.js runs the steps on the pool. Every value is a measurement of this
// machine, kept apart from the model.

export const MEASUREMENT_LABEL =
  'measurements of this machine (wasm in this JS engine), not the model and not a device specification';

// reference/lesson.md: say this next to any measurement of the lesson's size.
export const LESSON_SIZE_NOTE =
  "The lesson's operands total 3.5 KiB and live in L1: at this size timer resolution, call " +
  'overhead and tanh dominate, and a DRAM bandwidth roof is the wrong roof. The 256×256×256 ' +
  'row is the meaningful rate.';

export const BIG_SIZE = 256;
/** The kernel sizes timed on 1 core and on all cores. */
export const KERNEL_SIZES = [256, 512];
export const LEVELS = ['l1', 'l2', 'memory'];

export const FORK_JOIN_NOTE =
  "Fork–join: each round sends the work to every Worker at once and is timed on the page's clock until the " +
  'last Worker answers. Kernel: B packed once, each Worker computing its rows of tanh(A·B). Ceilings: the ' +
  'rate of all Workers together (best sample); the memory-sized triad shares 96 MiB out among the Workers.';

function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** One fork–join timing as the report holds it (the samples' median, min and max). */
export function timingSummary(t, clock) {
  return {
    seconds_per_call: t.seconds_per_call,
    median: median(t.seconds_per_call),
    min: Math.min(...t.seconds_per_call),
    max: Math.max(...t.seconds_per_call),
    repeats: t.repeats,
    timer_resolution: clock.resolution,
    target_sample_seconds: t.target,
    recalibrations: t.recalibrations,
  };
}

/**
 * The steps, in order: the lesson's size on one core, then each quantity on 1 core and on all
 * cores (`workers`), side by side so the two are measured close in time.
 */
export function measurementPlan(workers) {
  const counts = workers > 1 ? [1, workers] : [1];
  const on = (c) => (c === 1 ? '1 core' : `${c} cores at once`);
  const steps = [{ key: 'lesson', cores: 1, label: 'timing tanh(a@b) at 32×16×8 on 1 core' }];
  for (const size of KERNEL_SIZES) {
    for (const c of counts)
      steps.push({ key: `kernel${size}`, size, cores: c, label: `tanh(A@B) at ${size}³, ${on(c)}` });
  }
  for (const c of counts)
    steps.push({ key: 'compute', cores: c, label: `compute ceiling (f32x4 mul+add chains), ${on(c)}` });
  for (const level of LEVELS) {
    const name = { l1: 'L1', l2: 'L2', memory: 'memory' }[level];
    for (const c of counts) steps.push({ key: level, cores: c, label: `bandwidth, ${name}-sized triad, ${on(c)}` });
  }
  return steps;
}

/** Puts the steps' values into the report's measurement fields. */
export function assembleMeasurements(values, { workers, hardwareCores = null, allCoresError = null }) {
  const t = values.lesson;
  const counts = Object.keys(values.ceilings)
    .map(Number)
    .sort((x, y) => x - y);
  const byCores = {};
  for (const c of counts) {
    const v = values.ceilings[c];
    if (!v.compute || LEVELS.some((l) => !v[l])) continue;
    byCores[c] = {
      gflops: v.compute.gflops,
      bandwidth_gbs: Object.fromEntries(LEVELS.map((l) => [l, v[l].gbs])),
      working_set_bytes: Object.fromEntries(LEVELS.map((l) => [l, v[l].working_set_bytes])),
    };
  }
  const one = byCores[1];
  const big = values.kernels.find((r) => r.m === BIG_SIZE && r.cores === 1);
  const kernelTimings = values.kernels.map((r) => {
    const single = values.kernels.find((x) => x.m === r.m && x.cores === 1);
    const speedup = single ? r.gflops / single.gflops : null;
    return { ...r, speedup, efficiency: speedup === null ? null : speedup / r.cores };
  });
  return {
    measurements_label: MEASUREMENT_LABEL,
    local_samples_seconds: t.seconds_per_call,
    timing: {
      variant: t.variant,
      median: t.median,
      min: t.min,
      max: t.max,
      repeats: t.repeats,
      timer_resolution: t.timer_resolution,
      target_sample_seconds: t.target_sample_seconds,
      recalibrations: t.recalibrations,
      warm_seconds: t.warm_seconds,
      gflops: t.gflops_median,
      note: LESSON_SIZE_NOTE,
    },
    bigger_size_timing: big
      ? {
          variant: big.variant,
          m: big.m,
          k: big.k,
          n: big.n,
          cores: 1,
          median: big.median,
          min: big.min,
          max: big.max,
          repeats: big.repeats,
          timer_resolution: big.timer_resolution,
          gflops: big.gflops,
        }
      : null,
    kernel_timings: kernelTimings,
    measured_ceilings: {
      gflops: one.gflops,
      bandwidth_gbs: one.bandwidth_gbs,
      working_set_bytes: one.working_set_bytes,
      cores: Object.keys(byCores).map(Number),
      by_cores: byCores,
      method: FORK_JOIN_NOTE,
    },
    workers: {
      requested: workers,
      hardware_cores: hardwareCores,
      all_cores: Math.max(...Object.keys(byCores).map(Number)),
      all_cores_error: allCoresError,
    },
  };
}

/**
 * What the lesson's report needs of the measurements to draw this machine's roofs and points (the
 * `measured` extra of core.lessonReport), or undefined before a measurement: the 1-core ceilings
 * and headline point (256³), the ceilings on every other core count measured, and every kernel
 * timing. Reads only the fields it needs; measurements from before the pool (one core, no
 * kernel_timings) give the 1-core layer alone.
 * @param {object|null} measurements  assembleMeasurements(...)
 */
export function measuredForReport(measurements) {
  if (!measurements) return undefined;
  const c = measurements.measured_ceilings;
  const timings = measurements.kernel_timings ?? [];
  const big = measurements.bigger_size_timing ?? timings.find((t) => t.cores === 1) ?? timings[0];
  const out = {
    gflops: c.gflops,
    bandwidth_gbs: { ...c.bandwidth_gbs },
    point: { m: big.m, k: big.k, n: big.n, gflops: big.gflops },
  };
  const others = (c.cores ?? []).filter((n) => n !== 1 && c.by_cores?.[n]);
  if (others.length) {
    out.other_cores = others.map((n) => ({
      cores: n,
      gflops: c.by_cores[n].gflops,
      bandwidth_gbs: { ...c.by_cores[n].bandwidth_gbs },
    }));
  }
  if (timings.length) out.kernels = timings.map((t) => ({ m: t.m, k: t.k, n: t.n, cores: t.cores, gflops: t.gflops }));
  return out;
}
