"""Sorting and searching: sort, argsort, lexsort, partition, argpartition, searchsorted, digitize, and the
ndarray methods sort/argsort/partition/argpartition/searchsorted.

Each is one primitive of jit/sorting.py (sort, partition, argpartition, searchsorted) plus shape handling,
so it runs eagerly with NumPy's results, traces, and has derivatives and vmap rules (jit/ad/rules_sorting.py).
"""

from __future__ import annotations

import numpy as np

from arraystack._array import ndarray, wrap
from arraystack._creation import asarray
from arraystack._shapes import normalize_axis
from arraystack.ir.core import Tracer, bind, is_tracing
from arraystack.ir.primitives import convert_p, iota_p
from arraystack.ir.sorting import argpartition_p, partition_p, searchsorted_p, sort_p
from arraystack.ir.structural import gather_p, reshape_p, rev_p

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


def _flat(x):
    """The raw value of `x` flattened to 1-d (NumPy's axis=None)."""
    return bind(reshape_p, x._value, new_sizes=(x.size,))


def _operand_and_axis(a, axis):
    a = asarray(a)
    if axis is None:
        return _flat(a), 0
    return a._value, normalize_axis(axis, a.ndim)


def _iota(shape, axis):
    return bind(iota_p, dtype=_INT64, shape=tuple(shape), dimension=axis)


def _flip(x, axis, descending):
    return bind(rev_p, x, dimensions=(axis,)) if descending else x


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """Mirrors numpy.sort (NaNs last, complex numbers lexicographically).

    Note: `descending=` is the Array API's (NumPy has none): the sort of the flipped array, flipped, as
    array-api-strict does, so equal elements keep their relative order and NaNs come first.
    """
    kind = _sort_kind(kind, stable)
    _check_order(order)
    x, axis = _operand_and_axis(a, axis)
    (out,) = bind(sort_p, _flip(x, axis, descending), dimension=axis, num_keys=1, kind=kind)
    return wrap(_flip(out, axis, descending))


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """Mirrors numpy.argsort (ties in NumPy's order for the kind: introsort, heapsort or stable).

    Note: `descending=` as in sort (the Array API's): indices into the original array.
    """
    kind = _sort_kind(kind, stable)
    _check_order(order)
    a = asarray(a)
    if a.ndim == 0:  # NumPy sorts a 0-d operand as a 1-d one
        a = wrap(_flat(a))
    x, axis = _operand_and_axis(a, axis)
    shape = x.shape
    keys = _flip(x, axis, descending)
    _, index = bind(sort_p, keys, _iota(shape, axis), dimension=axis, num_keys=1, kind=kind)
    if not descending:
        return wrap(index)
    return shape[axis] - 1 - wrap(_flip(index, axis, True))


def lexsort(keys, axis=-1):
    """Mirrors numpy.lexsort: a stable sort by the last key, ties broken by the ones before it."""
    if isinstance(keys, (ndarray, np.ndarray)):
        keys = asarray(keys)
        keys = [keys] if keys.ndim == 0 else [keys[i] for i in range(keys.shape[0])]
    else:
        keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
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
        _iota(shape, axis),
        dimension=axis,
        num_keys=len(keys),
        kind="stable",
    )
    return wrap(outs[-1])


def _kth_tuple(kth, n):
    kth = np.asarray(kth._value if isinstance(kth, ndarray) else kth)
    if kth.dtype.kind not in "iu" or kth.ndim > 1:
        raise TypeError("Partition index must be integer")
    result = []
    for k in kth.reshape(-1).tolist():
        if not -n <= k < n:
            raise ValueError(f"kth(={k + n if k < 0 else k}) out of bounds ({n})")
        result.append(k + n if k < 0 else k)
    return tuple(result)


def _partition_args(a, kth, axis, kind, order):
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got '{kind}')")
    _check_order(order)
    x, axis = _operand_and_axis(a, axis)
    return x, _kth_tuple(kth, x.shape[axis]), axis


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """Mirrors numpy.partition (the order inside each part is NumPy's introselect order)."""
    x, kth, axis = _partition_args(a, kth, axis, kind, order)
    return wrap(bind(partition_p, x, kth=kth, axis=axis))


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Mirrors numpy.argpartition."""
    a = asarray(a)
    if a.ndim == 0:  # as argsort
        a = wrap(_flat(a))
    x, kth, axis = _partition_args(a, kth, axis, kind, order)
    return wrap(bind(argpartition_p, x, kth=kth, axis=axis))


def _as_raw(x, dtype):
    v = x._value
    if v.dtype == dtype:
        return v
    return bind(convert_p, v, dtype=dtype)


def searchsorted(a, v, side="left", sorter=None):
    """Mirrors numpy.searchsorted (a must be 1-d and sorted; NaNs sort last).

    Note: under a trace, sorter indices are clamped to range (NumPy leaves out-of-range ones undefined).
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
    dtype = np.promote_types(a.dtype, v.dtype)
    av = _as_raw(a, dtype)
    if sorter is not None:
        sorter = asarray(sorter)
        if sorter.size != a.size or sorter.ndim != 1:
            raise ValueError("sorter.size must equal a.size")
        if sorter.dtype.kind not in "iu":
            raise TypeError("Cannot cast sorter to integer indices")
        av = bind(gather_p, av, _as_raw(sorter, _INT64), mode="clip")
    return wrap(bind(searchsorted_p, av, _as_raw(v, dtype), side=side))


def _bins_decreasing(bins):
    """NumPy's monotonicity check of digitize on concrete bins (compared as float64, as NumPy does):
    True for decreasing, False for increasing, ValueError for neither; None when the bins are traced."""
    value = bins._value
    if type(value) is Tracer or is_tracing():
        return None
    edges = np.asarray(value).astype(np.float64).tolist()
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


def digitize(x, bins, right=False):
    """Mirrors numpy.digitize.

    Note: with traced bins their monotonicity cannot be checked; increasing order is assumed unless
    bins[0] > bins[-1], which selects the decreasing formula.
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
    from arraystack._elementwise_functions import where

    return where(bins[0] > bins[n - 1], down, searchsorted(bins, x, side=side))


# -- ndarray methods ------------------------------------------------------------------------------------------


def _sort_method(self, axis=-1, kind=None, order=None, *, stable=None):  # NumPy's: no descending=
    """ndarray.sort: in place, as in NumPy (views of the array see the sorted values)."""
    self[...] = sort(self, axis, kind, order, stable=stable)


def _partition_method(self, kth, axis=-1, kind="introselect", order=None):
    """ndarray.partition: in place."""
    self[...] = partition(self, kth, axis, kind, order)


def _argsort_method(self, axis=-1, kind=None, order=None, *, stable=None):
    return argsort(self, axis, kind, order, stable=stable)


def _argpartition_method(self, kth, axis=-1, kind="introselect", order=None):
    return argpartition(self, kth, axis, kind, order)


def _searchsorted_method(self, v, side="left", sorter=None):
    return searchsorted(self, v, side, sorter)


ndarray.sort = _sort_method
ndarray.argsort = _argsort_method
ndarray.partition = _partition_method
ndarray.argpartition = _argpartition_method
ndarray.searchsorted = _searchsorted_method

__all__ = ["argpartition", "argsort", "digitize", "lexsort", "partition", "searchsorted", "sort"]
