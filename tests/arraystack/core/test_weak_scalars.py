"""Python scalars under jit are NumPy's weak scalars (NEP 50), operation by operation: a Python scalar
argument is traced as a weakly typed 0-d value; Python's operators on Python scalars alone give a weak
result of the type Python gives (5 + 1 is the weak 6, 5 / 2 the weak 2.5), NumPy's functions give a
strong one (np.add(5, 1) is np.int64, np.sin(5.0) np.float64); comparisons and clip with a Python int
beyond an integer dtype's range are exact, as in NumPy 2; values computed from Python int arguments
are range-checked where NumPy checks a Python int (arraystack/_math/ufunc.py, _core/operands.py,
_math/elementwise.py, _transforms/jit_arguments.py).

Each case is written once against `xp` and compared with NumPy: eagerly, through jit's first call
(tier 0), the compiled tier and the reference backend."""

from __future__ import annotations

import operator

import numpy
import pytest

from arraystack.errors import HostDtypeError
from arraystack.ir.avals import ShapedArray, dtype_short_name

import arraystack as ast
from tests.arraystack.jit_modes import MODES
from tests.arraystack.jit_modes import check as _check


def check(fn, *args, modes=tuple(MODES)):
    return _check(fn, *args, modes=modes, messages=True)


I8 = numpy.arange(4, dtype=numpy.int8)
U64 = numpy.arange(4, dtype=numpy.uint64)


# -- the reproducers: arithmetic on Python scalars keeps them weak ------------------------------------------


def test_python_int_plus_python_int_stays_weak():
    assert check(lambda xp, a, b: (a + 1) + b, 5, numpy.int8(3)) == ("ok", "int8", 9)


def test_python_float_times_python_float_stays_weak():
    assert check(lambda xp, a, b: a * 2.0 + b, 5.0, numpy.float32(3)) == ("ok", "float32", 13.0)


@pytest.mark.parametrize("v", [I8, U64], ids=["int8", "uint64"])
def test_array_minus_a_computed_python_int_keeps_the_arrays_dtype(v):
    assert check(lambda xp, v, s: v - (s + 1), v, 5)[1] == str(v.dtype)


# -- operators and functions on Python scalars, one by one ---------------------------------------------------


def _inplace(xp, v, s, t):
    s += t
    s *= 2
    s -= 1
    return v + s


OPERATIONS = {  # v + (an operation on the Python scalars s and t): v's dtype shows the result's weakness
    "s + t": lambda xp, v, s, t: v + (s + t),
    "s - 1": lambda xp, v, s, t: v + (s - 1),
    "1 - s": lambda xp, v, s, t: v + (1 - s),
    "s * t": lambda xp, v, s, t: v + s * t,
    "2.5 * s": lambda xp, v, s, t: v + 2.5 * s,
    "s / t": lambda xp, v, s, t: v + s / t,
    "s // t": lambda xp, v, s, t: v + s // t,
    "s % t": lambda xp, v, s, t: v + s % t,
    "divmod(s, t)": lambda xp, v, s, t: v + divmod(s, t)[0] * divmod(s, t)[1],
    "s ** 2": lambda xp, v, s, t: v + s**2,
    "2 ** t": lambda xp, v, s, t: v + 2**t,
    "-s, +s, abs(s)": lambda xp, v, s, t: v + (-s) + (+s) + abs(s),
    "s += t; s *= 2; s -= 1": _inplace,
    "s < t (a bool)": lambda xp, v, s, t: v + (s < t),
    "np.add(s, t) (strong)": lambda xp, v, s, t: v + xp.add(s, t),
    "np.add(s, 1) (strong)": lambda xp, v, s, t: v + xp.add(s, 1),
    "np.maximum(s, t) (strong)": lambda xp, v, s, t: v + xp.maximum(s, t),
    "np.sin(s) (strong)": lambda xp, v, s, t: v + xp.sin(s),
    "np.square(s) (strong)": lambda xp, v, s, t: v + xp.square(s),
    "np.negative(s) (strong)": lambda xp, v, s, t: v + xp.negative(s),
    "np.where(v > 1, s, t) (strong)": lambda xp, v, s, t: v + xp.where(v > 1, s, t),
}
INTEGER_OPERATIONS = {
    "s & t, s | t, s ^ t": lambda xp, v, s, t: v + ((s & t) | (s ^ t)),
    "s << 2, s >> 1, ~s": lambda xp, v, s, t: v + ((s << 2) + (s >> 1) + ~s),
    "np.left_shift(s, t) (strong)": lambda xp, v, s, t: v + xp.left_shift(s, t),
}
ARRAYS = {
    "int8": numpy.array([1, 2, 3], numpy.int8),
    "uint8": numpy.array([1, 2, 3], numpy.uint8),
    "float32": numpy.array([1.5, 2, 3], numpy.float32),
    "complex64": numpy.array([1, 2j, 3], numpy.complex64),
}
SCALARS = [(5, 3), (5.0, 3.0), (5, 2.0), (2.5, 2)]


@pytest.mark.parametrize("array", list(ARRAYS))
@pytest.mark.parametrize("name", list(OPERATIONS))
def test_operations_on_python_scalars(name, array):
    for s, t in SCALARS:
        check(OPERATIONS[name], ARRAYS[array], s, t, modes=["reference"])


@pytest.mark.parametrize("array", list(ARRAYS))
@pytest.mark.parametrize("name", list(INTEGER_OPERATIONS))
def test_integer_operations_on_python_ints(name, array):
    check(INTEGER_OPERATIONS[name], ARRAYS[array], 5, 3, modes=["reference"])


@pytest.mark.parametrize("mode", ["tier 0", "compiled"])
def test_weak_and_strong_results_in_the_compiled_tiers(mode):
    def fn(xp, v, s, t):
        return v + s / t + xp.sin(s) * 0 + (s // t + abs(s) - 2**t)

    assert check(fn, ARRAYS["int8"], 5, 2, modes=[mode])[1] == "float64"
    assert check(fn, ARRAYS["float32"], 5, 2, modes=[mode])[1] == "float64"  # np.sin is strong
    weak = check(lambda xp, v, s, t: v + s / t - abs(s), ARRAYS["float32"], 5, 2, modes=[mode])
    assert weak[1] == "float32"


def test_weak_types_in_the_graph():
    """Python's operators make weak values (`~` in the printed IR), a comparison a weak bool
    (Python's bool: (s < t) + 1 is the int 1 or 2); NumPy's functions strong ones."""

    def fn(s, t):
        return s + 1, s / t, s < t, ast.add(s, 1), ast.add(s, t), ast.sin(s), 2.5 * s

    graph = ast.make_graph(fn)(5, 2)
    avals = [v.aval for v in graph.outputs]
    i64, f64 = numpy.dtype("int64"), numpy.dtype("float64")
    assert avals == [
        ShapedArray((), i64, True),
        ShapedArray((), f64, True),
        ShapedArray((), numpy.dtype(bool), True),
        ShapedArray((), i64, False),
        ShapedArray((), i64, False),
        ShapedArray((), f64, False),
        ShapedArray((), f64, True),
    ]


# -- range checks of values computed from Python int arguments -------------------------------------------------


@pytest.mark.parametrize("mode", list(MODES))
def test_a_computed_python_int_is_range_checked_on_every_call(mode):
    jitted = ast.jit(lambda v, s: v - (s + 1), **MODES[mode])
    assert numpy.asarray(jitted(I8, 5)).tolist() == (I8 - 6).tolist()
    for _ in range(2):  # the first call and a cached one
        with pytest.raises(OverflowError, match="Python integer 128 out of bounds for int8"):
            jitted(I8, 127)
    with pytest.raises(OverflowError, match="Python integer 128 out of bounds for int8"):
        I8 - (127 + 1)


def test_computed_python_ints_against_numpy():
    ops = {
        "v * (s + 1)": lambda xp, v, s: v * (s + 1),
        "v + (s * 2 - 1)": lambda xp, v, s: v + (s * 2 - 1),
        "v - s // 2": lambda xp, v, s: v - s // 2,
        "v + -s": lambda xp, v, s: v + -s,
        "v < s + 1": lambda xp, v, s: v < s + 1,
    }
    for v in (I8, numpy.arange(4, dtype=numpy.uint8), U64):
        for s in (5, -1, 126, 127, 200, 254, 255, -200):
            for fn in ops.values():
                check(fn, v, s, modes=["reference"])


def test_range_check_of_a_computed_value_with_a_shape():
    """The check reads every value a noted cast converts, also when the computed value has a shape."""
    from arraystack.ir import trace
    from arraystack.ir.core import bind
    from arraystack.ir.primitives import iota_p, lt_p, mul_p, select_p

    from arraystack._transforms.jit_arguments import IntegerChecks
    from arraystack._core.operands import convert_raw

    def fn(s):
        # a weak value with a shape: select of weak branches (structural results are strong)
        pred = bind(lt_p, bind(iota_p, dtype=numpy.dtype("int64"), shape=(3,), dimension=0), 1)
        doubled = bind(select_p, pred, bind(mul_p, s, 2), bind(mul_p, s, 2))
        return [convert_raw(doubled, numpy.int8)]

    casts = []
    graph, _ = trace.make_graph(fn, [ShapedArray((), numpy.dtype("int64"), True)], casts)
    checks = IntegerChecks.of(graph, 1, casts)
    checks([60], [numpy.asarray(60)])
    with pytest.raises(OverflowError, match="Python integer 140 out of bounds for int8"):
        checks([70], [numpy.asarray(70)])


# -- comparisons and clip with Python ints beyond the dtype's range ---------------------------------------------

COMPARISONS = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@pytest.mark.parametrize("mode", list(MODES))
def test_comparison_with_an_out_of_range_python_int_is_exact(mode):
    """The reproducer: int8_array < 300 is all True in NumPy 2 (comparisons are exact)."""
    assert check(lambda xp, v, s: v < s, I8, 300, modes=[mode]) == ("ok", "bool", [True] * 4)
    assert check(lambda xp, v, s: (v == s) | (v <= s), I8, -300, modes=[mode])[2] == [False] * 4


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint32", "int64", "uint64"])
def test_comparisons_with_python_ints_of_any_value(dtype):
    info = numpy.iinfo(dtype)
    v = numpy.array([0, 1, 100, info.max, info.min], dtype)
    values = [300, -300, -1, 0, 5, 127, 128, 255, 256, -(2**63), 2**63 - 1, 2**63 + 5, 2**64 - 1]
    for s in values:
        for op in COMPARISONS:
            check(lambda xp, v, s, op=op: op(v, s), v, s, modes=["reference"])
            check(lambda xp, v, s, op=op: op(s, v), v, s, modes=["reference"])
            check(lambda xp, v, s, op=op: op(v[0], s), v, s, modes=["reference"])  # a 0-d array


def test_comparison_with_an_out_of_range_python_int_into_out():
    def fn(xp, v, s):
        out = xp.ones(4, dtype=xp.int32)
        xp.greater(v, s, out=out)
        return out

    check(fn, I8, 300, modes=["reference"])
    check(fn, I8, -300, modes=["reference"])


@pytest.mark.parametrize("mode", list(MODES))
def test_clip_with_out_of_range_python_ints(mode):
    assert check(lambda xp, v, s: xp.clip(v, -s, s), I8, 300, modes=[mode]) == (
        "ok",
        "int8",
        [0, 1, 2, 3],
    )


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "uint64"])
def test_clip_bounds_of_any_value(dtype):
    """NumPy's _clip drops a Python int bound beyond the dtype's range on its own side; one beyond
    on the other side raises NumPy's OverflowError."""
    info = numpy.iinfo(dtype)
    v = numpy.array([0, 1, 100, info.max, info.min], dtype)
    bounds = [0, 5, -1, 300, -300, 2**63 + 1, 2**64 - 1]
    for bound in bounds:
        check(lambda xp, v, s: xp.clip(v, s, None), v, bound, modes=["reference"])
        check(lambda xp, v, s: xp.clip(v, None, s), v, bound, modes=["reference"])
        check(lambda xp, v, s: xp.clip(v, 0, s), v, bound, modes=["reference"])
        check(lambda xp, v, s: xp.clip(v, s, 2**64), v, bound, modes=["reference"])


# -- dtypes the IR does not hold ----------------------------------------------------------------------------


def test_every_dtype_has_a_readable_short_name():
    assert dtype_short_name(numpy.float32) == "f32"
    assert dtype_short_name(object) == "object"
    assert dtype_short_name("datetime64[s]") == "datetime64[s]"
    assert dtype_short_name("U5") == "<U5"
    assert dtype_short_name(">f4") == ">f4"  # byte-swapped: not the IR's f32
    assert dtype_short_name([("a", "i4")]) == "[('a', '<i4')]"
    assert ShapedArray((3,), numpy.dtype(object)).str_short() == "object[3]"


def test_an_object_array_in_a_traced_function_names_its_dtype():
    objects = numpy.array([1, 2, 3], dtype=object)
    message = r"numpy.add was given an object array under a transformation .*test_weak_scalars.py"
    with pytest.raises(HostDtypeError, match=message):
        ast.jit(lambda x: x + objects)(numpy.ones(3))
    with pytest.raises(HostDtypeError, match="object"):
        ast.jit(lambda x, y: x + y)(numpy.ones(3), objects)
