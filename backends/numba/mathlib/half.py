"""float16 and bfloat16 in generated numba kernels: widening to float32 and rounding back, on the bits.

numba has no CPU float16 (nor any bfloat16) type, so kernels read and write those arrays as uint16 views
and convert with integer operations, branch-free (selects), so loops over them vectorize. Each conversion
gives NumPy's bits (ml_dtypes' for bfloat16), as the tests check against `astype`:
- float16 -> float32 and bfloat16 -> float32 are exact (NaN payloads kept);
- float32 -> float16 and float64 -> float16 round to nearest even, directly from the source (NumPy's
  npy_floatbits_to_halfbits / npy_doublebits_to_halfbits): overflow to inf, subnormal results, a NaN keeps
  its sign and the top bits of its payload (made nonzero);
- float32 -> bfloat16 keeps the upper 16 bits rounded to nearest even; a NaN becomes the quiet NaN of its
  sign (0x7fc0 | sign), as ml_dtypes does. float64 goes through float32 first, as ml_dtypes does.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib.checked_jit import njit_checked
from arraystack.backends.numba.mathlib.exp_log import bits_f32, bits_f64, f32_bits, f64_bits

_HALF_BIAS_F32 = (127 - 15) << 23  # rebias of a float16 exponent field moved into float32's
_SUBNORMAL_UNIT = np.float32(2.0**-24)  # the value of float16's least subnormal
_F32_MAGIC = np.float32(
    0.5
)  # ulp 2**-24: adding it rounds |x| < 2**-14 to float16's subnormal grid
_F64_MAGIC = 2.0**28  # the same grid for float64 (ulp of 2**28 is 2**-24)


@njit_checked
def f16_to_f32(h):
    """float16 bits (an unsigned 16-bit integer) -> float32, exactly."""
    bits = np.int32(h)
    magnitude = bits & 0x7FFF
    normal = (magnitude << 13) + _HALF_BIAS_F32
    normal = normal + _HALF_BIAS_F32 if magnitude >= 0x7C00 else normal  # inf, NaN: exponent 255
    small = np.float32(magnitude) * _SUBNORMAL_UNIT  # zero and subnormals, exact
    value = small if magnitude < 0x400 else bits_f32(np.int32(normal))
    return bits_f32(np.int32(f32_bits(value) | np.int32((bits & 0x8000) << 16)))


@njit_checked
def f32_to_f16(x):
    """float32 -> float16 bits (uint16), rounded to nearest even."""
    bits = np.int64(f32_bits(x)) & 0xFFFFFFFF
    sign = (bits >> 16) & 0x8000
    magnitude = bits & 0x7FFFFFFF
    odd = (magnitude >> 13) & 1
    normal = min((magnitude - _HALF_BIAS_F32 + 0xFFF + odd) >> 13, 0x7C00)
    tiny = bits_f32(np.int32(magnitude)) + _F32_MAGIC
    subnormal = np.int64(f32_bits(tiny)) - np.int64(f32_bits(_F32_MAGIC))
    result = subnormal if magnitude < (113 << 23) else normal
    payload = 0x7C00 | (magnitude & 0x7FFFFF) >> 13
    nan = payload + 1 if payload == 0x7C00 else payload
    result = nan if magnitude > 0x7F800000 else result
    return np.uint16(result | sign)


@njit_checked
def f64_to_f16(x):
    """float64 -> float16 bits (uint16), rounded to nearest even once (not through float32)."""
    bits = f64_bits(x)
    sign = (bits >> 48) & 0x8000
    magnitude = bits & 0x7FFFFFFFFFFFFFFF
    odd = (magnitude >> 42) & 1
    normal = min((magnitude - ((1023 - 15) << 52) + ((1 << 41) - 1) + odd) >> 42, 0x7C00)
    tiny = bits_f64(magnitude) + _F64_MAGIC
    subnormal = f64_bits(tiny) - f64_bits(_F64_MAGIC)
    result = subnormal if magnitude < ((1023 - 14) << 52) else normal
    payload = 0x7C00 | (magnitude & 0xFFFFFFFFFFFFF) >> 42
    nan = payload + 1 if payload == 0x7C00 else payload
    result = nan if magnitude > 0x7FF0000000000000 else result
    return np.uint16(result | sign)


@njit_checked
def bf16_to_f32(h):
    """bfloat16 bits (an unsigned 16-bit integer) -> float32, exactly: the upper half of its bits."""
    return bits_f32(np.int32(np.int64(h) << 16))


@njit_checked
def f32_to_bf16(x):
    """float32 -> bfloat16 bits (uint16), rounded to nearest even; NaN -> the quiet NaN of its sign."""
    bits = np.int64(f32_bits(x)) & 0xFFFFFFFF
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = ((bits >> 16) & 0x8000) | 0x7FC0
    return np.uint16(nan if (bits & 0x7FFFFFFF) > 0x7F800000 else rounded & 0xFFFF)
