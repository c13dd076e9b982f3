"""Good manners with other array libraries: objects that override NumPy (pandas Series and DataFrames,
xarray, dask arrays, numpy.ma, arraystack.ma, astropy quantities: whatever defines `__array_ufunc__` or
`__array_function__` of its own, and NumPy's subclasses with behaviour of their own, but memmap) are handed to NumPy's function of the same name, which dispatches to them
(NEP 13 and NEP 18) exactly as when the program calls NumPy itself: `arraystack.log(series)` keeps the
Series' index. An object whose `__array_ufunc__` is None opts out of ufuncs: an operator with it returns
NotImplemented (Python then asks the object), as NumPy's operators do.

Checked only where an operand is not an arraystack array, a NumPy array or scalar, or a Python number, so
the common calls pay one type comparison; the answer is cached per type.
"""

from __future__ import annotations

import numpy as np

_NDARRAY_UFUNC = np.ndarray.__array_ufunc__
_NDARRAY_FUNCTION = np.ndarray.__array_function__
_PLAIN = {np.ndarray, float, int, bool, complex, list, tuple, type(None), str, slice}
_kinds: dict = {}  # type -> None (plain), "numpy" (defer to NumPy's function), "none" (opted out)


def kind(x):
    """None for an operand arraystack computes with; "numpy" for an object overriding NumPy (hand the
    call to NumPy's function); "none" for one whose __array_ufunc__ is None."""
    t = type(x)
    if t in _PLAIN:
        return None
    found = _kinds.get(t, 0)
    if found == 0:
        found = _kinds[t] = _classify(t)
    return found


def _classify(t):
    from arraystack._core.array import ndarray

    if issubclass(t, (ndarray, np.generic)):
        return None
    if issubclass(t, np.ndarray) and not issubclass(t, np.memmap):
        # a NumPy subclass (numpy.ma's masked arrays, matrix, ...): NumPy's functions keep it (subok)
        wraps = ("__array_wrap__", "__array_ufunc__", "__array_function__", "__array_finalize__")
        if any(getattr(t, name, None) is not getattr(np.ndarray, name, None) for name in wraps):
            return "numpy"
    ufunc = getattr(t, "__array_ufunc__", _NDARRAY_UFUNC)
    if ufunc is None:
        return "none"
    function = getattr(t, "__array_function__", _NDARRAY_FUNCTION)
    if ufunc is not _NDARRAY_UFUNC or function is not _NDARRAY_FUNCTION:
        return "numpy"
    return None


def overriding(values) -> str | None:
    """The strongest kind among `values` (operands, and out= arrays): "none", then "numpy", else None."""
    found = None
    for x in values:
        k = kind(x)
        if k == "none":
            return k
        if k is not None:
            found = k
    return found


def _defers(x) -> bool:
    return kind(x) == "numpy"


def deferring(fn, numpy_fn):
    """`fn`, handing a call whose first argument (or the first item of a first argument that is a list or
    tuple, as concatenate's) overrides NumPy to `numpy_fn`, which dispatches it as NumPy does: to the
    object's method for NumPy's reductions (`numpy.sum(series)` is `series.sum()`), to its
    `__array_function__` (NEP 18) otherwise."""
    import functools

    from arraystack._core.accelerator import fastpath
    from arraystack._core.array import ndarray

    if fastpath is not None:  # the C accelerator: the same test, without a Python frame per call
        out = fastpath.Deferring(fn, numpy_fn, _defers)
        functools.update_wrapper(out, fn)
        out.__module__ = "arraystack"  # public there: pickled by reference, as NumPy's functions are
        return out
    plain = (ndarray, np.ndarray)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if args:
            first = args[0]
            t = type(first)
            if (t is list or t is tuple) and first:
                first = first[0]
                t = type(first)
            if t not in plain and kind(first) == "numpy":
                return numpy_fn(*args, **kwargs)
        return fn(*args, **kwargs)

    call.__module__ = "arraystack"
    return call


def defers_to_numpy(fn):
    """Decorator: `deferring(fn, numpy.<fn's name>)`. On NumPy's functions that hand other objects to
    their methods (NumPy's _wrapreduction and _wrapfunc: sum, mean, clip, round, transpose, ...) and the
    common ones libraries implement through __array_function__ (concatenate, stack, sort, ...)."""
    return deferring(fn, getattr(np, fn.__name__))


__all__: list[str] = []  # internal: the families decorate their functions with defers_to_numpy
