// node scripts/notebook.mjs and core.notebook: a Python notebook run with Python's, NumPy's and
// JAX's semantics through the wasm core (cpp/python/notebook.h).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED = resolve(ROOT, '..', 'shared');
const run = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'notebook.mjs'), ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'notebook-'));

test(
  "the seed's lesson.py prints what CPython + NumPy + JAX print, line for line",
  { skip: !existsSync(join(SHARED, 'seed', 'lesson.py')) },
  () => {
    const out = run(join(SHARED, 'seed', 'lesson.py'));
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stderr, '');
    const lines = out.stdout.split('\n');
    assert.equal(lines.length, 7); // six lines and the final newline
    assert.equal(lines[0], 'StableHLO operations present: dot_general and tanh');
    // The estimate dict: XLA's keys (its values are the core's cost rules').
    assert.match(
      lines[1],
      /^Compiler estimates \(backend-specific\): \{'flops': 8192\.0, 'transcendentals': 256\.0, 'bytes accessed': 5632\.0, /,
    );
    // Five timing samples from this machine's clock: Python floats.
    const samples = lines[2].match(/^Local CPU samples seconds: \[(.*)\]$/);
    assert.ok(samples, lines[2]);
    const values = samples[1].split(', ').map(Number);
    assert.equal(values.length, 5);
    for (const v of values) assert.ok(Number.isFinite(v) && v >= 0, samples[1]);
    assert.equal(
      lines[3],
      "Matmul-only accounting: {'flops': 8192, 'minimum_bytes': 3584, 'flops_per_byte': 2.2857142857142856}",
    );
    assert.equal(
      lines[4],
      'Hypothetical ceilings GFLOP/s: [26.666666666666664, 53.33333333333333, 100.0, 100.0, 100.0]',
    );
    assert.equal(
      lines[5],
      'Ceilings with twice minimum traffic GFLOP/s: [13.333333333333332, 26.666666666666664, 53.33333333333333, 100.0, 100.0]',
    );
  },
);

test('an uncaught exception: the output so far, then the traceback on stderr, exit status 1', () => {
  const file = join(dir, 'fail.py');
  writeFileSync(
    file,
    "def contract(m):\n    if m <= 0:\n        raise ValueError('positive dimensions required')\n    return m\n\nprint(contract(2))\ncontract(0)\nprint('not reached')\n",
  );
  const out = run(file);
  assert.equal(out.status, 1);
  assert.equal(out.stdout, '2\n');
  assert.equal(
    out.stderr,
    'Traceback (most recent call last):\n' +
      `  File "${file}", line 7, in <module>\n    contract(0)\n` +
      `  File "${file}", line 3, in contract\n    raise ValueError('positive dimensions required')\n` +
      'ValueError: positive dimensions required\n',
  );
});

test('while True: ends at the step budget with a clear error, not a hang', () => {
  const file = join(dir, 'loop.py');
  writeFileSync(file, 'n = 0\nwhile True:\n    n += 1\n');
  const out = run(file, '--max-steps', '50000');
  assert.equal(out.status, 1);
  assert.match(
    out.stderr,
    /RuntimeError: the program ran past its step budget of 50000 evaluation steps \(an endless loop\?\); it was stopped\n$/,
  );
});

test('bad arguments and files are refused with what to do', () => {
  let out = run();
  assert.equal(out.status, 1);
  assert.match(out.stderr, /give one PROGRAM\.py \(got 0; see --help\)/);
  out = run(join(dir, 'missing.py'));
  assert.equal(out.status, 1);
  assert.match(out.stderr, /missing\.py: cannot read: ENOENT/);
  out = run('x.py', '--max-steps', '0');
  assert.equal(out.status, 1);
  assert.match(out.stderr, /--max-steps needs a positive integer, got "0"/);
  out = run('--frob');
  assert.equal(out.status, 1);
  assert.match(out.stderr, /unknown option "--frob"/);
  out = run('--help');
  assert.equal(out.status, 0);
  assert.match(out.stdout, /^usage: node scripts\/notebook\.mjs PROGRAM\.py/);
});

test('core.notebook: {ok, stdout, error}; options checked', async () => {
  const core = await loadNodeCore();
  const r = core.notebook("import numpy as np\nprint(np.array([1.0, 2.5]), -7 // 2, {'b': 1, 'a': 2}, 2 ** 70)\n");
  assert.equal(r.ok, true);
  assert.equal(r.stdout, "[1.  2.5] -4 {'b': 1, 'a': 2} 1180591620717411303424\n");
  assert.equal(r.error, '');
  const e = core.notebook('x = 1 / 0\n', { filename: 'cell.py' });
  assert.equal(e.ok, true);
  assert.equal(e.errorType, 'ZeroDivisionError');
  assert.equal(e.line, 1);
  assert.equal(
    e.error,
    'Traceback (most recent call last):\n  File "cell.py", line 1, in <module>\n    x = 1 / 0\nZeroDivisionError: division by zero\n',
  );
  assert.equal(core.notebook(5).ok, false);
  assert.match(core.notebook('', { maxSteps: -1 }).error, /maxSteps must be an integer from 1 to 1e12, got -1/);
});
