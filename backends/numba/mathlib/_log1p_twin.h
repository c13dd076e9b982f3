/* log1p.py's log1p in C, bit for bit (_twin.c loops over arrays): log(u) * (x / (u - 1)),
 * u = 1 + x, with _exp_log_twin.h's log, under its rules. Edit log1p.py, log1p_numpy.py
 * and this file together.
 */
#ifndef ARRAYSTACK_MATHLIB_LOG1P_TWIN_H
#define ARRAYSTACK_MATHLIB_LOG1P_TWIN_H

#include "_exp_log_twin.h"

INLINE double log1p_f64(double x)
{
    double u = x + 1.0;
    double y = log_f64(u) * (x / (u - 1.0));
    y = u == 1.0 ? x : y;
    y = u == INFINITY ? u : y;
    y = x < -1.0 ? NAN_F64 : y; /* one NaN: NaN times NaN has no specified sign */
    return x != x ? x : y;
}

INLINE float log1p_f32(float x)
{
    float u = x + 1.0f;
    float y = log_f32(u) * (x / (u - 1.0f));
    y = u == 1.0f ? x : y;
    y = u == INFINITY ? u : y;
    y = x < -1.0f ? NAN_F32 : y;
    return x != x ? x : y;
}

#endif /* ARRAYSTACK_MATHLIB_LOG1P_TWIN_H */
