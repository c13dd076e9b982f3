/* exp_log.py's functions in C, bit for bit (the math of _twin.c, which loops over arrays).
 *
 * Each function below performs exactly the IEEE operations of the numba function of the same name in
 * exp_log.py, in the same order: every `fma` there is C99 fma()/fmaf() here
 * (correctly rounded, as llvm.fma), every other operator is one rounded operation. That holds only without
 * contraction or reassociation: setup.py compiles with -ffp-contract=off and without -ffast-math (checked
 * below), and FLT_EVAL_METHOD must be 0 (no x87 excess precision). Selects are ternaries on values computed
 * either way, as in the branch-free kernels; NaN inputs come back as themselves. The constants are
 * constants.py's values as exact hex literals. tests/backends/numba/mathlib/test_agreement.py compares
 * every result with the compiled kernels bitwise; edit exp_log.py, exp_log_numpy.py and this file
 * together.
 * The other families' headers (_erf_twin.h, _log1p_twin.h, _trig_twin.h) follow the same rules.
 */
#ifndef ARRAYSTACK_MATHLIB_EXP_LOG_TWIN_H
#define ARRAYSTACK_MATHLIB_EXP_LOG_TWIN_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "float and double arithmetic must round to their own precision (FLT_EVAL_METHOD 0)"
#endif
#ifdef __FAST_MATH__
#error "must not be compiled with -ffast-math: it reorders and approximates"
#endif
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* the Horner loops unrolled, so the loops over elements can vectorize */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define UNROLL _Pragma("GCC unroll 16")
#else
#define UNROLL
#endif

#if defined(__GNUC__) || defined(__clang__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static __inline
#endif

/* -- bit casts ---------------------------------------------------------------------------------------- */
INLINE int64_t f64_bits(double x) { int64_t b; memcpy(&b, &x, sizeof b); return b; }
INLINE double bits_f64(int64_t b) { double x; memcpy(&x, &b, sizeof x); return x; }
INLINE int32_t f32_bits(float x) { int32_t b; memcpy(&b, &x, sizeof b); return b; }
INLINE float bits_f32(int32_t b) { float x; memcpy(&x, &b, sizeof x); return x; }

/* NumPy's np.nan (float64 and float32): the quiet NaN with a zero payload, positive */
#define NAN_F64 bits_f64(INT64_C(0x7FF8000000000000))
#define NAN_F32 bits_f32(INT32_C(0x7FC00000))

/* -- float64 (constants.py) ------------------------------------------------------------------- */
static const double LOG2E = 0x1.71547652b82fep+0;
static const double LN2_HI = 0x1.62e42fee00000p-1;
static const double LN2_LO = 0x1.a39ef35793c76p-33;
static const double EXP_C[14] = {
    0x1.0000000000000p+0,  0x1.0000000000000p+0,  0x1.0000000000000p-1,  0x1.5555555555555p-3,
    0x1.5555555555555p-5,  0x1.1111111111111p-7,  0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13,
    0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19, 0x1.27e4fb7789f5cp-22, 0x1.ae64567f544e4p-26,
    0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33,
};
static const double ATANH_C[11] = {
    0x1.5555555555555p-1, 0x1.999999999999ap-2, 0x1.2492492492492p-2, 0x1.c71c71c71c71cp-3,
    0x1.745d1745d1746p-3, 0x1.3b13b13b13b14p-3, 0x1.1111111111111p-3, 0x1.e1e1e1e1e1e1ep-4,
    0x1.af286bca1af28p-4, 0x1.8618618618618p-4, 0x1.642c8590b2164p-4,
};
#define EXP_OVERFLOW_F64 0x1.62e42fefa39efp+9     /* 709.782712893384 */
#define EXP_UNDERFLOW_F64 -0x1.74910d52d3052p+9   /* -745.1332191019412 */
#define MIN_NORMAL_F64 0x1.0p-1022
#define SQRT2_F64 0x1.6a09e667f3bcdp+0           /* 1.4142135623730951 */

/* min(max(x, lo), hi) for x not NaN; NaN gives 0 (mathlib's _reduce_f64 does so; elsewhere mathlib's
 * NaN lanes are garbage that the final select drops, and 0 keeps them clear of undefined conversions) */
INLINE double clamp_f64(double x, double lo, double hi)
{
    double v = x != x ? 0.0 : x;
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}

/* exp_log._pow2_f64: 2**k as two normal factors, k in [-1076, 1024] (int32: vectors convert to it) */
INLINE void pow2_f64(int32_t k, double *s1, double *s2)
{
    int32_t k1 = k >> 1; /* arithmetic shift: floor(k / 2) */
    int32_t k2 = k - k1;
    *s1 = bits_f64((int64_t)(k1 + 1023) << 52);
    *s2 = bits_f64((int64_t)(k2 + 1023) << 52);
}

/* exp_log._reduce_f64: returns r, sets *k */
INLINE double reduce_f64(double x, int32_t *k)
{
    double xc = clamp_f64(x, -746.0, 710.0);
    double kf = floor(fma(xc, LOG2E, 0.5));
    double r = fma(-kf, LN2_HI, xc);
    r = fma(-kf, LN2_LO, r);
    *k = (int32_t)kf; /* mathlib's np.int64(k): |k| <= 1077 */
    return r;
}

INLINE double exp_f64(double x)
{
    int32_t k;
    double r = reduce_f64(x, &k), s1, s2;
    double p = EXP_C[13];
    UNROLL
    for (int i = 12; i >= 0; i--)
        p = fma(p, r, EXP_C[i]);
    pow2_f64(k, &s1, &s2);
    double y = (p * s1) * s2;
    y = x > EXP_OVERFLOW_F64 ? INFINITY : y;
    y = x < EXP_UNDERFLOW_F64 ? 0.0 : y;
    return x != x ? x : y;
}

INLINE double expm1_f64(double x)
{
    int32_t k;
    double r = reduce_f64(x, &k), s1, s2;
    double p = EXP_C[13];
    UNROLL
    for (int i = 12; i >= 2; i--)
        p = fma(p, r, EXP_C[i]);
    double em1r = fma(r * r, p, r);
    pow2_f64(k, &s1, &s2);
    double t = s1 * s2;
    double y = k != 0 ? fma(t, em1r, t - 1.0) : em1r;
    y = k > 56 ? fma((em1r + 1.0) * s1, s2, -1.0) : y;
    y = x > EXP_OVERFLOW_F64 ? INFINITY : y;
    y = x < -38.0 ? -1.0 : y;
    return (x != x || x == 0.0) ? x : y;
}

INLINE double log_f64(double x)
{
    int tiny = x < MIN_NORMAL_F64;
    double xs = tiny ? x * 0x1.0p+54 : x; /* 2**54 lifts denormals */
    int64_t bits = f64_bits(xs);
    int64_t e = ((bits >> 52) & 0x7FF) - 1023 - (tiny ? 54 : 0);
    double m = bits_f64((bits & INT64_C(0x000FFFFFFFFFFFFF)) | INT64_C(0x3FF0000000000000));
    int big = m > SQRT2_F64;
    m = big ? m * 0.5 : m;
    e = big ? e + 1 : e;
    double f = m - 1.0;
    double s = f / (2.0 + f);
    double z = s * s;
    double R = ATANH_C[10];
    UNROLL
    for (int i = 9; i >= 0; i--)
        R = fma(R, z, ATANH_C[i]);
    double hfsq = 0.5 * f * f;
    double logm = f - fma(-s, fma(R, z, hfsq), hfsq);
    double fe = (double)(int32_t)e; /* |e| <= 1077: exact either way, int32 converts in vectors */
    double y = fma(fe, LN2_HI, fma(fe, LN2_LO, logm));
    y = x == 0.0 ? -INFINITY : y;
    y = x < 0.0 ? NAN_F64 : y;
    y = x == INFINITY ? x : y;
    return x != x ? x : y;
}

INLINE double tanh_f64(double x)
{
    double ax = fabs(x);
    double t = expm1_f64(2.0 * (ax < 23.0 ? ax : 23.0));
    double y = t / (t + 2.0);
    y = ax > 22.0 ? 1.0 : y;
    y = copysign(y, x);
    return x != x ? x : y;
}

INLINE double logistic_f64(double x)
{
    double e = exp_f64(-fabs(x));
    double y = x >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
    return x != x ? x : y;
}

/* -- float32 (constants.py) ------------------------------------------------------------------- */
static const float LOG2E_F = 0x1.715476p+0f;
static const float LN2_HI_F = 0x1.63p-1f;
static const float LN2_LO_F = -0x1.bd0106p-13f;
static const float SHIFTER_F = 0x1.8p+23f; /* 1.5 * 2**23 */
static const float EXP_CF[10] = {
    0x1.0p+0f,       0x1.0p+0f,       0x1.0p-1f,        0x1.555556p-3f,  0x1.555556p-5f,
    0x1.111112p-7f,  0x1.6c16c2p-10f, 0x1.a01a02p-13f,  0x1.a01a02p-16f, 0x1.71de3ap-19f,
};
static const float ATANH_CF[6] = {
    0x1.555556p-1f, 0x1.99999ap-2f, 0x1.24924ap-2f, 0x1.c71c72p-3f, 0x1.745d18p-3f, 0x1.3b13b2p-3f,
};
#define EXP_QF_N 5
static const float EXP_QF[EXP_QF_N] = {
    0x1.6a4f88p-10f, 0x1.123988p-7f, 0x1.5558aep-5f, 0x1.555492p-3f, 0x1.fffffcp-2f,
};
#define EXP_SPLIT 64
#define EXP_SPLIT_UP_F 0x1.0p+64f
#define EXP_SPLIT_DOWN_F 0x1.0p-64f
static const float TANH_HF[5] = {
    0x1.6d721cp-5f, 0x1.122686p-3f, 0x1.5554c8p-2f, 0x1.5554b2p-1f, 0x1.0p+0f,
};
static const float TANH_CLAMP_F = 10.0f;
static const float TWO_LOG2E_F = 0x1.715476p+1f;
static const float LN2_HALF_F = 0x1.62e43p-2f;
#define EXPM1_OVERFLOW_F32 0x1.62e43p+6f /* 88.72283935546875 */
#define SQRT2_F32 0x1.6a09e6p+0f        /* float32(1.4142135) */
#define MIN_NORMAL_F32 0x1.0p-126f

INLINE float clamp_f32(float x, float lo, float hi)
{
    float v = x != x ? 0.0f : x;
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}

/* exp_log._reduce_f32: returns r, sets *k and *shifted */
INLINE float reduce_f32(float x, float *k, float *shifted)
{
    float xc = clamp_f32(x, -105.0f, 90.0f);
    float sh = fmaf(xc, LOG2E_F, SHIFTER_F);
    float kk = sh - SHIFTER_F;
    float r = fmaf(-kk, LN2_HI_F, xc);
    r = fmaf(-kk, LN2_LO_F, r);
    *k = kk;
    *shifted = sh;
    return r;
}

/* exp_log._pow2_f32: 2**k for integral float k in [-150, 128], in float arithmetic */
INLINE void pow2_f32(float k, float *s1, float *s2)
{
    float k1 = floorf(k * 0.5f);
    float k2 = k - k1;
    *s1 = bits_f32((int32_t)((k1 + 127.0f) * 8388608.0f));
    *s2 = bits_f32((int32_t)((k2 + 127.0f) * 8388608.0f));
}

/* scale.exp_scale_f32 (without AVX-512): (2**(k - d), 2**d) from the shifter's bits, d = -EXP_SPLIT where x < 0 else
 * EXP_SPLIT (unsigned arithmetic wraps like the kernel's int32) */
INLINE void exp_scales_f32(float shifted, float x, float *s1, float *s2)
{
    int negative = x < 0.0f;
    uint32_t bias = negative ? (uint32_t)(127 + EXP_SPLIT) << 23 : (uint32_t)(127 - EXP_SPLIT) << 23;
    *s1 = bits_f32((int32_t)(((uint32_t)f32_bits(shifted) << 23) + bias));
    *s2 = negative ? EXP_SPLIT_DOWN_F : EXP_SPLIT_UP_F;
}

/* mathlib.pow2_shifted_f32: 2**k from the shifter's bits, k in [-126, 127] */
INLINE float pow2_shifted_f32(float shifted)
{
    uint32_t biased = (uint32_t)f32_bits(shifted) - (UINT32_C(0x4B400000) - 127u);
    return bits_f32((int32_t)(biased << 23));
}

INLINE float exp_f32(float x)
{
    float k, shifted, s1, s2;
    float r = reduce_f32(x, &k, &shifted);
    float q = fmaf(EXP_QF[0], r, EXP_QF[1]);
    UNROLL
    for (int i = 2; i < EXP_QF_N; i++)
        q = fmaf(q, r, EXP_QF[i]);
    float em1 = fmaf(q, r * r, r);
    exp_scales_f32(shifted, x, &s1, &s2);
    float y = fmaf(em1, s1, s1) * s2;
    return x != x ? x : y;
}

INLINE float expm1_f32(float x)
{
    float k, shifted, s1, s2;
    float r = reduce_f32(x, &k, &shifted);
    float p = EXP_CF[9];
    UNROLL
    for (int i = 8; i >= 2; i--)
        p = fmaf(p, r, EXP_CF[i]);
    float em1r = fmaf(r * r, p, r);
    pow2_f32(k, &s1, &s2);
    float t = s1 * s2;
    float y = k != 0.0f ? fmaf(t, em1r, t - 1.0f) : em1r;
    y = k > 25.0f ? fmaf((em1r + 1.0f) * s1, s2, -1.0f) : y;
    y = x > EXPM1_OVERFLOW_F32 ? INFINITY : y;
    y = x < -17.5f ? -1.0f : y;
    return (x != x || x == 0.0f) ? x : y;
}

INLINE float log_f32(float x)
{
    int tiny = x < MIN_NORMAL_F32;
    float xs = tiny ? x * 0x1.0p+25f : x;
    int32_t bits = f32_bits(xs);
    int32_t e = ((bits >> 23) & 0xFF) - 127 - (tiny ? 25 : 0);
    float m = bits_f32((bits & INT32_C(0x007FFFFF)) | INT32_C(0x3F800000));
    int big = m > SQRT2_F32;
    m = big ? m * 0.5f : m;
    e = big ? e + 1 : e;
    float f = m - 1.0f;
    float s = f / (2.0f + f);
    float z = s * s;
    float R = ATANH_CF[5];
    UNROLL
    for (int i = 4; i >= 0; i--)
        R = fmaf(R, z, ATANH_CF[i]);
    float hfsq = 0.5f * f * f;
    float logm = f - fmaf(-s, fmaf(R, z, hfsq), hfsq);
    float fe = (float)e;
    float y = fmaf(fe, LN2_HI_F, fmaf(fe, LN2_LO_F, logm));
    y = x == 0.0f ? -INFINITY : y;
    y = x < 0.0f ? NAN_F32 : y;
    y = x == INFINITY ? x : y;
    return x != x ? x : y;
}

INLINE float tanh_f32(float x)
{
    float ax = fabsf(x);
    float m = ax < TANH_CLAMP_F ? ax : TANH_CLAMP_F; /* NaN: 10, a garbage lane the last select drops */
    float shifted = fmaf(m, TWO_LOG2E_F, SHIFTER_F);
    float k = shifted - SHIFTER_F;
    float r = fmaf(-k, LN2_HALF_F, m);
    float p = fmaf(TANH_HF[0], r, TANH_HF[1]);
    UNROLL
    for (int i = 2; i < 5; i++)
        p = fmaf(p, r, TANH_HF[i]);
    float h = fmaf(p, r * r, r);
    float t = pow2_shifted_f32(shifted);
    float e = fmaf(t, h, fmaf(t, 0.5f, -0.5f));
    float y = e / (e + 1.0f);
    y = copysignf(y, x);
    return x != x ? x : y;
}

INLINE float logistic_f32(float x)
{
    float e = exp_f32(-fabsf(x));
    float y = x >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
    return x != x ? x : y;
}

#endif /* ARRAYSTACK_MATHLIB_EXP_LOG_TWIN_H */
