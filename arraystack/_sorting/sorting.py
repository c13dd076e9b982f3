"""Sorting and searching: sort, argsort, lexsort, partition, argpartition, searchsorted, digitize, and the
ndarray methods sort/argsort/partition/argpartition/searchsorted.

Each is one primitive of jit/sorting.py (sort, partition, argpartition, searchsorted) plus shape handling,
so it runs eagerly with NumPy's results, traces, and has derivatives and vmap rules (jit/ad/rules_sorting.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, scalar_result, wrap
from arraystack._core.devices import constants_beside, constants_on_operand_device, host_values
from arraystack._core.interop import call_host
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import normalize_axis
from arraystack._creation.basic import asarray
from arraystack._transforms import result_layouts
from arraystack.ir.core import Tracer, bind, is_host_dtype, is_tracing
from arraystack.ir.primitives import convert_p, iota_p
from arraystack.ir.sorting import argpartition_p, partition_p, searchsorted_p, sort_p
from arraystack.ir.structural import gather_p, reshape_p, rev_p

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, NDArray

_INT64 = np.dtype(np.int64)
_KIND_BY_LETTER = {"q": "quicksort", "h": "heapsort", "m": "stable", "s": "stable"}


def _sort_kind(kind, stable):
    """NumPy's sort-kind argument: a name (only its first letter counts, as in NumPy) or stable=."""
    if stable is not None:
        if kind is not None:
            raise ValueError(
                "`kind` and keyword parameters can't be provided at the same time. "
                "Use only one of them."
            )
        return "stable" if stable else "quicksort"
    if kind is None:
        return "quicksort"
    name = str(kind)
    found = _KIND_BY_LETTER.get(name[:1].lower())
    if found is None:
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got '{name}')")
    return found


def _check_order(order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def _host(a) -> bool:
    """Whether `a` (an arraystack array) holds a host dtype: structured (sorted by `order`), object,
    datetime or string arrays, which NumPy sorts, eagerly (under a trace: a HostDtypeError)."""
    return is_host_dtype(a._value.dtype)


def _host_sort(function, a, axis, kind, order, stable, descending):
    """NumPy's sort or argsort of a host-dtype array; `descending` as for numbers: the sort of the
    flipped array, flipped."""
    options = {} if stable is None else {"stable": stable}
    if not descending:
        return call_host(function, (a, axis, kind, order), options)
    flipped = np.flip(a._value, axis)
    out = call_host(function, (flipped, axis, kind, order), options)._value
    if function is np.argsort:
        size = a.size if axis is None else a.shape[axis]
        out = size - 1 - out
    return wrap(np.flip(out, axis))


def _flat(x):
    """The raw value of `x` flattened to 1-d (NumPy's axis=None)."""
    return bind(reshape_p, x._value, new_sizes=(x.size,))


def _operand_and_axis(a, axis):
    a = asarray(a)
    if axis is None:
        return _flat(a), 0
    return a._value, normalize_axis(axis, a.ndim)


def _iota(shape, axis, like):
    """int64 indices along `axis`, on the device of the raw value `like`."""

    with constants_beside(like):
        return bind(iota_p, dtype=_INT64, shape=tuple(shape), dimension=axis)


def _flip(x, axis, descending):
    return bind(rev_p, x, dimensions=(axis,)) if descending else x


@defers_to_numpy
def sort(
    a: ArrayLike,
    axis: int | None = -1,
    kind: str | None = None,
    order: str | list[str] | None = None,
    *,
    stable: bool | None = None,
    descending: bool = False,
) -> NDArray:
    """Return a sorted copy of an array.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or None, optional
        Axis along which to sort; the last by default, None for the flattened array.
    kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
        Sorting algorithm; ties come out in NumPy's order for that kind (introsort, heapsort or stable).
    order : str or list of str, optional
        For structured arrays, the fields to compare first, then the others in order (NumPy sorts them).
    stable : bool, optional
        If True, use a stable sort (Array API keyword).
    descending : bool, optional
        Sort in descending order (an Array API keyword NumPy lacks).

    Returns
    -------
    sorted_array : ndarray
        Array of the same type and shape as `a`.

    See Also
    --------
    numpy.sort : The NumPy function this mirrors.
    argsort, lexsort, partition, searchsorted, ndarray.sort

    Notes
    -----
    NaNs sort last and complex numbers lexicographically, as in NumPy. `descending` is the Array API's
    keyword: the sort of the flipped array, flipped (as array-api-strict does), so equal elements keep
    their relative order and NaNs come first.
    """
    a = asarray(a)
    if _host(a):
        return _host_sort(np.sort, a, axis, kind, order, stable, descending)
    kind = _sort_kind(kind, stable)
    _check_order(order)
    x, axis = _operand_and_axis(a, axis)
    (out,) = bind(sort_p, _flip(x, axis, descending), dimension=axis, num_keys=1, kind=kind)
    result = wrap(_flip(out, axis, descending))
    if x is a._value:  # NumPy sorts a copy in a's memory order (order='K')
        result_layouts.copied(a, result)
    return result


@defers_to_numpy
def argsort(
    a: ArrayLike,
    axis: int | None = -1,
    kind: str | None = None,
    order: str | list[str] | None = None,
    *,
    stable: bool | None = None,
    descending: bool = False,
) -> NDArray:
    """Returns the indices that would sort an array.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or None, optional
        Axis along which to sort; the last by default, None for the flattened array.
    kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
        Sorting algorithm; ties come out in NumPy's order for that kind (introsort, heapsort or stable).
    order : str or list of str, optional
        For structured arrays, the fields to compare first, then the others in order (NumPy sorts them).
    stable : bool, optional
        If True, use a stable sort (Array API keyword).
    descending : bool, optional
        Sort in descending order (an Array API keyword NumPy lacks).

    Returns
    -------
    index_array : ndarray, int
        Indices that sort `a` along the axis.

    See Also
    --------
    numpy.argsort : The NumPy function this mirrors.
    sort, lexsort, take_along_axis

    Notes
    -----
    With `descending`, the indices refer to the original array; the result is the sort of the flipped
    array, flipped, so equal elements keep their relative order and NaNs come first.
    """
    a = asarray(a)
    if _host(a):
        return _host_sort(np.argsort, a, axis, kind, order, stable, descending)
    kind = _sort_kind(kind, stable)
    _check_order(order)
    if a.ndim == 0:  # NumPy sorts a 0-d operand as a 1-d one
        a = wrap(_flat(a))
    x, axis = _operand_and_axis(a, axis)
    shape = x.shape
    keys = _flip(x, axis, descending)
    _, index = bind(sort_p, keys, _iota(shape, axis, keys), dimension=axis, num_keys=1, kind=kind)
    if not descending:
        return wrap(index)
    return shape[axis] - 1 - wrap(_flip(index, axis, True))


@defers_to_numpy
@constants_on_operand_device
def lexsort(keys: ArrayLike | Sequence[ArrayLike], axis: int = -1) -> NDArray:
    """Perform an indirect stable sort using a sequence of keys.

    The last key is the primary sort key; ties are broken by the keys before it.

    Parameters
    ----------
    keys : (k, m, n, ...) array-like or tuple
        The k keys to sort by, each of shape ``(m, n, ...)``.
    axis : int, optional
        Axis to be indirectly sorted; the last by default.

    Returns
    -------
    indices : (m, n, ...) ndarray of ints
        Array of indices that sort the keys along the specified axis.

    See Also
    --------
    numpy.lexsort : The NumPy function this mirrors.
    argsort, sort
    """
    if isinstance(keys, (ndarray, np.ndarray)):
        keys = asarray(keys)
        if _host(keys):
            return call_host(np.lexsort, (keys, axis), {})
        keys = [keys] if keys.ndim == 0 else [keys[i] for i in range(keys.shape[0])]
    else:
        keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if any(_host(k) for k in keys):
        return call_host(np.lexsort, (keys, axis), {})
    if len({k.shape for k in keys}) != 1:
        raise ValueError("all keys need to be the same shape")
    if keys[0].ndim == 0:
        return wrap(np.int64(0))
    axis = normalize_axis(axis, keys[0].ndim)
    shape = keys[0].shape
    primary_first = [k._value for k in reversed(keys)]
    outs = bind(
        sort_p,
        *primary_first,
        _iota(shape, axis, primary_first[0]),
        dimension=axis,
        num_keys=len(keys),
        kind="stable",
    )
    return wrap(outs[-1])


def _kth_tuple(kth, n):
    kth = host_values(kth._value if isinstance(kth, ndarray) else kth)
    if kth.dtype.kind not in "iu" or kth.ndim > 1:
        raise TypeError("Partition index must be integer")
    result = []
    for k in kth.reshape(-1).tolist():
        if not -n <= k < n:
            raise ValueError(f"kth(={k + n if k < 0 else k}) out of bounds ({n})")
        result.append(k + n if k < 0 else k)
    return tuple(result)


def _partition_args(a, kth, axis, kind, order, function):
    """(operand, kth, axis) of a partition, or (result, None, None) for a host-dtype array: NumPy's
    `function` (numpy.partition or numpy.argpartition) computes it."""
    a = asarray(a)
    if _host(a):
        return call_host(function, (a, kth, axis, kind, order), {}), None, None
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got '{kind}')")
    _check_order(order)
    x, axis = _operand_and_axis(a, axis)
    return x, _kth_tuple(kth, x.shape[axis]), axis


@defers_to_numpy
def partition(
    a: ArrayLike,
    kth: int | Sequence[int],
    axis: int | None = -1,
    kind: str = "introselect",
    order: str | list[str] | None = None,
) -> NDArray:
    """Return a partitioned copy of an array.

    Parameters
    ----------
    a : array_like
        Input array.
    kth : int or sequence of ints
        Element index (or indices) to partition by: the k-th element is in its sorted position, smaller
        ones before it, larger ones after.
    axis : int or None, optional
        Axis along which to partition; -1 (the last) by default, None for the flattened array.
    kind : {'introselect'}, optional
        Selection algorithm.
    order : str or list of str, optional
        For structured arrays, the fields to compare first, then the others in order (NumPy sorts them).

    Returns
    -------
    partitioned_array : ndarray
        Array of the same type and shape as `a`.

    See Also
    --------
    numpy.partition : The NumPy function this mirrors.
    argpartition, sort

    Notes
    -----
    The order inside each part is NumPy's introselect order.
    """
    x, kth, axis = _partition_args(a, kth, axis, kind, order, np.partition)
    if kth is None:
        return x
    result = wrap(bind(partition_p, x, kth=kth, axis=axis))
    result_layouts.copied(a, result)  # NumPy partitions a copy in a's memory order (order='K')
    return result


@defers_to_numpy
def argpartition(
    a: ArrayLike,
    kth: int | Sequence[int],
    axis: int | None = -1,
    kind: str = "introselect",
    order: str | list[str] | None = None,
) -> NDArray:
    """Perform an indirect partition along the given axis.

    Parameters
    ----------
    a : array_like
        Input array.
    kth : int or sequence of ints
        Element index (or indices) to partition by: the k-th element is in its sorted position, smaller
        ones before it, larger ones after.
    axis : int or None, optional
        Axis along which to partition; -1 (the last) by default, None for the flattened array.
    kind : {'introselect'}, optional
        Selection algorithm.
    order : str or list of str, optional
        For structured arrays, the fields to compare first, then the others in order (NumPy sorts them).

    Returns
    -------
    index_array : ndarray, int
        Indices that partition `a` along the axis.

    See Also
    --------
    numpy.argpartition : The NumPy function this mirrors.
    partition, argsort, take_along_axis
    """
    a = asarray(a)
    if a.ndim == 0:  # as argsort
        a = wrap(_flat(a))
    x, kth, axis = _partition_args(a, kth, axis, kind, order, np.argpartition)
    if kth is None:
        return x
    return wrap(bind(argpartition_p, x, kth=kth, axis=axis))


def _as_raw(x, dtype):
    v = x._value
    if v.dtype == dtype:
        return v
    return bind(convert_p, v, dtype=dtype)


@defers_to_numpy
def searchsorted(
    a: ArrayLike,
    v: ArrayLike,
    side: str = "left",
    sorter: ArrayLike | None = None,
) -> NDArray:
    """Find indices where elements should be inserted to maintain order.

    Parameters
    ----------
    a : 1-D array_like
        Input array, sorted in ascending order unless `sorter` is given.
    v : array_like
        Values to insert into `a`.
    side : {'left', 'right'}, optional
        'left' gives the first suitable index, 'right' the last.
    sorter : array_like of int, optional
        Indices that sort `a` into ascending order.

    Returns
    -------
    indices : ndarray of ints
        Array of insertion points, with the same shape as `v`.

    See Also
    --------
    numpy.searchsorted : The NumPy function this mirrors.
    sort, digitize, histogram

    Notes
    -----
    NaNs sort last, as in NumPy. Every entry of `sorter` is checked, eagerly and under a trace: one
    outside ``[0, len(a))`` raises NumPy's ValueError ("Sorter index out of range."). NumPy checks only
    the entries its binary search reads (none when `v` is empty), so it can return a result for a
    sorter with a bad entry that arraystack refuses.
    """
    if side not in ("left", "right"):
        if isinstance(side, str) and side[:1].lower() in ("l", "r"):
            raise ValueError("search side must be one of 'left' or 'right'")
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError(
            "object of too small depth for desired array"
            if a.ndim == 0
            else "object too deep for desired array"
        )
    # Note: NumPy searches in the promotion of both dtypes, Python scalars counting as int64/float64
    v = asarray(v)
    if _host(a) or _host(v):
        return call_host(np.searchsorted, (a, v, side, sorter), {})
    dtype = np.promote_types(a.dtype, v.dtype)
    av = _as_raw(a, dtype)
    if sorter is not None:
        sorter = asarray(sorter)
        if sorter.size != a.size or sorter.ndim != 1:
            raise ValueError("sorter.size must equal a.size")
        if sorter.dtype.kind not in "iu":
            raise TypeError("Cannot cast sorter to integer indices")
        # Note: every entry of sorter is checked (NumPy's ValueError); NumPy checks only those its
        # binary search visits, and none when v is empty, so it may search through a bad sorter
        mode = "sorter" if v.size else "clip"
        av = bind(gather_p, av, _as_raw(sorter, _INT64), mode=mode)
    # a scalar v gives NumPy's scalar (np.int64), an array v an array
    return scalar_result(wrap(bind(searchsorted_p, av, _as_raw(v, dtype), side=side)))


def _bins_decreasing(bins):
    """NumPy's monotonicity check of digitize on concrete bins (compared as float64, as NumPy does):
    True for decreasing, False for increasing, ValueError for neither; None when the bins are traced."""
    value = bins._value
    if type(value) is Tracer or is_tracing():
        return None
    edges = host_values(value).astype(np.float64).tolist()
    i = 1
    while i < len(edges) and edges[i] == edges[0]:
        i += 1
    if i >= len(edges):
        return False
    increasing = edges[i - 1] < edges[i]
    for last, nxt in zip(edges[i:], edges[i + 1 :]):
        if (last > nxt) if increasing else (last < nxt):
            raise ValueError("bins must be monotonically increasing or decreasing")
    return not increasing


@defers_to_numpy
@constants_on_operand_device
def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False) -> NDArray:
    """Return the indices of the bins to which each value in input array belongs.

    Parameters
    ----------
    x : array_like
        Input array to be binned.
    bins : array_like
        1-D monotonic array of bin edges.
    right : bool, optional
        Whether the intervals include the right or the left bin edge.

    Returns
    -------
    indices : ndarray of ints
        Output array of indices, of the same shape as `x`.

    See Also
    --------
    numpy.digitize : The NumPy function this mirrors.
    bincount, histogram, searchsorted

    Notes
    -----
    With traced `bins` their monotonicity cannot be checked: increasing order is assumed unless
    ``bins[0] > bins[-1]``, which selects the decreasing formula.
    """
    x, bins = asarray(x), asarray(bins)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError(
            "object of too small depth for desired array"
            if bins.ndim == 0
            else "object too deep for desired array"
        )
    side = "left" if right else "right"
    n = bins.shape[0]
    decreasing = _bins_decreasing(bins)
    if decreasing is False or n == 0:
        return searchsorted(bins, x, side=side)
    reversed_bins = wrap(bind(rev_p, bins._value, dimensions=(0,)))
    down = n - searchsorted(reversed_bins, x, side=side)
    if decreasing:
        return down
    from arraystack._math.elementwise_functions import where

    return where(bins[0] > bins[n - 1], down, searchsorted(bins, x, side=side))


__all__ = ["argpartition", "argsort", "digitize", "lexsort", "partition", "searchsorted", "sort"]
