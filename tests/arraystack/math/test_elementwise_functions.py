"""NumPy parity of the elementwise array functions that are not ufuncs: where, clip, round/around,
fix, nan_to_num, real, imag, angle, isreal, iscomplex, isrealobj, iscomplexobj."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def values(dtype):
    """Eight values of `dtype` with its special ones (signed zeros, halves, inf, nan where it has them)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.array([True, False, True, True, False, False, True, False])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([0, 1, 5, 15, 25, info.max, info.min, info.max - 4], dtype)
    real = np.array([0.0, -0.0, 1.5, -2.5, 123.4567, np.inf, -np.inf, np.nan])
    if dtype.kind == "f":
        return real.astype(dtype)
    out = np.empty(8, dtype)
    out.real, out.imag = real, real[::-1]
    return out


@pytest.mark.parametrize(
    "x, y",
    [
        (np.arange(4.0), -1),
        (np.arange(4, dtype=np.int8), 1000),
        (1, 2.5),
        (np.float32(1), 2.0),
        (np.arange(4, dtype=np.uint8), np.arange(4, dtype=np.int8)),
        (np.ones(4, bool), 0j),
    ],
    ids=str,
)
def test_where(parity, x, y):
    cond = np.array([True, False, True, False])
    parity(lambda xp, c, a, b: xp.where(c, a, b), cond, x, y)
    parity(lambda xp, c, a, b: xp.where(c, a, b), np.array([0, 3, 0, -1]), x, y)
    parity(lambda xp, a, b: xp.where(True, a, b), x, y)


def test_where_arguments(parity):
    parity(lambda xp, c: xp.where(c, 1), np.ones(3))
    parity(
        lambda xp, c, a: xp.where(xp.reshape(c, (2, 1)), a, a.T),
        np.array([True, False]),
        np.ones((2, 2)),
    )


def test_where_one_argument_is_nonzero(parity):
    from arraystack._indexing import subscripts as _indexing

    if not hasattr(_indexing, "nonzero"):
        pytest.skip("arraystack._indexing.subscripts.nonzero is written by the indexing family")
    parity(lambda xp, c: xp.where(c), np.array([[0, 1], [2, 0]]), traced=False)


@pytest.mark.parametrize("size", [0, 2, 5])
def test_where_one_argument_with_a_size_is_nonzero_with_it(size):
    """jax.numpy's extension: size=/fill_value= give a fixed length, so the condition may be traced."""
    c = np.array([[0, 1], [2, 0]])
    expected = arraystack.nonzero(c, size=size, fill_value=-1)
    jitted = arraystack.jit(arraystack.where, static_argnames=("size", "fill_value"))
    for f in (arraystack.where, jitted):
        got = f(c, size=size, fill_value=-1)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(e))
    padded = arraystack.where(c, size=3)[0]
    np.testing.assert_array_equal(np.asarray(padded), [0, 1, 0])  # fill_value 0 by default
    with pytest.raises(ValueError, match="one-argument form"):
        arraystack.where(c, 1, 2, size=3)


CLIP_CASES = [
    (np.arange(-3.0, 4.0), (-1, 1), {}),
    (np.arange(-3.0, 4.0), (), {"min": 0}),
    (np.arange(-3.0, 4.0), (), {"max": 0.5}),
    (np.arange(-3.0, 4.0), (None, 2), {}),
    (np.arange(-3.0, 4.0), (2, None), {}),
    (np.arange(-3, 4, dtype=np.int8), (-1000, 300), {}),
    (np.arange(-3, 4, dtype=np.int8), (-1, 300), {}),
    (np.arange(0, 7, dtype=np.uint8), (-1, 3), {}),
    (np.arange(-3, 4, dtype=np.int8), (1.5, 3), {}),
    (np.array([np.nan, -np.inf, 1.0, 5.0]), (2, 3), {}),
    (np.array([0.0, 1.0, 5.0]), (np.nan, 3), {}),
    (np.array([0.0, 1.0, 5.0]), (3, 2), {}),
    (np.array([1 + 1j, 2 - 3j, 0j, np.nan]), (1 + 0j, 2 + 0j), {}),
    (np.arange(6.0).reshape(2, 3), (np.array([1.0, 2.0, 3.0]), np.array([[2.0], [4.0]])), {}),
    (np.arange(6, dtype=np.int16), (1, 3), {"dtype": np.float32}),
]


@pytest.mark.parametrize("a, bounds, kwargs", CLIP_CASES, ids=str)
def test_clip(parity, a, bounds, kwargs):
    parity(lambda xp, x: xp.clip(x, *bounds, **kwargs), a)


def test_clip_errors_and_method(parity):
    a = np.arange(5.0)
    parity(lambda xp, x: xp.clip(x, 1), a)  # a_max missing
    parity(lambda xp, x: xp.clip(x, 1, 2, min=0), a)
    parity(lambda xp, x: xp.clip(x), a)
    parity(lambda xp, x: xp.clip(np.array([True]), None, None), a)
    parity(lambda xp, x: x.clip(1, 3), a)
    parity(lambda xp, x: x.clip(max=3), a)
    parity(lambda xp, x: xp.clip(x, 1, 3, out=xp.zeros(5), where=x > 2), a)


ROUND_CASES = [
    ("f8", 0),
    ("f8", 2),
    ("f8", -1),
    ("f4", 1),
    ("f2", 2),
    ("f2", -1),
    ("i8", 1),
    ("i8", -1),
    ("u1", -1),
    ("i1", -2),
    ("?", 0),
    ("?", 1),
    ("c16", 1),
    ("c8", -1),
    ("f8", 12),
    ("f8", -309),
]


@pytest.mark.parametrize("dtype, decimals", ROUND_CASES)
def test_round(parity, dtype, decimals):
    a = values(dtype)
    if np.dtype(dtype).kind in "fc":
        a = a * np.dtype(dtype).type(123.4567)
    parity(lambda xp, x: xp.round(x, decimals), a)
    parity(lambda xp, x: xp.around(x, decimals), a)
    parity(lambda xp, x: x.round(decimals), a)


def test_round_integer_precision_and_out(parity):
    parity(lambda xp, x: xp.round(x, -1), np.array([15, 25, -15, 2**60 + 5], np.int64))
    parity(
        lambda xp, x: xp.round(x, 1, out=xp.zeros(4, np.float32)),
        np.array([1.25, 2.35, -0.05, 9.99]),
    )
    parity(lambda xp, x: xp.round(x, 1, out=xp.zeros(3)), np.ones(4))
    parity(lambda xp, x: xp.round(x, 2, out=xp.zeros(4, np.int64)), np.arange(4.0))


NAN_TO_NUM = [
    {},
    {"nan": -1.0},
    {"posinf": 7, "neginf": -7},
    {"nan": np.array([1.0, 2.0, 3.0, 4.0])},
    {"nan": 1j},
]


@pytest.mark.parametrize("kwargs", NAN_TO_NUM, ids=str)
@pytest.mark.parametrize("dtype", ["f2", "f4", "f8", "c8", "c16", "i4", "?"])
def test_nan_to_num(parity, dtype, kwargs):
    a = values(dtype)
    parity(lambda xp, x: xp.nan_to_num(x, **kwargs), a)


def test_nan_to_num_in_place(parity):
    def fn(xp, x):
        out = xp.nan_to_num(x, copy=False)
        return out, x

    parity(fn, np.array([np.nan, np.inf, -np.inf, 1.0]), traced=False)
    parity(fn, np.array([1, 2]), traced=False)


@pytest.mark.parametrize("dtype", ["?", "i1", "u8", "f2", "f4", "c8", "c16"])
def test_complex_helpers(parity, dtype):
    a = values(dtype)
    for name in (
        "real",
        "imag",
        "isreal",
        "iscomplex",
        "iscomplexobj",
        "isrealobj",
        "angle",
        "conj",
    ):
        parity(lambda xp, x, name=name: getattr(xp, name)(x), a)
    parity(lambda xp, x: xp.angle(x, deg=True), a)
    parity(lambda xp, x: (x.real, x.imag), a)


def test_complex_helpers_on_python_values(parity):
    for value in ([1, 2j], 3.5, [[1.0]]):
        for name in ("real", "imag", "isreal", "iscomplex", "iscomplexobj", "angle"):
            parity(lambda xp, name=name, value=value: getattr(xp, name)(value))


def test_real_is_a_view(xp):
    a = xp.asarray(np.array([1 + 2j, 3 - 4j]))
    r = xp.real(a)
    r[...] = 0
    np.testing.assert_array_equal(np.asarray(a), [2j, -4j])
