// "Measure this machine" run on the pool, on one core and on all cores at once, shared by `node
// scripts/lesson.mjs` (worker_threads) and the page (Web Workers): both hand it a request group
// of web/pool.js. Every value here is a measurement of this machine, kept apart from the model;
// the pure parts (labels, plan, summaries, the report's fields) are web/model/measure.js.
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
import { CancelledError, WorkerStartError } from './pool.js';
import { assembleMeasurements, measurementPlan, timingSummary } from './model/measure.js';
import { blockPayloads, blockTransfer } from './model/parallel.js';

/** Seconds on this thread's monotonic clock. */
export const defaultClock = () => performance.now() / 1000;

/**
 * The clock's tick, by the core's rule (core.timerResolution: the median of 9 waits for it to
 * change). Throws the core's refusal of a clock that does not advance within `giveUpSeconds`.
 */
export function timerResolution(core, now = defaultClock, giveUpSeconds = 1) {
  return valueOrThrow(core.timerResolution(now, giveUpSeconds)).seconds;
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
    const made = await Promise.allSettled(
      Array.from({ length: lease.size }, (_, i) => {
        const spec = specOf(i);
        return lease.run(i, 'work-create', spec, { transfer: transferOf(i, spec) });
      }),
    );
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

/** tanh(A·B) at size³ on `workers` Workers: B packed once, rows split, fork–join rounds. */
export async function timeKernelOnWorkers(core, group, size, workers, clock) {
  const a = core.uniformFloats(size * size, 1);
  const b = core.uniformFloats(size * size, 2);
  if (!a.ok) throw new Error(a.error);
  if (!b.ok) throw new Error(b.error);
  const { blocks, payloads, variant } = blockPayloads(core, {
    m: size,
    k: size,
    n: size,
    a: a.value,
    b: b.value,
    parts: workers,
  });
  const t = await forkJoin(
    core,
    group,
    blocks.length,
    (i) => ({ kind: 'kernel', ...payloads[i] }),
    blockTransfer,
    clock,
  );
  const s = timingSummary(t, clock);
  // The work of one round is every block's, as the core counts it (2·rows·k·n each).
  const flops = t.works.reduce((sum, w) => sum + w.flops_per_unit, 0);
  return {
    cores: blocks.length,
    variant: variant.name,
    m: size,
    k: size,
    n: size,
    ...s,
    gflops: flops / s.median / 1e9,
  };
}

/** A ceiling on `workers` Workers at once: 'compute' (mul+add chains) or a triad level. */
export async function ceilingOnWorkers(core, group, what, workers, clock) {
  const spec = what === 'compute' ? { kind: 'chains' } : { kind: 'triad', level: what, workers };
  const t = await forkJoin(
    core,
    group,
    workers,
    () => spec,
    () => [],
    clock,
  );
  const best = Math.min(...t.seconds_per_call); // seconds per unit on every Worker: a peak is the best sample
  const flops = t.works.reduce((sum, w) => sum + w.flops_per_unit, 0);
  const bytes = t.works.reduce((sum, w) => sum + w.bytes_per_unit, 0);
  const out = { cores: workers, ...timingSummary(t, clock), working_set_bytes: t.works[0].working_set_bytes };
  if (what === 'compute') out.gflops = flops / best / 1e9;
  else out.gbs = bytes / best / 1e9;
  return out;
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
  const resolution = timerResolution(core, now);
  const clock = { now, resolution, minSeconds, samples };
  const steps = measurementPlan(workers);
  const values = { kernels: [], ceilings: {} };
  let allCoresError = null;
  for (const [i, step] of steps.entries()) {
    if (step.cores > 1 && allCoresError) continue;
    onProgress(i, steps.length, step.label);
    try {
      if (step.key === 'lesson') {
        values.lesson = await group.run('time-kernel', {
          variant: undefined,
          m: 32,
          k: 16,
          n: 8,
          samples,
          minSeconds: 0,
        });
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

/**
 * C = tanh(A·B) (or the named variant) on `workers` Workers of the pool at once.
 * @param core  the main thread's core (packs B)
 * @param group a request group of web/pool.js (its cancel() ends the Workers)
 * @returns {Promise<{c: Float32Array, blocks: {row0, rows}[], variant: string}>}
 */
export async function runKernelOnPool(core, group, { variant, m, k, n, a, b, workers }) {
  if (!(a instanceof Float32Array) || a.length !== m * k)
    throw new TypeError(`a must be a Float32Array of m·k = ${m * k} floats`);
  if (!(b instanceof Float32Array) || b.length !== k * n)
    throw new TypeError(`b must be a Float32Array of k·n = ${k * n} floats`);
  const { blocks, payloads, variant: v } = blockPayloads(core, { variant, m, k, n, a, b, parts: workers });
  const lease = await group.lease(blocks.length);
  try {
    const results = await lease.all('kernel-rows', (i) => payloads[i], blockTransfer);
    const c = new Float32Array(m * n);
    results.forEach((r, i) => c.set(r.c, blocks[i].row0 * n));
    return { c, blocks, variant: v.name };
  } finally {
    lease.release();
  }
}
