"""NumPy's function protocol for masked arrays: a NumPy (or arraystack) function applied to a MaskedArray
runs numpy.ma's function of the same name here, or the MaskedArray method of that name, so the mask is
kept. Of the functions with neither, those that move elements (flip, roll, tile, split, ...) move the mask
with the data, and those that compute element by element (real, isclose, nan_to_num, ...) mask where an
input is masked, as NumPy's do on its masked arrays; any other runs on the data."""

from __future__ import annotations

# functions of one array that only move its elements: the same call on the mask moves it alike
MOVING = frozenset(
    {
        "array_split", "broadcast_to", "delete", "dsplit", "flip", "fliplr", "flipud", "hsplit",
        "matrix_transpose", "moveaxis", "permute_dims", "roll", "rollaxis", "rot90", "split", "tile",
        "unstack", "vsplit",
    }
)  # fmt: skip
# functions computing each element from the inputs' elements at its place
ELEMENTWISE = frozenset(
    {
        "fix", "full_like", "i0", "imag", "iscomplex", "isclose", "isneginf", "isposinf", "isreal",
        "nan_to_num", "real", "sinc",
    }
)  # fmt: skip


def array_function(func, args, kwargs):
    """What `func(*args, **kwargs)` is when an argument is a MaskedArray."""
    from arraystack import ma
    from arraystack.ma._array import MaskedArray, getmaskarray_of

    name = getattr(func, "__name__", "")
    if name == "argsort" and len(args) < 2 and "axis" not in kwargs:
        kwargs = {**kwargs, "axis": -1}  # NumPy's default; numpy.ma's function flattens
    if name == "flatnonzero" and args and isinstance(args[0], MaskedArray):
        return ma.nonzero(ma.ravel(args[0]))[0]  # as NumPy's: nonzero of the raveled masked array
    target = getattr(ma, name, None)
    if callable(target) and target is not func:
        return target(*args, **kwargs)
    if args and isinstance(args[0], MaskedArray) and callable(getattr(MaskedArray, name, None)):
        return getattr(args[0], name)(*args[1:], **kwargs)
    data = [a._data if isinstance(a, MaskedArray) else a for a in args]
    implementation = getattr(func, "_implementation", func)
    if args and isinstance(args[0], MaskedArray) and name in MOVING:
        return _moved(implementation, args[0], data, kwargs)
    if name == "insert" and len(args) >= 3 and isinstance(args[0], MaskedArray):
        # the inserted values unmasked, the array's mask moved with its data
        values = implementation(*data, **kwargs)
        mask = implementation(getmaskarray_of(args[0]), args[1], False, *data[3:], **kwargs)
        return MaskedArray._new(values, mask, args[0]._fill_value, args[0]._hardmask)
    result = implementation(*data, **kwargs)
    if name in ELEMENTWISE:
        return _masked_where_inputs_are(result, args)
    return result


def _moved(implementation, array, data, kwargs):
    """The data and the mask moved by the same call; a list of results (split) pairs them up."""
    from arraystack.ma._array import MaskedArray, getmaskarray_of

    values = implementation(*data, **kwargs)
    masks = implementation(getmaskarray_of(array), *data[1:], **kwargs)
    fill = array._fill_value
    if isinstance(values, (list, tuple)):
        pairs = [MaskedArray._new(v, m, fill, array._hardmask) for v, m in zip(values, masks)]
        return type(values)(pairs)
    return MaskedArray._new(values, masks, fill, array._hardmask)


def _masked_where_inputs_are(result, args):
    """`result` masked where an array argument is (the masks broadcast to its shape)."""
    from arraystack.ma._array import MaskedArray, getmaskarray_of, xp

    inputs = [a for a in args if isinstance(a, MaskedArray)]
    if not hasattr(result, "shape") or not inputs:
        return result
    result = xp.asarray(result)
    mask = getmaskarray_of(inputs[0])
    for other in inputs[1:]:
        mask = xp.logical_or(mask, getmaskarray_of(other))
    mask = xp.broadcast_to(mask, result.shape).copy()
    first = inputs[0]  # its fill value, where the result keeps its dtype (else the default)
    fill = first._fill_value if result.dtype == first.dtype else None
    return MaskedArray._new(result, mask, fill)
