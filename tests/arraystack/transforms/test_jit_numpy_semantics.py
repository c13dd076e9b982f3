"""NumPy's semantics in every mode: eager, jit's first call (tier 0, the numba backend's NumPy twin) and
the compiled tier, on the cases where they once differed: bool ** 2, signed zeros of max/min and
fmax/fmin, lcm overflow, comparisons with None/str/dict, and NumPy's error state (np.errstate).

Each test is written once against `xp` and compared with NumPy, bit for bit where NumPy's result is
exact (signed zeros included)."""

from __future__ import annotations

import operator

import numpy
import pytest

import arraystack as ast
from tests import oracle

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def in_every_mode(fn, *args):
    """fn(xp, *args) for xp = NumPy, then arraystack eagerly, through jit's first call (tier 0) and
    through the compiled tier, each as NumPy values (a tuple of results stays a tuple)."""
    copies = [a.copy() if isinstance(a, numpy.ndarray) else a for a in args]
    expected = fn(numpy, *copies)
    eager = fn(ast, *[ast.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args])
    tier0 = ast.jit(lambda *xs: fn(ast, *xs), tiered=True)(*args)
    compiled = ast.jit(lambda *xs: fn(ast, *xs), tiered=False)(*args)
    return expected, [("eager", eager), ("tier 0", tier0), ("compiled", compiled)]


def check_every_mode(fn, *args):
    expected, results = in_every_mode(fn, *args)
    for name, result in results:
        oracle.assert_same_bits(expected, result, name)


# -- bool ** 2 -------------------------------------------------------------------------------------


def test_bool_array_squared_is_int8():
    check_every_mode(lambda xp, b: (b**2, b**3, b**2.0), numpy.array([True, False, True]))


def test_bool_array_squared_in_place_raises_numpys_casting_error():
    def f(xp, b):
        b **= 2
        return b

    b = numpy.array([True, False])
    with pytest.raises(TypeError, match="Cannot cast ufunc 'square' output"):
        f(numpy, b.copy())
    with pytest.raises(TypeError, match="Cannot cast ufunc 'square' output"):
        f(ast, ast.asarray(b))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'square' output"):
        ast.jit(lambda b: f(ast, b))(b)


# -- signed zeros and NaNs of max/min reductions ---------------------------------------------------------


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_max_min_over_an_axis_keep_numpys_signed_zero(dtype):
    """The reproducer: np.max([-0.0, 0.0]) over rows, columns and the whole array. NumPy's
    maximum.reduce keeps the later of equal values (its loop runs in order on arrays this short)."""
    x = numpy.array(
        [[-0.0, 0.0, -0.0], [0.0, -0.0, 0.0], [-0.0, -0.0, 0.0], [0.0, 0.0, -0.0]], dtype
    )

    def f(xp, x):
        out = ()
        for reduce in (xp.max, xp.min):
            out += (reduce(x, axis=1), reduce(x, axis=0), reduce(x), reduce(x * 1.0, axis=1))
            out += (reduce(x.T, axis=1), reduce(-x, axis=0))
        return out

    check_every_mode(f, x)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_max_min_with_nans_and_zeros_in_every_order(dtype):
    """Rows holding every order of -0.0, 0.0, NaN and 1.0 (short rows: NumPy's loop is in order)."""
    values = [-0.0, 0.0, numpy.nan, -1.0]
    rows = [[a, b, c] for a in values for b in values for c in values]
    x = numpy.array(rows, dtype)
    check_every_mode(lambda xp, x: (xp.max(x, axis=1), xp.min(x, axis=1)), x)
    check_every_mode(lambda xp, x: (xp.max(x, axis=0), xp.min(x, axis=0)), x.T.copy())


# -- fmax / fmin --------------------------------------------------------------------------------------


def _documented_fmax(x, y, ge):
    """NumPy's documented fmax (fmin with ge=less_equal): np.where(x >= y, x, y) where neither is NaN,
    the other operand where one is."""
    pick = numpy.where(ge(x, y), x, y)
    return numpy.where(numpy.isnan(y), x, numpy.where(numpy.isnan(x), y, pick))


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_fmax_fmin_return_the_first_of_equal_zeros(dtype):
    values = numpy.array([-0.0, 0.0, numpy.nan, 1.0, -numpy.inf], dtype)
    x, y = (v.ravel() for v in numpy.meshgrid(values, values))
    expected = (
        _documented_fmax(x, y, numpy.greater_equal),
        _documented_fmax(x, y, numpy.less_equal),
    )
    for name, fn in [
        ("eager", lambda a, b: (ast.fmax(a, b), ast.fmin(a, b))),
        ("tier 0", ast.jit(lambda a, b: (ast.fmax(a, b), ast.fmin(a, b)), tiered=True)),
        ("compiled", ast.jit(lambda a, b: (ast.fmax(a, b), ast.fmin(a, b)), tiered=False)),
    ]:
        oracle.assert_same_bits(expected, fn(x, y), name)
    # NumPy's own result on float64 scalars: the first of two zeros
    assert numpy.signbit(numpy.fmax(numpy.float64(-0.0), numpy.float64(0.0)))
    assert numpy.signbit(ast.fmax(ast.asarray(-0.0), 0.0)) and not numpy.signbit(
        ast.fmin(0.0, -0.0)
    )


# -- lcm ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"])
def test_lcm_overflow_wraps_as_numpys(dtype):
    info = numpy.iinfo(dtype)
    values = {
        0,
        1,
        2,
        3,
        6,
        10,
        100,
        info.max,
        info.max - 1,
        info.max // 3,
        2 ** (info.bits // 2) + 1,
    }
    if info.min:
        values |= {-1, -6, info.min, info.min + 1, info.min // 2}
    values = numpy.array(sorted(values), dtype)
    x, y = (v.ravel() for v in numpy.meshgrid(values, values))
    check_every_mode(lambda xp, x, y: xp.lcm(x, y), x, y)


def test_lcm_reproducer():
    x = numpy.array([2, -(2**31) + 1], numpy.int32)
    y = numpy.array([-(2**31) + 1, -(2**30)], numpy.int32)
    check_every_mode(lambda xp, x, y: xp.lcm(x, y), x, y)  # NumPy: [-2, -1073741824]


# -- == and != with objects that are no numbers -----------------------------------------------------------


class _Plain:
    pass


@pytest.mark.parametrize("other", [None, "a", "1.0", b"x", {}, {"a": 1}, {1, 2}, _Plain(), len])
@pytest.mark.parametrize("op", [operator.eq, operator.ne])
def test_comparison_with_an_object_is_elementwise(op, other):
    x = numpy.array([[1.0, numpy.nan], [0.0, -1.0]])
    check_every_mode(lambda xp, x: (op(x, other), op(other, x), op(x[0, 0], other)), x)


class _EqualsTwo:
    def __eq__(self, other):
        return other == 2

    def __ne__(self, other):
        return other != 2

    __hash__ = None


def test_comparison_with_an_object_defining_eq():
    x = numpy.array([1.0, 2.0, 3.0])
    expected = x == _EqualsTwo()
    # eager: NumPy calls it per element
    oracle.assert_same_bits(expected, ast.asarray(x) == _EqualsTwo())
    with pytest.raises(TypeError, match="compares each element with this object in Python"):
        ast.jit(lambda a: a == _EqualsTwo())(x)


# -- NumPy's error state --------------------------------------------------------------------------------

ERRORS = {
    "log of 0": (lambda xp, x: xp.log(x), [0.0, 1.0], "divide by zero encountered in log"),
    "x / 0": (lambda xp, x: 1.0 / x, [0.0, 2.0], "divide by zero encountered in divide"),
    "0 / 0": (lambda xp, x: x / x, [0.0, 2.0], "invalid value encountered in divide"),
    "sqrt of -1": (
        lambda xp, x: xp.sqrt(x) + 1.0,
        [-1.0, 4.0],
        "invalid value encountered in sqrt",
    ),
    "exp overflow": (lambda xp, x: xp.exp(x) * 2.0, [1000.0, 1.0], "overflow encountered in exp"),
    "exp underflow": (lambda xp, x: xp.exp(x), [-1000.0, 1.0], "underflow encountered in exp"),
    "float32 product": (
        lambda xp, x: (x * x).sum(),
        numpy.array([3e38, 1.0], numpy.float32),
        "overflow encountered in multiply",
    ),
    "hidden log(0)": (
        lambda xp, x: xp.exp(xp.log(x)),
        [0.0, 1.0],
        "divide by zero encountered in log",
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errstate_raise_is_honoured_by_jitted_calls(name):
    fn, values, message = ERRORS[name]
    x = numpy.asarray(values, dtype=getattr(values, "dtype", numpy.float64))
    tier0 = ast.jit(lambda a: fn(ast, a), tiered=True)
    compiled = ast.jit(lambda a: fn(ast, a), tiered=False)
    compiled(x)  # compiled before the error state changes: the state at call time counts
    with numpy.errstate(all="raise"):
        with pytest.raises(FloatingPointError, match=message):
            fn(numpy, x.copy())
        with pytest.raises(FloatingPointError, match=message):
            fn(ast, ast.asarray(x))
        with pytest.raises(FloatingPointError, match=message):
            tier0(x)
        with pytest.raises(FloatingPointError, match=message):
            compiled(x)
    with numpy.errstate(all="ignore"):  # and back to the compiled code, silently
        numpy.testing.assert_allclose(compiled(x), fn(numpy, x.copy()), rtol=1e-6)


def test_errstate_call_and_a_single_category():
    x = numpy.array([0.0, 1.0])
    f = ast.jit(lambda a: ast.log(a) + 1.0)
    seen = []
    with numpy.errstate(divide="call", call=lambda kind, flag: seen.append(kind)):
        f(x)
    assert seen == ["divide by zero"]
    with numpy.errstate(invalid="raise"):  # log(0) divides by zero, which stays a warning
        assert numpy.asarray(f(x))[0] == -numpy.inf
    with numpy.errstate(divide="raise"), pytest.raises(FloatingPointError):
        f(x)
