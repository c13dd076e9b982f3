"""Reordering axes: rollaxis (numpy/_core/numeric.py), NumPy's older interface to moveaxis.

A composition of arraystack.transpose: concrete results are views of their input, as in NumPy.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from numpy.exceptions import AxisError
from numpy.lib.array_utils import normalize_axis_index

import arraystack as anp
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray

__all__ = ["rollaxis"]


@defers_to_numpy
def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> NDArray:
    """Roll the specified axis backwards, until it lies in a given position.

    This function continues to be supported for backward compatibility, but you should prefer
    `moveaxis`.

    Parameters
    ----------
    a : ndarray
        Input array.
    axis : int
        The axis to be rolled. The positions of the other axes do not change relative to one
        another.
    start : int, optional
        When ``start <= axis``, the axis is rolled back until it lies in this position. When
        ``start > axis``, the axis is rolled until it lies before this position. The default, 0,
        results in a "complete" roll.

    Returns
    -------
    res : ndarray
        A view of `a` (for a concrete `a`) with its axes reordered.

    See Also
    --------
    numpy.rollaxis : The NumPy function this mirrors.
    moveaxis, transpose, swapaxes
    """
    n = a.ndim
    axis = normalize_axis_index(axis, n)
    if start < 0:
        start += n
    msg = "'%s' arg requires %d <= %s < %d, but %d was passed in"
    if not (0 <= start < n + 1):
        raise AxisError(msg % ("start", -n, "start", n + 1, start))
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(operator.index(start), axis)
    return anp.transpose(a, axes)
