"""Set routines: unique (and the Array API's unique_values/counts/inverse/all), intersect1d, union1d, setdiff1d,
setxor1d, isin.

unique is NumPy's sort-based algorithm on the sort primitive: a stable sort, a mask of first elements of
runs, nonzero of the mask. Its output shape depends on the data, so inside jit it needs `size=` (as in
jax.numpy.unique); otherwise it raises ShapeDependsOnDataError. isin keeps its shape: a binary search of
the sorted test elements, so it traces as is.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from arraystack._core.array import ndarray, wrap, wrap_array
from arraystack._core.devices import constants_beside, constants_on_operand_device
from arraystack._creation.basic import asarray, astype
from arraystack._creation.filled import full
from arraystack._creation.ranges import arange
from arraystack._core.dtypes import result_type
from arraystack._math.elementwise_functions import where
from arraystack._manipulation.joining import concatenate
from arraystack._manipulation.reshaping import moveaxis, ravel, reshape
from arraystack._math.reductions import any as any_
from arraystack._core.shapes import normalize_axis
from arraystack._sorting.sorting import searchsorted, sort
from arraystack.ir.core import ShapeDependsOnDataError, Tracer, bind, is_tracing
from arraystack.ir.primitives import iota_p, isnan_p
from arraystack.ir.sorting import sort_p
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray, ScalarLike

_INT64 = np.dtype(np.int64)


class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray


class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray


class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray


def _stable_order(keys, n):
    """(sorted keys, the int64 permutation) of a lexicographic stable sort of 1-d keys of length n."""
    with constants_beside(keys[0]._value):
        iota = bind(iota_p, dtype=_INT64, shape=(n,), dimension=0)
    outs = bind(
        sort_p, *[k._value for k in keys], iota, dimension=0, num_keys=len(keys), kind="stable"
    )
    return [wrap(o) for o in outs[:-1]], wrap(outs[-1])


def _first_of_runs(differs, n):
    """A bool mask of length n: True at 0 and where `differs` (length n - 1) says a new run starts."""
    return concatenate([full((min(n, 1),), True), differs])


def _nonzero_or_explain(mask, size, fill_value):
    from arraystack._indexing.subscripts import nonzero

    try:
        return nonzero(mask, size=size, fill_value=fill_value)[0]
    except ShapeDependsOnDataError as e:
        raise ShapeDependsOnDataError(
            "unique (and the set functions built on it: intersect1d, union1d, setdiff1d, setxor1d) "
            "returns as many elements as the data has distinct values, so it cannot be traced with a "
            "fixed shape. Pass size=n (arraystack.unique(x, size=n, fill_value=...)) to get exactly n "
            "values, or call it outside jit."
        ) from e


def _sorted_runs(a, axis, equal_nan):
    """(sorted rows, permutation, run-start mask, row count, row shape) of a along axis (None: flat)."""
    if axis is None:
        flat = ravel(a)
        n = flat.shape[0]
        (aux,), perm = _stable_order([flat], n)
        differs = aux[1:] != aux[:-1]
        if equal_nan and aux.dtype.kind in "fc" and n:
            nan = wrap(bind(isnan_p, aux._value))
            differs = differs & ~(nan[1:] & nan[:-1])
        return aux, perm, _first_of_runs(differs, n), n, ()
    moved = moveaxis(a, axis, 0)
    n = moved.shape[0]
    rows = reshape(moved, (n, -1))
    m = rows.shape[1]
    if m == 0:  # rows of no elements are all equal
        perm = arange(n)
        return rows, perm, _first_of_runs(full((max(n - 1, 0),), False), n), n, moved.shape[1:]
    _, perm = _stable_order([rows[:, j] for j in range(m)], n)
    aux = rows[perm]
    differs = any_(aux[1:] != aux[:-1], axis=1)
    return aux, perm, _first_of_runs(differs, n), n, moved.shape[1:]


def _unique_sorted(a, *args):
    """_sorted_unique with its constants on `a`'s device."""
    with constants_beside(a._value):
        return _sorted_unique(a, *args)


def _sorted_unique(
    a, return_index, return_inverse, return_counts, axis, equal_nan, size, fill_value
):
    aux, perm, mask, n, row_shape = _sorted_runs(a, axis, equal_nan)
    if size is None:
        starts = _nonzero_or_explain(mask, None, 0)
        values, valid = aux[starts], None
        ends = concatenate([starts[1:], full((min(n, 1),), n, dtype=_INT64)])
    else:
        size = operator.index(size)
        bounds = _nonzero_or_explain(mask, size + 1, n)  # padded with n: the end of the last run
        starts, ends = bounds[:size], bounds[1:]
        valid = starts < n
        starts = where(valid, starts, 0)
        if n == 0 and size:
            raise ValueError("unique: size= needs a non-empty input to fill the result from")
        picked = aux[starts]
        fill = aux[0] if fill_value is None else asarray(fill_value)
        cond = reshape(valid, (size,) + (1,) * (picked.ndim - 1))
        values = where(cond, picked, astype(fill, aux.dtype))
    if axis is not None:
        values = moveaxis(reshape(values, (values.shape[0],) + row_shape), 0, axis)
    ret = (values,)
    if return_index:
        index = perm[starts]
        ret += (index if valid is None else where(valid, index, 0),)
    if return_inverse:
        imask = mask.astype(_INT64).cumsum() - 1
        inverse = imask[_inverse_permutation(perm, n)]
        ret += (reshape(inverse, a.shape) if axis is None else inverse,)
    if return_counts:
        ret += (ends - starts if valid is None else where(valid, ends - starts, 0),)
    return ret


def _inverse_permutation(perm, n):
    _, inverse = _stable_order([perm], n)
    return inverse


@defers_to_numpy
def unique(
    ar: ArrayLike,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    sorted: bool = True,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> NDArray | tuple[NDArray, ...]:
    """Find the unique elements of an array.

    Parameters
    ----------
    ar : array_like
        Input array; flattened unless `axis` is given.
    return_index : bool, optional
        If True, also return the indices of `ar` that give the unique values.
    return_inverse : bool, optional
        If True, also return the indices of the unique array that reconstruct `ar`.
    return_counts : bool, optional
        If True, also return the number of times each unique value appears.
    axis : int or None, optional
        The axis to operate on; None flattens the input.
    equal_nan : bool, optional
        If True, collapse multiple NaNs into one.
    sorted : bool, optional
        If True (default), the unique values are sorted.
    size : int, optional
        An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
        or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
        Required inside `jit`, where output shapes must be static.
    fill_value : scalar, optional
        The padding value when `size` exceeds the number of unique values.

    Returns
    -------
    unique : ndarray
        The unique values.
    unique_indices : ndarray, optional
        Indices of the first occurrences (with `return_index`).
    unique_inverse : ndarray, optional
        Indices to reconstruct `ar` (with `return_inverse`).
    unique_counts : ndarray, optional
        The number of times each value appears (with `return_counts`).

    See Also
    --------
    numpy.unique : The NumPy function this mirrors.
    unique_values, unique_counts, unique_inverse, unique_all

    Notes
    -----
    Without `size` its output shape depends on the data, so it is not traceable under `jit`. With
    ``sorted=False`` NumPy's order is unspecified; eagerly it is NumPy's own (hash) order, and traced
    values come sorted.
    """
    a = asarray(ar)
    if axis is not None:
        axis = normalize_axis(axis, a.ndim)
    eager = not is_tracing() and type(a._value) is not Tracer
    if not sorted and eager and size is None and axis is None:
        result = np.unique(a._value, return_index, return_inverse, return_counts,
                           equal_nan=equal_nan, sorted=False)  # fmt: skip
        return tuple(wrap(r) for r in result) if isinstance(result, tuple) else wrap(result)
    ret = _unique_sorted(
        a, return_index, return_inverse, return_counts, axis, equal_nan, size, fill_value
    )
    return ret[0] if len(ret) == 1 else ret


@defers_to_numpy
def unique_values(
    x: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> NDArray:
    """Returns the unique elements of an input array (Array API).

    Parameters
    ----------
    x : array_like
        Input array; it is flattened.
    size : int, optional
        An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
        or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
        Required inside `jit`, where output shapes must be static.
    fill_value : scalar, optional
        The padding value when `size` exceeds the number of unique values.

    Returns
    -------
    out : ndarray
        The unique elements.

    See Also
    --------
    numpy.unique_values : The NumPy function this mirrors.
    unique, unique_all

    Notes
    -----
    NaNs are distinct. NumPy's order is unspecified; see `unique`.
    """
    return unique(x, equal_nan=False, sorted=False, size=size, fill_value=fill_value)


@defers_to_numpy
def unique_counts(
    x: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> tuple[NDArray, NDArray]:
    """Find the unique elements and their counts (Array API).

    Parameters
    ----------
    x : array_like
        Input array; it is flattened.
    size : int, optional
        An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
        or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
        Required inside `jit`, where output shapes must be static.
    fill_value : scalar, optional
        The padding value when `size` exceeds the number of unique values.

    Returns
    -------
    out : namedtuple
        ``(values, counts)``.

    See Also
    --------
    numpy.unique_counts : The NumPy function this mirrors.
    unique, unique_all
    """
    return UniqueCountsResult(
        *unique(x, return_counts=True, equal_nan=False, size=size, fill_value=fill_value)
    )


@defers_to_numpy
def unique_inverse(
    x: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> tuple[NDArray, NDArray]:
    """Find the unique elements and the indices that reconstruct the input (Array API).

    Parameters
    ----------
    x : array_like
        Input array; it is flattened.
    size : int, optional
        An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
        or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
        Required inside `jit`, where output shapes must be static.
    fill_value : scalar, optional
        The padding value when `size` exceeds the number of unique values.

    Returns
    -------
    out : namedtuple
        ``(values, inverse_indices)``; the inverse has the shape of `x`.

    See Also
    --------
    numpy.unique_inverse : The NumPy function this mirrors.
    unique, unique_all
    """
    return UniqueInverseResult(
        *unique(x, return_inverse=True, equal_nan=False, size=size, fill_value=fill_value)
    )


@defers_to_numpy
def unique_all(
    x: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> tuple[NDArray, NDArray, NDArray, NDArray]:
    """Find the unique elements of an array, and their first indices, inverse indices and counts (Array
    API).

    Parameters
    ----------
    x : array_like
        Input array; it is flattened.
    size : int, optional
        An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
        or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
        Required inside `jit`, where output shapes must be static.
    fill_value : scalar, optional
        The padding value when `size` exceeds the number of unique values.

    Returns
    -------
    out : namedtuple
        ``(values, indices, inverse_indices, counts)``.

    See Also
    --------
    numpy.unique_all : The NumPy function this mirrors.
    unique, unique_counts, unique_inverse, unique_values
    """
    result = unique(x, True, True, True, equal_nan=False, size=size, fill_value=fill_value)
    return UniqueAllResult(*result)


@defers_to_numpy
@constants_on_operand_device
def intersect1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    return_indices: bool = False,
) -> NDArray | tuple[NDArray, NDArray, NDArray]:
    """Find the intersection of two arrays.

    Parameters
    ----------
    ar1 : array_like
        First input array; flattened if not 1-D.
    ar2 : array_like
        Second input array; flattened if not 1-D.
    assume_unique : bool, optional
        If True, the inputs are assumed unique, which can speed up the calculation.
    return_indices : bool, optional
        If True, also return the indices of the first occurrences of the common values in `ar1` and
        `ar2`.

    Returns
    -------
    intersect1d : ndarray
        Sorted 1D array of common and unique elements.
    comm1 : ndarray
        Indices of the first occurrences in `ar1` (with `return_indices`).
    comm2 : ndarray
        Indices of the first occurrences in `ar2` (with `return_indices`).

    See Also
    --------
    numpy.intersect1d : The NumPy function this mirrors.
    union1d, setdiff1d, setxor1d, isin, unique

    Notes
    -----
    Its output shape depends on the data, so it is not traceable under `jit`.
    """
    ar1, ar2 = asarray(ar1), asarray(ar2)
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = ravel(ar1), ravel(ar2)
    aux = concatenate((ar1, ar2))
    (aux,), order = _stable_order([aux], aux.shape[0])
    mask = aux[1:] == aux[:-1]
    index = _nonzero_or_explain(mask, None, 0)
    common = aux[index]
    if not return_indices:
        return common
    ind_a = order[index]
    ind_b = order[index + 1] - ar1.size
    if not assume_unique:
        ind_a, ind_b = ind1[ind_a], ind2[ind_b]
    return common, ind_a, ind_b


@defers_to_numpy
@constants_on_operand_device
def union1d(ar1: ArrayLike, ar2: ArrayLike) -> NDArray:
    """Find the union of two arrays: the unique, sorted values in either.

    Parameters
    ----------
    ar1 : array_like
        First input array; flattened if not 1-D.
    ar2 : array_like
        Second input array; flattened if not 1-D.

    Returns
    -------
    union1d : ndarray
        Unique, sorted union of the input arrays.

    See Also
    --------
    numpy.union1d : The NumPy function this mirrors.
    intersect1d, setdiff1d, unique

    Notes
    -----
    Its output shape depends on the data, so it is not traceable under `jit`.
    """
    # as NumPy's: the operands as they are, so a Python number promotes weakly (NEP 50)
    return unique(concatenate((ar1, ar2), axis=None))


@defers_to_numpy
@constants_on_operand_device
def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> NDArray:
    """Find the set difference of two arrays: the unique values in `ar1` that are not in `ar2`.

    Parameters
    ----------
    ar1 : array_like
        Input array.
    ar2 : array_like
        Input comparison array.
    assume_unique : bool, optional
        If True, the inputs are assumed unique, which can speed up the calculation.

    Returns
    -------
    setdiff1d : ndarray
        1D array of values in `ar1` that are not in `ar2`, sorted when `ar1` is not assumed unique.

    See Also
    --------
    numpy.setdiff1d : The NumPy function this mirrors.
    intersect1d, union1d, setxor1d

    Notes
    -----
    Its output shape depends on the data, so it is not traceable under `jit`.
    """
    if assume_unique:
        ar1 = ravel(asarray(ar1))
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    keep = isin(ar1, ar2, assume_unique=True, invert=True)
    return ar1[_nonzero_or_explain(keep, None, 0)]


@defers_to_numpy
@constants_on_operand_device
def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> NDArray:
    """Find the set exclusive-or of two arrays: the unique values in exactly one of them.

    Parameters
    ----------
    ar1 : array_like
        First input array; flattened if not 1-D.
    ar2 : array_like
        Second input array; flattened if not 1-D.
    assume_unique : bool, optional
        If True, the inputs are assumed unique, which can speed up the calculation.

    Returns
    -------
    setxor1d : ndarray
        Sorted 1D array of unique values that are in only one of the input arrays.

    See Also
    --------
    numpy.setxor1d : The NumPy function this mirrors.
    intersect1d, union1d, setdiff1d

    Notes
    -----
    Its output shape depends on the data, so it is not traceable under `jit`.
    """
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate((asarray(ar1), asarray(ar2)), axis=None)
    if aux.size == 0:
        return aux
    aux = sort(aux)
    flag = concatenate((full((1,), True), aux[1:] != aux[:-1], full((1,), True)))
    return aux[_nonzero_or_explain(flag[1:] & flag[:-1], None, 0)]


@defers_to_numpy
@constants_on_operand_device
def isin(
    element: ArrayLike,
    test_elements: ArrayLike,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: str | None = None,
) -> NDArray:
    """Calculates ``element in test_elements``, broadcasting over `element` only.

    Parameters
    ----------
    element : array_like
        Input array.
    test_elements : array_like
        The values against which to test each value of `element`; flattened.
    assume_unique : bool, optional
        If True, the inputs are assumed unique, which can speed up the calculation.
    invert : bool, optional
        If True, the result is inverted (``element not in test_elements``).
    kind : {None, 'sort', 'table'}, optional
        The algorithm NumPy would use; the results are the same for every kind.

    Returns
    -------
    isin : ndarray, bool
        Has the same shape as `element`.

    See Also
    --------
    numpy.isin : The NumPy function this mirrors.
    unique, intersect1d

    Notes
    -----
    Membership uses ``==`` semantics, so NaN is never found. It is a binary search in the sorted test
    elements for every kind, so it keeps its shape under `jit`.
    """
    element, test = asarray(element), asarray(test_elements)
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if kind == "table" and not (element.dtype.kind in "biu" and test.dtype.kind in "biu"):
        raise ValueError(
            "The 'table' method is only supported for boolean or integer arrays. "
            "Please select 'sort' or None for kind."
        )
    dtype = result_type(element, test)
    if dtype.kind == "b":
        dtype = np.dtype(np.uint8)
    flat_test = astype(ravel(test), dtype)
    m = flat_test.shape[0]
    if m == 0:
        found = full(element.shape, False)
    else:
        hay = sort(flat_test)
        needle = astype(element, dtype)
        at = searchsorted(hay, needle)
        found = hay[where(at < m, at, m - 1)] == needle
    found = ~found if invert else found
    return wrap_array(found._value)  # an array, 0-d for a scalar element, as NumPy's


__all__ = [
    "intersect1d",
    "isin",
    "setdiff1d",
    "setxor1d",
    "union1d",
    "unique",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]
