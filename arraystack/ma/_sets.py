"""Set routines of masked arrays (numpy.ma.extras): every masked entry counts as one value, equal to
itself and different from every unmasked value, and sorts after them."""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack.ma._array import MaskedArray
from arraystack.ma._masking import getdata, getmaskarray
from arraystack.ma._routines import argsort, concatenate


def _as_masked(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _taken(a, index):
    """`a[index]` for an integer or boolean arraystack index, the mask taken alike."""
    return a._map(lambda values: values[index])


def unique(ar1, return_index=False, return_inverse=False):
    """Finds the unique elements of an array; all masked entries count as one (masked) element.

    Parameters
    ----------
    ar1 : array_like
        Input array; flattened.
    return_index : bool, optional
        Also return the indices of the first occurrences of the unique values.
    return_inverse : bool, optional
        Also return the indices that reconstruct the input from the unique values.

    Returns
    -------
    unique : MaskedArray
        The sorted unique values, a masked entry last when the input has one.
    unique_indices, unique_inverse : ndarray, optional
        As requested.

    See Also
    --------
    numpy.ma.unique : The NumPy function this mirrors.
    """
    source = _as_masked(ar1)
    flat = source.ravel()
    perm = argsort(flat, axis=0)
    aux = _taken(flat, perm)
    mask = getmaskarray(aux)
    data = aux._data
    first = xp.ones(data.shape[:1], dtype=bool)
    if data.shape[0] > 1:
        differs = data[1:] != data[:-1]
        either = xp.logical_or(mask[1:], mask[:-1])
        differs = xp.where(either, mask[1:] != mask[:-1], differs)
        first = xp.concatenate([first[:1], differs])
    if data.shape[0] and data.dtype.kind in "cf" and not bool(mask[-1]):
        nan = xp.isnan(data)
        if bool(nan[-1]):
            # NumPy's equal_nan: the NaNs, sorted last, count as one value
            start = int(xp.argmax(nan))
            first = xp.where(xp.arange(data.shape[0]) > start, False, first)
            first[start] = True
    output = _taken(aux, first)
    if not (return_index or return_inverse):
        return output
    result = [output]
    if return_index:
        result.append(perm[first])
    if return_inverse:
        inverse = xp.empty(first.shape, dtype=np.intp)
        inverse[perm] = xp.cumsum(first) - 1
        result.append(inverse.reshape(source.shape) if source.ndim > 1 else inverse)
    return tuple(result)


def intersect1d(ar1, ar2, assume_unique=False):
    """Returns the unique elements common to both arrays (masked entries count as one value).

    Parameters
    ----------
    ar1, ar2 : array_like
        Input arrays.
    assume_unique : bool, optional
        Whether both inputs are known to be unique.

    Returns
    -------
    intersect1d : MaskedArray
        The sorted common values.

    See Also
    --------
    numpy.ma.intersect1d : The NumPy function this mirrors.
    """
    if assume_unique:
        aux = concatenate([_as_masked(ar1).ravel(), _as_masked(ar2).ravel()])
    else:
        aux = concatenate([unique(ar1), unique(ar2)])
    aux = _taken(aux, argsort(aux, axis=0))
    return _taken(aux[:-1], getdata(aux[1:] == aux[:-1]))


def setxor1d(ar1, ar2, assume_unique=False):
    """Set exclusive-or of 1-D arrays with unique elements.

    Parameters
    ----------
    ar1, ar2 : array_like
        Input arrays.
    assume_unique : bool, optional
        Whether both inputs are known to be unique.

    Returns
    -------
    setxor1d : MaskedArray
        The sorted values in exactly one of the inputs.

    See Also
    --------
    numpy.ma.setxor1d : The NumPy function this mirrors.
    """
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate([ar1, ar2], axis=None)
    if aux.size == 0:
        return aux
    aux = _taken(aux, argsort(aux, axis=0))
    filled = aux.filled()
    edge = xp.ones(1, dtype=bool)
    flag = xp.concatenate([edge, filled[1:] != filled[:-1], edge])
    return _taken(aux, flag[1:] == flag[:-1])


def in1d(ar1, ar2, assume_unique=False, invert=False):
    """Test whether each element of an array is also present in a second array (flattened).

    Parameters
    ----------
    ar1 : array_like
        Input array.
    ar2 : array_like
        The values against which to test each value of `ar1`.
    assume_unique : bool, optional
        Whether both inputs are known to be unique.
    invert : bool, optional
        Whether to return the negation (True where an element is not in `ar2`).

    Returns
    -------
    in1d : MaskedArray
        One boolean per element of `ar1` (flattened); masked where a masked element met one.

    See Also
    --------
    numpy.ma.in1d : The NumPy function this mirrors.
    isin
    """
    if assume_unique:
        ar1, ar2 = _as_masked(ar1).ravel(), _as_masked(ar2).ravel()
    else:
        ar1, inverse = unique(ar1, return_inverse=True)
        ar2 = unique(ar2)
    joined = concatenate([ar1, ar2])
    order = argsort(joined, axis=0)
    ordered = _taken(joined, order)
    same = ordered[1:] != ordered[:-1] if invert else ordered[1:] == ordered[:-1]
    flag = concatenate([same, [invert]])
    index = xp.argsort(order, kind="stable")[: ar1.shape[0]]
    result = _taken(flag, index)
    return result if assume_unique else _taken(result, inverse)


def isin(element, test_elements, assume_unique=False, invert=False):
    """Calculates `element in test_elements`, broadcasting over `element` only.

    Parameters
    ----------
    element : array_like
        Input array.
    test_elements : array_like
        The values against which to test each value of `element`.
    assume_unique : bool, optional
        Whether both inputs are known to be unique.
    invert : bool, optional
        Whether to return the negation.

    Returns
    -------
    isin : MaskedArray
        Booleans of `element`'s shape.

    See Also
    --------
    numpy.ma.isin : The NumPy function this mirrors.
    """
    element = MaskedArray(element)
    result = in1d(element, test_elements, assume_unique=assume_unique, invert=invert)
    return result.reshape(element.shape)


def union1d(ar1, ar2):
    """Union of two arrays: the unique values in either.

    Parameters
    ----------
    ar1, ar2 : array_like
        Input arrays (flattened).

    Returns
    -------
    union1d : MaskedArray
        The sorted unique values.

    See Also
    --------
    numpy.ma.union1d : The NumPy function this mirrors.
    """
    return unique(concatenate([_as_masked(ar1), _as_masked(ar2)], axis=None))


def setdiff1d(ar1, ar2, assume_unique=False):
    """Set difference of 1D arrays with unique elements: the values of `ar1` not in `ar2`.

    Parameters
    ----------
    ar1, ar2 : array_like
        Input arrays.
    assume_unique : bool, optional
        Whether both inputs are known to be unique.

    Returns
    -------
    setdiff1d : MaskedArray
        The values of `ar1` that are not in `ar2`.

    See Also
    --------
    numpy.ma.setdiff1d : The NumPy function this mirrors.
    """
    if assume_unique:
        ar1 = _as_masked(ar1).ravel()
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return _taken(ar1, getdata(in1d(ar1, ar2, assume_unique=True, invert=True)))


def ediff1d(arr, to_end=None, to_begin=None):
    """Compute the differences between consecutive elements of an array (flattened).

    Parameters
    ----------
    arr : array_like
        Input array.
    to_end, to_begin : array_like, optional
        Values appended and prepended to the differences.

    Returns
    -------
    ediff1d : MaskedArray
        The differences, masked where either operand is.

    See Also
    --------
    numpy.ma.ediff1d : The NumPy function this mirrors.
    """
    from arraystack.ma._joining import hstack

    flat = _as_masked(arr).ravel()
    differences = flat[1:] - flat[:-1]
    differences = MaskedArray._new(differences._data, differences._mask)  # NumPy's default fill
    arrays = [differences]
    if to_begin is not None:
        arrays.insert(0, to_begin)
    if to_end is not None:
        arrays.append(to_end)
    return hstack(arrays) if len(arrays) > 1 else differences
