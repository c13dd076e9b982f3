/* trig.py's sin, cos and tan in C, bit for bit (_twin.c loops over arrays).
 *
 * The rules of _exp_log_twin.h hold here: each function performs exactly the IEEE operations of the
 * numba function of the same name, in the same order; every `fma` there is C99 fma() here and every
 * np.rint is rint() (the default rounding mode: to nearest, ties to even). The scalar constants are
 * trig_constants.py's values as exact hex literals (tests/backends/numba/mathlib/test_twins.py
 * compares them with Python's). The reduction tables (8000 values) are not written out here:
 * trig_constants.py builds them at import, and twins.py copies them in through the
 * module's set_trig_tables() when it loads it, so their bits have one source; the sin and cos entry
 * points refuse to run before that. Edit trig.py, trig_numpy.py and this file
 * together.
 */
#ifndef ARRAYSTACK_MATHLIB_TRIG_TWIN_H
#define ARRAYSTACK_MATHLIB_TRIG_TWIN_H

#include "_exp_log_twin.h"

/* -- trig_constants.py ------------------------------------------------------------------------ */
#define TRIG_ROWS 2048
#define TRIG_PIECES 4
#define TRIG_ROWS_F 256
#define TRIG_PIECES_F 3
/* The reduction tables (set_trig_tables() fills them), transposed: a piece of every row is then one
 * gather (base + 8 e; a row of 3 or 4 doubles is no gather's stride), and held as bits (int64): by C's
 * aliasing rules no double store (the loop's dst) writes them, so GCC vectorizes the loops instead of
 * giving up on a possible alias between dst and a gather (2 instead of 17 ms per 1e6 float64). */
static int64_t TRIG_TABLE[TRIG_PIECES][TRIG_ROWS];
static int64_t TRIG_TABLE_F[TRIG_PIECES_F][TRIG_ROWS_F];

static const double PIO2_HI = 0x1.921fb54442d18p+0;
static const double PIO2_LO = 0x1.1a62633145c07p-54;
static const double TRIG_TINY = 0x1.0p-27;
#define SIN_C_N 8
static const double SIN_C[SIN_C_N] = {
    -0x1.5555555555555p-3, 0x1.1111111111111p-7,  -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
    -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33, -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49,
};
#define COS_C_N 7
static const double COS_C[COS_C_N] = {
    0x1.5555555555555p-5,  -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16, -0x1.27e4fb7789f5cp-22,
    0x1.1eed8eff8d898p-29, -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45,
};
static const float TRIG_FAST_F = 0x1.0p+20f;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1;
static const double PIO2_A = 0x1.921fb54000000p+0;
static const double PIO2_B = 0x1.10b4611a62633p-30;
static const float TRIG_TINY_F = 0x1.0p-12f;
#define SIN_CF_N 5
static const double SIN_CF[SIN_CF_N] = {
    -0x1.5555555555555p-3, 0x1.1111111111111p-7, -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
    -0x1.ae64567f544e4p-26,
};
#define COS_CF_N 6
static const double COS_CF[COS_CF_N] = {
    -0x1.0p-1, 0x1.5555555555555p-5, -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16,
    -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29,
};

/* trig._horner: c[0] + x (c[1] + x (... + x c[n - 1])) */
INLINE double trig_horner(const double *c, int n, double x)
{
    double p = c[n - 1];
    UNROLL
    for (int i = n - 2; i >= 0; i--)
        p = fma(p, x, c[i]);
    return p;
}

/* trig._two_product: returns a * b rounded, sets *err to its error */
INLINE double two_product(double a, double b, double *err)
{
    double p = a * b;
    *err = fma(a, b, -p);
    return p;
}

/* trig._two_sum */
INLINE double two_sum(double a, double b, double *err)
{
    double s = a + b;
    double bb = s - a;
    *err = (a - (s - bb)) + (b - bb);
    return s;
}

/* trig._mod4 */
INLINE double mod4(double v) { return fma(rint(v * 0.25), -4.0, v); }

/* -- float64 ------------------------------------------------------------------------------------------ */
/* trig._reduce_f64: returns k (an integer in [-4, 4]), sets *hi and *lo */
INLINE double trig_reduce_f64(double ax, double *hi, double *lo)
{
    int64_t bits = f64_bits(ax);
    int64_t e = bits >> 52;
    double m = bits_f64((bits & INT64_C(0x000FFFFFFFFFFFFF)) | INT64_C(0x4330000000000000));
    double l0, l1, l2, eb, e1, e2, e3;
    double h0 = two_product(m, bits_f64(TRIG_TABLE[0][e]), &l0);
    double a = mod4(mod4(h0) + mod4(l0));
    double h1 = two_product(m, bits_f64(TRIG_TABLE[1][e]), &l1);
    double b = two_sum(a, mod4(h1), &eb);
    double k = rint(b);
    double c = b - k;
    double h2 = two_product(m, bits_f64(TRIG_TABLE[2][e]), &l2);
    double h3 = m * bits_f64(TRIG_TABLE[3][e]);
    double d = two_sum(c, l1, &e1);
    d = two_sum(d, eb, &e2);
    d = two_sum(d, h2, &e3);
    double low = ((e1 + e2) + e3) + (l2 + h3);
    double high = d + low;
    *hi = high;
    *lo = low - (high - d);
    return k;
}

/* trig._sincos_f64 */
INLINE void sincos_f64(double hi, double lo, double *s, double *c)
{
    double zh = hi * PIO2_HI;
    double zl = fma(hi, PIO2_HI, -zh) + fma(hi, PIO2_LO, lo * PIO2_HI);
    double zz = zh * zh;
    double zz_lo = fma(zh, zh, -zz);
    *s = zh + fma(zh * zz, trig_horner(SIN_C, SIN_C_N, zz), zl * (1.0 - 0.5 * zz));
    double hz = 0.5 * zz;
    double w = 1.0 - hz;
    double tail = (((1.0 - w) - hz) - 0.5 * zz_lo) +
                  fma(zz * zz, trig_horner(COS_C, COS_C_N, zz), -(zh * zl));
    *c = w + tail;
}

/* q: mathlib's np.int64(k) & 3, k in [-4, 4] (int32: vectors convert to it; & 3 is the same) */
INLINE double sin_f64(double x)
{
    double ax = fabs(x), hi, lo, s, c;
    double k = trig_reduce_f64(ax, &hi, &lo);
    sincos_f64(hi, lo, &s, &c);
    int32_t q = (int32_t)k & 3;
    double y = q & 1 ? c : s;
    y = q & 2 ? -y : y;
    y = x < 0.0 ? -y : y;
    y = ax < TRIG_TINY ? x : y;
    y = ax == INFINITY ? NAN_F64 : y;
    return x != x ? x : y;
}

INLINE double cos_f64(double x)
{
    double ax = fabs(x), hi, lo, s, c;
    double k = trig_reduce_f64(ax, &hi, &lo);
    sincos_f64(hi, lo, &s, &c);
    int32_t q = (int32_t)k & 3;
    double y = q & 1 ? s : c;
    y = (q + 1) & 2 ? -y : y;
    y = ax < TRIG_TINY ? 1.0 : y;
    y = ax == INFINITY ? NAN_F64 : y;
    return x != x ? x : y;
}

/* trig.tan_f64 */
INLINE double tan_f64(double x)
{
    double ax = fabs(x), hi, lo, s, c;
    double k = trig_reduce_f64(ax, &hi, &lo);
    sincos_f64(hi, lo, &s, &c);
    double y = (int32_t)k & 1 ? -c / s : s / c;
    y = x < 0.0 ? -y : y;
    y = ax < TRIG_TINY ? x : y;
    y = ax == INFINITY ? NAN_F64 : y;
    return x != x ? x : y;
}

/* -- float32 (computed in double, rounded once at the end) -------------------------------------------- */
/* trig._reduce_fast_f32: returns k, sets *z */
INLINE double trig_reduce_fast_f32(float ax, double *z)
{
    double xd = (double)ax;
    double k = rint(xd * TWO_OVER_PI);
    *z = fma(-k, PIO2_B, xd - k * PIO2_A);
    return k;
}

/* trig._reduce_table_f32: returns k, sets *z */
INLINE double trig_reduce_table_f32(float ax, double *z)
{
    int32_t bits = f32_bits(ax);
    int64_t e = bits >> 23; /* 64-bit: GCC vectorizes this float loop's double gathers only so */
    double m = (double)((bits & INT32_C(0x007FFFFF)) | INT32_C(0x00800000));
    double a = mod4(m * bits_f64(TRIG_TABLE_F[0][e]));
    double p1 = m * bits_f64(TRIG_TABLE_F[1][e]);
    double k = rint(a + p1);
    double r = ((a - k) + p1) + m * bits_f64(TRIG_TABLE_F[2][e]);
    *z = r * PIO2_HI;
    return k;
}

/* trig._reduce_f32 */
INLINE double trig_reduce_f32(float ax, double *z)
{
    double z_fast, z_table;
    double k_fast = trig_reduce_fast_f32(ax, &z_fast);
    double k_table = trig_reduce_table_f32(ax, &z_table);
    int large = !(ax <= TRIG_FAST_F); /* inf and NaN too, as the kernels */
    *z = large ? z_table : z_fast;
    return large ? k_table : k_fast;
}

/* trig._sincos_f32 */
INLINE void sincos_f32(double z, double *s, double *c)
{
    double zz = z * z;
    *s = fma(z * zz, trig_horner(SIN_CF, SIN_CF_N, zz), z);
    *c = fma(zz, trig_horner(COS_CF, COS_CF_N, zz), 1.0);
}

/* mathlib's np.int64(k) & 3: k is an integer below 2**20 in magnitude (inf and NaN take the table's
 * reduction, whose k is finite) */
INLINE int32_t quadrant_f32(double k) { return (int32_t)k & 3; }

/* trig._sin_f32 */
INLINE float sin_f32_reduced(float x, double k, double z)
{
    double s, c;
    sincos_f32(z, &s, &c);
    int32_t q = quadrant_f32(k);
    double y = q & 1 ? c : s;
    y = q & 2 ? -y : y;
    y = x < 0.0f ? -y : y;
    float r = (float)y;
    r = fabsf(x) < TRIG_TINY_F ? x : r;
    r = fabsf(x) == INFINITY ? NAN_F32 : r;
    return x != x ? x : r;
}

/* trig._cos_f32 */
INLINE float cos_f32_reduced(float x, double k, double z)
{
    double s, c;
    sincos_f32(z, &s, &c);
    int32_t q = quadrant_f32(k);
    double y = q & 1 ? s : c;
    y = (q + 1) & 2 ? -y : y;
    float r = (float)y;
    r = fabsf(x) < TRIG_TINY_F ? 1.0f : r;
    r = fabsf(x) == INFINITY ? NAN_F32 : r;
    return x != x ? x : r;
}

/* trig._tan_f32 */
INLINE float tan_f32_reduced(float x, double k, double z)
{
    double s, c;
    sincos_f32(z, &s, &c);
    double y = quadrant_f32(k) & 1 ? -c / s : s / c;
    y = x < 0.0f ? -y : y;
    float r = (float)y;
    r = fabsf(x) < TRIG_TINY_F ? x : r;
    r = fabsf(x) == INFINITY ? NAN_F32 : r;
    return x != x ? x : r;
}

INLINE float tan_f32(float x)
{
    double z;
    double k = trig_reduce_f32(fabsf(x), &z);
    return tan_f32_reduced(x, k, z);
}

INLINE float sin_f32(float x)
{
    double z;
    double k = trig_reduce_f32(fabsf(x), &z);
    return sin_f32_reduced(x, k, z);
}

INLINE float cos_f32(float x)
{
    double z;
    double k = trig_reduce_f32(fabsf(x), &z);
    return cos_f32_reduced(x, k, z);
}

#endif /* ARRAYSTACK_MATHLIB_TRIG_TWIN_H */
