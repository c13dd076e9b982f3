"""Every public ndarray method NumPy also has, called on arrays of several dtypes and ranks (a 0-d one
included) with a dozen argument patterns (none, axes, None, tuples, lists, a dtype, an order), gives
NumPy's result and dtype, or fails where NumPy fails. Catches the arguments NumPy's methods read loosely:
a positional `out`, `order=None`, a 0-d array's axis 0, a real array's `conj()` being the array itself."""

from __future__ import annotations

import warnings

import numpy
import pytest

import arraystack

SAMPLES = [
    numpy.arange(6.0).reshape(2, 3),
    numpy.array([3, 1, 2]),
    numpy.array([True, False]),
    numpy.array([1 + 2j, 3 - 1j]),
    numpy.array(2.5),
    numpy.arange(6, dtype=numpy.int8),
]
ARGUMENTS = [
    (), (0,), (1,), (-1,), ([0, 1],), ((1, 0),), (None,), (2, 1), ([1, 2], 0), (numpy.float32,),
    ("C",), (True,),
]  # fmt: skip
# writers (tested on their own)
SKIP = {
    "byteswap", "dump", "dumps", "fill", "itemset", "partition", "put", "resize", "setfield",
    "setflags", "sort", "tofile", "view",
}  # fmt: skip
METHODS = sorted(
    n
    for n in dir(numpy.ndarray)
    if not n.startswith("_") and n not in SKIP and callable(getattr(numpy.ndarray, n))
)


def _outcome(array, name, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = getattr(array, name)(*args)
        return True, repr(value) + str(getattr(value, "dtype", ""))
    except Exception:  # noqa: BLE001 - NumPy's failure is the expectation, whatever it is
        return False, None


@pytest.mark.parametrize("sample", SAMPLES, ids=[f"{s.dtype}{list(s.shape)}" for s in SAMPLES])
def test_methods_take_numpys_arguments(sample):
    wrong = []
    for name in METHODS:
        for args in ARGUMENTS:
            ok, expected = _outcome(sample.copy(), name, args)
            if not ok or "0x" in expected:  # NumPy fails, or its result prints an address
                continue
            got_ok, got = _outcome(arraystack.asarray(sample.copy()), name, args)
            if not got_ok or got != expected:
                wrong.append(f".{name}{args}: NumPy {expected[:70]} | arraystack {str(got)[:70]}")
    assert wrong == []


def test_a_real_arrays_conj_is_the_array_itself():
    for dtype in ("bool", "int8", "float32"):
        x = arraystack.ones(3, dtype=dtype)
        assert x.conj() is x and x.conjugate() is x
    z = arraystack.asarray([1 + 1j])
    assert z.conj() is not z and z.conj().tolist() == [1 - 1j]
