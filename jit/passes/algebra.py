"""Arithmetic rewrites for simplify (the rule table is in simplify.py). Every one keeps results bit-identical
to the unoptimized graph on every input, NaN, inf, -0.0 and integer overflow included (NaN payloads aside:
every NaN stays a NaN, but which of two NaN operands' payloads survives is not promised, as NumPy's own SIMD
and scalar loops do not promise it either).

| rewrite | dtypes | why it is exact |
| --- | --- | --- |
| x * 1 -> x | all but complex | IEEE multiplication by 1 returns x (NaN, inf, -0.0 too); (inf+0j)*(1+0j) is inf+nanj |
| x + 0 -> x | integers, bool | 0 is the additive identity of wrapping integers; for floats -0.0 + 0.0 = +0.0 |
| x + (-0.0) -> x | floats | x + -0.0 = x for every x: 0.0 + -0.0 = 0.0, -0.0 + -0.0 = -0.0 |
| x - 0 -> x | integers, floats (+0.0) | x - (+0.0) = x: -0.0 - 0.0 = -0.0 (but x - (-0.0) = x + 0.0 is not) |
| x - x -> 0 | integers | wrapping subtraction; for floats inf - inf and nan - nan are nan (not for a checked read: its bounds check would go with it) |
| -(-x) -> x | all | negation flips the sign bit (wraps for the smallest integer) twice |
| x / c -> x * (1/c) | real floats, c = +-2**k with 1/c exact | both round the same real number x*2**-k once |
| x ** 0 -> 1, x ** 1 -> x | real floats, integers | pow(x, 0) = 1 even for NaN; pow(x, 1) = x |
| x ** 2 -> x * x | real floats, integers | NumPy's power(x, 2.0) is x*x bit for bit (tested); integers wrap alike |
| x ** 3, x ** 4 -> multiplies | integers only | integer multiplication mod 2**n is associative; floats round twice |
| select(p, a, a) -> a | all | both branches are the same value |
| select(True/False, a, b) -> a / b | all | a constant predicate |
| commutative ops: Literal second, Vars in definition order | add, mul (not complex), eq, ne, and, or, xor, max/min (integers) | IEEE + and * are commutative; complex * may use FMAs that are not; max(-0.0, 0.0) is order dependent |
| 2.0 < x -> x > 2.0 (and le/ge, Var order) | all | the same comparison |

Asked for and rejected, as they change values: x + 0.0 -> x for floats (-0.0 + 0.0 = 0.0); x - x -> 0 for
floats (inf, nan); x * 0 -> 0 (nan, inf, -0.0); exp(log x) -> x and log(exp x) -> x (two roundings, and
exp overflows: log(exp(1000.)) = inf); x ** 3 -> x*x*x for floats (rounds twice: differs in about a quarter
of random inputs); x ** -1 -> 1/x and x ** 0.5 -> sqrt(x) (pow(-0.0, 0.5) = +0.0 but sqrt(-0.0) = -0.0,
pow(-inf, 0.5) = inf; 1/x relies on libm's pow being correctly rounded); x / c -> x * (1/c) for c not a
power of two (1/c rounds).
"""

from __future__ import annotations

import math

import numpy as np
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.ir import Eqn, Literal, Var, out_avals_of
from arraystack.ir.passes.pipeline import count

_SWAPPED = {p.lt_p: p.gt_p, p.gt_p: p.lt_p, p.le_p: p.ge_p, p.ge_p: p.le_p}
_COMMUTATIVE = {p.add_p, p.mul_p, p.eq_p, p.ne_p, p.and_p, p.or_p, p.xor_p, p.max_p, p.min_p}


def _is_literal(x, value):
    return isinstance(x, Literal) and not isinstance(x.value, complex) and x.value == value


def _literal_value(x):
    """The value of a real (non-complex) scalar Literal, or None."""
    if isinstance(x, Literal) and x.aval.dtype.kind in "biuf":
        return x.value
    return None


def _same(x, eqn):
    """x may stand for eqn's output: a Var with exactly the output's aval."""
    return isinstance(x, Var) and x.aval == eqn.outputs[0].aval


def _new(prim, inputs, outputs, eqn, params=None):
    """An Eqn with eqn's outputs and source, if the shape rule gives exactly those avals."""
    params = eqn.params if params is None else params
    try:
        avals = out_avals_of(prim, [x.aval for x in inputs], params)
    except (TypeError, ValueError, NotImplementedError):  # the shape rule refuses these operands
        return None
    if tuple(avals) != tuple(v.aval for v in outputs):
        return None
    return Eqn(prim, tuple(inputs), tuple(outputs), params, eqn.source)


def _filled(eqn, value):
    """full[shape, dtype] value with eqn's output aval (a fresh array of one value)."""
    aval = eqn.outputs[0].aval
    if aval.weak_type:
        return None  # full makes strongly typed arrays
    literal = Literal(np.zeros((), aval.dtype).dtype.type(value), aval.update(shape=()))
    return _new(
        s.full_p, (literal,), eqn.outputs, eqn, {"shape": tuple(aval.shape), "dtype": aval.dtype}
    )


def canonicalize(eqn, ctx):
    """Commutative ops and comparisons: a Literal goes second, two Vars in the order they were defined."""
    prim = eqn.prim
    if len(eqn.inputs) != 2 or (prim not in _COMMUTATIVE and prim not in _SWAPPED):
        return None
    a, b = eqn.inputs
    if isinstance(b, Literal):
        return None  # a Literal second is in order whatever comes first
    kind = a.aval.dtype.kind
    if prim is p.mul_p and kind == "c":
        return None
    if prim in (p.max_p, p.min_p) and kind in "fc":
        return None  # NumPy's maximum(-0.0, 0.0) is -0.0 but maximum(0.0, -0.0) is 0.0
    if ctx.order_key(a) <= ctx.order_key(b):
        return None
    count("canonicalize_operands")
    # the shape rules of these binary primitives are symmetric: swapped operands give the same avals
    return Eqn(_SWAPPED.get(prim, prim), (b, a), eqn.outputs, eqn.params, eqn.source)


def _mul(eqn, ctx):
    a, b = eqn.inputs
    if (isinstance(a, Literal) or isinstance(b, Literal)) and eqn.outputs[0].aval.dtype.kind != "c":
        for x, other in ((a, b), (b, a)):
            if _is_literal(other, 1) and _same(x, eqn):
                count("x*1")
                return x
    return canonicalize(eqn, ctx)


def _add(eqn, ctx):
    a, b = eqn.inputs
    kind = eqn.outputs[0].aval.dtype.kind
    for x, other in ((a, b), (b, a)):
        if not isinstance(other, Literal) or not _same(x, eqn):
            continue  # both rewrites below add a Literal
        if kind in "iub" and _is_literal(other, 0):
            count("x+0")
            return x
        value = _literal_value(other)
        if kind == "f" and value is not None and value == 0 and np.signbit(value):
            count("x+(-0.0)")
            return x
    return canonicalize(eqn, ctx)


def _sub(eqn, ctx):
    a, b = eqn.inputs
    kind = eqn.outputs[0].aval.dtype.kind
    value = _literal_value(b)
    if (
        _same(a, eqn)
        and value is not None
        and value == 0
        and kind in "iuf"
        and not np.signbit(value)
    ):
        count("x-0")
        return a
    if kind in "iu" and a is b and isinstance(a, Var) and not _checked(a, ctx):
        result = _filled(eqn, 0)
        if result is not None:
            count("x-x")
        return result
    return None


def _checked(x, ctx) -> bool:
    """Whether `x` is read by an index that checks its bounds when the graph runs (a gather or scatter
    in a raising mode): a rewrite must not make it dead code, which would drop the check NumPy makes
    (x - x of the read is 0 whatever it holds, but NumPy's read of an out-of-bounds index raises)."""
    producer = ctx.producer(x)
    return (
        producer is not None
        and producer.prim in (s.gather_p, s.scatter_p)
        and producer.params.get("mode") in ("raise", *s.RANGE_ERRORS)
    )


def _neg(eqn, ctx):
    inner = ctx.producer(eqn.inputs[0])
    if inner is not None and inner.prim is p.neg_p and _same(inner.inputs[0], eqn):
        count("--x")
        return inner.inputs[0]
    return None


def _div(eqn, ctx):
    a, b = eqn.inputs
    dtype = eqn.outputs[0].aval.dtype
    value = _literal_value(b)
    if dtype.kind != "f" or value is None or not math.isfinite(value) or value == 0:
        return None
    c = dtype.type(value)
    if abs(math.frexp(float(c))[0]) != 0.5:  # float(c) is exact for every float dtype
        return None  # not a power of two: 1/c rounds
    with np.errstate(all="ignore"):
        recip = dtype.type(1) / c
    if (
        recip == 0
        or not math.isfinite(recip)
        or recip * c != 1
        or abs(math.frexp(float(recip))[0]) != 0.5
    ):
        return None
    result = _new(p.mul_p, (a, Literal(recip, b.aval)), eqn.outputs, eqn, {})
    if result is not None:
        count("x/2**k")
    return result


def _pow(eqn, ctx):
    x, e = eqn.inputs
    kind = eqn.outputs[0].aval.dtype.kind
    value = _literal_value(e)
    if value is None or kind not in "iuf" or not isinstance(x, Var):
        return None
    if not np.isfinite(value) or value != int(value):
        return None  # x ** nan, x ** inf, x ** 2.5
    n = int(value)
    if n == 0:
        result = None if _checked(x, ctx) else _filled(eqn, 1)
    elif n == 1:
        result = x if _same(x, eqn) else None
    elif n == 2 or (kind in "iu" and n in (3, 4)):
        result = _power_chain(eqn, x, n, ctx)
    else:
        result = None
    if result is not None:
        count(f"x**{n}")
    return result


def _power_chain(eqn, x, n, ctx):
    if not _same(x, eqn):
        return None
    if n == 2:
        return _new(p.mul_p, (x, x), eqn.outputs, eqn, {})
    square = Var(x.aval)
    first = Eqn(p.mul_p, (x, x), (square,), {}, eqn.source)
    last = _new(p.mul_p, (square, x if n == 3 else square), eqn.outputs, eqn, {})
    return None if last is None else [first, last]


def _select(eqn, ctx):
    pred, on_true, on_false = eqn.inputs
    if on_true is on_false and _same(on_true, eqn):
        count("select(p,a,a)")
        return on_true
    if isinstance(pred, Literal):
        chosen = on_true if pred.value else on_false
        dropped = on_false if pred.value else on_true
        if _same(chosen, eqn) and not (isinstance(dropped, Var) and _checked(dropped, ctx)):
            count("select(const,a,b)")
            return chosen
    return None


def register(rules):
    rules[p.mul_p] = _mul
    rules[p.add_p] = _add
    rules[p.sub_p] = _sub
    rules[p.neg_p] = _neg
    rules[p.div_p] = _div
    rules[p.pow_p] = _pow
    rules[p.select_p] = _select
    for prim in (p.eq_p, p.ne_p, p.and_p, p.or_p, p.xor_p, p.max_p, p.min_p, *_SWAPPED):
        rules[prim] = canonicalize
