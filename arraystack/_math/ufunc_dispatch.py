"""__array_ufunc__: a NumPy ufunc applied to arraystack arrays runs the arraystack function (so it
traces).

`__call__` runs the function of the ufunc's name; `reduce` and `accumulate` run the matching
reduction or scan (np.add.reduce -> sum, np.multiply.accumulate -> cumprod); `outer` broadcasts the
first operand over the second. Anything else returns NotImplemented, and NumPy raises its TypeError.
NumPy arrays given as out= are written (eager) and returned as themselves."""

from __future__ import annotations

import numpy as np

from arraystack._core.array import ndarray

_NoValue = np._NoValue
_ndarray_np = np.ndarray
_OPERAND_TYPES = (ndarray, _ndarray_np, np.generic, bool, int, float, complex, list, tuple)

# ufunc -> (its reduction in arraystack._math.reductions, the keywords of ufunc.reduce that one accepts)
_REDUCE = {
    np.add: ("sum", ("dtype", "initial")),
    np.multiply: ("prod", ("dtype", "initial")),
    np.maximum: ("max", ("initial",)),
    np.minimum: ("min", ("initial",)),
    np.logical_and: ("all", ()),
    np.logical_or: ("any", ()),
}
_ACCUMULATE = {np.add: "cumsum", np.multiply: "cumprod"}


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
    if method == "__call__":
        fn = _function(ufunc)
        result = NotImplemented if fn is None else fn(*inputs, **kwargs)
    elif method == "reduce":
        result = _reduce(ufunc, inputs, kwargs)
    elif method == "accumulate":
        result = _accumulate(ufunc, inputs, kwargs)
    elif method == "outer":
        result = _outer(ufunc, inputs, kwargs)
    else:
        result = NotImplemented
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


def _single_out(kwargs):
    out = kwargs.pop("out", None)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    return out


def _reduce(ufunc, inputs, kwargs):
    entry = _REDUCE.get(ufunc)
    if entry is None or len(inputs) != 1:
        return NotImplemented
    from arraystack._math import reductions as _reductions

    name, accepted = entry
    out = _single_out(kwargs)
    array = inputs[0]
    dtype = kwargs.pop("dtype", None)
    if dtype is not None and "dtype" not in accepted:
        from arraystack._creation.basic import astype

        array = astype(array, dtype)
    call = {"axis": kwargs.pop("axis", 0), "out": out, "keepdims": kwargs.pop("keepdims", False)}
    if "dtype" in accepted:
        call["dtype"] = dtype
    if "initial" in kwargs:
        if "initial" not in accepted:
            return NotImplemented
        call["initial"] = kwargs.pop("initial")
    where = kwargs.pop("where", True)
    if where is not True:
        call["where"] = where
    if kwargs:
        return NotImplemented
    return getattr(_reductions, name)(array, **call)


def _accumulate(ufunc, inputs, kwargs):
    name = _ACCUMULATE.get(ufunc)
    if name is None or len(inputs) != 1:
        return NotImplemented
    from arraystack._math import cumulative as _cumulative

    out = _single_out(kwargs)
    axis = kwargs.pop("axis", 0)
    dtype = kwargs.pop("dtype", None)
    if kwargs:
        return NotImplemented
    return getattr(_cumulative, name)(inputs[0], axis=axis, dtype=dtype, out=out)


def _outer(ufunc, inputs, kwargs):
    fn = _function(ufunc)
    if fn is None or len(inputs) != 2:
        return NotImplemented
    from arraystack._creation.basic import asarray
    from arraystack._manipulation.reshaping import reshape

    a, b = asarray(inputs[0]), asarray(inputs[1])
    return fn(reshape(a, tuple(a.shape) + (1,) * b.ndim), b, **kwargs)
