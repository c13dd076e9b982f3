"""NumPy's function protocol for masked arrays: a NumPy (or arraystack) function applied to a MaskedArray
runs numpy.ma's function of the same name here, or the MaskedArray method of that name, so the mask is
kept; a function with neither runs on the data."""

from __future__ import annotations


def array_function(func, args, kwargs):
    """What `func(*args, **kwargs)` is when an argument is a MaskedArray."""
    from arraystack import ma
    from arraystack.ma._array import MaskedArray

    name = getattr(func, "__name__", "")
    target = getattr(ma, name, None)
    if callable(target) and target is not func:
        return target(*args, **kwargs)
    if args and isinstance(args[0], MaskedArray) and callable(getattr(MaskedArray, name, None)):
        return getattr(args[0], name)(*args[1:], **kwargs)
    data = [a._data if isinstance(a, MaskedArray) else a for a in args]
    implementation = getattr(func, "_implementation", func)
    return implementation(*data, **kwargs)
