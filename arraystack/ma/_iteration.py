"""Iterating over masked arrays and applying a function over axes (numpy.ma.extras)."""

from __future__ import annotations

import arraystack as xp
from arraystack.ma._array import MaskedArray, masked
from arraystack.ma._masking import getdata, getmaskarray


def ndenumerate(a, compressed=True):
    """Multidimensional index iterator: yields (index, value) pairs, skipping masked entries.

    Parameters
    ----------
    a : array_like
        An array with (possibly) masked elements.
    compressed : bool, optional
        If True (default), masked elements are skipped; else they yield `masked`.

    Yields
    ------
    index : tuple of ints
        The index of the element.
    value : scalar or masked
        The element.

    See Also
    --------
    numpy.ma.ndenumerate : The NumPy function this mirrors.
    """
    flags = getmaskarray(a).ravel().tolist()  # the mask steers the iteration: read on the host
    for (index, value), is_masked in zip(xp.ndenumerate(getdata(a)), flags):
        if not is_masked:
            yield index, value
        elif not compressed:
            yield index, masked


def apply_over_axes(func, a, axes):
    """Apply a function repeatedly over multiple axes, keeping the number of dimensions.

    Parameters
    ----------
    func : callable
        Called as ``func(a, axis)``; returns an array of the same number of dimensions, or of
        one fewer (the axis is then put back with size one).
    a : array_like
        Input array.
    axes : int or sequence of ints
        The axes, in order.

    Returns
    -------
    apply_over_axis : MaskedArray
        The result, with `a`'s number of dimensions.

    Raises
    ------
    ValueError
        If `func` returns an array of another number of dimensions.

    See Also
    --------
    numpy.ma.apply_over_axes : The NumPy function this mirrors.
    """
    from arraystack.ma._function_forms import expand_dims

    value = MaskedArray(a)
    ndim = value.ndim
    for axis in (axes,) if xp.ndim(axes) == 0 else axes:
        axis = axis + ndim if axis < 0 else axis
        result = func(value, axis)
        if result.ndim != value.ndim:
            result = expand_dims(result, axis)
            if result.ndim != value.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        value = result
    return value
