"""The constants and polynomial coefficients of exp_log.py's functions, without numba.

exp_log.py (the numba kernels' functions) and exp_log_numpy.py (their NumPy twin, tier 0 of tiered jit)
both read them from here, so the twin loads without importing numba. _exp_log_twin.h spells the same
values as hex float literals (tests/backends/numba/mathlib/test_agreement.py compares all three bit for bit).
An edit here changes compiled code: numba's disk cache of mathlib's functions keys on exp_log.py's file,
so edit (or touch) exp_log.py with it.
"""

from __future__ import annotations

import math

import numpy as np

# -- float64 ------------------------------------------------------------------------------------------------
LOG2E = 1.4426950408889634
LN2_HI = 6.93147180369123816490e-01  # low bits zero: k * LN2_HI is exact for |k| < 2**20
LN2_LO = 1.90821492927058770002e-10
EXP_C = tuple(1.0 / math.factorial(n) for n in range(14))  # Taylor to r**13 / 13!
ATANH_C = tuple(2.0 / (2 * k + 1) for k in range(1, 12))  # 2/3, 2/5, ... for log

# -- float32 ------------------------------------------------------------------------------------------------
F = np.float32
SHIFTER_F32 = 12582912.0  # 1.5 * 2**23: fl(v + SHIFTER) holds round(v) in its low mantissa bits
LOG2E_F = F(1.4426950408889634)
LN2_HI_F = F(0.693359375)  # 11 significant bits: k * LN2_HI_F is exact for the k that occur
LN2_LO_F = F(-2.12194440e-4)
EXP_CF = tuple(F(1.0 / math.factorial(n)) for n in range(10))
ATANH_CF = tuple(F(2.0 / (2 * k + 1)) for k in range(1, 7))
ONE_F, TWO_F, HALF_F, ZERO_F = F(1.0), F(2.0), F(0.5), F(0.0)
INF_F = F(np.inf)
SHIFTER_F = F(SHIFTER_F32)  # adding it rounds |v| < 2**22 to an integer

# exp(x) = 2**k (1 + em1): k = round(x / ln2) (the shifter; x clamped to [-105, 90]), r = x - k ln2 (two
# constants, exact first product), |r| <= ln2/2 + 2e-6, em1 = r + r**2 Q(r) ~ expm1(r). Q: degree-4
# minimax of (exp(r) - 1 - r) / r**2 relative to exp(r) on |r| <= 0.3467 (approximation error 0.05 * 2**-24;
# fitted by LP on 3001 Chebyshev nodes against mpmath, each coefficient rounded to float32 and the rest
# refitted). 2**k is applied as fma(em1, s1, s1) * s2 with s1 = 2**(k - d), s2 = 2**d, d = -EXP_SPLIT for
# x < 0 and +EXP_SPLIT otherwise: both factors are normal over the clamped range, and the product by s2 is
# exact where exp is normal (one rounding in all), rounds a second time where it is denormal, and gives 0
# and inf by itself. Bound: <= 3 ulp from NumPy's float32 exp on every float32, checked exhaustively over
# all 2**32 bit patterns against numpy 2.4 (AVX-512): 3 ulp for 208 inputs, all near |r| = ln2/2, like the
# Cephes polynomial this replaces (r + r**2 P(r), P of degree 5: 112 inputs at 3 ulp); a degree-3 Q
# reaches 4 ulp. Against that version one fma less, and one product and a select for the scale instead of
# two products and 7 integer operations: 22 instead of 27 vector instructions per 16 elements (AVX-512).
EXP_SPLIT = 64
# Q's coefficients, r**4's first
EXP_QF = tuple(F(c) for c in (0.0013821055, 0.008368675, 0.041668262, 0.16666521, 0.49999994))

# tanh(x) = E / (E + 1), E = expm1(2m) / 2, m = min(|x|, 10), sign restored: all float32 (16 lanes on
# AVX-512), one division. With k = round(2m / ln2) (the shifter) and r = m - k ln2/2 (one fma: k <= 29, so
# one constant suffices; the error it leaves in r is below 3e-8 and scaled down in tanh by 1 / (E + 1)), E =
# 2**k h + (2**k - 1) / 2 with h = expm1(2r) / 2 = r + r**2 H(r), |r| <= ln2/4. H: degree-4 minimax of
# (expm1(2r)/2 - r) / r**2 weighted by |r| (relative error of h 0.23 * 2**-24 with the float32 coefficients;
# fitted by LP on 3001 Chebyshev nodes against mpmath, constant term fixed to 1, each coefficient rounded to
# float32 and the rest refitted). Bound: <= 3 ulp from NumPy's float32 tanh on every float32, checked
# exhaustively over all 2**32 bit patterns against numpy 2.4 (whose tanh is within 1 ulp of correctly
# rounded on [0, 10]): 3 ulp for 4786 inputs, all in 2**-8 <= |x| < 0.25, mostly k = 0, where E is h and the
# roundings of h, E + 1 and the quotient add up; 2 ulp for 3.3e6. E + 1 rounds to E from |x| = 13 ln2 ~
# 9.011 on, where float32 tanh is 1 too, so the clamp at 10 changes nothing and keeps E finite. Replaces a
# [9/8] rational evaluated in float64 (8 lanes, conversions): 1.6-1.9x faster in a vectorized loop over data
# in cache.
TANH_CLAMP_F = F(10.0)
TWO_LOG2E_F = F(2.0 / math.log(2.0))
LN2_HALF_F = F(math.log(2.0) / 2.0)
# H's coefficients, r**4's first
TANH_HF = tuple(F(c) for c in (0.044610076, 0.13386254, 0.33333123, 0.6666618, 1.0))

# erf(x) for float32 x, all in float32 (16 lanes on AVX-512), a = min(|x|, 4), sign restored:
# - a < 1: erf = a + a A(a**2) as one fma, A(u) ~ erf(sqrt u) / sqrt u - 1, degree 6 in u, |A| <= 0.157, so
#   A's own rounding errors reach the result scaled down and the fma rounds once;
# - 1 <= a <= 4: erf = 1 - E(a - 2.5), E(w) ~ erfc(2.5 + w), degree 16 in w (a - 2.5 is exact), absolute
#   error 6e-10 where erf's ulp is 6e-8; 1 - E rounds to 1 from a = 3.9205 on (libm's erf, rounded, from
#   3.9192 on; in between the two alternate: float32 coefficients leave E ~4e-9 off there).
# Both interpolated at 800 Chebyshev nodes against mpmath (numpy.polynomial.chebyshev.chebfit, converted to
# powers of u and w, then rounded to float32); approximation errors 1.2e-9 (A) and 6.1e-10 (E), absolute
# (degree 14 for E, 1.0e-8, spread the alternation over 3.888 - 3.977 and put 8x more results 1 ulp off
# on [2, 4]).
# Both branches run for every element (a select picks one: no branch in the loop). Bound: <= 1 ulp from
# float32(math.erf(float64(x))) (libm's erf rounded once) on every float32, checked over all 2**32 bit
# patterns (tools/mathlib_exhaustive.py: 0.7% of them 1 ulp off). In a vectorized loop over data in cache it
# takes 1.7x exp_f32's time per element; one float64 polynomial (degree 18 in x**2, 8 lanes) took 3x.
# float64 erf: erf.py, with ERF_Q and ERF_R below.
ERF_SPLIT_F = F(1.0)
ERF_CLAMP_F = F(4.0)
ERF_CENTER_F = F(2.5)
# A's coefficients, u**6's first
ERF_SMALL_F = tuple(
    F(c)
    for c in (
        7.882497448008507e-05, -0.0008018855005502701, 0.005189312156289816, -0.02685432881116867,
        0.11283597350120544, -0.3761262595653534, 0.12837916612625122,
    )
)  # fmt: skip
# E's coefficients, w**16's first
ERF_LARGE_F = tuple(
    F(c)
    for c in (
        -1.1272015321139861e-08, 3.5129914977005683e-07, -7.886890216468601e-07, -3.462653694441542e-06,
        1.5348350643762387e-05, -7.756445484119467e-06, -8.039429667405784e-05, 0.0002534241648390889,
        -0.00025947490939870477, -0.0005445338319987059, 0.002797981258481741, -0.006116587668657303,
        0.008622484281659126, -0.008350212126970291, 0.005445701535791159, -0.0021782785188406706,
        0.00040695213829167187,
    )
)  # fmt: skip

# erf(x) for float64 x, a = |x|, sign restored; both branches run for every element (a select picks):
# - a < 1: erf = a + a Q(a**2), Q(u) ~ erf(sqrt u) / sqrt u - 1 (|Q| <= 0.16), degree 13 in u, absolute
#   error 1.2e-17 (0.1 ulp of the result, a Q's share);
# - 1 <= a <= 6: erf = 1 - erfc, erfc = exp(-a**2) R(v), v = (a - 3.5) / 2.5, R(v) ~ exp(a**2) erfc(a),
#   degree 30 in v, relative error 7e-17 (0.09 <= R <= 0.43); a**2 is exact as h + l (an fma), exp(-a**2)
#   = exp(-h) (1 - l). erfc <= 0.16, so its few ulp reach the result as <= 0.5 ulp; from 5.92 on 1 - erfc
#   rounds to 1, and a > 6 takes 1 directly.
# Both interpolated at Chebyshev nodes against mpmath (60 digits), converted to monomials, rounded to
# float64 (the errors above are with the rounded coefficients). Replaces libm's scalar erf (12.8 ns an
# element in a numba loop, which does not vectorize).
# Q's coefficients, u**0's first
ERF_Q = (
    0.1283791670955126, -0.37612638903183754, 0.1128379167095512, -0.02686617064512984,
    0.0052239776254232985, -0.000854832702193483, 0.00012055332902888736, -1.4925647567519332e-05,
    1.6462045441468418e-06, -1.6364642158167616e-07, 1.4792401209404813e-08, -1.216456005728345e-09,
    8.709045129053106e-11, -4.230945824295338e-12,
)  # fmt: skip
# R's coefficients, v**0's first
ERF_R = (
    0.1552936556088943, -0.10330894458313124, 0.06663208245319109, -0.04176678811943095,
    0.0254955596437064, -0.01518251154565966, 0.00883342391639231, -0.005028067967896857,
    0.0028033261864894706, -0.0015325157195868503, 0.0008222552565141488, -0.0004333616469641549,
    0.00022452993059700351, -0.00011444274581909268, 5.742080518440341e-05, -2.8375421033603888e-05,
    1.38206733448045e-05, -6.644171891044074e-06, 3.1473331910963984e-06, -1.4583791026934757e-06,
    6.740620690712834e-07, -3.263444005599658e-07, 1.4614480520522422e-07, -4.5551021827612916e-08,
    2.0766620450808687e-08, -2.313380406055404e-08, 9.597458511055547e-09, 2.6635869107568587e-09,
    -1.0099480876298564e-09, -1.5114786449782725e-09, 6.096624968614332e-10,
)  # fmt: skip
ERF_SPLIT = 1.0
ERF_ONE = 6.0  # erf(a) is 1 (rounded) from 5.92 on
ERF_CENTER = 3.5
ERF_SCALE = 0.4  # 1 / 2.5
