"""NumPy parity of _creation/assembly.py: block and fromiter."""

from __future__ import annotations

import functools

import numpy
import pytest

import arraystack
from tests import oracle
from tests.conftest import run_traced

DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]


make = functools.partial(oracle.make, ints=(0, 50))


BLOCKS = {
    "depth0": lambda xp, a, b, c: xp.block(a),
    "flat": lambda xp, a, b, c: xp.block([a, b]),
    "grid": lambda xp, a, b, c: xp.block([[a, b], [c, c]]),
    "scalars": lambda xp, a, b, c: xp.block([[1, 2.5], [a[0, :1], b[0, :1]]]),
    "deep": lambda xp, a, b, c: xp.block([[[a]], [[c]]]),
    "mixed_ndim": lambda xp, a, b, c: xp.block([a[0], b[0]]),
    "vector_rows": lambda xp, a, b, c: xp.block([[a[0]], [c[0]]]),
    "mismatch": lambda xp, a, b, c: xp.block([[a, b], [a]]),  # ValueError
    "depth_mismatch": lambda xp, a, b, c: xp.block([[a], b]),  # ValueError
    "tuple": lambda xp, a, b, c: xp.block([(a, b)]),  # TypeError
    "empty_list": lambda xp, a, b, c: xp.block([[a], []]),  # ValueError
    "empty": lambda xp, a, b, c: xp.block([]),  # ValueError
}


@pytest.mark.parametrize("case", list(BLOCKS))
@pytest.mark.parametrize(
    "dtypes", [("float64",) * 3, ("int8", "uint16", "bool"), ("float32", "complex128", "int64")]
)
def test_block(parity, case, dtypes):
    a = make((2, 3), dtypes[0])
    b = make((2, 2), dtypes[1], 1)[:, ::-1]  # negative strides
    c = make((5, 2), dtypes[2], 2)[::2].T[:, :2].T  # non-contiguous, (2, 2)
    c = numpy.concatenate([c, c[:, :1], c], axis=1)[:, :5]
    parity(BLOCKS[case], a, b, c)


def test_block_zero_d_and_empty(parity):
    parity(lambda xp, x: xp.block(x), numpy.array(3.5))
    parity(lambda xp, x: xp.block([x, x]), numpy.array(3, "int16"))
    parity(lambda xp, x: xp.block([[x], [x]]), numpy.zeros((0, 2)))
    parity(lambda xp: xp.block(7))


def test_block_returns_a_copy():
    x = arraystack.asarray(numpy.arange(4.0))
    out = arraystack.block(x)
    out[0] = 9.0
    assert float(x[0]) == 0.0


@pytest.mark.parametrize("dtype", DTYPES)
def test_fromiter(parity, dtype):
    data = make(6, dtype).tolist()
    parity(lambda xp: xp.fromiter(iter(data), dtype), traced=False)
    parity(lambda xp: xp.fromiter((v for v in data), dtype, count=4), traced=False)
    parity(lambda xp: xp.fromiter(iter(data), dtype, count=9), traced=False)  # ValueError
    parity(lambda xp: xp.fromiter(iter([]), dtype), traced=False)


def test_fromiter_conversions(parity):
    parity(lambda xp: xp.fromiter(range(5), "float32"), traced=False)
    parity(lambda xp: xp.fromiter(range(5), "(2,)i4"), traced=False)  # ValueError: not subarray
    parity(lambda xp: xp.fromiter([1j], float), traced=False)  # TypeError
    parity(lambda xp: xp.fromiter([xp.asarray(1.5), 2], float), traced=False)
    parity(lambda xp, x: xp.fromiter(iter(x), x.dtype), numpy.arange(4.0)[::-1])
    parity(lambda xp, x: xp.fromiter((v * 2 for v in x), "int32", count=3), numpy.arange(4.0))
    parity(lambda xp, x: xp.fromiter(iter([x, x]), x.dtype), numpy.arange(4.0))  # ValueError


def test_fromiter_of_traced_arrays_needs_scalars():
    with pytest.raises(ValueError, match="sequence"):
        run_traced(lambda xp, x: xp.fromiter(iter([x, x]), x.dtype), numpy.arange(4.0))
    with pytest.raises(ValueError, match="too short"):
        run_traced(lambda xp, x: xp.fromiter(iter(x), x.dtype, count=9), numpy.arange(4.0))
