"""Masks along rows and columns (numpy.ma.extras): masking or dropping whole rows and columns that hold
a masked entry, counting masked entries, and the runs (slices) of masked and unmasked entries.

The run and edge functions return Python slices and index lists, so they read the mask on the host.
"""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack.ma._array import MaskedArray, nomask
from arraystack.ma._masking import getmask, getmaskarray


def count_masked(arr, axis=None):
    """Count the number of masked elements along the given axis.

    Parameters
    ----------
    arr : array_like
        An array with (possibly) masked elements.
    axis : int, optional
        Axis along which to count; the flattened array by default.

    Returns
    -------
    count : int or ndarray
        The number of masked elements.

    See Also
    --------
    numpy.ma.count_masked : The NumPy function this mirrors.
    """
    return getmaskarray(arr).sum(axis)


def compress_nd(x, axis=None):
    """Suppress the slices of a multi-dimensional array along `axis` that hold masked values.

    Parameters
    ----------
    x : array_like
        The array to operate on.
    axis : None or int or tuple of ints, optional
        The axes whose slices are suppressed; all by default.

    Returns
    -------
    compress_array : ndarray
        The data without the suppressed slices.

    See Also
    --------
    numpy.ma.compress_nd : The NumPy function this mirrors.
    """
    x = MaskedArray(x)
    mask = getmask(x)
    axes = range(x.ndim) if axis is None else np.lib.array_utils.normalize_axis_tuple(axis, x.ndim)
    if mask is nomask or not bool(mask.any()):
        return x._data
    if bool(mask.all()):
        return xp.asarray([])
    data = x._data
    for ax in axes:
        others = tuple(i for i in range(x.ndim) if i != ax)
        keep = xp.logical_not(mask.any(axis=others))
        data = data[(slice(None),) * ax + (keep,)]
    return data


def _two_dimensional(name, x):
    x = MaskedArray(x)
    if x.ndim != 2:
        raise NotImplementedError(f"{name} works for 2D arrays only.")
    return x


def compress_rowcols(x, axis=None):
    """Suppress the rows and/or columns of a 2-D array that contain masked values.

    Parameters
    ----------
    x : array_like
        The 2-D array to operate on.
    axis : {None, 0, 1}, optional
        Rows (0), columns (1) or both (None).

    Returns
    -------
    compressed_array : ndarray
        The data without those rows and columns.

    Raises
    ------
    NotImplementedError
        If `x` is not 2-D.

    See Also
    --------
    numpy.ma.compress_rowcols : The NumPy function this mirrors.
    """
    return compress_nd(_two_dimensional("compress_rowcols", x), axis=axis)


def compress_rows(a):
    """Suppress whole rows of a 2-D array that contain masked values.

    Parameters
    ----------
    a : array_like
        The 2-D array to operate on.

    Returns
    -------
    compressed_array : ndarray
        The data without those rows.

    See Also
    --------
    numpy.ma.compress_rows : The NumPy function this mirrors.
    """
    return compress_nd(_two_dimensional("compress_rows", a), axis=0)


def compress_cols(a):
    """Suppress whole columns of a 2-D array that contain masked values.

    Parameters
    ----------
    a : array_like
        The 2-D array to operate on.

    Returns
    -------
    compressed_array : ndarray
        The data without those columns.

    See Also
    --------
    numpy.ma.compress_cols : The NumPy function this mirrors.
    """
    return compress_nd(_two_dimensional("compress_cols", a), axis=1)


def mask_rowcols(a, axis=None):
    """Mask rows and/or columns of a 2D array that contain masked values.

    Parameters
    ----------
    a : array_like
        The 2-D array to mask (a copy is masked).
    axis : {None, 0, 1}, optional
        Mask rows (0), columns (1) or both (None).

    Returns
    -------
    a : MaskedArray
        A copy of the input with those rows and columns masked.

    Raises
    ------
    NotImplementedError
        If `a` is not 2-D.

    See Also
    --------
    numpy.ma.mask_rowcols : The NumPy function this mirrors.
    """
    a = _two_dimensional("mask_rowcols", a)
    mask = getmask(a)
    if mask is nomask or not bool(mask.any()):
        return a
    rows = mask.any(axis=1, keepdims=True)
    cols = mask.any(axis=0, keepdims=True)
    new = xp.zeros(a.shape, dtype=bool)
    if not axis:
        new = xp.logical_or(new, rows)
    if axis in (None, 1, -1):
        new = xp.logical_or(new, cols)
    return a._like(a._data, xp.logical_or(mask, new))


def mask_rows(a, axis=None):
    """Mask rows of a 2D array that contain masked values.

    Parameters
    ----------
    a : array_like
        The 2-D array to mask.
    axis : None
        Ignored, as in numpy.ma.

    Returns
    -------
    a : MaskedArray
        A copy of the input with those rows masked.

    See Also
    --------
    numpy.ma.mask_rows : The NumPy function this mirrors.
    """
    return mask_rowcols(a, 0)


def mask_cols(a, axis=None):
    """Mask columns of a 2D array that contain masked values.

    Parameters
    ----------
    a : array_like
        The 2-D array to mask.
    axis : None
        Ignored, as in numpy.ma.

    Returns
    -------
    a : MaskedArray
        A copy of the input with those columns masked.

    See Also
    --------
    numpy.ma.mask_cols : The NumPy function this mirrors.
    """
    return mask_rowcols(a, 1)


def _ezclump(mask):
    """The slices of the runs of True in a flattened boolean mask."""
    flags = np.asarray(xp.asarray(mask).ravel().tolist(), dtype=bool)  # read on the host
    if flags.size == 0:
        return []
    edges = np.flatnonzero(flags[1:] != flags[:-1]) + 1
    starts = np.concatenate([[0], edges]).tolist()
    ends = np.concatenate([edges, [flags.size]]).tolist()
    return [slice(s, e) for s, e in zip(starts, ends) if flags[s]]


def clump_unmasked(a):
    """Return list of slices corresponding to the unmasked clumps of a 1-D array.

    Parameters
    ----------
    a : ndarray
        A one-dimensional masked array.

    Returns
    -------
    slices : list of slice
        The runs of unmasked entries, in order.

    See Also
    --------
    numpy.ma.clump_unmasked : The NumPy function this mirrors.
    """
    mask = getmask(a)
    if mask is nomask:
        return [slice(0, xp.size(a))]
    return _ezclump(xp.logical_not(mask))


def clump_masked(a):
    """Returns a list of slices corresponding to the masked clumps of a 1-D array.

    Parameters
    ----------
    a : ndarray
        A one-dimensional masked array.

    Returns
    -------
    slices : list of slice
        The runs of masked entries, in order.

    See Also
    --------
    numpy.ma.clump_masked : The NumPy function this mirrors.
    """
    mask = getmask(a)
    return [] if mask is nomask else _ezclump(mask)


def flatnotmasked_contiguous(a):
    """Find contiguous unmasked data in a masked array (flattened).

    Parameters
    ----------
    a : array_like
        The input array.

    Returns
    -------
    slice_list : list
        The slices of the runs of unmasked entries of the flattened array.

    See Also
    --------
    numpy.ma.flatnotmasked_contiguous : The NumPy function this mirrors.
    """
    mask = getmask(a)
    if mask is nomask:
        return [slice(0, xp.size(a))]
    return _ezclump(xp.logical_not(mask))


def notmasked_contiguous(a, axis=None):
    """Find contiguous unmasked data in a masked array along the given axis.

    Parameters
    ----------
    a : array_like
        The input array (at most 2-D).
    axis : int, optional
        Axis along which to look; the flattened array by default.

    Returns
    -------
    endpoints : list
        The slices of the runs (a list of lists, one per 1-D slice, for an axis).

    Raises
    ------
    NotImplementedError
        For an array of more than two dimensions.

    See Also
    --------
    numpy.ma.notmasked_contiguous : The NumPy function this mirrors.
    """
    a = MaskedArray(a)
    if a.ndim > 2:
        raise NotImplementedError("Currently limited to at most 2D array.")
    if axis is None or a.ndim == 1:
        return flatnotmasked_contiguous(a)
    other = (axis + 1) % 2
    index = [0, 0]
    index[axis] = slice(None)
    result = []
    for i in range(a.shape[other]):
        index[other] = i
        result.append(flatnotmasked_contiguous(a[tuple(index)]))
    return result


def flatnotmasked_edges(a):
    """Find the indices of the first and last unmasked values (flattened).

    Parameters
    ----------
    a : array_like
        Input array.

    Returns
    -------
    edges : ndarray or None
        The first and last unmasked indices; None if every value is masked.

    See Also
    --------
    numpy.ma.flatnotmasked_edges : The NumPy function this mirrors.
    """
    mask = getmask(a)
    if mask is nomask or not bool(mask.any()):
        return xp.asarray([0, xp.size(a) - 1])
    unmasked = xp.flatnonzero(xp.logical_not(mask))
    return unmasked[xp.asarray([0, -1])] if unmasked.size else None


def notmasked_edges(a, axis=None):
    """Find the indices of the first and last unmasked values along an axis.

    Parameters
    ----------
    a : array_like
        The input array.
    axis : int, optional
        Axis along which to look; the flattened array by default.

    Returns
    -------
    edges : ndarray or list
        An array of the first and last indices (flattened), or a list of two tuples of index
        arrays (the first and the last unmasked entries along the axis).

    See Also
    --------
    numpy.ma.notmasked_edges : The NumPy function this mirrors.
    """
    a = MaskedArray(a)
    if axis is None or a.ndim == 1:
        return flatnotmasked_edges(a)
    mask = getmaskarray(a)
    grid = xp.indices(a.shape)
    index = MaskedArray(grid, mask=xp.broadcast_to(mask, grid.shape))
    return [
        tuple(index[i].min(axis).compressed() for i in range(a.ndim)),
        tuple(index[i].max(axis).compressed() for i in range(a.ndim)),
    ]
