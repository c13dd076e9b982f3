"""Derivatives of the elementwise primitives: one table of partial derivatives gives the JVP and VJP rules.

`partials[p] = (d0, d1, ...)`, one function per operand, `d_i(x, ..., out) -> d out / d operand_i` as a
value of the output's dtype (None where the partial is zero). Only the partials a rule needs are computed.
JVP: t_out = sum(t_i * d_i). VJP: ct_i = ct * d_i, summed back to the operand's shape where a rank-0 operand
was broadcast. For complex values this is JAX's convention (the VJP is the transpose of the JVP for the
bilinear pairing, so a holomorphic f has VJP ct * f'(z)); conj/real/imag/abs/complex have their own rules.
Primitives whose output is piecewise constant (floor, sign, ...) have zero derivatives almost everywhere.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir import primitives as p
from arraystack.ir.ad import ops
from arraystack.ir.ad.batching import batch_rules
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import vjp_rules
from arraystack.ir.avals import kind_of
from arraystack.ir.core import Tracer

partials: dict = {}


def _c(x, v):
    return ops.const(x, v)


def _unary(prim, fn):
    partials[prim] = (fn,)


# -- unary ------------------------------------------------------------------------------------------------------

_unary(p.neg_p, lambda x, out: _c(x, -1))
_unary(p.exp_p, lambda x, out: out)
_unary(p.exp2_p, lambda x, out: ops.mul(out, _c(x, np.log(2.0))))
_unary(p.expm1_p, lambda x, out: ops.add(out, _c(x, 1)))
_unary(p.log_p, lambda x, out: ops.div(_c(x, 1), x))
_unary(p.log2_p, lambda x, out: ops.div(_c(x, 1 / np.log(2.0)), x))
_unary(p.log10_p, lambda x, out: ops.div(_c(x, 1 / np.log(10.0)), x))
_unary(p.log1p_p, lambda x, out: ops.div(_c(x, 1), ops.add(x, _c(x, 1))))
_unary(p.sqrt_p, lambda x, out: ops.div(_c(x, 0.5), out))
_unary(p.cbrt_p, lambda x, out: ops.div(_c(x, 1 / 3), ops.square(out)))
_unary(p.sin_p, lambda x, out: ops.unop(p.cos_p, x))
_unary(p.cos_p, lambda x, out: ops.neg(ops.unop(p.sin_p, x)))
_unary(p.tan_p, lambda x, out: ops.add(_c(x, 1), ops.square(out)))
_unary(p.asin_p, lambda x, out: ops.div(_c(x, 1), ops.unop(p.sqrt_p, ops.sub(_c(x, 1), ops.square(x)))))
_unary(p.acos_p, lambda x, out: ops.div(_c(x, -1), ops.unop(p.sqrt_p, ops.sub(_c(x, 1), ops.square(x)))))
_unary(p.atan_p, lambda x, out: ops.div(_c(x, 1), ops.add(_c(x, 1), ops.square(x))))
_unary(p.sinh_p, lambda x, out: ops.unop(p.cosh_p, x))
_unary(p.cosh_p, lambda x, out: ops.unop(p.sinh_p, x))
_unary(p.tanh_p, lambda x, out: ops.sub(_c(x, 1), ops.square(out)))
_unary(p.asinh_p, lambda x, out: ops.div(_c(x, 1), ops.unop(p.sqrt_p, ops.add(ops.square(x), _c(x, 1)))))
_unary(p.acosh_p, lambda x, out: ops.div(_c(x, 1), ops.unop(p.sqrt_p, ops.sub(ops.square(x), _c(x, 1)))))
_unary(p.atanh_p, lambda x, out: ops.div(_c(x, 1), ops.sub(_c(x, 1), ops.square(x))))
_unary(p.logistic_p, lambda x, out: ops.mul(out, ops.sub(_c(x, 1), out)))
_unary(
    p.erf_p,
    lambda x, out: ops.mul(_c(x, 2 / np.sqrt(np.pi)), ops.unop(p.exp_p, ops.neg(ops.square(x)))),
)
_unary(p.copy_p, lambda x, out: _c(x, 1))
for _prim in (p.floor_p, p.ceil_p, p.trunc_p, p.rint_p, p.sign_p):
    _unary(_prim, lambda x, out: None)  # piecewise constant


def _abs_partial(x, out):
    if ops.dtype(x).kind == "c":
        return None  # handled by its own rules below (the output is real)
    return ops.unop(p.sign_p, x)


_unary(p.abs_p, _abs_partial)

# -- binary -----------------------------------------------------------------------------------------------------

def _none(*args):
    return None


partials[p.add_p] = (lambda x, y, out: _c(out, 1), lambda x, y, out: _c(out, 1))
partials[p.sub_p] = (lambda x, y, out: _c(out, 1), lambda x, y, out: _c(out, -1))
partials[p.mul_p] = (lambda x, y, out: y, lambda x, y, out: x)
partials[p.div_p] = (lambda x, y, out: ops.div(_c(y, 1), y), lambda x, y, out: ops.neg(ops.div(out, y)))
partials[p.max_p] = (lambda x, y, out: _choose(x, y, p.gt_p), lambda x, y, out: _choose(y, x, p.gt_p))
partials[p.min_p] = (lambda x, y, out: _choose(x, y, p.lt_p), lambda x, y, out: _choose(y, x, p.lt_p))
partials[p.atan2_p] = (
    lambda x, y, out: ops.div(y, ops.add(ops.square(x), ops.square(y))),
    lambda x, y, out: ops.neg(ops.div(x, ops.add(ops.square(x), ops.square(y)))),
)
partials[p.hypot_p] = (lambda x, y, out: ops.div(x, out), lambda x, y, out: ops.div(y, out))
partials[p.copysign_p] = (lambda x, y, out: ops.mul(ops.unop(p.sign_p, x), ops.unop(p.sign_p, out)), _none)
partials[p.fmod_p] = (lambda x, y, out: _c(x, 1), lambda x, y, out: ops.neg(ops.unop(p.trunc_p, ops.div(x, y))))
partials[p.rem_p] = (lambda x, y, out: _c(x, 1), lambda x, y, out: ops.neg(ops.unop(p.floor_p, ops.div(x, y))))
partials[p.floordiv_p] = (_none, _none)
partials[p.nextafter_p] = (lambda x, y, out: _c(x, 1), _none)  # x moved by one ulp: slope 1 in x
partials[p.pow_p] = (lambda x, y, out: _pow_dx(x, y), lambda x, y, out: _pow_dy(x, out))


def _choose(x, y, strict):
    """d max(x, y)/dx: 1 where x wins, 1/2 on ties (as JAX does), 0 elsewhere. Scalar branches keep the
    compiled select free of materialized constant arrays."""
    c = lambda v: _c(x, v)  # noqa: E731
    return ops.select(ops.binop(strict, x, y), c(1), ops.select(ops.eq(x, y), c(0.5), c(0)))


def _pow_dx(x, y):
    return ops.mul(y, ops.binop(p.pow_p, x, ops.sub(y, _c(y, 1))))


def _pow_dy(x, out):
    # log(x) * x**y, taken as 0 where x == 0 (so 0**y keeps a finite derivative in y)
    if ops.dtype(x).kind != "c" and ops.shape(x):
        x = ops.select(ops.eq(x, _c(x, 0)), ops.full(ops.shape(x), ops.dtype(x), 1), x)
    return ops.mul(ops.unop(p.log_p, x), out)


# -- rules from the table -----------------------------------------------------------------------------------------


def _make_jvp(prim):
    def rule(primals, tangents, out, **params):
        if kind_of(ops.dtype(out)) not in "fc":
            return None
        total = None
        for t, d_fn in zip(tangents, partials[prim]):
            d = None if t is None else d_fn(*primals, out)
            if d is None:
                continue
            term = ops.expand_like(ops.mul(t, d) if not _is_one(d) else t, ops.shape(out))
            total = term if total is None else ops.add(total, term)
        return total

    return rule


def _make_vjp(prim):
    def rule(ct, out, needs, *primals, **params):
        cts = []
        for x, need, d_fn in zip(primals, needs, partials[prim]):
            if not need:
                d = None
            elif len(primals) == 2:  # a plain call, without d_fn(*primals)'s new C frame
                d = d_fn(primals[0], primals[1], out)
            elif len(primals) == 1:
                d = d_fn(primals[0], out)
            else:
                d = d_fn(*primals, out)
            if d is None:
                cts.append(None)
                continue
            c = ct if _is_one(d) else ops.mul(ct, d)
            cts.append(ops.sum_to_shape(c, ops.shape(x)))
        return cts

    return rule


def _is_one(d):
    t = type(d)
    return t is not Tracer and t is not np.ndarray and isinstance(d, np.generic) and d == 1


for _prim in partials:
    jvp_rules[_prim] = _make_jvp(_prim)
    vjp_rules[_prim] = _make_vjp(_prim)


# -- rules that do not fit the table -------------------------------------------------------------------------------


def _abs_jvp(primals, tangents, out, **params):
    (x,), (t,) = primals, tangents
    if ops.dtype(x).kind != "c":
        return ops.mul(t, ops.unop(p.sign_p, x))
    # |z|' along t = Re(conj(z) t) / |z|, 0 at z = 0
    num = ops.real(ops.mul(ops.conj(x), t))
    return ops.div(num, _nonzero(out))


def _abs_vjp(ct, out, needs, x, **params):
    if ops.dtype(x).kind != "c":
        return [ops.mul(ct, ops.unop(p.sign_p, x))]
    # the transpose of t -> Re(conj(z) t) / |z|: ct * conj(z) / |z|
    scale = ops.div(ct, _nonzero(out))
    return [ops.mul(_to_complex(scale), ops.conj(x))]


def _nonzero(v):
    """v with zeros replaced by inf, so dividing by it gives 0 where v is 0."""
    zero = ops.eq(v, _c(v, 0))
    return ops.select(zero, ops.expand_like(_c(v, np.inf), ops.shape(v)), v)


def _to_complex(re, im=None):
    return ops.binop(p.complex_p, re, ops.zeros_like(re) if im is None else im)


jvp_rules[p.abs_p] = _abs_jvp
vjp_rules[p.abs_p] = _abs_vjp

# conj/real/imag/complex are R-linear: JVP applies the map, VJP its transpose (JAX's conventions)
jvp_rules[p.conj_p] = lambda primals, tangents, out: ops.conj(tangents[0])
vjp_rules[p.conj_p] = lambda ct, out, needs, x: [ops.conj(ct)]
jvp_rules[p.real_p] = lambda primals, tangents, out: ops.real(tangents[0])
vjp_rules[p.real_p] = lambda ct, out, needs, x: [_to_complex(ct) if ops.dtype(x).kind == "c" else ct]
jvp_rules[p.imag_p] = lambda primals, tangents, out: (
    ops.unop(p.imag_p, tangents[0]) if ops.dtype(tangents[0]).kind == "c" else ops.zeros_like(out)
)
vjp_rules[p.imag_p] = lambda ct, out, needs, x: [
    _to_complex(ops.zeros_like(ct), ops.neg(ct)) if ops.dtype(x).kind == "c" else None
]


def _complex_jvp(primals, tangents, out):
    re_t, im_t = tangents
    re_t = ops.zeros_like(primals[0]) if re_t is None else re_t
    im_t = ops.zeros_like(primals[1]) if im_t is None else im_t
    return ops.expand_like(_to_complex(*_same_shape(re_t, im_t)), ops.shape(out))


def _same_shape(a, b):
    sa, sb = ops.shape(a), ops.shape(b)
    return ops.expand_like(a, sb or sa), ops.expand_like(b, sa or sb)


jvp_rules[p.complex_p] = _complex_jvp
vjp_rules[p.complex_p] = lambda ct, out, needs, re, im: [
    ops.sum_to_shape(ops.real(ct), ops.shape(re)) if needs[0] else None,
    ops.sum_to_shape(ops.neg(ops.unop(p.imag_p, ct)), ops.shape(im)) if needs[1] else None,
]


def _select_jvp(primals, tangents, out):
    pred, a, b = primals
    _, ta, tb = tangents
    shape = ops.shape(out)
    ta = ops.full(shape, ops.dtype(out), 0) if ta is None else ops.expand_like(ta, shape)
    tb = ops.full(shape, ops.dtype(out), 0) if tb is None else ops.expand_like(tb, shape)
    return ops.select(pred, ta, tb)


def _select_vjp(ct, out, needs, pred, a, b):
    zeros = ops.zeros_like(ct)
    return [
        None,
        ops.sum_to_shape(ops.select(pred, ct, zeros), ops.shape(a)) if needs[1] else None,
        ops.sum_to_shape(ops.select(pred, zeros, ct), ops.shape(b)) if needs[2] else None,
    ]


jvp_rules[p.select_p] = _select_jvp
vjp_rules[p.select_p] = _select_vjp


def _convert_tangent(t, dtype):
    """t (inexact) converted to an inexact dtype; complex -> real keeps the real part, as astype does."""
    if ops.dtype(t).kind == "c" and np.dtype(dtype).kind != "c":
        t = ops.real(t)
    return ops.convert(t, dtype)


def _convert_jvp(primals, tangents, out, *, dtype, weak_type=False):
    if kind_of(ops.dtype(out)) not in "fc":
        return None
    return _convert_tangent(tangents[0], ops.dtype(out))


def _convert_vjp(ct, out, needs, x, *, dtype, weak_type=False):
    if kind_of(ops.dtype(x)) not in "fc":
        return [None]
    return [_convert_tangent(ct, ops.dtype(x))]


jvp_rules[p.convert_p] = _convert_jvp
vjp_rules[p.convert_p] = _convert_vjp
jvp_rules[p.stop_gradient_p] = lambda primals, tangents, out: None
vjp_rules[p.stop_gradient_p] = lambda ct, out, needs, x: [None]
jvp_rules[p.checkpoint_name_p] = lambda primals, tangents, out, name=None: tangents[0]
vjp_rules[p.checkpoint_name_p] = lambda ct, out, needs, x, name=None: [ct]
jvp_rules[p.ldexp_p] = lambda primals, tangents, out: ops.expand_like(
    ops.binop(p.ldexp_p, tangents[0], primals[1]), ops.shape(out)
)
vjp_rules[p.ldexp_p] = lambda ct, out, needs, x, n: [ops.sum_to_shape(ops.binop(p.ldexp_p, ct, n), ops.shape(x)), None]


def _frexp_jvp(primals, tangents, out):
    mantissa, exponent = out
    return [ops.binop(p.ldexp_p, tangents[0], ops.neg(exponent)), None]


jvp_rules[p.frexp_p] = _frexp_jvp
vjp_rules[p.frexp_p] = lambda ct, out, needs, x: [ops.binop(p.ldexp_p, ct[0], ops.neg(out[1]))]

# Primitives with integer or boolean results: no tangent flows out of them (the traces never record them as
# differentiable), so their JVP/VJP entries say why instead.
not_differentiable = {
    prim: "its result is boolean or integer"
    for prim in (
        p.isnan_p, p.isinf_p, p.isfinite_p, p.signbit_p, p.not_p, p.popcount_p, p.and_p, p.or_p, p.xor_p,
        p.shift_left_p, p.shift_right_p, p.gcd_p, p.eq_p, p.ne_p, p.lt_p, p.le_p, p.gt_p, p.ge_p,
    )
}
not_differentiable[p.iota_p] = "it has no operands"


# -- vmap: one rule for every elementwise primitive -----------------------------------------------------------------


def _batch_elementwise(prim):
    def rule(size, args, batched, **params):
        example = [ops.shape(a)[1:] if b else ops.shape(a) for a, b in zip(args, batched)]
        shape = max(example, key=len)
        full = (size,) + shape
        operands = []
        for a, b, ex in zip(args, batched, example):
            if b and ex != shape:  # a batched rank-0 operand next to per-example arrays
                a = ops.broadcast_in_dim(a, full, (0,))
            elif not b and ex:
                a = ops.broadcast_in_dim(a, full, tuple(range(1, len(full))))
            operands.append(a)
        return prim.bind(*operands, **params)

    return rule


ELEMENTWISE = [
    v for v in vars(p).values() if isinstance(v, type(p.add_p)) and v is not p.iota_p
]
for _prim in ELEMENTWISE:
    batch_rules[_prim] = _batch_elementwise(_prim)
