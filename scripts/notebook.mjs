#!/usr/bin/env node
// Runs a Python notebook (a .py file) in the wasm core with Python's, NumPy's and JAX's semantics
// on host values (cpp/python/notebook.h), without Python or JAX installed.
import { basename } from 'node:path';
import { readOneProgramAndCore } from './lib/node-core.mjs';

const HELP = `usage: node scripts/notebook.mjs PROGRAM.py [--max-steps N]

Runs a Python program as CPython with NumPy and JAX would, and prints what it prints, e.g.

    node scripts/notebook.mjs ../shared/seed/lesson.py

Python: imports (time, numpy as np, jax, jax.numpy as jnp, math), assignment (tuple,
augmented), def (defaults, keyword arguments), lambda, return, if/elif/else, for, while,
break/continue, assert, raise, pass, list/dict comprehensions; int, float (CPython's repr), bool,
None, str, list, tuple, dict (insertion order), slicing; print, len, range, min, max, sum, abs,
round, sorted, enumerate, zip, int, float, str, repr, isinstance, list, dict, tuple, any, all.
NumPy on the host (float64, int64, float32, int32, bool; NumPy's promotion, broadcasting and
printing): np.array, asarray, arange, linspace, zeros, ones, full, sort, append, concatenate,
minimum, maximum, where, all, any, isclose, allclose, sqrt, exp, log, tanh, abs, sum, mean, max,
min, arithmetic and @, indexing and slicing, .tolist(), .shape, .dtype, .astype, .reshape,
np.testing.assert_allclose (NumPy's rule and message).
JAX: jnp arrays (float32 by default), jax.jit(f) (called directly or .lower(...)), .as_text(),
.compiler_ir(dialect='stablehlo'), .compile(), the compiled function called on arrays (run by the
core's interpreter), .block_until_ready(), .cost_analysis() (XLA's keys from the core's cost rules:
an estimate, without XLA's optimal_seconds). time.perf_counter() reads this machine's clock.

  --max-steps N  the step budget (default 20000000): a program past it stops with an error
  -h, --help     print this help

What the program prints goes to stdout. An uncaught exception is printed to stderr as Python's
traceback (the file, line and function of each frame, the exception's type and message) and the
exit status is 1.`;

const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
let maxSteps;
const files = [];
for (let i = 0; i < args.length; ++i) {
  const a = args[i];
  if (a === '--max-steps' || a.startsWith('--max-steps=')) {
    const v = a === '--max-steps' ? args[++i] : a.slice('--max-steps='.length);
    const n = Number(v);
    if (v === undefined || v === '' || !Number.isInteger(n) || n < 1) {
      process.stderr.write(
        `notebook.mjs: --max-steps needs a positive integer, got ${JSON.stringify(v ?? null)} (see --help)\n`,
      );
      process.exit(1);
    }
    maxSteps = n;
  } else if (a.startsWith('-')) {
    process.stderr.write(`notebook.mjs: unknown option ${JSON.stringify(a)} (see --help)\n`);
    process.exit(1);
  } else {
    files.push(a);
  }
}
const { file, source, core } = await readOneProgramAndCore('notebook.mjs', files);
const r = core.notebook(source, { filename: file, maxSteps });
if (!r.ok) {
  process.stderr.write(`${basename(file)}: ${r.error}\n`);
  process.exit(1);
}
process.stdout.write(r.stdout);
if (r.error) {
  process.stderr.write(r.error);
  process.exitCode = 1;
}
