"""Derivatives of the indexing primitives: slice, pad, update_slice, concatenate, gather, scatter (and nonzero, which has none).

Conventions are those of forward.py (jvp_rules) and reverse.py (vjp_rules). slice/pad, gather/scatter-add
and concatenate/slice are each other's transposes. Index operands are integers: their cotangent is None.

scatter follows NumPy's semantics for duplicate indices, which the primal computes: "set" keeps the last
write, so only that update receives a cotangent (the winners are found by scattering each update's own
position and reading back which one stuck); "add" accumulates; "mul" multiplies every update into the
target (derivatives exact with zeros, as for reduce_prod); "min"/"max" split the cotangent evenly among the
target and updates that tie with the result (as reduce_max does).
"""

from __future__ import annotations

import math

import numpy as np
from arraystack.ir import structural as s
from arraystack.ir.ad import ops
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import vjp_rules
from arraystack.ir.ad.rules_structural import as_float, linear_jvp, safe_recip, where_else


def _zero_or(t, like):
    return ops.zeros_like(like) if t is None else t


# -- slice and pad -------------------------------------------------------------------------------------------------


def _pad(x, value, config):
    return s.pad_p.bind(x, value, padding_config=tuple(config))


def _slice(x, starts, limits, strides):
    return s.slice_p.bind(
        x, start_indices=tuple(starts), limit_indices=tuple(limits), strides=tuple(strides)
    )


def _slice_vjp(ct, out, needs, x, *, start_indices, limit_indices, strides):
    config = []
    for d, lo, n, st in zip(ops.shape(x), start_indices, ops.shape(ct), strides):
        used = (n - 1) * st + 1 if n else 0  # span from the first taken element to the last
        config.append((lo, d - lo - used, st - 1) if n else (lo, d - lo, 0))
    return [_pad(ct, ops.const(ct, 0), config)]


jvp_rules[s.slice_p] = linear_jvp(s.slice_p)
vjp_rules[s.slice_p] = _slice_vjp


def _pad_window(shape, padding_config):
    starts, limits, strides = [], [], []
    for d, (lo, hi, interior) in zip(shape, padding_config):
        starts.append(lo)
        limits.append(lo + d + max(d - 1, 0) * interior)
        strides.append(interior + 1)
    return starts, limits, strides


def _pad_jvp(primals, tangents, out, *, padding_config):
    (x, _), (tx, tv) = primals, tangents
    return _pad(_zero_or(tx, x), ops.const(x, 0) if tv is None else tv, padding_config)


def _pad_vjp(ct, out, needs, x, value, *, padding_config):
    inner = _slice(ct, *_pad_window(ops.shape(x), padding_config))
    ct_value = None
    if needs[1]:
        every = range(len(ops.shape(ct)))
        ct_value = ops.sub(ops.reduce_sum(ct, every), ops.reduce_sum(inner, every))
    return [inner if needs[0] else None, ct_value]


jvp_rules[s.pad_p] = _pad_jvp
vjp_rules[s.pad_p] = _pad_vjp


def _update_slice_jvp(primals, tangents, out, **window):
    (x, v), (tx, tv) = primals, tangents
    return s.update_slice_p.bind(_zero_or(tx, x), _zero_or(tv, v), **window)


def _update_slice_vjp(ct, out, needs, x, v, *, start_indices, limit_indices, strides):
    """x's cotangent is ct with the window zeroed (those elements were overwritten); v's is the window."""
    window = {"start_indices": start_indices, "limit_indices": limit_indices, "strides": strides}
    ct_x = s.update_slice_p.bind(ct, ops.zeros_like(v), **window) if needs[0] else None
    ct_v = _slice(ct, start_indices, limit_indices, strides) if needs[1] else None
    return [ct_x, ct_v]


jvp_rules[s.update_slice_p] = _update_slice_jvp
vjp_rules[s.update_slice_p] = _update_slice_vjp

# bitcast reads bits: no value of the result moves smoothly with its operand's (JAX's zero derivative)
jvp_rules[s.bitcast_p] = lambda primals, tangents, out, **params: None
vjp_rules[s.bitcast_p] = lambda ct, out, needs, x, **params: [None]

# -- concatenate ---------------------------------------------------------------------------------------------------


def _concatenate_jvp(primals, tangents, out, *, dimension):
    parts = [_zero_or(t, x) for x, t in zip(primals, tangents)]
    return s.concatenate_p.bind(*parts, dimension=dimension)


def _concatenate_vjp(ct, out, needs, *xs, dimension):
    shape = ops.shape(ct)
    cts, offset = [], 0
    for x, need in zip(xs, needs):
        n = ops.shape(x)[dimension]
        if need:
            starts = [offset if d == dimension else 0 for d in range(len(shape))]
            limits = [offset + n if d == dimension else size for d, size in enumerate(shape)]
            cts.append(_slice(ct, starts, limits, [1] * len(shape)))
        else:
            cts.append(None)
        offset += n
    return cts


jvp_rules[s.concatenate_p] = _concatenate_jvp
vjp_rules[s.concatenate_p] = _concatenate_vjp

# -- gather --------------------------------------------------------------------------------------------------------


# `params` are the primal's index params (mode, and axes when given): every gather and scatter a rule emits
# reads the same indices as its primal, so it keeps them, and with them the bounds check the primal asked for.


def _gather(x, indices, params):
    return s.gather_p.bind(x, *indices, **params)


def _scatter(x, updates, indices, params, update):
    return s.scatter_p.bind(x, updates, *indices, update=update, **params)


def _gather_vjp(ct, out, needs, x, *indices, **params):
    if not needs[0]:
        return [None] * (1 + len(indices))
    return [_scatter(ops.zeros_like(x), ct, indices, params, "add")] + [None] * len(indices)


jvp_rules[s.gather_p] = linear_jvp(s.gather_p)
vjp_rules[s.gather_p] = _gather_vjp

# -- scatter -------------------------------------------------------------------------------------------------------


def _over_updates(pred, updates):
    """A per-index-tuple boolean (shape B) broadcast over the trailing axes of the updates."""
    b = len(ops.shape(pred))
    return ops.broadcast_in_dim(pred, ops.shape(updates), tuple(range(b)))


def _set_winners(x, indices, params):
    """Which index tuples (shape B) wrote the value that stays under NumPy's last-write-wins "set"."""
    batch = ops.shape(indices[0])
    k = len(indices)
    n = math.prod(batch)
    pos = ops.reshape(ops.iota(np.int64, (n,), 0), batch)
    target = ops.full(ops.shape(x)[:k], np.int64, -1)
    stuck = _scatter(target, pos, indices, params, "set")
    return ops.eq(_gather(stuck, indices, params), pos)


def _extreme_parts(x, updates, out, indices, params):
    """For scatter min/max: where x and where each update equal the result, and 1 / (number of ties)."""
    hit_x = ops.eq(x, out)
    hit_u = ops.eq(updates, _gather(out, indices, params))
    count = ops.add(
        as_float(hit_x, x),
        _scatter(ops.zeros_like(x), as_float(hit_u, updates), indices, params, "add"),
    )
    return hit_x, hit_u, ops.div(ops.const(count, 1), count)


def _mul_parts(x, updates, out, indices, params):
    """For scatter mul: d out / d x and d out / d updates (the product of the other factors per target)."""
    zx, zu = ops.eq(x, ops.const(x, 0)), ops.eq(updates, ops.const(updates, 0))
    zeros = ops.add(
        as_float(zx, x), _scatter(ops.zeros_like(x), as_float(zu, updates), indices, params, "add")
    )
    nonzero = _scatter(
        ops.select(zx, ops.ones_like(x), x),
        ops.select(zu, ops.ones_like(updates), updates),
        indices,
        params,
        "mul",
    )
    at_zero = where_else(
        ops.eq(zeros, ops.const(zeros, 1)), nonzero
    )  # the product of the others of a single zero
    dx = ops.select(zx, at_zero, ops.mul(out, safe_recip(x, zx)))
    du = ops.select(
        zu,
        _gather(at_zero, indices, params),
        ops.mul(_gather(out, indices, params), safe_recip(updates, zu)),
    )
    return dx, du


def _scatter_jvp(primals, tangents, out, *, update, **params):
    x, updates, *indices = primals
    tx, tu = tangents[0], tangents[1]
    if update in ("set", "add"):
        return _scatter(_zero_or(tx, x), _zero_or(tu, updates), indices, params, update)
    if update == "mul":
        dx, du = _mul_parts(x, updates, out, indices, params)
        tx = _zero_or(tx, x) if tx is None else ops.mul(tx, dx)
        return tx if tu is None else _scatter(tx, ops.mul(tu, du), indices, params, "add")
    hit_x, hit_u, scale = _extreme_parts(x, updates, out, indices, params)
    total = where_else(hit_x, _zero_or(tx, x))
    if tu is not None:
        total = _scatter(total, where_else(hit_u, tu), indices, params, "add")
    return ops.mul(total, scale)


def _scatter_vjp(ct, out, needs, x, updates, *indices, update, **params):
    need_x, need_u = needs[0], needs[1]
    ct_x = ct_u = None
    if update == "set":
        if need_x:
            ct_x = _scatter(ct, ops.zeros_like(updates), indices, params, "set")
        if need_u:
            won = _over_updates(_set_winners(x, indices, params), updates)
            ct_u = where_else(won, _gather(ct, indices, params))
    elif update == "add":
        ct_x = ct if need_x else None
        ct_u = _gather(ct, indices, params) if need_u else None
    elif update == "mul":
        dx, du = _mul_parts(x, updates, out, indices, params)
        ct_x = ops.mul(ct, dx) if need_x else None
        ct_u = ops.mul(_gather(ct, indices, params), du) if need_u else None
    else:
        hit_x, hit_u, scale = _extreme_parts(x, updates, out, indices, params)
        scaled = ops.mul(ct, scale)
        ct_x = where_else(hit_x, scaled) if need_x else None
        ct_u = where_else(hit_u, _gather(scaled, indices, params)) if need_u else None
    return [ct_x, ct_u] + [None] * len(indices)


jvp_rules[s.scatter_p] = _scatter_jvp
vjp_rules[s.scatter_p] = _scatter_vjp

not_differentiable = {s.nonzero_p: "its results are integer indices"}
