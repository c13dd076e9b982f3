"""Conversion rules of lax's elementwise and type primitives (convention: interpreter.py).

Most map one to one onto an arraystack primitive. Where lax's meaning differs from NumPy's (integer
`div` truncates, `rem` takes the dividend's sign, `round` may round half away from zero), the rule
composes primitives that compute lax's result exactly.
"""

from __future__ import annotations

import numpy

from arraystack._core.array import raw, wrap
from arraystack.ir import primitives as p
from arraystack.ir.core import bind
from arraystack.ir.structural import bitcast_p, broadcast_in_dim_p
from arraystack.jax_import.interpreter import JaxConversionError
from arraystack.scipy import special
from arraystack.scipy._normal import GILES_CENTRAL, GILES_TAIL

math_rules: dict = {}


def const(value, dtype):
    """A NumPy scalar array of `dtype` (an operand of bind, strongly typed)."""
    return numpy.asarray(value, dtype=numpy.dtype(dtype))


def dtype_of(x) -> numpy.dtype:
    return numpy.dtype(x.dtype)


def convert(x, dtype):
    dtype = numpy.dtype(dtype)
    return x if dtype_of(x) == dtype else bind(p.convert_p, x, dtype=dtype)


def select(pred, on_true, on_false):
    return bind(p.select_p, pred, on_true, on_false)


def _one_to_one(prim):
    return lambda site, *operands, **params: bind(prim, *operands)


for _name, _prim in {
    "neg": p.neg_p,
    "abs": p.abs_p,
    "sign": p.sign_p,
    "floor": p.floor_p,
    "ceil": p.ceil_p,
    "exp": p.exp_p,
    "exp2": p.exp2_p,
    "expm1": p.expm1_p,
    "log": p.log_p,
    "log1p": p.log1p_p,
    "sqrt": p.sqrt_p,
    "cbrt": p.cbrt_p,
    "sin": p.sin_p,
    "cos": p.cos_p,
    "tan": p.tan_p,
    "asin": p.asin_p,
    "acos": p.acos_p,
    "atan": p.atan_p,
    "sinh": p.sinh_p,
    "cosh": p.cosh_p,
    "tanh": p.tanh_p,
    "asinh": p.asinh_p,
    "acosh": p.acosh_p,
    "atanh": p.atanh_p,
    "erf": p.erf_p,
    "logistic": p.logistic_p,
    "is_finite": p.isfinite_p,
    "not": p.not_p,
    "conj": p.conj_p,
    "real": p.real_p,
    "imag": p.imag_p,
    "stop_gradient": p.stop_gradient_p,
    "copy": p.copy_p,
    "add": p.add_p,
    "add_any": p.add_p,
    "sub": p.sub_p,
    "mul": p.mul_p,
    "max": p.max_p,
    "min": p.min_p,
    "atan2": p.atan2_p,
    "nextafter": p.nextafter_p,
    "and": p.and_p,
    "or": p.or_p,
    "xor": p.xor_p,
    "shift_left": p.shift_left_p,
    "eq": p.eq_p,
    "ne": p.ne_p,
    "lt": p.lt_p,
    "le": p.le_p,
    "gt": p.gt_p,
    "ge": p.ge_p,
    "complex": p.complex_p,
}.items():
    math_rules[_name] = _one_to_one(_prim)


def _zeros_like(site, x, **params):
    return bind(
        broadcast_in_dim_p, const(0, x.dtype), shape=tuple(x.shape), broadcast_dimensions=()
    )


math_rules["zeros_like"] = _zeros_like


def _identity(site, *operands, **params):
    return (
        operands[0] if len(operands) == 1 and not site.eqn.primitive.multiple_results else operands
    )


for _name in ("sharding_constraint", "layout_constraint", "reshard", "random_clone"):
    math_rules[_name] = _identity
# jax.ad_checkpoint.checkpoint_name: the same name, for the policies of arraystack.checkpoint
math_rules["name"] = lambda site, x, name: bind(p.checkpoint_name_p, x, name=name)
math_rules["device_put"] = lambda site, *xs, **params: list(xs)


def _div(site, x, y, **params):
    kind = dtype_of(x).kind
    if kind not in "iu":
        return bind(p.div_p, x, y)
    q = bind(p.floordiv_p, x, y)
    if kind == "u":
        return q
    # Note: lax's integer division truncates toward zero; floor division rounds the negative
    # quotients with a remainder one further down.
    inexact = bind(p.ne_p, bind(p.sub_p, x, bind(p.mul_p, q, y)), const(0, x.dtype))
    zero = const(0, x.dtype)
    signs_differ = bind(p.ne_p, bind(p.lt_p, x, zero), bind(p.lt_p, y, zero))
    fix = bind(p.and_p, inexact, signs_differ)
    return select(fix, bind(p.add_p, q, const(1, x.dtype)), q)


math_rules["div"] = _div
math_rules["rem"] = lambda site, x, y, **params: bind(p.fmod_p, x, y)  # lax.rem: C's fmod


def _pow(site, x, y, **params):
    return bind(p.pow_p, x, convert(y, x.dtype))


math_rules["pow"] = _pow


def _integer_pow(site, x, *, y, **params):
    """lax's own square-and-multiply (its lowering), so float results agree to the last bit."""
    if y == 0:
        return bind(
            broadcast_in_dim_p, const(1, x.dtype), shape=tuple(x.shape), broadcast_dimensions=()
        )
    n, acc = abs(y), None
    while n > 0:
        if n & 1:
            acc = x if acc is None else bind(p.mul_p, acc, x)
        n >>= 1
        if n > 0:
            x = bind(p.mul_p, x, x)
    return bind(p.div_p, const(1, acc.dtype), acc) if y < 0 else acc


math_rules["integer_pow"] = _integer_pow
math_rules["square"] = lambda site, x, **params: bind(p.mul_p, x, x)
math_rules["rsqrt"] = lambda site, x, **params: bind(p.div_p, const(1, x.dtype), bind(p.sqrt_p, x))


def _round(site, x, *, rounding_method=0, **params):
    if int(rounding_method) == 1:  # TO_NEAREST_EVEN
        return bind(p.rint_p, x)
    # AWAY_FROM_ZERO: x - trunc(x) is exact, so comparing it with 1/2 decides exactly
    t = bind(p.trunc_p, x)
    half = bind(p.ge_p, bind(p.abs_p, bind(p.sub_p, x, t)), const(0.5, x.dtype))
    return select(half, bind(p.add_p, t, bind(p.sign_p, x)), t)


math_rules["round"] = _round


def _unsigned(dtype):
    return numpy.dtype(f"u{numpy.dtype(dtype).itemsize}")


def _signed(dtype):
    return numpy.dtype(f"i{numpy.dtype(dtype).itemsize}")


def _shift_right(view):
    def rule(site, x, y, **params):
        dtype = dtype_of(x)
        if dtype.kind == view:
            return bind(p.shift_right_p, x, y)
        other = _unsigned(dtype) if view == "u" else _signed(dtype)
        return convert(bind(p.shift_right_p, convert(x, other), convert(y, other)), dtype)

    return rule


math_rules["shift_right_logical"] = _shift_right("u")
math_rules["shift_right_arithmetic"] = _shift_right("i")


def _clz(site, x, **params):
    dtype = dtype_of(x)
    bits = dtype.itemsize * 8
    u = convert(x, _unsigned(dtype))
    count = const(0, dtype)
    step = bits // 2
    while step:  # binary search for the highest set bit
        top_clear = bind(
            p.eq_p, bind(p.shift_right_p, u, const(bits - step, u.dtype)), const(0, u.dtype)
        )
        count = select(top_clear, bind(p.add_p, count, const(step, dtype)), count)
        u = select(top_clear, bind(p.shift_left_p, u, const(step, u.dtype)), u)
        step //= 2
    zero = convert(bind(p.eq_p, u, const(0, u.dtype)), dtype)
    return bind(p.add_p, count, zero)


math_rules["clz"] = _clz


def _population_count(site, x, **params):
    # Note: NumPy's bitwise_count counts the bits of |x|; lax counts the two's-complement bits.
    dtype = dtype_of(x)
    return convert(bind(p.popcount_p, convert(x, _unsigned(dtype))), dtype)


math_rules["population_count"] = _population_count


def _mulhi(site, x, y, **params):
    dtype = dtype_of(x)
    if dtype.itemsize > 4:
        raise site.error("64-bit operands need a 128-bit product", JaxConversionError)
    wide = numpy.dtype(f"{'i' if dtype.kind == 'i' else 'u'}8")
    product = bind(p.mul_p, convert(x, wide), convert(y, wide))
    return convert(bind(p.shift_right_p, product, const(dtype.itemsize * 8, wide)), dtype)


math_rules["mulhi"] = _mulhi


def _select_n(site, which, *cases, **params):
    if len(cases) == 1:
        return cases[0]
    if dtype_of(which) == numpy.bool_:
        return select(which, cases[1], cases[0])
    out = cases[0]
    for k, case in enumerate(cases[1:], start=1):
        out = select(bind(p.eq_p, which, const(k, which.dtype)), case, out)
    return out


math_rules["select_n"] = _select_n


def _clamp(site, lo, x, hi, **params):
    return bind(p.min_p, bind(p.max_p, x, lo), hi)


math_rules["clamp"] = _clamp


def _convert_element_type(site, x, *, new_dtype, **params):
    return convert(x, new_dtype)


math_rules["convert_element_type"] = _convert_element_type


def _bitcast_convert_type(site, x, *, new_dtype, **params):
    return bind(bitcast_p, x, dtype=numpy.dtype(new_dtype))  # lax's shape rule, as arraystack's


math_rules["bitcast_convert_type"] = _bitcast_convert_type


def _iota(site, *, dtype, shape, dimension, **params):
    return bind(p.iota_p, dtype=numpy.dtype(dtype), shape=tuple(shape), dimension=dimension)


math_rules["iota"] = _iota


def _erf_inv(site, x, **params):
    """erf's inverse. float32 (and float16): Giles' single-precision polynomials, evaluated as
    XLA's ErfInv evaluates them; float64: arraystack.scipy.special.erfinv (float64's last bits).
    +-1 give +-inf, |x| > 1 NaN."""
    dtype = dtype_of(x)
    if dtype.itemsize > 4:
        return raw(special.erfinv(wrap(x)))
    work = numpy.dtype(numpy.float32)
    w0 = convert(x, work)
    magnitude = bind(p.abs_p, w0)
    one = const(1.0, work)
    inside = bind(p.lt_p, magnitude, one)
    xs = select(inside, w0, const(0.0, work))  # keeps the branches finite off (-1, 1)
    w = bind(p.neg_p, bind(p.log1p_p, bind(p.neg_p, bind(p.mul_p, xs, xs))))
    central = _horner(bind(p.sub_p, w, const(2.5, work)), GILES_CENTRAL)
    tail = _horner(bind(p.sub_p, bind(p.sqrt_p, w), const(3.0, work)), GILES_TAIL)
    y = bind(p.mul_p, select(bind(p.lt_p, w, const(5.0, work)), central, tail), xs)
    edge = select(
        bind(p.gt_p, w0, const(0.0, work)), const(numpy.inf, work), const(-numpy.inf, work)
    )
    y = select(bind(p.eq_p, magnitude, one), edge, y)
    y = select(bind(p.gt_p, magnitude, one), const(numpy.nan, work), y)
    return convert(select(bind(p.isnan_p, w0), w0, y), dtype)


def _horner(w, coefficients):
    acc = const(coefficients[0], w.dtype)
    for c in coefficients[1:]:
        acc = bind(p.add_p, bind(p.mul_p, acc, w), const(c, w.dtype))
    return acc


math_rules["erf_inv"] = _erf_inv


def _special(function):
    """A lax special function by arraystack.scipy.special's composition (computed in float64; the
    interpreter rounds the result to the equation's dtype)."""
    return lambda site, x, **params: raw(function(wrap(x)))


math_rules["erfc"] = _special(special.erfc)
math_rules["lgamma"] = _special(special.gammaln)
math_rules["digamma"] = _special(special.digamma)
math_rules["bessel_i1e"] = _special(special.i1e)
math_rules["zeta"] = lambda site, x, q, **params: raw(special.zeta(wrap(x), wrap(q)))
# polygamma's order is a literal in the jaxprs of jax.scipy.special.polygamma(n, x) with a Python n:
# known when the rule runs, as negative x needs (a traced order gives nan there)
math_rules["polygamma"] = lambda site, m, x, **params: raw(special.polygamma(wrap(m), wrap(x)))


def _expanded(rule):
    """`rule` on operands expanded to the output's shape: jaxprs broadcast size-1 axes of
    elementwise operands implicitly (`add f32[3,8] f32[1,8]`); arraystack's primitives take one
    shape (or a scalar)."""

    def expanding(site, *operands, **params):
        shape = tuple(site.out_avals[0].shape) if site.eqn.outvars else ()
        rank = len(shape)
        fixed = [
            x
            if not hasattr(x, "shape") or tuple(x.shape) in ((), shape) or len(x.shape) > rank
            else bind(
                broadcast_in_dim_p,
                x,
                shape=shape,
                broadcast_dimensions=tuple(range(rank - len(x.shape), rank)),
            )
            for x in operands
        ]
        return rule(site, *fixed, **params)

    return expanding


for _name in list(math_rules):
    if _name not in ("iota", "device_put"):
        math_rules[_name] = _expanded(math_rules[_name])
