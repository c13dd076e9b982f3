"""NumPy parity of the elementwise family: every ufunc over every dtype (eager and traced), shapes,
special values (bitwise, signed zeros included), and the array functions (where, clip, round,
...)."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

import arraystack
from arraystack._core.array import wrap
from tests import oracle

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

DTYPES = "? i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8 c8 c16".split()
FLOATS = "f2 f4 f8".split()


def sample(dtype, seed=0):
    """A (3, 4) array of `dtype` with its special values (0, -0, ±1, extremes, inf, nan, ...)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.random.default_rng(seed).integers(0, 2, (3, 4)).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        values = [0, 1, 2, 3, 7, info.max, info.min, info.max - 1, 5, 6, 9, 100]
        if dtype.kind == "i":
            values[4:8] = [-1, -2, info.min, -7]
        return np.random.default_rng(seed).permutation(np.array(values, dtype)).reshape(3, 4)
    if dtype.kind == "f":
        values = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.75, np.inf, -np.inf, np.nan, 1e-3, 100.0]
        return np.random.default_rng(seed).permutation(np.array(values, dtype)).reshape(3, 4)
    out = np.empty((3, 4), dtype)
    out.real = sample(dtype.char.lower(), seed)
    out.imag = sample(dtype.char.lower(), seed + 7)
    return out


def assert_bitwise(expected, actual):
    """The same bits (oracle.assert_bitwise), and each result is an arraystack array."""
    for a in actual if isinstance(actual, tuple) else (actual,):
        assert isinstance(a, arraystack.ndarray)
    oracle.assert_bitwise(expected, actual)


@pytest.fixture
def run_traced(parity):
    """conftest's tracer (trace, typecheck, evaluate), for comparisons stricter than `parity`."""
    return sys.modules[parity.__module__].run_traced


UNARY = (
    "negative positive absolute abs fabs sign conjugate conj exp exp2 expm1 log log2 log10 log1p "
    "sqrt cbrt square reciprocal sin cos tan arcsin arccos arctan asin acos atan sinh cosh tanh "
    "arcsinh arccosh arctanh asinh acosh atanh degrees radians deg2rad rad2deg floor ceil trunc "
    "rint fix "
    "logical_not invert bitwise_not bitwise_invert bitwise_count isnan isinf isfinite signbit "
    "spacing modf frexp real imag angle isreal iscomplex nan_to_num round around"
).split()
BINARY = (
    "add subtract multiply divide true_divide floor_divide remainder mod fmod divmod power pow "
    "float_power logaddexp logaddexp2 arctan2 atan2 hypot equal not_equal less less_equal greater "
    "greater_equal logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor "
    "left_shift right_shift bitwise_left_shift bitwise_right_shift copysign nextafter maximum "
    "minimum fmax fmin heaviside ldexp gcd lcm"
).split()
SHIFTS = {"left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift"}
# libm (NumPy's loop) and NumPy's vectorised exp/log1p/pow (arraystack's primitives) differ in the
# last bits; a result near zero (x ≈ -y) amplifies that
LOOSE = {"logaddexp": 1e-3, "logaddexp2": 1e-3, "float_power": 1e-6}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary(parity, name, dtype):
    parity(lambda xp, a: getattr(xp, name)(a), sample(dtype))


def _second_operand(name, dtype):
    if name == "ldexp":
        return np.arange(-6, 6).reshape(3, 4)
    b = sample(dtype, seed=1)
    if name in SHIFTS and np.dtype(dtype).kind in "iu":
        b = (np.abs(b.astype(np.int64)) % 9).astype(dtype)  # counts up to past int8's width
    return b


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", BINARY)
def test_binary(parity, name, dtype):
    parity(
        lambda xp, a, b: getattr(xp, name)(a, b),
        sample(dtype),
        _second_operand(name, dtype),
        rtol=LOOSE.get(name),
    )


MIXED = (
    "add divide floor_divide power equal less logical_xor bitwise_or maximum fmin arctan2 gcd "
    "heaviside"
)


@pytest.mark.parametrize("name", MIXED.split())
@pytest.mark.parametrize(
    "dtypes", ["i1,u1", "u8,i8", "i8,u8", "?,f2", "i2,f2", "u4,f4", "f4,c16", "i8,c8"]
)
def test_mixed_dtypes(parity, name, dtypes):
    left, right = dtypes.split(",")
    parity(lambda xp, a, b: getattr(xp, name)(a, b), sample(left), sample(right, seed=2))


SCALARS = [
    0,
    1,
    -1,
    1000,
    -1000,
    2**63,
    2.5,
    -0.0,
    float("nan"),
    1j,
    True,
    np.float32(2),
    np.int8(-3),
]


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("dtype", ["?", "i1", "u1", "i8", "u8", "f2", "f4", "c8"])
@pytest.mark.parametrize(
    "name", ["add", "multiply", "equal", "less", "greater_equal", "not_equal", "fmax"]
)
def test_python_and_numpy_scalars(parity, name, dtype, scalar):
    """NEP 50: Python scalars are weak (out-of-range ints raise, except in comparisons), NumPy's are
    not."""
    a = sample(dtype)
    parity(lambda xp, x: getattr(xp, name)(x, scalar), a)
    parity(lambda xp, x: getattr(xp, name)(scalar, x), a)


def test_python_scalars_only(parity):
    parity(lambda xp: xp.add(1, 2))
    parity(lambda xp: xp.equal(1, 2))
    parity(lambda xp: xp.sin(2.0))
    parity(lambda xp: xp.logaddexp(1.0, 2))
    parity(lambda xp: xp.divmod(7, -2))


SHAPES = [((), ()), ((0,), ()), ((0, 3), (3,)), ((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((5,), (1,))]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize(
    "name", ["add", "arctan2", "logaddexp", "fmax", "heaviside", "equal", "divmod"]
)
def test_broadcasting(parity, name, shapes):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shapes[0]).astype(np.float32)
    b = rng.standard_normal(shapes[1]).astype(np.float32)
    parity(lambda xp, x, y: getattr(xp, name)(x, y), a, b)


@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "hypot"])
def test_broadcast_mismatch(parity, name):
    parity(lambda xp, x, y: getattr(xp, name)(x, y), np.ones(3), np.ones(4))


def _views():
    base = np.arange(60, dtype=np.float64).reshape(6, 10) / 7 - 4
    return {"transposed": base.T, "strided": base[::2, 1::3], "reversed": base[::-1, ::-2]}


@pytest.mark.parametrize("view", ["transposed", "strided", "reversed"])
@pytest.mark.parametrize(
    "name", ["sin", "floor", "square", "spacing", "modf", "nan_to_num", "round"]
)
def test_non_contiguous_unary(name, view):
    v = _views()[view]
    expected = getattr(np, name)(v)
    assert_bitwise(expected, getattr(arraystack, name)(wrap(v)))


@pytest.mark.parametrize("view", ["transposed", "strided", "reversed"])
@pytest.mark.parametrize("name", ["add", "heaviside", "fmin", "copysign", "less"])
def test_non_contiguous_binary(name, view):
    v = _views()[view]
    w = np.ascontiguousarray(v[::-1]) * 3
    assert_bitwise(getattr(np, name)(v, w), getattr(arraystack, name)(wrap(v), w))
    assert_bitwise(getattr(np, name)(w, v.T.T), getattr(arraystack, name)(w, wrap(v)))


def test_traced_transposed_operands(parity):
    a = np.arange(12.0).reshape(3, 4) - 5
    parity(lambda xp, x: xp.hypot(x.T, xp.transpose(x)), a)
    parity(lambda xp, x: xp.maximum(x.T, 0.5), a)


# -- special values, bit for bit -------------------------------------------------------------------

ALL_F16 = np.arange(2**16, dtype=np.uint16).view(np.float16)
EXHAUSTIVE_UNARY = (
    "degrees radians spacing reciprocal square fabs fix modf frexp nan_to_num round angle".split()
)
EXHAUSTIVE_BINARY = (
    "logaddexp logaddexp2 heaviside fmax fmin copysign nextafter divmod maximum".split()
)


@pytest.mark.parametrize("name", EXHAUSTIVE_UNARY)
def test_every_float16_unary(name, run_traced):
    expected = getattr(np, name)(ALL_F16)
    assert_bitwise(expected, getattr(arraystack, name)(ALL_F16))
    assert_bitwise(expected, run_traced(lambda xp, a: getattr(xp, name)(a), ALL_F16))


@pytest.mark.parametrize("name", EXHAUSTIVE_BINARY)
def test_every_float16_binary(name, run_traced):
    other = np.random.default_rng(0).permutation(ALL_F16)
    expected = getattr(np, name)(ALL_F16, other)
    assert_bitwise(expected, getattr(arraystack, name)(ALL_F16, other))
    assert_bitwise(expected, run_traced(lambda xp, a, b: getattr(xp, name)(a, b), ALL_F16, other))


def _random_bits(dtype, n=20000):
    dtype = np.dtype(dtype)
    uint = {4: np.uint32, 8: np.uint64}[dtype.itemsize]
    drawn = np.random.default_rng(3).integers(0, np.iinfo(uint).max, n, dtype=uint, endpoint=True)
    return np.concatenate([drawn.view(dtype), sample(dtype).ravel()])


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("name", EXHAUSTIVE_UNARY + ["heaviside", "fmax", "fmin", "divmod"])
def test_random_bit_patterns(name, dtype):
    x = _random_bits(dtype)
    args = (x,) if name in EXHAUSTIVE_UNARY else (x, x[::-1].copy())
    assert_bitwise(getattr(np, name)(*args), getattr(arraystack, name)(*args))


@pytest.mark.parametrize("dtype", ["c8", "c16"])
@pytest.mark.parametrize(
    "name", ["reciprocal", "square", "sign", "nan_to_num", "round", "angle", "fmax"]
)
def test_complex_bit_patterns(name, dtype):
    parts = _random_bits(dtype.replace("c8", "f4").replace("c16", "f8"), 5000)
    z = np.empty(parts.shape, dtype)
    z.real, z.imag = parts, parts[::-1]
    args = (z,) if name != "fmax" else (z, z[::-1].copy())
    assert_bitwise(getattr(np, name)(*args), getattr(arraystack, name)(*args))


def test_logaddexp_special_values(parity):
    v = np.array([-np.inf, -1.0, 0.0, 1.0, np.inf, np.nan])
    a, b = np.meshgrid(v, v)
    for name in ("logaddexp", "logaddexp2"):
        parity(lambda xp, x, y, name=name: getattr(xp, name)(x, y), a, b)


@pytest.mark.parametrize("dtype", ["i1", "u1", "i2", "u2"])
def test_every_small_integer_pair(dtype):
    info = np.iinfo(dtype)
    values = np.arange(info.min, info.max + 1, max(1, (info.max - info.min) // 255)).astype(dtype)
    a, b = (m.ravel() for m in np.meshgrid(values, values))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("lcm", "reciprocal", "floor_divide", "remainder", "logical_xor", "square"):
            args = (a,) if name in ("reciprocal", "square") else (a, b)
            assert_bitwise(getattr(np, name)(*args), getattr(arraystack, name)(*args))


def test_mixed_sign_comparisons_are_exact(parity):
    a = np.array([-1, 0, 2**62, -(2**63), 2**63 - 1], np.int64)
    b = np.array([2**64 - 1, 0, 2**62, 2**63, 2**63 - 1], np.uint64)
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        parity(lambda xp, x, y, name=name: getattr(xp, name)(x, y), a, b)
        parity(lambda xp, x, y, name=name: getattr(xp, name)(y, x), a, b)
