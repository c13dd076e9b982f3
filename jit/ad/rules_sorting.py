"""Derivatives and vmap rules of the sorting primitives (jit/sorting.py).

Conventions are those of forward.py (jvp_rules), reverse.py (vjp_rules) and batching.py (batch_rules). Sorting
and partitioning permute their operands, so a tangent is permuted the same way (a gather with the
permutation along the axis) and a cotangent goes back through the inverse (a scatter-add to the same
places). Ties have no unique derivative: the permutation used is the one the sort itself produced
(NumPy's order of ties for the sort's kind); for partition, equal values are matched in stable order.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir import structural as s
from arraystack.ir.ad import ops
from arraystack.ir.ad.batching import batch_rules, move_to_front
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import vjp_rules
from arraystack.ir.sorting import argpartition_p, partition_p, searchsorted_p, sort_p

_INT64 = np.dtype(np.int64)


def _along_axis_indices(perm, axis):
    """Index arrays for gather/scatter over every axis: `perm` on `axis`, the identity on the others."""
    shape = ops.shape(perm)
    return [perm if i == axis else ops.iota(_INT64, shape, i) for i in range(len(shape))]


def take_along(x, perm, axis):
    """x reordered along `axis` by the int64 positions `perm` (NumPy's take_along_axis, in range)."""
    return s.gather_p.bind(x, *_along_axis_indices(perm, axis), mode="clip")


def put_back(ct, perm, axis):
    """The transpose of take_along: ct added to the places `perm` took from (zeros elsewhere)."""
    indices = _along_axis_indices(perm, axis)
    return s.scatter_p.bind(ops.zeros_like(ct), ct, *indices, mode="clip", update="add")


def sort_permutation(keys, dimension, kind):
    """The positions that sort the lexicographic `keys` along `dimension`."""
    iota = ops.iota(_INT64, ops.shape(keys[0]), dimension)
    outs = sort_p.bind(*keys, iota, dimension=dimension, num_keys=len(keys), kind=kind)
    return outs[-1]


# -- sort -----------------------------------------------------------------------------------------------------


def _sort_jvp(primals, tangents, out, *, dimension, num_keys, kind):
    perm = sort_permutation(primals[:num_keys], dimension, kind)
    return [None if t is None else take_along(t, perm, dimension) for t in tangents]


def _sort_vjp(ct, out, needs, *operands, dimension, num_keys, kind):
    perm = sort_permutation(operands[:num_keys], dimension, kind)
    return [
        put_back(c, perm, dimension) if n and ops.is_inexact(x) else None
        for c, n, x in zip(ct, needs, operands)
    ]


jvp_rules[sort_p] = _sort_jvp
vjp_rules[sort_p] = _sort_vjp


def _sort_batched(size, args, batched, *, dimension, num_keys, kind):
    operands = [move_to_front(x, b, size) for x, b in zip(args, batched)]
    return sort_p.bind(*operands, dimension=dimension + 1, num_keys=num_keys, kind=kind)


batch_rules[sort_p] = _sort_batched

# -- partition ------------------------------------------------------------------------------------------------


def _partition_permutation(x, values, axis):
    """perm with values == take_along(x, perm): the k-th smallest output taken from the k-th smallest input
    (stable order among equal values)."""
    from_x = sort_permutation([x], axis, "stable")
    from_values = sort_permutation([values], axis, "stable")
    indices = _along_axis_indices(from_values, axis)
    zeros = ops.full(ops.shape(x), _INT64, 0)
    return s.scatter_p.bind(zeros, from_x, *indices, mode="clip", update="set")


def _partition_jvp(primals, tangents, out, *, kth, axis):
    perm = _partition_permutation(primals[0], out, axis)
    return take_along(tangents[0], perm, axis)


def _partition_vjp(ct, out, needs, x, *, kth, axis):
    if not needs[0]:
        return [None]
    return [put_back(ct, _partition_permutation(x, out, axis), axis)]


jvp_rules[partition_p] = _partition_jvp
vjp_rules[partition_p] = _partition_vjp

batch_rules[partition_p] = lambda size, args, batched, *, kth, axis: partition_p.bind(
    args[0], kth=kth, axis=axis + 1
)
batch_rules[argpartition_p] = lambda size, args, batched, *, kth, axis: argpartition_p.bind(
    args[0], kth=kth, axis=axis + 1
)

# -- searchsorted ---------------------------------------------------------------------------------------------


def _searchsorted_batched(size, args, batched, *, side):
    a, v = args
    if not batched[0]:  # v's batch axis is just one more axis of the values looked up
        return searchsorted_p.bind(a, v, side=side)
    # each example has its own sorted array: one lookup per example, stacked along the batch axis
    n = ops.shape(a)[1]
    v = move_to_front(v, batched[1], size)
    rest = ops.shape(v)[1:]
    if size == 0:
        return ops.full((0,) + rest, _INT64, 0)
    parts = []
    for b in range(size):
        row = s.slice_p.bind(a, start_indices=(b, 0), limit_indices=(b + 1, n), strides=(1, 1))
        vb = s.slice_p.bind(
            v,
            start_indices=(b,) + (0,) * len(rest),
            limit_indices=(b + 1,) + rest,
            strides=(1,) * (1 + len(rest)),
        )
        found = searchsorted_p.bind(ops.reshape(row, (n,)), ops.reshape(vb, rest), side=side)
        parts.append(ops.reshape(found, (1,) + rest))
    return parts[0] if size == 1 else s.concatenate_p.bind(*parts, dimension=0)


batch_rules[searchsorted_p] = _searchsorted_batched

not_differentiable = {
    argpartition_p: "its result is integer indices",
    searchsorted_p: "its result is integer indices",
}
