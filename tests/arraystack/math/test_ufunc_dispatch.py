"""numpy ufuncs called on arraystack arrays (__array_ufunc__): they run arraystack's functions, also
when traced, and their methods reduce/accumulate/outer run arraystack's reductions and scans."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

A = np.arange(-3.0, 3.0).reshape(2, 3)
I = np.arange(6, dtype=np.int32).reshape(2, 3)


def test_numpy_ufuncs_run_arraystack(parity):
    a = arraystack.asarray(A)
    assert isinstance(np.sin(a), arraystack.ndarray)
    assert isinstance(np.add(A, a), arraystack.ndarray)
    assert isinstance(np.divmod(a, 2)[1], arraystack.ndarray)
    for ufunc in (np.sin, np.negative, np.isnan, np.conj, np.spacing):
        parity(lambda xp, x, ufunc=ufunc: ufunc(x), A)
    for ufunc in (
        np.add,
        np.true_divide,
        np.maximum,
        np.logaddexp,
        np.less,
        np.logical_xor,
        np.pow,
    ):
        parity(lambda xp, x, ufunc=ufunc: ufunc(x, 2.0), A)
    parity(lambda xp, x: np.add(x, 1, out=xp.zeros((2, 3)), where=x > 0), A)


def test_numpy_ufunc_methods(parity):
    parity(lambda xp, x: np.add.reduce(x), A)
    parity(lambda xp, x: np.add.reduce(x, axis=1, keepdims=True), A)
    parity(lambda xp, x: np.add.reduce(x, axis=None), I)
    parity(lambda xp, x, y: np.add.outer(x, y), A, np.arange(4, dtype=np.int8))
    parity(lambda xp, x: np.multiply.outer(x, 2.0), A)


@pytest.mark.parametrize(
    "ufunc, method, kwargs",
    [
        (np.multiply, "reduce", {}),
        (np.maximum, "reduce", {"axis": 1}),
        (np.minimum, "reduce", {"initial": -9.0}),
        (np.logical_and, "reduce", {}),
        (np.logical_or, "reduce", {"axis": 1}),
        (np.add, "accumulate", {}),
        (np.multiply, "accumulate", {"axis": 1}),
        (np.add, "accumulate", {"dtype": np.float32}),
    ],
)
def test_numpy_ufunc_reductions(parity, ufunc, method, kwargs):
    name = {
        "reduce": {
            np.multiply: "prod",
            np.maximum: "max",
            np.minimum: "min",
            np.logical_and: "all",
            np.logical_or: "any",
        }.get(ufunc),
        "accumulate": {np.add: "cumsum"}.get(ufunc, "cumprod"),
    }
    if not hasattr(arraystack, name[method]):
        pytest.skip(f"arraystack.{name[method]} is written by the reductions family")
    parity(lambda xp, x: getattr(ufunc, method)(x, **kwargs), A)


def test_every_numpy_ufunc_method_runs_arraystacks(parity):
    def scatter_add(xp, x):
        np.add.at(x, [0, 0], 1.0)
        return x

    parity(scatter_add, A)
    parity(lambda xp, x: np.add.reduceat(x, [0, 1], axis=1), A)
    parity(lambda xp, x: np.bitwise_and.reduce(x), I)
    parity(lambda xp, x: np.subtract.accumulate(x, axis=1), A)


def test_numpy_arrays_as_out_come_back_as_given():
    out = np.zeros((2, 3))
    assert np.add(arraystack.asarray(A), 2, out=out) is out
    np.testing.assert_array_equal(out, A + 2)
    q, r = np.zeros((2, 3)), arraystack.zeros((2, 3))
    result = np.divmod(arraystack.asarray(A), 2, out=(q, r))
    assert result[0] is q and result[1] is r


def test_other_array_types_take_precedence():
    class Other:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "other"

    assert np.add(arraystack.asarray(A), Other()) == "other"
