// node scripts/lower.mjs and core.lower: JAX-style Python → the StableHLO JAX prints, through the
// wasm core (cpp/python).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED = resolve(ROOT, '..', 'shared');
const run = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'lower.mjs'), ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'lower-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LESSON = `import jax
import jax.numpy as jnp

def workload(a, b):
    return jnp.tanh(a @ b)

a = jnp.arange(32 * 16, dtype=jnp.float32).reshape(32, 16) / 512
b = jnp.arange(16 * 8, dtype=jnp.float32).reshape(16, 8) / 128
jax.jit(workload).lower(a, b)
`;

test('the lesson lowers to the module the emitter prints for it, byte for byte', async () => {
  const file = join(dir, 'lesson.py');
  writeFileSync(file, LESSON);
  const out = run(file);
  assert.equal(out.status, 0, out.stderr);
  const core = await loadNodeCore();
  assert.equal(out.stdout, core.emitWorkload(32, 16, 8, 'f32').value);
  assert.match(
    out.stdout,
    /^module @jit_workload attributes \{mhlo\.num_partitions = 1 : i32, mhlo\.num_replicas = 1 : i32\} \{\n/,
  );
  // And it analyses like the lesson: 8192 flops.
  const a = core.analyzeText(out.stdout);
  assert.equal(a.ok, true);
  assert.equal(a.value.totals.flops, 8192);
});

test("the seed's lesson.py gives lesson.md's module", { skip: !existsSync(join(SHARED, 'seed', 'lesson.py')) }, () => {
  const out = run(join(SHARED, 'seed', 'lesson.py'));
  assert.equal(out.status, 0, out.stderr);
  const md = readFileSync(join(SHARED, 'reference', 'lesson.md'), 'utf8');
  const start = md.indexOf('```\nmodule @jit_workload') + 4;
  assert.equal(out.stdout, md.slice(start, md.indexOf('```', start)));
});

test('--entry picks the function whose .lower(...) call is lowered', () => {
  const file = join(dir, 'two.py');
  writeFileSync(
    file,
    'import jax\nimport jax.numpy as jnp\ndef f(x):\n    return x * 2\ndef g(x):\n    return jax.nn.relu(x)\n' +
      'jax.jit(f).lower(jnp.zeros(4))\njax.jit(g).lower(jax.ShapeDtypeStruct((2, 3), jnp.float32))\n',
  );
  const first = run(file);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /^module @jit_f /);
  const g = run(file, '--entry', 'g');
  assert.equal(g.status, 0, g.stderr);
  assert.match(g.stdout, /%0 = call @relu\(%arg0\) : \(tensor<2x3xf32>\) -> tensor<2x3xf32>/);
  assert.match(g.stdout, /func\.func private @relu\(%arg0: tensor<2x3xf32>\) -> tensor<2x3xf32> \{/);
  const none = run(file, '--entry', 'h');
  assert.equal(none.status, 1);
  assert.equal(none.stderr, `${file}:1:1: no function named 'h' is defined in the file\n`);
});

test('errors are FILE:LINE:COL: message with exit status 1 and nothing on stdout', () => {
  const file = join(dir, 'bad.py');
  writeFileSync(
    file,
    'import jax\nimport jax.numpy as jnp\ndef f(a, b):\n    return a @ b\njax.jit(f).lower(jnp.zeros((32, 16)), jnp.zeros((15, 8)))\n',
  );
  const out = run(file);
  assert.equal(out.status, 1);
  assert.equal(out.stdout, '');
  assert.equal(
    out.stderr,
    `${file}:4:14: dot_general requires contracting dimensions to have the same shape, got (16,) and (15,).\n`,
  );
  const syntax = join(dir, 'syntax.py');
  writeFileSync(syntax, 'def f(x):\n    return (x +\n');
  const s = run(syntax);
  assert.equal(s.status, 1);
  assert.equal(s.stderr, `${syntax}:2:12: '(' was never closed\n`);
  const unknown = join(dir, 'unknown.py');
  writeFileSync(
    unknown,
    'import jax\nimport jax.numpy as jnp\ndef f(x):\n    return jnp.foo(x)\njax.jit(f).lower(jnp.zeros(3))\n',
  );
  assert.match(run(unknown).stderr, /unknown\.py:4:12: jnp\.foo is not supported here; supported: jnp\.abs, /);
});

test('--help, bad options and missing files', () => {
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /usage: node scripts\/lower\.mjs PROGRAM\.py \[--entry NAME\]/);
  assert.match(help.stdout, /jax\.nn\.relu/);
  assert.match(help.stdout, /jnp\.einsum\('\.\.\.ij,jk->\.\.\.ik', x, w\)/);
  assert.match(help.stdout, /lax\.fori_loop\(0, 3, /);
  assert.equal(run('--nope', 'x.py').status, 1);
  assert.equal(run().status, 1);
  const missing = run(join(dir, 'missing.py'));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /missing\.py: cannot read: ENOENT/);
  assert.equal(run(join(dir, 'x.py'), '--entry').status, 1);
});

test('core.lower gives {ok, text, function, kept_args} or the error with line, column and message', async () => {
  const core = await loadNodeCore();
  const r = core.lower(LESSON);
  assert.equal(r.ok, true);
  assert.equal(r.function, 'workload');
  assert.deepEqual(r.kept_args, [0, 1]);
  // jit leaves out an argument nothing reads: @main takes the second alone.
  const unused = core.lower(
    'import jax\nimport jax.numpy as jnp\ndef f(x, y):\n    return y * 2\njax.jit(f).lower(jnp.zeros(2), jnp.zeros(3))\n',
  );
  assert.deepEqual(unused.kept_args, [1]);
  assert.match(unused.text, /@main\(%arg0: tensor<3xf32>\)/);
  assert.equal(r.text, core.emitWorkload(32, 16, 8, 'f32').value);
  const e = core.lower('x = (1 +\n', { entry: 'f' });
  assert.deepEqual(
    { ok: e.ok, line: e.line, column: e.column, message: e.message, error: e.error },
    { ok: false, line: 1, column: 5, message: "'(' was never closed", error: "1:5: '(' was never closed" },
  );
  assert.equal(core.lower(42).ok, false);
  assert.match(core.lower('x = 1\n', { entry: 3 }).error, /entry must be a string/);
  // A 1 MiB + 1 source is refused by the core, not by a crash.
  const big = core.lower('\n'.repeat((1 << 20) + 1));
  assert.equal(big.ok, false);
  assert.match(big.error, /the limit is 1048576/);
});
