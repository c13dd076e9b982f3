"""Every public MaskedArray method numpy.ma also has, called on masked arrays of four dtypes with a few
argument patterns (none, axes, None, a list), prints as numpy.ma's result, or fails where numpy.ma fails."""

from __future__ import annotations

import warnings

import numpy
import pytest

import arraystack

SAMPLES = [
    (numpy.arange(6.0).reshape(2, 3), [[0, 1, 0], [0, 0, 1]]),
    ([3, 1, 2], [1, 0, 0]),
    ([1 + 2j, 3 - 1j], [0, 1]),
    ([True, False], [0, 0]),
]
ARGUMENTS = [(), (0,), (1,), (-1,), (None,), ([0, 1],)]
# writers and mask-state setters (tested on their own), memory views and addresses (ids, ctypes), what
# reads nonsense here (choose(0) takes 0 as the choices), and pickles and bytes (tested on their own)
SKIP = {
    "byteswap", "choose", "ctypes", "dump", "dumps", "fill", "harden_mask", "ids", "partition", "put",
    "resize", "set_fill_value", "setfield", "setflags", "shrink_mask", "soften_mask", "sort", "tobytes",
    "tofile", "unshare_mask", "view",
}  # fmt: skip
METHODS = sorted(
    n
    for n in dir(numpy.ma.MaskedArray)
    if not n.startswith("_") and n not in SKIP and callable(getattr(numpy.ma.MaskedArray, n, None))
)


def _outcome(module, data, mask, name, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return True, repr(getattr(module.array(data, mask=mask), name)(*args))
    except Exception:  # noqa: BLE001 - numpy.ma's failure is the expectation, whatever it is
        return False, None


@pytest.mark.parametrize("data, mask", SAMPLES, ids=["float2d", "int", "complex", "bool"])
def test_methods_take_numpy_mas_arguments(data, mask):
    wrong = []
    for name in METHODS:
        for args in ARGUMENTS:
            ok, expected = _outcome(numpy.ma, data, mask, name, args)
            if not ok or "0x" in expected:
                continue
            got_ok, got = _outcome(arraystack.ma, data, mask, name, args)
            if not got_ok or got != expected:
                wrong.append(
                    f".{name}{args}: numpy.ma {expected[:60]} | arraystack {str(got)[:60]}"
                )
    assert wrong == []


def test_conj_of_a_real_masked_array_is_itself_and_writes_out():
    x = arraystack.ma.array([1.0, 2.0], mask=[0, 1])
    assert x.conj() is x and x.conjugate() is x
    z = arraystack.ma.array([1 + 1j, 2], mask=[0, 1])
    for out in (arraystack.ma.zeros(2, dtype=complex), arraystack.zeros(2, dtype=complex)):
        assert z.conj(out) is out
    assert repr(z.conj(arraystack.ma.zeros(2, dtype=complex))) == repr(
        numpy.ma.array([1 + 1j, 2], mask=[0, 1]).conj(numpy.ma.zeros(2, dtype=complex))
    )
