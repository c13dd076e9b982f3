"""__array_ufunc__: a NumPy ufunc applied to arraystack arrays runs the arraystack function (so it
traces).

`__call__` runs the function of the ufunc's name, and its methods (`reduce`, `accumulate`,
`reduceat`, `outer`, `at`) the function's methods of that name (ufunc_methods.py). A ufunc arraystack
has no function for returns NotImplemented, and NumPy raises its TypeError. NumPy arrays given as
out= are written (eager) and returned as themselves."""

from __future__ import annotations

import numpy as np

from arraystack._core.array import ndarray

_ndarray_np = np.ndarray
_OPERAND_TYPES = (ndarray, _ndarray_np, np.generic, bool, int, float, complex, list, tuple)


def _function(ufunc):
    import arraystack

    fn = getattr(arraystack, ufunc.__name__, None)
    return fn if callable(fn) else None


def array_ufunc(ufunc, method, inputs, kwargs):
    """ndarray.__array_ufunc__."""
    for x in inputs + tuple(kwargs.get("out", ())):
        if x is not None and not isinstance(x, _OPERAND_TYPES):
            return NotImplemented  # another array type takes part: let it (or NumPy) decide
    originals = _numpy_outs(kwargs)
    fn = _function(ufunc)
    if method != "__call__":
        fn = getattr(fn, method, None)
    result = NotImplemented if fn is None else fn(*inputs, **kwargs)
    if originals and result is not NotImplemented:
        result = _restore(result, originals)
    return result


def _numpy_outs(kwargs):
    """NumPy buffers given as out=, by id, so the results can be handed back as the same objects."""
    out = kwargs.get("out")
    if not out:
        return None
    found = {id(o): o for o in out if type(o) is _ndarray_np}
    return found or None


def _restore(result, originals):
    if isinstance(result, tuple):
        return tuple(_restore(r, originals) for r in result)
    if isinstance(result, ndarray):
        return originals.get(id(result._value), result)
    return result
