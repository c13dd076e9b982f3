"""Weighted averages: average, written as numpy.average writes it, on the sums and mean of
_statistics, which re-exports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import wrap
from arraystack._core.shapes import normalize_axes
from arraystack._manipulation.reshaping import transpose
from arraystack._core.operands import broadcast_raw
from arraystack._math.reduce import NoValue, as_array, as_dtype, axes_of, binary, is_concrete
from arraystack._statistics.averages import mean, sum_raw
from arraystack.ir.core import bind
from arraystack.ir.primitives import copy_p, div_p, mul_p
from arraystack.ir.structural import reshape_p

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, NDArray


def _weights(weights, a, axis):
    """numpy's _weights_are_valid: the weights shaped to broadcast against `a`."""
    wgt = as_array(weights)
    if a.shape != wgt.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if wgt.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError(
                "Shape of weights must be consistent with shape of a along specified axis."
            )
        wgt = transpose(wgt, tuple(int(i) for i in np.argsort(axis)))
        shape = tuple(d if ax in axis else 1 for ax, d in enumerate(a.shape))
        wgt = wrap(bind(reshape_p, wgt._value, new_sizes=shape))
    return wgt


def average(
    a: ArrayLike,
    axis: AxisLike = None,
    weights: ArrayLike | None = None,
    returned: bool = False,
    *,
    keepdims: bool = False,
) -> NDArray | tuple[NDArray, NDArray]:
    """Compute the weighted average along the specified axis.

    Parameters
    ----------
    a : array_like
        Array containing data to be averaged.
    axis : None or int or tuple of ints, optional
        Axis or axes along which to average `a`; by default all elements.
    weights : array_like, optional
        Weights associated with the values in `a`, of the shape of `a` or 1-D along a single `axis`;
        by default all equal to one.
    returned : bool, optional
        If True, return ``(average, sum_of_weights)``.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.

    Returns
    -------
    retval, [sum_of_weights] : ndarray
        The average along the specified axis; with `returned`, also the sum of the weights,
        broadcast to the average's shape.

    See Also
    --------
    numpy.average : The NumPy function this mirrors.
    mean

    Notes
    -----
    A zero sum of weights raises ZeroDivisionError eagerly; traced, it is data the trace cannot see
    and gives inf/nan, no error.
    """
    a = as_array(a)
    if axis is not None:
        axis = normalize_axes(axis, a.ndim)
    keepdims = keepdims is not NoValue and bool(keepdims)
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        scl = avg.dtype.type(a.size / avg.size)
        scl = wrap(np.asarray(scl))
    else:
        wgt = _weights(weights, a, axis)
        if a.dtype.kind in "biu":
            dtype = np.result_type(a.dtype, wgt.dtype, "f8")
        else:
            dtype = np.result_type(a.dtype, wgt.dtype)
        axes = axes_of(axis, a.ndim)
        scl = sum_raw(as_dtype(wgt._value, dtype), axes, keepdims, True)
        if is_concrete(scl) and np.any(np.asarray(scl) == 0.0):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        # Note: traced, a zero sum of weights is data the trace cannot see; it gives inf/nan, no error.
        total = sum_raw(binary(mul_p, a._value, wgt._value, dtype), axes, keepdims, True)
        avg = wrap(binary(div_p, total, scl, dtype))
        scl = wrap(scl)
    if returned:
        if scl.shape != avg.shape:
            scl = wrap(bind(copy_p, broadcast_raw(scl._value, avg.shape)))
        return avg, scl
    return avg


__all__ = ["average"]
