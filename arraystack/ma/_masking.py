"""Masks: reading them (getmask, getdata), building them (make_mask, mask_or) and masking by condition
(masked_where and its comparisons, masked_invalid, masked_values, fix_invalid)."""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack.ma._array import MaskedArray, concrete, getmaskarray_of, nomask


def getmask(a):
    """Return the mask of a masked array, or nomask.

    Parameters
    ----------
    a : array_like
        Input array.

    Returns
    -------
    mask : ndarray or nomask
        The mask of `a`; `nomask` if `a` is not a masked array or has no mask.

    See Also
    --------
    numpy.ma.getmask : The NumPy function this mirrors.
    getmaskarray
    """
    return getattr(a, "_mask", nomask)


def getmaskarray(arr):
    """Return the mask of a masked array, or a full boolean array of False.

    Parameters
    ----------
    arr : array_like
        Input array.

    Returns
    -------
    mask : ndarray
        A boolean array of `arr`'s shape.

    See Also
    --------
    numpy.ma.getmaskarray : The NumPy function this mirrors.
    getmask
    """
    if isinstance(arr, MaskedArray):
        return getmaskarray_of(arr)
    return xp.zeros(np.shape(xp.asarray(arr)), dtype=bool)


def getdata(a, subok=True):
    """Return the data of a masked array as an ndarray.

    Parameters
    ----------
    a : array_like
        Input array.
    subok : bool, optional
        Accepted for NumPy compatibility.

    Returns
    -------
    data : ndarray
        The data of `a` (a itself as an array if it is not masked).

    See Also
    --------
    numpy.ma.getdata : The NumPy function this mirrors.
    """
    if isinstance(a, MaskedArray):
        return a._data
    return xp.asarray(a)


def is_masked(x):
    """Determine whether input has masked values.

    Parameters
    ----------
    x : array_like
        Array to check for masked values.

    Returns
    -------
    result : bool
        True if `x` is a MaskedArray with masked values.

    See Also
    --------
    numpy.ma.is_masked : The NumPy function this mirrors.
    """
    mask = getmask(x)
    return mask is not nomask and bool(mask.any())


def isMaskedArray(x):
    """Test whether input is an instance of MaskedArray.

    Parameters
    ----------
    x : object
        Object to test.

    Returns
    -------
    result : bool
        True if `x` is a MaskedArray.

    See Also
    --------
    numpy.ma.isMaskedArray : The NumPy function this mirrors.
    """
    return isinstance(x, MaskedArray)


def make_mask(m, copy=False, shrink=True, dtype=np.bool_):
    """Create a boolean mask from an array.

    Parameters
    ----------
    m : array_like
        Potential mask (masked entries of a masked array count as True).
    copy : bool, optional
        Whether to return a copy of `m`.
    shrink : bool, optional
        Whether to shrink `m` to nomask if all its values are False.
    dtype : dtype, optional
        Data-type of the output mask (boolean).

    Returns
    -------
    result : ndarray or nomask
        A boolean mask.

    See Also
    --------
    numpy.ma.make_mask : The NumPy function this mirrors.
    """
    if m is nomask:
        return nomask
    if isinstance(m, MaskedArray):
        m = m.filled(True)
    result = xp.array(m, dtype=bool, copy=copy) if copy else xp.asarray(m).astype(bool, copy=False)
    return shrink_mask(result) if shrink else result


def shrink_mask(mask):
    """`nomask` for a concrete mask with nothing masked, else the mask."""
    if mask is nomask or not concrete(mask):
        return mask
    return mask if bool(mask.any()) else nomask


def mask_or(m1, m2, copy=False, shrink=True):
    """Combine two masks with the logical_or operator.

    Parameters
    ----------
    m1, m2 : array_like
        Input masks.
    copy : bool, optional
        Whether to return a copy.
    shrink : bool, optional
        Whether to shrink the output to nomask if all its values are False.

    Returns
    -------
    mask : ndarray or nomask
        The combined mask.

    See Also
    --------
    numpy.ma.mask_or : The NumPy function this mirrors.
    """
    if m1 is nomask or m1 is False:
        return make_mask(m2, copy=copy, shrink=shrink)
    if m2 is nomask or m2 is False:
        return make_mask(m1, copy=copy, shrink=shrink)
    return make_mask(xp.logical_or(m1, m2), copy=copy, shrink=shrink)


def masked_where(condition, a, copy=True):
    """Mask an array where a condition is met.

    Parameters
    ----------
    condition : array_like
        Masking condition; where True, `a` is masked.
    a : array_like
        Array to mask.
    copy : bool, optional
        If True (default) make a copy of `a` in the result.

    Returns
    -------
    result : MaskedArray
        `a` masked where `condition` is True (combined with `a`'s own mask).

    Raises
    ------
    IndexError
        If `condition` and `a` have different shapes.

    See Also
    --------
    numpy.ma.masked_where : The NumPy function this mirrors.
    """
    cond = make_mask(condition, shrink=False)
    source = a if isinstance(a, MaskedArray) else MaskedArray(a)
    data = source._data.copy() if copy else source._data
    if tuple(cond.shape) != tuple(data.shape):
        raise IndexError(
            "Inconsistent shape between the condition and the input "
            f"(got {tuple(cond.shape)} and {tuple(data.shape)})"
        )
    if source._mask is not nomask:
        cond = xp.logical_or(cond, source._mask)
    result = source._like(data, shrink_mask(cond))
    if result._mask is not nomask:
        result._mask = result._mask.copy() if copy else result._mask
    return result


def _masked_by(compare, name):
    def masked_compare(x, value, copy=True):
        return masked_where(getattr(xp, compare)(getdata(x), value), x, copy=copy)

    masked_compare.__name__ = masked_compare.__qualname__ = name
    return masked_compare


masked_greater = _masked_by("greater", "masked_greater")
masked_greater_equal = _masked_by("greater_equal", "masked_greater_equal")
masked_less = _masked_by("less", "masked_less")
masked_less_equal = _masked_by("less_equal", "masked_less_equal")
masked_not_equal = _masked_by("not_equal", "masked_not_equal")
for _fn, _op in [
    (masked_greater, ">"),
    (masked_greater_equal, ">="),
    (masked_less, "<"),
    (masked_less_equal, "<="),
    (masked_not_equal, "!="),
]:
    _fn.__doc__ = f"""Mask an array where `x {_op} value`.

    Parameters
    ----------
    x : array_like
        Array to mask.
    value : scalar or array_like
        The value compared with.
    copy : bool, optional
        If True (default) make a copy of `x` in the result.

    Returns
    -------
    result : MaskedArray
        `x` masked where the comparison holds.

    See Also
    --------
    numpy.ma.{_fn.__name__} : The NumPy function this mirrors.
    masked_where
    """


def masked_equal(x, value, copy=True):
    """Mask an array where equal to a given value (which becomes the fill value).

    Parameters
    ----------
    x : array_like
        Array to mask.
    value : scalar
        The value masked.
    copy : bool, optional
        If True (default) make a copy of `x` in the result.

    Returns
    -------
    result : MaskedArray
        `x` masked where it equals `value`, with `value` as fill value.

    See Also
    --------
    numpy.ma.masked_equal : The NumPy function this mirrors.
    """
    output = masked_where(xp.equal(getdata(x), value), x, copy=copy)
    output.fill_value = value
    return output


def masked_inside(x, v1, v2, copy=True):
    """Mask an array inside a given interval (both ends included, in either order).

    Parameters
    ----------
    x : array_like
        Array to mask.
    v1, v2 : scalar
        The ends of the interval.
    copy : bool, optional
        If True (default) make a copy of `x` in the result.

    Returns
    -------
    result : MaskedArray
        `x` masked where ``v1 <= x <= v2``.

    See Also
    --------
    numpy.ma.masked_inside : The NumPy function this mirrors.
    """
    v1, v2 = (v2, v1) if v2 < v1 else (v1, v2)
    xf = filled(x)
    return masked_where(xp.logical_and(xf >= v1, xf <= v2), x, copy=copy)


def masked_outside(x, v1, v2, copy=True):
    """Mask an array outside a given interval (ends excluded, in either order).

    Parameters
    ----------
    x : array_like
        Array to mask.
    v1, v2 : scalar
        The ends of the interval.
    copy : bool, optional
        If True (default) make a copy of `x` in the result.

    Returns
    -------
    result : MaskedArray
        `x` masked where ``x < v1`` or ``x > v2``.

    See Also
    --------
    numpy.ma.masked_outside : The NumPy function this mirrors.
    """
    v1, v2 = (v2, v1) if v2 < v1 else (v1, v2)
    xf = filled(x)
    return masked_where(xp.logical_or(xf < v1, xf > v2), x, copy=copy)


def masked_values(x, value, rtol=1e-5, atol=1e-8, copy=True, shrink=True):
    """Mask using floating point equality (integers compare exactly).

    Parameters
    ----------
    x : array_like
        Array to mask.
    value : float
        Masking value (it becomes the fill value).
    rtol, atol : float, optional
        Tolerances, as in `isclose`.
    copy : bool, optional
        Whether to return a copy of `x`.
    shrink : bool, optional
        Whether to collapse a mask full of False to nomask.

    Returns
    -------
    result : MaskedArray
        `x` masked where approximately equal to `value`.

    See Also
    --------
    numpy.ma.masked_values : The NumPy function this mirrors.
    """
    xnew = filled(x, value)
    if xnew.dtype.kind in "fc":
        mask = xp.isclose(xnew, value, atol=atol, rtol=rtol)
    else:
        mask = xp.equal(xnew, value)
    result = MaskedArray(xnew, mask=mask, copy=copy, fill_value=value)
    if shrink:
        result._mask = shrink_mask(result._mask)
    return result


def masked_invalid(a, copy=True):
    """Mask an array where invalid values occur (NaNs or infs).

    Parameters
    ----------
    a : array_like
        Array to mask.
    copy : bool, optional
        If True (default) make a copy of `a` in the result.

    Returns
    -------
    result : MaskedArray
        `a` masked where it is not finite (the mask is always a full array).

    See Also
    --------
    numpy.ma.masked_invalid : The NumPy function this mirrors.
    """
    result = masked_where(xp.logical_not(xp.isfinite(getdata(a))), a, copy=copy)
    if result._mask is nomask:
        result._mask = xp.zeros(result.shape, dtype=bool)
    return result


def fix_invalid(a, mask=nomask, copy=True, fill_value=None):
    """Return input with invalid data masked and replaced by a fill value.

    Parameters
    ----------
    a : array_like
        Input array.
    mask : sequence, optional
        Mask combined with the invalid entries.
    copy : bool, optional
        Whether to use a copy of `a` (True) or to fix `a` in place (False).
    fill_value : scalar, optional
        Value written at the invalid entries; the array's fill value by default.

    Returns
    -------
    b : MaskedArray
        The input with invalid entries masked and filled.

    See Also
    --------
    numpy.ma.fix_invalid : The NumPy function this mirrors.
    """
    result = MaskedArray(a, mask=mask, copy=copy)
    invalid = xp.logical_not(xp.isfinite(result._data))
    if concrete(invalid) and not bool(invalid.any()):
        return result
    result._mask = invalid if result._mask is nomask else xp.logical_or(result._mask, invalid)
    fill = result.fill_value if fill_value is None else fill_value
    result._data[...] = xp.where(invalid, xp.asarray(fill).astype(result.dtype), result._data)
    return result


def filled(a, fill_value=None):
    """Return input as an ndarray, with masked values replaced by `fill_value`.

    Parameters
    ----------
    a : MaskedArray or array_like
        An input object.
    fill_value : scalar, optional
        Filling value; the array's fill value by default.

    Returns
    -------
    a : ndarray
        The filled array.

    See Also
    --------
    numpy.ma.filled : The NumPy function this mirrors.
    """
    if isinstance(a, MaskedArray):
        return a.filled(fill_value)
    return xp.asarray(a)


def compressed(x):
    """Return all the non-masked data as a 1-D array.

    Parameters
    ----------
    x : array_like
        Input array.

    Returns
    -------
    result : ndarray
        The unmasked entries.

    See Also
    --------
    numpy.ma.compressed : The NumPy function this mirrors.
    """
    return (x if isinstance(x, MaskedArray) else MaskedArray(x)).compressed()


MaskType = np.bool_


def make_mask_descr(ndtype):
    """Construct a dtype description list from a given dtype: each field's type becomes boolean.

    Parameters
    ----------
    ndtype : dtype
        The dtype to convert.

    Returns
    -------
    result : dtype
        `bool` for a plain dtype; a structured dtype of booleans with the same field names.

    See Also
    --------
    numpy.ma.make_mask_descr : The NumPy function this mirrors.
    """
    dtype = np.dtype(ndtype)
    if dtype.names is None:
        return np.dtype(MaskType)
    return np.dtype([(name, make_mask_descr(dtype.fields[name][0])) for name in dtype.names])


def make_mask_none(newshape, dtype=None):
    """Return a boolean mask of the given shape, filled with False.

    Parameters
    ----------
    newshape : tuple
        The shape of the mask.
    dtype : dtype, optional
        A dtype whose mask description (`make_mask_descr`) the mask takes; bool by default.

    Returns
    -------
    result : ndarray
        An array of all False.

    See Also
    --------
    numpy.ma.make_mask_none : The NumPy function this mirrors.
    """
    return xp.zeros(newshape, dtype=MaskType if dtype is None else make_mask_descr(dtype))


def is_mask(m):
    """Return True if m is a valid, standard mask (an array of booleans).

    Parameters
    ----------
    m : array_like
        Array to test.

    Returns
    -------
    result : bool
        True if `m.dtype.type` is MaskType.

    See Also
    --------
    numpy.ma.is_mask : The NumPy function this mirrors.
    """
    dtype = getattr(m, "dtype", None)
    return dtype is not None and np.dtype(dtype).type is MaskType


isMA = isarray = isMaskedArray  # numpy.ma's aliases of isMaskedArray


def flatten_mask(mask):
    """Returns a completely flattened version of the mask, where nested fields are collapsed.

    Parameters
    ----------
    mask : array_like
        Input array, interpreted as booleans (a structured mask contributes each field).

    Returns
    -------
    flattened_mask : ndarray of bools
        The flattened input.

    See Also
    --------
    numpy.ma.flatten_mask : The NumPy function this mirrors.
    """
    mask = xp.asarray(mask)
    if mask.dtype.names is None:
        return mask.ravel().astype(bool)
    return xp.concatenate([flatten_mask(mask[name]) for name in mask.dtype.names])
