"""cupy_rules: how each elementwise primitive becomes a CUDA C++ expression inside a generated kernel.

Convention: `cupy_rules[p](args, eqn) -> str`, where `args` are the operand expressions, each of its
operand's register type (`register_type`: float16 values are held in float), and the expression is of the
result's register type. NumPy's semantics come from numpy_ops.cuh (integer wrap-around, x // 0, NaN-first
maximum, float -> int conversions as on x86-64); math functions are CUDA's own (libdevice) on the GPU and
the C library's of the same names in the CPU harness (docs/internals/cuda.md states their ulp bounds).
A float16 result is rounded to binary16 after the operation (np_round_half), as NumPy's float16 loops do.
complex64/complex128 values are complex_ops.cuh's c64/c128 (two float or double parts); the primitives of
COMPLEX lower on them, with NumPy's formulas (its fused product, Smith's quotient) and glibc's cexp, clog
and csqrt composed from CUDA's float functions.
`unsupported_reason(eqn)` says why a primitive or dtype is not lowered; its region runs its reference rule.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir import primitives as p

cupy_rules: dict = {}

_REGISTER = {
    "b": {1: "bool"},
    "i": {1: "i8", 2: "i16", 4: "i32", 8: "i64"},
    "u": {1: "u8", 2: "u16", 4: "u32", 8: "u64"},
    "f": {2: "float", 4: "float", 8: "double"},
    "c": {8: "c64", 16: "c128"},  # complex_ops.cuh: two float or two double parts
}


def register_type(dtype) -> str:
    """The C type a value of `dtype` has in registers (float16 computes in float)."""
    dtype = np.dtype(dtype)
    return _REGISTER[dtype.kind][dtype.itemsize]


def storage_type(dtype) -> str:
    """The C type of an element in memory."""
    dtype = np.dtype(dtype)
    return "__half" if dtype == np.float16 else register_type(dtype)


def load(dtype, expr: str) -> str:
    return f"__half2float({expr})" if np.dtype(dtype) == np.float16 else expr


def store(dtype, expr: str) -> str:
    return f"__float2half_rn({expr})" if np.dtype(dtype) == np.float16 else expr


def literal(value, dtype) -> str:
    """An exact C literal of `value` as `dtype`'s register type."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        z = np.array(value, dtype)[()]
        part = np.dtype(f"f{dtype.itemsize // 2}")
        return f"np_complex({literal(z.real, part)}, {literal(z.imag, part)})"
    if dtype.kind == "b":
        return "true" if value else "false"
    if dtype.kind in "iu":
        bits = int(np.array(value, dtype).view(f"u{dtype.itemsize}"))
        return f"(({register_type(dtype)}){bits:#x}ull)"
    if dtype == np.float64:
        v = np.float64(value)
        if not np.isfinite(v):
            return f"__longlong_as_double({int(v.view(np.int64))}ll)"
        return f"{float(v).hex()}"
    v = np.float32(np.array(value, dtype))  # float16 literals are exact in float
    if not np.isfinite(v):
        return f"__uint_as_float({int(v.view(np.uint32)):#x}u)"
    return f"{float(v).hex()}f"


def _dtype(eqn):
    return eqn.outputs[0].aval.dtype


def _in(eqn):
    return eqn.inputs[0].aval.dtype


def _suffix(eqn):
    return "f" if register_type(_dtype(eqn)) == "float" else ""


def _rounded(eqn, expr):
    return f"np_round_half({expr})" if _dtype(eqn) == np.float16 else expr


def _arith(op, integer, bool_op=None):
    def rule(args, eqn):
        kind = _dtype(eqn).kind
        if kind == "b":
            return f"({args[0]} {bool_op} {args[1]})"
        if kind in "iu":
            return f"{integer}<{register_type(_dtype(eqn))}>({args[0]}, {args[1]})"
        return _rounded(eqn, f"({args[0]} {op} {args[1]})")

    return rule


def _complex_or(name, rule):
    """`name(args)` (complex_ops.cuh) for complex operands, else `rule`."""
    return lambda args, eqn: (
        f"{name}({', '.join(args)})" if _in(eqn).kind == "c" else rule(args, eqn)
    )


cupy_rules[p.add_p] = _arith("+", "np_add", "|")  # complex: operator+ of complex_ops.cuh
cupy_rules[p.sub_p] = _arith("-", "np_sub")
cupy_rules[p.mul_p] = _complex_or("np_cmul", _arith("*", "np_mul", "&"))
cupy_rules[p.div_p] = _complex_or(
    "np_cdiv", lambda args, eqn: _rounded(eqn, f"({args[0]} / {args[1]})")
)


def _by_kind(integer, floating, boolean=None):
    def rule(args, eqn):
        kind = _dtype(eqn).kind
        if kind == "b" and boolean is not None:
            return boolean.format(*args)
        name = integer if kind in "iub" else floating
        return f"{name}<{register_type(_dtype(eqn))}>({', '.join(args)})"

    return rule


cupy_rules[p.neg_p] = lambda args, eqn: (
    f"np_neg<{register_type(_dtype(eqn))}>({args[0]})"
    if _dtype(eqn).kind in "iu"
    else f"(-{args[0]})"
)
cupy_rules[p.abs_p] = _complex_or(
    "np_cabs",
    lambda args, eqn: (
        f"np_abs_int<{register_type(_dtype(eqn))}>({args[0]})"
        if _dtype(eqn).kind in "iu"
        else (args[0] if _dtype(eqn).kind == "b" else f"fabs{_suffix(eqn)}({args[0]})")
    ),
)
cupy_rules[p.max_p] = _by_kind("np_max_int", "np_max_float", "({0} || {1})")
cupy_rules[p.min_p] = _by_kind("np_min_int", "np_min_float", "({0} && {1})")
cupy_rules[p.sign_p] = _by_kind("np_sign_int", "np_sign_float", "{0}")


def _division(integer, floating):
    inner = _by_kind(integer, floating)
    return lambda args, eqn: _rounded(eqn, inner(args, eqn))


cupy_rules[p.floordiv_p] = _division("np_floordiv_int", "np_floordiv_float")
cupy_rules[p.rem_p] = _division("np_rem_int", "np_rem_float")
cupy_rules[p.fmod_p] = lambda args, eqn: (
    f"np_fmod_int<{register_type(_dtype(eqn))}>({args[0]}, {args[1]})"
    if _dtype(eqn).kind in "iu"
    else _rounded(eqn, f"np_fmod({args[0]}, {args[1]})")
)
cupy_rules[p.select_p] = lambda args, eqn: f"({args[0]} ? {args[1]} : {args[2]})"
for _prim, _op in [(p.eq_p, "=="), (p.ne_p, "!="), (p.lt_p, "<"), (p.le_p, "<="), (p.gt_p, ">")]:
    cupy_rules[_prim] = lambda args, eqn, _op=_op: f"({args[0]} {_op} {args[1]})"
cupy_rules[p.ge_p] = lambda args, eqn: f"({args[0]} >= {args[1]})"


def _bitwise(op):
    def rule(args, eqn):
        if _dtype(eqn).kind == "b":
            return f"({args[0]} {op} {args[1]})"
        return f"(({register_type(_dtype(eqn))})({args[0]} {op} {args[1]}))"

    return rule


cupy_rules[p.and_p] = _bitwise("&")
cupy_rules[p.or_p] = _bitwise("|")
cupy_rules[p.xor_p] = _bitwise("^")
cupy_rules[p.not_p] = lambda args, eqn: (
    f"(!{args[0]})" if _dtype(eqn).kind == "b" else f"(({register_type(_dtype(eqn))})~{args[0]})"
)


def _shift(op):
    # NumPy: a shift by the width or more gives 0 (an arithmetic right shift of a negative value: -1)
    def rule(args, eqn):
        t = register_type(_dtype(eqn))
        bits = _dtype(eqn).itemsize * 8
        a, b = args
        if op == "<<":
            return f"((u64)({b}) < {bits} ? ({t})((u64)({a}) << ({b})) : ({t})0)"
        beyond = f"({a} < 0 ? ({t})-1 : ({t})0)" if _dtype(eqn).kind == "i" else f"({t})0"
        return f"((u64)({b}) < {bits} ? ({t})({a} >> ({b})) : {beyond})"

    return rule


cupy_rules[p.shift_left_p] = _shift("<<")
cupy_rules[p.shift_right_p] = _shift(">>")

# math functions: name in the C library and in CUDA (the float variant takes an "f" suffix)
MATH = {
    p.exp_p: "exp", p.exp2_p: "exp2", p.expm1_p: "expm1", p.log_p: "log", p.log2_p: "log2",
    p.log10_p: "log10", p.log1p_p: "log1p", p.sqrt_p: "sqrt", p.cbrt_p: "cbrt", p.sin_p: "sin",
    p.cos_p: "cos", p.tan_p: "tan", p.asin_p: "asin", p.acos_p: "acos", p.atan_p: "atan",
    p.sinh_p: "sinh", p.cosh_p: "cosh", p.tanh_p: "tanh", p.asinh_p: "asinh", p.acosh_p: "acosh",
    p.atanh_p: "atanh", p.erf_p: "erf", p.floor_p: "floor", p.ceil_p: "ceil", p.trunc_p: "trunc",
    p.rint_p: "rint", p.atan2_p: "atan2", p.hypot_p: "hypot", p.copysign_p: "copysign",
    p.pow_p: "pow",
}  # fmt: skip
# results exact in the operand's format: no rounding to float16 after them
_EXACT = {p.floor_p, p.ceil_p, p.trunc_p, p.rint_p, p.copysign_p}


def _math(name, prim):
    def rule(args, eqn):
        if _dtype(eqn).kind in "iub":  # floor/ceil/trunc/rint of an integer: itself
            return args[0]
        fn = name + ("f" if register_type(_dtype(eqn)) == "float" else "")
        expr = f"{fn}({', '.join(args)})"
        return expr if prim in _EXACT else _rounded(eqn, expr)

    return rule


for _prim, _name in MATH.items():
    cupy_rules[_prim] = _math(_name, _prim)
for _prim, _name in [(p.exp_p, "np_cexp"), (p.log_p, "np_clog"), (p.sqrt_p, "np_csqrt")]:
    cupy_rules[_prim] = _complex_or(_name, cupy_rules[_prim])
# real, imag and conj of a real value: itself, zeros, itself (as NumPy's)
cupy_rules[p.real_p] = lambda args, eqn: f"{args[0]}.re" if _in(eqn).kind == "c" else args[0]
cupy_rules[p.imag_p] = lambda args, eqn: (
    f"{args[0]}.im" if _in(eqn).kind == "c" else literal(0, _dtype(eqn))
)
cupy_rules[p.conj_p] = _complex_or("np_conj", lambda args, eqn: args[0])
cupy_rules[p.complex_p] = lambda args, eqn: f"np_complex({args[0]}, {args[1]})"
cupy_rules[p.logistic_p] = lambda args, eqn: _rounded(eqn, f"np_logistic({args[0]})")
cupy_rules[p.isnan_p] = lambda args, eqn: (
    "false" if _in(eqn).kind in "iub" else f"({args[0]} != {args[0]})"
)
cupy_rules[p.isinf_p] = lambda args, eqn: (
    "false" if _in(eqn).kind in "iub" else f"np_isinf({args[0]})"
)
cupy_rules[p.isfinite_p] = lambda args, eqn: (
    "true" if _in(eqn).kind in "iub" else f"np_isfinite({args[0]})"
)
cupy_rules[p.signbit_p] = lambda args, eqn: (
    f"({args[0]} < 0)" if _in(eqn).kind in "iub" else f"np_signbit({args[0]})"
)
cupy_rules[p.stop_gradient_p] = lambda args, eqn: args[0]


def _convert(args, eqn):
    src, dst = np.dtype(_in(eqn)), np.dtype(_dtype(eqn))
    x = args[0]
    if src == dst:
        return x
    if dst.kind == "c":  # each part converted once; a real value gets a +0 imaginary part
        part = "float" if dst == np.complex64 else "double"
        if src.kind == "c":
            return f"np_complex(({part}){x}.re, ({part}){x}.im)"
        return f"np_complex(({part}){x}, ({part})0)"
    if src.kind == "c":  # NumPy: true when a part is nonzero, else the real part converted
        if dst.kind == "b":
            return f"({x}.re != 0 || {x}.im != 0)"
        return _convert_real(f"{x}.re", np.dtype(f"f{src.itemsize // 2}"), dst)
    return _convert_real(x, src, dst)


def _convert_real(x, src, dst):
    if src == dst:
        return x
    if dst.kind == "b":
        return f"({x} != 0)"
    if src.kind == "f" and dst.kind in "iu":
        return f"np_float_to_int<{register_type(dst)}>((double){x})"
    if dst == np.float16:  # from double or an integer: one rounding, from the exact value
        wide = x if src == np.float64 else f"(double){x}"
        return f"__half2float(__double2half({wide}))"
    return f"(({register_type(dst)}){x})"


cupy_rules[p.convert_p] = _convert


# the primitives lowered on complex operands (complex_ops.cuh); the others run their reference rules
COMPLEX = {
    p.add_p, p.sub_p, p.mul_p, p.div_p, p.neg_p, p.conj_p, p.real_p, p.imag_p, p.complex_p,
    p.abs_p, p.eq_p, p.ne_p, p.select_p, p.convert_p, p.exp_p, p.log_p, p.sqrt_p,
    p.stop_gradient_p,
}  # fmt: skip


def unsupported_reason(eqn) -> str | None:
    """Why this equation is not lowered into a CUDA kernel, or None if it is."""
    if eqn.prim not in cupy_rules:
        return f"no CUDA lowering for {eqn.prim.name}"
    dtypes = [x.aval.dtype for x in eqn.inputs] + [v.aval.dtype for v in eqn.outputs]
    kinds = "biufc" if eqn.prim in COMPLEX else "biuf"
    odd = sorted({d.name for d in map(np.dtype, dtypes) if d.kind not in kinds})
    if odd:
        return f"CUDA lowering of {eqn.prim.name} with {', '.join(odd)} operands is not written"
    if eqn.prim is p.pow_p and _dtype(eqn).kind in "iub":
        return "integer power keeps NumPy's negative-exponent error on the reference path"
    return None
