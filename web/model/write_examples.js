// Section 8's "Write" examples: JAX-style Python programs, each ending in the jax.jit(f).lower(...)
// call the core lowers (web/core.js lower, cpp/python). Data only; tests/js/write_examples.test.mjs
// lowers every one with the core.

/** @type {{name: string, title: string, source: string}[]} */
export const WRITE_EXAMPLES = [
  {
    name: 'lesson',
    title: 'The lesson: tanh(a @ b)',
    source: `import jax
import jax.numpy as jnp

# The lesson's step 1: inspect a specialized lowered computation.
def workload(a, b):
    return jnp.tanh(a @ b)

a = jnp.arange(32 * 16, dtype=jnp.float32).reshape(32, 16) / 512
b = jnp.arange(16 * 8, dtype=jnp.float32).reshape(16, 8) / 128
jax.jit(workload).lower(a, b)
`,
  },
  {
    name: 'mlp',
    title: 'An MLP layer',
    source: `import jax
import jax.numpy as jnp

def mlp_layer(x, w, b):
    return jax.nn.relu(x @ w + b)

x = jax.ShapeDtypeStruct((32, 64), jnp.float32)
w = jax.ShapeDtypeStruct((64, 128), jnp.float32)
b = jax.ShapeDtypeStruct((128,), jnp.float32)
jax.jit(mlp_layer).lower(x, w, b)
`,
  },
  {
    name: 'softmax',
    title: 'Softmax',
    source: `import jax
import jax.numpy as jnp

def softmax(x):
    z = x - jnp.max(x, axis=-1, keepdims=True)
    e = jnp.exp(z)
    return e / jnp.sum(e, axis=-1, keepdims=True)

x = jax.ShapeDtypeStruct((8, 128), jnp.float32)
jax.jit(softmax).lower(x)
`,
  },
  {
    name: 'layer_norm',
    title: 'Layer norm',
    source: `import jax
import jax.numpy as jnp

def layer_norm(x, gamma, beta):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5) * gamma + beta

x = jax.ShapeDtypeStruct((16, 256), jnp.float32)
gamma = jnp.ones((256,), dtype=jnp.float32)
beta = jnp.zeros((256,), dtype=jnp.float32)
jax.jit(layer_norm).lower(x, gamma, beta)
`,
  },
  {
    name: 'attention',
    title: 'Attention',
    source: `import jax
import jax.numpy as jnp

def attention(q, k, v):
    scores = q @ k.T / jnp.sqrt(64.0)
    scores = scores - jnp.max(scores, axis=-1, keepdims=True)
    weights = jnp.exp(scores)
    weights = weights / jnp.sum(weights, axis=-1, keepdims=True)
    return weights @ v

q = jax.ShapeDtypeStruct((32, 64), jnp.float32)
k = jax.ShapeDtypeStruct((32, 64), jnp.float32)
v = jax.ShapeDtypeStruct((32, 64), jnp.float32)
jax.jit(attention).lower(q, k, v)
`,
  },
  {
    name: 'conv_net',
    title: 'A small conv net',
    source: `import jax
import jax.numpy as jnp
from jax import lax

# A small conv net: two 3x3 convolutions with ReLU, 2x2 max pooling, then a dense layer.
def conv_net(x, k1, k2, w):
    y = jax.nn.relu(lax.conv_general_dilated(x, k1, (1, 1), 'SAME'))
    y = jax.nn.relu(lax.conv_general_dilated(y, k2, (1, 1), 'SAME'))
    y = lax.reduce_window(y, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), 'VALID')
    return y.reshape(8, -1) @ w

x = jax.ShapeDtypeStruct((8, 3, 16, 16), jnp.float32)
k1 = jax.ShapeDtypeStruct((16, 3, 3, 3), jnp.float32)
k2 = jax.ShapeDtypeStruct((16, 16, 3, 3), jnp.float32)
w = jax.ShapeDtypeStruct((16 * 8 * 8, 10), jnp.float32)
jax.jit(conv_net).lower(x, k1, k2, w)
`,
  },
  {
    name: 'fori_loop',
    title: 'A fori_loop: power iteration',
    source: `import jax
import jax.numpy as jnp
from jax import lax

# Power iteration: 20 steps of v <- a @ v / |a @ v|, one stablehlo.while (not 20 copies).
def power_iteration(a, v):
    def step(i, v):
        w = a @ v
        return w / jnp.sqrt(jnp.sum(w * w))
    return lax.fori_loop(0, 20, step, v)

a = jax.ShapeDtypeStruct((64, 64), jnp.float32)
v = jnp.ones((64,), dtype=jnp.float32)
jax.jit(power_iteration).lower(a, v)
`,
  },
];

/** The example a Write tab opens with when there is nothing else to show. */
export const DEFAULT_WRITE_EXAMPLE = 'lesson';
