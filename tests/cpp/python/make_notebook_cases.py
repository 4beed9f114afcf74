#!/usr/bin/python3
"""Writes tests/cpp/python/notebook_cases.inc: small Python programs and what CPython with NumPy
prints for each (stdout, and the uncaught exception as `Type: message`). Run with Debian's python3
and python3-numpy:
    /usr/bin/python3 tests/cpp/python/make_notebook_cases.py > tests/cpp/python/notebook_cases.inc
"""
import contextlib
import io
import sys

import numpy as np

CASES = [
    ('int floor division and modulo signs',
     'print(7 // 2, -7 // 2, 7 // -2, -7 // -2, 7 % 3, -7 % 3, 7 % -3, -7 % -3, divmod(-7, 2), 0 // 5, -1 // 10)'),
    ('float floor division and modulo signs',
     'print(7.5 // 2, -7.5 // 2, 7.5 % -2, -7.5 % 2, -0.0 % 5, 0.0 % -5, divmod(7.5, -2), 1 % 0.3, -1e-20 % 1.0)'),
    ('float repr: shortest round trip, CPython layout',
     'print(1/3, 2/3, 0.1 + 0.2, 1e-5, 0.0001, 1e16, 1e15, 123456789012345678.0, -1e-7, 100.0, 80 / 3, 160 / 3)\n'
     "print(float('nan'), float('-inf'), 0.0, -0.0, 5e-324, 1.7976931348623157e308, 2.5e-300, 1e22, 1.5e+200, 3.0 * 1.1)\n"
     'print(repr(0.1), str(1e100), 16 / 7, 8192 / 3584, 24 / 7, 2 ** 0.5, 1 / 7 * 1e-10)'),
    ('int and float arithmetic',
     'print(2 ** 62, -2 ** 63, 10 ** 18 * 9, 7 / 2, -7 / 2, 2 ** -2, 2 ** 53 + 1.0, 3 * 1.5, True + True, True * 3.0, 1 == 1.0, -5 >> 1, 1 << 10, 6 & 3, 6 | 3, 6 ^ 3, ~5)'),
    ('ints of any size',
     'print(2 ** 64, -2 ** 63, 2 ** 100, (2 ** 64) // 3, -(2 ** 70) // 3, (2 ** 70) % -7, 10 ** 30 % 7, 3 ** 80 - 3 ** 80 + 1, 2 ** 64 == 2.0 ** 64, 2 ** 64 > 1e19, -(2 ** 63) - 1)\n'
     'print(0xFFFF_FFFF_FFFF_FFFF_FF, 123456789012345678901234567890, int("-98765432109876543210"), int(1e20), 2 ** 64 / 2 ** 62, abs(-2 ** 65), divmod(-2 ** 65, 10), 1 << 70, (1 << 70) >> 68, 2 ** 1000 % 1000007)\n'
     'x = 1\nfor k in range(1, 31):\n    x *= k\nprint(x, float(x), x * 1.0, str(x)[:5], len(str(x)))'),
    ('int to str past 4300 digits is refused', 'x = 10 ** 5000\nprint(len(str(x // 10 ** 4000)))\nprint(x)'),
    ('try, except, else, finally',
     "def div(a, b):\n    try:\n        r = a // b\n    except ZeroDivisionError as e:\n        print('caught:', e, type(e).__name__ if False else repr(e))\n        return None\n    else:\n        print('no error')\n        return r\n    finally:\n        print('finally')\n"
     "print(div(7, 2))\nprint(div(1, 0))\n"
     "try:\n    [1][3]\nexcept (KeyError, IndexError) as e:\n    print('lookup', e.args)\n"
     "try:\n    {}['k']\nexcept LookupError as e:\n    print('base class', repr(e), str(e))\n"
     "try:\n    raise ValueError('bad', 3)\nexcept Exception as e:\n    print(e, e.args, isinstance(e, ValueError), isinstance(e, TypeError))\n"
     "try:\n    try:\n        int('x')\n    except TypeError:\n        print('wrong handler')\n    finally:\n        print('inner finally')\nexcept ValueError as e:\n    print('outer', e)\n"
     "try:\n    assert False, 'msg'\nexcept AssertionError as e:\n    print('assert', e)\n"
     "for k in range(3):\n    try:\n        if k == 1:\n            continue\n        print('k', k)\n    finally:\n        print('f', k)\n"),
    ('keyword-only parameters, *args and **kwargs, bound as CPython binds them',
     "def f(a, b=2, *rest, scale, shift=0.5, **opts):\n    return (a, b, rest, scale, shift, opts)\n"
     "print(f(1, scale=3))\nprint(f(1, 4, 5, 6, scale=2, shift=1, color='r', width=2))\n"
     "def g(x, *, axis=-1, keepdims=False):\n    return x, axis, keepdims\n"
     "print(g(1), g(2, axis=0), g(x=3, keepdims=True))\n"
     "def h(*args, **kw):\n    return len(args), sorted(kw), kw\n"
     "print(h(), h(1, 2, z=3, a=4), h(*[1, 2, 3]))\n"
     "def k(**kw):\n    return kw\n"
     "print(k(kw=1), (lambda *a: a)(1, 2), (lambda x, y=2: x * y)(3), (lambda a, b=1, *r, k=2, **kw: (a, b, r, k, kw))(1, 2, 3, k=4, z=5))\n"
     "calls = [lambda: f(1), lambda: f(1, 2, 3, scale=1, scale2=2), lambda: g(1, 2), lambda: g(1, 2, axis=3),\n"
     "         lambda: g(), lambda: g(1, x=2), lambda: k(1), lambda: two(1, 2, 3),\n"
     "         lambda: zero(1), lambda: f(scale=1), lambda: g(1, bogus=2),\n"
     "         lambda: lk(1), lambda: ld(1, 2)]\n"
     "lk = lambda x, *, y: x\nld = lambda x=1: x\n"
     "def late(a, *, b, c):\n    return a\n"
     "def two(a, b=1):\n    return a\n"
     "def zero():\n    return 0\n"
     "calls.append(lambda: late(1))\n"
     "for c in calls:\n    try:\n        c()\n    except TypeError as e:\n        print(type(e).__name__ + ':', e)"),
    ('__name__ of classes, functions and builtins',
     "def f():\n    pass\n"
     "print(f.__name__, (lambda: 0).__name__, ValueError.__name__, type(ValueError('x')).__name__, len.__name__, print.__name__)\n"
     "print(type(1).__name__, type(1.5).__name__, type('s').__name__, type([]).__name__, type(()).__name__, type({}).__name__, type(True).__name__)\n"
     "try:\n    {}['k']\nexcept Exception as e:\n    print(type(e).__name__, repr(e))\n"
     "import numpy as np\n"
     "print(type(None), type({1}), type(range(2)), type(f), type(np.zeros(2)), type(np.float64(1)), type(np.zeros(2)).__name__)"),
    ('a re-raised exception', "try:\n    1 / 0\nexcept ZeroDivisionError:\n    print('handling')\n    raise"),
    ('an exception raised in an except clause', "try:\n    1 / 0\nexcept ZeroDivisionError:\n    raise ValueError('from handler')"),
    ('f-strings and format specs',
     "x = 3.14159\nn = 42\ns = 'hi'\nprint(f'{x}', f'{x:.2f}', f'{x:8.3f}|', f'{x:<8.1f}|', f'{x:^9.2f}|', f'{x:+.1e}', f'{x:g}', f'{1e-7:g}', f'{123456789.0:,.2f}', f'{0.25:%}', f'{0.256:.1%}')\n"
     "print(f'{n}', f'{n:5d}|', f'{n:<5}|', f'{n:05d}', f'{n:x}', f'{n:#x}', f'{n:b}', f'{n:o}', f'{-n:+d}', f'{1234567:,}', f'{1234567:_}', f'{n:.2f}', f'{n:e}')\n"
     "print(f'{s}', f'{s!r}', f'{s:>5}|', f'{s:*^6}', f'{s:.1}', f'{{literal}}', f'{n + 1} and {n * 2}', f'{[1, 2]}', f'{ {\"a\": 1} }', f'{x=}', f'{n = }')\n"
     "w = 7\np = 2\nprint(f'{x:{w}.{p}f}|', f'{2/3}', f'{80/3:.3f}', f'{1e16}', f'{-0.0}', f'{float(\"nan\"):.2f}', f'{True}', f'{None}', format(0.5, '.3f'), format(12, '04'), f'{3.0:.0f}', f'{2.5:.0f}', f'{1.0:.3}')"),
    ('round as CPython rounds',

     'print(round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(1.25, 1), round(7), round(0.5), round(26.666666666666664, 3), round(-0.5))'),
    ('containers repr',
     "print([1, 2.0, 'a', None, True, (1,), ()], {'a': 1, 'b': [1, 2]}, repr(\"it's\"), repr('a\"b'), str(3.0), (1, 2), [], {}, [[1.5], ['x']])"),
    ('dict insertion order',
     "d = {}\nd['z'] = 1\nd['a'] = 2\nd['m'] = 3\nd['z'] = 4\nprint(d, list(d), list(d.values()), list(d.items()))\n"
     "d.pop('a')\nd['a'] = 5\nprint(d, d.get('q'), d.get('q', 0), 'm' in d, len(d), d.setdefault('m', 9), d.setdefault('n', 7), d)\n"
     "e = dict(x=1, y=2)\ne.update({'x': 3, 'w': 4})\nprint(e, dict([(1, 'a'), (2, 'b')]), {1: 'a', 1.0: 'b', True: 'c'})"),
    ('comparisons',
     "print(1 < 2 < 3, 1 < 2 > 3, [1, 2] < [1, 3], (1, 'a') == (1, 'a'), 'abc' < 'abd', 2 in [1, 2], 3 not in (1, 2), None is None, 1 != 1.0, float('nan') == float('nan'))"),
    ('str.split() and str.strip(): runs of ASCII whitespace, the separators \\x1c-\\x1f included, maxsplit',
     "print('  a\\tb\\n\\x0bc\\x0cd\\re\\x1cf\\x1fg  '.split(), ''.split(), '   '.split(), '\\x1c x \\x1f'.strip(), 'one'.split(), 'a b'.split(None))\n"
     "print('a b  c  '.split(None, 1), '  a b '.split(None, 0), 'a,b,c'.split(',', 1), 'a,b,c'.split(maxsplit=-1, sep=','), ''.split(None, 0), 'x y z'.split(maxsplit=2))\n"
     "'a b'.split(maxsplit=1.5)"),
    ('strings',
     "print('a,b,c'.split(','), '-'.join(['x', 'y']), 'Hi'.upper(), len('hello'), 'ell' in 'hello', 'abc'[::-1], 'abcdef'[1:4], ' pad '.strip(), 'a b  c'.split(), 'ab' * 3, 'x' + 'y', 'hello'.replace('l', 'L'), 'abc'.startswith('ab'), 'abc'.find('c'))"),
    ('list slicing and methods',
     'x = list(range(10))\nprint(x[2:5], x[::-3], x[-3:], x[:-7], x[5:2], x[::2], x[-100:100], x[-1])\n'
     'y = [3, 1, 2]\ny.append(0)\ny.sort()\nprint(y, y.pop(), y, y.index(2), [1, 2] + [3], [0] * 3)\n'
     'y.insert(0, 9)\ny.extend((7, 8))\ny.reverse()\nprint(y, y.count(9), sorted(y, reverse=True))\n'
     'y += [5]\nprint(y, len(y))'),
    ('comprehensions',
     "print([i * i for i in range(5) if i % 2 == 0], {k: v for k, v in zip('abc', range(3))}, [(i, j) for i in range(2) for j in range(i + 1)], sum(x for x in range(4)))"),
    ('functions: defaults, keywords, closures, lambda',
     'def f(a, b=2, c=3):\n    return a + b * c\nprint(f(1), f(1, c=10), f(a=2, b=0))\n'
     'def mk(n):\n    return lambda x: x + n\nadd3 = mk(3)\nprint(add3(4), sorted([3, 1, 2], key=lambda v: -v), list(map(lambda v: v * 2, [1, 2])))\n'
     'def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\nprint(fact(20))\n'
     'def swap(a, b):\n    return b, a\nq, r = swap(1, 2)\nprint(q, r)\n'
     'def nothing():\n    pass\nprint(nothing())'),
    ('loops: while, break, continue, for-else',
     'n = 0\ntotal = 0\nwhile n < 10:\n    n += 1\n    if n % 2:\n        continue\n    if n > 8:\n        break\n    total += n\nprint(n, total)\n'
     'for i in range(3):\n    pass\nelse:\n    print("done", i)\n'
     'for i in range(3):\n    if i == 1:\n        break\nelse:\n    print("not printed")\nprint(i)\n'
     'for a, b in [(1, 2), (3, 4)]:\n    print(a + b, end=" ")\nprint()\nprint(1, 2, 3, sep=", ")\nprint("a", "b", sep="", end="!\\n")'),
    ('builtins',
     "print(min(3, 1, 2), max([1, 5, 2]), sum([1, 2, 3]), sum([0.1] * 10), abs(-3), abs(-2.5), sorted('cab'), list(enumerate('ab')), list(zip([1, 2], 'ab')))\n"
     "print(int('42'), int(-3.9), int(' 7 '), float('1.5'), float('inf'), str(12), isinstance(True, int), isinstance(1.0, (int, float)), isinstance('a', list), any([0, 0]), all([]), bool([]), bool(0.1))\n"
     'print(len(range(0, 10, 3)), list(range(5, 0, -2)), list(reversed([1, 2, 3])), min([(2, "b"), (1, "z")]), max("abc"), tuple([1, 2]), list((1, 2)), pow(2, 10), divmod(17, 5))'),
    ('NumPy printing',
     'import numpy as np\n'
     'print(np.array([1.0, 2.5]))\nprint(repr(np.array([1.0, 2.5])))\nprint(np.array([1, 2, 3]), repr(np.array([1, 2, 3])))\n'
     'print(np.arange(20) * 1.1)\nprint(np.array([[1.5, 2], [3, 4]]))\nprint(repr(np.array([[1.5, 2], [3, 4]])))\n'
     'print(np.array([1e-5, 2.5]))\nprint(np.array([True, False]), repr(np.array([True, False])))\n'
     'print(np.array([0.1, 0.25], dtype=np.float32))\nprint(repr(np.array([1, 2], dtype=np.float32)))\n'
     'print(np.array([8, 16, 32, 64, 128]) / 6)\nprint(np.array([-1.5, 2.0, np.inf, np.nan]))\nprint(np.array([1e10, 1.0]))\n'
     'print(np.zeros(3), np.ones((2, 2), dtype=np.int32), repr(np.zeros(0)), np.array([100.0, 0.001]))\n'
     'print(np.array([[1, -20], [300, 4]]))\nprint(repr(np.arange(30.0)))'),
    ('NumPy scalars print as scalars, in containers and repr too',
     'import numpy as np\nx = np.float32(1.5)\n'
     'print(repr(x), str(x), [x], (x, np.int64(3)), {1: np.float64(2.0)}, f"{x!r}")\n'
     'print(repr(np.float64(2.0)), repr(np.int64(3)), repr(np.array([1.0, 2.0], dtype=np.float32)[0]), repr(np.int32(-4)))\n'
     'print(repr(np.float32(0.1)), repr(np.bool_(True)), repr(np.float32(3) * np.float32(2)), repr(np.int32(7) + 1), [np.float32(1e-8), np.float64(1 / 3)])'),
    ('NumPy summarizes large arrays',
     'import numpy as np\nprint(np.arange(2000))\nprint(repr(np.arange(1001) * 0.5))\nprint(np.arange(3000.0).reshape(30, 100) / 7)\nprint(np.arange(1000))\nprint(np.zeros((2, 3, 400), dtype=np.int32))'),
    ('NumPy broadcasting and promotion',
     'import numpy as np\na = np.arange(6).reshape(2, 3)\nprint(a + np.array([10, 20, 30]))\n'
     'print((a / 2).dtype, a // 4, a % -4, (a * 1.5).dtype, a.shape, a.T.shape, a.ndim, a.size)\n'
     'print((np.ones(3, dtype=np.float32) * 2.5).dtype, (np.ones(3, dtype=np.float32) + np.ones(3)).dtype, (np.array([1, 2], dtype=np.int32) + 1).dtype)\n'
     'print(a.sum(), a.mean(), a.max(), a.min(), (a > 2).tolist(), a.sum(axis=0), a.max(axis=1))\n'
     'print(np.array([1, 2]) * np.array([[1], [2], [3]]))\nprint(-a, a ** 2, 2 ** np.arange(4), np.array([-7, 7]) // 2, np.array([-7.5, 7.5]) % 2)\n'
     'print(np.arange(5)[1:4], np.arange(5)[::-1], np.arange(12).reshape(3, 4)[1], np.arange(12).reshape(3, 4)[1:, ::2], np.arange(12).reshape(3, 4)[2, 3])'),
    ('NumPy functions',
     'import numpy as np\n'
     'print(np.array([[1, 2], [3, 4]]) @ np.array([5, 6]), np.array([[1.0, 2], [3, 4]]) @ np.array([[1.0], [2]]))\n'
     'print(np.sort(np.array([3.0, 1.0, 2.0])), np.append(np.array([1.5, 2.5]), 5.0), np.append([1, 2], [3]), np.concatenate([np.array([1]), np.array([2.5])]))\n'
     'print(np.minimum(3.0, np.array([1, 5])), np.maximum(np.array([1, 5]), 2), np.all(np.array([1, 2]) > 0), np.any(np.array([0, 0])), np.all([True, False]))\n'
     'print(np.tanh(np.array([0.0, 0.5])), np.sqrt(np.array([4, 9])), np.exp(np.array([0.0, 1.0])), np.log(np.array([1.0, np.e])), np.abs(np.array([-1, 2])))\n'
     'print(np.linspace(0, 1, 5), np.arange(0.0, 1.0, 0.25), np.full(3, 7), np.where(np.array([1, 0, 2]) > 0, 1.0, -1.0))\n'
     'print(np.isclose(np.array([1.0, 1.1]), 1.0), np.allclose([1.0, 2.0], [1.0, 2.0000001]), np.sum(np.array([0.1] * 10)), np.mean([1, 2, 3, 4]))\n'
     'r = np.array([26.666666666666664, 100.0])\nprint(r.tolist(), r[0], r[-1], r[1:], (r / 1e9).tolist(), np.arange(3).tolist(), np.asarray([1, 2]).astype(np.float32))'),
    ('np.testing.assert_allclose passes within its tolerance',
     'import numpy as np\nnp.testing.assert_allclose(np.array([1.0, 2.0]), [1.0, 2.0000001])\nnp.testing.assert_allclose(24 / 7, 3.4285714)\nnp.testing.assert_allclose(np.array([1.0, 2.1]), [1.0, 2.0], rtol=0.1)\n'
     "np.testing.assert_allclose([np.nan, np.inf], [np.nan, np.inf])\nprint('passed')"),
    ('np.testing.assert_allclose: the mismatch message',
     'import numpy as np\nnp.testing.assert_allclose(np.array([1.0, 3.0, 5.5]), [1, 2, 5])'),
    ('np.testing.assert_allclose: integers',
     'import numpy as np\nnp.testing.assert_allclose(np.array([1, 3]), np.array([1, 2]))'),
    ('np.testing.assert_allclose: shapes',
     'import numpy as np\nnp.testing.assert_allclose(np.array([1.0, 3.0]), np.array([1.0, 2.0, 3.0]))'),
    ('np.testing.assert_allclose: scalars, rtol',
     'import numpy as np\nnp.testing.assert_allclose(3.0, 2.0, rtol=0.1)'),
    ('np.testing.assert_allclose: float32, atol',
     'import numpy as np\nnp.testing.assert_allclose(np.array([1, 3], dtype=np.float32), np.array([1, 2], dtype=np.float32), rtol=2e-5, atol=2e-5)'),
    ('ZeroDivisionError: integer', 'print(1)\nprint(1 // 0)'),
    ('ZeroDivisionError: integer modulo', 'x = 5 % 0'),
    ('ZeroDivisionError: true division', 'x = 1 / 0'),
    ('ZeroDivisionError: float', 'x = 1.0 / 0'),
    ('ZeroDivisionError: float floor division', 'x = 1.0 // 0.0'),
    ('ZeroDivisionError: power', 'x = 0.0 ** -1'),
    ('NameError', 'print(undefined_name)'),
    ('AssertionError with a message', "assert 1 == 2, 'nope'"),
    ('AssertionError without a message', 'assert [] '),
    ('ValueError raised in a function',
     "def contract(m, k, n, itemsize=4):\n    if min(m, k, n, itemsize) <= 0:\n        raise ValueError('positive dimensions and itemsize required')\n    return m\ncontract(1, 0, 2)"),
    ('raise a class', 'raise RuntimeError'),
    ('TypeError: raise a non-exception', 'raise 5'),
    ('IndexError: list', 'x = [1, 2][5]'),
    ('IndexError: tuple', 'x = (1,)[-2]'),
    ('KeyError', "x = {'a': 1}['b']"),
    ('TypeError: str + int', "x = 'a' + 1"),
    ('TypeError: int + str', "x = 1 + 'a'"),
    ('TypeError: too many arguments', 'def f(a):\n    return a\nf(1, 2, 3)'),
    ('TypeError: missing arguments', 'def f(a, b, c):\n    return a\nf()'),
    ('TypeError: unexpected keyword', 'def f(a):\n    return a\nf(b=1)'),
    ('TypeError: not callable', 'x = None\nx()'),
    ('TypeError: not subscriptable', 'x = 5\nx[0]'),
    ('TypeError: unhashable', 'd = {[1]: 2}'),
    ('TypeError: ordering', "x = 1 < 'a'"),
    ('TypeError: sequence times float', 'x = [1] * 2.0'),
    ('ValueError: int()', "int('x')"),
    ('ValueError: float()', "float('abc')"),
    ('ValueError: unpacking, too many', 'a, b = [1, 2, 3]'),
    ('ValueError: unpacking, too few', 'a, b, c = (1, 2)'),
    ('ValueError: max of nothing', 'max([])'),
    ('ValueError: NumPy broadcasting', 'import numpy as np\nnp.array([1, 2]) + np.array([1, 2, 3])'),
    ("ValueError: NumPy broadcasting names each shape without spaces, np.where's three",
     'import numpy as np\nnp.where(np.ones((2, 3)) > 0, np.ones((4,)), 0)'),
    ('ValueError: NumPy broadcasting of two matrices', 'import numpy as np\nnp.ones((2, 3)) * np.ones((4, 3))'),
    ('ValueError: truth of an array', 'import numpy as np\nif np.array([1, 2]) > 0:\n    pass'),
    ('ValueError: NumPy reshape', 'import numpy as np\nnp.arange(6).reshape(4, 2)'),
    ('IndexError: NumPy index', 'import numpy as np\nnp.arange(3)[3]'),
    ('AttributeError: str', "'x'.foo"),
    ('OverflowError: float power', 'x = 10.0 ** 400'),
    ('OverflowError: int to float', 'x = 2 ** 2000 * 1.0'),
    ('NumPy refuses an int past 64 bits', 'import numpy as np\nnp.array([2 ** 70], dtype=np.int64)'),
    # Sets: iteration and printing follow CPython's hash table (ints, floats and tuples hash as
    # CPython's; strings are salted per process there, so their sets are printed sorted here).
    ('set literals, set(), printing order and membership',
     'print({3, 1, 2}, {10, 2, 33, 8, 1}, set(), {1, 1.0, True}, {-1, -2, 0}, {0.5, 1.5, 2.0}, {(1, 2), (0, 0)})\n'
     'print(set([5, 3, 5, 9, 1]), set(range(20)), set((8, 16, 24, 32)), set({4: "a", 1: "b"}), len({1, 2, 2}))\n'
     'print({100, 7, 64, 1000, 3, 31, 128, 9, 17}, {2 ** 61, 2 ** 61 + 1, 5, -2 ** 40}, {1e16, 3.25, -7.5, float("inf")})\n'
     "s = {'b', 'a', 'c'}\nprint(sorted(s), 'a' in s, 'z' in s, 2 in {1, 2}, [1] == [1], set() == set(), {1, 2} == {2, 1}, {1} != {1.0})\n"
     'print(type({1}).__name__ if False else len(set("hello")), sorted(set("hello")), bool(set()), bool({0}))'),
    ('set comprehensions and the set operators',
     'sq = {x * x % 7 for x in range(10)}\nprint(sq, {n % 5 for n in [10, 3, 7, 25, 8] if n > 3}, {(i, j) for i in range(2) for j in range(2)})\n'
     'a = {1, 2, 3, 4, 40, 50}\nb = {3, 4, 5, 6, 50, 51, 52}\n'
     'print(a | b, a & b, a - b, b - a, a ^ b, b ^ a)\n'
     'print(a <= b, {3, 4} <= a, {3, 4} < a, a < a, a >= {1}, a > {1, 2, 3, 4, 40, 50}, a.issubset(b), {1}.issuperset(set()))\n'
     'print(a.union([7, 8]), a.intersection(range(3)), a.difference({1, 40}), a.symmetric_difference({1, 99}), a.isdisjoint({7}), a.isdisjoint(b))\n'
     'big = set(range(100))\nprint(big - {1, 2, 3} == set(range(4, 100)) | {0}, len(big & set(range(50, 150))), sorted(big ^ set(range(95, 105))))'),
    ('set methods mutate in place; unhashable members are refused',
     's = {5}\ns.add(3)\ns.add(5)\ns.update([9, 1], (4,))\ns.discard(100)\ns.discard(9)\nprint(s, len(s))\n'
     't = s.copy()\nt.remove(3)\nprint(s, t, s == t)\n'
     'u = {1, 2, 3}\nu |= {10, 20}\nprint(u)\nu -= {2}\nprint(u)\nu ^= {1, 30}\nprint(u)\nu &= {3, 10, 30, 77}\nprint(u)\n'
     'w = set(range(30))\nfor k in range(0, 30, 2):\n    w.discard(k)\nw.add(100)\nw.add(0)\nprint(w)\n'
     'w.clear()\nprint(w, hash(7), hash(-1), hash(2 ** 61), hash(1.5), hash(-2.0), hash((1, 2)), hash(True), hash(()))\n'
     'try:\n    {[1, 2]}\nexcept TypeError as e:\n    print(e)\ntry:\n    s.remove(42)\nexcept KeyError as e:\n    print(repr(e))\n'
     '{1, 2}.add({3})'),
    ('np.eye, np.identity, np.tri, np.tril and np.triu as NumPy makes them',
     'import numpy as np\n'
     'print(repr(np.eye(2, 3, k=1, dtype=int)), repr(np.identity(2)), repr(np.tri(2, 3, k=-1)), repr(np.tri(2, 3, 1.5)))\n'
     'print(repr(np.tril([1, 2, 3])), repr(np.triu(np.arange(8.).reshape(2, 2, 2), 1)), np.eye(3, k=-5))\n'
     'print(repr(np.eye(3, dtype=np.float32)), repr(np.tri(2, dtype=bool)), repr(np.tril(np.ones((2, 3), np.float32) * np.nan)))\n'
     'print(np.triu(np.arange(12).reshape(3, 4), -1), np.tril(np.arange(12).reshape(3, 4), k=10), np.triu(np.array([[True, True], [True, True]])))\n'
     'for f in [lambda: np.tril(np.float64(1)), lambda: np.eye(2.5), lambda: np.eye(-1), lambda: np.eye(3, k=1.5), lambda: np.eye(2, k=None),\n'
     '          lambda: np.tril(np.ones((2, 2)), "a"), lambda: np.triu(np.ones((2, 2)), None), lambda: np.eye(2, x=1), lambda: np.tril()]:\n'
     '    try:\n        f()\n    except TypeError as e:\n        print("TypeError:", e)\n    except ValueError as e:\n        print("ValueError:", e)\n'
     'print(repr(np.tri(-1)), repr(np.tri(2, -1)))'),
    ('np.square, np.sign, np.isnan, np.isinf, np.isfinite, np.log2, np.log10, np.exp2 keep or make dtypes as NumPy',
     'import numpy as np\n'
     'for f in [np.square, np.sign, np.isnan, np.isinf, np.isfinite, np.log2, np.exp2, np.log10, np.negative]:\n'
     '    for a in [np.array([3, -2]), np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1e300, 3.0]), np.array([3, 1], np.int32)]:\n'
     '        print(f.__name__, a.dtype, repr(f(a)))\n'
     'print(repr(np.square(3)), repr(np.square(2.5)), repr(np.log2(8)), repr(np.sign(-3)), repr(np.isnan(1)), np.log10(1000), np.exp2(0.5))\n'
     'print(repr(np.square(np.array([2 ** 62]))), repr(np.square(np.array([1.5, -2.0], np.float32))), repr(np.exp2(np.array([1024., -1075., 0.1]))))\n'
     'try:\n    np.sign(np.array([True]))\nexcept TypeError as e:\n    print(e)'),
    ('array repr: the dtype on its own line past the width, the shape of an empty array, bools padded',
     'import numpy as np\n'
     'print(repr(np.arange(10, dtype=np.float32) / 3))\nprint(repr(np.arange(9, dtype=np.int32) * 1000000))\n'
     'print(repr(np.zeros((2, 0))), repr(np.zeros((0, 3), np.int32)), repr(np.zeros(0)))\n'
     'print(repr(np.array([True, True])), np.array([True]), repr(np.ones(3) > 0), np.array(True), repr(np.array(False)))'),

    ('np.argmax, cumsum, var, std, clip, expand_dims, squeeze, transpose, stack, vstack, hstack, outer, concatenate along any axis',
     'import numpy as np\nx = np.array([[3.0, 1.0, 4.0], [1.0, 5.0, 9.0]])\ni = np.array([[2, 7, 1], [8, 2, 8]])\nf = np.arange(6, dtype=np.float32).reshape(2, 3) / 7\nprint(np.argmax(x), np.argmin(x), np.argmax(x, axis=0), np.argmin(x, 1), x.argmax(), i.argmax(axis=-1), repr(np.argmax(i)))\nprint(np.argmax(np.array([1.0, np.nan, 5.0, np.nan])), np.argmin([3, 1, 1]), np.argmax([[True, False]], axis=1))\nprint(np.cumsum(x), np.cumsum(x, axis=0), np.cumprod(i, 1), repr(np.cumsum(f)), repr(np.cumsum(np.array([True, True, False]))), repr(np.cumsum(np.array([1, 2], np.int32))))\nprint(repr(i.cumsum(axis=1)), repr(x.cumprod()), repr(np.cumsum(i, dtype=float)), repr(np.cumsum(5)))\nprint(np.var(x), np.std(x), np.var(x, axis=0), np.std(x, axis=1, ddof=1), repr(np.var(i)), repr(np.std(f)), repr(f.var(axis=0)), x.std(ddof=1))\nprint(np.var(np.array([1.0]), ddof=1), np.std([1, 2, 3, 4]))\nprint(np.clip(x, 2, 5), repr(np.clip(f, 0.1, 0.5)), repr(np.clip(i, 2.5, None)), repr(i.clip(max=3)), np.clip(np.array([np.nan, 1.0]), 0, 0.5))\nprint(repr(np.expand_dims(np.arange(3), 0)), np.expand_dims(x, (0, 2)).shape, np.expand_dims(x, -1).shape)\nprint(repr(np.squeeze(np.ones((1, 3, 1)))), np.squeeze(np.ones((1, 3, 1)), axis=0).shape, np.ones((1, 1)).squeeze().shape, repr(np.squeeze(np.array([[5]]))))\nprint(np.transpose(x), np.transpose(np.arange(24).reshape(2, 3, 4), (1, 0, 2)).shape, x.transpose().shape, np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1)[1])\nprint(np.stack([np.arange(3), np.arange(3) * 2]), np.stack([x, x], axis=1).shape, np.stack([x, x], axis=-1)[1], repr(np.stack([np.ones(2, np.float32), np.arange(2)])))\nprint(np.vstack([np.arange(3), np.arange(3)]), np.vstack([x, np.arange(3)]), np.hstack([np.arange(2), np.arange(3)]), np.hstack([x, x]))\nprint(np.outer(np.arange(3), np.arange(4)), repr(np.outer([1.5, 2], np.array([1, 2], np.float32))))\nv = x.T\nt = np.transpose(x)\nt[0, 0] = 100\nprint(x[0, 0])\ne = np.expand_dims(x, 0)\ne[0, 1, 1] = -1\nprint(x)\nfor bad in [lambda: np.argmax(np.array([])), lambda: np.argmax(x, axis=2), lambda: np.clip(x, None, None), lambda: np.squeeze(x, 0),\n            lambda: np.transpose(x, (0,)), lambda: np.transpose(x, (0, 0)), lambda: np.stack([]), lambda: np.stack([x, i[:, :2]]), lambda: np.expand_dims(x, 3),\n            lambda: np.expand_dims(x, (0, 0)), lambda: np.vstack([np.arange(2), np.arange(3)])]:\n    try:\n        print(bad())\n    except Exception as e:\n        print(type(e).__name__, e)\nprint(np.concatenate([x, x], axis=1), np.concatenate([x, i], axis=None), repr(np.concatenate([np.ones(2, np.float32), np.arange(2)])), np.concatenate([x, x]).shape, np.concatenate((x, x), -1).shape)\nfor bad in [lambda: np.concatenate([x, np.ones(3)]), lambda: np.concatenate([x, x], axis=2), lambda: np.concatenate([np.float64(1)]), lambda: np.concatenate([x, np.ones((2, 2))])]:\n    try:\n        print(bad())\n    except Exception as e:\n        print(type(e).__name__, e)\nprint(repr(np.mean(np.arange(10))), repr(np.mean(np.arange(10, dtype=np.int32).reshape(2, 5), axis=1)), np.sum([]), np.mean(np.ones((2, 3)), axis=0))\n'),
    ('NumPy sums floats pairwise: the last digits of sum, mean and their axes are NumPy\'s',
     'import numpy as np\nprint(np.sum(np.array([0.1, 0.2, 0.3])), np.array([0.1, 0.2, 0.3]).mean(), np.sum(np.arange(20) / 10), np.sum(np.arange(200) / 10), np.sum(np.arange(1000) / 7))\na = np.arange(12).reshape(3, 4) / 10\nprint(repr(a.sum(axis=0)), repr(a.sum(axis=1)), repr(np.mean(a, axis=0)))\nf = np.arange(300, dtype=np.float32) / 7\nprint(repr(f.sum()), repr(f.mean()), repr(np.float32(0.1) + np.float32(0.2)), repr(f.reshape(30, 10).sum(axis=0)[:3]), repr(f.reshape(10, 30).sum(axis=1)[:3]))\n'),

    ('big ints: divmod word by word (signs, divisors of all-one words and powers of two), shifts both ways',
     "st = [12345]\ndef rnd(bits):\n    s = st[0]\n    v = 0\n    for k in range(bits // 30 + 1):\n        s = (s * 1103515245 + 12345) % 2147483648\n        v = v * 1073741824 + s // 2\n    st[0] = s\n    return v % (1 << bits)\nacc = 0\nout = []\nfor i in range(400):\n    a = rnd(30 + (i * 37) % 900)\n    b = rnd(1 + (i * 53) % 600) + 1\n    if i % 3 == 0:\n        a = -a\n    if i % 5 == 0:\n        b = -b\n    if i % 7 == 0:\n        b = (1 << (32 * (i % 5 + 1))) - 1\n    if i % 11 == 0:\n        b = 1 << (32 * (i % 4 + 1))\n    q, r = divmod(a, b)\n    assert q * b + r == a\n    acc = (acc * 31 + q % 1000003 + r % 999983) % 2**61\n    out.append(str(q)[-6:])\nprint(acc, ' '.join(out[:40]))\n" + 'for a in [2**70, -2**70, 2**70 + 5, -(2**70 + 5), -1 << 100, 3 ** 50, -(3 ** 50)]:\n    print(a << 3, a << 64, a << 0, a >> 1, a >> 31, a >> 32, a >> 33, a >> 64, a >> 69, a >> 70, a >> 71, a >> 200)\nprint((-2**100) >> 100, (-2**100 - 1) >> 100, (-2**100 + 1) >> 100, (2**64 - 1) >> 32, -(2**64) >> 32)\n'),

    ('NumPy review mends: 8192-element buffers in sums, keepdims and positional ddof, tri with a fractional k as NumPy\'s arange fills it, clip with a NaN bound, Python sum of an array row by row',
     "import numpy as np\nx = np.arange(100000, dtype=np.float32) * np.float32(0.1)\nprint(np.sum(x), np.mean(x), np.var(x), np.std(x))\ny = (np.arange(8193) % 1013) * 0.1 + 1.0/3\nprint(repr(np.sum(y)), repr(np.mean(y)), repr(y.var()), repr(np.sum(np.arange(30000.0).reshape(2, 15000) / 7, axis=-1)))\na = np.array([[3, 1, 4], [1, 5, 9]])\nprint(np.var(a, None, None, None, 1), a.std(None, None, None, 1), repr(np.argmax(a, keepdims=True)), repr(np.var(a, keepdims=True)), repr(np.sum(a, keepdims=True)), repr(np.mean(a, axis=1, keepdims=True)), repr(a.argmin(axis=0, keepdims=True)))\nfor f in [lambda: np.argmax(a, foo=1)]:\n    try:\n        print(f())\n    except Exception as e:\n        print(type(e).__name__)\nm = np.arange(1, 13).reshape(3, 4)\nfor k in [0.5, -0.5, 1.5, np.float64(1.0), -2.5, 0.0, 3]:\n    print(k, np.tril(m, k).tolist(), np.triu(m, k).tolist(), np.tri(3, k=k).tolist())\nprint(np.tri(2.0), np.tri(2, M=2.0), np.tri(2.5).shape)\nfor f in [lambda: np.tri(2, order='C'), lambda: np.tri(3, k=np.inf), lambda: np.tri(3, k=np.nan), lambda: np.identity(True), lambda: np.eye(2, M=True), lambda: np.clip(a, 1)]:\n    try:\n        print(f())\n    except Exception as e:\n        print(type(e).__name__, e)\nprint(np.clip(a, np.nan, 2), 0 << 70000, 0 << 2**70, sum(np.array([0.1] * 10)), sum(np.arange(6.0).reshape(2, 3) / 7))\n"),

    ('big ints: & | ^ on two\'s complement forms, bit_length and bit_count, hash word by word',
     'vals = [0, 1, -1, 2**64, -2**64, 2**64 - 1, -(2**64 - 1), 3**50, -(3**50), 2**100 + 12345, -(2**100) - 7, 5, -6, True]\nout = []\nfor a in vals:\n    for b in vals:\n        out.append((a & b, a | b, a ^ b))\nprint(len(out), sum(hash(t) % 1000003 for t in out))\nprint(out[17:21], ~(2**70), -(2**70) & 0xFFFF, (2**70 - 1) ^ -1)\nfor v in [0, 1, -1, 255, -256, 2**64, -(2**100 + 5), True, False, 3**40]:\n    print(v.bit_length(), v.bit_count())\nprint((5).bit_length.__name__ if False else 1)\ntry:\n    (5).bit_length(2)\nexcept TypeError as e:\n    print(e)\nfor v in [2**61, 2**61 - 1, 2**64, -(2**64), 3**100, -(3**100), 2**200 + 17, 10**40]:\n    print(hash(v))\nprint({2**70: 1, -(2**70): 2})\nx = 3 ** 40000\nfor i in range(3):\n    h = hash(x)\nprint(h)\n'),

    ('NumPy advanced indexing: integer arrays and lists, boolean masks (0-d too), mixed with slices, None and ...; stores through them; copies, not views',
     "import numpy as np\nx = np.arange(5)\nprint(x[x > 2], x[[0, 2]], x[[-1, 0, 0]], x[np.array([[1, 2], [3, 4]])], x[[True, False, True, False, True]])\na = np.arange(24).reshape(2, 3, 4)\nprint(a[[0, 1], [1, 2]], a[:, [0, 2]].shape, a[:, [0, 2], 1:3], a[[1, 0], :, [3, 1]], a[..., [0, -1]].shape)\nprint(a[a % 5 == 0], a[np.array([[True, False, True], [False, True, False]])], a[0, [1, 2], [0, 3]], a[[1], 1, [2, 3]])\nprint(a[:, np.array([1, 0]), np.array([[2], [3]])].shape, a[None, [0, 1]].shape, a[[0, 1], None, [0, 2]].shape, a[1, :, [0, 1]].shape)\nb = np.arange(10.0)\nb[b > 5] = 0\nb[[0, 1]] = [7, 8]\nb[[2, 2]] = 9\nprint(b)\nc = np.zeros((3, 3), int)\nc[[0, 1, 2], [2, 1, 0]] = 1\nc[c == 0] = -1\nprint(c, repr(c[c > 5]), repr(np.arange(6).reshape(2, 3)[np.array([], dtype=int)]))\nm = np.arange(12.0).reshape(3, 4)\nm[m.sum(axis=1) > 10] *= 10\nprint(m, m[[0, 2]][:, [1, 3]], m[:, [True, False, True, False]])\nv = np.arange(4)\nw = v[[0, 1]]\nw[0] = 99\nprint(v, w)\nfor bad in [lambda: x[[5]], lambda: x[[True, False]], lambda: a[[0, 1], [0, 1, 2]], lambda: x[np.array([1.0])], lambda: a[[0], [0], [0], [0]], lambda: x[np.array(True)]]:\n    try:\n        print(bad())\n    except IndexError as e:\n        print('IndexError:', e)\nprint(x[True].shape, x[False].shape, a[True, 0].shape, a[0, False, [1]].shape, x[np.array(True)], a[..., True].shape)\n"),

    ('np.random legacy: seed, rand, randn, random, uniform, normal (broadcast loc and scale), randint (32- and 64-bit ranges), standard_normal, bit for bit',
     'import numpy as np\nnp.random.seed(0)\nfor f in [lambda: np.random.rand(), lambda: np.random.randn(), lambda: np.random.random(), lambda: np.random.uniform(), lambda: np.random.normal(), lambda: np.random.randint(5), lambda: np.random.standard_normal(), lambda: np.random.random_sample(), lambda: np.random.randint(5, size=2), lambda: np.random.rand(2), lambda: np.random.uniform(1, 2, size=(2,)), lambda: np.random.normal([0, 10], 1), lambda: np.random.randint(2**40)]:\n    r = f()\n    print(type(r).__name__, repr(r))\nfor bad in [lambda: np.random.seed(-1), lambda: np.random.seed(2**32), lambda: np.random.seed(1.5), lambda: np.random.rand(-1), lambda: np.random.randint(0), lambda: np.random.randint(5, 3), lambda: np.random.normal(0, -1), lambda: np.random.rand(2.0)]:\n    try:\n        bad()\n    except Exception as e:\n        print(type(e).__name__, e)\nnp.random.seed(42)\nprint(np.random.randn(3), np.random.rand(2, 2), np.random.randint(0, 10, 5), np.random.randint(-2**62, 2**62, 2))\nnp.random.seed(1234)\na = np.random.randn(64, 32).astype(np.float32)\nprint(a.sum(), a[5, :4], np.random.normal(np.arange(3.0), [[1.0], [2.0]]), np.random.uniform(-1, 1, 3), np.random.randint(1, 2**33, 3), np.random.randint(0, 3, (2, 2)))\nnp.random.seed(2**32 - 1)\nprint(np.random.rand(3))\n'),

    ('float32 matmul, dot and vector products round each product and add to float32 in order, as the reference BLAS NumPy calls',
     'import numpy as np\nnp.random.seed(3)\nfor (n, k, m) in [(4, 5, 3), (16, 37, 8), (1, 100, 1), (32, 16, 8)]:\n    a = np.random.randn(n, k).astype(np.float32)\n    b = np.random.randn(k, m).astype(np.float32)\n    c = a @ b\n    print(repr(c.flatten()[:6]), repr(c.sum()), repr((a[0] @ b)[:3]), repr(a[0] @ a[0]), repr(np.dot(a, b)[0, :2]))\na = np.arange(512, dtype=np.float32).reshape(32, 16) / 512\nb = np.arange(128, dtype=np.float32).reshape(16, 8) / 128\nprint(repr((a @ b)[:2]))\nx = np.random.randn(3, 4, 5).astype(np.float32)\ny = np.random.randn(3, 5, 2).astype(np.float32)\nprint(repr((x @ y)[1]))\n'),

    ('NumPy review mends 2: advanced indices parted by an empty ..., empty and 0-d indices, bounds after broadcasting, NumPy\'s store messages, .T of 3-d, clip NaN bounds, np.random sizes, bounds and messages, 0-d repr precision',
     "import numpy as np\ndef t(label, f):\n    try:\n        r = f()\n        print(label, repr(r), getattr(r, 'shape', None))\n    except Exception as e:\n        print(label, type(e).__name__, e)\ny = np.arange(24).reshape(2, 3, 4)\nx = np.arange(12).reshape(3, 4)\nt(1, lambda: y[:, [0, 1, 2], ..., [1, 2, 3]])\nt(2, lambda: x[None, [0, 1], ..., [1, 2]].shape)\nt(3, lambda: y[:, 0, ..., [1, 2, 3]])\nt(4, lambda: np.arange(5)[[]])\nt(5, lambda: x[:, []])\nt(6, lambda: np.arange(5)[[[]]])\nt(7, lambda: x[np.array(1)])\nt(8, lambda: y[[0], np.array(1)])\nt(9, lambda: x[(0, 1),])\nt(10, lambda: x[[0, 5], [0, 1, 2]])\nt(11, lambda: x[[5], np.array([], dtype=int)])\nt(12, lambda: x[[1.5, 2]])\nt(13, lambda: x[[slice(0, 1)]])\nt(14, lambda: y.T.shape)\nt(15, lambda: y.T[3, 2, 1])\nz = np.zeros(6)\ndef store(idx, v):\n    z[idx] = v\n    return z\nt(16, lambda: store(z == 0, [1.0, 2.0]))\nt(17, lambda: store(np.array([[True] * 4, [False] * 4, [False] * 4])[:1, :1].ravel() if False else [0, 1], np.ones((2, 4))))\nxf = np.array([-2., 0., 3.])\nxi = np.arange(-3, 4)\nt(18, lambda: np.clip(xf, np.nan, np.nan))\nt(19, lambda: np.clip(xf, a_min=np.nan, a_max=None))\nt(20, lambda: np.clip(xi, np.float64(np.nan), 2))\nt(21, lambda: np.clip(xi, np.array(np.nan), 2))\nnp.random.seed(23)\nt(22, lambda: np.random.randint(5, size=()))\nt(23, lambda: np.random.random(size=()))\nt(24, lambda: np.random.normal(0, 1, size=()))\nt(25, lambda: np.random.normal(np.zeros((2, 3)), 1, size=(3,)))\nt(26, lambda: np.random.randint(1000000))\nt(27, lambda: np.random.randint(0, 2**63))\nt(28, lambda: np.random.randint(-2**63, 2**63, size=2))\nt(29, lambda: np.random.randint(0, 2**64))\nt(30, lambda: np.random.randint(5, 3, size=0))\nt(31, lambda: np.random.randint(5, dtype=np.int64))\nt(32, lambda: np.random.randn(True))\nt(33, lambda: np.random.normal([0, 10], [1, 2], size=(2, 1)))\nt(34, lambda: np.random.normal(0, [1, 2], size=0))\nt(35, lambda: np.array(0.7285071915957256))\nt(36, lambda: np.sum(x, 0, keepdims=True, axis=1))\n"),

    ('np.True_ and np.False_ are NumPy bool scalars (also as indices)',
     'import numpy as np\nx = np.arange(5)\nprint(repr(np.True_), repr(np.False_), type(np.True_).__name__, np.True_ and 1, x[np.True_].shape, x[[np.True_, False, True, False, False]], np.True_ + 1, bool(np.False_), np.array([np.True_, np.False_]))\n'),

    ('reductions over a tuple of axes, keepdims, NumPy messages',
     'import numpy as np\nx = np.arange(24.0).reshape(2, 3, 4) / 7\nprint(x.sum(axis=(0, 2)), np.mean(x, axis=(0, 2)), np.mean(x, axis=(1, 2), keepdims=True))\nprint(np.max(x, (0, 1)), x.min(axis=(2, 0)), np.prod(x + 1, axis=(0,)), np.sum(x, axis=()).shape)\nprint(np.var(x, axis=(0, 2)), np.std(x, axis=(0, 1), ddof=1), x.var(axis=(1, 2), keepdims=True).shape)\ni = np.arange(24).reshape(2, 3, 4)\nprint(i.sum(axis=(0, 1)), np.mean(i, axis=(0, 2)), np.all(i > 0, axis=(0, 2)), np.any(i > 22, axis=(1, 2)))\nprint(np.sum(x, axis=(0, 1, 2)), type(np.sum(i, axis=(0, 1, 2))), np.sum(i, axis=(0, 1, 2), keepdims=True))\nfor bad in [(0, 0), (0, 3), (-4,), (0, None)]:\n    try:\n        np.sum(x, axis=bad)\n    except Exception as e:\n        print(type(e).__name__, e)\ntry:\n    np.sum(x, axis=[0, 1])\nexcept Exception as e:\n    print(type(e).__name__, e)\ny = x.astype(np.float32)\nprint(y.sum(axis=(0, 2)), y.mean(axis=(1, 2)))\n'),
    ('reductions with dtype=: cast first, result in the dtype; unknown keywords by NumPy\'s names',
     "import numpy as np\nx=np.arange(6.0).reshape(2,3)/7\ni=np.arange(6).reshape(2,3)\nfor f in [lambda: np.sum(x, dtype=np.int32), lambda: np.sum(i, dtype=np.int32), lambda: np.mean(i, dtype=np.int64), lambda: np.mean(x, dtype=np.float32), lambda: i.sum(0, np.float32), lambda: np.prod(i+1, dtype=np.int32), lambda: np.mean(x, axis=0, dtype=np.int32), lambda: np.sum(i, dtype=bool), lambda: np.sum(i, dtype='float32'), lambda: np.sum(x>0.3, dtype=np.int32), lambda: np.mean(i, dtype=np.float32), lambda: np.mean(x, dtype=bool), lambda: x.mean(axis=(0, 1), dtype=np.float32, keepdims=True), lambda: np.sum(x, dtype='nope'), lambda: np.max(x, dtype=np.float32)]:\n  try:\n    r=f(); print(repr(r), type(r).__name__)\n  except Exception as e: print(type(e).__name__, e)\n"),
    ('float32 var and std, and max/min method names in errors',
     'import numpy as np\nnp.random.seed(1)\nx = np.random.randn(7, 300)\ny = x.astype(np.float32)\nprint(repr(np.var(y)), repr(np.std(y, axis=1)[:3]), repr(y.var(axis=0, ddof=1)[:3]))\ntry:\n    x.max(dtype=1)\nexcept TypeError as e:\n    print(e)\ntry:\n    np.min(x, dtype=1)\nexcept TypeError as e:\n    print(e)\n'),
    ('tuple axes in NumPy order: the trailing run pairwise, other axes in order (sum, mean, var)',
     'import numpy as np\nnp.random.seed(3)\nshapes = [(7, 300, 5), (40, 3, 70), (2, 3, 4, 5), (300, 41), (5, 1, 700)]\nfor s in shapes:\n    for dt in (np.float32, np.float64):\n        x = (np.random.randn(*s) * 10).astype(dt)\n        r = len(s)\n        axes = [(0, 1), (1, 2), (0, 2), (0, 1, 2), (-1, 0), (2, 0)] if r == 3 else ([(0, 1), (1, 3), (0, 2, 3), (3, 1, 0)] if r == 4 else [(0, 1), (1, 0)])\n        for ax in axes:\n            print(s, ("f32" if dt == np.float32 else "f64"), ax, repr(np.sum(x, axis=ax).reshape(-1)[:2]), repr(np.mean(x, axis=ax).reshape(-1)[:2]), repr(np.var(x, axis=ax).reshape(-1)[:2]), repr(x.sum(axis=ax, keepdims=True).shape))\ni = np.arange(24).reshape(2, 3, 4)\nprint(np.mean(i, axis=(0, 2)), np.mean(i, axis=(1, 2)))\n'),
    ('empty reductions keep their dtype; ravel, flatten and np.ravel',
     'import numpy as np\nz = np.zeros((0, 3))\nprint(repr(np.all(z, axis=0)), repr(np.any(z, axis=0)), repr(np.all(z)), repr(np.any(z, axis=1)), repr(np.all(np.zeros((2, 0)), axis=1)))\nx = np.arange(6).reshape(2, 3)\nprint(repr(x.ravel()), repr(x.flatten()), repr(np.ravel(x)), repr(x.T.ravel()), repr(x.T.flatten()))\nr = x.ravel(); r[0] = 9; print(x[0, 0])\nf = x.flatten(); f[1] = 7; print(x[0, 1])\n'),
    ('a mean in an integer dtype sums in it (wrapping) then truncates',
     'import numpy as np\nb = np.array([2**30, 2**30, 2**30, 1], dtype=np.int32)\nprint(np.mean(b, dtype=np.int32))\nprint(np.mean(np.array([2**62, 2**62, 2**62, 3]), dtype=np.int64))\nb2 = b.reshape(2, 2)\nprint(np.mean(b2, axis=(0, 1), dtype=np.int32), np.sum(b2, axis=(1, 0), dtype=np.int32))\n'),
    ('float to int32 out of range or NaN is INT32_MIN (x86); dtype classes are one object each',
     'import numpy as np\nprint(np.array([np.nan, 3e9, -3e9, 2.5e9, 1e30, -2147483648.5, 2147483647.9, -7.9]).astype(np.int32))\nprint(np.sum(np.array([1., np.nan, 2.]), dtype=np.int32), np.float32 is np.float32, np.float64 is np.float_, np.int_ is np.int64)\n'),
    ('np.where keeps NaN and inf operands (it broadcast by adding x * 0)',
     'import numpy as np\nu = np.array([-1.0, 0.0, 1.0])\nprint(np.where(u > 0, np.nan, u), np.where(u > 0, u, np.inf), np.where([[True], [False]], u, -u), np.where(u > 0, 1, 2.5), np.where(u > 0, np.float32(1), np.arange(3)))\nprint(repr(np.where(np.array([True, False]), np.array([1, 2], np.int32), 0)), repr(np.where(True, np.arange(3.0), np.nan)))\n'),
]


def run(src):
    out = io.StringIO()
    err = ''
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(src, '<case>', 'exec'), {'__name__': '__main__'})
        except Exception as e:  # noqa: BLE001
            msg = str(e)
            err = type(e).__name__ + (': ' + msg if msg else '')
    return out.getvalue(), err


def c_string(s):
    out = '"'
    for ch in s:
        if ch == '\\':
            out += '\\\\'
        elif ch == '"':
            out += '\\"'
        elif ch == '\n':
            out += '\\n"\n    "'
        elif ord(ch) < 0x20 or ord(ch) > 0x7e:
            out += '\\x%02x""' % ord(ch) if ord(ch) < 0x80 else ''.join('\\x%02x""' % b for b in ch.encode())
        else:
            out += ch
    return out + '"'


np.seterr(all='ignore')
print('// Generated by tests/cpp/python/make_notebook_cases.py with Debian\'s python3 %d.%d.%d and NumPy %s: do not edit.'
      % (sys.version_info[:3] + (np.__version__,)))
print('// {name, source, what CPython + NumPy printed, the uncaught exception as "Type: message" ("" when none)}')
for name, src in CASES:
    out, err = run(src)
    print('{%s,\n    %s,\n    %s,\n    %s},' % (c_string(name), c_string(src), c_string(out), c_string(err)))
