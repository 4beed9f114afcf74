#!/usr/bin/env node
// Lowers JAX-style Python to the StableHLO that jax.jit(f).lower(...).as_text() prints, in the
// wasm core (cpp/python), without Python or JAX installed.
import { readOneProgramAndCore } from './lib/node-core.mjs';

const HELP = `usage: node scripts/lower.mjs PROGRAM.py [--entry NAME]

Reads a JAX-style Python program, runs it up to its jax.jit(f).lower(args) call and prints the
StableHLO module JAX prints for it (jax.jit(f).lower(args).as_text(), recent JAX), e.g.

    import jax
    import jax.numpy as jnp

    def workload(a, b):
        return jnp.tanh(a @ b)

    a = jnp.arange(32 * 16, dtype=jnp.float32).reshape(32, 16) / 512
    b = jax.ShapeDtypeStruct((16, 8), jnp.float32)
    jax.jit(workload).lower(a, b)

or, with einsum forms and a fori_loop (one stablehlo.while whose body is a private @None):

    import jax
    import jax.numpy as jnp
    from jax import lax

    def step(x, w):
        d = jnp.einsum('ii->i', w)                  # a diagonal
        y = jnp.einsum('...ij,jk->...ik', x, w)     # '...': any leading axes
        return lax.fori_loop(0, 3, lambda i, y: jnp.tanh(y) * d, y)

    jax.jit(step).lower(jnp.zeros((2, 4, 3)), jax.ShapeDtypeStruct((3, 3), jnp.float32))

The program's Python runs as in the notebook (scripts/notebook.mjs: while loops, dicts, closures,
**kw), printing nothing and stopping at the .lower(...) call. Arguments of .lower(...) are arrays
made in the file (jnp.zeros, jnp.ones, jnp.full, jnp.arange with .reshape and arithmetic: abstract
here, any size, no data), Python scalars, or jax.ShapeDtypeStruct(shape, dtype). Supported: operators
+ - * / // % ** @ and comparisons; jnp.matmul, dot, tanh, exp, log, log1p, expm1, sqrt, abs, sign,
square, sin, cos, maximum, minimum, where, sum, mean, max, min, prod, var, std, clip, outer,
einsum (one or two operands, letter labels: 'ij,jk->ik', diagonals 'ii->i' and 'iij,jk',
'...' with broadcasting, implicit output 'ij,kj', labels summed in one operand 'ij,jk->k',
operands of two dtypes promoted as jnp does), argmax, argmin, cumsum, cumprod, reshape, transpose, swapaxes, expand_dims,
squeeze, broadcast_to, concatenate, stack, zeros, ones, eye, flip, fliplr, flipud, roll,
split, array_split, tile, pad (constant mode);
x.T, x.shape, x.ndim, x.reshape, x.ravel, x.astype,
x.sum/mean/max/min/prod/var/std(axis=..., keepdims=..., dtype=...), x[1, 2:5, ..., None],
table[ids] with traced index arrays (a gather), x[i] with a traced scalar (a dynamic_slice);
x.at[idx].set/add/multiply/min/max/divide/power/get (a scatter); NumPy arrays used in the
function (constants baked in, at the top of the function);
jitted helpers of tuples and lists, jitted lambdas; jax.nn.relu, sigmoid, silu, gelu, softmax,
log_softmax, logsumexp, one_hot; lax.dot_general, dynamic_slice, dynamic_update_slice, pad,
scatter, scatter_add, scatter_mul, scatter_min, scatter_max (lax.ScatterDimensionNumbers),
fori_loop (Python int bounds; body a def or lambda), stop_gradient, argmax, argmin, cumsum, cumprod, cummax, cummin, reduce_window
(pooling), conv_general_dilated, add, sub, mul, div, rem, max, min, clamp, select_n, the comparisons, reduce_sum/max/...
64-bit types become 32-bit (JAX's default) unless the file calls
jax.config.update("jax_enable_x64", True).

  --entry NAME  lower the first .lower(...) call on the function NAME (default: the first call)
  -h, --help    print this help

The module goes to stdout. An error is printed as PROGRAM.py:LINE:COL: message (JAX's meaning for
its rules, Python's exception for the rest, e.g. NameError: name 'y' is not defined) and the exit
status is 1.`;

const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
let entry;
const files = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--entry') {
    entry = args[++i];
    if (entry === undefined || entry === '') {
      process.stderr.write('lower.mjs: --entry needs a function name (see --help)\n');
      process.exit(1);
    }
  } else if (args[i].startsWith('--entry=')) {
    entry = args[i].slice('--entry='.length);
  } else if (args[i].startsWith('-')) {
    process.stderr.write(`lower.mjs: unknown option ${JSON.stringify(args[i])} (see --help)\n`);
    process.exit(1);
  } else {
    files.push(args[i]);
  }
}
const { file, source, core } = await readOneProgramAndCore('lower.mjs', files);
const r = core.lower(source, { entry });
if (!r.ok) {
  // The core's error starts with LINE:COL: when it has a place.
  process.stderr.write(r.line ? `${file}:${r.line}:${r.column}: ${r.message}\n` : `${file}: ${r.error}\n`);
  process.exit(1);
}
process.stdout.write(r.text);
