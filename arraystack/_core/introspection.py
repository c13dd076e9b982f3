"""Questions about an array's structure: ndim, shape, size (mirror NumPy's functions) and iterable.

They read static shapes, so they answer for traced values too, as the ndarray attributes do.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from arraystack._creation.basic import asarray
from arraystack._core.shapes import normalize_axis_tuple
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike

iterable = np.iterable


@defers_to_numpy
def ndim(a: ArrayLike) -> int:
    """Return the number of dimensions of an array.

    Parameters
    ----------
    a : array_like
        Input array; converted if it is not already an array.

    Returns
    -------
    number_of_dimensions : int
        The number of dimensions of `a`.

    See Also
    --------
    numpy.ndim : The NumPy function this mirrors.
    shape, size, ndarray.ndim
    """
    try:
        return a.ndim
    except AttributeError:
        return asarray(a).ndim


@defers_to_numpy
def shape(a: ArrayLike) -> tuple[int, ...]:
    """Return the shape of an array.

    Parameters
    ----------
    a : array_like
        Input array.

    Returns
    -------
    shape : tuple of ints
        The lengths of the array's dimensions.

    See Also
    --------
    numpy.shape : The NumPy function this mirrors.
    ndim, size, ndarray.shape
    """
    try:
        return a.shape
    except AttributeError:
        return asarray(a).shape


@defers_to_numpy
def size(a: ArrayLike, axis: AxisLike = None) -> int:
    """Return the number of elements along a given axis.

    Parameters
    ----------
    a : array_like
        Input data.
    axis : int or tuple of ints, optional
        Axis or axes along which the elements are counted; by default, all elements.

    Returns
    -------
    element_count : int
        Number of elements along the specified axis or axes.

    See Also
    --------
    numpy.size : The NumPy function this mirrors.
    shape, ndim, ndarray.size

    Notes
    -----
    `axis` may be a tuple of axes, as in NumPy 2.4.
    """
    if axis is None:
        try:
            return a.size
        except AttributeError:
            return asarray(a).size
    dims = shape(a)
    axes = normalize_axis_tuple(axis, len(dims))
    return math.prod(dims[ax] for ax in axes)


__all__ = ["iterable", "ndim", "shape", "size"]
