"""NumPy parity of how ufuncs are called: out=, where=, dtype=, casting=, in-place and other
operators, numpy ufuncs on arraystack arrays (__array_ufunc__), and the errors NumPy raises."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import arraystack
from arraystack.ir import ShapedArray, make_graph, typecheck

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

A = np.arange(-3.0, 3.0).reshape(2, 3)
I = np.arange(6, dtype=np.int32).reshape(2, 3)


def test_out_array_and_tuple(parity):
    parity(lambda xp, a: xp.add(a, 1, out=xp.zeros((2, 3))), A)
    parity(lambda xp, a: xp.add(a, 1, out=(xp.zeros((2, 3)),)), A)
    parity(lambda xp, a: xp.add(a, 1, xp.zeros((2, 3))), A)  # positional out
    parity(lambda xp, a: xp.add(a, 1, out=(None,)), A)
    parity(lambda xp, a: xp.sin(a, out=xp.zeros((2, 3), np.float32)), A)
    parity(lambda xp, a: xp.logaddexp(a, a, out=xp.zeros((2, 3))), A)


def test_out_is_returned_and_written(xp):
    a = xp.asarray(A.copy())
    out = xp.zeros((2, 3))
    assert xp.multiply(a, 2, out=out) is out
    np.testing.assert_array_equal(np.asarray(out), A * 2)
    assert xp.sin(a, out=a) is a  # in place
    np.testing.assert_array_equal(np.asarray(a), np.sin(A))


def test_out_broadcasts_inputs(parity):
    parity(lambda xp, v: xp.add(v, 1, out=xp.zeros((4, 3))), np.arange(3.0))
    parity(lambda xp, a: xp.negative(a, out=xp.zeros((4, 2, 3))), A)


@pytest.mark.parametrize("out_shape", [(3,), (2, 1), (1, 3), (2, 3, 1), (3, 2)])
def test_out_of_wrong_shape_raises(parity, out_shape):
    parity(lambda xp, a: xp.add(a, 1, out=xp.zeros(out_shape)), A)


@pytest.mark.parametrize(
    "name, out_dtype, casting",
    [
        ("add", "i8", "same_kind"),
        ("add", "f4", "safe"),
        ("sin", "i4", "same_kind"),
        ("add", "i8", "unsafe"),
        ("equal", "i8", "same_kind"),
        ("equal", "f2", "no"),
        ("floor", "c8", "same_kind"),
        ("add", "f4", "bogus"),
    ],
)
def test_out_casting(parity, name, out_dtype, casting):
    fn = getattr(arraystack, name)
    args = (A, 1) if fn.__name__ != "sin" and name != "floor" else (A,)
    parity(
        lambda xp, a: getattr(xp, name)(
            *((a,) + args[1:]), out=xp.zeros((2, 3), out_dtype), casting=casting
        ),
        A,
    )


def test_failed_cast_leaves_out_unchanged(xp):
    out = xp.asarray(np.array([7, 8, 9]))
    with pytest.raises(TypeError):
        xp.add(np.ones(3), 0.5, out=out)
    np.testing.assert_array_equal(np.asarray(out), [7, 8, 9])


def test_where(parity):
    mask = np.array([True, False, True])
    parity(lambda xp, a, m: xp.add(a, 10, out=xp.zeros((2, 3)), where=m), A, mask)
    parity(lambda xp, a, m: xp.sin(a, out=xp.ones((2, 3)), where=m), A, mask)
    parity(lambda xp, a: xp.add(a, 10, out=xp.ones((2, 3)), where=a > 0), A)
    parity(lambda xp, a: xp.add(a, 10, out=xp.ones((2, 3)), where=False), A)
    parity(lambda xp, a: xp.add(a, 10, out=xp.ones((2, 3)), where=[True, False, True]), A)
    parity(
        lambda xp, a: xp.add(a, 10, out=xp.ones((2, 2, 3)), where=np.array([[[True]], [[False]]])),
        A,
    )
    parity(lambda xp, a: xp.modf(a, out=(xp.ones((2, 3)), xp.ones((2, 3))), where=a > 0), A)


def test_where_without_out_writes_the_masked_entries(xp):
    result = xp.add(xp.asarray(A), 10, where=A > 0)
    np.testing.assert_array_equal(np.asarray(result)[A > 0], (A + 10)[A > 0])


def test_where_errors(parity):
    parity(lambda xp, a: xp.add(a, 1, out=xp.zeros((2, 3)), where=np.array([1, 0, 1])), A)
    parity(lambda xp, a: xp.add(a, 1, out=xp.zeros((2, 3)), where=np.ones(4, bool)), A)


@pytest.mark.parametrize(
    "name, args, dtype",
    [
        ("add", (np.array([100, 100], np.int8),) * 2, np.int16),
        ("add", (A, 1), np.float32),
        ("sin", (np.array([1, 2], np.int8),), np.float32),
        ("sin", (np.array([1, 2], np.int8),), np.int8),
        ("equal", (I, 1), np.float32),
        ("equal", (I, 1.5), bool),
        ("add", (A, 1), np.int64),
        ("divmod", (A, 2), np.float32),
        ("frexp", (A,), np.float32),
        ("logaddexp", (I, I), np.float32),
        ("floor", (I,), np.float64),
        ("logical_and", (A, I), bool),
    ],
)
def test_dtype(parity, name, args, dtype):
    parity(lambda xp, *a: getattr(xp, name)(*a, dtype=dtype), *args)
    parity(lambda xp, *a: getattr(xp, name)(*a, dtype=dtype, casting="unsafe"), *args)


def test_multiple_outputs(parity):
    parity(lambda xp, a: xp.divmod(a, 2, out=(xp.zeros((2, 3)), xp.zeros((2, 3)))), A)
    parity(lambda xp, a: xp.divmod(a, 2, xp.zeros((2, 3)), xp.zeros((2, 3))), A)
    parity(lambda xp, a: xp.divmod(a, 2, xp.zeros((2, 3))), A)
    parity(lambda xp, a: xp.modf(a, out=(None, xp.zeros((2, 3)))), A)
    parity(lambda xp, a: xp.frexp(a, out=(xp.zeros((2, 3)), xp.zeros((2, 3), np.int64))), A)
    parity(lambda xp, a: xp.modf(a, out=xp.zeros((2, 3))), A)  # one array for two outputs
    parity(lambda xp, a: xp.modf(a, out=(xp.zeros((2, 3)),)), A)
    parity(lambda xp, a: xp.divmod(a, 2, xp.zeros((2, 3)), out=(None, None)), A)


def test_bad_out(parity):
    parity(lambda xp, a: xp.add(a, 1, out=[xp.zeros((2, 3))]), A)
    parity(lambda xp, a: xp.add(a, 1, out=3), A)
    parity(lambda xp, a: xp.add(a, 1, out=(xp.zeros((2, 3)), xp.zeros((2, 3)))), A)


def test_out_into_an_argument(parity):
    def fn(xp, a, b):
        xp.subtract(a, b, out=a)
        xp.sqrt(b, out=b, where=b > 2)
        return a, b

    parity(fn, A.copy(), A[::-1].copy() ** 2, traced=False)


def test_out_traced_rebinds():
    def body(x):
        out = arraystack._core.array.wrap(x)
        arraystack.multiply(out, 3, out=out, where=out > 0)
        return [out._value]

    graph, _ = make_graph(body, [ShapedArray((4,), np.dtype(np.float32))])
    typecheck(graph)
    assert [e.prim.name for e in graph.eqns][-1] == "select"


def test_numpy_array_as_out():
    a = arraystack.asarray(A)
    out = np.zeros((2, 3))
    result = arraystack.add(a, 1, out=out)
    np.testing.assert_array_equal(out, A + 1)
    np.testing.assert_array_equal(np.asarray(result), A + 1)
    assert np.add(a, 2, out=out) is out  # through __array_ufunc__: NumPy's out comes back as given
    np.testing.assert_array_equal(out, A + 2)


# -- in-place operators ----------------------------------------------------------------------------

INPLACE = [
    "iadd",
    "isub",
    "imul",
    "itruediv",
    "ifloordiv",
    "imod",
    "ipow",
    "iand",
    "ior",
    "ixor",
    "ilshift",
    "irshift",
]
PAIRS = [
    ("f8", 2.5),
    ("f4", np.arange(3.0)),
    ("i4", 3),
    ("i8", np.arange(1, 4, dtype=np.int16)),
    ("u1", 2),
    ("i2", 1.5),
    ("?", True),
    ("c8", 1j),
    ("i8", np.arange(3.0)),
]


@pytest.mark.parametrize("dtype, other", PAIRS, ids=str)
@pytest.mark.parametrize("op", INPLACE)
def test_inplace_operators(parity, op, dtype, other):
    a = np.arange(1, 4).astype(dtype)

    def fn(xp, x):
        view = x
        y = getattr(operator, op)(x, other)
        return y, view

    parity(fn, a, traced=False)
    parity(lambda xp, x: getattr(operator, op)(x, other), a)  # traced: rebinds


def test_inplace_writes_the_shared_buffer():
    buffer = np.arange(4.0)
    a = arraystack.asarray(buffer)  # no copy: a aliases buffer
    a += 1
    a *= np.float32(2)
    assert np.asarray(a) is buffer or np.shares_memory(np.asarray(a), buffer)
    np.testing.assert_array_equal(buffer, [2.0, 4.0, 6.0, 8.0])


def test_inplace_failures_leave_the_array_unchanged():
    a = arraystack.asarray(np.array([1, 2, 3]))
    with pytest.raises(TypeError):  # NumPy's UFuncOutputCastingError is a TypeError
        a += 1.5
    with pytest.raises(ValueError):
        a += np.ones((2, 3), np.int64)
    with pytest.raises(OverflowError):
        b = arraystack.asarray(np.array([1, 2], np.int8))
        b += 1000
    np.testing.assert_array_equal(np.asarray(a), [1, 2, 3])
    with pytest.raises(np._core._exceptions._UFuncOutputCastingError):
        a -= 0.5


def test_inplace_matches_numpy_error_types(parity):
    def fn(xp, x):
        x += 1.5
        return x

    parity(fn, np.array([1, 2]), traced=False)
    parity(fn, np.array([1, 2]))


def test_inplace_on_read_only(parity):
    def fn(xp, x):
        y = xp.imag(x)
        y += 1
        return y

    parity(fn, np.array([1.0, 2.0]), traced=False)


# -- operators -------------------------------------------------------------------------------------

BINARY_OPERATORS = [
    "add",
    "sub",
    "mul",
    "truediv",
    "floordiv",
    "mod",
    "pow",
    "and_",
    "or_",
    "xor",
    "lshift",
    "rshift",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
]


@pytest.mark.parametrize("op", BINARY_OPERATORS)
@pytest.mark.parametrize(
    "left, right",
    [
        ("array", 2),
        (3, "array"),
        ("array", "array"),
        (2.5, "array"),
        ("array", np.float32(2)),
        (True, "array"),
    ],
    ids=str,
)
def test_binary_operators(parity, op, left, right):
    a = np.array([1, 2, 3, 5], np.int16)

    def fn(xp, x):
        lhs = x if left == "array" else left
        rhs = x if right == "array" else right
        return getattr(operator, op)(lhs, rhs)

    parity(fn, a)
    if op not in ("and_", "or_", "xor", "lshift", "rshift"):
        parity(fn, a.astype(np.float32))


@pytest.mark.parametrize("op", ["neg", "pos", "abs", "invert"])
@pytest.mark.parametrize("dtype", ["?", "i1", "u4", "f2", "c8"])
def test_unary_operators(parity, op, dtype):
    parity(lambda xp, x: getattr(operator, op)(x), np.array([0, 1, 3]).astype(dtype))


def test_divmod_operator(parity):
    parity(lambda xp, x: divmod(x, 3), np.arange(-4.0, 4.0))
    parity(lambda xp, x: divmod(7, x), np.arange(1, 5))


# -- errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, args",
    [
        ("bitwise_and", (A, 1)),
        ("left_shift", (A, I)),
        ("invert", (A,)),
        ("gcd", (A, I)),
        ("subtract", (I > 2, True)),
        ("negative", (I > 2,)),
        ("floor", (A.astype(complex),)),
        ("remainder", (A.astype(complex), 1)),
        ("arctan2", (A.astype(np.complex64), 1)),
        ("bitwise_count", (A,)),
        ("ldexp", (A, A)),
        ("lcm", (A, 2)),
        ("logaddexp", (A.astype(complex), A)),
        ("heaviside", (1j, A)),
        ("signbit", (A.astype(complex),)),
        ("fabs", (A.astype(complex),)),
        ("positive", (I > 2,)),
        ("power", (I, -1)),
    ],
)
def test_unsupported_dtypes_raise_type_error(parity, name, args):
    parity(lambda xp, *a: getattr(xp, name)(*a), *args)
    parity(lambda xp, *a: getattr(xp, name)(*a, out=xp.zeros((2, 3), np.float64)), *args)


def test_arguments(parity):
    parity(lambda xp, a: xp.add(a), A)
    parity(lambda xp, a: xp.add(a, 1, 2, 3), A)
    parity(lambda xp, a: xp.modf(a, 1, 2, 3), A)
    parity(lambda xp, a: xp.modf(a, xp.zeros((2, 3)), out=(None, None)), A)
    parity(lambda xp, a: xp.add(a, 1, bogus=True), A)


POWER_BASES = {
    "f4": np.array([-0.0, -np.inf, 4.0, 2.5, np.nan], np.float32),
    "f8": np.array([-0.0, -np.inf, 4.0, 1e-300, -3.0]),
    "c16": np.random.default_rng(0).standard_normal(20) @ np.eye(20) * (1 + 0.7j),
    "i4": np.array([1, 2, 3], np.int32),
}


@pytest.mark.parametrize("exponent", [2, -1, 0.5, 3, 2.0, np.int64(2), True], ids=repr)
@pytest.mark.parametrize("dtype", list(POWER_BASES))
def test_power_operator_shortcuts(parity, dtype, exponent):
    """NumPy's `**` turns exponents 2, -1 and 0.5 into square, reciprocal and sqrt (bit for bit)."""
    from arraystack._math.elementwise import power_operator

    def fn(xp, x):
        return x**exponent if xp is np else power_operator(x, exponent)

    def in_place(xp, x):
        x **= exponent
        return x

    parity(fn, POWER_BASES[dtype], rtol=0)
    parity(in_place, POWER_BASES[dtype], rtol=0)
