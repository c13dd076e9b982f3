"""Iterating over masked arrays (ndenumerate, the flat iterator) and applying a function over axes."""

from __future__ import annotations

import arraystack as xp
from arraystack.ma._array import MaskedArray, _raw_index, concrete, masked, nomask
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


class MaskedIterator:
    """Flat iterator over a masked array (what `MaskedArray.flat` returns).

    Iterates over the entries in C order, giving `masked` for a masked entry; indexing it with
    an integer gives an entry, with a slice or an index array a masked array; assigning through
    it writes the data and (where the array has a mask) the mask.

    Parameters
    ----------
    ma : MaskedArray
        The array iterated over.

    See Also
    --------
    numpy.ma.MaskedIterator : The NumPy class this mirrors.
    """

    def __init__(self, ma):
        self.ma = ma
        self.dataiter = ma._data.flat
        self.maskiter = None if ma._mask is nomask else ma._mask.flat

    def __iter__(self):
        return self

    def __getitem__(self, index):
        index = _raw_index(index)
        data = xp.asarray(self.dataiter[index])
        mask = nomask if self.maskiter is None else xp.asarray(self.maskiter[index])
        if data.ndim == 0 and mask is not nomask and concrete(mask):
            return masked if bool(mask) else data
        if data.ndim == 0 and mask is nomask:
            return data
        return MaskedArray._new(data, mask)

    def __setitem__(self, index, value):
        # numpy.ma writes the mask only where the array already has one
        index = _raw_index(index)
        self.dataiter[index] = getdata(value)
        if self.maskiter is not None:
            self.maskiter[index] = getmaskarray(value)

    def __next__(self):
        data = next(self.dataiter)
        if self.maskiter is not None and bool(next(self.maskiter)):
            return masked
        return data
