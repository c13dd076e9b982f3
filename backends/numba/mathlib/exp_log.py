"""Vectorizable float32/float64 math for generated numba kernels: exp, expm1, log, tanh, logistic (erf is
erf.py's, log1p log1p.py's, sin, cos and tan trig.py's), and NumPy's maximum and minimum.

numba lowers np.exp/np.tanh in a loop to scalar libm calls, which blocks SIMD. These branch-free versions
(argument reduction + polynomial, selects instead of branches, bit-level scaling) let LLVM vectorize the loop.
Bound: max error <= 4 ulp against NumPy over the whole input range, incl. inf, nan, denormals and overflow
(tests/backends/numba/mathlib/test_accuracy.py measures it). Constants are typed per precision so float32 stays float32;
they live in constants.py, which the twins read without importing numba.
Every result is specified bit for bit (IEEE operations and explicit fmas only), and exp_log_numpy.py
(NumPy) and _exp_log_twin.h (C) compute the same bits: edit the three together.
"""

from __future__ import annotations


import numpy as np
from arraystack.backends.numba.mathlib.checked_jit import njit_checked
from arraystack.backends.numba.mathlib.constants import (
    ATANH_C,
    ATANH_CF,
    EXP_C,
    EXP_CF,
    EXP_QF,
    HALF_F,
    INF_F,
    LN2_HALF_F,
    LN2_HI,
    LN2_HI_F,
    LN2_LO,
    LN2_LO_F,
    LOG2E,
    LOG2E_F,
    ONE_F,
    SHIFTER_F,
    TANH_CLAMP_F,
    TANH_HF,
    TWO_F,
    TWO_LOG2E_F,
    ZERO_F,
    F,
)
from arraystack.backends.numba.mathlib.scale import exp_scale_f32, scale_pow2_f64
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _bitcast_intrinsic(src, dst):
    @intrinsic
    def bitcast(typingctx, value):
        if value != src:
            return None

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(dst))

        return dst(src), codegen

    return bitcast


f64_bits = _bitcast_intrinsic(types.float64, types.int64)
bits_f64 = _bitcast_intrinsic(types.int64, types.float64)
f32_bits = _bitcast_intrinsic(types.float32, types.int32)
bits_f32 = _bitcast_intrinsic(types.int32, types.float32)


@intrinsic
def fma(typingctx, a, b, c):
    """a * b + c rounded once, as llvm.fma: the CPU's FMA instruction, or libm's fma where there is none
    (slow but exact). Unlike llvm.fmuladd the result does not depend on what LLVM decides to fuse, so
    exp_log_numpy.py reproduces every result bit for bit. All other arithmetic here is unfused: the
    functions compile without fast-math flags, one IEEE operation per operator."""
    if not (isinstance(a, types.Float) and a == b == c):
        return None

    def codegen(context, builder, signature, args):
        ty = context.get_value_type(signature.return_type)
        name = "llvm.fma.f32" if a == types.float32 else "llvm.fma.f64"
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ty, [ty] * 3), name)
        return builder.call(fn, list(args))

    return a(a, b, c), codegen


@intrinsic
def pow2_shifted_f32(typingctx, shifted):
    """2**k for shifted = float32(k + SHIFTER_F32) and k in [-126, 127]: (k + 127) << 23 is
    (bits(shifted) - (0x4B400000 - 127)) << 23 in int32 (wrapping), two integer operations."""
    if shifted != types.float32:
        return None

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        biased = builder.sub(builder.bitcast(args[0], i32), ir.Constant(i32, 0x4B400000 - 127))
        return builder.bitcast(builder.shl(biased, ir.Constant(i32, 23)), ir.FloatType())

    return types.float32(types.float32), codegen


# Compiled once per signature and kept in numba's disk cache (checked_jit.njit_checked); a kernel links them and LLVM inlines them
# before it vectorizes the loop (numba-level inline="always" re-typed them inside every kernel: ~1 s of
# each cold kernel compile). No fast-math: every operator is one IEEE operation, every fusion is an fma.
# Where an fma's product is exact (a power of two, or short constants times a small integer) it equals the
# unfused expression, which is how exp_log_numpy.py computes it; the comments say which.

# -- float64 ------------------------------------------------------------------------------------------------


@njit_checked
def _pow2_f64(k):
    """2**k for integer k in [-1076, 1024], as two normal factors."""
    k1 = k >> 1
    k2 = k - k1
    return bits_f64((k1 + 1023) << 52), bits_f64((k2 + 1023) << 52)


@njit_checked
def _reduce_f64(x):
    xc = min(max(x, -746.0), 710.0) if x == x else 0.0
    k = np.floor(fma(xc, LOG2E, 0.5))
    r = fma(-k, LN2_HI, xc)  # exact product, exact difference (|k| <= 1077)
    r = fma(-k, LN2_LO, r)
    return np.int64(k), r


@njit_checked
def exp_f64(x):
    k, r = _reduce_f64(x)
    c = EXP_C
    p = c[13]
    p = fma(p, r, c[12])
    p = fma(p, r, c[11])
    p = fma(p, r, c[10])
    p = fma(p, r, c[9])
    p = fma(p, r, c[8])
    p = fma(p, r, c[7])
    p = fma(p, r, c[6])
    p = fma(p, r, c[5])
    p = fma(p, r, c[4])
    p = fma(p, r, c[3])
    p = fma(p, r, c[2])
    p = fma(p, r, c[1])
    p = fma(p, r, c[0])
    y = scale_pow2_f64(p, k)
    y = np.inf if x > 709.782712893384 else y
    y = 0.0 if x < -745.1332191019412 else y
    return x if x != x else y


@njit_checked
def expm1_f64(x):
    k, r = _reduce_f64(x)
    c = EXP_C
    p = c[13]
    p = fma(p, r, c[12])
    p = fma(p, r, c[11])
    p = fma(p, r, c[10])
    p = fma(p, r, c[9])
    p = fma(p, r, c[8])
    p = fma(p, r, c[7])
    p = fma(p, r, c[6])
    p = fma(p, r, c[5])
    p = fma(p, r, c[4])
    p = fma(p, r, c[3])
    p = fma(p, r, c[2])
    em1r = fma(r * r, p, r)  # expm1(r), |r| <= ln2/2
    s1, s2 = _pow2_f64(k)
    t = s1 * s2  # inf when k == 1024; the k > 56 branch never uses it
    y = fma(t, em1r, t - 1.0) if k != 0 else em1r  # exact product: t = 2**k, |k| <= 56
    y = fma((em1r + 1.0) * s1, s2, -1.0) if k > 56 else y  # exact product (or inf)
    y = np.inf if x > 709.782712893384 else y
    y = -1.0 if x < -38.0 else y
    return x if (x != x or x == 0.0) else y  # expm1(-0.0) is -0.0 (em1r = r + r*r*p gives +0.0)


@njit_checked
def log_f64(x):
    tiny = x < 2.2250738585072014e-308
    xs = x * 18014398509481984.0 if tiny else x  # 2**54 lifts denormals
    bits = f64_bits(xs)
    e = ((bits >> 52) & 0x7FF) - 1023 - (54 if tiny else 0)
    m = bits_f64((bits & 0x000FFFFFFFFFFFFF) | 0x3FF0000000000000)  # [1, 2)
    big = m > 1.4142135623730951
    m = m * 0.5 if big else m
    e = e + 1 if big else e
    f = m - 1.0
    s = f / (2.0 + f)
    z = s * s
    c = ATANH_C
    R = c[10]
    R = fma(R, z, c[9])
    R = fma(R, z, c[8])
    R = fma(R, z, c[7])
    R = fma(R, z, c[6])
    R = fma(R, z, c[5])
    R = fma(R, z, c[4])
    R = fma(R, z, c[3])
    R = fma(R, z, c[2])
    R = fma(R, z, c[1])
    R = fma(R, z, c[0])
    hfsq = 0.5 * f * f
    logm = f - fma(-s, fma(R, z, hfsq), hfsq)
    fe = np.float64(e)
    y = fma(fe, LN2_HI, fma(fe, LN2_LO, logm))  # exact outer product: |e| <= 1077
    y = -np.inf if x == 0.0 else y
    y = np.nan if x < 0.0 else y
    y = x if x == np.inf else y
    return x if x != x else y


@njit_checked
def tanh_f64(x):
    ax = abs(x)
    t = expm1_f64(2.0 * min(ax, 23.0))
    y = t / (t + 2.0)
    y = 1.0 if ax > 22.0 else y
    y = np.copysign(y, x)
    return x if x != x else y


@njit_checked
def logistic_f64(x):
    e = exp_f64(-abs(x))
    y = 1.0 / (1.0 + e) if x >= 0.0 else e / (1.0 + e)
    return x if x != x else y


# -- float32 ------------------------------------------------------------------------------------------------


@njit_checked
def _pow2_f32(k):
    """2**k for integral float32 k in [-150, 128], as two normal factors. Kept in float arithmetic: numba
    widens int32 arithmetic to int64, which would halve the vector width of the whole loop."""
    k1 = np.floor(k * HALF_F)
    k2 = k - k1
    return bits_f32(np.int32((k1 + F(127.0)) * F(8388608.0))), bits_f32(
        np.int32((k2 + F(127.0)) * F(8388608.0))
    )


@njit_checked
def _reduce_f32(x):
    """k = round(x / ln2) (by the 1.5 * 2**23 shifter, also returned) and r = x - k ln2. For NaN x all are
    garbage that every caller discards with its final select."""
    xc = min(max(x, F(-105.0)), F(90.0))
    shifted = fma(xc, LOG2E_F, SHIFTER_F)
    k = shifted - SHIFTER_F
    r = fma(-k, LN2_HI_F, xc)  # exact product, exact difference (|k| <= 152)
    r = fma(-k, LN2_LO_F, r)
    return k, r, shifted


@njit_checked
def exp_f32(x):
    """2**k (1 + em1), em1 = r + r**2 Q(r) ~ expm1(r) (constants.py has Q and the bound), 2**k
    applied as fma(em1, s1, s1) * s2 with s1 * s2 = 2**k, or ldexp(1 + em1, k) (exp_scale_f32)."""
    _, r, shifted = _reduce_f32(x)
    c = EXP_QF
    q = fma(c[0], r, c[1])
    q = fma(q, r, c[2])
    q = fma(q, r, c[3])
    q = fma(q, r, c[4])
    em1 = fma(q, r * r, r)
    # x is clamped to [-105, 90], so k in [-152, 130]: the product by s2 is exact where the result is
    # normal, rounds it to a denormal below -87.3365 (a second rounding) and to 0 below -103.972, and
    # overflows to inf above 88.7228 by itself
    y = exp_scale_f32(em1, shifted, x)
    return x if x != x else y


@njit_checked
def expm1_f32(x):
    k, r, _ = _reduce_f32(x)
    c = EXP_CF
    p = c[9]
    p = fma(p, r, c[8])
    p = fma(p, r, c[7])
    p = fma(p, r, c[6])
    p = fma(p, r, c[5])
    p = fma(p, r, c[4])
    p = fma(p, r, c[3])
    p = fma(p, r, c[2])
    em1r = fma(r * r, p, r)
    s1, s2 = _pow2_f32(k)
    t = s1 * s2
    y = fma(t, em1r, t - ONE_F) if k != ZERO_F else em1r  # exact product: t = 2**k, |k| <= 25
    y = fma((em1r + ONE_F) * s1, s2, -ONE_F) if k > F(25.0) else y  # exact product (or inf)
    y = INF_F if x > F(88.72283935546875) else y
    y = -ONE_F if x < F(-17.5) else y
    return x if (x != x or x == ZERO_F) else y  # expm1(-0.0) is -0.0


@njit_checked
def log_f32(x):
    tiny = x < F(1.1754943508222875e-38)
    xs = x * F(33554432.0) if tiny else x  # 2**25
    bits = f32_bits(xs)
    e = ((bits >> 23) & 0xFF) - 127 - (25 if tiny else 0)
    m = bits_f32(np.int32((bits & 0x007FFFFF) | 0x3F800000))
    big = m > F(1.4142135)
    m = m * HALF_F if big else m
    e = e + 1 if big else e
    f = m - ONE_F
    s = f / (TWO_F + f)
    z = s * s
    c = ATANH_CF
    R = c[5]
    R = fma(R, z, c[4])
    R = fma(R, z, c[3])
    R = fma(R, z, c[2])
    R = fma(R, z, c[1])
    R = fma(R, z, c[0])
    hfsq = HALF_F * f * f
    logm = f - fma(-s, fma(R, z, hfsq), hfsq)
    fe = F(e)
    y = fma(fe, LN2_HI_F, fma(fe, LN2_LO_F, logm))  # exact outer product: |e| <= 152
    y = -INF_F if x == ZERO_F else y
    y = F(np.nan) if x < ZERO_F else y
    y = x if x == INF_F else y
    return x if x != x else y


@njit_checked
def tanh_f32(x):
    """E / (E + 1) with E = expm1(2m) / 2, m = min(|x|, 10), sign restored (constants.py has the
    derivation and the bound). For x = +-0 and denormals E is m itself, so tanh(x) = x."""
    m = min(abs(x), TANH_CLAMP_F)
    shifted = fma(m, TWO_LOG2E_F, SHIFTER_F)  # k = round(2m / ln2) in [0, 29]
    k = shifted - SHIFTER_F
    r = fma(-k, LN2_HALF_F, m)  # |r| <= ln2/4
    c = TANH_HF
    p = fma(c[0], r, c[1])
    p = fma(p, r, c[2])
    p = fma(p, r, c[3])
    p = fma(p, r, c[4])
    h = fma(p, r * r, r)  # expm1(2r) / 2
    t = pow2_shifted_f32(shifted)
    e = fma(t, h, fma(t, HALF_F, -HALF_F))  # exact products: t = 2**k
    y = e / (e + ONE_F)
    y = np.copysign(y, x)
    return x if x != x else y


@njit_checked
def logistic_f32(x):
    e = exp_f32(-abs(x))
    y = ONE_F / (ONE_F + e) if x >= ZERO_F else e / (ONE_F + e)
    return x if x != x else y


@njit_checked
def maximum(a, b):
    """NumPy's maximum: NaN propagates (from either side)."""
    return a if (a > b or a != a) else b  # equal values (0.0 vs -0.0) give b, as NumPy's loops do


@njit_checked
def minimum(a, b):
    return a if (a < b or a != a) else b
