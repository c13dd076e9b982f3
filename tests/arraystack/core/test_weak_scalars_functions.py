"""Python scalars through NumPy's other functions, Python bools, and np.equal(x, None).

NumPy's functions that are no ufunc make a Python scalar an array before they compute (np.asarray(5) is
an int64 array, np.sum(5) an np.int64), so `int8_array + np.sum(5)` is int64, where Python's operators
keep it a Python scalar (`int8_array + (5 + 1)` is int8). Under jit a Python scalar argument is a weakly
typed value: asarray/array/copy/astype make it strongly typed (arraystack/_creation/basic.py) and so does every
shape, indexing, reduction and scan primitive (jit/structural.py). Traced Python bools are Python's under
Python's operators (True + True is the int 2, weakly typed) and NumPy's under its functions
(np.add(True, True) is np.True_). np.equal(x, None) and np.not_equal are elementwise, as x == None is
(arraystack/_math/comparison.py).

Each case is written once against `xp` and compared with NumPy: eagerly, through jit's first call
(tier 0), the compiled tier and the reference backend."""

from __future__ import annotations

import operator

import numpy
import pytest
from arraystack.ir.avals import ShapedArray

import arraystack as ast
from tests.arraystack.jit_modes import MODES
from tests.arraystack.jit_modes import check as _check


def check(fn, *args, modes=tuple(MODES)):
    return _check(fn, *args, modes=modes, messages=False)


I8 = numpy.arange(1, 4, dtype=numpy.int8)
F32 = numpy.array([0.5, 1.25, 3.0], numpy.float32)


# -- 1. functions that are no ufunc make a Python scalar an array --------------------------------------------


def test_the_reproducer_sum_of_a_python_int_is_int64():
    assert check(lambda xp, v, s: v + xp.sum(s), I8, 5) == ("ok", "int64", [6, 7, 8])


STRONG = {  # array + f(Python scalar): NumPy's f makes the scalar an array, so the array's dtype promotes
    "asarray": lambda xp, s: xp.asarray(s),
    "array": lambda xp, s: xp.array(s),
    "asarray(copy=True)": lambda xp, s: xp.asarray(s, copy=True),
    "sum": lambda xp, s: xp.sum(s),
    "max": lambda xp, s: xp.max(s),
    "prod": lambda xp, s: xp.prod(s),
    "min, negated": lambda xp, s: -xp.min(s),
    "reshape": lambda xp, s: xp.reshape(s, (1,)),
    "reshape to 0-d, negated": lambda xp, s: -xp.reshape(s, ()),
    "broadcast_to": lambda xp, s: xp.broadcast_to(s, (3,)),
    "stack": lambda xp, s: xp.stack([s, s])[0],
    "concatenate": lambda xp, s: xp.concatenate([xp.atleast_1d(s), xp.atleast_1d(s)])[:1],
    "atleast_1d": lambda xp, s: xp.atleast_1d(s),
    "astype": lambda xp, s: xp.asarray(s).astype(xp.result_type(s)),
    "copy": lambda xp, s: xp.copy(s),
    "expand_dims": lambda xp, s: xp.expand_dims(s, 0),
    "ravel": lambda xp, s: xp.ravel(s),
    "squeeze": lambda xp, s: xp.squeeze(s),
    "cumsum": lambda xp, s: xp.cumsum(s),
    "round": lambda xp, s: xp.round(s),
    "nan_to_num": lambda xp, s: xp.nan_to_num(s),
    "dot with an int8 array": lambda xp, s: xp.dot(xp.ones(1, dtype=xp.int8), s),
}


@pytest.mark.parametrize("name", list(STRONG))
@pytest.mark.parametrize(("array", "scalar"), [(I8, 5), (F32, 2.5)], ids=["int8", "float32"])
def test_a_function_of_a_python_scalar_is_strongly_typed(name, array, scalar):
    fn = STRONG[name]
    kind = "i" if isinstance(scalar, int) else "f"
    result = check(lambda xp, v, s: v + fn(xp, s), array, scalar, modes=["reference"])
    assert result[1] == {"i": "int64", "f": "float64"}[kind]


@pytest.mark.parametrize("mode", ["tier 0", "compiled"])
def test_functions_of_a_python_scalar_in_both_tiers(mode):
    def fn(xp, v, s):
        return v + xp.sum(s) + xp.reshape(s, (1,)) - xp.asarray(s) - xp.cumsum(s) + xp.max(s)

    assert check(fn, I8, 5, modes=[mode]) == ("ok", "int64", [6, 7, 8])
    assert check(fn, F32, 2.5, modes=[mode])[1] == "float64"


def test_python_operators_keep_the_scalar_weak():
    """The Python-operator path is unchanged: s + 1 and -s stay Python scalars."""
    assert check(lambda xp, v, s: v + (s + 1) * -s, I8, 2) == ("ok", "int8", [-5, -4, -3])
    assert check(lambda xp, v, s: v * (s / 2), F32, 3.0)[1] == "float32"


KEPT_WEAK = {  # functions for which NumPy keeps a Python scalar a Python scalar
    "select default": lambda xp, v, s: xp.select([v > 1], [v], s),
    "where": lambda xp, v, s: xp.where(v > 1, v, s),
    "clip": lambda xp, v, s: xp.clip(v, 0, s),
    "percentile q": lambda xp, v, s: xp.percentile(v, s),
    "real": lambda xp, v, s: v + xp.real(s),
    "imag": lambda xp, v, s: v + xp.imag(s),
}


@pytest.mark.parametrize("name", list(KEPT_WEAK))
def test_functions_that_keep_a_python_scalar_weak(name):
    fn = KEPT_WEAK[name]
    assert check(fn, F32, 30.0, modes=["reference"])[1] == "float32"


def test_real_and_imag_of_python_scalars_are_python_scalars():
    """np.real(5) is the Python int 5, np.imag(True) the int 0 (a Python scalar's .real/.imag)."""
    for value in (5, 2.5, 1 + 2j, True):
        assert type(ast.real(value)) is type(numpy.real(value))
        assert ast.imag(value) == numpy.imag(value)
        check(lambda xp, v, s: v + xp.real(s) + xp.imag(s), I8, value, modes=["reference"])


def test_the_graph_keeps_weak_types_where_numpy_does():
    def fn(s):
        return s + 1, ast.asarray(s), ast.sum(s), ast.reshape(s, (1,)), ast.real(s)

    avals = [v.aval for v in ast.make_graph(fn)(5).outputs]
    i64 = numpy.dtype("int64")
    assert avals == [
        ShapedArray((), i64, True),
        ShapedArray((), i64, False),
        ShapedArray((), i64, False),
        ShapedArray((1,), i64, False),
        ShapedArray((), i64, True),
    ]


def test_simplify_keeps_a_strong_result_of_a_weak_operand():
    """A reduction over no axes (and other no-op structure) of a weak value is still strongly typed
    after simplify: the verifier (on in tests) checks every consumer's aval."""
    jitted = ast.jit(lambda v, s: v + -ast.sum(s) + -ast.reshape(s, ()), backend="reference")
    assert jitted(I8, 5).dtype == numpy.int64
    text = str(ast.make_graph(lambda s: -ast.sum(s))(5))
    assert "~" in text.splitlines()[0] and "~" not in "".join(text.splitlines()[1:])


# -- 2. Python bools ---------------------------------------------------------------------------------------

BOOL_OPERATIONS = {  # NumPy's int8 + (Python's operator on Python bools): the result's type shows
    "b + 1": lambda xp, b, c: numpy.int8(3) + (b + 1),
    "b + c": lambda xp, b, c: numpy.int8(3) + (b + c),
    "b + c alone": lambda xp, b, c: b + c,
    "b - c": lambda xp, b, c: numpy.int8(3) + (b - c),
    "b * c": lambda xp, b, c: numpy.int8(3) + b * c,
    "b / (c + 1)": lambda xp, b, c: numpy.float32(1) + b / (c + 1),
    "b // (c + 1), b % (c + 1)": lambda xp, b, c: numpy.int8(3) + b // (c + 1) + b % (c + 1),
    "b ** c": lambda xp, b, c: numpy.int8(3) + b**c,
    "-b, +b, abs(b), ~b": lambda xp, b, c: numpy.int8(3) + (-b) + (+b) + abs(b) + (~b),
    "b << 1": lambda xp, b, c: numpy.int8(3) + (b << 1),
    "b & c, b | c, b ^ c": lambda xp, b, c: [b & c, b | c, b ^ c],
    "(b & c) + 1": lambda xp, b, c: numpy.int8(3) + ((b & c) + 1),
    "b & 1": lambda xp, b, c: numpy.int8(3) + (b & 1),
    "b + 2.5": lambda xp, b, c: numpy.float32(1) + (b + 2.5),
    "b < c": lambda xp, b, c: b < c,
    "(b < c) + 1": lambda xp, b, c: numpy.int8(3) + ((b < c) + 1),
    "(b == c) + 1": lambda xp, b, c: numpy.int8(3) + ((b == c) + 1),
    "divmod(b, c + 1)": lambda xp, b, c: numpy.int8(3) + divmod(b, c + 1)[0],
    "int8 array + b": lambda xp, b, c: I8 + b,
}
BOOL_FUNCTIONS = {  # NumPy's functions on Python bools
    "add": lambda xp, b, c: xp.add(b, c),
    "add of 1": lambda xp, b, c: numpy.int8(3) + xp.add(b, 1),
    "multiply": lambda xp, b, c: xp.multiply(b, c),
    "subtract": lambda xp, b, c: xp.subtract(b, c),
    "negative": lambda xp, b, c: xp.negative(b),
    "invert": lambda xp, b, c: xp.invert(b),
    "less, + 1": lambda xp, b, c: numpy.int8(3) + (xp.less(b, c) + 1),
    "asarray + 1": lambda xp, b, c: xp.asarray(b) + 1,
    "sum": lambda xp, b, c: xp.sum(b),
}
BOOLS = [(True, True), (True, False), (False, False)]


@pytest.mark.parametrize("name", list(BOOL_OPERATIONS))
def test_python_operators_on_python_bools(name):
    for b, c in BOOLS:
        check(BOOL_OPERATIONS[name], b, c, modes=["reference"])


@pytest.mark.parametrize("name", list(BOOL_FUNCTIONS))
def test_numpy_functions_on_python_bools(name):
    for b, c in BOOLS:
        check(BOOL_FUNCTIONS[name], b, c, modes=["reference"])


@pytest.mark.parametrize("mode", ["tier 0", "compiled"])
def test_the_bool_reproducers_in_both_tiers(mode):
    assert check(lambda xp, b, c: numpy.int8(3) + (b + 1), True, True, modes=[mode]) == (
        "ok",
        "int8",
        5,
    )
    assert check(lambda xp, b, c: b + c, True, True, modes=[mode]) == ("ok", "int64", 2)


def test_a_python_bool_argument_is_weakly_typed():
    graph = ast.make_graph(lambda b: (b + b, b & b, ast.add(b, b)))(True)
    assert [v.aval for v in graph.inputs] == [ShapedArray((), numpy.dtype(bool), True)]
    i64, boolean = numpy.dtype("int64"), numpy.dtype(bool)
    assert [v.aval for v in graph.outputs] == [
        ShapedArray((), i64, True),
        ShapedArray((), boolean, True),
        ShapedArray((), boolean, False),
    ]


# -- 3. np.equal(x, None) ----------------------------------------------------------------------------------

OBJECTS = {
    "equal(x, None)": lambda xp, x: xp.equal(x, None),
    "not_equal(x, None)": lambda xp, x: xp.not_equal(x, None),
    "equal(None, x)": lambda xp, x: xp.equal(None, x),
    "not_equal(x, {})": lambda xp, x: xp.not_equal(x, {}),
    "equal(x, object())": lambda xp, x: xp.equal(x, object()),
    "equal(x, ...)": lambda xp, x: xp.equal(x, ...),
    "equal(x, None), 2-d": lambda xp, x: xp.equal(xp.reshape(x, (2, 2)), None),
    "equal(x, None, out=)": lambda xp, x: xp.equal(x, None, out=xp.ones(4, dtype=bool)),
    "not_equal(x, None, out=, where=)": lambda xp, x: xp.not_equal(
        x, None, out=xp.zeros(4, dtype=bool), where=x > 1
    ),
    "equal(x, None, dtype=bool)": lambda xp, x: xp.equal(x, None, dtype=bool),
    "equal(x, None, dtype=int)": lambda xp, x: xp.equal(x, None, dtype=int),
    "equal(x, 'a')": lambda xp, x: xp.equal(x, "a"),
    "equal(None, None)": lambda xp, x: xp.equal(None, None),
    "equal(3, None)": lambda xp, x: xp.equal(3, None),
    "x == None, x != None": lambda xp, x: [x == None, x != None],
    "x == 'a'": lambda xp, x: x == "a",
}


@pytest.mark.parametrize("name", list(OBJECTS))
def test_equal_to_an_object_is_elementwise(name):
    check(OBJECTS[name], numpy.arange(4.0))


def test_equal_none_reproducer():
    assert check(lambda xp, x: xp.equal(x, None), numpy.arange(3.0)) == ("ok", "bool", [False] * 3)
    assert check(lambda xp, x: xp.not_equal(x, None), numpy.arange(3.0)) == (
        "ok",
        "bool",
        [True] * 3,
    )


def test_equal_to_a_list_of_objects_is_numpys_eagerly_and_a_clear_error_traced():
    x = numpy.arange(3.0)
    expected = numpy.equal(x, [None, 1, 2])
    numpy.testing.assert_array_equal(
        numpy.asarray(ast.equal(ast.asarray(x), [None, 1, 2])), expected
    )
    with pytest.raises(TypeError, match=r"equal\(array, list\): NumPy compares each element"):
        ast.jit(lambda x: ast.equal(x, [None, 1, 2]), backend="reference")(x)


def test_ordering_comparisons_with_none_raise_type_error():
    x = numpy.arange(3.0)
    for op in (operator.lt, ast.less):
        with pytest.raises(TypeError):
            op(ast.asarray(x), None)
        with pytest.raises(TypeError):
            ast.jit(lambda x, op=op: op(x, None), backend="reference")(x)
