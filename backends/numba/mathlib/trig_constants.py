"""The constants of trig.py's sin and cos, without numba (exp_log_numpy.py and the C twin read them).

Argument reduction over the whole range (Payne and Hanek's idea, in floating point): a finite x >= 0 is
m * 2**(E - bias) with m an integer (53 or 24 bits) and E its exponent field, so x * 2/pi = m * F_E with
F_E = 2**(E - bias) * 2/pi. Bits of F_E worth 4 or more add multiples of 4 to m * F_E (m is an integer),
which change no sine or cosine, so a table row per E holds F_E mod 4 cut at fixed bit positions into
pieces whose products with m are exact (float32: three 29-bit pieces, m * piece < 2**53) or exact as two
doubles by an fma (float64: a 28-bit piece, then three 53-bit ones). trig.py says how the pieces
add up without losing the bits that survive cancellation. 2/pi comes from Machin's formula in integers,
so the tables are exact truncations, with no dependence on the platform's floating point.
"""

from __future__ import annotations

import math

import numpy as np


def _pi_fixed(precision: int) -> int:
    """pi * 2**precision within a few units (Machin's formula, all in integers)."""

    def arctan_inverse(n):  # arctan(1/n) * 2**precision, truncated term by term
        total, power, k, sign = 0, (1 << precision) // n, 1, 1
        while power:
            total += sign * (power // k)
            power //= n * n
            k += 2
            sign = -sign
        return total

    return 16 * arctan_inverse(5) - 4 * arctan_inverse(239)


def two_over_pi_fixed(bits: int) -> int:
    """floor(2/pi * 2**bits), exactly (80 guard bits)."""
    precision = bits + 80
    return (1 << (precision + bits + 1)) // _pi_fixed(precision)


_PIO2_FIXED = _pi_fixed(280) >> 81  # floor(pi/2 * 2**200), to within a unit
_ONE = 1 << 200


def reduction_table(bias: int, rows: int, windows) -> np.ndarray:
    """Row E (E' = max(E, 1)): (2**(E' - bias) * 2/pi) mod 4, the bits at positions [hi, lo] (powers of
    two, inclusive) of each window as one float64 (exact: a window holds at most 53 bits)."""
    low = min(lo for _, lo in windows)
    fraction = -low + 8  # fixed-point bits below the binary point
    top = rows - bias + fraction + 4
    scaled = two_over_pi_fixed(top)  # 2/pi * 2**top
    table = np.zeros((rows, len(windows)))
    for e in range(rows):
        shift = max(e, 1) - bias + fraction - top  # F_E * 2**fraction = scaled * 2**shift
        f = scaled << shift if shift >= 0 else scaled >> -shift
        f &= (1 << (fraction + 2)) - 1  # mod 4
        for j, (hi, lo) in enumerate(windows):
            table[e, j] = float((f >> (fraction + lo)) & ((1 << (hi - lo + 1)) - 1)) * 2.0**lo
    return table


# -- float64 ------------------------------------------------------------------------------------------------
# pieces at bit positions 2**1..2**-26, 2**-27..2**-79, 2**-80..2**-132, 2**-133..2**-185: with m < 2**53 the
# dropped bits add less than 2**-132 to m * F_E, whose fraction (after cancellation) is at least ~2**-62 for
# every double (the closest double to a multiple of pi/2, 6381956970095103 * 2**797, leaves 2**-61.5 of a
# quadrant)
TRIG_WINDOWS = ((1, -26), (-27, -79), (-80, -132), (-133, -185))
TRIG_TABLE = reduction_table(1075, 2048, TRIG_WINDOWS)
PIO2_HI = _PIO2_FIXED / _ONE  # pi/2 = PIO2_HI + PIO2_LO to 2**-107
PIO2_LO = (_PIO2_FIXED - int(PIO2_HI * 2**52) * (_ONE >> 52)) / _ONE
# Below 2**-27, sin(x) rounds to x and cos(x) to 1 (x**2/6 and x**2/2 are under half an ulp); the table's
# pieces do not reach that far down, so these take the select.
TRIG_TINY = 2.0**-27
# sin z = z + z**3 S(z**2), cos z = 1 - z**2/2 + z**4 C(z**2) on |z| <= pi/4 (+2**-50): Taylor's
# coefficients, each 1/n! rounded once (n! < 2**53). The first term dropped is below 2**-63 (sin, z**19/19!)
# and 2**-58.8 (cos, z**18/18!) of the result: the polynomials add 0.02 ulp to the final rounding.
SIN_C = tuple((-1) ** n / math.factorial(2 * n + 1) for n in range(1, 9))  # z**3/3! ... z**17/17!
COS_C = tuple((-1) ** n / math.factorial(2 * n) for n in range(2, 9))  # z**4/4! ... z**16/16!

# -- float32 (computed in float64, rounded once at the end) -------------------------------------------------
# pieces 2**1..2**-27, 2**-28..2**-56, 2**-57..2**-85 (29 bits each: m < 2**24, so m * piece is exact)
TRIG_WINDOWS_F = ((1, -27), (-28, -56), (-57, -85))
TRIG_TABLE_F = reduction_table(150, 256, TRIG_WINDOWS_F)
# |x| <= TRIG_FAST_F: k = round(x * 2/pi) < 2**20, and x - k pi/2 by two float64 constants: k * PIO2_A is
# exact (PIO2_A has 29 bits), x - k * PIO2_A exact (both on the 2**-28 grid, or k is 0), then one fma with
# PIO2_B (the next 53 bits), within 2**-62 absolute.
TRIG_FAST_F = 1048576.0  # 2**20
TWO_OVER_PI = two_over_pi_fixed(200) / _ONE  # int / int: correctly rounded
_PIO2_A_FIXED = _PIO2_FIXED >> 172 << 172
PIO2_A = _PIO2_A_FIXED / _ONE  # exact: 29 bits
PIO2_B = (_PIO2_FIXED - _PIO2_A_FIXED) / _ONE
TRIG_TINY_F = 2.0**-12  # below it sin(x) rounds to x and cos(x) to 1 in float32
SIN_CF = SIN_C[:5]  # z**3 ... z**11: the first term dropped is below 2**-36 of the result
COS_CF = (-0.5,) + COS_C[:5]  # z**2 ... z**12: below 2**-41
