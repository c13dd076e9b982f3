"""The user's own numba functions take arraystack arrays: numba's array type of the array's buffer (no
copy: writes land in the array), NumPy arrays back, and scalar results as NumPy's scalars; compared with
the same compiled function called on NumPy arrays."""

from __future__ import annotations

import subprocess
import sys

import numba
import numpy
import pytest
from arraystack.ir import ConcretizationError

import arraystack


@numba.njit(cache=False)
def _summary(a, b):
    return a.sum(), (numpy.sin(a) * b).max(), a.T @ a, a[::2].copy()


@numba.njit(cache=False)
def _scale_rows(a, s):
    for i in range(a.shape[0]):
        a[i] *= s
    return a


@pytest.mark.parametrize("dtype", ["float64", "float32"])  # numba has no integer matmul
def test_njit_of_arraystack_arrays_is_numbas_of_numpys(dtype):
    x = numpy.arange(12).reshape(4, 3).astype(dtype)
    expected = _summary(x, x.dtype.type(2))
    got = _summary(arraystack.asarray(x), arraystack.asarray(x).sum() * 0 + 2)
    for e, g in zip(expected, got):
        assert type(g) is type(e)
        numpy.testing.assert_array_equal(g, e)
    strided = arraystack.asarray(x)[:, ::2]  # a view: numba's non-contiguous array
    numpy.testing.assert_array_equal(_summary(strided, 2)[2], _summary(x[:, ::2], 2)[2])


def test_njit_writes_the_arrays_memory():
    a = arraystack.ones((3, 2))
    view = a[1:]
    returned = _scale_rows(view, 5.0)
    assert numpy.asarray(a).tolist() == [[1, 1], [5, 5], [5, 5]]
    assert isinstance(returned, numpy.ndarray)
    assert numpy.shares_memory(returned, numpy.asarray(a))  # the argument itself, as NumPy's array


def test_read_only_traced_and_device_arrays_are_refused():
    ro = arraystack.arange(3.0)
    ro.flags.writeable = False
    assert _summary(ro, 1.0)[0] == 3.0  # reading is fine
    with pytest.raises(numba.core.errors.TypingError):
        _scale_rows(ro, 2.0)  # numba's rule for read-only arrays
    with pytest.raises(ConcretizationError):
        arraystack.jit(lambda v: _summary(v, 1.0)[0])(arraystack.arange(3.0))


@pytest.mark.slow
@pytest.mark.parametrize("first", ["arraystack", "numba"])
def test_registered_in_either_import_order(first):
    """Imported after arraystack, numba learns the type when its own import finishes."""
    second = "numba" if first == "arraystack" else "arraystack"
    code = (
        f"import {first}, {second}\n"
        "f = numba.njit(lambda a: a.sum() + a.T.shape[0])\n"
        "print(f(arraystack.arange(6.0).reshape(2, 3)))\n"
    )
    run = [sys.executable, "-c", code]
    out = subprocess.run(run, check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "18.0"
