// The Worker pool (web/pool.js) over Node's worker_threads, each Worker with its own wasm core
// (dist/roofline-core.js): the kernel split by rows equals the one-thread product bit for bit,
// Cancel ends the Workers, a Worker that does not start is named and one core still works; and
// the timing rule (every sample ≥ 100 timer ticks) against a clock that speeds up, as a JIT does.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { CancelledError, checkWorkerCount, defaultWorkerCount, WorkerPool, WorkerStartError } from '../../web/pool.js';
import { blockPayloads, rowBlocks } from '../../web/model/parallel.js';
import { runKernelOnPool, runMeasurements, timeRounds, timerResolution } from '../../web/measurements.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { createNodePool, nodeSpawn } from '../../scripts/lib/node_pool.mjs';
import { denseHlo, denseStablehlo } from '../../scripts/lib/dense_modules.mjs';
import { summarizeFile } from '../../web/model/analysis.js';
import { placeOps } from '../../web/model/analysis_view.js';
import { analysisOfWorker, serveWorker, TASKS } from '../../web/worker_host.js';
import { loadCore } from '../../web/core.js';

let core;
before(async () => {
  core = await loadNodeCore();
});

const inputs = (m, k, n, seed) => [core.uniformFloats(m * k, seed).value, core.uniformFloats(k * n, seed + 1).value];
const sameBits = (x, y) =>
  x.length === y.length &&
  Buffer.compare(
    Buffer.from(x.buffer, x.byteOffset, x.byteLength),
    Buffer.from(y.buffer, y.byteOffset, y.byteLength),
  ) === 0;

describe('row blocks', () => {
  test('split m into whole tiles, as even as they can be, never empty', () => {
    assert.deepEqual(rowBlocks(256, 2, 4), [
      { row0: 0, rows: 128 },
      { row0: 128, rows: 128 },
    ]);
    assert.deepEqual(rowBlocks(70, 2, 4), [
      { row0: 0, rows: 36 },
      { row0: 36, rows: 34 },
    ]);
    assert.deepEqual(rowBlocks(10, 4, 4), [
      { row0: 0, rows: 4 },
      { row0: 4, rows: 4 },
      { row0: 8, rows: 2 },
    ]);
    assert.deepEqual(rowBlocks(5, 1, 4), [{ row0: 0, rows: 5 }]);
    for (const [m, parts] of [
      [1, 3],
      [33, 5],
      [512, 16],
      [7, 7],
    ]) {
      const blocks = rowBlocks(m, parts, 4);
      assert.equal(
        blocks.reduce((s, b) => s + b.rows, 0),
        m,
      );
      assert.ok(blocks.every((b, i) => b.rows > 0 && b.row0 === (i ? blocks[i - 1].row0 + blocks[i - 1].rows : 0)));
      assert.ok(
        blocks.slice(0, -1).every((b) => b.rows % 4 === 0),
        `${m}/${parts}`,
      );
    }
    assert.throws(() => rowBlocks(0, 2), /m must be a positive integer, got 0/);
  });

  test('the Worker count is capped by default and refused by name out of range', () => {
    assert.equal(defaultWorkerCount(2), 2);
    assert.equal(defaultWorkerCount(128), 16);
    assert.equal(defaultWorkerCount(undefined), 1);
    assert.deepEqual(checkWorkerCount(0, 'Workers'), {
      ok: false,
      error: 'Workers must be an integer from 1 to 64, got 0',
    });
    assert.deepEqual(checkWorkerCount(2.5), { ok: false, error: 'workers must be an integer from 1 to 64, got 2.5' });
    assert.throws(() => new WorkerPool({ size: 0, spawn: () => null }), /size must be an integer from 1 to 64, got 0/);
  });
});

describe('the pool on worker_threads', () => {
  let pool;
  const workers = [];
  before(() => {
    pool = new WorkerPool({ size: 2, spawn: nodeSpawn({ onSpawn: (w) => workers.push(w) }) });
  });
  after(() => pool.terminate());

  test('runs the kernel on 2 Workers; C equals the single-core result bit for bit', async () => {
    const group = pool.group();
    for (const [m, k, n] of [
      [70, 33, 45],
      [256, 256, 256],
      [9, 300, 17],
    ]) {
      const [a, b] = inputs(m, k, n, m);
      const single = core.runKernel(undefined, m, k, n, a, b);
      assert.ok(single.ok, single.error);
      const r = await runKernelOnPool(core, group, { m, k, n, a, b, workers: 2 });
      assert.equal(r.blocks.length, 2);
      assert.equal(r.variant, 'tanh_matmul_f32_4x8__wasmsimd_splat');
      assert.ok(sameBits(r.c, single.value), `${m}×${k}×${n}: the pooled C differs from the single-core C`);
    }
    // Every variant, the naive one (B not packed) included.
    const [a, b] = inputs(23, 19, 21, 5);
    for (const v of core.kernelVariants().value) {
      const single = core.runKernel(v.name, 23, 19, 21, a, b).value;
      const r = await runKernelOnPool(core, group, { variant: v.name, m: 23, k: 19, n: 21, a, b, workers: 2 });
      assert.ok(sameBits(r.c, single), v.name);
    }
    assert.deepEqual(
      pool.status().map((s) => s.state),
      ['ready', 'ready'],
    );
  });

  test("moves the blocks' buffers to the Workers instead of copying them", async () => {
    const [a, b] = inputs(16, 8, 8, 9);
    const { payloads } = blockPayloads(core, { m: 16, k: 8, n: 8, a, b, parts: 2 });
    const lease = await pool.group().lease(2);
    try {
      await lease.all(
        'kernel-rows',
        (i) => payloads[i],
        (_, p) => [p.a.buffer, p.packed_b.buffer],
      );
    } finally {
      lease.release();
    }
    assert.ok(
      payloads.every((p) => p.a.byteLength === 0 && p.packed_b.byteLength === 0),
      'the sent arrays are detached',
    );
  });

  test("an analysis crosses in the core's compact form, its columns moved; the caller's object is the CLI's", async () => {
    const texts = {
      'dense.hlo': denseHlo(3e5),
      'dense.mlir': denseStablehlo(3e5),
      'bad.mlir': 'module {\n  func.func @main() {\n    %0 = stablehlo.add %x, %x : tensor<f32>\n  }\n}\n',
    };
    // The Worker's side: every column's buffer is handed to the transfer list, nothing else.
    const moved = [];
    const progress = [];
    const direct = TASKS.analyze(
      core,
      { text: texts['dense.hlo'] },
      { progress: (...a) => progress.push(a), transfer: (list) => moved.push(...list) },
    );
    assert.equal(direct.result.ok, true);
    const arrays = direct.result.value.columns.flatMap((m) => Object.values(m));
    assert.equal(arrays.length, 17);
    assert.deepEqual(
      moved,
      arrays.map((a) => a.buffer),
    );
    assert.deepEqual(
      progress.map((p) => p[0]),
      [0, 1],
    );
    // Through the pool: the caller makes what the CLI prints for the same text.
    const group = pool.group();
    for (const [name, text] of Object.entries(texts)) {
      const value = await group.run('analyze', { text });
      assert.ok(value.ms >= 0);
      const expected = core.analyzeText(text);
      assert.equal(value.result.ok, expected.ok, name);
      if (expected.ok) assert.ok(value.result.value.columns[0].line instanceof Int32Array, name);
      const got = analysisOfWorker(name, value);
      const summary = summarizeFile(name, expected);
      assert.deepEqual(
        got,
        { summary, placement: placeOps(expected), errors: summary.errorPlaces, ms: value.ms },
        name,
      );
    }
    await assert.rejects(group.run('analyze', { text: 7 }), /analyze: text must be a string/);
  });

  test('a bad request is answered with its error and the Workers carry on', async () => {
    const group = pool.group();
    await assert.rejects(group.run('no-such-type', {}), /unknown request type "no-such-type"/);
    await assert.rejects(
      group.run('work-run', { handle: 999, units: 1 }),
      /handle must be a handle createWork returned/,
    );
    await assert.rejects(
      group.run('work-create', {
        kind: 'kernel',
        rows: 2,
        k: 2,
        n: 2,
        a: [1, 2, 3, 4],
        packed_b: new Float32Array(16),
      }),
      /work.a must be a Float32Array, got an array/,
    );
    const value = await group.run('time-kernel', { m: 32, k: 16, n: 8, samples: 1, minSeconds: 0 });
    assert.equal(value.seconds_per_call.length, 1);
  });

  test('Cancel ends all the Workers of a running job; the next job starts fresh ones', async () => {
    const group = pool.group();
    const other = pool.group();
    const lease = await group.lease(2);
    const works = await lease.all('work-create', () => ({ kind: 'chains' }));
    // Minutes of mul+add chains on both Workers.
    const running = lease.all('work-run', (i) => ({ handle: works[i].handle, units: 2 ** 26 }));
    const started = workers.slice(-2);
    const exits = started.map((w) => once(w, 'exit'));
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(
      pool.status().map((s) => s.busy),
      [true, true],
    );
    const t0 = performance.now();
    group.cancel();
    await assert.rejects(running, CancelledError);
    await Promise.all(exits); // the threads really ended, not just the promises
    assert.ok(performance.now() - t0 < 5000);
    assert.deepEqual(
      pool.status().map((s) => s.state),
      ['off', 'off'],
    );
    assert.equal(group.busy, false);
    await assert.rejects(lease.run(0, 'work-run', { handle: works[0].handle, units: 1 }), CancelledError);
    // Another group's work starts new Workers and finishes.
    const value = await other.run('time-kernel', { m: 8, k: 8, n: 8, samples: 1, minSeconds: 0 });
    assert.equal(value.m, 8);
  });

  test("a queued request of a cancelled group never runs; other groups' requests do", async () => {
    const slow = pool.group();
    const fast = pool.group();
    const lease = await slow.lease(2);
    const queued = slow.run('time-kernel', { m: 8, k: 8, n: 8, samples: 1, minSeconds: 0 });
    const waiting = fast.run('time-kernel', { m: 8, k: 8, n: 8, samples: 1, minSeconds: 0 });
    slow.cancel();
    await assert.rejects(queued, CancelledError);
    assert.equal((await waiting).m, 8);
    assert.equal(lease.broken instanceof CancelledError, true);
  });
});

describe('a Worker that fails to start', () => {
  let pool;
  before(() => {
    pool = new WorkerPool({
      size: 2,
      spawn: nodeSpawn({ corePathOf: (i) => (i === 1 ? '/nonexistent/roofline-core.js' : undefined) }),
    });
  });
  after(() => pool.terminate());

  test('is named with its reason; all cores are refused, one core still works', async () => {
    const group = pool.group();
    await assert.rejects(group.lease(2), (e) => {
      assert.ok(e instanceof WorkerStartError);
      assert.match(
        e.message,
        /^this needs 2 Workers and only 1 of 2 can start: Worker 2 did not start: the wasm core did not start in the Worker: the wasm core is not built: \/nonexistent\/roofline-core\.js is missing/,
      );
      return true;
    });
    assert.deepEqual(
      pool.failures().map((f) => f.index),
      [1],
    );
    const [a, b] = inputs(40, 20, 30, 2);
    const r = await runKernelOnPool(core, group, { m: 40, k: 20, n: 30, a, b, workers: 1 });
    assert.ok(sameBits(r.c, core.runKernel(undefined, 40, 20, 30, a, b).value));
  });

  test('the measurements keep their single-core part and say why all cores are missing', async () => {
    const m = await runMeasurements(core, pool.group(), { samples: 1, minSeconds: 0.005, workers: 2 });
    assert.deepEqual(m.measured_ceilings.cores, [1]);
    assert.ok(m.measured_ceilings.gflops > 0);
    assert.deepEqual(
      m.kernel_timings.map((t) => t.cores),
      [1, 1],
    );
    assert.match(m.workers.all_cores_error, /Worker 2 did not start/);
  });

  test('a pool whose only Worker cannot start refuses every request with the reason', async () => {
    const broken = new WorkerPool({ size: 1, spawn: nodeSpawn({ corePathOf: () => '/nonexistent/core.js' }) });
    try {
      await assert.rejects(
        broken.run('time-kernel', { m: 8, k: 8, n: 8, samples: 1 }),
        /this needs a Worker and only 0 of 1 can start: Worker 1 did not start: .*\/nonexistent\/core\.js is missing/,
      );
    } finally {
      broken.terminate();
    }
  });

  test('a spawn that throws (a blocked Worker) is a start failure too', async () => {
    const blocked = new WorkerPool({
      size: 1,
      spawn: () => {
        throw new Error('Workers are not allowed here');
      },
    });
    await assert.rejects(blocked.run('analyze', {}), /Worker 1 did not start: Workers are not allowed here/);
  });
});

// A wasm trap (an access out of bounds) leaves the instance's memory as the call left it: the
// core refuses every later call, the Worker's host says so, and the pool ends that Worker (its
// memory with it) and starts a fresh one for the next request.
describe('a core that traps', () => {
  const trappingCore = () =>
    loadCore(async () => ({
      heapBytes: () => {
        throw new WebAssembly.RuntimeError('memory access out of bounds');
      },
      releaseWork: () => {
        throw new WebAssembly.RuntimeError('unreachable');
      },
      exampleModules: () => ({ ok: true, value: '[]' }),
    }));

  test('refuses every later call, naming the call that trapped', async () => {
    const c = await trappingCore();
    assert.equal(c.trapped(), null);
    assert.deepEqual(c.exampleModules(), { ok: true, value: [] });
    assert.match(c.heapBytes().error, /^internal error in core.heapBytes: memory access out of bounds$/);
    assert.equal(c.trapped(), 'core.heapBytes: memory access out of bounds');
    assert.match(
      c.exampleModules().error,
      /core stopped on an internal error in an earlier call \(core.heapBytes: memory access out of bounds\)/,
    );
  });

  test("the Worker's host asks for a restart, and the pool starts the Worker afresh", async () => {
    // serveWorker over a trapping core: its answer carries restart.
    const posted = [];
    let onMessage;
    serveWorker({ corePromise: trappingCore(), post: (m) => posted.push(m), listen: (f) => (onMessage = f) });
    await onMessage({ id: 1, type: 'work-release', payload: { handle: 1 } });
    const answer = posted.find((m) => m.id === 1);
    assert.ok(answer, JSON.stringify(posted));
    assert.equal(answer.type, 'error');
    assert.match(answer.restart ?? '', /its core stopped on an internal error \(core.releaseWork: unreachable\)/);

    // The pool: a Worker whose answer carries restart is ended; the next request starts another.
    const spawned = [];
    const pool = new WorkerPool({
      size: 1,
      spawn: (index, events) => {
        const n = spawned.length;
        spawned.push({ terminated: false });
        queueMicrotask(() => events.message({ type: 'ready' }));
        return {
          post: (m) =>
            queueMicrotask(() =>
              events.message(
                n === 0
                  ? { id: m.id, type: 'error', error: 'internal error in core.x: unreachable', restart: 'trapped' }
                  : { id: m.id, type: 'result', value: 'fresh' },
              ),
            ),
          terminate: () => (spawned[n].terminated = true),
        };
      },
    });
    await assert.rejects(pool.run('analyze', {}), /internal error in core.x: unreachable/);
    assert.equal(spawned[0].terminated, true);
    assert.equal(await pool.run('analyze', {}), 'fresh');
    assert.equal(spawned.length, 2);
    pool.terminate();
  });
});

describe('every reported sample lasts 100 timer ticks', () => {
  test('rounds that speed up after calibration (a JIT tier arriving) are sampled again with more repeats', async () => {
    // A fake clock: 1 ms per unit for the first 6 rounds (the cold tier), then 14× faster.
    let rounds = 0;
    const round = async (units) => units * (++rounds <= 6 ? 1e-3 : 1e-3 / 14);
    const resolution = 1e-4;
    const t = await timeRounds(core, round, { samples: 5, minSeconds: 0, resolution });
    assert.equal(t.target, 100 * resolution);
    assert.equal(t.seconds_per_call.length, 5);
    assert.ok(t.recalibrations >= 1, 'the short samples were noticed');
    for (const s of t.seconds_per_call) assert.ok(t.repeats * s >= 100 * resolution, `${t.repeats} × ${s} < 100 ticks`);
  });

  test("a round that never lasts the target is refused with the core harness's reason, not timed forever", async () => {
    let rounds = 0;
    await assert.rejects(
      timeRounds(core, async () => (++rounds, 0), { samples: 3, minSeconds: 0, resolution: 1e-3 }),
      /could not make a sample last 0\.1 s within 1073741824 repeats/,
    );
    assert.ok(rounds > 30 && rounds < 40, `${rounds} rounds: the units doubled from 1 to 2^30, then gave up`);
  });

  test("timerResolution: the core measures the page's clock, a coarse one, and refuses one that stands still", () => {
    let t = 0;
    const coarse = () => Math.floor((t += 1e-6) / 1e-4) * 1e-4; // 100 µs ticks
    const r = timerResolution(core, coarse);
    assert.ok(Math.abs(r - 1e-4) < 1e-9, String(r));
    assert.throws(() => timerResolution(core, () => 5, 0), /the timer did not advance within 0 s/);
    assert.match(core.timerResolution(5).error, /^now must be a function returning seconds, got 5$/);
    assert.match(core.timerResolution(coarse, 61).error, /^give_up_seconds must be from 0 to 60, got 61$/);
    // A clock that gives no number, goes backwards or throws is refused, and the core carries on.
    assert.match(core.timerResolution(() => NaN).error, /^the clock must give a finite number of seconds, got NaN$/);
    assert.match(core.timerResolution(() => 'abc').error, /finite number of seconds, got NaN/);
    let back = 10;
    assert.match(core.timerResolution(() => (back -= 0.5)).error, /^the clock went backwards, from 9\.5 to 9 s$/);
    for (let i = 0; i < 20000; i++) {
      const r = core.timerResolution(() => {
        throw new Error('no clock');
      });
      if (i === 0) assert.equal(r.error, 'the clock threw: no clock');
    }
    assert.equal(core.trapped(), null);
    assert.ok(core.heapBytes().ok);
  });

  test('on the numbers a real measurement reports, 1 core and 2 cores', async () => {
    const pool = createNodePool({ size: 2 });
    try {
      const m = await runMeasurements(core, pool.group(), { samples: 3, minSeconds: 0.01, workers: 2 });
      const t = m.timing;
      assert.equal(m.local_samples_seconds.length, 3);
      for (const s of m.local_samples_seconds)
        assert.ok(
          t.repeats * s >= 100 * t.timer_resolution,
          `lesson: ${t.repeats} × ${s} < 100 × ${t.timer_resolution}`,
        );
      assert.deepEqual(
        m.kernel_timings.map((k) => [k.m, k.cores]),
        [
          [256, 1],
          [256, 2],
          [512, 1],
          [512, 2],
        ],
      );
      for (const k of m.kernel_timings) {
        assert.equal(k.seconds_per_call.length, 3);
        for (const s of k.seconds_per_call)
          assert.ok(k.repeats * s >= 100 * k.timer_resolution, `${k.m}³ on ${k.cores}`);
        assert.ok(k.gflops > 0);
      }
      assert.deepEqual(m.measured_ceilings.cores, [1, 2]);
      for (const c of [1, 2]) {
        const v = m.measured_ceilings.by_cores[c];
        assert.ok(v.gflops > 0);
        assert.deepEqual(Object.keys(v.bandwidth_gbs), ['l1', 'l2', 'memory']);
      }
      assert.equal(m.measured_ceilings.by_cores[2].working_set_bytes.memory, (48 << 20) - ((48 << 20) % 12));
      assert.equal(m.measured_ceilings.gflops, m.measured_ceilings.by_cores[1].gflops);
      assert.equal(m.workers.all_cores, 2);
      assert.equal(m.workers.all_cores_error, null);
    } finally {
      pool.terminate();
    }
  });
});
