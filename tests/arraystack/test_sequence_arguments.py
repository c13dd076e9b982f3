"""Every top-level function NumPy also has, called with Python lists and scalars as its arguments (a few
argument patterns each), gives NumPy's result, or fails where NumPy fails: lists must be read as arrays,
never as dtype specifications or shapes by mistake (linspace, choose and polymul each did once)."""

from __future__ import annotations

import inspect
import warnings

import numpy
import pytest

import arraystack

# not pure functions of array arguments: files, printing state, iterators, callables, memory queries,
# and uninitialized memory (empty, empty_like: NumPy's contents are whatever was there)
SKIP = {
    "apply_along_axis", "apply_over_axes", "busdaycalendar", "empty", "empty_like", "errstate",
    "from_dlpack", "frombuffer", "fromfile", "fromfunction", "fromiter", "frompyfunc", "fromregex",
    "fromstring", "genfromtxt", "info", "load", "loadtxt", "may_share_memory", "memmap", "nditer",
    "piecewise", "printoptions", "save", "savetxt", "savez", "savez_compressed", "set_printoptions",
    "setbufsize", "seterr", "seterrcall", "shares_memory", "show_config", "show_runtime", "test",
    "vectorize",
}  # fmt: skip
ARGUMENTS = [
    ([1, 2, 3],),
    ([[1.0, 2.0], [3.0, 4.0]],),
    ([1, 2, 3], [4, 5, 6]),
    ([[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]),
    ([0.5, 1.5], 2),
    (2, [0.5, 1.5]),
    ([1, 2, 3], [0, 1]),
    ([True, False, True], [1, 2, 3]),
]
NAMES = sorted(
    name
    for name in set(dir(numpy)) & set(dir(arraystack))
    if not name.startswith("_")
    and name not in SKIP
    and callable(getattr(numpy, name))
    and not inspect.isclass(getattr(numpy, name))
)


def _outcome(fn, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return True, repr(fn(*args))
    except Exception:  # noqa: BLE001 - NumPy's failure is the expectation, whatever it is
        return False, None


@pytest.mark.parametrize("args", ARGUMENTS, ids=[repr(a) for a in ARGUMENTS])
def test_functions_of_lists_give_numpys_results(args):
    wrong = []
    for name in NAMES:
        ok, expected = _outcome(getattr(numpy, name), args)
        if not ok or " at 0x" in expected:  # NumPy fails, or its result prints an address
            continue
        got_ok, got = _outcome(getattr(arraystack, name), args)
        if not got_ok or got != expected:
            wrong.append(f"{name}{args}: NumPy {expected[:80]} | arraystack {str(got)[:80]}")
    assert wrong == []


def test_the_scope_is_the_namespace():
    assert len(NAMES) > 350 and "linspace" in NAMES and "choose" in NAMES


SUBMODULE_ARGUMENTS = [
    ([[1.0, 2.0], [3.0, 4.0]],),
    ([[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]),
    ([1.0, 2.0, 3.0],),
    ([1.0, 2.0], [3.0, 4.0]),
    ([[2.0, 1.0], [1.0, 2.0]], [1.0, 1.0]),
    ([1, 2, 3], 2),
]
# ids: the memory addresses of data and mask
SUBMODULE_SKIP = {"ma": {"ids"}}


@pytest.mark.parametrize(
    "module", ["linalg", "fft", "emath", "polynomial.polynomial", "polynomial.chebyshev", "ma"]
)
def test_submodule_functions_of_lists_give_numpys_results(module):
    theirs, ours = numpy, arraystack
    for part in module.split("."):
        theirs, ours = getattr(theirs, part), getattr(ours, part)
    names = [
        n
        for n in getattr(theirs, "__all__", dir(theirs))
        if hasattr(ours, n)
        and callable(getattr(theirs, n))
        and not inspect.isclass(getattr(theirs, n))
        and n not in SUBMODULE_SKIP.get(module, ())
    ]
    wrong = []
    for name in names:
        for args in SUBMODULE_ARGUMENTS:
            ok, expected = _outcome(getattr(theirs, name), args)
            if not ok or " at 0x" in expected:
                continue
            got_ok, got = _outcome(getattr(ours, name), args)
            if not got_ok or got != expected:
                wrong.append(f"{name}{args}: NumPy {expected[:80]} | arraystack {str(got)[:80]}")
    assert wrong == []
