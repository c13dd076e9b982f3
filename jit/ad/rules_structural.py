"""Derivatives of the structural primitives: shape, reductions, scans and contraction.

Conventions are those of forward.py (jvp_rules), reverse.py (vjp_rules): structural primitives are linear
in their array operand(s) (except the max/min/prod reductions and cumulative ones), so most JVPs apply the
primitive to the tangent and most VJPs apply its transpose. Indexing (slice, pad, concatenate, gather,
scatter, nonzero) is in rules_indexing.py.

Conventions where the derivative is not unique: a max/min reduction splits its cotangent evenly among the
tied extremes (as JAX does); cummax/cummin give each output's derivative to the latest input (in scan
order) that attains it. Products are exact in the presence of zeros: the derivative with respect to one
factor is the product of the others, computed as out / x where x != 0 and from the count of zero factors
and the product of the non-zero ones where x == 0.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.ad import ops
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import vjp_rules
from arraystack.ir.avals import kind_of


def linear_jvp(prim):
    """JVP of a primitive linear in its first operand (the others are static or integer)."""

    def rule(primals, tangents, out, **params):
        if tangents[0] is None:
            return None
        return prim.bind(tangents[0], *primals[1:], **params)

    return rule


def where_else(pred, x, other=0):
    """select(pred, x, other) with a scalar `other` made an array of x's shape and dtype."""
    return ops.select(pred, x, ops.full(ops.shape(x), ops.dtype(x), other))


def as_float(pred, like):
    """A boolean array as 0/1 values of `like`'s dtype."""
    return ops.convert(pred, ops.dtype(like))


def safe_recip(x, is_zero):
    """1 / x where x != 0 and 0 where x == 0 (the divisor is replaced by 1 there, so no inf or NaN appears in
    this value or its derivatives)."""
    one = ops.full(ops.shape(x), ops.dtype(x), 1)
    return where_else(_not(is_zero), ops.div(one, ops.select(is_zero, one, x)))


def _not(pred):
    return ops.unop(p.not_p, pred)


def convert_tangent(t, dt):
    """An inexact tangent converted to the inexact dtype `dt` (complex -> real keeps the real part)."""
    dt = np.dtype(dt)
    if ops.dtype(t).kind == "c" and dt.kind != "c":
        t = ops.real(t)
    return ops.convert(t, dt)


# -- full: a broadcast of its fill value ---------------------------------------------------------------------------


def _full_jvp(primals, tangents, out, *, shape, dtype):
    if kind_of(np.dtype(dtype)) not in "fc":
        return None
    t = convert_tangent(tangents[0], dtype)
    return ops.broadcast_in_dim(t, shape, ())


def _full_vjp(ct, out, needs, value, *, shape, dtype):
    if not needs[0] or kind_of(ops.dtype(value)) not in "fc":
        return [None]
    total = ops.reduce_sum(ct, range(len(shape)))
    return [convert_tangent(total, ops.dtype(value))]


jvp_rules[s.full_p] = _full_jvp
vjp_rules[s.full_p] = _full_vjp

# -- reshape, broadcast_in_dim, transpose, rev: linear, with a shape-op transpose ----------------------------------


def _reduce_sum_vjp(ct, out, needs, x, *, axes):
    shape = ops.shape(x)
    kept = tuple(d for d in range(len(shape)) if d not in axes)
    return [ops.broadcast_in_dim(ct, shape, kept)]


def _broadcast_in_dim_vjp(ct, out, needs, x, *, shape, broadcast_dimensions):
    xshape = ops.shape(x)
    summed = tuple(d for d in range(len(shape)) if d not in broadcast_dimensions)
    # operand axes of size 1 that were stretched are summed too, keeping their (unit) axis
    stretched = tuple(
        d for i, d in enumerate(broadcast_dimensions) if xshape[i] == 1 and shape[d] != 1
    )
    total = ops.reduce_sum(ct, summed + stretched)
    return [ops.reshape(total, xshape)]


def _inverse(perm):
    inv = [0] * len(perm)
    for i, q in enumerate(perm):
        inv[q] = i
    return tuple(inv)


jvp_rules[s.reduce_sum_p] = linear_jvp(s.reduce_sum_p)
vjp_rules[s.reduce_sum_p] = _reduce_sum_vjp
jvp_rules[s.broadcast_in_dim_p] = linear_jvp(s.broadcast_in_dim_p)
vjp_rules[s.broadcast_in_dim_p] = _broadcast_in_dim_vjp
jvp_rules[s.reshape_p] = linear_jvp(s.reshape_p)
vjp_rules[s.reshape_p] = lambda ct, out, needs, x, *, new_sizes: [ops.reshape(ct, ops.shape(x))]
jvp_rules[s.transpose_p] = linear_jvp(s.transpose_p)
vjp_rules[s.transpose_p] = lambda ct, out, needs, x, *, permutation: [
    ops.transpose(ct, _inverse(permutation))
]
jvp_rules[s.rev_p] = linear_jvp(s.rev_p)
vjp_rules[s.rev_p] = lambda ct, out, needs, x, *, dimensions: [
    s.rev_p.bind(ct, dimensions=dimensions)
]

# -- reductions ---------------------------------------------------------------------------------------------------


def _kept(x, axes):
    return tuple(d for d in range(len(ops.shape(x))) if d not in axes)


def _expand(v, x, axes):
    """A reduced value broadcast back over the reduced axes of x."""
    return ops.broadcast_in_dim(v, ops.shape(x), _kept(x, axes))


def _prod_others(x, out, axes):
    """d out / d x for out = prod(x over axes): the product of the other factors, exact with zeros."""
    is_zero = ops.eq(x, ops.const(x, 0))
    zeros = ops.reduce_sum(as_float(is_zero, x), axes)
    nonzero_prod = s.reduce_prod_p.bind(
        ops.select(is_zero, ops.ones_like(x), x), axes=tuple(sorted(axes))
    )
    one_zero = _expand(ops.eq(zeros, ops.const(zeros, 1)), x, axes)
    at_zero = where_else(one_zero, _expand(nonzero_prod, x, axes))
    elsewhere = ops.mul(
        _expand(out, x, axes), safe_recip(x, is_zero)
    )  # out is 0 if another factor is
    return ops.select(is_zero, at_zero, elsewhere)


def _reduce_prod_jvp(primals, tangents, out, *, axes):
    (x,), (t,) = primals, tangents
    return ops.reduce_sum(ops.mul(t, _prod_others(x, out, axes)), axes)


def _reduce_prod_vjp(ct, out, needs, x, *, axes):
    return [ops.mul(_expand(ct, x, axes), _prod_others(x, out, axes))]


jvp_rules[s.reduce_prod_p] = _reduce_prod_jvp
vjp_rules[s.reduce_prod_p] = _reduce_prod_vjp


def _extreme_weights(x, out, axes):
    """Where x attains its reduced extreme, and 1 / (number of ties) per reduced element."""
    hit = ops.eq(x, _expand(out, x, axes))
    count = ops.reduce_sum(as_float(hit, x), axes)
    return hit, ops.div(ops.const(count, 1), count)


def _extreme_jvp(primals, tangents, out, *, axes):
    (x,), (t,) = primals, tangents
    hit, scale = _extreme_weights(x, out, axes)
    return ops.mul(ops.reduce_sum(where_else(hit, t), axes), scale)


def _extreme_vjp(ct, out, needs, x, *, axes):
    hit, scale = _extreme_weights(x, out, axes)
    return [where_else(hit, _expand(ops.mul(ct, scale), x, axes))]


for _prim in (s.reduce_max_p, s.reduce_min_p):
    jvp_rules[_prim] = _extreme_jvp
    vjp_rules[_prim] = _extreme_vjp

# -- cumulative ops ------------------------------------------------------------------------------------------------


def _cumsum(x, axis, reverse):
    return s.cumsum_p.bind(x, axis=axis, reverse=reverse)


jvp_rules[s.cumsum_p] = linear_jvp(s.cumsum_p)
vjp_rules[s.cumsum_p] = lambda ct, out, needs, x, *, axis, reverse=False: [
    _cumsum(ct, axis, not reverse)
]


def _cumprod_parts(x, axis, reverse):
    """For y = cumprod(x): 1/x (0 at zeros), where x == 0, and where the prefix holds exactly one zero
    together with the prefix product of the non-zero factors (the derivative w.r.t. that single zero)."""
    is_zero = ops.eq(x, ops.const(x, 0))
    zeros = _cumsum(as_float(is_zero, x), axis, reverse)
    single = ops.eq(zeros, ops.const(zeros, 1))
    nonzero_prod = s.cumprod_p.bind(
        ops.select(is_zero, ops.ones_like(x), x), axis=axis, reverse=reverse
    )
    return safe_recip(x, is_zero), is_zero, where_else(single, nonzero_prod)


def _cumprod_jvp(primals, tangents, out, *, axis, reverse=False):
    # dy_i = sum_{j<=i} t_j prod_{k<=i, k!=j} x_k = y_i sum_j t_j/x_j  (+ the single-zero term)
    (x,), (t,) = primals, tangents
    recip, is_zero, at_zero = _cumprod_parts(x, axis, reverse)
    smooth = ops.mul(out, _cumsum(ops.mul(t, recip), axis, reverse))
    return ops.add(smooth, ops.mul(at_zero, _cumsum(where_else(is_zero, t), axis, reverse)))


def _cumprod_vjp(ct, out, needs, x, *, axis, reverse=False):
    recip, is_zero, at_zero = _cumprod_parts(x, axis, reverse)
    smooth = ops.mul(recip, _cumsum(ops.mul(ct, out), axis, not reverse))
    return [ops.add(smooth, where_else(is_zero, _cumsum(ops.mul(ct, at_zero), axis, not reverse)))]


jvp_rules[s.cumprod_p] = _cumprod_jvp
vjp_rules[s.cumprod_p] = _cumprod_vjp


def _cumulative_winner(x, out, axis, reverse):
    """Index arrays (one per axis, x's shape) selecting, for each output of cummax/cummin, the latest input in
    scan order equal to it (an input equal to the running extreme where it is read)."""
    shape = ops.shape(x)
    pos = ops.iota(np.int64, shape, axis)
    hit = ops.eq(x, out)
    if reverse:
        winner = s.cummin_p.bind(
            ops.select(hit, pos, ops.full(shape, np.int64, shape[axis])), axis=axis, reverse=True
        )
    else:
        winner = s.cummax_p.bind(
            ops.select(hit, pos, ops.full(shape, np.int64, -1)), axis=axis, reverse=False
        )
    return tuple(winner if d == axis else ops.iota(np.int64, shape, d) for d in range(len(shape)))


def _cumextreme_jvp(primals, tangents, out, *, axis, reverse=False):
    (x,), (t,) = primals, tangents
    return s.gather_p.bind(t, *_cumulative_winner(x, out, axis, reverse), mode="clip")


def _cumextreme_vjp(ct, out, needs, x, *, axis, reverse=False):
    index = _cumulative_winner(x, out, axis, reverse)
    return [s.scatter_p.bind(ops.zeros_like(x), ct, *index, mode="clip", update="add")]


for _prim in (s.cummax_p, s.cummin_p):
    jvp_rules[_prim] = _cumextreme_jvp
    vjp_rules[_prim] = _cumextreme_vjp

# -- dot_general ---------------------------------------------------------------------------------------------------


def _dot_jvp(primals, tangents, out, *, dimension_numbers):
    (x, y), (tx, ty) = primals, tangents
    terms = []
    if tx is not None:
        terms.append(ops.dot_general(tx, y, dimension_numbers))
    if ty is not None:
        terms.append(ops.dot_general(x, ty, dimension_numbers))
    return terms[0] if len(terms) == 1 else ops.add(*terms)


def _dot_transpose(ct, other, nx, ny, dims, own_side):
    """Cotangent of one operand of dot_general (own_side 0: lhs, 1: rhs) from the output cotangent `ct`.
    ct has axes (batch, lhs free, rhs free); contracting it with the other operand over the other side's
    free axes leaves (batch, own free, other's contracted axes), which are transposed to the operand's order."""
    (lc, rc), (lb, rb) = dims
    own_c, oth_c = (lc, rc) if own_side == 0 else (rc, lc)
    own_b, oth_b = (lb, rb) if own_side == 0 else (rb, lb)
    n_own = nx if own_side == 0 else ny
    nb = len(lb)
    lfree = [i for i in range(nx) if i not in lc and i not in lb]
    rfree = [i for i in range(ny) if i not in rc and i not in rb]
    own_free = lfree if own_side == 0 else rfree
    oth_free = rfree if own_side == 0 else lfree
    start = nb + len(lfree) if own_side == 0 else nb  # where the other side's free axes sit in ct
    oth_free_ct = tuple(range(start, start + len(oth_free)))
    oth_sorted = sorted(oth_c)
    # two ways to contract: ct first (result: batch, own free, own contracted) or the other operand first
    # (batch, own contracted, own free); take the one that needs no transpose (x.T @ ct for a matmul's rhs).
    ct_first, other_first = {}, {}
    for i, a in enumerate(own_b):
        ct_first[a] = other_first[a] = i
    for r, a in enumerate(own_free):
        ct_first[a] = nb + r
        other_first[a] = nb + len(own_c) + r
    for a, b in zip(own_c, oth_c):
        ct_first[a] = nb + len(own_free) + oth_sorted.index(b)
        other_first[a] = nb + oth_sorted.index(b)
    identity = tuple(range(n_own))
    batch = tuple(range(nb))
    if tuple(other_first[a] for a in range(n_own)) == identity and tuple(ct_first[a] for a in range(n_own)) != identity:
        return ops.dot_general(other, ct, ((tuple(oth_free), oth_free_ct), (tuple(oth_b), batch)))
    res = ops.dot_general(ct, other, ((oth_free_ct, tuple(oth_free)), (batch, tuple(oth_b))))
    return ops.transpose(res, tuple(ct_first[a] for a in range(n_own)))


def _dot_vjp(ct, out, needs, x, y, *, dimension_numbers):
    nx, ny = len(ops.shape(x)), len(ops.shape(y))
    return [
        _dot_transpose(ct, y, nx, ny, dimension_numbers, 0) if needs[0] else None,
        _dot_transpose(ct, x, nx, ny, dimension_numbers, 1) if needs[1] else None,
    ]


jvp_rules[s.dot_general_p] = _dot_jvp
vjp_rules[s.dot_general_p] = _dot_vjp

# Primitives with integer or boolean results: no tangent flows out of them.
not_differentiable = {
    s.reduce_and_p: "its operand and result are boolean",
    s.reduce_or_p: "its operand and result are boolean",
    s.argmax_p: "its result is an integer index",
    s.argmin_p: "its result is an integer index",
}
