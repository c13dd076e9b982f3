"""`out=` of masked arrays' reductions and elementwise methods, as numpy.ma has it: the result's data is
written into `out` (its data, for a masked `out`), with NumPy's checks of the shape and of the casting,
the result's mask into a masked `out`'s mask, and `out` is returned."""

from __future__ import annotations

import functools
import inspect

import numpy as np

import arraystack as xp

# the ufunc whose reduction NumPy's MaskedArray method runs with `out` (named in its errors)
_REDUCTION_UFUNCS = {
    "sum": "add", "prod": "multiply", "min": "minimum", "max": "maximum", "ptp": "maximum",
    "any": "logical_or", "all": "logical_and", "var": "add", "std": "add", "mean": "add",
    "trace": "add",
}  # fmt: skip


def _target(out):
    """(whether `out` is a masked array, the array its data is written into); TypeError for another
    object, as NumPy's."""
    from arraystack.ma import _array

    masked_out = isinstance(out, _array.MaskedArray)
    target = out._data if masked_out else out
    if not isinstance(target, (xp.ndarray, np.ndarray)):
        raise TypeError("return arrays must be of ArrayType")
    return masked_out, target


def write_out(out, result, name=None):
    """`result` (a MaskedArray, an array, or `masked`) written into `out`, with the checks of the
    reduction `name` runs; `out` returned."""
    from arraystack.ma import _array, _masking

    masked_out, target = _target(out)
    if result is _array.masked and name in ("prod", "all"):
        value = xp.ones((), bool)  # numpy.ma reduces the data filled with the identity
    else:
        value = xp.asarray(_masking.getdata(result))
    if name in ("argmin", "argmax"):
        from arraystack._math.reduce import check_arg_out

        check_arg_out(name, target, tuple(value.shape))
    if target.ndim != value.ndim:
        operation = f" operation {_REDUCTION_UFUNCS[name]}" if name in _REDUCTION_UFUNCS else ""
        raise ValueError(
            f"output parameter for reduction{operation} has the wrong number of dimensions: Found "
            f"{target.ndim} but expected {value.ndim}"
        )
    if tuple(target.shape) != tuple(value.shape):
        raise ValueError(
            f"output array has the wrong shape: {tuple(target.shape)}, the result's is "
            f"{tuple(value.shape)}"
        )
    if name not in _REDUCTION_UFUNCS and not np.can_cast(value.dtype, target.dtype, "same_kind"):
        raise TypeError(
            f"Cannot cast output from {value.dtype!r} to {target.dtype!r} with casting rule "
            "'same_kind'"
        )
    target[...] = value.astype(target.dtype)  # a reduction's out takes any cast (NumPy's unsafe)
    mask = _masking.getmaskarray(result)
    if masked_out:
        out._mask = xp.array(xp.broadcast_to(mask, tuple(target.shape)))
        if name in ("min", "max", "ptp") and target.dtype.kind == "f":
            # under the mask: the reduction of the data filled with min's (max's) fill value
            target[...] = xp.where(mask, np.inf if name == "min" else -np.inf, target)
    elif name in ("min", "max", "ptp"):  # numpy.ma's: NaN where the result is masked, if it can
        if target.dtype.kind in "biu":
            raise _array.MaskError("Masked data information would be lost in one or more location.")
        target[...] = xp.where(mask, np.nan, target)
    return out


def write_flat(out, result, masked_as_nan=True):
    """numpy.ma's `out.flat = result` (mean, and var and std of an array with a mask): out's
    elements in C order take the result's, repeated or cut to out's size, cast as NumPy's flat
    assignment casts; a masked out takes the result's mask likewise. A result that is `masked`
    writes 0 and a full mask into a masked out, NaN into a float one, and raises MaskError for an
    integer one (NumPy's var; `masked_as_nan` False: `masked` is a 0 under a mask, as NumPy's
    mean writes it)."""
    from arraystack.ma import _array, _masking

    masked_out, target = _target(out)
    if result is _array.masked and not masked_as_nan:
        result = _array.MaskedArray._new(xp.zeros((), target.dtype), xp.ones((), bool))
    elif result is _array.masked:
        if masked_out:
            target[...] = 0
            out._mask = xp.ones(tuple(target.shape), bool)
        elif target.dtype.kind in "biu":
            raise _array.MaskError("Masked data information would be lost in one or more location.")
        else:
            target[...] = np.nan
        return out
    size = target.size
    value = xp.ravel(xp.asarray(_masking.getdata(result)))
    if size and value.size:
        target[...] = xp.reshape(xp.resize(value, size), tuple(target.shape)).astype(target.dtype)
    if masked_out:
        mask = xp.ravel(xp.asarray(_masking.getmaskarray(result)))
        out._mask = (
            xp.reshape(xp.resize(mask, size), tuple(target.shape))
            if mask.size
            else (xp.zeros(tuple(target.shape), bool))
        )
    return out


def writes_out(method, flat=None):
    """`method` (with an `out` parameter it does not write) writing its result into a given `out`:
    with the checks of its reduction, or as `out.flat = result` where `flat(self)` holds."""
    names = list(inspect.signature(method).parameters)
    at = names.index("out") - 1  # among the arguments after self
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        out = kwargs.pop("out", None)
        if len(args) > at:
            out, args = args[at], args[:at] + (None,) + args[at + 1 :]
        result = method(self, *args, **kwargs)
        if out is None:
            return result
        if flat is not None and flat(self):
            return write_flat(out, result, name != "mean")
        return write_out(out, result, name)

    return wrapper
