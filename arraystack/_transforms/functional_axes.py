"""Applying a function repeatedly over axes: apply_over_axes (numpy/lib/_shape_base_impl.py).

A loop over arraystack functions: it traces when `func` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from arraystack.typing import ArrayLike, AxisLike, NDArray

__all__ = ["apply_over_axes"]


def apply_over_axes(func: Callable[..., Any], a: ArrayLike, axes: AxisLike) -> NDArray:
    """Apply a function repeatedly over multiple axes.

    `func` is called as `res = func(a, axis)`, where `axis` is the first element of `axes`. The
    result `res` of the function call must have either the same dimensions as `a` or one less
    dimension. If `res` has one less dimension than `a`, a dimension is inserted before `axis`. The
    call to `func` is then repeated for each axis in `axes`, with `res` as the first argument.

    Parameters
    ----------
    func : function
        This function must take two arguments, `func(a, axis)`.
    a : array_like
        Input array (an object with an ``ndim``).
    axes : array_like
        Axes over which `func` is applied; the elements must be integers.

    Returns
    -------
    apply_over_axis : ndarray
        The output array. The number of dimensions is the same as `a`, but the shape can be
        different. This depends on whether `func` changes the shape of its output with respect to
        its input.

    See Also
    --------
    numpy.apply_over_axes : The NumPy function this mirrors.
    apply_along_axis
    """
    val = anp.asarray(a)
    n = a.ndim
    if np.array(axes).ndim == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = anp.expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct shape")
    return val
