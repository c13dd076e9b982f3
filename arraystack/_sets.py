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

from arraystack._array import ndarray, wrap
from arraystack._creation import asarray, astype, full
from arraystack._creation_ranges import arange
from arraystack._dtypes import result_type
from arraystack._elementwise_functions import where
from arraystack._manipulation import concatenate, moveaxis, ravel, reshape
from arraystack._reductions import any as any_
from arraystack._shapes import normalize_axis
from arraystack._sorting import searchsorted, sort
from arraystack.ir.core import ShapeDependsOnDataError, Tracer, bind, is_tracing
from arraystack.ir.primitives import iota_p, isnan_p
from arraystack.ir.sorting import sort_p

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
    iota = bind(iota_p, dtype=_INT64, shape=(n,), dimension=0)
    outs = bind(
        sort_p, *[k._value for k in keys], iota, dimension=0, num_keys=len(keys), kind="stable"
    )
    return [wrap(o) for o in outs[:-1]], wrap(outs[-1])


def _first_of_runs(differs, n):
    """A bool mask of length n: True at 0 and where `differs` (length n - 1) says a new run starts."""
    return concatenate([full((min(n, 1),), True), differs])


def _nonzero_or_explain(mask, size, fill_value):
    from arraystack._indexing import nonzero

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


def _unique_sorted(
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
    """Find the unique elements of an array."""
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


def unique_values(
    x: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> NDArray:
    """Returns the unique elements of an input array (Array API)."""
    return unique(x, equal_nan=False, sorted=False, size=size, fill_value=fill_value)


def unique_counts(
    x: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> tuple[NDArray, NDArray]:
    """Find the unique elements and their counts (Array API)."""
    return UniqueCountsResult(
        *unique(x, return_counts=True, equal_nan=False, size=size, fill_value=fill_value)
    )


def unique_inverse(
    x: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> tuple[NDArray, NDArray]:
    """Find the unique elements and the indices that reconstruct the input (Array API)."""
    return UniqueInverseResult(
        *unique(x, return_inverse=True, equal_nan=False, size=size, fill_value=fill_value)
    )


def unique_all(
    x: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike | None = None,
) -> tuple[NDArray, NDArray, NDArray, NDArray]:
    """Find the unique elements of an array, and their first indices, inverse indices and counts (Array
    API)."""
    result = unique(x, True, True, True, equal_nan=False, size=size, fill_value=fill_value)
    return UniqueAllResult(*result)


def intersect1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    return_indices: bool = False,
) -> NDArray | tuple[NDArray, NDArray, NDArray]:
    """Find the intersection of two arrays."""
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


def union1d(ar1: ArrayLike, ar2: ArrayLike) -> NDArray:
    """Find the union of two arrays: the unique, sorted values in either."""
    return unique(concatenate((asarray(ar1), asarray(ar2)), axis=None))


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> NDArray:
    """Find the set difference of two arrays: the unique values in `ar1` that are not in `ar2`."""
    if assume_unique:
        ar1 = ravel(asarray(ar1))
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    keep = isin(ar1, ar2, assume_unique=True, invert=True)
    return ar1[_nonzero_or_explain(keep, None, 0)]


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> NDArray:
    """Find the set exclusive-or of two arrays: the unique values in exactly one of them."""
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate((asarray(ar1), asarray(ar2)), axis=None)
    if aux.size == 0:
        return aux
    aux = sort(aux)
    flag = concatenate((full((1,), True), aux[1:] != aux[:-1], full((1,), True)))
    return aux[_nonzero_or_explain(flag[1:] & flag[:-1], None, 0)]


def isin(
    element: ArrayLike,
    test_elements: ArrayLike,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: str | None = None,
) -> NDArray:
    """Calculates ``element in test_elements``, broadcasting over `element` only."""
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
    return ~found if invert else found


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


from arraystack._sets_docs import DOCS  # the docstrings, kept apart (line budget)

for _function in (
    intersect1d,
    isin,
    setdiff1d,
    setxor1d,
    union1d,
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
):
    _function.__doc__ = DOCS[_function.__name__]
