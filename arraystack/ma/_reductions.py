"""MaskedArray's reductions: they skip masked entries (filling them with the operation's identity) and
mask the result where every entry reduced was masked; a fully masked scalar result is `masked`."""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack._core.array import scalar_result
from arraystack.ma._fill import maximum_fill, minimum_fill
from arraystack.ma._out import writes_out


def _ma():
    from arraystack.ma import _array

    return _array


def _all_masked(mask, axis, keepdims):
    """The result's mask: True where every reduced entry is masked (nomask for no mask)."""
    if mask is _ma().nomask:
        return mask
    return mask.all(axis=axis, keepdims=keepdims)


def _reduced(self, result, newmask, fill=None):
    """A reduction's result with its mask: `masked` for a masked scalar, a MaskedArray otherwise."""
    module = _ma()
    result = xp.asarray(result)
    if result.ndim == 0:
        if newmask is not module.nomask and module.concrete(newmask):
            return module.masked if bool(newmask) else result
        if newmask is module.nomask:
            return result
    out = module.MaskedArray._new(result, newmask)
    if fill is not None and newmask is not module.nomask:
        out._data = xp.where(newmask, xp.asarray(out.fill_value).astype(result.dtype), result)
    return out


def _unmasked(self, result):
    """The statistic of an unmasked array: NumPy's scalar where 0-d, else a masked array keeping the
    fill value (numpy.ma computes it on the masked array itself)."""
    result = xp.asarray(result)
    if result.ndim == 0:
        return scalar_result(result)
    return self._like(result, _ma().nomask)


def _keep(kwargs):
    return bool(kwargs.get("keepdims", False))


class MaskedReductions:
    """sum, prod, mean, var, std, min, max, argmin, argmax, any, all, count, cumsum, cumprod, trace and
    anom."""

    def count(self, axis=None, keepdims=False):
        """Count the non-masked elements of the array along the given axis.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis or axes along which the count is performed; all by default.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        result : ndarray or int
            The number of unmasked entries.

        See Also
        --------
        numpy.ma.MaskedArray.count : The NumPy method this mirrors.
        """
        if self._mask is _ma().nomask:
            if axis is None and not keepdims:
                return self.size  # numpy.ma's: a Python int
            ones = xp.ones(self.shape, dtype=np.intp)
            return ones.sum(axis=axis, keepdims=keepdims)
        return xp.logical_not(self._mask).sum(axis=axis, keepdims=keepdims)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        """Return the sum of the array elements over the given axis, masked elements as 0.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which the sum is computed; the flattened array by default.
        dtype : dtype, optional
            The type of the result and of the accumulator.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        sum : MaskedArray, scalar array or masked
            Masked where all reduced entries are masked.

        See Also
        --------
        numpy.ma.MaskedArray.sum : The NumPy method this mirrors.
        """
        newmask = _all_masked(self._mask, axis, keepdims)
        result = self.filled(0).sum(axis=axis, dtype=dtype, keepdims=keepdims)
        return _reduced(self, result, newmask)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        """Return the product of the array elements over the given axis, masked elements as 1.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which the product is computed; the flattened array by default.
        dtype : dtype, optional
            The type of the result and of the accumulator.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        product : MaskedArray, scalar array or masked
            Masked where all reduced entries are masked.

        See Also
        --------
        numpy.ma.MaskedArray.prod : The NumPy method this mirrors.
        """
        newmask = _all_masked(self._mask, axis, keepdims)
        result = self.filled(1).prod(axis=axis, dtype=dtype, keepdims=keepdims)
        return _reduced(self, result, newmask)

    product = prod

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        """Returns the average of the array elements along given axis, skipping masked ones.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which the mean is computed; the flattened array by default.
        dtype : dtype, optional
            Type to use in computing the mean.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        mean : MaskedArray, scalar array or masked
            Masked where no entry was unmasked.

        See Also
        --------
        numpy.ma.MaskedArray.mean : The NumPy method this mirrors.
        """
        if self._mask is _ma().nomask:
            return _unmasked(self, self._data.mean(axis=axis, dtype=dtype, keepdims=keepdims))
        from arraystack.ma._elementwise import true_divide

        total = self.sum(axis=axis, dtype=dtype, keepdims=keepdims)
        count = self.count(axis=axis, keepdims=keepdims)
        if count.ndim == 0 and _ma().concrete(count) and int(count) == 0:
            return _ma().masked
        return scalar_result(true_divide(total * 1.0, count))  # NumPy's scalar where 0-d

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        """Compute the variance along the specified axis, skipping masked entries.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which the variance is computed; the flattened array by default.
        dtype : dtype, optional
            Type to use in computing the variance.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        ddof : int, optional
            Delta degrees of freedom: the divisor is ``N - ddof``.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        variance : MaskedArray, scalar array or masked
            Masked where fewer than ``ddof + 1`` entries were unmasked.

        See Also
        --------
        numpy.ma.MaskedArray.var : The NumPy method this mirrors.
        """
        module = _ma()
        if self._mask is module.nomask:
            return _unmasked(
                self, self._data.var(axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
            )
        from arraystack.ma._elementwise import absolute, true_divide

        count = self.count(axis=axis, keepdims=keepdims) - ddof
        anomalies = self - self.mean(axis=axis, dtype=dtype, keepdims=True)
        if np.issubdtype(self.dtype, np.complexfloating):
            anomalies = absolute(anomalies) ** 2
        else:
            anomalies = anomalies * anomalies
        dvar = true_divide(anomalies.sum(axis=axis, keepdims=keepdims), count)
        if not isinstance(dvar, module.MaskedArray):
            return scalar_result(dvar)
        if dvar.ndim == 0:
            if not module.concrete(dvar._mask):
                return dvar
            return module.masked if bool(dvar._mask) else scalar_result(dvar._data)
        from arraystack.ma._masking import shrink_mask

        mask = xp.logical_or(self._mask.all(axis=axis, keepdims=keepdims), count <= 0)
        return self._like(dvar._data, shrink_mask(mask))

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        """Returns the standard deviation along the given axis, skipping masked entries.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which it is computed; the flattened array by default.
        dtype : dtype, optional
            Type to use in computing the standard deviation.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        ddof : int, optional
            Delta degrees of freedom.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        std : MaskedArray, scalar array or masked
            The square root of `var`.

        See Also
        --------
        numpy.ma.MaskedArray.std : The NumPy method this mirrors.
        """
        dvar = self.var(axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
        if dvar is _ma().masked:
            return dvar
        from arraystack.ma._elementwise import sqrt

        return sqrt(dvar) if isinstance(dvar, _ma().MaskedArray) else xp.sqrt(dvar)

    def _extreme(self, name, fill, axis, fill_value, keepdims):
        newmask = _all_masked(self._mask, axis, keepdims)
        value = fill(self.dtype) if fill_value is None else fill_value
        result = getattr(self.filled(value), name)(axis=axis, keepdims=keepdims)
        return _reduced(self, result, newmask, fill=True)

    def min(self, axis=None, out=None, fill_value=None, keepdims=False):
        """Return the minimum along a given axis, skipping masked entries.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which to operate; the flattened array by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        fill_value : scalar, optional
            Value used to fill in the masked values; the dtype's largest by default.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        amin : MaskedArray, scalar array or masked
            Masked (holding the fill value) where all reduced entries are masked.

        See Also
        --------
        numpy.ma.MaskedArray.min : The NumPy method this mirrors.
        """
        return self._extreme("min", minimum_fill, axis, fill_value, keepdims)

    def max(self, axis=None, out=None, fill_value=None, keepdims=False):
        """Return the maximum along a given axis, skipping masked entries.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which to operate; the flattened array by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        fill_value : scalar, optional
            Value used to fill in the masked values; the dtype's smallest by default.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        amax : MaskedArray, scalar array or masked
            Masked (holding the fill value) where all reduced entries are masked.

        See Also
        --------
        numpy.ma.MaskedArray.max : The NumPy method this mirrors.
        """
        return self._extreme("max", maximum_fill, axis, fill_value, keepdims)

    def ptp(self, axis=None, out=None, fill_value=None, keepdims=False):
        """Return (maximum - minimum) along the given dimension, skipping masked entries.

        Parameters
        ----------
        axis : None or int, optional
            Axis along which to find the peaks; the flattened array by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        fill_value : scalar, optional
            Value used to fill in the masked values.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        ptp : MaskedArray, scalar or masked
            The range of the unmasked entries; masked where all reduced entries are masked.

        See Also
        --------
        numpy.ma.MaskedArray.ptp : The NumPy method this mirrors.
        """
        high = self.max(axis=axis, fill_value=fill_value, keepdims=keepdims)
        return high - self.min(axis=axis, fill_value=fill_value, keepdims=keepdims)

    def argmin(self, axis=None, fill_value=None, out=None, keepdims=False):
        """Return array of indices to the minimum values along the given axis (masked skipped).

        Parameters
        ----------
        axis : None or int, optional
            Axis along which to operate; the flattened array by default.
        fill_value : scalar, optional
            Value used to fill in the masked values; the dtype's largest by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        keepdims : bool, optional
            Keep the reduced axis with size one.

        Returns
        -------
        index_array : ndarray
            Indices (plain array: the result is never masked, as in NumPy).

        See Also
        --------
        numpy.ma.MaskedArray.argmin : The NumPy method this mirrors.
        """
        value = minimum_fill(self.dtype) if fill_value is None else fill_value
        return self.filled(value).argmin(axis=axis, keepdims=keepdims)

    def argmax(self, axis=None, fill_value=None, out=None, keepdims=False):
        """Returns array of indices of the maximum values along the given axis (masked skipped).

        Parameters
        ----------
        axis : None or int, optional
            Axis along which to operate; the flattened array by default.
        fill_value : scalar, optional
            Value used to fill in the masked values; the dtype's smallest by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        keepdims : bool, optional
            Keep the reduced axis with size one.

        Returns
        -------
        index_array : ndarray
            Indices (plain array: the result is never masked, as in NumPy).

        See Also
        --------
        numpy.ma.MaskedArray.argmax : The NumPy method this mirrors.
        """
        value = maximum_fill(self.dtype) if fill_value is None else fill_value
        return self.filled(value).argmax(axis=axis, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        """Returns True if any of the unmasked elements evaluate to True.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which to operate; the flattened array by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        result : MaskedArray, bool array or masked
            Masked where all reduced entries are masked.

        See Also
        --------
        numpy.ma.MaskedArray.any : The NumPy method this mirrors.
        """
        newmask = _all_masked(self._mask, axis, keepdims)
        return _reduced(self, self.filled(False).any(axis=axis, keepdims=keepdims), newmask)

    def all(self, axis=None, out=None, keepdims=False):
        """Returns True if all unmasked elements evaluate to True.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Axis along which to operate; the flattened array by default.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.
        keepdims : bool, optional
            Keep the reduced axes with size one.

        Returns
        -------
        result : MaskedArray, bool array or masked
            Masked where all reduced entries are masked.

        See Also
        --------
        numpy.ma.MaskedArray.all : The NumPy method this mirrors.
        """
        newmask = _all_masked(self._mask, axis, keepdims)
        return _reduced(self, self.filled(True).all(axis=axis, keepdims=keepdims), newmask)

    def cumsum(self, axis=None, dtype=None, out=None):
        """Return the cumulative sum over the given axis; masked entries stay masked (counted as 0).

        Parameters
        ----------
        axis : int, optional
            Axis along which the sum is computed; the flattened array by default.
        dtype : dtype, optional
            Type of the result and of the accumulator.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.

        Returns
        -------
        cumsum : MaskedArray
            The running sums, with the input's mask.

        See Also
        --------
        numpy.ma.MaskedArray.cumsum : The NumPy method this mirrors.
        """
        return self._cumulative("cumsum", 0, axis, dtype)

    def cumprod(self, axis=None, dtype=None, out=None):
        """Return the cumulative product over the given axis; masked entries stay masked (as 1).

        Parameters
        ----------
        axis : int, optional
            Axis along which the product is computed; the flattened array by default.
        dtype : dtype, optional
            Type of the result and of the accumulator.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.

        Returns
        -------
        cumprod : MaskedArray
            The running products, with the input's mask.

        See Also
        --------
        numpy.ma.MaskedArray.cumprod : The NumPy method this mirrors.
        """
        return self._cumulative("cumprod", 1, axis, dtype)

    def _cumulative(self, name, identity, axis, dtype):
        result = getattr(self.filled(identity), name)(axis=axis, dtype=dtype)
        mask = self._mask
        if mask is not _ma().nomask and axis is None:
            mask = mask.ravel()
        return _ma().MaskedArray._new(result, mask)  # NumPy's default fill value, as its view gives

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        """Return the sum along diagonals of the array, masked entries counted as 0.

        Parameters
        ----------
        offset : int, optional
            Offset of the diagonal from the main diagonal.
        axis1, axis2 : int, optional
            The axes of the 2-D sub-arrays whose diagonals are summed.
        dtype : dtype, optional
            The type of the result (float64 by default, as in numpy.ma).
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.

        Returns
        -------
        sum_along_diagonals : scalar, ndarray or MaskedArray
            The sums: a plain array where the input has a mask, a masked array otherwise.

        See Also
        --------
        numpy.ma.MaskedArray.trace : The NumPy method this mirrors.
        """
        # Note: numpy.ma casts to `dtype` even when it is None, so the result is float64 by default
        dtype = np.dtype(dtype)
        if self._mask is _ma().nomask:
            result = xp.asarray(self._data.trace(offset=offset, axis1=axis1, axis2=axis2))
            result = result.astype(dtype)
            if result.ndim == 0:
                return scalar_result(result)
            return _ma().MaskedArray._new(result)
        diagonals = self.diagonal(offset=offset, axis1=axis1, axis2=axis2).astype(dtype)
        return scalar_result(diagonals.filled(0).sum(axis=-1))

    def anom(self, axis=None, dtype=None):
        """Compute the anomalies (deviations from the arithmetic mean) along the given axis.

        Parameters
        ----------
        axis : int, optional
            Axis over which the anomalies are taken; the flattened array by default.
        dtype : dtype, optional
            Type to use in computing the mean.

        Returns
        -------
        anomalies : MaskedArray
            The array minus its mean, with the input's mask.

        See Also
        --------
        numpy.ma.MaskedArray.anom : The NumPy method this mirrors.
        """
        mean = self.mean(axis, dtype)
        if not axis:
            return self - mean
        if isinstance(mean, _ma().MaskedArray):
            return self - mean._map(lambda a: xp.expand_dims(a, axis))
        return self - xp.expand_dims(mean, axis)


for _name in (
    "sum", "prod", "min", "max", "ptp", "argmin", "argmax", "any", "all", "cumsum", "cumprod",
    "trace",
):  # fmt: skip
    setattr(MaskedReductions, _name, writes_out(getattr(MaskedReductions, _name)))
# numpy.ma's mean writes `out.flat = result`; its var and std do where the array has a mask (else
# they are ndarray's, with its checks)
MaskedReductions.mean = writes_out(MaskedReductions.mean, flat=lambda self: True)
for _name in ("var", "std"):
    setattr(
        MaskedReductions,
        _name,
        writes_out(getattr(MaskedReductions, _name), flat=lambda self: self._mask is not _ma().nomask),
    )
MaskedReductions.product = MaskedReductions.prod
