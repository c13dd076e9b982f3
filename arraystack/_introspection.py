"""Questions about an array's structure: ndim, shape, size (mirror NumPy's functions) and iterable.

They read static shapes, so they answer for traced values too, as the ndarray attributes do.
"""

from __future__ import annotations

import math

import numpy as np

from arraystack._creation import asarray
from arraystack._shapes import normalize_axis_tuple

iterable = np.iterable


def ndim(a):
    """Mirrors numpy.ndim."""
    try:
        return a.ndim
    except AttributeError:
        return asarray(a).ndim


def shape(a):
    """Mirrors numpy.shape."""
    try:
        return a.shape
    except AttributeError:
        return asarray(a).shape


def size(a, axis=None):
    """Mirrors numpy.size (axis may be a tuple of axes, as in NumPy 2.4)."""
    if axis is None:
        try:
            return a.size
        except AttributeError:
            return asarray(a).size
    dims = shape(a)
    axes = normalize_axis_tuple(axis, len(dims))
    return math.prod(dims[ax] for ax in axes)


__all__ = ["iterable", "ndim", "shape", "size"]
