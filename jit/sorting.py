"""Sorting primitives: sort (several operands by the leading keys), partition, argpartition, searchsorted.

Shape rules go into abstract_eval_rules and NumPy-calling rules into reference_rules, as for every primitive.
Ordering is NumPy's: NaNs sort last, complex numbers lexicographically (real part, then imaginary part).
"""

from __future__ import annotations

import numpy as np
from arraystack.ir.avals import ShapedArray
from arraystack.ir.core import Primitive
from arraystack.ir.primitives import abstract_eval_rules
from arraystack.ir.reference import reference_rules

_INT64 = np.dtype(np.int64)


def _check_axis(name, aval, axis):
    if not 0 <= axis < aval.ndim:
        raise ValueError(f"{name}: axis {axis} out of range for operand {aval.str_short()}")


# sort[dimension, num_keys, kind] *operands: every operand (one shape) is reordered along `dimension` by
# the lexicographic order of the first `num_keys` operands (JAX's lax.sort). kind is NumPy's sort kind,
# "quicksort", "heapsort" or "stable", which decides the order of ties; with several keys the sort is
# always stable (NumPy's lexsort).
SORT_KINDS = ("quicksort", "heapsort", "stable")
sort_p = Primitive("sort", multiple_results=True)


def _sort_rule(*operands, dimension, num_keys, kind):
    if not operands or not 1 <= num_keys <= len(operands):
        raise ValueError(f"sort: num_keys={num_keys} for {len(operands)} operands")
    shapes = {x.shape for x in operands}
    if len(shapes) != 1:
        raise ValueError(f"sort operands must share one shape, got {sorted(shapes)}")
    _check_axis("sort", operands[0], dimension)
    if kind not in SORT_KINDS:
        raise ValueError(f"sort kind must be one of {SORT_KINDS}, got {kind!r}")
    return tuple(operands)


abstract_eval_rules[sort_p] = _sort_rule


def _sort_reference(xp, *operands, dimension, num_keys, kind):
    if len(operands) == 1:
        return (xp.sort(operands[0], axis=dimension, kind=kind),)
    if num_keys == 1:
        order = xp.argsort(operands[0], axis=dimension, kind=kind)
    else:  # lexsort's last key is the primary one
        order = xp.lexsort(tuple(operands[num_keys - 1 :: -1]), axis=dimension)
    return tuple(xp.take_along_axis(xp.asarray(x), order, axis=dimension) for x in operands)


reference_rules[sort_p] = _sort_reference


def _check_kth(name, x, kth, axis):
    _check_axis(name, x, axis)
    n = x.shape[axis]
    for k in kth:
        if not 0 <= k < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")


# partition[kth, axis] x: NumPy's partition (kth: a tuple of non-negative positions); the order inside each
# part is NumPy's introselect order. argpartition[kth, axis] x: the int64 indices of NumPy's argpartition.
partition_p = Primitive("partition")
argpartition_p = Primitive("argpartition")


def _partition_rule(x, *, kth, axis):
    _check_kth("partition", x, kth, axis)
    return x


def _argpartition_rule(x, *, kth, axis):
    _check_kth("argpartition", x, kth, axis)
    return ShapedArray(x.shape, _INT64)


abstract_eval_rules[partition_p] = _partition_rule
abstract_eval_rules[argpartition_p] = _argpartition_rule
reference_rules[partition_p] = lambda xp, x, *, kth, axis: xp.partition(x, list(kth), axis=axis)
reference_rules[argpartition_p] = lambda xp, x, *, kth, axis: xp.argpartition(
    x, list(kth), axis=axis
).astype(np.int64, copy=False)

# searchsorted[side] a v: for each element of v the int64 insertion index into the sorted 1-d array a
# (side "left": first suitable position, "right": last), with NumPy's ordering (NaNs last).
searchsorted_p = Primitive("searchsorted")


def _searchsorted_rule(a, v, *, side):
    if a.ndim != 1:
        raise ValueError(f"searchsorted: the sorted operand must be 1-d, got {a.str_short()}")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    if a.dtype != v.dtype:
        raise TypeError(
            f"searchsorted operands differ in dtype: {a.str_short()} vs {v.str_short()}"
        )
    return ShapedArray(v.shape, _INT64)


abstract_eval_rules[searchsorted_p] = _searchsorted_rule
reference_rules[searchsorted_p] = lambda xp, a, v, *, side: xp.asarray(
    xp.searchsorted(a, v, side=side)
).astype(np.int64, copy=False)
