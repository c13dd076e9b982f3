"""MaskedArray's selection and rearrangement methods: take, compress, nonzero, put, repeat, diagonal,
swapaxes, resize, argsort and sort. Each selects from the data and the mask alike."""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack.ma._out import writes_out


def _ma():
    from arraystack.ma import _array

    return _array


class MaskedSelection:
    """take, compress, nonzero, put, repeat, diagonal, swapaxes, resize, argsort and sort of MaskedArray."""

    def take(self, indices, axis=None, out=None, mode="raise"):
        """Take elements from the masked array along an axis (the mask is taken alike).

        Parameters
        ----------
        indices : array_like
            The indices of the values to extract; masked indices give masked entries.
        axis : int, optional
            The axis over which to select values; the flattened array by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        mode : {'raise', 'wrap', 'clip'}, optional
            How out-of-bounds indices behave.

        Returns
        -------
        out : MaskedArray, scalar or masked
            The selected entries (a scalar, or `masked`, for a single index).

        See Also
        --------
        numpy.ma.MaskedArray.take : The NumPy method this mirrors.
        """
        module = _ma()
        index_mask = getattr(indices, "_mask", module.nomask)
        if isinstance(indices, module.MaskedArray):
            indices = indices.filled(0)
        data = self._data.take(indices, axis=axis, mode=mode)
        if self._mask is module.nomask:
            mask = index_mask
        else:
            mask = self._mask.take(indices, axis=axis, mode=mode)
            if index_mask is not module.nomask:
                mask = xp.logical_or(mask, index_mask)
        # Note: NumPy's take views the data as a new masked array, so the fill value is the default
        return module.MaskedArray._new(xp.asarray(data), mask)[()]

    def compress(self, condition, axis=None, out=None):
        """Return the entries where `condition` is True (the mask is compressed alike).

        Parameters
        ----------
        condition : array_like of bool
            Which entries to keep; a masked condition counts by its data.
        axis : int, optional
            Axis along which to select; the flattened array by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.

        Returns
        -------
        result : MaskedArray
            The selected entries, keeping this array's fill value.

        See Also
        --------
        numpy.ma.MaskedArray.compress : The NumPy method this mirrors.
        """
        condition = getattr(condition, "_data", condition)
        return self._map(lambda a: a.compress(condition, axis=axis))

    def nonzero(self):
        """Return the indices of unmasked elements that are not zero.

        Returns
        -------
        tuple_of_arrays : tuple
            One index array per dimension, masked entries counting as zero.

        See Also
        --------
        numpy.ma.MaskedArray.nonzero : The NumPy method this mirrors.
        """
        return xp.nonzero(self.filled(0))

    def put(self, indices, values, mode="raise") -> None:
        """Set the entries at `indices` (of the flattened array) to `values`, in place.

        Parameters
        ----------
        indices : array_like of int
            Target indices, interpreted as integers.
        values : array_like
            Values to place; their mask is placed alike, and an unmasked value unmasks its entry.
        mode : {'raise', 'wrap', 'clip'}, optional
            How out-of-bounds indices behave.

        See Also
        --------
        numpy.ma.MaskedArray.put : The NumPy method this mirrors.
        """
        module = _ma()
        from arraystack.ma._masking import getmask, make_mask

        indices = xp.asarray(indices)
        if self._hardmask and self._mask is not module.nomask:
            keep = xp.logical_not(self._mask.ravel().take(indices, mode=mode))
            values = module.MaskedArray(values)
            values = values._map(lambda a: xp.resize(a, indices.shape))
            indices = indices[keep]
            values = values[keep]
        self._data.put(indices, getattr(values, "_data", values), mode=mode)
        if self._mask is module.nomask and getmask(values) is module.nomask:
            return
        mask = module.getmaskarray_of(self).copy()
        value_mask = getmask(values)
        mask.put(indices, False if value_mask is module.nomask else value_mask, mode=mode)
        self._mask = make_mask(mask, shrink=True)

    def repeat(self, repeats, axis=None):
        """Repeat elements of the array (the mask is repeated alike).

        Parameters
        ----------
        repeats : int or array of ints
            The number of repetitions for each element.
        axis : int, optional
            The axis along which to repeat; the flattened array by default.

        Returns
        -------
        repeated_array : MaskedArray
            The repeated entries.

        See Also
        --------
        numpy.ma.MaskedArray.repeat : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.repeat(repeats, axis=axis))

    def diagonal(self, offset=0, axis1=0, axis2=1):
        """Return the specified diagonals (the mask's diagonals alike).

        Parameters
        ----------
        offset : int, optional
            Offset of the diagonal from the main diagonal.
        axis1, axis2 : int, optional
            The axes of the 2-D sub-arrays whose diagonals are taken.

        Returns
        -------
        array_of_diagonals : MaskedArray
            The diagonals.

        See Also
        --------
        numpy.ma.MaskedArray.diagonal : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.diagonal(offset=offset, axis1=axis1, axis2=axis2))

    def swapaxes(self, axis1, axis2):
        """Return a view of the array with `axis1` and `axis2` interchanged (mask alike).

        Parameters
        ----------
        axis1, axis2 : int
            The axes to swap.

        Returns
        -------
        swapped : MaskedArray
            The swapped view.

        See Also
        --------
        numpy.ma.MaskedArray.swapaxes : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.swapaxes(axis1, axis2))

    def resize(self, newshape, refcheck=True, order=False):
        """Refuse to resize in place, as numpy.ma does: use the function `resize` instead.

        Parameters
        ----------
        newshape : tuple of ints
            The requested shape.
        refcheck, order
            Accepted for NumPy compatibility.

        Raises
        ------
        ValueError
            Always: a masked array does not own its data.

        See Also
        --------
        numpy.ma.MaskedArray.resize : The NumPy method this mirrors.
        """
        raise ValueError(
            "A masked array does not own its data and therefore cannot be resized.\n"
            "Use the numpy.ma.resize function instead."
        )

    def argsort(self, axis=np._NoValue, kind=None, order=None, endwith=True, fill_value=None):
        """Return the indices that would sort the array, masked entries last (first with endwith=False).

        Parameters
        ----------
        axis : int or None, optional
            The axis to sort along: the last one of a 1-d array; of more dimensions, by default all
            (flattened) with numpy.ma's FutureWarning.
        kind, order
            Accepted for NumPy compatibility (the sort is stable).
        endwith : bool, optional
            Whether masked entries go to the end.
        fill_value : scalar, optional
            The value masked entries sort as.

        Returns
        -------
        index_array : ndarray
            The sorting indices.

        See Also
        --------
        numpy.ma.MaskedArray.argsort : The NumPy method this mirrors.
        """
        from arraystack.ma._routines import argsort

        return argsort(self, axis, kind, order, endwith, fill_value)

    def sort(self, axis=-1, kind=None, order=None, endwith=True, fill_value=None) -> None:
        """Sort the array in place, masked entries last (first with endwith=False).

        Parameters
        ----------
        axis : int or None, optional
            The axis to sort along (the last by default; None sorts the flattened array).
        kind, order
            Accepted for NumPy compatibility (the sort is stable).
        endwith : bool, optional
            Whether masked entries go to the end.
        fill_value : scalar, optional
            The value masked entries sort as.

        See Also
        --------
        numpy.ma.MaskedArray.sort : The NumPy method this mirrors.
        """
        from arraystack.ma._routines import sort

        ordered = sort(
            self.ravel() if axis is None else self,
            0 if axis is None else axis,
            kind,
            order,
            endwith,
            fill_value,
        )
        if axis is None:
            ordered = ordered.reshape(self.shape)
        self._data[...] = ordered._data
        if self._mask is not _ma().nomask:
            self._mask[...] = ordered._mask


MaskedSelection.take = writes_out(MaskedSelection.take)
MaskedSelection.compress = writes_out(MaskedSelection.compress)
