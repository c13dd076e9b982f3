"""numba_rules: how each elementwise primitive becomes a scalar Python expression inside a generated loop.

Convention: `numba_rules[p](args, eqn) -> str`, where `args` are the operand expressions (already of the
operand dtypes) and the result must be of the output dtype. Integer results are re-cast to their dtype so
arithmetic wraps as in NumPy (numba widens small ints). A primitive missing here (or rejected by
`unsupported_reason`) makes its region run through the reference rules instead; the plan says so.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.codegen_widen import is_storage
from arraystack.backends.numba.fusion_policy import (
    COMPLEX_KERNEL,
    WHOLE_ARRAY_FLOAT,
    float32_integer_power,
)
from arraystack.ir import primitives as p
from arraystack.ir.ir import Literal

numba_rules: dict = {}


def cast(dtype, expr):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return f"bool({expr})"
    return f"np.{dtype.name}({expr})"


def literal(value, dtype) -> str:
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return "True" if value else "False"
    if dtype.kind in "iu":
        return f"np.{dtype.name}({int(value)})"
    if dtype.kind == "c":
        part = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
        z = complex(value)
        return f"complex_of({literal(z.real, part)}, {literal(z.imag, part)})"
    v = float(value)
    if v != v:
        text = "np.nan"
    elif v in (np.inf, -np.inf):
        text = "np.inf" if v > 0 else "-np.inf"
    else:
        text = repr(v)
    return f"np.{dtype.name}({text})"


def _out(eqn):
    return eqn.outputs[0].aval.dtype


def _arith(op, bool_op=None):
    def rule(args, eqn):
        dtype = _out(eqn)
        a, b = args
        if dtype.kind == "b":
            return f"({a} {bool_op} {b})"
        expr = f"({a} {op} {b})"
        return cast(dtype, expr) if dtype.kind in "iu" else expr

    return rule


def _complex_or(function, rule):
    """mathlib/complex_arith.py's `function` on complex operands (NumPy's bits), else `rule`."""

    def pick(args, eqn):
        if eqn.inputs[0].aval.dtype.kind == "c":
            return f"{function}({', '.join(args)})"
        return rule(args, eqn)

    return pick


numba_rules[p.add_p] = _arith("+", "|")
numba_rules[p.sub_p] = _arith("-")
numba_rules[p.mul_p] = _complex_or("complex_mul", _arith("*", "&"))
numba_rules[p.div_p] = _complex_or("complex_div", lambda args, eqn: f"({args[0]} / {args[1]})")
numba_rules[p.neg_p] = lambda args, eqn: (
    cast(_out(eqn), f"-{args[0]}") if _out(eqn).kind in "iu" else f"(-{args[0]})"
)
numba_rules[p.abs_p] = _complex_or(
    "complex_abs", lambda args, eqn: cast(_out(eqn), f"abs({args[0]})")
)


def _part(name):
    def rule(args, eqn):
        if eqn.inputs[0].aval.dtype.kind == "c":
            return f"{args[0]}.{name}"
        return args[0] if name == "real" else literal(0, _out(eqn))

    return rule


numba_rules[p.real_p] = _part("real")
numba_rules[p.imag_p] = _part("imag")
numba_rules[p.conj_p] = lambda args, eqn: (
    f"complex_of({args[0]}.real, -{args[0]}.imag)"
    if _out(eqn).kind == "c"
    else args[0]
)
numba_rules[p.complex_p] = lambda args, eqn: f"complex_of({args[0]}, {args[1]})"
numba_rules[p.max_p] = lambda args, eqn: f"maximum({args[0]}, {args[1]})"
numba_rules[p.min_p] = lambda args, eqn: f"minimum({args[0]}, {args[1]})"
numba_rules[p.select_p] = lambda args, eqn: f"({args[1]} if {args[0]} else {args[2]})"
for _prim, _op in [
    (p.eq_p, "=="),
    (p.ne_p, "!="),
    (p.lt_p, "<"),
    (p.le_p, "<="),
    (p.gt_p, ">"),
    (p.ge_p, ">="),
]:
    numba_rules[_prim] = lambda args, eqn, _op=_op: f"({args[0]} {_op} {args[1]})"
for _prim, _op in [(p.and_p, "&"), (p.or_p, "|"), (p.xor_p, "^")]:
    numba_rules[_prim] = lambda args, eqn, _op=_op: cast(_out(eqn), f"({args[0]} {_op} {args[1]})")
numba_rules[p.not_p] = lambda args, eqn: (
    f"(not {args[0]})" if _out(eqn).kind == "b" else cast(_out(eqn), f"~{args[0]}")
)


def _vector_math(name):
    def rule(args, eqn):
        return f"{name}_{'f32' if _out(eqn) == np.float32 else 'f64'}({args[0]})"

    return rule


numba_rules[p.exp_p] = _complex_or("complex_exp", _vector_math("exp"))  # complex: libm's cexp
numba_rules[p.expm1_p] = _vector_math("expm1")
numba_rules[p.log_p] = _complex_or("complex_log", _vector_math("log"))  # complex: libm's clog
numba_rules[p.tanh_p] = _vector_math("tanh")
numba_rules[p.logistic_p] = _vector_math("logistic")
numba_rules[p.erf_p] = _vector_math("erf")  # float32: mathlib's, in float32; float64: mathlib/erf.py's
numba_rules[p.log1p_p] = _vector_math("log1p")  # mathlib/log1p.py
numba_rules[p.sin_p] = _vector_math("sin")  # mathlib/trig.py; codegen.py may call sin_f32_fast
numba_rules[p.cos_p] = _vector_math("cos")
numba_rules[p.tan_p] = _vector_math("tan")
# the primitives lowered to mathlib's functions: compute-bound loops, where 512-bit vectors pay off
VECTOR_MATH = frozenset(
    {p.exp_p, p.expm1_p, p.log_p, p.log1p_p, p.tanh_p, p.logistic_p, p.erf_p}
    | {p.sin_p, p.cos_p, p.tan_p}
)
for _prim, _fn in [
    (p.sqrt_p, "np.sqrt"),
    (p.floor_p, "np.floor"),
    (p.ceil_p, "np.ceil"),
    (p.trunc_p, "np.trunc"),
    (p.rint_p, "np.rint"),  # llvm.rint: round half to even, as NumPy's
    (p.isnan_p, "np.isnan"),
    (p.isinf_p, "np.isinf"),
    (p.isfinite_p, "np.isfinite"),
    (p.asin_p, "np.arcsin"),
    (p.acos_p, "np.arccos"),
    (p.atan_p, "np.arctan"),
    (p.sinh_p, "np.sinh"),
    (p.cosh_p, "np.cosh"),
    (p.asinh_p, "np.arcsinh"),
    (p.acosh_p, "np.arccosh"),
    (p.atanh_p, "np.arctanh"),
    (p.log2_p, "np.log2"),
    (p.log10_p, "np.log10"),
    (p.exp2_p, "np.exp2"),
]:
    numba_rules[_prim] = lambda args, eqn, _fn=_fn: f"{_fn}({args[0]})"
numba_rules[p.sqrt_p] = _complex_or("complex_sqrt", numba_rules[p.sqrt_p])  # complex: libm's csqrt
# complex log2 and log10: NumPy's loops multiply both parts of clog by log2(e) or log10(e)
numba_rules[p.log2_p] = _complex_or("complex_log2", numba_rules[p.log2_p])
numba_rules[p.log10_p] = _complex_or("complex_log10", numba_rules[p.log10_p])
numba_rules[p.atan2_p] = lambda args, eqn: f"np.arctan2({args[0]}, {args[1]})"
numba_rules[p.hypot_p] = lambda args, eqn: f"np.hypot({args[0]}, {args[1]})"
numba_rules[p.copysign_p] = lambda args, eqn: f"np.copysign({args[0]}, {args[1]})"
def _pow(args, eqn):
    n = float32_integer_power(eqn)
    if n is None:
        return f"({args[0]} ** {args[1]})"
    # in float64: x * x is exact, the next product rounds once, then float32 once more (a double
    # rounding only where the float64 result lies within 2**-29 ulp of a float32 midpoint)
    w = f"np.float64({args[0]})"
    return f"np.float32({w} * {w} * {w})" if n == 3 else f"np.float32(({w} * {w}) * ({w} * {w}))"


numba_rules[p.pow_p] = _pow


def _sign(args, eqn):
    x, dtype = args[0], _out(eqn)
    one, zero, minus = (
        literal(1, dtype),
        literal(0, dtype),
        literal(-1, dtype) if dtype.kind != "u" else "",
    )
    if dtype.kind == "u":
        return f"({one} if {x} > 0 else {zero})"
    return f"({one} if {x} > 0 else ({minus} if {x} < 0 else ({x} if {x} != {x} else {zero})))"


numba_rules[p.sign_p] = _sign
numba_rules[p.signbit_p] = lambda args, eqn: f"(np.copysign(1.0, {args[0]}) < 0)"


# widening a storage value's bits (codegen_widen.py) to float32, and rounding float32 to its bits
_WIDEN = {"float16": "f16_to_f32", "bfloat16": "bf16_to_f32"}
_NARROW = {"float16": "f32_to_f16", "bfloat16": "f32_to_bf16"}


def _convert(args, eqn):
    src = eqn.inputs[0].aval.dtype
    dst = _out(eqn)
    x = args[0]
    if src == dst:
        return x
    if is_storage(src):
        x, src = f"{_WIDEN[src.name]}({x})", np.dtype(np.float32)
        if is_storage(dst):
            return f"{_NARROW[dst.name]}({x})"
    if is_storage(dst):
        if dst == np.float16 and src != np.float32:  # NumPy rounds float64 (and integers) once
            return f"f64_to_f16(np.float64({x}))"
        return f"{_NARROW[dst.name]}(np.float32({x}))"  # ml_dtypes goes through float32
    if dst.kind == "b":
        return f"({x} != 0)"
    if dst.kind == "c":
        part = np.dtype(np.float32 if dst == np.complex64 else np.float64)
        if src.kind == "c":
            return f"complex_of({cast(part, f'{x}.real')}, {cast(part, f'{x}.imag')})"
        return f"complex_of({cast(part, x)}, {literal(0, part)})"
    return cast(dst, x) if src != dst else x


numba_rules[p.convert_p] = _convert
numba_rules[p.stop_gradient_p] = lambda args, eqn: args[0]
numba_rules[p.checkpoint_name_p] = lambda args, eqn: args[0]

# Integer remainder and floor division by a positive constant (i % 2, n // 4): numba's integer % and // are
# Python's, as NumPy's are (the sign of the divisor, the floor); with the divisor a positive constant none
# of NumPy's special cases (x % 0 and x // 0 warn and give 0, MIN // -1 overflows) can occur. Other
# divisors keep NumPy's special cases on the reference path (unsupported_reason).
numba_rules[p.rem_p] = lambda args, eqn: cast(_out(eqn), f"({args[0]} % {args[1]})")
numba_rules[p.floordiv_p] = lambda args, eqn: cast(_out(eqn), f"({args[0]} // {args[1]})")


def _fmod(args, eqn):
    """C's fmod of an integer by a positive constant (the sign of the dividend): Python's remainder,
    less the divisor where the dividend is negative and the remainder is not 0."""
    a, b = args
    if _out(eqn).kind == "u":
        return cast(_out(eqn), f"({a} % {b})")
    return cast(_out(eqn), f"(({a} % {b}) - {b} if ({a} < 0 and {a} % {b} != 0) else ({a} % {b}))")


numba_rules[p.fmod_p] = _fmod


def _positive_integer_divisor(eqn) -> bool:
    divisor = eqn.inputs[1]
    return (
        _out(eqn).kind in "iu"
        and isinstance(divisor, Literal)
        and divisor.aval.dtype.kind in "iu"
        and int(divisor.value) > 0
    )


# Float functions numba can only call as scalar libm routines (numba's fusion policy keeps them out of
# regions, fusion_policy.py WHOLE_ARRAY_FLOAT): a region that still holds one (a user's pipeline, or one
# optimized under another policy) runs on NumPy.


def unsupported_reason(eqn) -> str | None:
    """Why this equation cannot be lowered into a numba loop, or None if it can."""
    if eqn.prim not in numba_rules:
        return f"no numba lowering for {eqn.prim.name}"
    dtypes = [x.aval.dtype for x in eqn.inputs] + [v.aval.dtype for v in eqn.outputs]
    if any(d.kind == "c" for d in dtypes):
        reason = _complex_reason(eqn)
        if reason:
            return reason
    whole_array = eqn.prim in WHOLE_ARRAY_FLOAT and float32_integer_power(eqn) is None
    if whole_array and _out(eqn).kind == "f":
        return f"{eqn.prim.name}: NumPy's own loop is faster than a scalar libm call in a kernel"
    if eqn.prim is p.convert_p and eqn.inputs[0].aval.dtype.kind == "f" and _out(eqn).kind in "iu":
        return "float -> int conversion keeps NumPy's out-of-range behaviour on the reference path"
    if eqn.prim is p.pow_p and _out(eqn).kind in "iub":
        return "integer power keeps NumPy's negative-exponent error on the reference path"
    if eqn.prim is p.fmod_p and not _positive_integer_divisor(eqn):
        return (
            "fmod: floats call libm's scalar fmod, and other integer divisors than positive "
            "constants keep NumPy's fmod by 0 on the reference path"
        )
    if eqn.prim in (p.rem_p, p.floordiv_p) and not _positive_integer_divisor(eqn):
        return (
            f"{eqn.prim.name}: NumPy's special cases (x % 0, x // 0, signed zeros) stay on the reference "
            "path; integers divided by a positive constant compile"
        )
    return None


def _complex_reason(eqn):
    if eqn.prim not in COMPLEX_KERNEL:
        return f"complex {eqn.prim.name} has no kernel lowering: it runs on the reference path"
    if eqn.prim is p.convert_p and _out(eqn).kind not in "bc":
        return "complex -> real conversion keeps NumPy's ComplexWarning on the reference path"
    return None


# Primitives that never become part of a generated loop, and why. The numba backend runs them as their own
# plan steps (reference rule, BLAS, or a host loop over compiled bodies); .compile() shows each step.
_STRUCTURAL = "a whole-array operation: runs as its own step through the reference rule (NumPy)"
_REGION = "handled by the loop-nest generator itself (codegen.py), not as a scalar expression"
_LATER = (
    "runs on the reference path inside compiled plans; a vectorizable lowering is not written yet"
)
reference_only: dict = {
    "broadcast_in_dim": _REGION,
    "reshape": _REGION,
    "reduce_sum": _REGION,
    "reduce_prod": _REGION,
    "reduce_max": _REGION,
    "reduce_min": _REGION,
    "reduce_and": _REGION,
    "reduce_or": _REGION,
    "fusion": _REGION,
    "dot_general": "calls BLAS through NumPy's matmul",
    "fft": "calls pocketfft through numpy.fft",
    "attention": "a whole-array step: the hand-written tiled kernels of attention.py",
    "attention_grad": "a whole-array step: the hand-written tiled kernels of attention.py",
    "switch": "a host branch over compiled branch graphs (backends/control.py)",
    "while": "a host loop over compiled cond/body graphs (backends/control.py)",
    "scan": "a host loop over a compiled body graph (backends/control.py)",
    "optimization_barrier": "an identity the passes may not see through; it passes its operands on",
    "nonzero": "its output shape depends on the data",
    **dict.fromkeys(
        ("cholesky", "solve", "det", "slogdet", "eigh", "eigvalsh", "eig", "eigvals", "svd", "svdvals",
         "qr", "lstsq"),
        "a LAPACK factorization: numpy.linalg through the reference rule",
    ),
    "sort": "calls NumPy's sort/argsort/lexsort",
    "partition": "NumPy's introselect order is the definition",
    "argpartition": "NumPy's introselect order is the definition",
    "searchsorted": "calls NumPy's binary search",
    "update_slice": "a whole-array step writing into its operand's buffer where it dies (updates.py)",
    "bitcast": "NumPy's view of its operand as another dtype, its own step",
    "argmax": _STRUCTURAL,
    "argmin": _STRUCTURAL,
    "concatenate": _STRUCTURAL,
    "copy": _STRUCTURAL,
    "cummax": _STRUCTURAL,
    "cummin": _STRUCTURAL,
    "cumprod": _STRUCTURAL,
    "cumsum": _STRUCTURAL,
    "full": _STRUCTURAL,
    "gather": _STRUCTURAL,
    "iota": _STRUCTURAL,
    "pad": _STRUCTURAL,
    "rev": _STRUCTURAL,
    "scatter": _STRUCTURAL,
    "slice": _STRUCTURAL,
    "transpose": _STRUCTURAL,
    "cbrt": _LATER,
    "frexp": _LATER,
    "ldexp": _LATER,
    "gcd": _LATER,
    "nextafter": _LATER,
    "popcount": _LATER,
    "shift_left": "NumPy defines shifts >= the bit width; kept on the reference path",
    "shift_right": "NumPy defines shifts >= the bit width; kept on the reference path",
}
