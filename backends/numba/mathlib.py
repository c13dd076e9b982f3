"""Vectorizable float32/float64 math for generated numba kernels: exp, expm1, log, tanh, logistic.

numba lowers np.exp/np.tanh in a loop to scalar libm calls, which blocks SIMD. These branch-free versions
(argument reduction + polynomial, selects instead of branches, bit-level scaling) let LLVM vectorize the loop.
Bound: max error <= 4 ulp against NumPy over the whole input range, incl. inf, nan, denormals and overflow
(tests/backends/test_mathlib.py measures it). Constants are typed per precision so float32 stays float32.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
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
def fmuladd(typingctx, a, b, c):
    """a * b + c as LLVM's fmuladd: one singly rounded FMA where the CPU has one, else a multiply and an
    add. Only mathlib's polynomials use it; their error bound is measured on the host (with FMA), and
    without FMA they are the unfused expressions. User code in a kernel is never contracted."""
    if not (isinstance(a, types.Float) and a == b == c):
        return None

    def codegen(context, builder, signature, args):
        ty = context.get_value_type(signature.return_type)
        name = "llvm.fmuladd.f32" if a == types.float32 else "llvm.fmuladd.f64"
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ty, [ty] * 3), name)
        return builder.call(fn, list(args))

    return a(a, b, c), codegen


SHIFTER_F32 = 12582912.0  # 1.5 * 2**23: fl(v + SHIFTER) holds round(v) in its low mantissa bits


@intrinsic
def pow2_halves_f32(typingctx, shifted):
    """(2**k1, 2**k2) with k1 + k2 = k, k1 = floor(k / 2), for shifted = float32(k + SHIFTER_F32) and k in
    [-252, 254]: both factors are normal, so x * 2**k1 * 2**k2 rounds once even where 2**k is not
    representable. Works on the int32 bits directly (numba widens int32 arithmetic to int64, which would
    halve a loop's vector width)."""
    if shifted != types.float32:
        return None

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        bits = builder.bitcast(args[0], i32)
        k = builder.sub(bits, ir.Constant(i32, 0x4B400000))  # the bits of SHIFTER_F32
        k1 = builder.ashr(k, ir.Constant(i32, 1))
        k2 = builder.sub(k, k1)
        halves = []
        for part in (k1, k2):
            biased = builder.add(part, ir.Constant(i32, 127))
            halves.append(
                builder.bitcast(builder.shl(biased, ir.Constant(i32, 23)), ir.FloatType())
            )
        return context.make_tuple(builder, signature.return_type, halves)

    return types.UniTuple(types.float32, 2)(types.float32), codegen


# Compiled once per signature and kept in numba's disk cache; a kernel links them and LLVM inlines them
# before it vectorizes the loop (numba-level inline="always" re-typed them inside every kernel: ~1 s of
# each cold kernel compile). "contract" lets LLVM fuse their own a * b + c; the bound is measured on it.
_jit_options = dict(fastmath={"contract"}, error_model="numpy", cache=True)

# -- float64 ------------------------------------------------------------------------------------------------
LOG2E = 1.4426950408889634
LN2_HI = 6.93147180369123816490e-01  # low bits zero: k * LN2_HI is exact for |k| < 2**20
LN2_LO = 1.90821492927058770002e-10
_EXP_C = tuple(1.0 / math.factorial(n) for n in range(14))  # Taylor to r**13 / 13!
_ATANH_C = tuple(2.0 / (2 * k + 1) for k in range(1, 12))  # 2/3, 2/5, ... for log


@njit(**_jit_options)
def _pow2_f64(k):
    """2**k for integer k in [-1076, 1024], as two normal factors."""
    k1 = k >> 1
    k2 = k - k1
    return bits_f64((k1 + 1023) << 52), bits_f64((k2 + 1023) << 52)


@njit(**_jit_options)
def _reduce_f64(x):
    xc = min(max(x, -746.0), 710.0) if x == x else 0.0
    k = np.floor(xc * LOG2E + 0.5)
    r = (xc - k * LN2_HI) - k * LN2_LO
    return np.int64(k), r


@njit(**_jit_options)
def exp_f64(x):
    k, r = _reduce_f64(x)
    c = _EXP_C
    p = c[13]
    p = p * r + c[12]
    p = p * r + c[11]
    p = p * r + c[10]
    p = p * r + c[9]
    p = p * r + c[8]
    p = p * r + c[7]
    p = p * r + c[6]
    p = p * r + c[5]
    p = p * r + c[4]
    p = p * r + c[3]
    p = p * r + c[2]
    p = p * r + c[1]
    p = p * r + c[0]
    s1, s2 = _pow2_f64(k)
    y = (p * s1) * s2
    y = np.inf if x > 709.782712893384 else y
    y = 0.0 if x < -745.1332191019412 else y
    return x if x != x else y


@njit(**_jit_options)
def expm1_f64(x):
    k, r = _reduce_f64(x)
    c = _EXP_C
    p = c[13]
    p = p * r + c[12]
    p = p * r + c[11]
    p = p * r + c[10]
    p = p * r + c[9]
    p = p * r + c[8]
    p = p * r + c[7]
    p = p * r + c[6]
    p = p * r + c[5]
    p = p * r + c[4]
    p = p * r + c[3]
    p = p * r + c[2]
    em1r = r + (r * r) * p  # expm1(r), |r| <= ln2/2
    s1, s2 = _pow2_f64(k)
    t = s1 * s2  # inf when k == 1024; the k > 56 branch never uses it
    y = t * em1r + (t - 1.0) if k != 0 else em1r
    y = ((em1r + 1.0) * s1) * s2 - 1.0 if k > 56 else y
    y = np.inf if x > 709.782712893384 else y
    y = -1.0 if x < -38.0 else y
    return x if x != x else y


@njit(**_jit_options)
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
    c = _ATANH_C
    R = c[10]
    R = R * z + c[9]
    R = R * z + c[8]
    R = R * z + c[7]
    R = R * z + c[6]
    R = R * z + c[5]
    R = R * z + c[4]
    R = R * z + c[3]
    R = R * z + c[2]
    R = R * z + c[1]
    R = R * z + c[0]
    R = R * z
    hfsq = 0.5 * f * f
    logm = f - (hfsq - s * (hfsq + R))
    fe = np.float64(e)
    y = fe * LN2_HI + (logm + fe * LN2_LO)
    y = -np.inf if x == 0.0 else y
    y = np.nan if x < 0.0 else y
    y = x if x == np.inf else y
    return x if x != x else y


@njit(**_jit_options)
def tanh_f64(x):
    ax = abs(x)
    t = expm1_f64(2.0 * min(ax, 23.0))
    y = t / (t + 2.0)
    y = 1.0 if ax > 22.0 else y
    y = np.copysign(y, x)
    return x if x != x else y


@njit(**_jit_options)
def logistic_f64(x):
    e = exp_f64(-abs(x))
    y = 1.0 / (1.0 + e) if x >= 0.0 else e / (1.0 + e)
    return x if x != x else y


# -- float32 ------------------------------------------------------------------------------------------------
F = np.float32
LOG2E_F = F(1.4426950408889634)
LN2_HI_F = F(0.693359375)  # 11 significant bits: k * LN2_HI_F is exact for the k that occur
LN2_LO_F = F(-2.12194440e-4)
_EXP_CF = tuple(F(1.0 / math.factorial(n)) for n in range(10))
_ATANH_CF = tuple(F(2.0 / (2 * k + 1)) for k in range(1, 7))
ONE_F, TWO_F, HALF_F, ZERO_F = F(1.0), F(2.0), F(0.5), F(0.0)
INF_F = F(np.inf)
SHIFTER_F = F(SHIFTER_F32)  # adding it rounds |v| < 2**22 to an integer


@njit(**_jit_options)
def _pow2_f32(k):
    """2**k for integral float32 k in [-150, 128], as two normal factors. Kept in float arithmetic: numba
    widens int32 arithmetic to int64, which would halve the vector width of the whole loop."""
    k1 = np.floor(k * HALF_F)
    k2 = k - k1
    return bits_f32(np.int32((k1 + F(127.0)) * F(8388608.0))), bits_f32(
        np.int32((k2 + F(127.0)) * F(8388608.0))
    )


@njit(**_jit_options)
def _reduce_f32(x):
    """k = round(x / ln2) (by the 1.5 * 2**23 shifter, also returned) and r = x - k ln2. For NaN x all are
    garbage that every caller discards with its final select."""
    xc = min(max(x, F(-105.0)), F(90.0))
    shifted = fmuladd(xc, LOG2E_F, SHIFTER_F)
    k = shifted - SHIFTER_F
    r = fmuladd(-k, LN2_LO_F, fmuladd(-k, LN2_HI_F, xc))
    return k, r, shifted


# minimax coefficients of (exp(r) - 1 - r) / r**2 on |r| <= ln2/2 (the Cephes expf polynomial)
_EXP_PF = tuple(
    F(c)
    for c in (
        1.9875691500e-4,
        1.3981999507e-3,
        8.3334519073e-3,
        4.1665795894e-2,
        1.6666665459e-1,
        5.0000001201e-1,
    )
)


@njit(**_jit_options)
def exp_f32(x):
    _, r, shifted = _reduce_f32(x)
    c = _EXP_PF
    p = fmuladd(c[0], r, c[1])
    p = fmuladd(p, r, c[2])
    p = fmuladd(p, r, c[3])
    p = fmuladd(p, r, c[4])
    p = fmuladd(p, r, c[5])
    p = fmuladd(p, r * r, r) + ONE_F
    s1, s2 = pow2_halves_f32(shifted)
    # x is clamped to [-105, 90], so k in [-152, 130]: p * s1 is exact and the one rounding of * s2
    # gives inf above 88.7228 and 0 below -103.972 by itself
    y = (p * s1) * s2
    return x if x != x else y


@njit(**_jit_options)
def expm1_f32(x):
    k, r, _ = _reduce_f32(x)
    c = _EXP_CF
    p = c[9]
    p = p * r + c[8]
    p = p * r + c[7]
    p = p * r + c[6]
    p = p * r + c[5]
    p = p * r + c[4]
    p = p * r + c[3]
    p = p * r + c[2]
    em1r = r + (r * r) * p
    s1, s2 = _pow2_f32(k)
    t = s1 * s2
    y = t * em1r + (t - ONE_F) if k != ZERO_F else em1r
    y = ((em1r + ONE_F) * s1) * s2 - ONE_F if k > F(25.0) else y
    y = INF_F if x > F(88.72283935546875) else y
    y = -ONE_F if x < F(-17.5) else y
    return x if x != x else y


@njit(**_jit_options)
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
    c = _ATANH_CF
    R = c[5]
    R = R * z + c[4]
    R = R * z + c[3]
    R = R * z + c[2]
    R = R * z + c[1]
    R = R * z + c[0]
    R = R * z
    hfsq = HALF_F * f * f
    logm = f - (hfsq - s * (hfsq + R))
    fe = F(e)
    y = fe * LN2_HI_F + (logm + fe * LN2_LO_F)
    y = -INF_F if x == ZERO_F else y
    y = F(np.nan) if x < ZERO_F else y
    y = x if x == INF_F else y
    return x if x != x else y


# tanh(x) ~ (x + x**3 P(x**2)) / Q(x**2) on |x| <= 9 (Eigen's float32 [9/8] rminimax rational, fitted on
# [-8.67, 8.67]: 0.32 ulp from tanh). P and Q run in float64 (8 lanes), only their quotient in float32:
# a float64 division costs 3x a float32 one per lane, and was half of the chain kernel's time. Rounding
# P and Q to float32 and dividing adds <= 1.5 ulp: <= 3 ulp from NumPy over every float32 (checked
# exhaustively on [0, 9.5]; the function is odd and so is its evaluation). At the clamp the quotient is
# 1 within 1 ulp, as float32 tanh is from 9.01 on.
_TANH_P = (1.394553628e-8, 2.102733560e-5, 3.520756727e-3, 1.340216100e-1)
_TANH_Q = (8.015776984e-7, 3.326951409e-4, 2.597254514e-2, 4.673548340e-1, 1.0)
_TANH_PF = tuple(float(F(c)) for c in _TANH_P)  # float32-rounded constants, as the fit was done
_TANH_QF = tuple(float(F(c)) for c in _TANH_Q)
TANH_CLAMP_F = F(9.0)


@njit(**_jit_options)
def tanh_f32(x):
    xc = np.float64(min(max(x, -TANH_CLAMP_F), TANH_CLAMP_F))
    z = xc * xc
    c = _TANH_PF
    p = fmuladd(z, c[0], c[1])
    p = fmuladd(z, p, c[2])
    p = fmuladd(z, p, c[3])
    p = fmuladd(z * xc, p, xc)
    d = _TANH_QF
    q = fmuladd(z, d[0], d[1])
    q = fmuladd(z, q, d[2])
    q = fmuladd(z, q, d[3])
    q = fmuladd(z, q, d[4])
    y = np.float32(p) / np.float32(q)
    return x if x != x else y


@njit(**_jit_options)
def logistic_f32(x):
    e = exp_f32(-abs(x))
    y = ONE_F / (ONE_F + e) if x >= ZERO_F else e / (ONE_F + e)
    return x if x != x else y


@njit(**_jit_options)
def maximum(a, b):
    """NumPy's maximum: NaN propagates (from either side)."""
    return a if (a > b or a != a) else b  # equal values (0.0 vs -0.0) give b, as NumPy's loops do


@njit(**_jit_options)
def minimum(a, b):
    return a if (a < b or a != a) else b
