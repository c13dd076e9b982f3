"""MaskedArray's methods that read or write values as NumPy's ndarray methods do on a masked array:
real and imaginary parts, conjugates, clip, fill, item, choose, dot, searchsorted, partitions, the
matrix transpose and the flat iterator. Data and mask are handled as numpy.ma handles them."""

from __future__ import annotations

import warnings

import arraystack as xp
from arraystack.ma._out import writes_out


def _ma():
    from arraystack.ma import _array

    return _array


def _data_of(value):
    """The data of a masked array (or of `masked`), anything else as it is."""
    return value._data if isinstance(value, _ma().MaskedArray) else value


class MaskedValues:
    """real, imag, get_real, get_imag, conj, conjugate, clip, fill, item, choose, dot, searchsorted,
    partition, argpartition, mT and flat of MaskedArray."""

    def _part(self, data):
        """A masked array of `data` with a copy of this array's mask and the default fill value."""
        mask = self._mask if self._mask is _ma().nomask else self._mask.copy()
        return _ma().MaskedArray._new(data, mask)

    def get_real(self):
        """The real part of the masked array (the method form of `real`).

        Returns
        -------
        real : MaskedArray
            The real part, with a copy of the mask and the default fill value.

        See Also
        --------
        numpy.ma.MaskedArray.get_real : The NumPy method this mirrors.
        """
        return self._part(self._data.real)

    def get_imag(self):
        """The imaginary part of the masked array (the method form of `imag`).

        Returns
        -------
        imag : MaskedArray
            The imaginary part, with a copy of the mask and the default fill value.

        See Also
        --------
        numpy.ma.MaskedArray.get_imag : The NumPy method this mirrors.
        """
        return self._part(self._data.imag)

    real = property(get_real, doc="The real part of the masked array (masked alike).")
    imag = property(get_imag, doc="The imaginary part of the masked array (masked alike).")

    def conjugate(self, out=None):
        """Return the complex conjugate, element-wise (the mask and fill value are kept).

        Parameters
        ----------
        out : MaskedArray, optional
            Where to write the result.

        Returns
        -------
        out : MaskedArray
            The conjugate.

        See Also
        --------
        numpy.ma.MaskedArray.conjugate : The NumPy method this mirrors.
        """
        if out is not None:  # the data written into out (and, for a masked out, the mask)
            result = self.conjugate()
            if isinstance(out, type(self)):
                out._data[...] = result._data
                out._mask = result._mask if result._mask is _ma().nomask else result._mask.copy()
            else:
                out[...] = result._data
            return out
        if self.dtype.kind != "c":
            return self  # as NumPy's method: a real array is its own conjugate
        mask = self._mask if self._mask is _ma().nomask else self._mask.copy()
        return self._like(xp.conjugate(self._data), mask)

    def conj(self, out=None):
        """Return the complex conjugate, element-wise (the mask and fill value are kept).

        Parameters
        ----------
        out : MaskedArray, optional
            Where to write the result.

        Returns
        -------
        out : MaskedArray
            The conjugate.

        See Also
        --------
        numpy.ma.MaskedArray.conj : The NumPy method this mirrors.
        """
        return self.conjugate(out)

    def clip(self, min=None, max=None, out=None, **kwargs):
        """Return an array whose values are limited to ``[min, max]``; masked bounds mask entries.

        Parameters
        ----------
        min, max : array_like, optional
            The bounds (either may be None); where a bound is masked, so is the result.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        **kwargs
            Ignored, as NumPy's ufunc keywords.

        Returns
        -------
        clipped : MaskedArray
            The clipped data, masked where the array or a bound is, keeping the fill value.

        See Also
        --------
        numpy.ma.MaskedArray.clip : The NumPy method this mirrors.
        """
        from arraystack.ma._masking import getmask, mask_or

        data = xp.clip(self._data, _data_of(min), _data_of(max))
        mask = self._mask
        for bound in (min, max):
            bound_mask = getmask(bound)
            if bound_mask is not _ma().nomask:
                mask = mask_or(mask, bound_mask, shrink=False)
        if mask is not _ma().nomask:
            mask = xp.broadcast_to(mask, data.shape).copy()
            if _ma().concrete(mask) and not bool(mask.any()):
                mask = _ma().nomask  # numpy.ma's clip drops a mask with nothing masked
        result = self._like(data, mask)
        result._sharedmask = False
        return result

    def fill(self, value) -> None:
        """Fill the data with a scalar value, in place (the mask is unchanged).

        Parameters
        ----------
        value : scalar
            All data entries are assigned this value; `masked` converts as NumPy converts it (nan
            for floats, with a warning; an error for integers).

        Raises
        ------
        MaskError
            If `value` is `masked` and the data are integers.

        See Also
        --------
        numpy.ma.MaskedArray.fill : The NumPy method this mirrors.
        """
        if value is _ma().masked and self.dtype.kind in "iu":
            raise _ma().MaskError("Cannot convert masked element to a Python int.")
        if value is _ma().masked and self.dtype.kind == "f":
            warnings.warn("Warning: converting a masked element to nan.", stacklevel=2)
            value = float("nan")
        self._data.fill(_data_of(value))

    def item(self, *args):
        """Copy an element of the data to a standard Python scalar and return it.

        Parameters
        ----------
        *args : int or tuple of ints
            None: the array must have one element; an int: a flat index; a tuple of ints: an
            index per axis.

        Returns
        -------
        z : Python scalar
            The element of the data; as numpy.ma's, a masked entry gives its data value.

        See Also
        --------
        numpy.ma.MaskedArray.item : The NumPy method this mirrors.
        """
        return self._data.item(*args)

    def choose(self, choices, out=None, mode="raise"):
        """Use this array as an index array to construct a new array from a set of choices.

        Parameters
        ----------
        choices : sequence of array_like
            The arrays to choose from (their masks are not read, as NumPy's method reads data).
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        mode : {'raise', 'wrap', 'clip'}, optional
            How out-of-bounds indices behave.

        Returns
        -------
        merged_array : MaskedArray
            The chosen entries, masked where the index is (where the result has the index
            array's size).

        See Also
        --------
        numpy.ma.MaskedArray.choose : The NumPy method this mirrors.
        numpy.ma.choose : The function, which also reads the masks of the choices.
        """
        if isinstance(choices, _ma().MaskedArray):
            choices = choices._data
        elif isinstance(choices, (list, tuple)):
            choices = [_data_of(choice) for choice in choices]
        data = xp.asarray(xp.choose(self._data, choices, mode=mode))
        mask = self._mask
        if mask is not _ma().nomask:
            # numpy.ma keeps the index array's mask when its size fits the result, else drops it
            mask = mask.reshape(data.shape) if mask.size == data.size else _ma().nomask
        return self._like(data, mask)

    def dot(self, b, out=None, strict=False):
        """Masked dot product of two arrays (as `numpy.ma.dot`).

        Parameters
        ----------
        b : masked_array_like
            The second operand.
        out : MaskedArray, optional
            Where to write the result (its data and mask).
        strict : bool, optional
            Whether masked data propagate to the whole row or column (True) or count as 0.

        Returns
        -------
        output : MaskedArray
            The product, masked where every pair of products is masked; `out` if given.

        See Also
        --------
        numpy.ma.MaskedArray.dot : The NumPy method this mirrors.
        numpy.ma.dot : The equivalent function.
        """
        from arraystack.ma._routines import dot

        result = dot(self, b, strict=strict)
        if out is None:
            return result
        out._data[...] = result._data
        out._mask = _ma().getmaskarray_of(result).copy()
        return out

    def searchsorted(self, v, side="left", sorter=None):
        """Find the indices where elements of `v` should be inserted to keep the data sorted.

        Parameters
        ----------
        v : array_like
            Values to insert; a masked array counts by its data.
        side : {'left', 'right'}, optional
            Which index a value equal to an entry gets.
        sorter : 1-D array_like, optional
            Indices that sort the data.

        Returns
        -------
        indices : ndarray of ints
            The insertion points (a plain array: the mask is not read, as numpy.ma's).

        See Also
        --------
        numpy.ma.MaskedArray.searchsorted : The NumPy method this mirrors.
        """
        return self._data.searchsorted(_data_of(v), side=side, sorter=_data_of(sorter))

    def partition(self, kth, axis=-1, kind="introselect", order=None) -> None:
        """Partially sort the data in place, ignoring the mask (with numpy.ma's warning).

        Parameters
        ----------
        kth : int or sequence of ints
            Element index (or indices) to partition by.
        axis : int, optional
            The axis along which to partition; the last by default.
        kind : {'introselect'}, optional
            Selection algorithm.
        order : str or list of str, optional
            Field order for structured arrays.

        See Also
        --------
        numpy.ma.MaskedArray.partition : The NumPy method this mirrors.
        """
        warnings.warn(
            f"Warning: 'partition' will ignore the 'mask' of the {type(self).__name__}.",
            stacklevel=2,
        )
        self._data.partition(kth, axis=axis, kind=kind, order=order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        """Return the indices that would partition the data, ignoring the mask (with a warning).

        Parameters
        ----------
        kth : int or sequence of ints
            Element index (or indices) to partition by.
        axis : int or None, optional
            The axis along which to partition; the last by default, the flattened array for None.
        kind : {'introselect'}, optional
            Selection algorithm.
        order : str or list of str, optional
            Field order for structured arrays.

        Returns
        -------
        index_array : MaskedArray
            The indices, with (as numpy.ma's) a copy of this array's mask in their shape.

        See Also
        --------
        numpy.ma.MaskedArray.argpartition : The NumPy method this mirrors.
        """
        warnings.warn(
            f"Warning: 'argpartition' will ignore the 'mask' of the {type(self).__name__}.",
            stacklevel=2,
        )
        indices = xp.asarray(self._data.argpartition(kth, axis=axis, kind=kind, order=order))
        mask = self._mask
        if mask is not _ma().nomask:
            mask = mask.reshape(indices.shape).copy()
        return self._like(indices, mask)

    @property
    def mT(self):
        """The matrix transpose: the last two axes of data and mask swapped.

        Raises
        ------
        ValueError
            If the array has fewer than two dimensions.

        See Also
        --------
        numpy.ma.MaskedArray.mT : The NumPy attribute this mirrors.
        """
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        mask = self._mask if self._mask is _ma().nomask else self._mask.mT
        out = _ma().MaskedArray._new(self._data.mT, mask)
        out._sharedmask = True
        return out

    @property
    def flat(self):
        """A flat iterator over the masked array; assigning to it sets the flattened array.

        See Also
        --------
        numpy.ma.MaskedArray.flat : The NumPy attribute this mirrors.
        """
        from arraystack.ma._iteration import MaskedIterator

        return MaskedIterator(self)

    @flat.setter
    def flat(self, value):
        # numpy.ma assigns to a raveled copy, so `value` broadcasts (not repeats) over the entries,
        # and an array without a mask stays without one (the mask is made on the copy)
        module = _ma()
        if self._mask is module.nomask:
            if value is not module.masked:
                data = xp.asarray(_data_of(value))
                self._data[...] = xp.broadcast_to(data, (self.size,)).reshape(self.shape)
            return
        if value is module.masked:
            self[...] = value
            return
        value = module.MaskedArray(value)
        self[...] = value._map(lambda a: xp.broadcast_to(a, (self.size,)).reshape(self.shape))


MaskedValues.clip = writes_out(MaskedValues.clip)
MaskedValues.choose = writes_out(MaskedValues.choose)
