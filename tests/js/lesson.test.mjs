// The lesson's report through the real wasm core (dist/roofline-core.js), as the page and the
// CLI build it; and the core's JS surface refusing bad values as {ok: false} with a message.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildLesson, reportLines } from '../../web/model/lesson.js';
import { runMeasurements } from '../../web/measurements.js';
import { createState, setInput, inputsToParams } from '../../web/state.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { createNodePool } from '../../scripts/lib/node_pool.mjs';

let core;
before(async () => {
  core = await loadNodeCore();
});

const close = (actual, expected, rel = 1e-15) =>
  assert.ok(Math.abs(actual - expected) <= rel * Math.abs(expected), `${actual} ≉ ${expected}`);

describe('the lesson report', () => {
  test('reproduces every number of the seed with its defaults', () => {
    const { ok, report: r } = buildLesson(core);
    assert.ok(ok);
    assert.deepEqual(
      { flops: r.matmul_accounting.flops, minimum_bytes: r.matmul_accounting.minimum_bytes },
      { flops: 2 * 32 * 16 * 8, minimum_bytes: 4 * (32 * 16 + 16 * 8 + 32 * 8) },
    );
    assert.equal(r.matmul_accounting.flops_per_byte, 16 / 7);
    assert.equal(r.matmul_accounting.flops_per_byte_fraction, '16/7');
    assert.deepEqual(r.sizes, [8, 16, 32, 64, 128]);
    r.intensity.forEach((x, i) => close(x, r.sizes[i] / 6, 3e-16));
    [80 / 3, 160 / 3, 100, 100, 100].forEach((c, i) => close(r.hypothetical_ceilings_gflops[i], c));
    assert.deepEqual(r.hypothetical_ceilings_gflops.slice(2), [100, 100, 100]);
    assert.equal(r.ridge, 5);
    assert.equal(r.traffic_factor, 2);
    close(r.doubled_traffic_ceilings_gflops[0], r.hypothetical_ceilings_gflops[0] / 2);
    close(r.doubled_traffic_ceilings_gflops[1], r.hypothetical_ceilings_gflops[1] / 2);
    close(r.doubled_traffic_ceilings_gflops[2], 160 / 3);
    assert.equal(r.doubled_traffic_ceilings_gflops.at(-1), 100);
    assert.deepEqual(r.traffic_bound_changed_sizes, [32]);
    assert.deepEqual(r.exercise.a, [48, 24]);
    assert.equal(r.exercise.work, 27648);
    assert.equal(r.exercise.traffic, 8064);
    assert.equal(r.exercise.ratio, 24 / 7);
    assert.equal(r.exercise.ratio_fraction, '24/7');
    close(r.exercise.bandwidth_times_ratio_gflops, 480 / 7);
    assert.equal(r.exercise.bound, 'memory-bound');
    assert.deepEqual(r.budgets, {
      peak: 100,
      bandwidth: 20,
      hypothetical: true,
      units: { peak: 'GFLOP/s', bandwidth: 'GB/s' },
    });
    // Step 1: the StableHLO JAX prints, and its contract read back by the core.
    assert.match(
      r.stablehlo.text,
      /^module @jit_workload attributes \{mhlo\.num_partitions = 1 : i32, mhlo\.num_replicas = 1 : i32\} \{\n/,
    );
    assert.ok(
      r.stablehlo.text.includes(
        '%0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>',
      ),
    );
    assert.deepEqual(r.stablehlo_ops, ['dot_general', 'tanh']);
    assert.equal(r.stablehlo.contract.result_type, 'tensor<32x8xf32>');
    // The estimate with XLA's rules equals XLA's recorded CPU cost analysis (reference/lesson.md).
    const ce = r.cost_estimate;
    assert.deepEqual(
      [ce.flops, ce.transcendentals, ce.bytes_accessed, ce.bytes_accessed_operand, ce.bytes_accessed_output],
      [2 * 32 * 8 * 16, 32 * 8, 5632, { 0: 2048 + 1024, 1: 512 }, 1024 + 1024],
    );
    assert.equal(ce.minimum_traffic_bytes, 3584);
    assert.match(ce.label, /^estimate from the IR, XLA's counting rules/);
    // Step 2: the wasm kernel on the seed's inputs, against the double reference.
    assert.equal(r.kernel_check.passed, true);
    assert.ok(r.kernel_check.max_abs_error < 2e-5, String(r.kernel_check.max_abs_error));
    assert.equal(r.kernel_check.variant, 'tanh_matmul_f32_4x8__wasmsimd_splat');
    assert.deepEqual([r.kernel_check.atol, r.kernel_check.rtol], [2e-5, 2e-5]);
    // Measurements are not part of the model's report.
    assert.equal(r.local_samples_seconds, null);
  });

  test('figure data has exactly the seed structure', () => {
    const { figure } = buildLesson(core).report;
    assert.deepEqual(Object.keys(figure), ['kind', 'x', 'xlabel', 'ylabel', 'series']);
    assert.equal(figure.kind, 'line');
    assert.equal(figure.xlabel, 'minimum-traffic operations per byte');
    assert.equal(figure.ylabel, 'hypothetical ceiling (GFLOP/s)');
    const x = [8, 16, 5 * 6, 32, 64, 128].map((n) => n / 6);
    figure.x.forEach((v, i) => close(v, x[i], 3e-16));
    assert.deepEqual(
      figure.series.map((s) => Object.keys(s)),
      [
        ['label', 'y'],
        ['label', 'y'],
        ['label', 'y'],
      ],
    );
    const [bandwidth, compute, combined] = figure.series;
    assert.deepEqual(
      [bandwidth.label, compute.label, combined.label],
      ['bandwidth budget', 'compute budget', 'combined ceiling'],
    );
    figure.x.forEach((v, i) => {
      assert.equal(bandwidth.y[i], 20 * v);
      assert.equal(compute.y[i], 100);
      assert.equal(combined.y[i], Math.min(100, 20 * v));
    });
  });

  test('changing the inputs changes the numbers', () => {
    const r = buildLesson(core, {
      m: 48,
      k: 24,
      n: 12,
      peak: 40,
      bandwidth: 10,
      traffic_factor: 4,
      sizes: [30],
    }).report;
    assert.equal(r.matmul_accounting.flops, 27648);
    assert.equal(r.ridge, 4);
    assert.deepEqual(r.hypothetical_ceilings_gflops, [40]); // 30/6 = 5 > ridge 4
    assert.deepEqual(r.doubled_traffic_ceilings_gflops, [12.5]); // 10 · 5/4
    assert.deepEqual(r.traffic_bound_changed_sizes, [30]);
    const bf16 = buildLesson(core, { itemsize: 2 }).report;
    assert.equal(bf16.matmul_accounting.minimum_bytes, 3584 / 2);
    assert.equal(bf16.stablehlo.dtype, 'bf16');
    assert.equal(bf16.cost_estimate.bytes_accessed, 5632 / 2);
    const odd = buildLesson(core, { itemsize: 3 }).report;
    assert.equal(odd.stablehlo, null);
    assert.equal(odd.stablehlo_unavailable, 'no StableHLO float type has itemsize 3 (f32 4, bf16 2, f64 8)');
    assert.equal(odd.cost_estimate, null);
  });

  test("an explicit dtype wins over the itemsize's usual type, and sets the itemsize", () => {
    const f16 = buildLesson(core, { dtype: 'f16' }).report;
    assert.equal(f16.stablehlo.dtype, 'f16');
    assert.equal(f16.matmul_accounting.itemsize, 2);
    assert.match(f16.stablehlo.text, /tensor<32x16xf16>/);
    assert.equal(buildLesson(core, { dtype: 'f64', itemsize: 8 }).report.cost_estimate.bytes_accessed, 5632 * 2);
    assert.equal(
      buildLesson(core, { dtype: '', itemsize: 2 }).report.stablehlo.dtype,
      'bf16',
      'no dtype: the itemsize picks one',
    );
    const refusal = (input, error) => ({ ok: false, input, error, errors: [{ input, error }] });
    assert.deepEqual(
      buildLesson(core, { dtype: 'f32', itemsize: 2 }),
      refusal('dtype', 'dtype f32 has itemsize 4, got itemsize 2'),
    );
    assert.deepEqual(
      buildLesson(core, { dtype: 'i8' }),
      refusal('dtype', 'dtype must be one of f32, bf16, f16, f64, got "i8"'),
    );
  });

  test('refuses bad inputs, naming the input, the rule and the value', () => {
    const cases = [
      [{ m: 0 }, 'm', 'm must be a positive integer, got 0'],
      [{ k: -1 }, 'k', 'k must be a positive integer, got -1'],
      [{ n: 2.5 }, 'n', 'n must be a positive integer, got 2.5'],
      [{ itemsize: NaN }, 'itemsize', 'itemsize must be a positive integer, got NaN'],
      [{ peak: Infinity }, 'peak', 'peak must be a positive, finite number of GFLOP/s, got infinity'],
      [{ bandwidth: -20 }, 'bandwidth', 'bandwidth must be a positive, finite number of GB/s, got -20'],
      [{ traffic_factor: 0 }, 'traffic_factor', 'traffic factor must be a positive, finite number, got 0'],
      [{ sizes: [] }, 'sizes', 'sizes must be a non-empty list of positive integers, got []'],
      [{ sizes: [8, 1.5] }, 'sizes', 'sizes: entry 2 of 2 must be a positive integer, got 1.5'],
    ];
    for (const [params, input, error] of cases) {
      assert.deepEqual(
        buildLesson(core, params),
        { ok: false, input, error, errors: [{ input, error }] },
        JSON.stringify(params),
      );
    }
    // Every refused input at once, in the form's order, each with its own message.
    const all = buildLesson(core, { peak: -1, m: 0, traffic_factor: 0 });
    assert.deepEqual(all.errors, [
      { input: 'm', error: 'm must be a positive integer, got 0' },
      { input: 'peak', error: 'peak must be a positive, finite number of GFLOP/s, got -1' },
      { input: 'traffic_factor', error: 'traffic factor must be a positive, finite number, got 0' },
    ]);
    assert.equal(all.input, 'm');
    const overflow = buildLesson(core, { m: 2 ** 50, k: 2 ** 50, n: 2 ** 50 });
    assert.equal(overflow.input, 'dimensions');
    assert.match(overflow.error, /^flops = 2·m·k·n does not fit in 128 bits for m=1125899906842624/);
  });

  test('prints the seed lines', () => {
    const lines = reportLines(buildLesson(core).report);
    assert.ok(
      lines.includes(
        "Matmul-only accounting: {'flops': 8192, 'minimum_bytes': 3584, 'flops_per_byte': 2.2857142857142856}",
      ),
    );
    assert.ok(
      lines.includes('Hypothetical ceilings GFLOP/s: [26.666666666666664, 53.33333333333333, 100.0, 100.0, 100.0]'),
    );
    assert.ok(
      lines.includes(
        'Ceilings with twice minimum traffic GFLOP/s: [13.333333333333332, 26.666666666666664, 53.33333333333333, 100.0, 100.0]',
      ),
    );
    assert.ok(lines.includes('Local CPU samples seconds: not measured'));
    assert.ok(lines[0].startsWith('StableHLO operations present: dot_general and tanh'));
    assert.ok(
      lines.some((l) =>
        l.endsWith(
          "{'bytes accessed': 5632.0, 'bytes accessed0{}': 3072.0, 'bytes accessed1{}': 512.0, 'bytes accessedout{}': 2048.0, 'flops': 8192.0, 'transcendentals': 256.0}",
        ),
      ),
    );
    assert.match(
      lines.find((l) => l.startsWith('Reference check:')),
      /^Reference check: passed, max \|x − y\| = [0-9.]+e-\d+ \(rule \|x − y\| ≤ 2e-5 \+ 2e-5·\|y\|/,
    );
  });
});

describe('the core through web/core.js', () => {
  test('counts past 2^53 cross exactly as text', () => {
    const r = core.contract(2 ** 21, 2 ** 21, 2 ** 21, 4);
    assert.ok(r.ok);
    assert.equal(r.value.flops_exact, '18446744073709551616');
    assert.equal(BigInt(r.value.flops_exact), 2n * 2n ** 63n);
  });

  test('itemsize defaults to 4 as in the seed', () => {
    assert.equal(core.contract(32, 16, 8).value.minimum_bytes, 3584);
  });

  test('a value of the wrong type is refused by name, not coerced', () => {
    assert.deepEqual(core.contract('32', 16, 8, 4), { ok: false, error: 'm must be a number, got the string "32"' });
    assert.deepEqual(core.contract(32, null, 8, 4), { ok: false, error: 'k must be a number, got object' });
    assert.deepEqual(core.ceilings(100, 20, 'x'), {
      ok: false,
      error: 'intensities must be an array of numbers, got string',
    });
    assert.deepEqual(core.ceilings(100, 20, [1, '2']), {
      ok: false,
      error: 'intensities[1] must be a number, got the string "2"',
    });
    assert.deepEqual(core.figure(undefined, 20, [1]), { ok: false, error: 'peak must be a number, got undefined' });
    assert.deepEqual(core.contractShapes(48, 24, 25, 12), {
      ok: false,
      error: 'inner dimensions must match (columns of a = rows of b), got a (48,24) and b (25,12)',
    });
  });

  test('a bandwidth ceiling past the largest double reads Infinity, though it crosses as JSON', () => {
    // 20 GB/s · 1e308 flops per byte overflows; the ceiling itself is the peak.
    const [row] = core.ceilings(100, 20, [1e308]).value.rows;
    assert.equal(row.bandwidth_ceiling, Infinity);
    assert.equal(row.ceiling, 100);
    assert.equal(row.bound, 'compute-bound');
    const [traffic] = core.trafficExperiment(100, 20, [1e308], 2).value;
    assert.equal(traffic.original.bandwidth_ceiling, Infinity);
    assert.equal(core.ceilings(100, 20, [1]).value.rows[0].bandwidth_ceiling, 20);
  });
});

describe('measurements of this machine', () => {
  test('run every step on the Worker pool and come back labelled, with the lesson-size note', async () => {
    const seen = [];
    const pool = createNodePool({ size: 2 });
    let v;
    try {
      v = await runMeasurements(
        core,
        pool.group(),
        { samples: 3, minSeconds: 0.01, workers: 2, hardwareCores: 2 },
        (done, total, label) => seen.push([done, total, label]),
      );
    } finally {
      pool.terminate();
    }
    assert.deepEqual(
      seen.map(([d]) => d),
      [...Array(14).keys()],
    );
    assert.equal(seen.at(-1)[2], 'done');
    assert.deepEqual(
      seen.slice(1, 5).map(([, , l]) => l),
      [
        'tanh(A@B) at 256³, 1 core',
        'tanh(A@B) at 256³, 2 cores at once',
        'tanh(A@B) at 512³, 1 core',
        'tanh(A@B) at 512³, 2 cores at once',
      ],
    );
    assert.match(v.measurements_label, /^measurements of this machine/);
    assert.equal(v.local_samples_seconds.length, 3);
    assert.ok(v.local_samples_seconds.every((s) => s > 0));
    assert.deepEqual(Object.keys(v.timing).sort(), [
      'gflops',
      'max',
      'median',
      'min',
      'note',
      'recalibrations',
      'repeats',
      'target_sample_seconds',
      'timer_resolution',
      'variant',
      'warm_seconds',
    ]);
    // The rate is the core's: the model's work of 32×16×8 per call at the median time.
    assert.ok(Math.abs(v.timing.gflops - (2 * 32 * 16 * 8) / v.timing.median / 1e9) <= 1e-12 * v.timing.gflops);
    assert.ok(v.timing.min <= v.timing.median && v.timing.median <= v.timing.max);
    assert.match(v.timing.note, /3\.5 KiB and live in L1/);
    assert.equal(v.bigger_size_timing.m, 256);
    assert.equal(v.bigger_size_timing.cores, 1);
    assert.ok(v.bigger_size_timing.gflops > 0);
    assert.ok(v.measured_ceilings.gflops > 0);
    assert.deepEqual(Object.keys(v.measured_ceilings.bandwidth_gbs), ['l1', 'l2', 'memory']);
    assert.deepEqual(v.measured_ceilings.working_set_bytes, { l1: 24576, l2: 196608, memory: 100663296 });
    assert.deepEqual(v.measured_ceilings.cores, [1, 2]);
    assert.deepEqual(v.workers, { requested: 2, hardware_cores: 2, all_cores: 2, all_cores_error: null });
    for (const k of v.kernel_timings) {
      assert.equal(k.speedup, k.gflops / v.kernel_timings.find((x) => x.m === k.m && x.cores === 1).gflops);
      assert.equal(k.efficiency, k.speedup / k.cores);
    }
    const lines = reportLines({ ...buildLesson(core).report, ...v });
    assert.ok(
      lines.some((l) =>
        /^ {2}tanh\(A@B\) at 512×512×512 on 2 cores at once: .* GFLOP\/s .*× 1 core, efficiency/.test(l),
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^ {2}measured ceilings, 2 cores at once: mul\+add .* GFLOP\/s; triad bandwidth L1/.test(l)),
    );
  });

  test('bad measurement arguments come back as errors, not aborts', () => {
    assert.deepEqual(core.timeKernel(undefined, 0, 16, 8, 5, 0), {
      ok: false,
      error: 'm must be a positive integer, got 0',
      input: 'm',
    });
    assert.deepEqual(core.timeKernel(undefined, 32, 16, 8, 0, 0), {
      ok: false,
      error: 'samples must be an integer from 1 to 1000, got 0',
    });
    assert.deepEqual(core.timeKernel('matmul_f32_9x9__avx', 32, 16, 8, 1, 0).ok, false);
    assert.match(
      core.timeKernel(undefined, 5000, 5000, 5000, 1, 0).error,
      /^m=5000, k=5000, n=5000 needs \d+ MiB of buffers .*over the 256 MiB cap$/,
    );
    assert.deepEqual(core.measureBandwidth('l4', 0.01), {
      ok: false,
      error: 'level must be one of l1, l2, memory, got "l4"',
    });
    assert.deepEqual(core.measureCompute('fast'), {
      ok: false,
      error: 'min_seconds must be a number, got the string "fast"',
    });
    assert.deepEqual(core.checkLessonKernel(7), { ok: false, error: 'variant must be a string, got number' });
    assert.deepEqual(core.packB(undefined, 2, 3, new Float32Array(5)), {
      ok: false,
      error: 'b must hold 6 floats (k·n), got 5',
    });
    assert.deepEqual(core.runKernel(undefined, 2, 2, 2, 'a', new Float32Array(4)), {
      ok: false,
      error: 'a must be a Float32Array, got string',
    });
    assert.deepEqual(core.uniformFloats(0, 1), {
      ok: false,
      error: 'count must be an integer from 1 to 67108864, got 0',
    });
    assert.deepEqual(core.createWork({ kind: 'triad', level: 'l1', workers: 0 }), {
      ok: false,
      error: 'work.workers must be an integer from 1 to 256, got 0',
    });
    assert.deepEqual(core.runWork(12345, 1).ok, false);
    // A number that is no handle is refused by name, never cast: 1e20 and 2^31 would trap an
    // int conversion in wasm (the instance would be lost), NaN and 1.5 would alias handle 0 or 1.
    for (const h of [1e20, 2 ** 31, -1, 0, 1.5, NaN, Infinity]) {
      for (const [what, r] of [
        ['runWork', core.runWork(h, 1)],
        ['workOutput', core.workOutput(h)],
        ['releaseWork', core.releaseWork(h)],
        ['notebookRunCell', core.notebookRunCell(h, 'x = 1', 1)],
        ['notebookReset', core.notebookReset(h)],
        ['notebookRelease', core.notebookRelease(h)],
        ['tableNext', core.tableNext(h, 100)],
      ]) {
        assert.equal(r.ok, false, `${what}(${h})`);
        assert.equal(r.input, 'handle', `${what}(${h})`);
        assert.match(r.error, /^handle must be a handle \w+ returned .*, got (-?[0-9.e+]+|NaN|inf)$/, `${what}(${h})`);
      }
      assert.deepEqual(core.tableRelease(h), { ok: true, value: true }, `tableRelease(${h})`);
    }
    const chains = core.createWork({ kind: 'chains' }).value;
    assert.deepEqual(core.runWork(chains.handle, 0), {
      ok: false,
      error: 'units must be an integer from 1 to 2^30, got 0',
    });
    assert.deepEqual(core.workOutput(chains.handle), {
      ok: false,
      error: 'workOutput needs kernel work, got chains work',
    });
    assert.deepEqual(core.releaseWork(chains.handle), { ok: true, value: true });
    // The core still works after all of that.
    assert.ok(core.checkLessonKernel(undefined).value.passed);
  });

  test('every registered variant passes the lesson check from JS', () => {
    const variants = core.kernelVariants().value;
    assert.ok(variants.some((v) => v.isa === 'wasmsimd' && v.fused_tanh));
    assert.ok(variants.some((v) => v.isa === 'scalar'));
    for (const v of variants) assert.ok(core.checkLessonKernel(v.name).value.passed, v.name);
  });
});

describe('page state', () => {
  test('a bad field names itself and keeps the last good report', () => {
    let state = createState(core);
    assert.equal(state.error, null);
    const good = state.report;
    state = setInput(core, state, 'm', '0');
    assert.deepEqual(state.error, { input: 'm', message: 'm must be a positive integer, got 0' });
    assert.equal(state.report, good);
    state = setInput(core, state, 'm', '');
    assert.deepEqual(state.error, { input: 'm', message: 'm must be a number, got nothing' });
    state = setInput(core, state, 'm', '64');
    assert.equal(state.error, null);
    assert.equal(state.report.matmul_accounting.flops, 2 * 64 * 16 * 8);
  });

  test('inputsToParams reads every field', () => {
    const r = inputsToParams({
      m: '1',
      k: '2',
      n: '3',
      itemsize: '4',
      sizes: '8,16',
      peak: '5',
      bandwidth: '6',
      traffic_factor: '0.5',
    });
    assert.deepEqual(r, {
      ok: true,
      params: { m: 1, k: 2, n: 3, itemsize: 4, sizes: [8, 16], peak: 5, bandwidth: 6, traffic_factor: 0.5 },
    });
  });

  test('a size listed twice is refused by name, not drawn and listed twice', () => {
    const r = inputsToParams({ sizes: '8,16,32,16.0' });
    assert.equal(r.ok, false);
    assert.equal(r.errors.sizes, 'sizes: entry 4 of 4 must not repeat a size, got 16 again (entry 2)');
  });
});
