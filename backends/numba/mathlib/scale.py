"""exp's last step, 2**k times its polynomial, in one instruction where the CPU has one.

exp_log.py's exp_f32 and exp_f64 end in a scale by 2**k. Products of normal powers of two do it on any
CPU; AVX-512's VSCALEFPS/PD (LLVM's vector llvm.ldexp) does it in one instruction with the same
rounding, so the same bits. The choice is made when a function is lowered, for the CPU numba compiles for.
"""

from __future__ import annotations

from arraystack.backends.numba.mathlib.constants import EXP_SPLIT
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _target_scales_in_one_instruction() -> bool:
    """Whether the CPU numba compiles for has AVX-512F, whose VSCALEFPS/PD is LLVM's vector llvm.ldexp.
    Elsewhere a vector llvm.ldexp becomes one libm call per lane, so the scale stays in plain arithmetic.
    Asked when a function is lowered (tests lower both ways)."""
    from llvmlite import binding
    from numba.core import config

    features = config.CPU_FEATURES
    if features is None:
        features = binding.get_host_cpu_features().flatten()
    return "+avx512f" in features.split(",")


def _ldexp(builder, value, exponent):
    """llvm.ldexp: value * 2**exponent (int32), rounded once, to a denormal, 0 or inf where it lands."""
    ty = value.type
    name = f"llvm.ldexp.{'f32' if ty == ir.FloatType() else 'f64'}.i32"
    fn = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(ty, [ty, exponent.type]), name
    )
    return builder.call(fn, [value, exponent])


@intrinsic
def exp_scale_f32(typingctx, em1, shifted, x):
    """2**k (1 + em1), rounded as fma(em1, s1, s1) * s2 rounds it with s1 = 2**(k - d), s2 = 2**d,
    d = -EXP_SPLIT where x < 0 else EXP_SPLIT, for shifted = float32(k + SHIFTER_F32) and k in
    [-152, 130] (constants.py): both factors are normal, so the fma rounds 1 + em1 once (scaled
    by a power of two) and the product rounds again only where the result is denormal, which is what
    ldexp(1 + em1, k) does too: the same bits either way. With AVX-512 that is 4 vector instructions
    (k's int32 from the shifter's bits, its conversion, VSCALEFPS, the sum) instead of 7. Otherwise it
    works on the int32 bits: (k - d + 127) << 23 is (bits(shifted) << 23) + ((127 - d) << 23) in int32
    (wrapping: bits(SHIFTER_F32) << 23 is 0), and the sign of x selects the constants (numba would widen
    int32 arithmetic to int64: half the vector width)."""
    if not (em1 == shifted == x == types.float32):
        return None

    def codegen(context, builder, signature, args):
        i32, f32 = ir.IntType(32), ir.FloatType()
        e, sh, xv = args
        if _target_scales_in_one_instruction():
            k = builder.sub(
                builder.bitcast(sh, i32), ir.Constant(i32, 0x4B400000)
            )  # bits(SHIFTER_F32)
            return _ldexp(builder, builder.fadd(ir.Constant(f32, 1.0), e), k)
        negative = builder.fcmp_ordered("<", xv, ir.Constant(f32, 0.0))
        biases = [ir.Constant(i32, (127 - d) << 23) for d in (-EXP_SPLIT, EXP_SPLIT)]
        kbits = builder.shl(builder.bitcast(sh, i32), ir.Constant(i32, 23))
        s1 = builder.bitcast(builder.add(kbits, builder.select(negative, *biases)), f32)
        s2 = builder.select(
            negative, ir.Constant(f32, 2.0**-EXP_SPLIT), ir.Constant(f32, 2.0**EXP_SPLIT)
        )
        fma = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(f32, [f32] * 3), "llvm.fma.f32"
        )
        return builder.fmul(builder.call(fma, [e, s1, s1]), s2)

    return types.float32(types.float32, types.float32, types.float32), codegen


@intrinsic
def scale_pow2_f64(typingctx, p, k):
    """p * 2**k for k in [-1077, 1025] and p in [0.5, 2], rounded once: (p * s1) * s2 with _pow2_f64's
    normal factors (p * s1 exact), or ldexp(p, k) (VSCALEFPD) with AVX-512: the same bits."""
    if not (p == types.float64 and k == types.int64):
        return None

    def codegen(context, builder, signature, args):
        pv, kv = args
        i64, f64 = ir.IntType(64), ir.DoubleType()
        if _target_scales_in_one_instruction():
            return _ldexp(builder, pv, builder.trunc(kv, ir.IntType(32)))
        k1 = builder.ashr(kv, ir.Constant(i64, 1))
        s1, s2 = (
            builder.bitcast(
                builder.shl(builder.add(h, ir.Constant(i64, 1023)), ir.Constant(i64, 52)), f64
            )
            for h in (k1, builder.sub(kv, k1))
        )
        return builder.fmul(builder.fmul(pv, s1), s2)

    return types.float64(types.float64, types.int64), codegen
