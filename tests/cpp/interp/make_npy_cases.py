#!/usr/bin/python3
"""Writes tests/cpp/interp/npy_cases.inc: .npy files as NumPy's own np.save (and
np.lib.format.write_array for versions 2.0 and 3.0) writes them, each with the element type, shape
and little-endian data bytes the core must read from it. Run with Debian's python3 and
python3-numpy:
    /usr/bin/python3 tests/cpp/interp/make_npy_cases.py > tests/cpp/interp/npy_cases.inc
"""
import io
import numpy as np

def saved(x, version=None):
    f = io.BytesIO()
    if version is None:
        np.save(f, x)
    else:
        np.lib.format.write_array(f, x, version=version)
    return f.getvalue()

# name, array, core element type, .npy version (None: np.save's choice), written back byte for byte
CASES = [
    ('float32 2x3', (np.arange(6, dtype=np.float32) / 7).reshape(2, 3), 'F32', None, True),
    ('float64 scalar', np.array(-2.5), 'F64', None, True),
    ('bool vector', np.array([True, False, True, True]), 'Pred', None, True),
    ('int8', np.array([[-128, 127], [0, -1]], dtype=np.int8), 'S8', None, True),
    ('int16', np.array([-300, 300], dtype=np.int16), 'S16', None, True),
    ('int32 3-d', np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 12, 'S32', None, True),
    ('int64', np.array([-(2**40), 2**40 + 1]), 'S64', None, True),
    ('uint8', np.array([0, 255, 7], dtype=np.uint8), 'U8', None, True),
    ('uint16 big-endian', np.array([1, 258, 65535], dtype='>u2'), 'U16', None, False),
    ('uint32', np.array([4000000000], dtype=np.uint32), 'U32', None, True),
    ('uint64', np.array([2**64 - 1], dtype=np.uint64), 'U64', None, True),
    ('float16', np.array([0.5, -65504, np.inf], dtype=np.float16), 'F16', None, True),
    ('float32 big-endian', np.array([1.5, -0.0, np.nan], dtype='>f4'), 'F32', None, False),
    ('complex64', np.array([1 + 2j, -3.5j], dtype=np.complex64), 'C64', None, True),
    ('complex128 big-endian', np.array([1 + 2j], dtype='>c16'), 'C128', None, False),
    ('empty', np.zeros((0, 3), dtype=np.float32), 'F32', None, True),
    ('version 2.0', np.arange(3, dtype=np.float32), 'F32', (2, 0), False),
    ('version 3.0', np.arange(3, dtype=np.int32), 'S32', (3, 0), False),
]

def c_bytes(b):
    return '"' + ''.join('\\x%02x' % c for c in b) + '"'

print('// Written by tests/cpp/interp/make_npy_cases.py with NumPy', np.__version__, '- do not edit.')
for name, x, etype, version, roundtrip in CASES:
    file = saved(x, version)
    data = np.ascontiguousarray(x).astype(x.dtype.newbyteorder('<')).tobytes()
    dims = ', '.join(str(d) for d in x.shape)
    print('{"%s", std::string(%s, %d), ElementType::%s, {%s}, std::string(%s, %d), %s},' % (
        name, c_bytes(file), len(file), etype, dims, c_bytes(data), len(data), 'true' if roundtrip else 'false'))
