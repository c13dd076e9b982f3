"""Eagerly, every elementwise ufunc gives NumPy's bits (NaNs: any NaN) on arrays of each dtype with
special values (zeros of both signs, infinities, NaN, subnormals, large and tiny magnitudes): what a
composition of primitives computes must round as NumPy's own loop does."""

from __future__ import annotations

import warnings

import numpy
import pytest

import arraystack

DTYPES = [
    "float16",
    "float32",
    "float64",
    "int8",
    "int64",
    "uint8",
    "bool",
    "complex64",
    "complex128",
]
UFUNCS = sorted(
    n
    for n in dir(numpy)
    if isinstance(getattr(numpy, n), numpy.ufunc) and getattr(numpy, n).signature is None
)
SPECIAL = [
    0.0,
    -0.0,
    numpy.inf,
    -numpy.inf,
    numpy.nan,
    1e30,
    -1e-30,
    88.5,
    -88.5,
    700,
    1,
    -1,
    0.5,
    2,
    3,
    1e-310,
]


def _sample(dtype, seed):
    rng = numpy.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(257) > 0.5
    if dtype[0] in "iu":
        return (rng.standard_normal(257) * 40).astype(dtype)
    normal = numpy.concatenate([rng.standard_normal(200) * 10, rng.standard_normal(41) * 1e-3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = numpy.concatenate([normal, SPECIAL]).astype(dtype)
        return x + 1j * numpy.roll(x, 3).real.astype(x.real.dtype) if dtype[0] == "c" else x


def _bits(x):
    """The bits of each element (a complex one's two parts), NaN as one pattern."""
    x = numpy.ascontiguousarray(x)
    if x.dtype.kind not in "fc":
        return x
    real = x.view(f"f{x.dtype.itemsize // 2}") if x.dtype.kind == "c" else x
    return numpy.where(
        numpy.isnan(real), -1, real.view(f"u{real.dtype.itemsize}").astype(numpy.int64)
    )


@pytest.mark.parametrize("name", UFUNCS)
def test_eager_ufuncs_give_numpys_bits(name):
    ufunc = getattr(numpy, name)
    wrong = []
    for dtype in DTYPES:
        args = (_sample(dtype, 1), numpy.roll(_sample(dtype, 2), 7))[: ufunc.nin]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                expected = ufunc(*args)
            except (
                TypeError,
                ValueError,
            ) as error:  # no loop for this dtype; ints to negative powers
                with pytest.raises(type(error)):
                    getattr(arraystack, name)(*[arraystack.asarray(a) for a in args])
                continue
            got = getattr(arraystack, name)(*[arraystack.asarray(a) for a in args])
        expected = expected if isinstance(expected, tuple) else (expected,)
        got = got if isinstance(got, tuple) else (got,)
        for e, g in zip(expected, got):
            g = numpy.asarray(g)
            if g.dtype != e.dtype or not numpy.array_equal(_bits(g), _bits(e)):
                wrong.append(dtype)
    assert wrong == []
