// node scripts/lesson.mjs, run as a person runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'lesson.mjs'), ...args], { encoding: 'utf8' });

test('--json prints one object with the keys the issue names and the lesson numbers', () => {
  const out = run('--json', '--samples', '3');
  assert.equal(out.status, 0, out.stderr);
  const r = JSON.parse(out.stdout);
  for (const key of [
    'matmul_accounting',
    'sizes',
    'intensity',
    'hypothetical_ceilings_gflops',
    'doubled_traffic_ceilings_gflops',
    'ridge',
    'figure',
    'exercise',
    'budgets',
  ])
    assert.ok(key in r, key);
  assert.deepEqual(
    [r.matmul_accounting.flops, r.matmul_accounting.minimum_bytes, r.matmul_accounting.flops_per_byte],
    [8192, 3584, 16 / 7],
  );
  assert.deepEqual(r.sizes, [8, 16, 32, 64, 128]);
  assert.equal(r.ridge, 5);
  assert.deepEqual(r.hypothetical_ceilings_gflops, [26.666666666666664, 53.33333333333333, 100, 100, 100]);
  assert.deepEqual(
    r.doubled_traffic_ceilings_gflops,
    [13.333333333333332, 26.666666666666664, 53.33333333333333, 100, 100],
  );
  assert.deepEqual(
    [r.exercise.work, r.exercise.traffic, r.exercise.ratio, r.exercise.bound],
    [27648, 8064, 24 / 7, 'memory-bound'],
  );
  assert.deepEqual([r.budgets.peak, r.budgets.bandwidth, r.budgets.hypothetical], [100, 20, true]);
  assert.equal(r.figure.kind, 'line');
  // The kernel issue's keys: measurements of this machine, apart from the model's numbers.
  assert.equal(r.local_samples_seconds.length, 3);
  for (const key of ['median', 'min', 'max', 'repeats', 'timer_resolution'])
    assert.equal(typeof r.timing[key], 'number', key);
  assert.equal(r.kernel_check.passed, true);
  assert.equal(typeof r.kernel_check.max_abs_error, 'number');
  assert.ok(r.measured_ceilings.gflops > 0);
  assert.deepEqual(Object.keys(r.measured_ceilings.bandwidth_gbs), ['l1', 'l2', 'memory']);
  assert.match(r.measurements_label, /^measurements of this machine/);
});

test('--workers 2 measures on 1 core and on 2 Workers at once, each sample ≥ 100 timer ticks', () => {
  const out = run('--json', '--samples', '2', '--workers', '2');
  assert.equal(out.status, 0, out.stderr);
  const r = JSON.parse(out.stdout);
  assert.deepEqual(r.measured_ceilings.cores, [1, 2]);
  assert.ok(r.measured_ceilings.by_cores['2'].gflops > 0);
  assert.deepEqual(
    r.kernel_timings.map((k) => `${k.m}/${k.cores}`),
    ['256/1', '256/2', '512/1', '512/2'],
  );
  for (const t of [r.timing, ...r.kernel_timings]) {
    const samples = t.seconds_per_call ?? r.local_samples_seconds;
    for (const s of samples)
      assert.ok(t.repeats * s >= 100 * t.timer_resolution, `${t.repeats} × ${s} < 100 × ${t.timer_resolution}`);
  }
  const text = run('--samples', '1', '--workers', '2').stdout;
  assert.match(text, /^ {2}tanh\(A@B\) at 512×512×512 on 2 cores at once: median .* GFLOP\/s .*efficiency/m);
  assert.match(text, /^ {2}measured ceilings, 2 cores at once: mul\+add/m);
});

test('--no-measure skips the measurements and says so', () => {
  const out = run('--no-measure');
  assert.equal(out.status, 0);
  assert.ok(out.stdout.split('\n').includes('Local CPU samples seconds: skipped (--no-measure)'));
  const r = JSON.parse(run('--json', '--no-measure').stdout);
  assert.equal(r.local_samples_seconds, null);
  assert.equal(r.measurements_skipped, 'skipped (--no-measure)');
  assert.equal(r.kernel_check.passed, true); // the reference check is not a measurement: it still runs
});

test('options change the inputs', () => {
  const r = JSON.parse(
    run(
      '--json',
      '--no-measure',
      '--m',
      '48',
      '--k=24',
      '--n',
      '12',
      '--peak',
      '50',
      '--bandwidth',
      '25',
      '--traffic-factor',
      '3',
      '--sizes',
      '12,60',
      '--itemsize',
      '2',
    ).stdout,
  );
  assert.equal(r.matmul_accounting.flops, 27648);
  assert.equal(r.matmul_accounting.minimum_bytes, 8064 / 2);
  assert.equal(r.ridge, 2);
  assert.deepEqual(r.intensity, [4, 20]); // itemsize 2: 2n³ / (2·3n²) = n/3
  assert.deepEqual(r.hypothetical_ceilings_gflops, [50, 50]);
  assert.equal(r.traffic_factor, 3);
  assert.ok(Math.abs(r.doubled_traffic_ceilings_gflops[0] - 25 * (4 / 3)) < 1e-12); // below the ridge now
  assert.equal(r.doubled_traffic_ceilings_gflops[1], 50);
});

test('the text report prints the seed lines and says what is not available yet', () => {
  const out = run('--samples', '2');
  assert.equal(out.status, 0);
  const lines = out.stdout.split('\n');
  assert.match(
    lines[0],
    /^StableHLO operations present: dot_general and tanh \(f32; contract: 32×16 · 16×8 → tensor<32x8xf32>, verified\)$/,
  );
  assert.match(
    lines.find((l) => l.startsWith('Local CPU samples seconds:')),
    /^Local CPU samples seconds: \[[0-9.e-]+, [0-9.e-]+\]$/,
  );
  assert.ok(lines.some((l) => l.includes('measurements of this machine')));
  assert.ok(lines.some((l) => l.includes('live in L1')));
  assert.ok(
    lines.includes(
      "Matmul-only accounting: {'flops': 8192, 'minimum_bytes': 3584, 'flops_per_byte': 2.2857142857142856}",
    ),
  );
  assert.ok(
    lines.includes('Hypothetical ceilings GFLOP/s: [26.666666666666664, 53.33333333333333, 100.0, 100.0, 100.0]'),
  );
  assert.ok(lines.some((l) => l.includes('hypothetical, not a device specification')));
});

test('bad options exit 1 with one line on stderr naming the option, rule and value', () => {
  const cases = [
    [['--m', '0'], 'lesson.mjs: --m: m must be a positive integer, got 0'],
    [['--k', '-1'], 'lesson.mjs: --k: k must be a positive integer, got -1'],
    [['--n', '2.5'], 'lesson.mjs: --n: n must be a positive integer, got 2.5'],
    [['--m', 'abc'], 'lesson.mjs: --m must be a number, got "abc"'],
    [['--m'], 'lesson.mjs: --m needs a value (see --help)'],
    [['--peak', 'inf'], 'lesson.mjs: --peak: peak must be a positive, finite number of GFLOP/s, got infinity'],
    [['--bandwidth', 'nan'], 'lesson.mjs: --bandwidth: bandwidth must be a positive, finite number of GB/s, got NaN'],
    [
      ['--traffic-factor', '0'],
      'lesson.mjs: --traffic-factor: traffic factor must be a positive, finite number, got 0',
    ],
    [['--itemsize', '0'], 'lesson.mjs: --itemsize: itemsize must be a positive integer, got 0'],
    [['--sizes', '8,x'], 'lesson.mjs: --sizes: entry 2 of 2 must be a number, got "x"'],
    [['--frobnicate'], 'lesson.mjs: unknown option "--frobnicate" (see --help)'],
    [['--samples', '0'], 'lesson.mjs: --samples must be an integer from 1 to 1000, got 0'],
    [['--workers', '0'], 'lesson.mjs: --workers must be an integer from 1 to 64, got 0'],
    [['--workers', 'all'], 'lesson.mjs: --workers must be a number, got "all"'],
  ];
  for (const [args, message] of cases) {
    const out = run(...args);
    assert.equal(out.status, 1, args.join(' '));
    assert.equal(out.stderr, `${message}\n`);
    assert.equal(out.stdout, '');
  }
  const overflow = run('--m', '1125899906842624', '--k', '1125899906842624', '--n', '1125899906842624');
  assert.equal(overflow.status, 1);
  assert.match(overflow.stderr, /^lesson\.mjs: --m\/--k\/--n: flops = 2·m·k·n does not fit in 128 bits/);
  assert.equal(overflow.stderr.split('\n').length, 2);
});

test('--help describes every option', () => {
  const out = run('--help');
  assert.equal(out.status, 0);
  for (const option of [
    '--m',
    '--k',
    '--n',
    '--itemsize',
    '--sizes',
    '--peak',
    '--bandwidth',
    '--traffic-factor',
    '--samples',
    '--workers',
    '--no-measure',
    '--json',
  ]) {
    assert.ok(out.stdout.includes(option), option);
  }
});
