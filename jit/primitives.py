"""Elementwise primitives, declared once with their shape/dtype rule (`abstract_eval_rules`).

The structural ones (shape, indexing, reductions, contraction) are declared in structural.py, same table.

Rule convention: `abstract_eval_rules[p](*avals, **params) -> ShapedArray` (or a tuple for multi-result
primitives). The IR is strict where NumPy is lenient: operands of an elementwise primitive share one dtype
and one shape (a rank-0 Literal may stand for a scalar); the frontend inserts `convert` and
`broadcast_in_dim` when it traces. Rules raise TypeError/ValueError naming the primitive and the avals.
"""

from __future__ import annotations

import numpy as np

from arraystack.ir.avals import ShapedArray, kind_of
from arraystack.ir.core import Primitive

abstract_eval_rules: dict[Primitive, object] = {}

# dtype families an elementwise primitive accepts
BOOL = frozenset("b")
INT = frozenset("iu")
FLOAT = frozenset("f")
COMPLEX = frozenset("c")
INEXACT = FLOAT | COMPLEX
INTEGRAL = BOOL | INT
NUMERIC = INT | INEXACT
REAL = INT | FLOAT
ANY = BOOL | NUMERIC


def _check_kind(prim, aval, kinds):
    if kind_of(aval.dtype) not in kinds:  # bfloat16, whose NumPy kind is "V", is floating
        raise TypeError(f"{prim.name} does not accept dtype {aval.dtype.name} (operand {aval.str_short()})")


def _weak(*avals):
    return all(a.weak_type for a in avals)


def _real_dtype(dtype):
    return np.dtype(np.float32) if dtype == np.complex64 else np.dtype(np.float64)


# -- elementwise --------------------------------------------------------------------------------------------------


def _unary(name, kinds, out=None):
    prim = Primitive(name)

    def rule(x):
        if x.dtype.kind not in kinds:  # _check_kind, inline: this rule runs per traced op
            _check_kind(prim, x, kinds)
        if out is None:
            return x
        dtype = out(x.dtype)
        return ShapedArray(x.shape, dtype, x.weak_type and dtype == x.dtype)

    abstract_eval_rules[prim] = rule
    return prim


def _complex_to_real(dtype):
    return _real_dtype(dtype) if dtype.kind == "c" else dtype


def _to_bool(dtype):
    return _BOOL


_BOOL = np.dtype(bool)


neg_p = _unary("neg", NUMERIC)
abs_p = _unary("abs", NUMERIC, _complex_to_real)
sign_p = _unary("sign", NUMERIC)
floor_p = _unary("floor", FLOAT)
ceil_p = _unary("ceil", FLOAT)
trunc_p = _unary("trunc", FLOAT)
rint_p = _unary("rint", INEXACT)  # round half to even, NumPy's rint
exp_p = _unary("exp", INEXACT)
exp2_p = _unary("exp2", INEXACT)
expm1_p = _unary("expm1", INEXACT)
log_p = _unary("log", INEXACT)
log2_p = _unary("log2", INEXACT)
log10_p = _unary("log10", INEXACT)
log1p_p = _unary("log1p", INEXACT)
sqrt_p = _unary("sqrt", INEXACT)
cbrt_p = _unary("cbrt", FLOAT)
sin_p = _unary("sin", INEXACT)
cos_p = _unary("cos", INEXACT)
tan_p = _unary("tan", INEXACT)
asin_p = _unary("asin", INEXACT)
acos_p = _unary("acos", INEXACT)
atan_p = _unary("atan", INEXACT)
sinh_p = _unary("sinh", INEXACT)
cosh_p = _unary("cosh", INEXACT)
tanh_p = _unary("tanh", INEXACT)
asinh_p = _unary("asinh", INEXACT)
acosh_p = _unary("acosh", INEXACT)
atanh_p = _unary("atanh", INEXACT)
erf_p = _unary("erf", FLOAT)
logistic_p = _unary("logistic", INEXACT)
isnan_p = _unary("isnan", INEXACT, _to_bool)
isinf_p = _unary("isinf", INEXACT, _to_bool)
isfinite_p = _unary("isfinite", INEXACT, _to_bool)
signbit_p = _unary("signbit", FLOAT, _to_bool)
not_p = _unary("not", INTEGRAL)  # bitwise invert; logical not on bool
conj_p = _unary("conj", NUMERIC)
real_p = _unary("real", NUMERIC, _complex_to_real)
imag_p = _unary("imag", NUMERIC, _complex_to_real)
popcount_p = _unary("popcount", INT, lambda dtype: np.dtype(np.uint8))
stop_gradient_p = _unary("stop_gradient", ANY)  # the identity, with zero derivative (simplify removes it)
copy_p = _unary("copy", ANY)  # a fresh buffer with the same contents (eager np.copy; a no-op when traced)
# checkpoint_name[name] x -> x: the identity, naming a value for checkpoint's policies (simplify removes it)
checkpoint_name_p = Primitive("checkpoint_name")
abstract_eval_rules[checkpoint_name_p] = lambda x, name=None: x


def _binary(name, kinds, out=None):
    prim = Primitive(name)

    def rule(x, y):
        dtype = x.dtype
        if dtype != y.dtype:
            raise TypeError(
                f"{name} requires operands of one dtype, got {x.str_short()} and {y.str_short()}"
            )
        if dtype.kind not in kinds:  # _check_kind, inline
            _check_kind(prim, x, kinds)
        # _elementwise_shape(name, x, y), spelled out for two operands (this rule runs per traced op)
        shape = x.shape
        if y.shape != shape and y.shape != ():
            shape = y.shape if shape == () else _elementwise_shape(name, x, y)  # which raises
        weak = bool(x.weak_type and y.weak_type)
        if out is not None:
            dtype = out(dtype)
            return ShapedArray(shape, dtype, weak and dtype == x.dtype)
        if shape is x.shape and weak == x.weak_type:
            return x  # avals are values: x is the result's
        return ShapedArray(shape, dtype, weak)

    abstract_eval_rules[prim] = rule
    return prim


def _elementwise_shape(name, *avals):
    shapes = {a.shape for a in avals if a.shape != ()}
    if len(shapes) > 1:
        raise ValueError(
            f"{name} requires operands of one shape (the frontend broadcasts), got "
            + ", ".join(a.str_short() for a in avals)
        )
    return shapes.pop() if shapes else ()


add_p = _binary("add", ANY)
sub_p = _binary("sub", NUMERIC)
mul_p = _binary("mul", ANY)
div_p = _binary("div", INEXACT)
floordiv_p = _binary("floordiv", REAL)  # NumPy floor_divide: rounds toward -inf, 0 for x//0 on ints
rem_p = _binary("rem", REAL)  # NumPy remainder: the sign of the divisor
fmod_p = _binary("fmod", REAL)  # C fmod: the sign of the dividend
pow_p = _binary("pow", NUMERIC)
max_p = _binary("max", ANY)  # NaN-propagating, NumPy maximum
min_p = _binary("min", ANY)
atan2_p = _binary("atan2", FLOAT)
hypot_p = _binary("hypot", FLOAT)
nextafter_p = _binary("nextafter", FLOAT)
copysign_p = _binary("copysign", FLOAT)
and_p = _binary("and", INTEGRAL)
or_p = _binary("or", INTEGRAL)
xor_p = _binary("xor", INTEGRAL)
shift_left_p = _binary("shift_left", INT)  # shifts >= the bit width give 0, as in NumPy
shift_right_p = _binary("shift_right", INT)  # arithmetic for signed, logical for unsigned
gcd_p = _binary("gcd", INT)
eq_p = _binary("eq", ANY, _to_bool)
ne_p = _binary("ne", ANY, _to_bool)
lt_p = _binary("lt", ANY, _to_bool)
le_p = _binary("le", ANY, _to_bool)
gt_p = _binary("gt", ANY, _to_bool)
ge_p = _binary("ge", ANY, _to_bool)

ldexp_p = Primitive("ldexp")  # x * 2**n with exact overflow/underflow; n is an int32 or int64 operand


def _ldexp_rule(x, n):
    _check_kind(ldexp_p, x, FLOAT)
    _check_kind(ldexp_p, n, INT)
    return ShapedArray(_elementwise_shape("ldexp", x, n), x.dtype, x.weak_type)


abstract_eval_rules[ldexp_p] = _ldexp_rule

frexp_p = Primitive("frexp", multiple_results=True)  # (mantissa, int32 exponent)


def _frexp_rule(x):
    _check_kind(frexp_p, x, FLOAT)
    return (x, ShapedArray(x.shape, np.dtype(np.int32)))


abstract_eval_rules[frexp_p] = _frexp_rule

select_p = Primitive("select")  # select(pred, on_true, on_false)


def _select_rule(pred, on_true, on_false):
    if pred.dtype != np.bool_:
        raise TypeError(f"select requires a bool predicate, got {pred.str_short()}")
    if on_true.dtype != on_false.dtype:
        raise TypeError(
            f"select requires branches of one dtype, got {on_true.str_short()} and {on_false.str_short()}"
        )
    shape = _elementwise_shape("select", pred, on_true, on_false)
    return ShapedArray(shape, on_true.dtype, _weak(on_true, on_false))


abstract_eval_rules[select_p] = _select_rule

convert_p = Primitive("convert")  # convert[dtype=...]: NumPy astype (unsafe casting)


def _convert_rule(x, *, dtype, weak_type=False):
    return ShapedArray(x.shape, np.dtype(dtype), weak_type)


abstract_eval_rules[convert_p] = _convert_rule

iota_p = Primitive("iota")  # iota[dtype, shape, dimension]: 0, 1, 2, ... along `dimension`


def _iota_rule(*, dtype, shape, dimension):
    if kind_of(np.dtype(dtype)) not in NUMERIC:
        raise TypeError(f"iota does not accept dtype {np.dtype(dtype).name}")
    if not 0 <= dimension < len(shape):
        raise ValueError(f"iota dimension {dimension} out of range for shape {shape}")
    return ShapedArray(tuple(shape), np.dtype(dtype))


abstract_eval_rules[iota_p] = _iota_rule

complex_p = Primitive("complex")  # complex(re, im) = re + im*1j exactly (no arithmetic): f32 -> c64, f64 -> c128


def _complex_rule(re, im):
    if re.dtype != im.dtype or re.dtype not in (np.float32, np.float64):
        raise TypeError(f"complex requires two f32 or two f64 operands, got {re.str_short()} and {im.str_short()}")
    dtype = np.dtype(np.complex64 if re.dtype == np.float32 else np.complex128)
    return ShapedArray(_elementwise_shape("complex", re, im), dtype)


abstract_eval_rules[complex_p] = _complex_rule
