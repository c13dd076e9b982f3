"""NumPy parity of mean, var, std and average (_statistics), eager and traced; their warnings."""

from __future__ import annotations

import functools
import warnings

import numpy
import pytest

import arraystack
from tests import oracle

make = functools.partial(oracle.make, scale=3)


# empty slices, NaN and inf inputs warn in NumPy and arraystack alike; the values are compared
pytestmark = pytest.mark.usefixtures("quiet_numerics")


@pytest.mark.parametrize("ddof", [0, 1, 2, 0.5, 4, 7])
@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128"])
def test_ddof(parity, name, ddof, dtype):
    x = make((4, 3), dtype, nan=True)
    parity(lambda xp, x: getattr(xp, name)(x, axis=0, ddof=ddof), x)
    parity(lambda xp, x: getattr(xp, name)(x, ddof=ddof, keepdims=True), x)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_correction_and_mean(parity, name):
    x = make((4, 3), "float64")
    parity(lambda xp, x: getattr(xp, name)(x, axis=1, correction=1), x)
    parity(lambda xp, x: getattr(xp, name)(x, ddof=1, correction=1), x)
    parity(lambda xp, x: getattr(xp, name)(x, axis=0, mean=xp.mean(x, axis=0, keepdims=True)), x)
    parity(lambda xp, x: getattr(xp, name)(x, mean=0.5), x)


def test_float16_accumulates_wide(parity):
    x = numpy.full(4096, 1.0, numpy.float16)
    for name in ["sum", "mean", "var", "std", "nanmean", "cumsum"]:
        parity(lambda xp, x, name=name: getattr(xp, name)(x), x)


AVERAGE_CASES = [
    ({}, None),
    ({"axis": 0}, None),
    ({"axis": 1, "returned": True}, None),
    ({"axis": (0, 1), "keepdims": True, "returned": True}, None),
    ({"axis": 1, "returned": True}, [1, 2, 3, 4]),
    ({"axis": 0, "keepdims": True}, [0.5, 1.5, 2.0]),
    ({"returned": True}, "same"),
    ({"axis": (1, 0)}, "transposed"),
    ({"axis": 0}, [1, 2]),  # ValueError
    ({}, [1, 2, 3]),  # TypeError
]


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128"])
@pytest.mark.parametrize("kwargs,weights", AVERAGE_CASES, ids=str)
def test_average(parity, kwargs, weights, dtype):
    x = make((3, 4), dtype)
    if isinstance(weights, str):
        w = make((3, 4), "float64", seed=1) ** 2
        w = w.T if weights == "transposed" else w
        parity(lambda xp, x, w: xp.average(x, weights=w, **kwargs), x, w)
    else:
        parity(lambda xp, x: xp.average(x, weights=weights, **kwargs), x)


def test_average_zero_weights(parity):
    # the weights' sum is data: only eager arraystack raises NumPy's ZeroDivisionError
    parity(
        lambda xp, x: xp.average(x, axis=1, weights=[1, -1, 0, 0]),
        make((3, 4), "float64"),
        traced=False,
    )


# -- warnings ---------------------------------------------------------------------------------------------

WARNING_CASES = [
    (lambda xp: xp.mean(xp.zeros((0,))), "Mean of empty slice"),
    (lambda xp: xp.var(xp.ones(3), ddof=3), "Degrees of freedom"),
    (lambda xp: xp.nanmax(xp.asarray([numpy.nan, numpy.nan])), "All-NaN slice"),
    (lambda xp: xp.nanmin(xp.asarray([[numpy.nan, 1.0]]), axis=1), None),
    (lambda xp: xp.nanmean(xp.asarray([numpy.nan])), "Mean of empty slice"),
    (lambda xp: xp.nanvar(xp.asarray([numpy.nan, 1.0])), None),
    (lambda xp: xp.nanvar(xp.asarray([numpy.nan, 1.0]), ddof=1), "Degrees of freedom"),
]


@pytest.mark.parametrize("case", range(len(WARNING_CASES)))
def test_warnings(case):
    fn, message = WARNING_CASES[case]
    for xp in (numpy, arraystack):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fn(xp)
        found = [
            str(w.message)
            for w in caught
            if issubclass(w.category, RuntimeWarning) and "encountered in" not in str(w.message)
        ]
        if message is None:
            assert not found, (xp.__name__, found)
        else:
            assert any(message in m for m in found), (xp.__name__, found)


def test_the_mean_of_objects_divides_as_python_does():
    from fractions import Fraction

    values = [Fraction(1, 2), Fraction(1, 3)]
    for xp in (numpy, arraystack):
        assert xp.mean(xp.asarray(values, dtype=object)) == Fraction(5, 12)
        with pytest.raises(TypeError, match="unsupported operand"):
            xp.mean(None)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "max", "min"])
def test_a_reduction_of_objects_to_one_element_is_the_object(name):
    from fractions import Fraction

    values = [Fraction(1, 2), Fraction(1, 3)]
    expected = getattr(numpy, name)(numpy.asarray(values, dtype=object))
    got = getattr(arraystack, name)(arraystack.asarray(values, dtype=object))
    assert type(got) is Fraction and got == expected
