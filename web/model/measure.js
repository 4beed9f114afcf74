// "Measure this machine", on one core and on all cores at once, shared by `node
// scripts/lesson.mjs` (worker_threads) and the page (Web Workers): both hand it a request group
// of web/pool.js. Every value here is a measurement of this machine, kept apart from the model.
//
// - The lesson's size is timed inside one Worker by the core's harness (core.timeKernel).
// - Everything else is fork–join: the same work on 1 Worker, then on every Worker at once, each
//   round timed on this thread's clock from the requests going out to the last answer coming
//   back — so the slowest Worker and the messages count, as they would for a real job. A Worker
//   runs `units` units per round (a kernel block, a call of mul+add chains, a triad pass); the
//   rate is every Worker's units' worth over the round's time.
// - The rounds follow the core's harness rules (core.samplerStart / samplerRecord, from
//   cpp/measure/harness.h; no copy of them here): every reported sample lasts repeats × seconds
//   per call ≥ 100 × the timer's measured resolution, a calibration that ran slow (the JIT's
//   optimizing tier arriving later, a preempted thread) is caught by checking every sample, and
//   a short one raises the repeats and starts the samples over.
import { CancelledError, WorkerStartError } from '../pool.js';
import { blockPayloads, blockTransfer } from './parallel.js';

export const MEASUREMENT_LABEL = 'measurements of this machine (wasm in this JS engine), not the model and not a device specification';

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
  'Fork–join: each round sends the work to every Worker at once and is timed on the page\'s clock until the ' +
  'last Worker answers. Kernel: B packed once, each Worker computing its rows of tanh(A·B). Ceilings: the ' +
  'rate of all Workers together (best sample); the memory-sized triad shares 96 MiB out among the Workers.';

/** Seconds on this thread's monotonic clock. */
export const defaultClock = () => performance.now() / 1000;

/**
 * The clock's tick, as the core measures its own: the median of 9 waits for the clock to change.
 * Refuses a clock that does not advance within `giveUpSeconds` (of wall time: a clock that stands
 * still cannot time its own wait).
 */
export function timerResolution(now = defaultClock, giveUpSeconds = 1) {
  const ticks = [];
  const deadline = Date.now() + giveUpSeconds * 1000;
  const next = (t0) => {
    for (let reads = 1; ; reads++) {
      const t1 = now();
      if (t1 !== t0) return t1;
      if (reads % 1024 === 0 && Date.now() > deadline) throw new Error(`the timer did not advance within ${giveUpSeconds} s`);
    }
  };
  for (let trial = 0; trial < 9; trial++) {
    const t0 = next(now());  // start on a fresh tick, then wait for the next one
    ticks.push(next(t0) - t0);
  }
  ticks.sort((x, y) => x - y);
  return ticks[4];
}

/** The rule every reported sample keeps: `repeats` calls of `secondsPerCall` last `target`. */
export function sampleLongEnough(repeats, secondsPerCall, target) {
  return repeats * secondsPerCall >= target;
}

function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/**
 * Times `round(units)` (a Promise of its seconds) by the core's harness rules: a warm round,
 * units grown until a round lasts the target, more rounds until two in a row agree within 10%
 * (the Workers' JIT has settled: V8 swaps in optimized code between calls while the first
 * rounds run), then `samples` rounds, each checked; a short one raises the units and starts over.
 * @param core the calling thread's core (samplerStart, samplerRecord)
 * @param {{samples: number, minSeconds: number, resolution: number}} clock
 * @returns {Promise<{repeats: number, seconds_per_call: number[], recalibrations: number, target: number}>}
 */
export async function timeRounds(core, round, { samples, minSeconds, resolution }) {
  let s = valueOrThrow(core.samplerStart(resolution, minSeconds, samples));
  while (s.phase !== 'done' && s.phase !== 'failed') {
    const elapsed = await round(s.units);
    s = valueOrThrow(core.samplerRecord(s, elapsed));
  }
  if (s.phase === 'failed') throw new Error(s.error);
  return { repeats: s.units, seconds_per_call: s.seconds_per_call, recalibrations: s.recalibrations, target: s.target };
}

function valueOrThrow(r) {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/**
 * One fork–join measurement: `specOf(i)` is Worker i's work (core.createWork's spec, with
 * `transferOf(i, spec)` the buffers it moves), made on `workers` Workers of a lease, then timed.
 * @returns {Promise<{workers, works, repeats, seconds_per_call, recalibrations}>}
 */
async function forkJoin(core, group, workers, specOf, transferOf, clock) {
  const lease = await group.lease(workers);
  let works = [];
  try {
    // Every Worker's work is made before any is used, and whatever was made is released again.
    const made = await Promise.allSettled(Array.from({ length: lease.size }, (_, i) => {
      const spec = specOf(i);
      return lease.run(i, 'work-create', spec, { transfer: transferOf(i, spec) });
    }));
    works = made.map((r) => (r.status === 'fulfilled' ? r.value : null));
    const failed = made.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const round = async (units) => {
      const t0 = clock.now();
      await lease.all('work-run', (i) => ({ handle: works[i].handle, units }));
      return clock.now() - t0;
    };
    const t = await timeRounds(core, round, clock);
    return { workers, works, ...t };
  } finally {
    if (!lease.broken) {
      await Promise.allSettled(works.map((w, i) => (w ? lease.run(i, 'work-release', { handle: w.handle }) : null)));
    }
    lease.release();
  }
}

function timingSummary(t, clock) {
  return {
    seconds_per_call: t.seconds_per_call, median: median(t.seconds_per_call),
    min: Math.min(...t.seconds_per_call), max: Math.max(...t.seconds_per_call),
    repeats: t.repeats, timer_resolution: clock.resolution, target_sample_seconds: t.target,
    recalibrations: t.recalibrations,
  };
}

/** tanh(A·B) at size³ on `workers` Workers: B packed once, rows split, fork–join rounds. */
export async function timeKernelOnWorkers(core, group, size, workers, clock) {
  const a = core.uniformFloats(size * size, 1);
  const b = core.uniformFloats(size * size, 2);
  if (!a.ok) throw new Error(a.error);
  if (!b.ok) throw new Error(b.error);
  const { blocks, payloads, variant } = blockPayloads(core, { m: size, k: size, n: size, a: a.value, b: b.value, parts: workers });
  const t = await forkJoin(core, group, blocks.length, (i) => ({ kind: 'kernel', ...payloads[i] }), blockTransfer, clock);
  const s = timingSummary(t, clock);
  // The work of one round is every block's, as the core counts it (2·rows·k·n each).
  const flops = t.works.reduce((sum, w) => sum + w.flops_per_unit, 0);
  return { cores: blocks.length, variant: variant.name, m: size, k: size, n: size, ...s, gflops: flops / s.median / 1e9 };
}

/** A ceiling on `workers` Workers at once: 'compute' (mul+add chains) or a triad level. */
export async function ceilingOnWorkers(core, group, what, workers, clock) {
  const spec = what === 'compute' ? { kind: 'chains' } : { kind: 'triad', level: what, workers };
  const t = await forkJoin(core, group, workers, () => spec, () => [], clock);
  const best = Math.min(...t.seconds_per_call);  // seconds per unit on every Worker: a peak is the best sample
  const flops = t.works.reduce((sum, w) => sum + w.flops_per_unit, 0);
  const bytes = t.works.reduce((sum, w) => sum + w.bytes_per_unit, 0);
  const out = { cores: workers, ...timingSummary(t, clock), working_set_bytes: t.works[0].working_set_bytes };
  if (what === 'compute') out.gflops = flops / best / 1e9;
  else out.gbs = bytes / best / 1e9;
  return out;
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
    for (const c of counts) steps.push({ key: `kernel${size}`, size, cores: c, label: `tanh(A@B) at ${size}³, ${on(c)}` });
  }
  for (const c of counts) steps.push({ key: 'compute', cores: c, label: `compute ceiling (f32x4 mul+add chains), ${on(c)}` });
  for (const level of LEVELS) {
    const name = { l1: 'L1', l2: 'L2', memory: 'memory' }[level];
    for (const c of counts) steps.push({ key: level, cores: c, label: `bandwidth, ${name}-sized triad, ${on(c)}` });
  }
  return steps;
}

/**
 * Measures this machine on 1 core and on `workers` cores at once.
 * @param core   the calling thread's core (makes and packs the kernel's inputs)
 * @param group  a request group of web/pool.js; its cancel() stops the measurement
 * @param {{samples?: number, minSeconds?: number, workers?: number, now?: () => number,
 *          hardwareCores?: number}} options
 * @param {(done: number, total: number, label: string) => void} [onProgress]
 * @returns {Promise<object>} the report's measurement fields (assembleMeasurements)
 */
export async function runMeasurements(core, group, options = {}, onProgress = () => {}) {
  const { samples = 5, minSeconds = 0.05, workers = 1, now = defaultClock, hardwareCores = null } = options;
  const resolution = timerResolution(now);
  const clock = { now, resolution, minSeconds, samples };
  const steps = measurementPlan(workers);
  const values = { kernels: [], ceilings: {} };
  let allCoresError = null;
  for (const [i, step] of steps.entries()) {
    if (step.cores > 1 && allCoresError) continue;
    onProgress(i, steps.length, step.label);
    try {
      if (step.key === 'lesson') {
        values.lesson = await group.run('time-kernel', { variant: undefined, m: 32, k: 16, n: 8, samples, minSeconds: 0 });
      } else if (step.size) {
        values.kernels.push(await timeKernelOnWorkers(core, group, step.size, step.cores, clock));
      } else {
        values.ceilings[step.cores] ??= {};
        values.ceilings[step.cores][step.key] = await ceilingOnWorkers(core, group, step.key, step.cores, clock);
      }
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      // All cores need every Worker: a Worker that did not start leaves the single-core part whole.
      if (step.cores > 1 && e instanceof WorkerStartError) {
        allCoresError = e.message;
        continue;
      }
      throw new Error(`${step.label}: ${e.message}`);
    }
  }
  onProgress(steps.length, steps.length, 'done');
  return assembleMeasurements(values, { workers, hardwareCores, allCoresError });
}

/** Puts the steps' values into the report's measurement fields. */
export function assembleMeasurements(values, { workers, hardwareCores = null, allCoresError = null }) {
  const t = values.lesson;
  const counts = Object.keys(values.ceilings).map(Number).sort((x, y) => x - y);
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
      variant: t.variant, median: t.median, min: t.min, max: t.max, repeats: t.repeats,
      timer_resolution: t.timer_resolution, target_sample_seconds: t.target_sample_seconds,
      recalibrations: t.recalibrations, warm_seconds: t.warm_seconds, gflops: t.gflops_median, note: LESSON_SIZE_NOTE,
    },
    bigger_size_timing: big ? {
      variant: big.variant, m: big.m, k: big.k, n: big.n, cores: 1, median: big.median, min: big.min, max: big.max,
      repeats: big.repeats, timer_resolution: big.timer_resolution, gflops: big.gflops,
    } : null,
    kernel_timings: kernelTimings,
    measured_ceilings: {
      gflops: one.gflops, bandwidth_gbs: one.bandwidth_gbs, working_set_bytes: one.working_set_bytes,
      cores: Object.keys(byCores).map(Number),
      by_cores: byCores,
      method: FORK_JOIN_NOTE,
    },
    workers: {
      requested: workers, hardware_cores: hardwareCores, all_cores: Math.max(...Object.keys(byCores).map(Number)),
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
    out.other_cores = others.map((n) => ({ cores: n, gflops: c.by_cores[n].gflops, bandwidth_gbs: { ...c.by_cores[n].bandwidth_gbs } }));
  }
  if (timings.length) out.kernels = timings.map((t) => ({ m: t.m, k: t.k, n: t.n, cores: t.cores, gflops: t.gflops }));
  return out;
}
