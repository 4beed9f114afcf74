// node scripts/run.mjs: StableHLO run in the wasm core's interpreter, from the command line.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT } from '../../scripts/lib/node-core.mjs';
import { OPTIMIZED_HLO } from '../lib/optimized_hlo.mjs';

const CLI = join(ROOT, 'scripts', 'run.mjs');
const run = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'rl-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const write = (name, text) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

const withCheck = (expected) => `module @m {
  func.func public @main() -> tensor<3xi32> {
    %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    %b = stablehlo.add %a, %a : tensor<3xi32>
    %want = stablehlo.constant dense<${expected}> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%b, %want) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    return %b : tensor<3xi32>
  }
}
`;
const good = write('good.mlir', withCheck('[2, 4, 6]'));
const tampered = write('tampered.mlir', withCheck('[2, 5, 6]'));
const unsupported = write(
  'unsupported.mlir',
  'func.func @main() -> tensor<2xf32> {\n  %a = stablehlo.constant dense<1.0> : tensor<2xf32>\n  %b = "my.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n  return %b : tensor<2xf32>\n}\n',
);
const withArgs = write(
  'args.mlir',
  'func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %y = stablehlo.multiply %x, %x : tensor<4xf32>\n  return %y : tensor<4xf32>\n}\n',
);
/** A .npy file as np.save writes one (version 1.0, the header padded to 64 bytes). */
const npy = (name, descr, shape, data) => {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const head = Buffer.concat([
    Buffer.from([0x93]),
    Buffer.from('NUMPY'),
    Buffer.from([1, 0, header.length & 0xff, header.length >> 8]),
    Buffer.from(header, 'latin1'),
  ]);
  const file = join(dir, name);
  writeFileSync(file, Buffer.concat([head, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
  return file;
};
/** A .npy file's header dict text and its data, read back. */
const readNpy = (file) => {
  const b = readFileSync(file);
  assert.equal(b.subarray(0, 6).toString('latin1'), '\x93NUMPY');
  const len = b[8] | (b[9] << 8);
  assert.equal((10 + len) % 64, 0, 'the data starts on a 64-byte boundary');
  return {
    header: b
      .subarray(10, 10 + len)
      .toString('latin1')
      .trim(),
    data: b.subarray(10 + len),
  };
};
const chain = write(
  'chain.mlir',
  `func.func public @main(%x: tensor<4096xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {
  %c2 = stablehlo.constant dense<2.0> : tensor<f32>
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %b2 = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<4096xf32>
  %b1 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<4096xf32>
  %0 = stablehlo.multiply %b2, %x : tensor<4096xf32>
  %1 = stablehlo.add %0, %b1 : tensor<4096xf32>
  %2 = stablehlo.tanh %1 : tensor<4096xf32>
  %3 = stablehlo.multiply %2, %y : tensor<4096xf32>
  return %3 : tensor<4096xf32>
}
`,
);
const broken = write(
  'broken.mlir',
  'func.func @main() -> tensor<2xf32> {\n  %b = stablehlo.add %a, %a : tensor<2xf32>\n}\n',
);

describe('node scripts/run.mjs', () => {
  test('a file whose checks pass: a line, the summary, exit 0', () => {
    const r = run(good);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /good\.mlir: passed, 1\/1 checks passed \(.* ms, measured\)/);
    assert.match(r.stdout, /1 passed, 0 failed, 0 not run, 0 errors/);
  });

  test('--json: checks, timed ops beside their estimated flops and bytes, results', () => {
    const r = run(good, '--json');
    assert.equal(r.status, 0, r.stderr);
    const [f] = JSON.parse(r.stdout);
    assert.equal(f.file, good);
    assert.equal(f.dialect, 'stablehlo');
    assert.equal(f.status, 'passed');
    assert.deepEqual(
      f.checks.map((c) => [c.line, c.kind, c.passed]),
      [[6, 'expect_eq', true]],
    );
    const add = f.ops.find((o) => o.op === 'stablehlo.add');
    assert.equal(add.line, 4);
    assert.equal(add.flops, 3); // one per element (estimate)
    assert.equal(add.bytes_accessed, 3 * 4 * 3); // two operands and the result, i32 (estimate)
    assert.ok(add.seconds > 0 && add.repeats >= 1);
    assert.deepEqual(
      f.results.map((x) => [x.shape, x.checksum]),
      [['tensor<3xi32>', 12]],
    );
    assert.deepEqual(f.unsupported, []);
    assert.deepEqual(f.errors, []);
  });

  test('a non-finite checksum is named (nan, inf, -inf): JSON has no such numbers', () => {
    const file = write(
      'nonfinite.mlir',
      'func.func @main() -> (tensor<2xf32>, tensor<f32>, tensor<f32>) {\n' +
        '  %n = stablehlo.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>\n' +
        '  %i = stablehlo.constant dense<0x7F800000> : tensor<f32>\n' +
        '  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n' +
        '  return %n, %i, %m : tensor<2xf32>, tensor<f32>, tensor<f32>\n}\n',
    );
    const r = run(file, '--json');
    assert.equal(r.status, 0, r.stderr);
    const [f] = JSON.parse(r.stdout);
    assert.deepEqual(
      f.results.map((x) => [x.checksum, x.preview]),
      [
        ['nan', 'nan, 1'],
        ['inf', 'inf'],
        ['-inf', '-inf'],
      ],
    );
  });

  test('a tampered expected value fails with the index, both values and exit 1', () => {
    const r = run(tampered);
    assert.equal(r.status, 1);
    assert.match(
      r.stdout,
      /tampered\.mlir: FAILED, 0\/1 checks passed: line 6 expect_eq: 1 of 3 elements differ; first at \[1\]: got 4, expected 5/,
    );
  });

  test('an op the interpreter does not run: named with its line, exit 1 unless allowed', () => {
    const r = run(unsupported);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /not run — my\.op \(line 3: an op the core does not know\)/);
    assert.equal(run(unsupported, '--allow-unsupported').status, 0);
    const [f] = JSON.parse(run(unsupported, '--json', '--allow-unsupported').stdout);
    assert.deepEqual(
      f.unsupported.map((u) => [u.op, u.line, u.column]),
      [['my.op', 3, 3]],
    );
  });

  test('a function with arguments runs on arange or seeded inputs, and says so', () => {
    const none = JSON.parse(run(withArgs, '--json').stdout)[0];
    assert.equal(none.status, 'error');
    assert.match(none.errors[0].message, /takes 1 arguments .* expected inputs to run it on \(seeded or arange\)/);
    const r = JSON.parse(run(withArgs, '--json', '--inputs', 'arange').stdout)[0];
    assert.equal(r.status, 'passed');
    assert.equal(r.inputs, 'arange');
    // x = arange(4)/4 = [0, .25, .5, .75]; x² sums to 0.875.
    assert.deepEqual(
      r.results.map((x) => [x.shape, x.checksum]),
      [['tensor<4xf32>', 0.875]],
    );
    const s1 = JSON.parse(run(withArgs, '--json', '--inputs', 'seeded', '--seed', '3').stdout)[0];
    const s2 = JSON.parse(run(withArgs, '--json', '--inputs', 'seeded', '--seed', '3').stdout)[0];
    assert.equal(s1.results[0].checksum, s2.results[0].checksum);
    assert.equal(s1.inputs, 'seeded (seed 3)');
  });

  test('ops_seconds sums the timed ops; --timing-budget runs the ops after the budget untimed and counts them', () => {
    const args = [chain, '--json', '--inputs', 'seeded', '--no-fuse'];
    const [f] = JSON.parse(run(...args).stdout);
    assert.equal(f.untimed_ops, 0);
    assert.ok(f.ops.length >= 2);
    const sum = f.ops.reduce((s, o) => s + o.seconds, 0);
    assert.ok(Math.abs(f.ops_seconds - sum) <= 1e-12 * sum, `${f.ops_seconds} vs ${sum}`);
    // A budget spent by the first timed op: every later op runs once, untimed, and the result is the same.
    const [b] = JSON.parse(run(...args, '--timing-budget', '1e-12').stdout);
    assert.equal(b.status, 'passed');
    assert.equal(b.ops.length, 1);
    assert.equal(b.untimed_ops, f.ops.length - 1);
    assert.deepEqual(b.results, f.results);
    assert.deepEqual(b.checks, f.checks);
    assert.match(
      run(good, '--timing-budget', '-1').stderr,
      /timing_budget_seconds must be a number of seconds from 0 to 86400, got -1/,
    );
  });

  test('fused by default: the chain runs as one kLoop fusion timed as one, counted as XLA counts it; --no-fuse runs op by op with the same bits', () => {
    const [f] = JSON.parse(run(chain, '--json', '--inputs', 'seeded').stdout);
    assert.equal(f.status, 'passed');
    assert.equal(f.fused, true);
    assert.equal(f.fusions.length, 1);
    const fu = f.fusions[0];
    assert.equal(fu.name, 'fusion.0');
    assert.equal(fu.kind, 'kLoop');
    assert.equal(fu.fallback, '');
    assert.deepEqual(
      fu.ops.map((o) => [o.line, o.op]),
      [
        [2, 'stablehlo.constant'],
        [3, 'stablehlo.constant'],
        [4, 'stablehlo.broadcast_in_dim'],
        [5, 'stablehlo.broadcast_in_dim'],
        [6, 'stablehlo.multiply'],
        [7, 'stablehlo.add'],
        [8, 'stablehlo.tanh'],
        [9, 'stablehlo.multiply'],
      ],
    );
    assert.deepEqual([fu.line, fu.column], [9, 3]); // its root
    assert.equal(fu.flops, 3 * 4096); // multiply, add, multiply per element
    assert.equal(fu.transcendentals, 4096); // tanh
    assert.equal(fu.bytes_accessed, 3 * 4096 * 4); // x and y read once, the output written once
    assert.ok(fu.seconds > 0 && fu.repeats >= 1);
    assert.deepEqual(f.ops, []); // nothing ran alone
    assert.ok(Math.abs(f.ops_seconds - fu.seconds) <= 1e-12 * fu.seconds);
    const [u] = JSON.parse(run(chain, '--json', '--inputs', 'seeded', '--no-fuse').stdout);
    assert.equal(u.status, 'passed');
    assert.equal(u.fused, false);
    assert.deepEqual(u.fusions, []);
    // The six ops with a cost timed; the two constants ran untimed (no row of the analysis is theirs).
    assert.deepEqual(
      u.ops.map((o) => o.op),
      [
        'stablehlo.broadcast_in_dim',
        'stablehlo.broadcast_in_dim',
        'stablehlo.multiply',
        'stablehlo.add',
        'stablehlo.tanh',
        'stablehlo.multiply',
      ],
    );
    assert.equal(u.untimed_ops, 0);
    const sum = u.ops.reduce((s, o) => s + o.seconds, 0);
    assert.ok(Math.abs(u.ops_seconds - sum) <= 1e-12 * sum);
    assert.deepEqual(
      u.results.map((x) => x.bits),
      f.results.map((x) => x.bits),
    );
  });

  test("a fusion in a while body is in the JSON once, untimed, with the while that holds it (within); the entry's own have within null", () => {
    const loop = write(
      'loop.mlir',
      `func.func @main() -> tensor<256xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %x0 = stablehlo.constant dense<0.5> : tensor<256xf32>
  %r:2 = stablehlo.while(%i = %c0, %x = %x0) : tensor<i32>, tensor<256xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i2 = stablehlo.add %i, %one : tensor<i32>
      %x2 = stablehlo.tanh %x : tensor<256xf32>
      %x3 = stablehlo.multiply %x2, %x : tensor<256xf32>
      stablehlo.return %i2, %x3 : tensor<i32>, tensor<256xf32>
    }
  %y = stablehlo.exponential %r#1 : tensor<256xf32>
  %z = stablehlo.add %y, %r#1 : tensor<256xf32>
  return %z : tensor<256xf32>
}
`,
    );
    const [f] = JSON.parse(run(loop, '--json').stdout);
    assert.equal(f.status, 'passed');
    assert.equal(f.fusions.length, 2);
    const [body, top] = f.fusions;
    assert.deepEqual(body.within, { line: 6, column: 3, op: 'stablehlo.while' });
    assert.deepEqual(
      body.ops.map((o) => [o.line, o.op]),
      [
        [12, 'stablehlo.tanh'],
        [13, 'stablehlo.multiply'],
      ],
    );
    assert.equal(body.kind, 'kLoop');
    assert.deepEqual([body.seconds, body.repeats], [0, 0]); // its time is the while's
    assert.equal(top.within, null);
    assert.deepEqual(
      top.ops.map((o) => o.op),
      ['stablehlo.exponential', 'stablehlo.add'],
    );
    assert.ok(top.seconds > 0);
    assert.ok(f.ops.some((o) => o.op === 'stablehlo.while' && o.seconds > 0));
    // The same bits op by op, where no fusion is listed.
    const [u] = JSON.parse(run(loop, '--json', '--no-fuse').stdout);
    assert.deepEqual(u.fusions, []);
    assert.deepEqual(
      u.results.map((x) => x.bits),
      f.results.map((x) => x.bits),
    );
  });

  test("optimized HLO runs: XLA's fusion op is timed as one op with the counts XLA gives a fusion, bitcast follows the layouts, a collective is refused with its reason", () => {
    const optimized = write('optimized.hlo', OPTIMIZED_HLO);
    const [f] = JSON.parse(run(optimized, '--json', '--inputs', 'arange').stdout);
    assert.equal(f.status, 'passed');
    const fusion = f.ops.find((o) => o.op === 'fusion');
    assert.equal(fusion.line, 14);
    assert.equal(fusion.flops, 64 * 32); // the add (estimate)
    assert.equal(fusion.transcendentals, 64 * 32); // the tanh
    assert.equal(fusion.bytes_accessed, (64 * 32 + 32 + 64 * 32) * 4); // its operands and output
    assert.ok(fusion.seconds > 0 && fusion.repeats >= 1);
    // The bitcast to f32[32,64]{0,1} is a transpose: row 0 is the fusion's column 0, tanh(x[j][0])
    // with x = arange(2048)/2048, so tanh(j/64).
    assert.equal(f.results[0].shape, 'f32[32,64]');
    const row = f.results[0].preview.split(', ').slice(0, 3).map(Number);
    row.forEach((v, j) => assert.ok(Math.abs(v - Math.tanh(j / 64)) < 1e-7, `${v} at ${j}`));
    const [u] = JSON.parse(run(optimized, '--json', '--inputs', 'arange', '--no-fuse').stdout);
    assert.equal(u.results[0].bits, f.results[0].bits);
    const collective = write(
      'collective.hlo',
      'HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n' +
        'ENTRY main {\n  a = f32[4] constant({1, 2, 3, 4})\n  ROOT r = f32[4] all-reduce(a), replica_groups={}, to_apply=add\n}\n',
    );
    const r = run(collective);
    assert.equal(r.status, 1);
    assert.match(
      r.stdout,
      /not run — all-reduce \(line 9: a collective: it exchanges values between devices, and the interpreter runs one device\)/,
    );
  });

  test("--xla-cpu fuses as XLA's CPU backend does: the lesson's dot and tanh run apart, with the same bits", () => {
    const lesson = write(
      'lesson_dot.mlir',
      `func.func public @main(%a: tensor<32x16xf32>, %b: tensor<16x8xf32>) -> tensor<32x8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>
  %1 = stablehlo.tanh %0 : tensor<32x8xf32>
  return %1 : tensor<32x8xf32>
}
`,
    );
    const [gpu] = JSON.parse(run(lesson, '--json', '--inputs', 'arange').stdout);
    assert.equal(gpu.dot_epilogues, true);
    assert.deepEqual(
      gpu.fusions.map((f) => f.kind),
      ['kOutput'],
    );
    const [cpu] = JSON.parse(run(lesson, '--json', '--inputs', 'arange', '--xla-cpu').stdout);
    assert.equal(cpu.status, 'passed');
    assert.equal(cpu.fused, true);
    assert.equal(cpu.dot_epilogues, false);
    assert.deepEqual(cpu.fusions, []);
    assert.deepEqual(
      cpu.ops.map((o) => o.op),
      ['stablehlo.dot_general', 'stablehlo.tanh'],
    );
    assert.equal(cpu.results[0].bits, gpu.results[0].bits);
    const both = run(lesson, '--xla-cpu', '--no-fuse');
    assert.equal(both.status, 1);
    assert.match(both.stderr, /--xla-cpu chooses how a run fuses, and --no-fuse runs op by op: give one/);
  });

  test('bad text is an error at its place; bad options are refused by name', () => {
    const r = run(broken);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /broken\.mlir:2:3: error: use of an undefined value/);
    const bad = run(good, '--inputs', 'sideways');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /inputs must be one of none, seeded, arange, got "sideways"/);
    assert.match(run(good, '--frobnicate').stderr, /unknown option "--frobnicate"/);
    assert.match(run().stderr, /no FILE given/);
    assert.match(run(join(dir, 'missing.mlir')).stderr, /cannot read: ENOENT/);
  });

  test('--help describes the options and the output', () => {
    const r = run('--help');
    assert.equal(r.status, 0);
    for (const word of [
      '--json',
      'PROGRAM.py',
      '--entry NAME',
      '--inputs seeded',
      '--inputs arange',
      '--allow-unsupported',
      '--timing-budget S',
      'untimed_ops',
      '--no-fuse',
      '--xla-cpu',
      'dot_epilogues',
      'fusions',
      'fallback',
      'within',
      'measurements of this machine',
      'estimates from the IR',
    ]) {
      assert.ok(r.stdout.includes(word), word);
    }
  });

  test(
    'StableHLO interpreter tests from the corpus run and pass',
    { skip: !existsSync(resolve(ROOT, '..', 'shared', 'corpus', 'stablehlo-interpret')) && 'SKIPPED: corpus absent' },
    () => {
      const corpus = resolve(ROOT, '..', 'shared', 'corpus', 'stablehlo-interpret');
      const r = run(
        join(corpus, 'add_int32_20_20_int32_20_20.mlir'),
        join(corpus, 'abs_complex64_20_20.mlir'),
        '--json',
      );
      assert.equal(r.status, 0, r.stdout.slice(0, 500));
      for (const f of JSON.parse(r.stdout)) {
        assert.equal(f.status, 'passed');
        assert.ok(f.checks.length >= 1 && f.checks.every((c) => c.passed));
      }
    },
  );

  test("a .py program is lowered, then run on arange inputs: the seed's tanh(a @ b) gives NumPy's values", () => {
    const py = write(
      'lesson.py',
      [
        'import jax',
        'import jax.numpy as jnp',
        '',
        'def workload(a, b):',
        '    return jnp.tanh(a @ b)',
        '',
        'a = jnp.arange(32 * 16, dtype=jnp.float32).reshape(32, 16) / 512',
        'b = jnp.arange(16 * 8, dtype=jnp.float32).reshape(16, 8) / 128',
        'jax.jit(workload).lower(a, b)',
        '',
      ].join('\n'),
    );
    const r = run(py, '--json', '--no-time');
    assert.equal(r.status, 0, r.stderr);
    const [f] = JSON.parse(r.stdout);
    assert.equal(f.status, 'passed');
    assert.equal(f.inputs, 'arange');
    assert.equal(f.lowered_function, 'workload');
    assert.equal(f.results[0].shape, 'tensor<32x8xf32>');
    // NumPy (Debian's python3-numpy, float32): np.tanh(a @ b) with the seed's a and b sums to
    // 234.77028596401215 and starts 0.15022165, 0.15201087, 0.15379912 — within the lesson's rule.
    assert.ok(
      Math.abs(f.results[0].checksum - 234.77028596401215) <= 2e-5 * 256 + 2e-5 * 234.8,
      String(f.results[0].checksum),
    );
    const first = f.results[0].preview.split(', ').slice(0, 3).map(Number);
    [0.15022165, 0.15201087, 0.15379912].forEach((want, i) =>
      assert.ok(Math.abs(first[i] - want) <= 2e-5 + 2e-5 * want, `${first[i]} vs ${want}`),
    );
  });

  test('--args runs on .npy files checked against the signature, --out writes each result as .npy', () => {
    const x = npy('x.npy', '<f4', [4], new Float32Array([1, 2, 3, -4]));
    const out = join(dir, 'out');
    const r = run(withArgs, '--args', x, '--out', out, '--json', '--no-time');
    assert.equal(r.status, 0, r.stderr);
    const [f] = JSON.parse(r.stdout);
    assert.equal(f.status, 'passed');
    assert.equal(f.inputs, x);
    const saved = readNpy(join(out, 'result_0.npy'));
    assert.equal(saved.header, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }");
    assert.deepEqual(
      [
        ...new Float32Array(
          saved.data.buffer.slice(saved.data.byteOffset, saved.data.byteOffset + saved.data.byteLength),
        ),
      ],
      [1, 4, 9, 16],
    );

    // A file of another shape or dtype, too many files, a file that is not .npy: named, exit 1.
    const five = npy('five.npy', '<f4', [5], new Float32Array(5));
    let bad = run(withArgs, '--args', five);
    assert.equal(bad.status, 1);
    assert.match(
      bad.stderr,
      /argument 1 of main \(%x\) must be tensor<4xf32> = float32 \(4,\), got .*five\.npy: float32 \(5,\)/,
    );
    const f64 = npy('f64.npy', '<f8', [4], new Float64Array(4));
    assert.match(
      run(withArgs, '--args', f64).stderr,
      /must be tensor<4xf32> = float32 \(4,\), got .*f64\.npy: float64 \(4,\)/,
    );
    assert.match(run(withArgs, '--args', `${x},${x}`).stderr, /main takes 1 argument \(tensor<4xf32>\), got 2 arrays/);
    bad = run(withArgs, '--args', withArgs);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /args\.mlir: not a \.npy file: a \.npy file starts with \\x93NUMPY/);
    assert.match(
      run(withArgs, '--args', join(dir, 'missing.npy')).stderr,
      /--args: cannot read .*missing\.npy: ENOENT/,
    );
    assert.match(run(withArgs, '--args', x, '--inputs', 'seeded').stderr, /give inputs or args, not both/);
    assert.match(run(withArgs, '--out').stderr, /--out needs a folder/);
  });

  test('--memory-cap limits the live tensors; a capped run says what the program needs by its IR', () => {
    // args.mlir: x (16 bytes) and x*x (16 bytes) live at once.
    const [f] = JSON.parse(run(withArgs, '--inputs', 'arange', '--json', '--no-time').stdout);
    assert.equal(f.memory_need_bytes, 32);
    assert.ok(f.peak_bytes <= f.memory_need_bytes, `${f.peak_bytes} ≤ ${f.memory_need_bytes}`);
    const capped = run(withArgs, '--inputs', 'arange', '--memory-cap', '20B');
    assert.equal(capped.status, 1);
    assert.match(
      capped.stderr,
      /memory cap of 20 bytes .*by its IR the program's values need up to 32 bytes, reached at 2:\d+ stablehlo\.multiply, ops' scratch on top: raise memory_cap/,
    );
    assert.equal(run(withArgs, '--inputs', 'arange', '--memory-cap', '1KiB').status, 0);
    assert.match(
      run(withArgs, '--memory-cap', 'lots').stderr,
      /--memory-cap must be a size in bytes, or with KiB, MiB or GiB \(512MiB\), got "lots"/,
    );
    assert.match(
      run(withArgs, '--inputs', 'arange', '--memory-cap', '8GiB').stderr,
      /memory_cap must be an integer from 1 to 4294967296, got 8589934592/,
    );
  });

  test("a .py program runs on .npy files: the seed's a and b given as files give what its arange inputs give", () => {
    const py = write(
      'lesson_npy.py',
      [
        'import jax',
        'import jax.numpy as jnp',
        '',
        'def workload(a, b):',
        '    return jnp.tanh(a @ b)',
        '',
        'a = jnp.zeros((32, 16))',
        'b = jnp.zeros((16, 8))',
        'jax.jit(workload).lower(a, b)',
        '',
      ].join('\n'),
    );
    const a = npy(
      'a.npy',
      '<f4',
      [32, 16],
      Float32Array.from({ length: 512 }, (_, i) => i / 512),
    );
    const b = npy(
      'b.npy',
      '<f4',
      [16, 8],
      Float32Array.from({ length: 128 }, (_, i) => i / 128),
    );
    const out = join(dir, 'lesson-out');
    const given = JSON.parse(run(py, '--args', `${a},${b}`, '--out', out, '--json', '--no-time').stdout)[0];
    const arange = JSON.parse(run(py, '--json', '--no-time').stdout)[0];
    assert.equal(given.status, 'passed');
    assert.equal(given.inputs, `${a}, ${b}`);
    assert.equal(given.results[0].bits, arange.results[0].bits);
    const saved = readNpy(join(out, 'result_0.npy'));
    assert.equal(saved.header, "{'descr': '<f4', 'fortran_order': False, 'shape': (32, 8), }");
    assert.equal(saved.data.length, 32 * 8 * 4);
    // One .npy per argument of the Python function: the one jit leaves out (unread) is not passed.
    const halves = write(
      'halves.py',
      'import jax\nimport jax.numpy as jnp\n\ndef f(a, b):\n    return b * 0.5\n\njax.jit(f).lower(jnp.zeros((32, 16)), jnp.zeros((16, 8)))\n',
    );
    const only_b = JSON.parse(run(halves, '--args', `${a},${b}`, '--json', '--no-time').stdout)[0];
    assert.equal(only_b.status, 'passed');
    assert.equal(only_b.inputs, b);
    assert.deepEqual(
      only_b.results.map((x) => x.shape),
      ['tensor<16x8xf32>'],
    );
  });

  test('a .py program that does not lower is an error at FILE:LINE:COL; --entry picks the function', () => {
    const bad = write(
      'bad.py',
      'import jax\nimport jax.numpy as jnp\n\ndef f(a, b):\n    return a @ b\n\njax.jit(f).lower(jnp.zeros((2, 3)), jnp.zeros((4, 5)))\n',
    );
    const r = run(bad);
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      /bad\.py:5:14: dot_general requires contracting dimensions to have the same shape, got \(3,\) and \(4,\)/,
    );
    const two = write(
      'two.py',
      'import jax\nimport jax.numpy as jnp\n\ndef f(x):\n    return x + 1\n\ndef g(x):\n    return x * 2\n\n' +
        'jax.jit(f).lower(jnp.ones((3,)))\njax.jit(g).lower(jnp.ones((3,)))\n',
    );
    const [viaG] = JSON.parse(run(two, '--entry', 'g', '--json', '--no-time').stdout);
    assert.equal(viaG.lowered_function, 'g');
    assert.equal(viaG.results[0].preview, '0, 0.6666667, 1.3333334'); // arange(3)/3 doubled
    assert.match(run(two, '--entry').stderr, /--entry needs a function name/);
  });
});
