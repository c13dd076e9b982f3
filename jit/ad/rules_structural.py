"""Derivatives of the structural primitives: shape, indexing, reductions, scans and contraction.

Conventions are those of forward.py (jvp_rules), reverse.py (vjp_rules): structural primitives are linear
in their array operand(s) (except the max/min/prod reductions and cumulative ones, gather/scatter in their
indices), so most JVPs apply the primitive to the tangent and most VJPs apply its transpose.
"""

from __future__ import annotations

from arraystack.ir import structural as s
from arraystack.ir.ad import ops
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import vjp_rules


def _linear_jvp(prim):
    """JVP of a primitive linear in its first operand (the others are static or integer)."""

    def rule(primals, tangents, out, **params):
        if tangents[0] is None:
            return None
        return prim.bind(tangents[0], *primals[1:], **params)

    return rule


# -- reduce_sum / broadcast_in_dim: each other's transpose ------------------------------------------------------


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


jvp_rules[s.reduce_sum_p] = _linear_jvp(s.reduce_sum_p)
vjp_rules[s.reduce_sum_p] = _reduce_sum_vjp
jvp_rules[s.broadcast_in_dim_p] = _linear_jvp(s.broadcast_in_dim_p)
vjp_rules[s.broadcast_in_dim_p] = _broadcast_in_dim_vjp
