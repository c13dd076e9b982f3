"""__array_ufunc__: a NumPy ufunc applied to arraystack arrays runs the arraystack function (so it
traces).

`__call__` runs the function of the ufunc's name, and its methods (`reduce`, `accumulate`,
`reduceat`, `outer`, `at`) the function's methods of that name (ufunc_methods.py). A ufunc arraystack
has no function for returns NotImplemented, and NumPy raises its TypeError. NumPy arrays given as
out= are written (eager) and returned as themselves."""

from __future__ import annotations

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.interop import call_numpy
from arraystack._core.overrides import numpy_subclass

_ndarray_np = np.ndarray
_OPERAND_TYPES = (ndarray, _ndarray_np, np.generic, bool, int, float, complex, list, tuple)


def _function(ufunc):
    """arraystack's function for one of NumPy's own ufuncs; None for another library's ufunc."""
    import arraystack

    if getattr(np, ufunc.__name__, None) is not ufunc:
        return None
    fn = getattr(arraystack, ufunc.__name__, None)
    return fn if callable(fn) else None


def array_ufunc(ufunc, method, inputs, kwargs):
    """ndarray.__array_ufunc__."""
    subclass = False
    for x in inputs + tuple(kwargs.get("out", ())):
        if x is not None and not isinstance(x, _OPERAND_TYPES):
            return NotImplemented  # another array type takes part: let it (or NumPy) decide
        subclass = subclass or (type(x) is not _ndarray_np and numpy_subclass(x))
    if subclass:  # numpy.matrix, a masked array: NumPy's ufunc on the buffers keeps its type
        return call_numpy(getattr(ufunc, method), inputs, kwargs)
    if getattr(np, ufunc.__name__, None) is not ufunc:
        return _foreign(ufunc, method, inputs, kwargs)
    originals = _numpy_outs(kwargs)
    fn = _function(ufunc)
    if method != "__call__":
        fn = getattr(fn, method, None)
    result = NotImplemented if fn is None else fn(*inputs, **kwargs)
    if originals and result is not NotImplemented:
        result = _restore(result, originals)
    return result


def _foreign(ufunc, method, inputs, kwargs):
    """Another library's ufunc (scipy.special.gamma, ...) on arraystack arrays: run eagerly on the NumPy
    buffers, results as arraystack arrays (out= arrays written and returned); on a traced value, an
    error naming the function and arraystack.scipy.special."""
    from arraystack.ir.core import Tracer, user_line

    out = kwargs.get("out") or ()
    values = [x._value if type(x) is ndarray else x for x in inputs]
    for x in values + [o._value for o in out if type(o) is ndarray]:
        if type(x) is Tracer:
            from arraystack.scipy import special

            name = ufunc.__name__
            hint = (
                f"arraystack.scipy.special.{name} traces"
                if name in special.__all__
                else f"arraystack.scipy.special has {', '.join(special.__all__)}"
            )
            raise TypeError(
                f"the ufunc {name} is another library's (scipy.special's, ...), not arraystack's: it needs "
                "concrete NumPy arrays, "
                f"and {x.aval.str_short()} is traced (at {user_line()}). {hint}; or call it outside "
                "jit/grad/vmap"
            )
    if out:
        kwargs = dict(kwargs, out=tuple(o._value if type(o) is ndarray else o for o in out))
    result = getattr(ufunc, method)(*values, **kwargs)
    if out:
        outs = tuple(out)
        return outs[0] if len(outs) == 1 else outs
    from arraystack._core.host_calls import wrap_result

    return wrap_result(result)


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
