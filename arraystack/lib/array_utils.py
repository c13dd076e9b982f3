"""arraystack.lib.array_utils: small helpers for writing array functions (numpy.lib.array_utils):
`byte_bounds` of an array's memory, and the axis normalisation NumPy's functions use."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike

__all__ = ["byte_bounds", "normalize_axis_index", "normalize_axis_tuple"]


def byte_bounds(a: ArrayLike) -> tuple[int, int]:
    """Returns pointers to the end-points of an array.

    Parameters
    ----------
    a : ndarray
        Input array. It must conform to the Python-side of the array interface.

    Returns
    -------
    (low, high) : tuple of 2 integers
        The first integer is the first byte of the array, the second integer is just past the last
        byte of the array.

    See Also
    --------
    numpy.lib.array_utils.byte_bounds : The NumPy function this mirrors.

    Notes
    -----
    Concrete arrays only: the bounds are those of the NumPy buffer an eager array holds (a traced
    array raises ConcretizationError).
    """
    return np.lib.array_utils.byte_bounds(np.asarray(a))
