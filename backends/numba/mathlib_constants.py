"""The constants and polynomial coefficients of mathlib.py's functions, without numba.

mathlib.py (the numba kernels' functions) and mathlib_numpy.py (their NumPy twin, tier 0 of tiered jit)
both read them from here, so the twin loads without importing numba. _mathlib_twin.h spells the same
values as hex float literals (tests/backends/test_mathlib_numpy.py compares all three bit for bit).
An edit here changes compiled code: numba's disk cache of mathlib's functions keys on mathlib.py's file,
so edit (or touch) mathlib.py with it.
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

# minimax coefficients of (exp(r) - 1 - r) / r**2 on |r| <= ln2/2 (the Cephes expf polynomial)
EXP_PF = tuple(
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

# tanh(x) ~ (x + x**3 P(x**2)) / Q(x**2) on |x| <= 9 (Eigen's float32 [9/8] rminimax rational, fitted on
# [-8.67, 8.67]: 0.32 ulp from tanh). P and Q run in float64 (8 lanes), only their quotient in float32:
# a float64 division costs 3x a float32 one per lane, and was half of the chain kernel's time. Rounding
# P and Q to float32 and dividing adds <= 1.5 ulp: <= 3 ulp from NumPy over every float32 (checked
# exhaustively on [0, 9.5]; the function is odd and so is its evaluation). At the clamp the quotient is
# 1 within 1 ulp, as float32 tanh is from 9.01 on.
TANH_P = (1.394553628e-8, 2.102733560e-5, 3.520756727e-3, 1.340216100e-1)
TANH_Q = (8.015776984e-7, 3.326951409e-4, 2.597254514e-2, 4.673548340e-1, 1.0)
TANH_PF = tuple(float(F(c)) for c in TANH_P)  # float32-rounded constants, as the fit was done
TANH_QF = tuple(float(F(c)) for c in TANH_Q)
TANH_CLAMP_F = F(9.0)
