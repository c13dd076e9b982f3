"""Masked array constructors: arraystack's creation functions as masked arrays (with numpy.ma's
fill_value and hardmask keywords), conversions, diagonals and fully masked arrays."""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack._math.ufunc import check_options
from arraystack.ma._array import MaskedArray, nomask
from arraystack.ma._fill import stored_default
from arraystack.ma._masking import getdata, getmask, make_mask, mask_or


def _converted(name, summary):
    """`arraystack.<name>` whose result is a masked array: numpy.ma's _convert2ma. A masked prototype
    (the *_like functions) passes on its mask and fill value."""

    def convert(*args, fill_value=None, hardmask=False, **kwargs):
        prototype = args[0] if args else kwargs.get("prototype")
        values = [a._data if isinstance(a, MaskedArray) else a for a in args]
        data = xp.asarray(getattr(xp, name)(*values, **kwargs))
        if name.endswith("_like") and isinstance(prototype, MaskedArray):
            mask = prototype._mask if prototype._mask is nomask else prototype._mask.copy()
            result = prototype._like(data, mask)
            result._hardmask = False
            if data.dtype != prototype.dtype and prototype.fill_value == stored_default(
                prototype.dtype
            ):
                result._fill_value = stored_default(data.dtype)
        else:
            result = MaskedArray._new(data)
        if fill_value is not None:
            result.fill_value = fill_value
        if hardmask:
            result._hardmask = True
        return result

    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = f"""{summary}

    Parameters
    ----------
    *args, **kwargs
        As for `arraystack.{name}`.
    fill_value : scalar, optional
        Fill value of the result.
    hardmask : bool, optional
        Whether the result's mask is hard.

    Returns
    -------
    out : MaskedArray
        `arraystack.{name}`'s result as a masked array (a masked prototype's mask kept).

    See Also
    --------
    numpy.ma.{name} : The NumPy function this mirrors.
    """
    return convert


empty_like = _converted("empty_like", "Return a new masked array with the same shape and type.")
zeros_like = _converted(
    "zeros_like", "Return a masked array of zeros with the same shape and type."
)
ones_like = _converted("ones_like", "Return a masked array of ones with the same shape and type.")
identity = _converted("identity", "Return the identity masked array.")
indices = _converted("indices", "Return a masked array representing the indices of a grid.")
frombuffer = _converted("frombuffer", "Interpret a buffer as a 1-dimensional masked array.")
fromfunction = _converted("fromfunction", "Construct a masked array by executing a function.")


def asarray(a, dtype=None, order=None):
    """Convert the input to a masked array of the given data-type (the input's mask kept).

    Parameters
    ----------
    a : array_like
        Input data.
    dtype : dtype, optional
        Data type of the output.
    order : {'C', 'F'}, optional
        Accepted for NumPy compatibility.

    Returns
    -------
    out : MaskedArray
        A new masked array over `a`'s data (no copy where none is needed).

    See Also
    --------
    numpy.ma.asarray : The NumPy function this mirrors.
    """
    if order is not None:
        check_options(order=order)  # NumPy's ValueError for an unknown order
    return MaskedArray(a, dtype=dtype)


def asanyarray(a, dtype=None, order=None):
    """Convert the input to a masked array, `a` itself when it already is one of that dtype.

    Parameters
    ----------
    a : array_like
        Input data.
    dtype : dtype, optional
        Data type of the output.
    order : {'C', 'F'}, optional
        Accepted for NumPy compatibility.

    Returns
    -------
    out : MaskedArray
        `a`, or a masked array over its data.

    See Also
    --------
    numpy.ma.asanyarray : The NumPy function this mirrors.
    """
    if order is not None:
        check_options(order=order)  # NumPy's ValueError for an unknown order
    if isinstance(a, MaskedArray) and (dtype is None or np.dtype(dtype) == a.dtype):
        return a
    return MaskedArray(a, dtype=dtype)


def diag(v, k=0):
    """Extract a diagonal or construct a diagonal array (the mask alike).

    Parameters
    ----------
    v : array_like
        A 2-D array (its `k`-th diagonal is returned) or a 1-D array (placed on the diagonal).
    k : int, optional
        Diagonal in question: above the main one for k > 0, below for k < 0.

    Returns
    -------
    out : MaskedArray
        The extracted diagonal or the constructed array.

    See Also
    --------
    numpy.ma.diag : The NumPy function this mirrors.
    """
    mask = getmask(v)
    data = xp.diag(getdata(v), k)
    mask = mask if mask is nomask else xp.diag(mask, k)
    if isinstance(v, MaskedArray) and v.ndim == 2:
        return v._like(data, mask)  # a diagonal is a view: NumPy keeps the fill value
    return MaskedArray._new(data, mask)


def masked_all(shape, dtype=float):
    """Empty masked array with all elements masked.

    Parameters
    ----------
    shape : int or tuple of ints
        Shape of the required MaskedArray.
    dtype : dtype, optional
        Data type of the output.

    Returns
    -------
    a : MaskedArray
        A masked array with every entry masked.

    See Also
    --------
    numpy.ma.masked_all : The NumPy function this mirrors.
    """
    data = xp.empty(shape, dtype=dtype)
    return MaskedArray._new(data, xp.ones(data.shape, dtype=bool))


def masked_all_like(arr):
    """Empty masked array with the properties of an existing array, all elements masked.

    Parameters
    ----------
    arr : array_like
        An array describing the shape and dtype (and, for a masked array, the fill value).

    Returns
    -------
    a : MaskedArray
        A masked array with every entry masked.

    See Also
    --------
    numpy.ma.masked_all_like : The NumPy function this mirrors.
    """
    data = xp.empty_like(getdata(arr))
    mask = xp.ones(data.shape, dtype=bool)
    if isinstance(arr, MaskedArray):
        result = arr._like(data, mask)
        result._hardmask = False
        return result
    return MaskedArray._new(data, mask)


def masked_object(x, value, copy=True, shrink=True):
    """Mask the array `x` where the data are exactly equal to `value` (which becomes the fill value).

    Parameters
    ----------
    x : array_like
        Array to mask (typically of object dtype).
    value : object
        Comparison value.
    copy : bool, optional
        Whether to return a copy of `x`.
    shrink : bool, optional
        Whether to collapse a mask full of False to nomask.

    Returns
    -------
    result : MaskedArray
        `x` masked where equal to `value`.

    See Also
    --------
    numpy.ma.masked_object : The NumPy function this mirrors.
    masked_equal
    """
    condition = xp.equal(getdata(x), value)
    mask = mask_or(getmask(x), make_mask(condition, shrink=shrink))
    return MaskedArray(x, mask=mask, copy=copy, fill_value=value)
