/* erf.py's erf (float32, float64) in C, bit for bit (_twin.c loops over arrays), and libm's erf for
 * eager erf's reference rule.
 *
 * The rules of _exp_log_twin.h hold here: the IEEE operations of erf.erf_f64 and erf.erf_f32 in the same
 * order, every `fma` C99 fma()/fmaf(); the constants are constants.py's ERF_* as exact hex literals
 * (tests/backends/numba/mathlib/test_twins.py compares float64's with Python's). Edit erf.py, erf_numpy.py
 * and this file together.
 */
#ifndef ARRAYSTACK_MATHLIB_ERF_TWIN_H
#define ARRAYSTACK_MATHLIB_ERF_TWIN_H

#include "_exp_log_twin.h"

/* erf.erf_f64: a + a Q(a**2) below 1, 1 - exp(-a**2) R((a - 3.5) / 2.5) up to 6, 1 beyond */
#define ERF_Q_N 14
static const double ERF_Q[ERF_Q_N] = {
    0x1.06eba8214db69p-3,  -0x1.812746b0379e7p-2, 0x1.ce2f21a042bdep-4,  -0x1.b82ce312889bap-6,
    0x1.565bcd0e6502dp-8,  -0x1.c02db3feeb579p-11, 0x1.f9a326c233146p-14, -0x1.f4d2561aeafd4p-17,
    0x1.b9e6509b9867dp-20, -0x1.5f6d925a0bc7ap-23, 0x1.fc4356498c2d9p-27, -0x1.4e607b41a6416p-30,
    0x1.7f072188e194dp-34, -0x1.29b9f1b3df556p-38,
};
#define ERF_R_N 31
static const double ERF_R[ERF_R_N] = {
    0x1.3e0a99a0ee914p-3,  -0x1.a72747a5e6b51p-4,  0x1.10eccd7003679p-4,  -0x1.56274da105776p-5,
    0x1.a1b820b73a59ap-6,  -0x1.f1802347a5e8dp-7,  0x1.2174216a92f04p-7,  -0x1.4984fb7bf35d0p-8,
    0x1.6f700494fcfdep-9,  -0x1.91bd6395bdb11p-10, 0x1.af193b7c4c46bp-11, -0x1.c669a19de86ebp-12,
    0x1.d6df96af34607p-13, -0x1.e001f66f887d2p-14, 0x1.e1ae3d7cfe582p-15, -0x1.dc0f815e96b5ep-16,
    0x1.cfbeae17b577fp-17, -0x1.bde201012c437p-18, 0x1.a66d8b8550f6ep-19, -0x1.877b0c7f748bap-20,
    0x1.69e262a630231p-21, -0x1.5e68dda306761p-22, 0x1.39d7f4d21d741p-23, -0x1.8747c19dbbddbp-25,
    0x1.64c49007efb91p-26, -0x1.8d6f8bd631886p-26, 0x1.49c423497be5dp-27, 0x1.6e14a2099a0fbp-29,
    -0x1.159cc7530f61ep-30, -0x1.9f78daa632a7dp-30, 0x1.4f2a5e597886bp-31,
};
static const double ERF_SPLIT = 0x1.0p+0;
static const double ERF_ONE = 0x1.8p+2;
static const double ERF_CENTER = 0x1.cp+1;
static const double ERF_SCALE = 0x1.999999999999ap-2; /* 0.4 */
/* R's 30 steps unrolled in full (UNROLL's 16 would leave a loop): the loop over elements vectorizes */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define UNROLL_32 _Pragma("GCC unroll 32")
#else
#define UNROLL_32
#endif

INLINE double erf_f64(double x)
{
    double a = fabs(x);
    double u = a * a;
    double q = ERF_Q[ERF_Q_N - 1];
    UNROLL
    for (int i = ERF_Q_N - 2; i >= 0; i--)
        q = fma(q, u, ERF_Q[i]);
    double small = fma(a, q, a);
    double c = a > ERF_SPLIT ? a : ERF_SPLIT; /* NaN: 1, a garbage lane the last select drops */
    c = c < ERF_ONE ? c : ERF_ONE;
    double h = c * c;
    double low = fma(c, c, -h);
    double e = exp_f64(-h);
    double v = (c - ERF_CENTER) * ERF_SCALE;
    double r = ERF_R[ERF_R_N - 1];
    UNROLL_32
    for (int i = ERF_R_N - 2; i >= 0; i--)
        r = fma(r, v, ERF_R[i]);
    double erfc = fma(-e, low, e) * r;
    double y = a < ERF_SPLIT ? small : 1.0 - erfc;
    y = a > ERF_ONE ? 1.0 : y;
    y = copysign(y, x);
    return x != x ? x : y;
}

INLINE double libm_erf_f64(double x) { return erf(x); } /* eager erf's reference rule (libm's bits) */

/* erf.erf_f32: two polynomials in float32 (constants.py) */
static const float ERF_SMALL_F[7] = {
    0x1.4a9dacp-14f, -0x1.a46b4p-11f, 0x1.541636p-8f, -0x1.b7fb38p-6f, 0x1.ce2d18p-4f, -0x1.81273ep-2f, 0x1.06eba8p-3f,
};
static const float ERF_LARGE_F[17] = {
    -0x1.834db2p-27f, 0x1.79346p-22f, -0x1.a76c98p-21f, -0x1.d0bfep-19f,
    0x1.0180aap-16f, -0x1.04435cp-17f, -0x1.5132b8p-14f, 0x1.09bc08p-12f,
    -0x1.101444p-12f, -0x1.1d7e18p-11f, 0x1.6ebcacp-9f, -0x1.90db5p-8f,
    0x1.1a8aa4p-7f, -0x1.119ea8p-7f, 0x1.64e3b6p-8f, -0x1.1d82e6p-9f,
    0x1.aab862p-12f,
};
#define ERF_SPLIT_F 1.0f
#define ERF_CLAMP_F 4.0f
#define ERF_CENTER_F 2.5f

INLINE float erf_f32(float x)
{
    float ax = fabsf(x);
    float a = ax < ERF_CLAMP_F ? ax : ERF_CLAMP_F; /* NaN: 4, a garbage lane the last select drops */
    float u = a * a;
    float p = fmaf(ERF_SMALL_F[0], u, ERF_SMALL_F[1]);
    UNROLL
    for (int i = 2; i < 7; i++)
        p = fmaf(p, u, ERF_SMALL_F[i]);
    float small = fmaf(a, p, a);
    float w = a - ERF_CENTER_F; /* exact */
    float e = fmaf(ERF_LARGE_F[0], w, ERF_LARGE_F[1]);
    UNROLL
    for (int i = 2; i < 17; i++)
        e = fmaf(e, w, ERF_LARGE_F[i]);
    float y = a < ERF_SPLIT_F ? small : 1.0f - e;
    y = copysignf(y, x);
    return x != x ? x : y;
}

#endif /* ARRAYSTACK_MATHLIB_ERF_TWIN_H */
