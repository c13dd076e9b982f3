"""NumPy parity of the reductions family (_reductions, _statistics, _cumulative, _reductions_nan).

Each case is written once against `xp` and run under NumPy, eager arraystack and traced arraystack.
"""

from __future__ import annotations

import functools

import numpy
import pytest

import arraystack
from tests import oracle

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex128"]
SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4), (0, 3)]


make = functools.partial(oracle.make, scale=3)


# -- every function over dtypes and shapes ----------------------------------------------------------------

PLAIN = {
    "sum": lambda xp, x: xp.sum(x),
    "prod": lambda xp, x: xp.prod(x),
    "max": lambda xp, x: xp.max(x),
    "min": lambda xp, x: xp.min(x),
    "amax": lambda xp, x: xp.amax(x, axis=-1) if x.ndim else xp.amax(x),
    "mean": lambda xp, x: xp.mean(x),
    "var": lambda xp, x: xp.var(x),
    "std": lambda xp, x: xp.std(x),
    "any": lambda xp, x: xp.any(x),
    "all": lambda xp, x: xp.all(x),
    "argmax": lambda xp, x: xp.argmax(x),
    "argmin": lambda xp, x: xp.argmin(x),
    "ptp": lambda xp, x: xp.ptp(x),
    "count_nonzero": lambda xp, x: xp.count_nonzero(x),
    "cumsum": lambda xp, x: xp.cumsum(x),
    "cumprod": lambda xp, x: xp.cumprod(x),
    "cumulative_sum": lambda xp, x: xp.cumulative_sum(x, axis=-1 if x.ndim else None),
    "average": lambda xp, x: xp.average(x),
    "sum_axis0": lambda xp, x: xp.sum(x, axis=0) if x.ndim else xp.sum(x, axis=()),
    "mean_axis_last": lambda xp, x: xp.mean(x, axis=-1) if x.ndim else xp.mean(x),
    "var_axis0_ddof1": lambda xp, x: xp.var(x, axis=0, ddof=1) if x.ndim else xp.var(x),
    "max_axis_last_keep": lambda xp, x: xp.max(x, axis=-1, keepdims=True) if x.ndim else xp.max(x),
    "argmin_axis0_keep": lambda xp, x: xp.argmin(x, axis=0, keepdims=True),
    "cumprod_axis0": lambda xp, x: xp.cumprod(x, axis=0),
}


# empty slices, NaN and inf inputs warn in NumPy and arraystack alike; the values are compared
pytestmark = pytest.mark.usefixtures("quiet_numerics")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(PLAIN))
def test_function_dtype_shape(parity, name, dtype, shape):
    parity(PLAIN[name], make(shape, dtype))


NON_CONTIGUOUS = {
    "transposed": lambda xp, x: xp.transpose(x),
    "strided": lambda xp, x: x[:, ::2],
    "reversed": lambda xp, x: x[::-1, ::-2],
}


@pytest.mark.parametrize("view", sorted(NON_CONTIGUOUS))
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
@pytest.mark.parametrize(
    "name", ["sum", "mean", "var_axis0_ddof1", "max_axis_last_keep", "argmin_axis0_keep", "cumsum"]
)
def test_non_contiguous(parity, name, dtype, view):
    parity(lambda xp, x: PLAIN[name](xp, NON_CONTIGUOUS[view](xp, x)), make((4, 6), dtype))


# -- axis, keepdims, dtype, ddof --------------------------------------------------------------------------

AXES = [None, 0, 1, -1, (0, 2), (2, 0, 1), ()]
AXIS_FUNCTIONS = [
    "sum",
    "prod",
    "max",
    "min",
    "mean",
    "var",
    "std",
    "any",
    "all",
    "ptp",
    "nansum",
    "nanmax",
    "nanmean",
    "nanstd",
    "count_nonzero",
]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("name", AXIS_FUNCTIONS)
def test_axis_keepdims(parity, name, axis, keepdims):
    x = make((2, 3, 4), "float64", nan=name.startswith("nan"))
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis, keepdims=keepdims), x)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("name", ["argmax", "argmin", "nanargmax", "nanargmin"])
def test_arg_axis_keepdims(parity, name, axis):
    x = make((3, 4), "float32")
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis), x)
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis, keepdims=True), x)


@pytest.mark.parametrize(
    "dtype", ["int8", "uint8", "int64", "float16", "float32", "float64", "complex128"]
)
@pytest.mark.parametrize("src", ["bool", "int8", "float32", "complex128"])
@pytest.mark.parametrize(
    "name",
    [
        "sum",
        "prod",
        "mean",
        "var",
        "std",
        "cumsum",
        "cumprod",
        "nansum",
        "nanmean",
        "nanvar",
        "nancumsum",
    ],
)
def test_dtype_argument(parity, name, src, dtype):
    parity(lambda xp, x: getattr(xp, name)(x, axis=0, dtype=dtype), make((4, 3), src, nan=True))


# -- where= and initial= ----------------------------------------------------------------------------------

MASKS = {
    "full": numpy.array(
        [[True, False, True, True], [False, False, True, False], [True, True, True, True]]
    ),
    "row": numpy.array([True, False, True, False]),
    "dead_row": numpy.array(
        [[True, True, False, True], [False, False, False, False], [True, False, False, True]]
    ),
}


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("mask", sorted(MASKS))
@pytest.mark.parametrize(
    "name",
    [
        "sum",
        "prod",
        "any",
        "all",
        "mean",
        "var",
        "std",
        "nansum",
        "nanprod",
        "nanmean",
        "nanvar",
        "nanstd",
    ],
)
def test_where(parity, name, mask, axis):
    x = make((3, 4), "float32", nan=name.startswith("nan"))
    parity(lambda xp, x, m: getattr(xp, name)(x, axis=axis, where=m), x, MASKS[mask])
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis, where=MASKS[mask].tolist()), x)


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("mask", sorted(MASKS))
@pytest.mark.parametrize("name", ["max", "min", "nanmax", "nanmin"])
def test_where_with_initial(parity, name, mask, axis):
    x = make((3, 4), "float64", nan=name.startswith("nan"))
    parity(lambda xp, x, m: getattr(xp, name)(x, axis=axis, where=m, initial=0.5), x, MASKS[mask])
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis, where=MASKS[mask], initial=-1), x)
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis, where=MASKS[mask]), x)  # ValueError


@pytest.mark.parametrize("initial", [0, 3, -2.5, 1000, 1.5])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "float64"])
@pytest.mark.parametrize(
    "name", ["sum", "prod", "max", "min", "nansum", "nanprod", "nanmax", "nanmin"]
)
def test_initial(parity, name, dtype, initial):
    x = make((3, 4), dtype, nan=True)
    parity(lambda xp, x: getattr(xp, name)(x, initial=initial), x)
    parity(lambda xp, x: getattr(xp, name)(x, axis=1, initial=initial, keepdims=True), x)
    parity(lambda xp, x: getattr(xp, name)(x[:, :0], axis=1, initial=initial), x)


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod"])
def test_where_and_initial_accumulate(parity, name, axis, keepdims):
    x = make((3, 4), "int32" if name in ("sum", "prod") else "float64", nan=True)
    for mask in MASKS.values():
        parity(
            lambda xp, x, m: getattr(xp, name)(x, axis=axis, where=m, initial=2, keepdims=keepdims),
            x,
            mask,
        )


def test_where_errors(parity):
    x = make((3, 4), "float64")
    parity(lambda xp, x, m: xp.sum(x, where=m), x, numpy.array([1, 0, 1, 0]))  # TypeError
    parity(lambda xp, x, m: xp.sum(x, where=m), x, numpy.ones((2, 3, 4), bool))  # ValueError
    parity(lambda xp, x, m: xp.mean(x, where=m), x, numpy.ones((3,), bool))  # ValueError
    parity(lambda xp, x: xp.sum(x, where=False), x)
    parity(lambda xp, x: xp.max(x, where=True), x)


# -- values: NaN, inf, signed zeros, integer wrap-around --------------------------------------------------


def test_integer_wraparound(parity):
    big = numpy.array([2**62, 2**62, 2**62, 7], numpy.int64)
    parity(lambda xp, x: xp.sum(x), big)
    parity(lambda xp, x: xp.cumsum(x), big)
    parity(lambda xp, x: xp.prod(x), big)
    parity(lambda xp, x: xp.ptp(x), numpy.array([-128, 127], numpy.int8))
    small = numpy.array([100, 100, 100, 27], numpy.int8)
    parity(lambda xp, x: xp.sum(x), small)
    parity(lambda xp, x: xp.sum(x, dtype=numpy.int8), small)
    parity(lambda xp, x: xp.prod(x, dtype="int8"), small)
    parity(lambda xp, x: xp.cumsum(x, dtype=numpy.uint8), small)
    parity(lambda xp, x: xp.sum(x.astype(numpy.uint8), axis=0), small)
    parity(lambda xp, x: xp.mean(x, dtype=numpy.int8), small)
    parity(lambda xp, x: xp.nansum(x, initial=1000), small)


def test_python_inputs(parity):
    parity(lambda xp: xp.sum([1, 2, 3]))
    parity(lambda xp: xp.mean([[1, 2], [3, 4]], axis=0))
    parity(lambda xp: xp.max(3.5))
    parity(lambda xp: xp.argmax(2.0, axis=0))
    parity(lambda xp: xp.cumsum(2.0, axis=0))
    parity(lambda xp: xp.any([0, 0.0, 1j]))
    parity(lambda xp: xp.prod([]))


# -- errors -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [2, -3, (0, 0), 1.0, (0, 5)], ids=str)
@pytest.mark.parametrize(
    "name",
    [
        "sum",
        "max",
        "mean",
        "var",
        "any",
        "argmax",
        "cumsum",
        "ptp",
        "nanmax",
        "nanmean",
        "nanvar",
        "nanargmax",
        "count_nonzero",
        "cumulative_sum",
    ],
)
def test_bad_axis(parity, name, axis):
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis), make((3, 4), "float64"))


@pytest.mark.parametrize(
    "shape,axis",
    [((0,), None), ((0, 3), 0), ((3, 0), 1), ((0, 0), 1), ((0, 3), 1), ((0, 3), ())],
    ids=str,
)
@pytest.mark.parametrize(
    "name",
    ["max", "min", "ptp", "argmax", "argmin", "nanmax", "nanargmin", "sum", "mean", "cumsum"],
)
def test_empty(parity, name, shape, axis):
    if name.endswith(("argmax", "argmin", "cumsum")) and axis == ():
        axis = None
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis), numpy.zeros(shape))


def test_misc_errors(parity):
    x = make((3, 4), "float64")
    parity(lambda xp, x: xp.var(x, ddof=1, correction=1), x)
    parity(lambda xp, x: xp.ptp(x > 0), x)
    parity(lambda xp, x: xp.cumulative_sum(x), x)
    parity(lambda xp, x: xp.sum(x, dtype="U4"), x)
    parity(lambda xp, x: xp.nanmean(x, dtype=numpy.int64), x)
    parity(lambda xp, x: xp.nanvar(x, out=xp.zeros((), "int64")), x)


# -- out= -------------------------------------------------------------------------------------------------

OUT_CASES = [
    ("sum", {"axis": 0}, (4,), "float64"),
    ("sum", {"axis": 0}, (4,), "int16"),
    ("sum", {}, (), "float32"),
    ("prod", {"axis": 1, "keepdims": True}, (3, 1), "float64"),
    ("max", {"axis": 1}, (3,), "int64"),
    ("min", {"axis": 0, "initial": 0.0}, (4,), "float64"),
    ("mean", {"axis": 0}, (4,), "float32"),
    ("mean", {"axis": 0}, (4,), "int64"),
    ("var", {"axis": 1}, (3,), "float32"),
    ("std", {"axis": 1, "ddof": 1}, (3,), "float64"),
    ("any", {"axis": 0}, (4,), "float64"),
    ("all", {}, (), "bool"),
    ("argmax", {"axis": 0}, (4,), "int64"),
    ("argmin", {"axis": 1}, (3,), "int32"),
    ("argmax", {"axis": 0}, (4,), "float64"),  # TypeError
    ("ptp", {"axis": 0}, (4,), "float32"),
    ("ptp", {"axis": 0}, (4,), "int64"),  # TypeError: float to int is not same_kind
    ("cumsum", {"axis": 0}, (3, 4), "float32"),
    ("cumsum", {}, (12,), "float64"),
    ("cumprod", {}, (3, 4), "float64"),  # ValueError: wrong size
    ("cumulative_sum", {"axis": 1, "include_initial": True}, (3, 5), "float64"),
    ("nansum", {"axis": 0}, (4,), "float64"),
    ("nanmax", {"axis": 1}, (3,), "float64"),
    ("nanmean", {"axis": 0}, (4,), "float32"),
    ("nanstd", {"axis": 0}, (4,), "float64"),
    ("nancumsum", {"axis": 1}, (3, 4), "float64"),
    ("sum", {"axis": 0}, (1, 4), "float64"),  # ValueError: wrong number of dimensions
    ("sum", {"axis": 0}, (3,), "float64"),  # ValueError: wrong shape
]


@pytest.mark.parametrize("src", ["float32", "int64"])
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "nansum", "nanmean", "nanvar"])
def test_out_sets_the_loop_dtype(parity, name, src):
    # without dtype=, NumPy accumulates in the loop resolved from out's dtype (float32 data into a
    # float64 out sums in float64; int64 data into a float64 out does not wrap around)
    x = (numpy.arange(12).reshape(3, 4) + 1) * (2**61 if src == "int64" else 0.1000001)
    x = x.astype(src)

    def fn(xp, x):
        out = xp.zeros(4, "float64")
        return getattr(xp, name)(x, axis=0, out=out), out

    parity(fn, x)


@pytest.mark.parametrize("name,kwargs,shape,dtype", OUT_CASES, ids=str)
def test_out(parity, name, kwargs, shape, dtype):
    def fn(xp, x):
        out = xp.zeros(shape, dtype)
        result = getattr(xp, name)(x, out=out, **kwargs)
        return result, out

    x = make((3, 4), "float64", nan=name.startswith("nan"))
    parity(fn, x)


def test_out_is_returned_and_written():
    x = arraystack.asarray(make((3, 4), "float64"))
    out = arraystack.zeros(4)
    assert arraystack.sum(x, axis=0, out=out) is out
    numpy.testing.assert_allclose(numpy.asarray(out), numpy.asarray(x).sum(axis=0))
    out = arraystack.zeros((), "int64")
    assert arraystack.argmax(x, out=(out,)) is out
    assert int(out) == numpy.asarray(x).argmax()


# -- average, cumulative_*, count_nonzero ------------------------------------------------------------------


def test_methods(parity):
    x = make((3, 4), "int32")
    parity(lambda xp, x: (x.sum(), x.sum(0), x.prod(axis=1), x.mean(), x.var(ddof=1), x.std(1)), x)
    parity(lambda xp, x: (x.min(), x.max(axis=0, keepdims=True), x.argmin(), x.argmax(1)), x)
    parity(lambda xp, x: (x.any(), x.all(axis=0), x.cumsum(), x.cumprod(axis=1)), x)
