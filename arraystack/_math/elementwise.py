"""Elementwise functions (NumPy's ufuncs) that are one primitive each, and in-place operators. The
composite ufuncs are in elementwise_math.py, the array functions (where, clip, round, ...) in
elementwise_functions.py.

Eager calls without out=/where=/dtype= bind the primitive with the raw operands, and its reference
rule is the NumPy ufunc itself. Other calls go through `_ufunc.apply_ufunc` with an implementation
on operands of the loop dtypes: the primitive, or for the loops a strict primitive does not take
(floor of an integer, isnan of an integer, int64 == uint64) an exact composition."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._math import ufunc as _ufunc
from arraystack._core.array import _is_array_operand, ndarray, raw, wrap, wrap_scalar
from arraystack._math.elementwise_math import reciprocal, square
from arraystack._core.operands import convert_raw, is_weak
from arraystack._core.overrides import kind
from arraystack._math.ufunc import binary, bind_impl, given_options, unary
from arraystack._math.ufunc_out import assign, normalize_out, operands_shape, where_mask, write_out
from arraystack._transforms.traced_scalars import holds_scalar
from arraystack.ir.avals import kind_of
from arraystack.ir import primitives as p
from arraystack.ir.reference import host_rules
from arraystack.ir.core import Tracer, active, bind, device_namespaces, trace_state

if TYPE_CHECKING:
    from collections.abc import Callable

_ndarray_np = np.ndarray


def _identity_unless(kinds, prim):
    """`prim` on loops of these dtype kinds, else a copy (NumPy's integer floor/ceil/trunc/abs)."""

    def impl(dtypes, x):
        return bind(prim, x) if kind_of(dtypes[0]) in kinds else bind(p.copy_p, x)

    return impl


def _float_test(prim, integral_prim):
    """isnan/isinf/isfinite: NumPy has integer loops, whose answers `integral_prim(x, x)` gives."""

    def impl(dtypes, x):
        return bind(prim, x) if kind_of(dtypes[0]) in "fc" else bind(integral_prim, x, x)

    return impl


add = binary(np.add, p.add_p)
subtract = binary(np.subtract, p.sub_p)
multiply = binary(np.multiply, p.mul_p)
divide = binary(np.divide, p.div_p)
true_divide = divide
floor_divide = binary(np.floor_divide, p.floordiv_p)
remainder = binary(np.remainder, p.rem_p)
mod = remainder
fmod = binary(np.fmod, p.fmod_p)
# Note: traced, an integer to a negative integer power gives a value instead of NumPy's ValueError.
power = binary(np.power, p.pow_p)
pow = power
negative = unary(np.negative, p.neg_p)
absolute = unary(np.absolute, p.abs_p, _identity_unless("iufc", p.abs_p))
abs = absolute
sign = unary(np.sign, p.sign_p)
conjugate = unary(np.conjugate, p.conj_p)
conj = conjugate
exp = unary(np.exp, p.exp_p)
exp2 = unary(np.exp2, p.exp2_p)
expm1 = unary(np.expm1, p.expm1_p)
log = unary(np.log, p.log_p)
log2 = unary(np.log2, p.log2_p)
log10 = unary(np.log10, p.log10_p)
log1p = unary(np.log1p, p.log1p_p)
sqrt = unary(np.sqrt, p.sqrt_p)
cbrt = unary(np.cbrt, p.cbrt_p)
sin = unary(np.sin, p.sin_p)
cos = unary(np.cos, p.cos_p)
tan = unary(np.tan, p.tan_p)
arcsin = asin = unary(np.arcsin, p.asin_p)
arccos = acos = unary(np.arccos, p.acos_p)
arctan = atan = unary(np.arctan, p.atan_p)
sinh = unary(np.sinh, p.sinh_p)
cosh = unary(np.cosh, p.cosh_p)
tanh = unary(np.tanh, p.tanh_p)
arcsinh = asinh = unary(np.arcsinh, p.asinh_p)
arccosh = acosh = unary(np.arccosh, p.acosh_p)
arctanh = atanh = unary(np.arctanh, p.atanh_p)
arctan2 = atan2 = binary(np.arctan2, p.atan2_p)
hypot = binary(np.hypot, p.hypot_p)
floor = unary(np.floor, p.floor_p, _identity_unless("f", p.floor_p))
ceil = unary(np.ceil, p.ceil_p, _identity_unless("f", p.ceil_p))
trunc = unary(np.trunc, p.trunc_p, _identity_unless("f", p.trunc_p))
rint = unary(np.rint, p.rint_p)
bitwise_and = binary(np.bitwise_and, p.and_p)
bitwise_or = binary(np.bitwise_or, p.or_p)
bitwise_xor = binary(np.bitwise_xor, p.xor_p)
invert = unary(np.invert, p.not_p)
bitwise_not = bitwise_invert = invert
bitwise_count = unary(np.bitwise_count, p.popcount_p)
left_shift = bitwise_left_shift = binary(np.left_shift, p.shift_left_p)
right_shift = bitwise_right_shift = binary(np.right_shift, p.shift_right_p)
isnan = unary(np.isnan, p.isnan_p, _float_test(p.isnan_p, p.ne_p))
isinf = unary(np.isinf, p.isinf_p, _float_test(p.isinf_p, p.ne_p))
isfinite = unary(np.isfinite, p.isfinite_p, _float_test(p.isfinite_p, p.eq_p))
signbit = unary(np.signbit, p.signbit_p)
copysign = binary(np.copysign, p.copysign_p)
nextafter = binary(np.nextafter, p.nextafter_p)
maximum = binary(np.maximum, p.max_p)
minimum = binary(np.minimum, p.min_p)
gcd = binary(np.gcd, p.gcd_p)
ldexp = binary(np.ldexp, p.ldexp_p)

# -- comparisons -----------------------------------------------------------------------------------

_MIRRORED = {
    p.eq_p: p.eq_p,
    p.ne_p: p.ne_p,
    p.lt_p: p.gt_p,
    p.le_p: p.ge_p,
    p.gt_p: p.lt_p,
    p.ge_p: p.le_p,
}


def _compare_impl(prim):
    """A comparison on its loop dtypes (exact for NumPy's int64-with-uint64 loop, as NumPy's is)."""

    def impl(dtypes, x, y):
        if dtypes[0] == dtypes[1]:
            return bind(prim, x, y)
        op, signed, unsigned = prim, x, y
        if dtypes[0].kind == "u":
            op, signed, unsigned = _MIRRORED[prim], y, x
        negative_ = bind(p.lt_p, signed, convert_raw(0, signed.dtype))
        cmp = bind(op, bind(p.convert_p, signed, dtype=unsigned.dtype), unsigned)
        if op in (p.eq_p, p.gt_p, p.ge_p):
            return bind(p.and_p, bind(p.not_p, negative_), cmp)
        return bind(p.or_p, negative_, cmp)

    return impl


def _beyond_range(prim, x1, x2):
    """An integer array against a Python int outside its range: NumPy 2 answers a constant."""
    if type(x1) is int and type(x2) is not int:
        value, other, prim = x1, raw(x2), _MIRRORED[prim]
    elif type(x2) is int and type(x1) is not int:
        value, other = x2, raw(x1)
    else:
        return None
    kind = getattr(other, "dtype", np.dtype(bool)).kind
    if kind not in "iu":
        return None
    info = np.iinfo(other.dtype)
    if info.min <= value <= info.max:
        return None
    above = value > info.max
    return {p.eq_p: False, p.ne_p: True, p.lt_p: above, p.le_p: above}.get(prim, not above), other


def _against_traced_int(x1, x2):
    """An integer operand against a traced Python int (a weakly typed integer, whose value the trace
    does not know): NumPy 2 compares them exactly whatever the int's value (int8_array < 300 is all
    True), so the integer operand is compared in int64 (uint64 as it is) against the int in its own
    dtype, with the exact mixed int64/uint64 loop where they differ. Returns (loop dtypes, operands), or
    None for other operands."""
    a, b = raw(x1), raw(x2)
    first = _is_traced_int(a)
    if first == _is_traced_int(b):
        return None
    other = b if first else a
    if isinstance(other, (bool, int, float, complex)) or other.dtype.kind not in "iu":
        return None  # a Python scalar, or a dtype NumPy casts the int to without a range check
    other = convert_raw(other, np.uint64 if other.dtype == np.uint64 else np.int64)
    operands = (a, other) if first else (other, b)
    return tuple(np.dtype(x.dtype) for x in operands), operands


def _is_traced_int(x) -> bool:
    return type(x) is Tracer and x.var.aval.weak_type and x.var.aval.dtype.kind in "iu"


def _comparison(ufunc, prim) -> Callable[..., ndarray]:
    general = _compare_impl(prim)
    objects = prim is p.eq_p or prim is p.ne_p  # NumPy compares other objects (None) as objects

    def fn(
        x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None, subok=True
    ):
        if casting != "same_kind" or order != "K":
            _ufunc.check_options(casting, order)
        if (type(x1) is not ndarray and kind(x1) is not None) or (
            type(x2) is not ndarray and kind(x2) is not None
        ):  # an object overriding NumPy (a pandas Series, a masked array): NumPy's ufunc dispatches
            return ufunc(x1, x2, **given_options(out, where, casting, dtype, order, subok))
        try:
            if (
                out is None
                and where is True
                and dtype is None
                and (not active.n or trace_state.top is None)
            ):
                a = x1._value if type(x1) is ndarray else raw(x1)
                b = x2._value if type(x2) is ndarray else raw(x2)
                return wrap_scalar(bind(prim, a, b))  # a device's 0-d result: marked a scalar
            if type(x1) is int or type(x2) is int:
                constant = _beyond_range(prim, x1, x2)
                if constant is not None:
                    outcome, other = constant
                    impl = bind_impl(p.eq_p if outcome else p.ne_p)
                    operands = (other, other)
                    return _ufunc.apply_ufunc(ufunc, impl, operands, out, where, casting, dtype)
            exact = None if dtype is not None else _against_traced_int(x1, x2)
            if exact is not None:
                dtypes, operands = exact
                result = wrap(general(dtypes, *_ufunc.broadcast_operands(list(operands))))
                return store_results([result], out, where, casting)
            return _ufunc.apply_ufunc(ufunc, general, (x1, x2), out, where, casting, dtype)
        except TypeError:
            if not objects or (_is_array_operand(x1) and _is_array_operand(x2)):
                raise
            from arraystack._math.comparison import compare_function_with_object

            result = compare_function_with_object(ufunc, x1, x2, out, where, casting, dtype)
            if result is None:
                raise
            return result

    return _ufunc._named(fn, ufunc)


equal = _comparison(np.equal, p.eq_p)
not_equal = _comparison(np.not_equal, p.ne_p)
less = _comparison(np.less, p.lt_p)
less_equal = _comparison(np.less_equal, p.le_p)
greater = _comparison(np.greater, p.gt_p)
greater_equal = _comparison(np.greater_equal, p.ge_p)

# -- for other families ----------------------------------------------------------------------------


def apply_ufunc(prim, ufunc, args, out=None, where=True, casting="same_kind", dtype=None):
    """`ufunc(*args, ...)` through the general path, with `prim` as its implementation."""
    return _ufunc.apply_ufunc(ufunc, bind_impl(prim), args, out, where, casting, dtype)


def store_results(results, out, where=True, casting="same_kind", nout=1):
    """Hand arraystack `results` over to out=/where= as a ufunc with `nout` outputs would."""
    outs = normalize_out(out, nout)
    mask = where_mask(where)
    if outs is None and mask is None:
        return results[0] if nout == 1 else tuple(results)
    raws = [r._value for r in results]
    return write_out(raws, outs, mask, operands_shape(raws[:1], mask, outs), casting)


# -- in-place operators ----------------------------------------------------------------------------

_INPLACE = {
    add: p.add_p,
    subtract: p.sub_p,
    multiply: p.mul_p,
    divide: p.div_p,
    floor_divide: p.floordiv_p,
    remainder: p.rem_p,
    power: p.pow_p,
    bitwise_and: p.and_p,
    bitwise_or: p.or_p,
    bitwise_xor: p.xor_p,
    left_shift: p.shift_left_p,
    right_shift: p.shift_right_p,
}


def _fast_power(base, exponent):
    """NumPy's fast_scalar_power: on a float or complex array, `**` with an exact Python int 2 or -1
    or float 0.5 is square, reciprocal or sqrt (which differ from power in rounding, -0.0, -inf); on a
    bool array, `** 2` is square too (int8, where power would promote to int64)."""
    if type(base) is ndarray:
        kind = type(exponent)
        if base.dtype.kind == "b":
            return square if kind is int and exponent == 2 else None
        if kind_of(base.dtype) in "fc":
            if kind is int:
                return square if exponent == 2 else reciprocal if exponent == -1 else None
            if kind is float and exponent == 0.5:
                return sqrt
    return None


def power_operator(x1, x2):
    """`x1 ** x2` as ndarray.__pow__ computes it (see `_fast_power`); numpy.power otherwise, and on
    traced Python scalars Python's `**` (a weakly typed result, see _ufunc.python_operator)."""
    if type(x1) is ndarray and holds_scalar(x1):
        if type(x2) is int and x1.dtype == np.bool_:
            x2 = np.int64(x2)  # NumPy's scalar math: a bool scalar ** a Python int is an int64
        return _ufunc.python_operator(power, x1, x2)
    fast = None if is_weak(raw(x1)) else _fast_power(x1, x2)
    return _ufunc.python_operator(power, x1, x2) if fast is None else fast(x1)


def inplace(fn, target: ndarray, other):
    """`target op= other` as NumPy's `op(target, other, out=target)`: eager writes target's buffer
    after NumPy's same_kind check (a failing cast leaves it unchanged); traced rebinds target."""
    if holds_scalar(target):  # NumPy's scalars are immutable: `s += x` is `s = s + x`
        if fn is power:
            return power_operator(target, other)
        return _ufunc.python_operator(fn, target, other) if fn in _INPLACE else fn(target, other)
    if fn in _INPLACE and is_weak(target._value):
        # a traced Python scalar: `s += 1` rebinds s to s + 1, as Python does (there is no buffer)
        if fn is power:
            return power_operator(target, other)
        return _ufunc.python_operator(fn, target, other)
    if fn is power and _fast_power(target, other) is not None:
        return _fast_power(target, other)(target, out=target)
    prim = _INPLACE.get(fn)
    if prim is None:  # not a ufunc (matmul): compute, then assign as NumPy's out= would
        result = fn(target, other)
        if tuple(result.shape) != tuple(target.shape):
            raise ValueError(
                f"non-broadcastable output operand with shape {tuple(target.shape)} doesn't "
                f"match the broadcast shape {tuple(result.shape)}"
            )
        return assign(target, result, "same_kind")
    value = target._value
    if type(value) is _ndarray_np and (not active.n or trace_state.top is None):
        operand = other._value if type(other) is ndarray else raw(other)
        if type(operand) is not Tracer and type(operand) not in device_namespaces:
            host = host_rules.get(prim)
            if host is not None and not device_namespaces:
                # the host reference rule with NumPy's own out=: one pass, NumPy's casting checks
                host(value, operand, out=value, casting="same_kind")
                return target
            result = bind(prim, value, operand)
            if (
                result.dtype == value.dtype
                and result.shape == value.shape
                and value.flags.writeable
            ):
                value[...] = result
                return target
    return fn(target, other, out=target)


__all__ = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "floor_divide",
    "remainder",
    "mod",
    "fmod",
    "power",
    "pow",
    "negative",
    "absolute",
    "abs",
    "sign",
    "conjugate",
    "conj",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sqrt",
    "cbrt",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "asin",
    "arccos",
    "acos",
    "arctan",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "asinh",
    "arccosh",
    "acosh",
    "arctanh",
    "atanh",
    "arctan2",
    "atan2",
    "hypot",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "invert",
    "bitwise_not",
    "bitwise_invert",
    "bitwise_count",
    "left_shift",
    "bitwise_left_shift",
    "right_shift",
    "bitwise_right_shift",
    "isnan",
    "isinf",
    "isfinite",
    "signbit",
    "copysign",
    "nextafter",
    "maximum",
    "minimum",
    "gcd",
    "ldexp",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
]
