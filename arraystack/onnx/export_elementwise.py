"""ONNX lowerings of the elementwise primitives, with NumPy's semantics where ONNX's differ.

Table convention: `elementwise_rules[p](b, eqn, *inputs) -> output name`, where `b` is the
builder.Builder of the graph being written and `inputs` the ONNX names of the eqn's operands (a rank-0
operand broadcasts, as the IR's literals do). Integer division and remainder follow NumPy (floor
rounding, 0 for a zero divisor), maximum/minimum propagate NaN, and integer dtypes that onnxruntime
has no kernel for (int16 Max, int8 Pow, ...) compute in a wider integer and cast back, which is exact.
"""

from __future__ import annotations

import math

import numpy as np

from arraystack.ir import primitives as p
from arraystack.onnx.errors import ExportError

elementwise_rules: dict = {}


def _in(eqn, i=0) -> np.dtype:
    return eqn.inputs[i].aval.dtype


def _widened(b, names, dtype, kernels):
    """(names, dtype) to compute in: `dtype` when onnxruntime has a kernel for it, else the int32,
    uint32 or int64 its values fit in (wrapping arithmetic gives the same low bits)."""
    if dtype.name in kernels:
        return list(names), dtype
    if dtype.kind in "iu":
        wide = np.dtype(np.int64 if dtype.itemsize >= 4 or "int32" not in kernels else np.int32)
        if dtype.kind == "u" and dtype.itemsize < 4 and "uint32" in kernels:
            wide = np.dtype(np.uint32)
        return [b.cast(n, wide) for n in names], wide
    if dtype.kind == "b":
        wide = np.dtype(np.int32 if "int32" in kernels else np.uint8)
        return [b.cast(n, wide) for n in names], wide
    return list(names), dtype


_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_FLOATS = ("float16", "float32", "float64")
_MAXMIN = ("int8", "int32", "int64", "uint8", "uint32", "uint64") + _FLOATS
_POW = ("int32", "int64") + _FLOATS


def _simple(op_type, kernels=None, bool_op=None):
    def rule(b, eqn, *inputs):
        dtype = _in(eqn)
        if dtype.kind == "b" and bool_op is not None:
            return b.op(bool_op, inputs)
        if dtype.kind == "c":
            raise ExportError(f"{eqn.prim.name}: ONNX runtimes have no complex tensors")
        if kernels is None:
            return b.op(op_type, inputs)
        names, work = _widened(b, inputs, dtype, kernels)
        out = b.op(op_type, names)
        return out if work == dtype else b.cast(out, eqn.outputs[0].aval.dtype)

    return rule


for _prim, _op in [
    (p.floor_p, "Floor"),
    (p.ceil_p, "Ceil"),
    (p.rint_p, "Round"),  # half to even, as NumPy's rint
    (p.exp_p, "Exp"),
    (p.log_p, "Log"),
    (p.sqrt_p, "Sqrt"),
    (p.sin_p, "Sin"),
    (p.cos_p, "Cos"),
    (p.tan_p, "Tan"),
    (p.asin_p, "Asin"),
    (p.acos_p, "Acos"),
    (p.atan_p, "Atan"),
    (p.sinh_p, "Sinh"),
    (p.cosh_p, "Cosh"),
    (p.tanh_p, "Tanh"),
    (p.asinh_p, "Asinh"),
    (p.acosh_p, "Acosh"),
    (p.atanh_p, "Atanh"),
    (p.erf_p, "Erf"),
    (p.logistic_p, "Sigmoid"),
    (p.isnan_p, "IsNaN"),
    (p.isinf_p, "IsInf"),
    (p.div_p, "Div"),
    (p.abs_p, "Abs"),
]:
    elementwise_rules[_prim] = _simple(_op)

elementwise_rules[p.add_p] = _simple("Add", bool_op="Or")
elementwise_rules[p.mul_p] = _simple("Mul", bool_op="And")
elementwise_rules[p.sub_p] = _simple("Sub")
elementwise_rules[p.pow_p] = _simple("Pow", _POW)
elementwise_rules[p.and_p] = _simple("BitwiseAnd", bool_op="And")
elementwise_rules[p.or_p] = _simple("BitwiseOr", bool_op="Or")
elementwise_rules[p.xor_p] = _simple("BitwiseXor", bool_op="Xor")
elementwise_rules[p.not_p] = _simple("BitwiseNot", bool_op="Not")
elementwise_rules[p.eq_p] = _simple("Equal")
elementwise_rules[p.lt_p] = _simple("Less", _INTS + _FLOATS)
elementwise_rules[p.le_p] = _simple("LessOrEqual", _INTS + _FLOATS)
elementwise_rules[p.gt_p] = _simple("Greater", _INTS + _FLOATS)
elementwise_rules[p.ge_p] = _simple("GreaterOrEqual", _INTS + _FLOATS)
elementwise_rules[p.ne_p] = lambda b, eqn, x, y: b.op("Not", [b.op("Equal", [x, y])])
elementwise_rules[p.copy_p] = lambda b, eqn, x: b.op("Identity", [x])
elementwise_rules[p.stop_gradient_p] = lambda b, eqn, x: b.op("Identity", [x])
elementwise_rules[p.checkpoint_name_p] = lambda b, eqn, x: b.op("Identity", [x])
elementwise_rules[p.select_p] = lambda b, eqn, c, x, y: b.where(c, x, y, _in(eqn, 1))


def _neg(b, eqn, x):
    if _in(eqn).kind == "u":  # 0 - x wraps, as NumPy's negative of an unsigned integer
        return b.op("Sub", [b.scalar(0, _in(eqn)), x])
    return _simple("Neg")(b, eqn, x)


elementwise_rules[p.neg_p] = _neg


def _sign(b, eqn, x):
    out = b.op("Sign", [x])
    return b.where(b.op("IsNaN", [x]), x, out) if _in(eqn).kind == "f" else out


elementwise_rules[p.sign_p] = _sign


def _trunc(b, eqn, x):
    return b.where(b.op("Less", [x, b.scalar(0, _in(eqn))]), b.op("Ceil", [x]), b.op("Floor", [x]))


elementwise_rules[p.trunc_p] = _trunc


def _maxmin(op_type, bool_op):
    plain = _simple(op_type, _MAXMIN, bool_op)

    def rule(b, eqn, x, y):
        out = plain(b, eqn, x, y)
        if _in(eqn).kind != "f":
            return out
        # NumPy's maximum/minimum propagate NaN; x + y is NaN when either is
        either_nan = b.op("Or", [b.op("IsNaN", [x]), b.op("IsNaN", [y])])
        return b.where(either_nan, b.op("Add", [x, y]), out)

    return rule


elementwise_rules[p.max_p] = _maxmin("Max", "Or")
elementwise_rules[p.min_p] = _maxmin("Min", "And")


def _exp2(b, eqn, x):
    return b.op("Pow", [b.scalar(2, _in(eqn)), x])


def _scaled_log(factor):
    def rule(b, eqn, x):
        return b.op("Mul", [b.op("Log", [x]), b.scalar(factor, _in(eqn))])

    return rule


def _log1p(b, eqn, x):
    # Kahan's log1p: log(u) * x / (u - 1) with u = 1 + x carries the rounding of u, exact as x -> 0
    dtype = _in(eqn)
    one = b.scalar(1, dtype)
    u = b.op("Add", [one, x])
    um1 = b.op("Sub", [u, one])
    ratio = b.op("Div", [b.op("Mul", [b.op("Log", [u]), x]), um1])
    out = b.where(b.op("Equal", [u, one]), x, ratio)
    return b.where(b.op("IsInf", [x], detect_negative=0), x, out)


def _expm1(b, eqn, x):
    # Kahan's expm1: (u - 1) * x / log(u) with u = exp(x)
    dtype = _in(eqn)
    one = b.scalar(1, dtype)
    u = b.op("Exp", [x])
    um1 = b.op("Sub", [u, one])
    ratio = b.op("Div", [b.op("Mul", [um1, x]), b.op("Log", [u])])
    out = b.where(b.op("Equal", [u, one]), x, ratio)
    out = b.where(b.op("Equal", [um1, b.scalar(-1, dtype)]), um1, out)
    return b.where(b.op("IsInf", [u]), u, out)


def _cbrt(b, eqn, x):
    dtype = _in(eqn)
    third = b.scalar(1 / 3, dtype)
    root = b.op("Pow", [b.op("Abs", [x]), third])
    return b.where(b.op("Less", [x, b.scalar(0, dtype)]), b.op("Neg", [root]), root)


elementwise_rules[p.exp2_p] = _exp2
elementwise_rules[p.log2_p] = _scaled_log(1 / math.log(2))
elementwise_rules[p.log10_p] = _scaled_log(1 / math.log(10))
elementwise_rules[p.log1p_p] = _log1p
elementwise_rules[p.expm1_p] = _expm1
elementwise_rules[p.cbrt_p] = _cbrt


def _isfinite(b, eqn, x):
    return b.op("Not", [b.op("Or", [b.op("IsNaN", [x]), b.op("IsInf", [x])])])


elementwise_rules[p.isfinite_p] = _isfinite


def signbit(b, x, dtype) -> str:
    """The sign bit of float `x`: x < 0, or -0.0 (1 / x < 0). Note: a NaN's sign bit reads False."""
    zero = b.scalar(0, dtype)
    negative_zero = b.op(
        "And",
        [b.op("Equal", [x, zero]), b.op("Less", [b.op("Div", [b.scalar(1, dtype), x]), zero])],
    )
    return b.op("Or", [b.op("Less", [x, zero]), negative_zero])


elementwise_rules[p.signbit_p] = lambda b, eqn, x: signbit(b, x, _in(eqn))


def _copysign(b, eqn, x, y):
    magnitude = b.op("Abs", [x])
    return b.where(signbit(b, y, _in(eqn)), b.op("Neg", [magnitude]), magnitude)


elementwise_rules[p.copysign_p] = _copysign


def _atan2(b, eqn, y, x):
    dtype = _in(eqn)
    zero = b.scalar(0, dtype)
    pi = b.scalar(math.pi, dtype)
    base = b.op("Atan", [b.op("Div", [y, x])])
    left = b.where(
        signbit(b, y, dtype), b.op("Sub", [base, pi]), b.op("Add", [base, pi])
    )  # x < 0: the quadrant by y's sign
    axis = b.where(  # x == 0
        b.op("Greater", [y, zero]),
        b.scalar(math.pi / 2, dtype),
        b.where(b.op("Less", [y, zero]), b.scalar(-math.pi / 2, dtype), y),
    )
    return b.where(b.op("Greater", [x, zero]), base, b.where(b.op("Less", [x, zero]), left, axis))


def _hypot(b, eqn, x, y):
    dtype = _in(eqn)
    ax, ay = b.op("Abs", [x]), b.op("Abs", [y])
    big = b.op("Max", [ax, ay])
    zero = b.scalar(0, dtype)
    safe = b.where(b.op("Equal", [big, zero]), b.scalar(1, dtype), big)
    rx, ry = b.op("Div", [ax, safe]), b.op("Div", [ay, safe])
    out = b.op(
        "Mul", [big, b.op("Sqrt", [b.op("Add", [b.op("Mul", [rx, rx]), b.op("Mul", [ry, ry])])])]
    )
    inf = b.op("Or", [b.op("IsInf", [x]), b.op("IsInf", [y])])
    return b.where(inf, b.scalar(np.inf, dtype), out)


elementwise_rules[p.atan2_p] = _atan2
elementwise_rules[p.hypot_p] = _hypot


def _ldexp(b, eqn, x, n):
    # x * 2**a * 2**(n - a) with a = floor(n / 2): each power is exact where x * 2**n is finite
    dtype = _in(eqn)
    nf = b.cast(n, dtype)
    half = b.op("Floor", [b.op("Mul", [nf, b.scalar(0.5, dtype)])])
    two = b.scalar(2, dtype)
    out = b.op("Mul", [x, b.op("Pow", [two, half])])
    return b.op("Mul", [out, b.op("Pow", [two, b.op("Sub", [nf, half])])])


elementwise_rules[p.ldexp_p] = _ldexp

# -- integer and floating division with NumPy's rounding -----------------------------------------


def _safe_divisor(b, y, dtype):
    """(y == 0, y with 0 and -1 replaced by 1): the divisor that never traps (x / 0, MIN / -1)."""
    zero = b.op("Equal", [y, b.scalar(0, dtype)])
    bad = zero
    if dtype.kind == "i":
        bad = b.op("Or", [zero, b.op("Equal", [y, b.scalar(-1, dtype)])])
    return zero, b.where(bad, b.scalar(1, dtype), y, dtype)


def _floordiv(b, eqn, x, y):
    dtype = _in(eqn)
    if dtype.kind == "f":
        return _float_divmod(b, x, y, dtype)[0]
    zero, ys = _safe_divisor(b, y, dtype)
    q = b.op("Div", [x, ys])  # rounds toward zero
    if dtype.kind == "i":
        r = b.op("Sub", [x, b.op("Mul", [q, ys])])
        z = b.scalar(0, dtype)
        opposite = b.op("Xor", [b.op("Less", [r, z]), b.op("Less", [ys, z])])
        adjust = b.op("And", [b.op("Not", [b.op("Equal", [r, z])]), opposite])
        q = b.op("Sub", [q, b.cast(adjust, dtype)])
        minus_one = b.op("Equal", [y, b.scalar(-1, dtype)])
        q = b.where(minus_one, b.op("Sub", [z, x]), q, dtype)  # MIN // -1 wraps to MIN, as in NumPy
    return b.where(zero, b.scalar(0, dtype), q, dtype)


def _remainder(fmod):
    def rule(b, eqn, x, y):
        dtype = _in(eqn)
        if dtype.kind == "f":
            return b.op("Mod", [x, y], fmod=1) if fmod else _float_divmod(b, x, y, dtype)[1]
        zero, ys = _safe_divisor(b, y, dtype)
        return b.where(zero, b.scalar(0, dtype), b.op("Mod", [x, ys], fmod=fmod), dtype)

    return rule


def _float_divmod(b, a, d, dtype):
    """NumPy's npy_divmod for floats: (floor_divide, remainder)."""
    zero, one = b.scalar(0, dtype), b.scalar(1, dtype)
    mod = b.op("Mod", [a, d], fmod=1)
    div = b.op("Div", [b.op("Sub", [a, mod]), d])
    opposite = b.op("Xor", [b.op("Less", [d, zero]), b.op("Less", [mod, zero])])
    nonzero_mod = b.op("Not", [b.op("Equal", [mod, zero])])
    fix = b.op("And", [nonzero_mod, opposite])
    div = b.where(fix, b.op("Sub", [div, one]), div)
    mod_fixed = b.where(fix, b.op("Add", [mod, d]), mod)
    signed_zero = b.where(signbit(b, d, dtype), b.scalar(-0.0, dtype), zero)
    mod_out = b.where(nonzero_mod, mod_fixed, signed_zero)
    floor = b.op("Floor", [div])
    up = b.op("Greater", [b.op("Sub", [div, floor]), b.scalar(0.5, dtype)])
    floor = b.where(up, b.op("Add", [floor, one]), floor)
    quotient = b.op("Div", [a, d])
    zero_div = b.where(b.op("Less", [quotient, zero]), b.scalar(-0.0, dtype), zero)
    floordiv = b.where(b.op("Equal", [div, zero]), zero_div, floor)
    d_zero = b.op("Equal", [d, zero])
    return b.where(d_zero, quotient, floordiv), b.where(d_zero, mod, mod_out)


elementwise_rules[p.floordiv_p] = _floordiv
elementwise_rules[p.rem_p] = _remainder(0)
elementwise_rules[p.fmod_p] = _remainder(1)

# -- shifts and bit counts ------------------------------------------------------------------------


def _unsigned(dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def _shift_left(b, eqn, x, s):
    dtype = _in(eqn)
    bits = 8 * dtype.itemsize
    u = _unsigned(dtype)
    out = b.op("BitShift", [b.cast(x, u), b.cast(s, u)], direction="LEFT")
    too_far = b.op("GreaterOrEqual", [s, b.scalar(bits, dtype)])
    return b.where(too_far, b.scalar(0, dtype), b.cast(out, dtype), dtype)


def _shift_right(b, eqn, x, s):
    dtype = _in(eqn)
    bits = 8 * dtype.itemsize
    u = _unsigned(dtype)
    too_far = b.op("Greater", [s, b.scalar(bits - 1, dtype)])
    if dtype.kind == "u":
        out = b.op("BitShift", [x, s], direction="RIGHT")
        return b.where(too_far, b.scalar(0, dtype), out, dtype)
    # arithmetic shift: shift the complement of a negative value, and complement back
    negative = b.op("Less", [x, b.scalar(0, dtype)])
    magnitude = b.where(negative, b.op("BitwiseNot", [x]), x, dtype)
    steps = b.where(too_far, b.scalar(bits - 1, dtype), s, dtype)
    out = b.cast(
        b.op("BitShift", [b.cast(magnitude, u), b.cast(steps, u)], direction="RIGHT"), dtype
    )
    return b.where(negative, b.op("BitwiseNot", [out]), out, dtype)


def _popcount(b, eqn, x):
    dtype = _in(eqn)
    u = _unsigned(dtype)
    bits = 8 * dtype.itemsize
    if dtype.kind == "i":  # NumPy counts the bits of the absolute value
        x = b.op("Abs", [x])
    v = b.cast(x, u)

    def k(value):
        return b.scalar(value, u)

    def mask(byte):
        return k(int.from_bytes(bytes([byte]) * dtype.itemsize, "little"))

    def shr(value, n):
        return b.op("BitShift", [value, k(n)], direction="RIGHT")

    v = b.op("Sub", [v, b.op("BitwiseAnd", [shr(v, 1), mask(0x55)])])
    v = b.op(
        "Add", [b.op("BitwiseAnd", [v, mask(0x33)]), b.op("BitwiseAnd", [shr(v, 2), mask(0x33)])]
    )
    v = b.op("BitwiseAnd", [b.op("Add", [v, shr(v, 4)]), mask(0x0F)])
    if bits > 8:
        v = shr(b.op("Mul", [v, mask(0x01)]), bits - 8)
    return b.cast(v, np.uint8)


elementwise_rules[p.shift_left_p] = _shift_left
elementwise_rules[p.shift_right_p] = _shift_right
elementwise_rules[p.popcount_p] = _popcount

# -- complex parts of real operands ---------------------------------------------------------------


def _real_only(name, build):
    def rule(b, eqn, x):
        if _in(eqn).kind == "c":
            raise ExportError(f"{name} of a complex operand: ONNX runtimes have no complex tensors")
        return build(b, eqn, x)

    return rule


elementwise_rules[p.real_p] = _real_only("real", lambda b, eqn, x: b.op("Identity", [x]))
elementwise_rules[p.conj_p] = _real_only("conj", lambda b, eqn, x: b.op("Identity", [x]))
elementwise_rules[p.imag_p] = _real_only(
    "imag", lambda b, eqn, x: b.op("Expand", [b.scalar(0, _in(eqn)), b.op("Shape", [x])])
)


def _convert(b, eqn, x):
    dtype = eqn.outputs[0].aval.dtype
    if dtype.kind == "c" or _in(eqn).kind == "c":
        raise ExportError("convert to or from complex: ONNX runtimes have no complex tensors")
    return b.cast(x, dtype)


elementwise_rules[p.convert_p] = _convert

# primitives without an ONNX lowering, and why (ExportError names the primitive and the line)
unsupported = {
    p.gcd_p: "ONNX has no gcd operator (a Loop of remainders is not written yet)",
    p.nextafter_p: "ONNX has no nextafter; it needs a bit-level view that onnxruntime lacks",
    p.frexp_p: "ONNX has no frexp operator",
    p.complex_p: "ONNX runtimes have no complex tensors",
}

__all__ = ["elementwise_rules", "signbit", "unsupported"]
