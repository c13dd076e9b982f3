"""Layout rewrites for simplify: scalar broadcasts feed elementwise ops directly, and transposes, reshapes and
broadcasts sink below elementwise ops, where they cancel (transpose of transpose) or shrink the work
(an op on a scalar before broadcasting it, instead of on the broadcast array); a reduction of a transpose
reduces the transpose's operand along the matching axes (reduce_of_transpose).

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
REDUCES = frozenset({
    s.reduce_sum_p, s.reduce_prod_p, s.reduce_max_p, s.reduce_min_p, s.reduce_and_p, s.reduce_or_p,
})  # fmt: skip
_MOVERS = frozenset({*_LAYOUT, s.full_p})  # the producers both rewrites look through


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
    inner = ctx.producer(x)  # None for a Literal
    if inner is None:
        return None
    if inner.prim is s.full_p or (
        inner.prim is s.broadcast_in_dim_p and inner.inputs[0].aval.shape == ()
    ):
        source = inner.inputs[0]
        return source if source.aval.dtype == x.aval.dtype else None
    return None


def scalar_operands(eqn, ctx):
    """op(x, broadcast(scalar)) -> op(x, scalar): elementwise ops take rank-0 operands as they are.
    For an exact (_exact) equation."""
    if len(eqn.inputs) < 2:
        return None
    inputs = None  # a list once an operand is replaced
    for i, x in enumerate(eqn.inputs):
        source = _scalar_source(x, ctx)
        if source is None:
            continue
        current = list(eqn.inputs) if inputs is None else inputs
        trial = current[:i] + [source] + current[i + 1 :]
        if _avals_match(eqn.prim, trial, eqn.params, eqn.outputs):
            inputs = trial
    if inputs is None:
        return None
    count("broadcast_scalar_operand")
    return Eqn(eqn.prim, tuple(inputs), eqn.outputs, eqn.params, eqn.source)


def sink_layout(eqn, ctx):
    """op(L(a), L(b), literal) -> L(op(a, b, literal)) for one layout op L (same params, same source shapes)
    used only here: the op runs before the layout change, where a later one may cancel it. For an exact
    (_exact) equation."""
    if eqn.prim.multiple_results:
        return None
    inner = None  # the layout op, alike for every operand that is not a scalar
    n_layout = 0
    sources = []
    for x in eqn.inputs:
        if isinstance(x, Literal) or x.aval.shape == ():
            sources.append(x)
            continue
        this = ctx.producer(x)
        if this is None or this.prim not in _LAYOUT:
            return None
        if inner is None:
            if this.prim is s.broadcast_in_dim_p and this.inputs[0].aval.shape == ():
                return None  # scalar_operands handles these without a new broadcast
            inner = this
        elif not _same_layout(inner, this):
            return None
        if ctx.uses(x) > eqn.inputs.count(x):  # Vars compare by identity
            return None  # the layout value is needed elsewhere: sinking would not remove it
        n_layout += 1
        sources.append(this.inputs[0])
    if inner is None:
        return None
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


def _same_layout(a, b):
    """The same layout op with the same params, from operands of the same shape."""
    return (
        a.prim is b.prim
        and a.params == b.params
        and a.inputs[0].aval.shape == b.inputs[0].aval.shape
    )


def _meets(var, prim, ctx, depth=0):
    """var flows, through single uses by exact ops, into a `prim` layout op it could cancel or merge with."""
    users = ctx.users(var)
    if len(users) != 1 or depth > 8:
        return False
    (user,) = users
    if user.prim is prim or (prim is s.transpose_p and user.prim in REDUCES):
        return True  # a reduction takes the transpose in (reduce_of_transpose)
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


def reduce_of_transpose(eqn, ctx):
    """reduce(transpose(x, perm), axes) -> reduce(x, perm[axes]), where perm keeps the order of the kept
    axes and of the reduced ones: every output element reduces the same values in the same order (the
    kernels' order follows the reduced axes whatever the layout; NumPy iterates a transposed view as its
    base), and the reduction reads x along its layout instead of across it: sum(x.T * 2, axis=1) on a
    (4096, 1024) float32 x walked each of x's columns (40 ms; NumPy 5.6 ms); now x's rows are read in
    blocks of columns (codegen_columns.py)."""
    inner = ctx.producer(eqn.inputs[0])
    if inner is None or inner.prim is not s.transpose_p:
        return None
    perm = tuple(inner.params["permutation"])
    axes = tuple(sorted(eqn.params["axes"]))
    kept = [perm[d] for d in range(len(perm)) if d not in axes]
    reduced = [perm[d] for d in axes]
    if kept != sorted(kept) or reduced != sorted(reduced):
        return None
    params = {**eqn.params, "axes": tuple(reduced)}
    if not _avals_match(eqn.prim, inner.inputs, params, eqn.outputs):
        return None
    count("reduce_of_transpose")
    return Eqn(eqn.prim, inner.inputs, eqn.outputs, params, eqn.source)


def layout_rules(eqn, ctx):
    """The layout rewrites for an elementwise equation, first that applies."""
    for x in eqn.inputs:
        inner = ctx.producer(x)
        if inner is not None and inner.prim in _MOVERS:
            break
    else:
        return None  # no operand is a layout op's result: neither rewrite applies
    if not _exact(eqn):
        return None
    return scalar_operands(eqn, ctx) or sink_layout(eqn, ctx)
