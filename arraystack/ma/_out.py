"""`out=` of masked arrays' reductions and elementwise methods, as numpy.ma has it: the result's data is
written into `out` (its data, for a masked `out`), with NumPy's checks of the shape and of the casting,
the result's mask into a masked `out`'s mask, and `out` is returned."""

from __future__ import annotations

import functools
import inspect

import numpy as np

import arraystack as xp


def write_out(out, result):
    """`result` (a MaskedArray, an array, or `masked`) written into `out`; `out` returned."""
    from arraystack.ma import _array, _masking

    masked_out = isinstance(out, _array.MaskedArray)
    target = out._data if masked_out else out
    if not isinstance(target, (xp.ndarray, np.ndarray)):
        raise TypeError("return arrays must be of ArrayType")
    value = xp.asarray(_masking.getdata(result))
    if target.ndim != value.ndim:
        raise ValueError(
            "output parameter for reduction has the wrong number of dimensions: Found "
            f"{target.ndim} but expected {value.ndim}"
        )
    if tuple(target.shape) != tuple(value.shape):
        raise ValueError(
            f"output array has the wrong shape: {tuple(target.shape)}, the result's is "
            f"{tuple(value.shape)}"
        )
    if not np.can_cast(value.dtype, target.dtype, "same_kind"):
        raise TypeError(
            f"Cannot cast output from {value.dtype!r} to {target.dtype!r} with casting rule "
            "'same_kind'"
        )
    target[...] = value
    if masked_out:
        mask = _masking.getmaskarray(result)
        out._mask = xp.array(xp.broadcast_to(mask, tuple(target.shape)))
    return out


def writes_out(method):
    """`method` (with an `out` parameter it does not write) writing its result into a given `out`."""
    names = list(inspect.signature(method).parameters)
    at = names.index("out") - 1  # among the arguments after self

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        out = kwargs.pop("out", None)
        if len(args) > at:
            out, args = args[at], args[:at] + (None,) + args[at + 1 :]
        result = method(self, *args, **kwargs)
        return result if out is None else write_out(out, result)

    return wrapper
