"""Every top-level function NumPy also has, called on a (2, 3) array with one bad keyword its signature
takes (an out of the wrong shape or dtype, an unknown casting, order, kind, mode, side or method, a
keepdims that is not an integer, a negative count, ...): it fails where NumPy fails, with NumPy's
exception type (or a subclass of it), and succeeds where NumPy succeeds."""

from __future__ import annotations

import inspect
import warnings

import numpy
import pytest

import arraystack

BAD = {
    "out": lambda xp: xp.ones(7),
    "kind": lambda xp: "bogus",
    "mode": lambda xp: "bogus",
    "order": lambda xp: "Z",
    "keepdims": lambda xp: "yes",
    "ddof": lambda xp: "x",
    "casting": lambda xp: "bogus",
    "where": lambda xp: xp.ones(5, dtype=bool),
    "initial": lambda xp: "x",
    "side": lambda xp: "middle",
    "method": lambda xp: "bogus",
    "bins": lambda xp: -1,
    "decimals": lambda xp: 1.5,
    "n": lambda xp: -1,
    "k": lambda xp: 1.5,
    "num": lambda xp: -1,
    "dtype": lambda xp: "int77",
}
SKIP = {
    "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "genfromtxt", "fromfile",
    "memmap", "fromregex", "set_printoptions", "seterr", "seterrcall", "setbufsize", "show_config",
    "show_runtime", "info", "printoptions", "errstate", "nditer", "nested_iters", "frompyfunc",
    "vectorize", "fromfunction", "bmat", "asmatrix", "fromiter", "fromstring", "frombuffer",
    "from_dlpack",
}  # fmt: skip
# where the sample call itself is not the function's (a shape, a count) or NumPy's error is an
# accident of its implementation (AttributeError of an out= list); the second exception is a
# subclass of a different branch (ValueError for a wrong-ndim out against UFuncTypeError)
DIFFERENT = {
    ("empty", "order"), ("eye", "order"), ("ones", "order"), ("zeros", "order"), ("tri", "k"),
    ("tri", "dtype"), ("ptp", "out"), ("std", "out"),
}  # fmt: skip


def _parameters(function):
    try:
        return set(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return set()


def _cases():
    for name in sorted(arraystack.__all__):
        mine, theirs = getattr(arraystack, name, None), getattr(numpy, name, None)
        if name in SKIP or not callable(mine) or not callable(theirs) or isinstance(theirs, type):
            continue
        if isinstance(theirs, numpy.ufunc) and theirs.nin != 1:
            continue  # the sample call passes one array
        for keyword in sorted(BAD.keys() & (_parameters(theirs) | _parameters(mine))):
            if (name, keyword) not in DIFFERENT:
                yield name, keyword


def _outcome(xp, name, keyword):
    x = xp.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            getattr(xp, name)(x, **{keyword: BAD[keyword](xp)})
        except Exception as e:  # noqa: BLE001 - the exception type is what is compared
            return type(e)
    return None


@pytest.mark.parametrize(("name", "keyword"), list(_cases()))
def test_a_bad_keyword_fails_as_numpys(name, keyword):
    expected, got = _outcome(numpy, name, keyword), _outcome(arraystack, name, keyword)
    if expected is None or got is None:
        assert got is expected
    else:
        assert issubclass(got, expected) or issubclass(expected, got), (got, expected)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.zeros(3, xp.ones(2)),
        lambda xp: xp.full(3, 1.0, xp.ones(2)),
        lambda xp: xp.asarray([1.0], xp.ones(2)),
        lambda xp: xp.ones_like(xp.ones(3), xp.ones(2)),
        lambda xp: xp.arange(3, dtype=xp.ones(2)),
        lambda xp: xp.ones(3).astype(xp.ones(2)),
        lambda xp: xp.sum(xp.ones(3), dtype=xp.ones(2)),
    ],
    ids=["zeros", "full", "asarray", "ones_like", "arange", "astype", "sum"],
)
def test_an_array_is_not_a_dtype(call):
    """numpy.dtype reads the `.dtype` of an object that is not NumPy's array: an arraystack array passed
    where a dtype goes (a misplaced positional argument) raised nothing."""
    for xp in (numpy, arraystack):
        with pytest.raises(TypeError):
            call(xp)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.stack([xp.ones(2)] * 2, casting="bogus"),
        lambda xp: xp.hstack([xp.ones(2)] * 2, casting="bogus"),
        lambda xp: xp.ma.stack([xp.ma.ones(2)] * 2, casting="bogus"),
        lambda xp: xp.ma.array([1, 2], order="Z"),
        lambda xp: xp.ma.asarray([1, 2], order="Z"),
    ],
    ids=["stack", "hstack", "ma.stack", "ma.array", "ma.asarray"],
)
def test_joining_and_masked_constructors_check_casting_and_order(call):
    for xp in (numpy, arraystack):
        with pytest.raises(ValueError):
            call(xp)
