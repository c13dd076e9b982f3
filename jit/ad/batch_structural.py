"""vmap rules of the structural primitives: shape, indexing, reductions, scans and contraction.

Convention of batching.py: `batch_rules[p](size, args, batched, **params)`; `args[i]` has the batch axis
first iff `batched[i]`, and the result (each result of nonzero) has the batch axis first. Most rules shift
the primitive's axis params by one past the batch axis; gather/scatter index the batch axis with an iota.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.ad import batching, ops
from arraystack.ir.ad.batching import batch_rules, move_to_front


def _shifted(axes):
    return tuple(a + 1 for a in axes)


def _lead(size, x):
    """`x` (an unbatched per-example value) broadcast along a new leading batch axis."""
    return move_to_front(x, False, size)


def _full(size, args, batched, *, shape, dtype):
    (value,) = args
    value = ops.convert(value, dtype)
    return ops.broadcast_in_dim(value, (size,) + tuple(shape), (0,))


batch_rules[s.full_p] = _full

# -- shape ----------------------------------------------------------------------------------------------------

batch_rules[s.reshape_p] = lambda size, args, batched, *, new_sizes: ops.reshape(
    args[0], (size,) + tuple(new_sizes)
)


def _broadcast_in_dim(size, args, batched, *, shape, broadcast_dimensions):
    dims = (0,) + _shifted(broadcast_dimensions)
    return ops.broadcast_in_dim(args[0], (size,) + tuple(shape), dims)


batch_rules[s.broadcast_in_dim_p] = _broadcast_in_dim
batch_rules[s.transpose_p] = lambda size, args, batched, *, permutation: ops.transpose(
    args[0], (0,) + _shifted(permutation)
)


def _slice(size, args, batched, *, start_indices, limit_indices, strides):
    return s.slice_p.bind(
        args[0],
        start_indices=(0,) + tuple(start_indices),
        limit_indices=(size,) + tuple(limit_indices),
        strides=(1,) + tuple(strides),
    )


batch_rules[s.slice_p] = _slice
batch_rules[s.rev_p] = lambda size, args, batched, *, dimensions: s.rev_p.bind(
    args[0], dimensions=_shifted(dimensions)
)


def _concatenate(size, args, batched, *, dimension):
    operands = [move_to_front(x, b, size) for x, b in zip(args, batched)]
    return s.concatenate_p.bind(*operands, dimension=dimension + 1)


batch_rules[s.concatenate_p] = _concatenate


def _pad(size, args, batched, *, padding_config):
    x, value = args
    x = move_to_front(x, batched[0], size)
    config = ((0, 0, 0),) + tuple(tuple(c) for c in padding_config)
    if not batched[1]:
        return s.pad_p.bind(x, value, padding_config=config)
    # one padding value per example: pad with zero, then select the value outside the operand's window
    padded = s.pad_p.bind(x, ops.const(x, 0), padding_config=config)
    out_shape = ops.shape(padded)
    inside = ops.full(ops.shape(x)[1:], np.bool_, True)
    inside = s.pad_p.bind(inside, np.False_, padding_config=config[1:])
    inside = _lead(size, inside)
    return ops.select(inside, padded, ops.broadcast_in_dim(value, out_shape, (0,)))


batch_rules[s.pad_p] = _pad


def _update_slice(size, args, batched, *, start_indices, limit_indices, strides):
    x, v = (move_to_front(a, b, size) for a, b in zip(args, batched))
    return s.update_slice_p.bind(
        x,
        v,
        start_indices=(0,) + tuple(start_indices),
        limit_indices=(size,) + tuple(limit_indices),
        strides=(1,) + tuple(strides),
    )


batch_rules[s.update_slice_p] = _update_slice
batch_rules[s.bitcast_p] = lambda size, args, batched, *, dtype: s.bitcast_p.bind(args[0], dtype=dtype)

# -- indexing -------------------------------------------------------------------------------------------------
# gather/scatter index the leading axes of x. With only x batched, the batch axis moves behind the indexed
# axes (a free axis of the gather); otherwise every index array gets the batch axis, and an iota indexes the
# batch axis of x, so one gather/scatter does the whole batch. The mode stays: a batched "raise" checks every
# example's indices. The iota is always in range; `axes` gets None for it, and the per-example axis numbers
# (the operand's own when `axes` was not given) for the others, so an error names the axis an example sees.


def _batched_indices(size, indices, batched):
    """(iota over the batch, *indices), each of shape (size,) + the per-example index shape."""
    moved = [move_to_front(i, b, size) for i, b in zip(indices, batched)]
    return [ops.iota(np.int64, ops.shape(moved[0]), 0)] + moved


def _checked_lanes(indices, batched, params):
    """`indices` with those of the examples whose results are dropped (batching.live_lanes) replaced by
    0, so that a checking mode raises for a kept example only; indices shared by the batch are kept
    when any example is. (An axis of size 0 has no index to put there: every gather from it fails.)"""
    live = batching.live_lanes()
    if live is None or params["mode"] == "clip":
        return indices
    out = []
    for i, b in zip(indices, batched):
        shape = ops.shape(i)
        if b:
            keep = ops.broadcast_in_dim(live, shape, (0,))
        else:
            keep = ops.broadcast_in_dim(s.reduce_or_p.bind(live, axes=(0,)), shape, ())
        out.append(ops.select(keep, i, ops.zeros_like(i)))
    return out


def _with_batch_index(params, k):
    axes = params.get("axes") or tuple(range(k))
    return {**params, "axes": (None,) + tuple(axes)}


def _to_front(axis, ndim):
    return (axis,) + tuple(a for a in range(ndim) if a != axis)


def _behind_indexed(k, ndim):
    """Permutation moving axis 0 (the batch) of a rank-`ndim` value behind its next `k` axes."""
    return tuple(range(1, k + 1)) + (0,) + tuple(range(k + 1, ndim))


def _gather(size, args, batched, **params):
    x, indices = args[0], _checked_lanes(args[1:], batched[1:], params)
    k = len(indices)
    if not any(batched):  # only while examples are dropped (batching.lane_checked)
        return move_to_front(s.gather_p.bind(x, *indices, **params), False, size)
    if not any(batched[1:]):
        x = ops.transpose(x, _behind_indexed(k, len(ops.shape(x))))
        out = s.gather_p.bind(x, *indices, **params)
        batch_axis = len(ops.shape(indices[0]))  # result: index shape, batch, rest
        return ops.transpose(out, _to_front(batch_axis, len(ops.shape(out))))
    if not batched[0]:
        moved = [move_to_front(i, b, size) for i, b in zip(indices, batched[1:])]
        return s.gather_p.bind(x, *moved, **params)
    all_indices = _batched_indices(size, indices, batched[1:])
    return s.gather_p.bind(x, *all_indices, **_with_batch_index(params, k))


batch_rules[s.gather_p] = _gather


def _scatter(size, args, batched, *, update, **params):
    x, updates, indices = args[0], args[1], _checked_lanes(args[2:], batched[2:], params)
    k = len(indices)
    if not any(batched):  # only while examples are dropped (batching.lane_checked)
        out = s.scatter_p.bind(x, updates, *indices, update=update, **params)
        return move_to_front(out, False, size)
    if not any(batched[1:]):
        # updates shared by the batch: scatter into x with its batch axis behind the indexed ones
        ndim = len(ops.shape(x))
        moved = ops.transpose(x, _behind_indexed(k, ndim))
        ushape = ops.shape(updates)
        nidx = len(ops.shape(indices[0]))
        target = ushape[:nidx] + (size,) + ushape[nidx:]
        dims = tuple(range(nidx)) + tuple(range(nidx + 1, len(target)))
        updates = ops.broadcast_in_dim(updates, target, dims)
        out = s.scatter_p.bind(moved, updates, *indices, update=update, **params)
        return ops.transpose(out, _to_front(k, ndim))
    x = move_to_front(x, batched[0], size)
    updates = move_to_front(updates, batched[1], size)
    all_indices = _batched_indices(size, indices, batched[2:])
    return s.scatter_p.bind(
        x, updates, *all_indices, update=update, **_with_batch_index(params, k)
    )


batch_rules[s.scatter_p] = _scatter
batching.lane_checked.update((s.gather_p, s.scatter_p))


def _nonzero_batched(batch, args, batched, *, size=None, fill_value=0):
    """Each example's nonzero padded to `size`: an element's slot is the running count of nonzeros before
    it, and its coordinates are scattered there (elements past `size` and zeros go to a discarded slot)."""
    (x,) = args
    if size is None:
        raise NotImplementedError(
            "vmap of nonzero needs size= (each example may find a different number of elements): "
            "use arraystack.nonzero(x, size=n, fill_value=...) or arraystack.where(mask, x, other)"
        )
    shape = ops.shape(x)[1:] or (1,)
    n = int(np.prod(shape))
    flat = ops.reshape(x, (batch, n))
    found = ops.binop(p.ne_p, flat, ops.const(flat, 0))
    count = s.cumsum_p.bind(ops.convert(found, np.int64), axis=1)
    slot = ops.sub(count, np.int64(1))
    keep = ops.binop(p.and_p, found, ops.binop(p.lt_p, slot, np.int64(size)))
    slot = ops.select(keep, slot, ops.full((batch, n), np.int64, size))
    rows = ops.iota(np.int64, (batch, n), 0)
    results = []
    for coords in np.unravel_index(np.arange(n, dtype=np.int64), shape):
        coords = _lead(batch, np.ascontiguousarray(coords, dtype=np.int64))
        out = ops.full((batch, size + 1), np.int64, fill_value)
        out = s.scatter_p.bind(out, coords, rows, slot, mode="clip", update="set")
        results.append(
            s.slice_p.bind(out, start_indices=(0, 0), limit_indices=(batch, size), strides=(1, 1))
        )
    return tuple(results)


batch_rules[s.nonzero_p] = _nonzero_batched

# -- reductions and scans -------------------------------------------------------------------------------------


def _reduction(prim):
    return lambda size, args, batched, *, axes: prim.bind(args[0], axes=_shifted(axes))


def _along_axis(prim):
    def rule(size, args, batched, *, axis, **params):  # params: reverse= of the cumulative ones
        return prim.bind(args[0], axis=axis + 1, **params)

    return rule


_REDUCTIONS = (s.reduce_sum_p, s.reduce_prod_p, s.reduce_max_p, s.reduce_min_p)
for _prim in _REDUCTIONS + (s.reduce_and_p, s.reduce_or_p):
    batch_rules[_prim] = _reduction(_prim)
for _prim in (s.argmax_p, s.argmin_p, s.cumsum_p, s.cumprod_p, s.cummax_p, s.cummin_p):
    batch_rules[_prim] = _along_axis(_prim)

# -- contraction ----------------------------------------------------------------------------------------------


def _dot_general(size, args, batched, *, dimension_numbers):
    x, y = args
    (lc, rc), (lb, rb) = dimension_numbers
    if batched[0] and batched[1]:  # the vmapped axis becomes the first dot_general batch dimension
        numbers = ((_shifted(lc), _shifted(rc)), ((0,) + _shifted(lb), (0,) + _shifted(rb)))
        return ops.dot_general(x, y, numbers)
    # one operand batched: its batch axis is a free dimension (the first of that operand's free ones)
    if batched[0]:
        numbers = ((_shifted(lc), tuple(rc)), (_shifted(lb), tuple(rb)))
        axis = len(lb)
    else:
        numbers = ((tuple(lc), _shifted(rc)), (tuple(lb), _shifted(rb)))
        axis = len(ops.shape(x)) - len(lc)  # batch dims + lhs free dims come before
    out = ops.dot_general(x, y, numbers)
    return ops.transpose(out, _to_front(axis, len(ops.shape(out))))


batch_rules[s.dot_general_p] = _dot_general
