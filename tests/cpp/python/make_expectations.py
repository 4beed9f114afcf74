#!/usr/bin/python3
"""Writes tests/cpp/python/run_cases.inc: each case is a JAX-style program, the shapes and dtypes
of its arguments, and NumPy's value of the same function on the interpreter's arange inputs
(element i of an argument with n elements is i/n for floats, i for integers; see
cpp/interp/interp.cpp fill_input). Run with Debian's python3 and python3-numpy:
    /usr/bin/python3 tests/cpp/python/make_expectations.py > tests/cpp/python/run_cases.inc
"""
import math

import numpy as np

F32 = np.float32

def arange(shape, dtype):
    n = int(np.prod(shape))
    if dtype == 'float32':
        return (np.arange(n, dtype=np.float64) / n).astype(F32).reshape(shape)
    return np.arange(n).astype(dtype).reshape(shape)

def sigmoid(x):
    return 1 / (1 + np.exp(-x.astype(np.float64)))

def softmax(x, axis):
    e = np.exp(x.astype(np.float64) - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)

def logsumexp(x, axis, keepdims):
    x = x.astype(np.float64)
    return np.log(np.exp(x).sum(axis=axis, keepdims=keepdims))

def maxpool_same(a):
    # 2x2 windows, stride 2, SAME: pad (0, 1) on rows (3 -> 4) and (0, 1) on columns (5 -> 6) with -inf.
    p = np.full((4, 6), -np.inf, dtype=np.float64)
    p[:3, :5] = a
    return p.reshape(2, 2, 3, 2).max(axis=(1, 3))

def conv_nchw(x, w, strides, pads, rhs_dil):
    # Direct convolution (cross-correlation, as XLA's), NCHW x OIHW -> NCHW, in float64.
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), pads[0], pads[1]))
    n, c, h, wd = x.shape
    o, i, kh, kw = w.shape
    eh, ew = (kh - 1) * rhs_dil[0] + 1, (kw - 1) * rhs_dil[1] + 1
    oh, ow = (h - eh) // strides[0] + 1, (wd - ew) // strides[1] + 1
    out = np.zeros((n, o, oh, ow))
    for y in range(oh):
        for z in range(ow):
            patch = x[:, :, y * strides[0]:y * strides[0] + eh:rhs_dil[0], z * strides[1]:z * strides[1] + ew:rhs_dil[1]]
            out[:, :, y, z] = np.einsum('nchw,ochw->no', patch, w.astype(np.float64))
    return out

def gelu_tanh(x):
    x = x.astype(np.float64)
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))

# name, function body (one expression in terms of the parameters), arguments [(shape, dtype)],
# NumPy expression.
CASES = [
    ('lesson tanh(a @ b)', 'jnp.tanh(a @ b)', [((4, 3), 'float32'), ((3, 2), 'float32')], lambda a, b: np.tanh(a @ b)),
    ('mlp relu(x @ w + b)', 'jax.nn.relu(a @ b + c - 0.3)', [((2, 3), 'float32'), ((3, 4), 'float32'), ((4,), 'float32')],
     lambda a, b, c: np.maximum(a @ b + c - 0.3, 0)),
    ('jnp.matmul batched', 'jnp.matmul(a, b)', [((2, 2, 3), 'float32'), ((3, 2), 'float32')], lambda a, b: a @ b),
    ('jnp.matmul vector', 'jnp.matmul(a, b)', [((3,), 'float32'), ((3, 2), 'float32')], lambda a, b: a @ b),
    ('jnp.dot', 'jnp.dot(a, b)', [((2, 3), 'float32'), ((3,), 'float32')], lambda a, b: np.dot(a, b)),
    ('x.dot', 'a.dot(b)', [((2, 3), 'float32'), ((3, 2), 'float32')], lambda a, b: a.dot(b)),
    ('lax.dot_general batch', 'lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))', [((2, 2, 3), 'float32'), ((2, 3, 2), 'float32')],
     lambda a, b: np.einsum('bij,bjk->bik', a, b)),
    ('jnp.tanh', 'jnp.tanh(a * 4 - 2)', [((2, 3), 'float32')], lambda a: np.tanh(a * 4 - 2)),
    ('jnp.exp', 'jnp.exp(a)', [((2, 3), 'float32')], lambda a: np.exp(a)),
    ('jnp.log', 'jnp.log(a + 1)', [((2, 3), 'float32')], lambda a: np.log(a + 1)),
    ('jnp.log1p', 'jnp.log1p(a)', [((2, 3), 'float32')], lambda a: np.log1p(a)),
    ('jnp.expm1', 'jnp.expm1(a)', [((2, 3), 'float32')], lambda a: np.expm1(a)),
    ('jnp.sqrt', 'jnp.sqrt(a)', [((2, 3), 'float32')], lambda a: np.sqrt(a)),
    ('jnp.abs', 'jnp.abs(a - 0.5)', [((2, 3), 'float32')], lambda a: np.abs(a - F32(0.5))),
    ('jnp.sign', 'jnp.sign(a - 0.5)', [((2, 3), 'float32')], lambda a: np.sign(a - F32(0.5))),
    ('jnp.sin', 'jnp.sin(a * 3)', [((2, 3), 'float32')], lambda a: np.sin(a * 3)),
    ('jnp.cos', 'jnp.cos(a * 3)', [((2, 3), 'float32')], lambda a: np.cos(a * 3)),
    ('jnp.square', 'jnp.square(a)', [((2, 3), 'float32')], lambda a: a * a),
    ('jnp.negative', 'jnp.negative(a)', [((2, 3), 'float32')], lambda a: -a),
    ('jnp.maximum', 'jnp.maximum(a, 0.3)', [((2, 3), 'float32')], lambda a: np.maximum(a, 0.3)),
    ('jnp.minimum', 'jnp.minimum(a, b)', [((2, 3), 'float32'), ((3,), 'float32')], lambda a, b: np.minimum(a, b)),
    ('jnp.where', 'jnp.where(a > 0.5, a, -a)', [((2, 3), 'float32')], lambda a: np.where(a > 0.5, a, -a)),
    ('jnp.sum all', 'jnp.sum(a)', [((2, 3), 'float32')], lambda a: np.sum(a)),
    ('jnp.sum axis', 'jnp.sum(a, axis=0)', [((2, 3), 'float32')], lambda a: np.sum(a, axis=0)),
    ('x.sum keepdims', 'a.sum(axis=1, keepdims=True)', [((2, 3), 'float32')], lambda a: a.sum(axis=1, keepdims=True)),
    ('jnp.mean', 'jnp.mean(a, axis=1)', [((2, 3), 'float32')], lambda a: np.mean(a, axis=1)),
    ('x.mean keepdims', 'a.mean(axis=-1, keepdims=True)', [((2, 3), 'float32')], lambda a: a.mean(axis=-1, keepdims=True)),
    ('jnp.max', 'jnp.max(a, axis=1)', [((2, 3), 'float32')], lambda a: np.max(a, axis=1)),
    ('jnp.min', 'jnp.min(a, axis=0)', [((2, 3), 'float32')], lambda a: np.min(a, axis=0)),
    ('x.max', 'a.max()', [((2, 3), 'float32')], lambda a: a.max()),
    ('jnp.reshape', 'jnp.reshape(a, (3, 2))', [((2, 3), 'float32')], lambda a: a.reshape(3, 2)),
    ('x.reshape -1', 'a.reshape(-1) * 2', [((2, 3), 'float32')], lambda a: a.reshape(-1) * 2),
    ('jnp.transpose', 'jnp.transpose(a, (1, 0, 2))', [((2, 3, 2), 'float32')], lambda a: np.transpose(a, (1, 0, 2))),
    ('x.T', 'a.T @ a', [((2, 3), 'float32')], lambda a: a.T @ a),
    ('jax.nn.relu', 'jax.nn.relu(a - 0.5)', [((2, 3), 'float32')], lambda a: np.maximum(a - F32(0.5), 0)),
    ('jax.nn.sigmoid', 'jax.nn.sigmoid(a * 4 - 2)', [((2, 3), 'float32')], lambda a: sigmoid(a * 4 - 2)),
    ('jax.nn.silu', 'jax.nn.silu(a * 4 - 2)', [((2, 3), 'float32')], lambda a: (a * 4 - 2) * sigmoid(a * 4 - 2)),
    ('operators', '(a * 0.1 + 1) / 3 - a ** 3 + (a + 1) ** -1', [((2, 3), 'float32')],
     lambda a: (a * F32(0.1) + 1) / 3 - a ** 3 + (a + 1) ** -1.0),
    ('int32 stays int32', 'a * 2 + 1', [((2, 3), 'int32')], lambda a: a * 2 + 1),
    ('int32 / int promotes to float32', 'a / 2', [((2, 3), 'int32')], lambda a: a / 2),
    ('int32 + float32', 'a + b', [((2, 3), 'int32'), ((2, 3), 'float32')], lambda a, b: a + b),
    ('x.astype', 'a.astype(jnp.float32) * 0.5', [((2, 3), 'int32')], lambda a: a.astype(F32) * F32(0.5)),
    ('jnp.zeros_like and ones', 'a + jnp.ones((2, 3)) * 2 + jnp.zeros_like(a)', [((2, 3), 'float32')], lambda a: a + 2),
    ('x[int, slice]', 'a[1, 1:3] * 2', [((2, 4), 'float32')], lambda a: a[1, 1:3] * 2),
    ('x[..., None]', 'a[..., None] + a[:, :, None]', [((2, 3), 'float32')], lambda a: a[..., None] + a[:, :, None]),
    ('x[-2:]', 'a[-2:]', [((4, 2), 'float32')], lambda a: a[-2:]),
    ('jnp.concatenate', 'jnp.concatenate([a, b * 2], axis=1)', [((2, 3), 'float32'), ((2, 2), 'float32')],
     lambda a, b: np.concatenate([a, b * 2], axis=1)),
    ('jnp.stack', 'jnp.stack((a, a + 1), axis=-1)', [((2, 3), 'float32')], lambda a: np.stack((a, a + 1), axis=-1)),
    ('jnp.expand_dims and squeeze', 'jnp.squeeze(jnp.expand_dims(a, 0), axis=0) + jnp.expand_dims(b, (0, 2)).sum()',
     [((2, 3), 'float32'), ((3,), 'float32')], lambda a, b: a + np.expand_dims(b, (0, 2)).sum()),
    ('jnp.swapaxes', 'jnp.swapaxes(a, 0, 2)', [((2, 3, 2), 'float32')], lambda a: np.swapaxes(a, 0, 2)),
    ('jnp.broadcast_to', 'jnp.broadcast_to(b, (2, 3)) * a', [((2, 3), 'float32'), ((3,), 'float32')],
     lambda a, b: np.broadcast_to(b, (2, 3)) * a),
    ('comparison gives bool', 'a > 0.4', [((2, 3), 'float32')], lambda a: (a > F32(0.4)).astype(np.float64)),
    ('jax.nn.softmax', 'jax.nn.softmax(a * 3)', [((2, 3), 'float32')], lambda a: softmax(a * 3, -1)),
    ('jax.nn.softmax axis 0', 'jax.nn.softmax(a * 3, axis=0)', [((2, 3), 'float32')], lambda a: softmax(a * 3, 0)),
    ('jax.nn.log_softmax', 'jax.nn.log_softmax(a * 3)', [((2, 3), 'float32')], lambda a: np.log(softmax(a * 3, -1))),
    ('jax.nn.logsumexp', 'jax.nn.logsumexp(a * 3, axis=1)', [((2, 3), 'float32')], lambda a: logsumexp(a * 3, 1, False)),
    ('jax.scipy.special.logsumexp keepdims', 'jax.scipy.special.logsumexp(a, axis=0, keepdims=True) + jax.nn.logsumexp(a)',
     [((2, 3), 'float32')], lambda a: logsumexp(a, 0, True) + logsumexp(a, None, False)),
    ('jax.nn.gelu', 'jax.nn.gelu(a * 6 - 3)', [((2, 3), 'float32')], lambda a: gelu_tanh(a * 6 - 3)),
    ('jnp.clip', 'jnp.clip(a, 0.2, 0.7)', [((2, 3), 'float32')], lambda a: np.clip(a, F32(0.2), F32(0.7))),
    ('x.clip int', 'a.clip(1, 4)', [((2, 3), 'int32')], lambda a: np.clip(a, 1, 4)),
    ('jnp.prod', 'jnp.prod(a + 0.5, axis=1)', [((2, 3), 'float32')], lambda a: np.prod(a + F32(0.5), axis=1)),
    ('jnp.var', 'jnp.var(a * 3, axis=0)', [((2, 3), 'float32')], lambda a: np.var((a * 3).astype(np.float64), axis=0)),
    ('jnp.std ddof', 'jnp.std(a, ddof=1)', [((2, 3), 'float32')], lambda a: np.std(a.astype(np.float64), ddof=1)),
    ('x.var keepdims int', 'a.var(axis=1, keepdims=True)', [((2, 3), 'int32')], lambda a: a.var(axis=1, keepdims=True)),
    ('jnp.outer', 'jnp.outer(a, b)', [((3,), 'float32'), ((4,), 'float32')], lambda a, b: np.outer(a, b)),
    ('lax.stop_gradient', 'lax.stop_gradient(a) * 2', [((2, 3), 'float32')], lambda a: a * 2),
    ('jnp.argmax axis', 'jnp.argmax(jnp.sin(a * 9), axis=1)', [((3, 4), 'float32')], lambda a: np.argmax(np.sin(a * 9), axis=1)),
    ('jnp.argmin all', 'jnp.argmin(jnp.cos(a * 9))', [((3, 4), 'float32')], lambda a: np.argmin(np.cos(a * 9))),
    ('x.argmax keepdims int', 'a.argmax(axis=0, keepdims=True)', [((3, 4), 'int32')], lambda a: a.argmax(axis=0, keepdims=True)),
    ('jnp.cumsum axis', 'jnp.cumsum(a, axis=1)', [((2, 3), 'float32')], lambda a: np.cumsum(a, axis=1)),
    ('jnp.cumprod flat', 'jnp.cumprod(a + 0.5)', [((2, 3), 'float32')], lambda a: np.cumprod(a + F32(0.5))),
    ('x.cumsum int', 'a.cumsum(axis=0)', [((3, 2), 'int32')], lambda a: a.cumsum(axis=0)),
    ('lax.cummax', 'lax.cummax(jnp.sin(a * 9), 0)', [((4, 2), 'float32')], lambda a: np.maximum.accumulate(np.sin(a * 9), axis=0)),
    ('lax.cummin reverse', 'lax.cummin(jnp.sin(a * 9), axis=1, reverse=True)', [((2, 4), 'float32')],
     lambda a: np.flip(np.minimum.accumulate(np.flip(np.sin(a * 9), 1), axis=1), 1)),
    ('lax.argmin', 'lax.argmin(jnp.sin(a * 9), 1, jnp.int32)', [((2, 4), 'float32')], lambda a: np.argmin(np.sin(a * 9), axis=1)),
    ('jnp.tan', 'jnp.tan(a)', [((2, 3), 'float32')], lambda a: np.tan(a)),
    ('lax.reduce_window max pool SAME', "lax.reduce_window(a, -jnp.inf, lax.max, (2, 2), (2, 2), 'SAME')", [((3, 5), 'float32')],
     lambda a: maxpool_same(a)),
    ('lax.reduce_window sum pool VALID', "lax.reduce_window(a, 0.0, lax.add, (1, 3), (1, 1), 'VALID')", [((2, 4), 'float32')],
     lambda a: a[:, 0:2] + a[:, 1:3] + a[:, 2:4]),
    ('lax elementwise', 'lax.max(lax.sub(a, b), lax.mul(a, 0.5)) + lax.clamp(0.1, a, 0.6) - lax.rem(a * 10, 3.0)',
     [((2, 3), 'float32'), ((1, 3), 'float32')],
     lambda a, b: np.maximum(a - b, a * F32(0.5)) + np.clip(a, F32(0.1), F32(0.6)) - np.fmod(a * 10, F32(3))),
    ('lax.select_n and compares', 'lax.select_n(lax.gt(a, 0.5), a, -a) + lax.convert_element_type(lax.le(a, 0.3), jnp.float32)',
     [((2, 3), 'float32')], lambda a: np.where(a > F32(0.5), -a, a) + (a <= F32(0.3))),
    ('lax.reduce_sum and reshape', 'lax.reduce_sum(lax.reshape(a, (3, 2), dimensions=(1, 0)), (1,))', [((2, 3), 'float32')],
     lambda a: a.T.reshape(3, 2).sum(axis=1)),
    ('x // y float', '(a * 10 - 5) // 3', [((2, 3), 'float32')], lambda a: np.floor_divide(a * 10 - 5, F32(3))),
    ('x % y float', '(a * 10 - 5) % -3', [((2, 3), 'float32')], lambda a: np.mod(a * 10 - 5, F32(-3))),
    ('int // and %', '(a - 3) // 2 + (a - 3) % -4', [((2, 3), 'int32')], lambda a: (a - 3) // 2 + (a - 3) % -4),
    ('jnp.floor_divide and jnp.remainder arrays', 'jnp.floor_divide(a - 2, b + 1) * 10 + jnp.remainder(a - 2, b + 1)',
     [((2, 3), 'int32'), ((3,), 'int32')], lambda a, b: np.floor_divide(a - 2, b + 1) * 10 + np.remainder(a - 2, b + 1)),
    ('jax.nn.one_hot', 'jax.nn.one_hot(a, 4)', [((3,), 'int32')], lambda a: np.eye(4)[a]),
    ('jax.nn.one_hot axis 0', 'jax.nn.one_hot(a % 3, 3, axis=0)', [((2, 2), 'int32')], lambda a: np.moveaxis(np.eye(3)[a % 3], -1, 0)),
    ('lax.conv_general_dilated NCHW SAME stride 2', "lax.conv_general_dilated(a, b, (2, 2), 'SAME')",
     [((1, 2, 5, 4), 'float32'), ((3, 2, 3, 3), 'float32')], lambda a, b: conv_nchw(a, b, (2, 2), ((1, 1), (0, 1)), (1, 1))),
    ('lax.conv_general_dilated NHWC HWIO VALID dilated', "lax.conv_general_dilated(a, b, (1, 1), 'VALID', rhs_dilation=(2, 1), "
     "dimension_numbers=('NHWC', 'HWIO', 'NHWC'))", [((2, 5, 3, 2), 'float32'), ((2, 2, 2, 3), 'float32')],
     lambda a, b: conv_nchw(a.transpose(0, 3, 1, 2), b.transpose(3, 2, 0, 1), (1, 1), ((0, 0), (0, 0)), (2, 1)).transpose(0, 2, 3, 1)),
    ('x[::-1] and lax.rev', 'a[::-1, 1:] + lax.rev(a, (1,))[:, :2]', [((2, 3), 'float32')], lambda a: a[::-1, 1:] + a[:, ::-1][:, :2]),
    ('lax.conv explicit padding', 'lax.conv(a, b, (1, 2), [(1, 0), (2, 1)])', [((1, 1, 3, 4), 'float32'), ((2, 1, 2, 2), 'float32')],
     lambda a, b: conv_nchw(a, b, (1, 2), ((1, 0), (2, 1)), (1, 1))),
    ('jnp.einsum matmul', "jnp.einsum('ij,jk->ik', a, b)", [((2, 3), 'float32'), ((3, 4), 'float32')],
     lambda a, b: np.einsum('ij,jk->ik', a, b)),
    ('jnp.einsum batched to another order', "jnp.einsum('bij,bjk->kbi', a, b)", [((2, 2, 3), 'float32'), ((2, 3, 4), 'float32')],
     lambda a, b: np.einsum('bij,bjk->kbi', a, b)),
    ('jnp.einsum implicit output', "jnp.einsum('ij,kj', a, b)", [((2, 3), 'float32'), ((4, 3), 'float32')],
     lambda a, b: np.einsum('ij,kj', a, b)),
    ('jnp.einsum sums and outer', "jnp.einsum('ij,kl->ik', a, b)", [((2, 3), 'float32'), ((4, 2), 'float32')],
     lambda a, b: np.einsum('ij,kl->ik', a, b)),
    ('jnp.einsum size-1 axis', "jnp.einsum('ij,kj->ik', a, b)", [((2, 1), 'float32'), ((3, 4), 'float32')],
     lambda a, b: np.einsum('ij,kj->ik', a, b)),
    ('jnp.einsum int32', "jnp.einsum('i,i->', a, a)", [((5,), 'int32')], lambda a: np.einsum('i,i->', a, a)),
    ('jnp.einsum diagonal', "jnp.einsum('ii->i', a)", [((3, 3), 'float32')], lambda a: np.einsum('ii->i', a)),
    ('jnp.einsum trace, implicit output', "jnp.einsum('ii', a)", [((3, 3), 'float32')], lambda a: np.einsum('ii', a)),
    ('jnp.einsum diagonal against a matrix', "jnp.einsum('iij,jk->ik', a, b)", [((3, 3, 2), 'float32'), ((2, 4), 'float32')],
     lambda a, b: np.einsum('iij,jk->ik', a, b)),
    ('jnp.einsum triple diagonal int32', "jnp.einsum('iii->i', a)", [((2, 2, 2), 'int32')], lambda a: np.einsum('iii->i', a)),
    ('jnp.einsum diagonal in the second operand', "jnp.einsum('ij,jj->i', a, b)", [((2, 3), 'float32'), ((3, 3), 'float32')],
     lambda a, b: np.einsum('ij,jj->i', a, b)),
    ('jnp.einsum outer of two diagonals', "jnp.einsum('ii,jj->ij', a, b)", [((2, 2), 'float32'), ((3, 3), 'float32')],
     lambda a, b: np.einsum('ii,jj->ij', a, b)),
    ('jnp.einsum diagonal summed', "jnp.einsum('iij,k->k', a, b)", [((2, 2, 3), 'float32'), ((4,), 'float32')],
     lambda a, b: np.einsum('iij,k->k', a, b)),
    ('jnp.einsum ellipsis batched matmul with broadcasting', "jnp.einsum('...ij,...jk->...ik', a, b)",
     [((2, 1, 3, 4), 'float32'), ((5, 4, 2), 'float32')], lambda a, b: np.einsum('...ij,...jk->...ik', a, b)),
    ('jnp.einsum ellipsis against a vector', "jnp.einsum('...i,i->...', a, b)", [((2, 3, 4), 'float32'), ((4,), 'float32')],
     lambda a, b: np.einsum('...i,i->...', a, b)),
    ('jnp.einsum ellipsis, implicit output', "jnp.einsum('...ij,...jk', a, b)", [((2, 3, 4), 'float32'), ((4, 5), 'float32')],
     lambda a, b: np.einsum('...ij,...jk', a, b)),
    ('jnp.einsum ellipsis last, implicit output', "jnp.einsum('i...,i...', a, b)", [((3, 2), 'float32'), ((3, 1), 'float32')],
     lambda a, b: np.einsum('i...,i...', a, b)),
    ('jnp.einsum label summed in one operand first', "jnp.einsum('ij,jk->k', a, b)", [((2, 3), 'float32'), ((3, 4), 'float32')],
     lambda a, b: np.einsum('ij,jk->k', a, b)),
    ('jnp.einsum full contraction', "jnp.einsum('ij,jk->', a, b)", [((2, 3), 'float32'), ((3, 4), 'float32')],
     lambda a, b: np.einsum('ij,jk->', a, b)),
    ('jnp.einsum float16 with float32', "jnp.einsum('ij,jk->ik', a.astype(jnp.float16), b)", [((2, 3), 'float32'), ((3, 4), 'float32')],
     lambda a, b: np.einsum('ij,jk->ik', a.astype(np.float16), b)),
    ('jnp.einsum int32 with float32 and a sum', "jnp.einsum('ij,kl->ik', a, b)", [((2, 3), 'int32'), ((4, 2), 'float32')],
     lambda a, b: np.einsum('ij,kl->ik', a.astype(F32), b)),
    ('jnp.einsum bool with float32', "jnp.einsum('ij,ij->ij', a > 0.4, b)", [((2, 3), 'float32'), ((2, 3), 'float32')],
     lambda a, b: np.einsum('ij,ij->ij', (a > F32(0.4)).astype(F32), b)),
    ('jnp.einsum int8 diagonal with float32', "jnp.einsum('ii,i->i', a, b)", [((3, 3), 'int8'), ((3,), 'float32')],
     lambda a, b: np.einsum('ii,i->i', a.astype(F32), b)),
    ('jnp.einsum one operand transpose', "jnp.einsum('ij->ji', a)", [((2, 3), 'float32')], lambda a: np.einsum('ij->ji', a)),
    ('jnp.einsum one operand implicit transpose', "jnp.einsum('ji', a)", [((2, 3), 'float32')], lambda a: np.einsum('ji', a)),
    ('jnp.einsum one operand sum', "jnp.einsum('ij->', a)", [((2, 3), 'float32')], lambda a: np.einsum('ij->', a)),
    ('jnp.einsum one operand ellipsis sum', "jnp.einsum('...j->...', a)", [((2, 3, 4), 'int32')], lambda a: np.einsum('...j->...', a)),
    ('jnp.einsum one operand bool any', "jnp.einsum('ij->j', a > 3)", [((2, 3), 'int32')], lambda a: (a > 3).any(axis=0).astype(np.float64)),
    ('jnp.eye', 'a @ jnp.eye(3, 4, k=1) + jnp.eye(2, 4, k=-1, dtype=jnp.int32)', [((2, 3), 'float32')],
     lambda a: a @ np.eye(3, 4, k=1) + np.eye(2, 4, k=-1, dtype=np.int32)),
    ('jnp.round half to even, decimals, lax.round away from zero', 'jnp.round(a * 10 - 5) + jnp.round(a * 3, 2) + lax.round(a * 10 - 5) + jnp.round(b)',
     [((2, 4), 'float32'), ((2, 4), 'int32')],
     lambda a, b: np.round(a * F32(10) - F32(5)) + (np.round(a.astype(F32) * F32(3) * F32(100)) / F32(100)).astype(F32)
     + np.where((a * F32(10) - F32(5)) >= 0, np.floor((a * F32(10) - F32(5)) + F32(0.5)), np.ceil((a * F32(10) - F32(5)) - F32(0.5))) + b),
    ('lax.slice with strides, lax.population_count, jnp.sinh, jnp.cosh',
     'lax.slice(a, (1, 0), (3, 4), (1, 2)) + lax.population_count(b * 7)[:2, :2] + jnp.sinh(a[:2, :2]) * jnp.cosh(a[:2, :2])',
     [((4, 4), 'float32'), ((4, 4), 'int32')],
     lambda a, b: a[1:3, 0:4:2] + np.vectorize(lambda v: bin(int(v)).count('1'))(b * 7)[:2, :2]
     + np.sinh(a[:2, :2].astype(np.float64)) * np.cosh(a[:2, :2].astype(np.float64))),
    ('lax.top_k values and int32 indices along the last axis', 'lax.top_k(jnp.sin(a * 7), 3)[0] + lax.top_k(jnp.sin(a * 7), 3)[1]',
     [((3, 5), 'float32')],
     lambda a: -np.sort(-np.sin(a.astype(np.float64) * 7), axis=-1)[:, :3] + np.argsort(-np.sin(a.astype(np.float64) * 7), axis=-1, kind='stable')[:, :3]),
    ('jnp.sort, jnp.argsort stable and descending, lax.sort with two keys',
     'jnp.sort(jnp.cos(a * 9), axis=0) + jnp.argsort(jnp.floor(a * 3), axis=1) + jnp.argsort(jnp.floor(a * 3), descending=True) + lax.sort((b % 2, a), num_keys=2)[1]',
     [((3, 4), 'float32'), ((3, 4), 'int32')],
     lambda a, b: np.sort(np.cos(a.astype(np.float64) * 9), axis=0) + np.argsort(np.floor(a * F32(3)), axis=1, kind='stable')
     + (3 - np.argsort(np.floor(a * F32(3))[:, ::-1], axis=1, kind='stable'))[:, ::-1]
     + np.take_along_axis(a, np.lexsort((a, b % 2), axis=-1), axis=-1)),
    ('jnp.tril and jnp.triu', 'jnp.tril(a) + 10 * jnp.triu(a, 2) + jnp.tril(a, -1)', [((3, 4), 'float32')],
     lambda a: np.tril(a) + F32(10) * np.triu(a, 2) + np.tril(a, -1)),
    ('jnp.tril batched int8 and jnp.triu k past the matrix', 'jnp.tril(a, k=1) + jnp.triu(a, 5)', [((2, 3, 3), 'int8')],
     lambda a: np.tril(a, k=1) + np.triu(a, 5)),
    ('lax.fori_loop', 'lax.fori_loop(0, 3, lambda i, x: x * 0.5 + i, a)', [((2, 3), 'float32')],
     lambda a: fori(0, 3, lambda i, x: x * F32(0.5) + F32(i), a)),
    ('lax.fori_loop tuple carry and closure', 'lax.fori_loop(1, 4, lambda i, c: (c[0] @ b, c[1] + c[0].sum()), (a, 0.0))[1]',
     [((2, 2), 'float32'), ((2, 2), 'float32')], lambda a, b: fori(1, 4, lambda i, c: (c[0] @ b, c[1] + c[0].sum()), (a, F32(0)))[1]),
    ('lax.fori_loop def body int', 'lax.fori_loop(0, 4, step, a)', [((3,), 'int32')],
     lambda a: fori(0, 4, lambda i, x: x * 2 + i, a), 'def step(i, x):\n    return x * 2 + i\n\n'),
    ('jax.nn.gelu exact', 'jax.nn.gelu(a * 6 - 3, approximate=False)', [((2, 3), 'float32')],
     lambda a: gelu_erf(a * 6 - 3)),
    ('jnp.zeros, full and arange made in the function', 'a + jnp.zeros((2, 3)) + jnp.full((3,), 2.5) + jnp.arange(3)',
     [((2, 3), 'float32')], lambda a: a + F32(2.5) + np.arange(3, dtype=F32)),
    ('jnp.float16', '(a * 3.3).astype(jnp.float16) * 2 + 1', [((2, 3), 'float32')],
     lambda a: (a * F32(3.3)).astype(np.float16) * np.float16(2) + np.float16(1)),
    ('jnp.bfloat16', '(a * 3.3).astype(jnp.bfloat16) + 1', [((2, 3), 'float32')],
     lambda a: bf16(bf16(a * F32(3.3)) + F32(1))),
    # jnp.float64 is float32 without jax_enable_x64 (JAX's default): 1e-9 vanishes beside a > 0.
    ('jnp.float64 (float32, as JAX without x64)', '(a.astype(jnp.float64) + 1e-9) - a', [((2, 3), 'float32')],
     lambda a: (a + F32(1e-9)) - a),
    ('jnp.int8', '(a * 100).astype(jnp.int8) + b', [((2, 3), 'float32'), ((2, 3), 'int8')],
     lambda a, b: (a * F32(100)).astype(np.int8) + b),
    ('jnp.bool_', 'jnp.where((a - 0.5).astype(jnp.bool_), a, 2.0)', [((2, 3), 'float32')],
     lambda a: np.where((a - F32(0.5)).astype(np.bool_), a, F32(2.0))),
]

def bf16(x):
    # Rounds float32 values to bfloat16 (nearest, ties to even), as XLA's convert does; NumPy has no bfloat16.
    bits = np.asarray(x, dtype=F32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return rounded.astype(np.uint32).view(F32)

def gelu_erf(x):
    x = x.astype(np.float64)
    return 0.5 * x * np.array([math.erfc(-v / math.sqrt(2)) for v in x.reshape(-1)]).reshape(x.shape)

def fori(lower, upper, body, init):
    x = init
    for i in range(lower, upper):
        x = body(i, x)
    return x

def args_text(args):
    parts = []
    for shape, dtype in args:
        parts.append('jax.ShapeDtypeStruct(%s, jnp.%s)' % (repr(tuple(shape)), dtype))
    return ', '.join(parts)

def main():
    print('// Generated by tests/cpp/python/make_expectations.py with Debian\'s python3 and python3-numpy')
    print('// %s; do not edit by hand.' % np.__version__)
    for name, body, args, fn, *prelude in CASES:
        params = 'abcdef'[:len(args)]
        src = ('import jax\\nimport jax.numpy as jnp\\nfrom jax import lax\\n\\n%s'
               'def f(%s):\\n    return %s\\n\\njax.jit(f).lower(%s)\\n') % (
                   ''.join(prelude).replace('\n', '\\n'), ', '.join(params), body, args_text(args))
        inputs = [arange(s, d) for s, d in args]
        out = np.asarray(fn(*inputs), dtype=np.float64)
        shape = 'x'.join(str(d) for d in out.shape)
        values = ', '.join(repr(float(v)) for v in out.reshape(-1))
        print('{"%s", "%s", {%s}, "%s"},' % (name, src, values, shape))

main()
