"""Layout rewrites for simplify: scalar broadcasts feed elementwise ops directly, and transposes, reshapes and
broadcasts sink below elementwise ops, where they cancel (transpose of transpose) or shrink the work
(an op on a scalar before broadcasting it, instead of on the broadcast array).

Exactness: a layout op (transpose, reshape, broadcast_in_dim, full) only moves or repeats values, so
computing an elementwise op before or after it gives the same values element by element, as long as the op
gives the same result for the same operands wherever and however NumPy's loops visit them. That holds for
the ops in EXACT_OPS: IEEE's correctly rounded arithmetic (+ - * / sqrt), comparisons, sign and bit
operations, rounding to integers, min/max, select, and conversions except float -> integer. Transcendental functions (exp, sin, pow, ...) are left
alone: NumPy's SIMD and scalar paths for them may differ in the last bit, and a layout change can switch path.
"""

from __future__ import annotations

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.ir import Eqn, Literal, Var, out_avals_of
from arraystack.ir.passes.pipeline import count

EXACT_OPS = frozenset({
    p.neg_p, p.abs_p, p.sign_p, p.floor_p, p.ceil_p, p.trunc_p, p.rint_p, p.sqrt_p, p.isnan_p,
    p.isinf_p, p.isfinite_p, p.signbit_p, p.not_p, p.conj_p, p.real_p, p.imag_p,
    p.add_p, p.sub_p, p.mul_p, p.div_p, p.max_p, p.min_p, p.copysign_p, p.nextafter_p, p.and_p,
    p.or_p, p.xor_p, p.eq_p, p.ne_p, p.lt_p, p.le_p, p.gt_p, p.ge_p, p.select_p,
})  # fmt: skip

_LAYOUT = (s.transpose_p, s.reshape_p, s.broadcast_in_dim_p)


def _exact(eqn):
    if eqn.prim is p.convert_p:  # integer -> anything real and float -> float round once, exactly;
        kinds = (
            eqn.inputs[0].aval.dtype.kind + eqn.outputs[0].aval.dtype.kind
        )  # float -> int of nan
        return kinds[0] in "biu" and kinds[1] != "c" or kinds == "ff"  # and inf is machine-defined
    if eqn.prim not in EXACT_OPS:
        return False
    # complex * and / are formulas over several roundings (and FMAs): keep them where they are
    return not (eqn.prim in (p.mul_p, p.div_p, p.sqrt_p) and eqn.outputs[0].aval.dtype.kind == "c")


def _avals_match(prim, inputs, params, outputs):
    try:
        avals = out_avals_of(prim, [x.aval for x in inputs], params)
    except (TypeError, ValueError, NotImplementedError):  # the shape rule refuses these operands
        return False
    return tuple(avals) == tuple(v.aval for v in outputs)


def _scalar_source(x, ctx):
    """The scalar that x is a broadcast of (full, or broadcast_in_dim of a rank-0 operand), or None."""
    inner = ctx.producer(x)
    if inner is None:
        return None
    if inner.prim is s.full_p or (
        inner.prim is s.broadcast_in_dim_p and inner.inputs[0].aval.shape == ()
    ):
        source = inner.inputs[0]
        return source if source.aval.dtype == x.aval.dtype else None
    return None


def scalar_operands(eqn, ctx):
    """op(x, broadcast(scalar)) -> op(x, scalar): elementwise ops take rank-0 operands as they are."""
    if not _exact(eqn) or len(eqn.inputs) < 2:
        return None
    inputs = list(eqn.inputs)
    changed = False
    for i, x in enumerate(inputs):
        source = _scalar_source(x, ctx) if isinstance(x, Var) else None
        if source is None:
            continue
        trial = inputs[:i] + [source] + inputs[i + 1 :]
        if _avals_match(eqn.prim, trial, eqn.params, eqn.outputs):
            inputs, changed = trial, True
    if not changed:
        return None
    count("broadcast_scalar_operand")
    return Eqn(eqn.prim, tuple(inputs), eqn.outputs, eqn.params, eqn.source)


def sink_layout(eqn, ctx):
    """op(L(a), L(b), literal) -> L(op(a, b, literal)) for one layout op L (same params, same source shapes)
    used only here: the op runs before the layout change, where a later one may cancel it."""
    if not _exact(eqn) or eqn.prim.multiple_results:
        return None
    layout = None
    sources = []
    for x in eqn.inputs:
        if isinstance(x, Literal) or x.aval.shape == ():
            sources.append(x)
            continue
        inner = ctx.producer(x)
        if inner is None or inner.prim not in _LAYOUT:
            return None
        key = (inner.prim, tuple(sorted(inner.params.items())), inner.inputs[0].aval.shape)
        if layout is None:
            layout = (key, inner)
        elif layout[0] != key:
            return None
        if ctx.uses(x) > sum(1 for y in eqn.inputs if y is x):
            return None  # the layout value is needed elsewhere: sinking would not remove it
        sources.append(inner.inputs[0])
    if layout is None:
        return None
    inner = layout[1]
    if inner.prim is s.broadcast_in_dim_p and inner.inputs[0].aval.shape == ():
        return None  # scalar_operands handles these without a new broadcast
    n_layout = sum(1 for x in eqn.inputs if isinstance(x, Var) and x.aval.shape != ())
    if not (
        n_layout > 1
        or inner.prim is s.broadcast_in_dim_p
        or _meets(eqn.outputs[0], inner.prim, ctx)
    ):
        return None  # no gain: as many layout ops as before, and none to cancel against below
    out = eqn.outputs[0]
    try:
        (aval,) = out_avals_of(eqn.prim, [x.aval for x in sources], eqn.params)
    except (TypeError, ValueError, NotImplementedError):  # the shape rule refuses these operands
        return None
    mid = Var(aval)
    if not _avals_match(inner.prim, (mid,), inner.params, eqn.outputs):
        return None
    count(f"sink_{inner.prim.name}")
    return [
        Eqn(eqn.prim, tuple(sources), (mid,), eqn.params, eqn.source),
        Eqn(inner.prim, (mid,), (out,), inner.params, eqn.source),
    ]


def _meets(var, prim, ctx, depth=0):
    """var flows, through single uses by exact ops, into a `prim` layout op it could cancel or merge with."""
    users = ctx.users(var)
    if len(users) != 1 or depth > 8:
        return False
    (user,) = users
    if user.prim is prim:
        return True
    return _exact(user) and len(user.outputs) == 1 and _meets(user.outputs[0], prim, ctx, depth + 1)


def broadcast_of_broadcast(eqn, ctx):
    """broadcast(broadcast(x)) -> one broadcast; broadcast(full v) -> full v of the new shape."""
    (x,) = eqn.inputs
    inner = ctx.producer(x)
    if inner is None:
        return None
    shape = tuple(eqn.params["shape"])
    dims = tuple(eqn.params["broadcast_dimensions"])
    if inner.prim is s.broadcast_in_dim_p:
        composed = tuple(dims[d] for d in inner.params["broadcast_dimensions"])
        params = {"shape": shape, "broadcast_dimensions": composed}
        if _avals_match(s.broadcast_in_dim_p, inner.inputs, params, eqn.outputs):
            count("broadcast_of_broadcast")
            return Eqn(s.broadcast_in_dim_p, inner.inputs, eqn.outputs, params, eqn.source)
    if inner.prim is s.full_p:
        params = {**inner.params, "shape": shape}
        if _avals_match(s.full_p, inner.inputs, params, eqn.outputs):
            count("broadcast_of_full")
            return Eqn(s.full_p, inner.inputs, eqn.outputs, params, eqn.source)
    return None


def layout_rules(eqn, ctx):
    """The layout rewrites for an elementwise equation, first that applies."""
    return scalar_operands(eqn, ctx) or sink_layout(eqn, ctx)
