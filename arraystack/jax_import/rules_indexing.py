"""Conversion rules of lax's gather, scatter and dynamic slices (convention: interpreter.py).

XLA's gather takes, per batch position, a window of the operand at a start index. arraystack's
`gather` is NumPy's advanced indexing on leading axes, so each rule builds one index array per
indexed operand axis (start + an iota over the window), moves the indexed axes to the front, gathers
(or scatters) elementwise, and transposes the result into XLA's order. Start indices are clamped
as XLA clamps them; `fill` gathers select the fill value for windows out of bounds, and dropping
scatters send those updates to a padding row that is cut off afterwards.
"""

from __future__ import annotations

import numpy

from arraystack._indexing.at import default_fill_value
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.core import Tracer, bind
from arraystack.jax_import.rules_math import const, convert, select
from arraystack.jax_import.rules_structural import broadcast, reshape, slice_axis, transpose

indexing_rules: dict = {}
_INDEX = numpy.dtype(numpy.int64)


def _clamped(start, limit):
    return bind(p.min_p, bind(p.max_p, start, const(0, _INDEX)), const(max(limit, 0), _INDEX))


def _in_bounds(start, limit):
    return bind(
        p.and_p, bind(p.ge_p, start, const(0, _INDEX)), bind(p.le_p, start, const(limit, _INDEX))
    )


def _all(masks):
    out = None
    for m in masks:
        out = m if out is None else bind(p.and_p, out, m)
    return out


def _plan(shape, batch_shape, sizes, collapsed, batching):
    """(K, W, R, grid): K the operand axes that get an index array, W those of K whose window stays an
    axis of the grid, R the axes taken whole, and the grid shape (batch shape, then W's windows)."""
    ndim = len(shape)
    K = [d for d in range(ndim) if d in batching or d in collapsed or sizes[d] != shape[d]]
    R = [d for d in range(ndim) if d not in K]
    W = [d for d in K if d not in batching and d not in collapsed]
    grid = tuple(batch_shape) + tuple(sizes[d] for d in W)
    return K, W, R, grid


def _index_arrays(K, W, grid, nb, starts, batching):
    out = []
    for d in K:
        if d in batching:
            out.append(bind(p.iota_p, dtype=_INDEX, shape=grid, dimension=batching[d]))
            continue
        start = starts.get(d)
        idx = (
            broadcast(start, grid, range(nb))
            if start is not None
            else broadcast(const(0, _INDEX), grid, ())
        )
        if d in W:
            offset = bind(p.iota_p, dtype=_INDEX, shape=grid, dimension=nb + W.index(d))
            idx = bind(p.add_p, idx, offset)
        out.append(idx)
    return out


def _start_columns(indices, index_map, shape, sizes, clamp):
    """Per operand axis of `index_map`, its start (batch-shaped int64), clamped when `clamp`, and the
    in-bounds masks of the unclamped starts."""
    batch_shape = tuple(indices.shape[:-1])
    starts, masks = {}, []
    for j, d in enumerate(index_map):
        column = slice_axis(indices, len(indices.shape) - 1, j, j + 1)
        start = convert(reshape(column, batch_shape), _INDEX)
        limit = shape[d] - sizes[d]
        masks.append(_in_bounds(start, limit))
        starts[d] = _clamped(start, limit) if clamp else start
    return starts, masks


def _mode_name(mode) -> str:
    return str(getattr(mode, "name", mode)).upper()


def _gather(
    site, x, indices, *, dimension_numbers, slice_sizes, mode=None, fill_value=None, **params
):
    dn = dimension_numbers
    shape = tuple(x.shape)
    sizes = {d: int(n) for d, n in enumerate(slice_sizes)}
    nb = len(indices.shape) - 1
    batching = dict(zip(dn.operand_batching_dims, dn.start_indices_batching_dims))
    fill = "FILL" in _mode_name(mode)
    starts, masks = _start_columns(indices, dn.start_index_map, shape, sizes, clamp=True)
    K, W, R, grid = _plan(shape, indices.shape[:-1], sizes, dn.collapsed_slice_dims, batching)
    xt = transpose(x, K + R)
    if K:
        idx = _index_arrays(K, W, grid, nb, starts, batching)
        out = bind(s.gather_p, xt, *idx, mode="clip")
    else:
        out = broadcast(xt, grid + tuple(xt.shape), range(nb, nb + len(xt.shape)))
    labels = [("b", k) for k in range(nb)] + [("o", d) for d in W] + [("o", d) for d in R]
    offsets = iter(sorted(W + R))
    batch = iter(range(nb))
    out_rank = nb + len(W) + len(R)
    target = [
        ("o", next(offsets)) if k in dn.offset_dims else ("b", next(batch)) for k in range(out_rank)
    ]
    out = transpose(out, [labels.index(t) for t in target])
    if fill and masks:
        mask = broadcast(_all(masks), out.shape, [k for k, t in enumerate(target) if t[0] == "b"])
        value = _fill_value(out.dtype, fill_value)
        out = select(mask, out, const(value, out.dtype))
    return out


def _fill_value(dtype, fill_value):
    return default_fill_value(dtype) if fill_value is None else fill_value


indexing_rules["gather"] = _gather


def _scatter(update):
    def rule(site, x, indices, updates, *, dimension_numbers, mode=None, **params):
        dn = dimension_numbers
        shape = tuple(x.shape)
        nb = len(indices.shape) - 1
        batching = dict(zip(dn.operand_batching_dims, dn.scatter_indices_batching_dims))
        window_axes = [
            d for d in range(len(shape)) if d not in dn.inserted_window_dims and d not in batching
        ]
        sizes = {d: 1 for d in range(len(shape))}
        for d, axis in zip(window_axes, dn.update_window_dims):
            sizes[d] = int(updates.shape[axis])
        clip = "CLIP" in _mode_name(mode)
        index_map = dn.scatter_dims_to_operand_dims
        starts, masks = _start_columns(indices, index_map, shape, sizes, clamp=True)
        K, W, R, grid = _plan(shape, indices.shape[:-1], sizes, dn.inserted_window_dims, batching)
        if not K:
            K, R = [R[0]], R[1:]
            W = [K[0]]
            grid = tuple(indices.shape[:-1]) + (sizes[K[0]],)
        batch = iter(range(nb))
        window = iter(window_axes)
        labels = [
            ("o", next(window)) if k in dn.update_window_dims else ("b", next(batch))
            for k in range(len(updates.shape))
        ]
        target = [("b", k) for k in range(nb)] + [("o", d) for d in W] + [("o", d) for d in R]
        updates_t = transpose(updates, [labels.index(t) for t in target])
        if update == "sub":
            updates_t = bind(p.neg_p, updates_t)
        idx = _index_arrays(K, W, grid, nb, starts, batching)
        xt = transpose(x, K + R)
        drop = not clip and masks
        if drop:  # out-of-bounds windows go to a padding row along the first indexed axis
            n = xt.shape[0]
            config = ((0, 1, 0),) + ((0, 0, 0),) * (len(xt.shape) - 1)
            xt = bind(s.pad_p, xt, const(0, xt.dtype), padding_config=config)
            keep = broadcast(_all(masks), grid, range(nb))
            idx[0] = select(keep, idx[0], const(n, _INDEX))
        kind = "add" if update == "sub" else update
        out = bind(s.scatter_p, xt, updates_t, *idx, update=kind, mode="clip")
        if drop:
            out = slice_axis(out, 0, 0, n)
        return transpose(out, numpy.argsort(K + R))

    return rule


indexing_rules["scatter"] = _scatter("set")
indexing_rules["scatter-add"] = _scatter("add")
indexing_rules["scatter-sub"] = _scatter("sub")
indexing_rules["scatter-mul"] = _scatter("mul")
indexing_rules["scatter-min"] = _scatter("min")
indexing_rules["scatter-max"] = _scatter("max")


def _dynamic_plan(x, starts_raw, sizes):
    shape = tuple(x.shape)
    K = [d for d in range(len(shape)) if sizes[d] != shape[d]]
    R = [d for d in range(len(shape)) if d not in K]
    starts = {d: _clamped(convert(starts_raw[d], _INDEX), shape[d] - sizes[d]) for d in K}
    grid = tuple(sizes[d] for d in K)
    return K, R, _index_arrays(K, K, grid, 0, starts, {})


def _dynamic_slice(site, x, *operands, slice_sizes, **params):
    starts_raw = operands[: len(x.shape)]
    sizes = [int(n) for n in slice_sizes]
    K, R, idx = _dynamic_plan(x, starts_raw, sizes)
    if not K:
        return x
    out = bind(s.gather_p, transpose(x, K + R), *idx, mode="clip")
    return transpose(out, numpy.argsort(K + R))


def _static_starts(x, starts_raw, sizes):
    """The starts clamped as XLA clamps them, when every one is a constant; else None."""
    if any(isinstance(raw, Tracer) for raw in starts_raw):
        return None
    return tuple(
        min(max(int(numpy.asarray(raw)), 0), max(n - size, 0))
        for raw, n, size in zip(starts_raw, x.shape, sizes)
    )


def _dynamic_update_slice(site, x, update, *starts_raw, **params):
    sizes = [int(n) for n in update.shape]
    if sizes == [int(n) for n in x.shape]:
        return update
    starts = _static_starts(x, starts_raw, sizes)
    if starts is not None:  # a window known when converting: written in place where the plan can
        limits = tuple(lo + n for lo, n in zip(starts, sizes))
        return bind(
            s.update_slice_p,
            x,
            update,
            start_indices=starts,
            limit_indices=limits,
            strides=(1,) * len(sizes),
        )
    K, R, idx = _dynamic_plan(x, starts_raw, sizes)
    order = K + R
    out = bind(
        s.scatter_p, transpose(x, order), transpose(update, order), *idx, update="set", mode="clip"
    )
    return transpose(out, numpy.argsort(order))


indexing_rules["dynamic_slice"] = _dynamic_slice
indexing_rules["dynamic_update_slice"] = _dynamic_update_slice
