"""What the tests feed NumPy and arraystack, and how they compare results bit for bit.

`make(shape, dtype)` draws deterministic data of any dtype (a test file fixes its integer range with
functools.partial). `assert_same_bits` compares every byte (NaN payloads and signed zeros included),
`assert_bitwise` every bit but NaN payloads (NaN where NaN), `bits` gives the patterns it compares.
"""

from __future__ import annotations

import numpy

# one dtype of each kind and each float width: what a family's parity tests run over
DTYPES = [
    "bool",
    "int8",
    "uint16",
    "int64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


def make(shape, dtype="float64", seed=0, *, ints=(-9, 10), scale=1.0, ties=False, nan=False):
    """Deterministic data of a dtype.

    Bools are fair coin flips; integers are drawn from [low, high) = `ints` (low clipped at 0 for unsigned
    dtypes); floats are standard normal times `scale`, or with `ties` integer-valued in [-3, 3) (equal
    keys); complex values get an imaginary part drawn the same way (not scaled). `nan` puts NaN at every
    third element of a float array. `seed` is an int or a numpy Generator (drawn from in turn).
    """
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return numpy.asarray(rng.random(shape) > 0.5)
    if dtype.kind in "iu":
        low, high = ints
        return rng.integers(max(low, 0) if dtype.kind == "u" else low, high, shape).astype(dtype)

    def draw():
        return rng.integers(-3, 3, shape).astype(float) if ties else rng.standard_normal(shape)

    x = draw() * scale
    if dtype.kind == "c":
        x = x + 1j * draw()
    x = x.astype(dtype)
    if nan and x.size:
        x.flat[::3] = numpy.nan
    return x


def bits(a):
    """Floats as their bit patterns (NaNs unified), complex as the patterns of both parts; other dtypes
    as they are."""
    a = numpy.asarray(a)
    if a.dtype.kind == "c":
        return numpy.stack([bits(a.real), bits(a.imag)])
    if a.dtype.kind != "f":
        return a
    out = a.view(f"u{a.dtype.itemsize}").copy()
    out[numpy.isnan(a)] = 0
    return out


def assert_bitwise(expected, actual):
    """The same dtype, shape and bits, except that any NaN matches any NaN (payloads may differ);
    tuples and lists element by element."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected)
        for e, a in zip(expected, actual):
            assert_bitwise(e, a)
        return
    expected, actual = numpy.asarray(expected), numpy.asarray(actual)
    assert (actual.dtype, actual.shape) == (expected.dtype, expected.shape), (
        f"{actual.dtype}{actual.shape} != {expected.dtype}{expected.shape}"
    )
    numpy.testing.assert_array_equal(bits(actual), bits(expected))


def assert_same_bits(expected, actual, where=""):
    """The same dtype, shape and bytes (NaN payloads and signed zeros included); tuples and lists element
    by element. `where` names the value in the message; the first differing element is reported."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected), where
        for k, (e, a) in enumerate(zip(expected, actual)):
            assert_same_bits(e, a, f"{where}[{k}]")
        return
    e, a = numpy.asarray(expected), numpy.asarray(actual)
    assert (a.dtype, a.shape) == (e.dtype, e.shape), f"{where}: {a.dtype}{a.shape} != {e.dtype}{e.shape}"
    if a.tobytes() != e.tobytes():
        size = max(e.dtype.itemsize, 1)
        words = numpy.frombuffer(a.tobytes(), numpy.uint8) != numpy.frombuffer(e.tobytes(), numpy.uint8)
        differ = numpy.flatnonzero(words.reshape(-1, size).any(axis=1))
        k = differ[0]
        raise AssertionError(
            f"{where}: {differ.size} of {e.size} elements differ, first at {k}: "
            f"{a.reshape(-1)[k]!r} != {e.reshape(-1)[k]!r} (expected)"
        )
