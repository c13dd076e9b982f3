"""complex64/complex128 arithmetic for generated numba kernels, with NumPy's bits.

numba's own complex product rounds each of its four products (NumPy's SIMD loops fuse one of them into an
fma), its quotient divides by the denominator (NumPy multiplies by its reciprocal, and returns inf/nan
for a zero divisor where numba raises), and its abs calls hypot (NumPy's SIMD loop scales by the larger
part). These follow NumPy 2's loops (loops_arithm_fp / loops_unary_complex) operation for operation, so
a kernel's result equals NumPy's bit for bit, special values (inf/nan parts, signed zeros) included.
"""

from __future__ import annotations

import math

import numpy as np
from arraystack.backends.numba.mathlib.checked_jit import njit_checked
from arraystack.backends.numba.mathlib.exp_log import fma
from numba import types
from numba.extending import intrinsic


@intrinsic
def complex_of(typingctx, re, im):
    """The complex number re + im*1j of re's and im's float type, without arithmetic (inf, nan, -0.0
    parts stay as they are)."""
    if not (isinstance(re, types.Float) and re == im):
        return None
    result = types.complex64 if re == types.float32 else types.complex128

    def codegen(context, builder, signature, args):
        value = context.make_complex(builder, result)
        value.real, value.imag = args
        return value._getvalue()

    return result(re, im), codegen


def _constant_like(constant):
    @intrinsic
    def like(typingctx, x):
        if not isinstance(x, types.Float):
            return None

        def codegen(context, builder, signature, args):
            return context.get_constant(x, constant)

        return x(x), codegen

    return like


def _per_type(single, double):
    """An intrinsic returning `single` for a float32 argument, `double` for a float64 one (in its type)."""

    @intrinsic
    def constant(typingctx, x):
        if not isinstance(x, types.Float):
            return None
        value = single if x == types.float32 else double

        def codegen(context, builder, signature, args):
            return context.get_constant(x, value)

        return x(x), codegen

    return constant


one_like = _constant_like(1.0)  # the constant in x's float type (a Python 1.0 would be float64)
_half = _constant_like(0.5)
_two = _constant_like(2.0)
_four = _constant_like(4.0)
zero_like = _constant_like(0.0)
inf_like = _constant_like(float("inf"))
nan_like = _constant_like(float("nan"))


@njit_checked
def complex_mul(a, b):
    """a * b as NumPy's loop: (ar br - ai bi) + (ar bi + ai br) 1j, the first product of each part fused."""
    return complex_of(fma(a.real, b.real, -(a.imag * b.imag)), fma(a.real, b.imag, a.imag * b.real))


@njit_checked
def complex_div(a, b):
    """a / b as NumPy's loop: Smith's method scaled by a reciprocal; a zero divisor gives inf/nan parts."""
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    abs_br, abs_bi = abs(br), abs(bi)
    if abs_br >= abs_bi:
        if abs_br == 0 and abs_bi == 0:
            return complex_of(ar / abs_br, ai / abs_br)
        rat = bi / br
        scl = one_like(br) / (br + bi * rat)
        return complex_of((ar + ai * rat) * scl, (ai - ar * rat) * scl)
    rat = br / bi
    scl = one_like(br) / (bi + br * rat)
    return complex_of((ar * rat + ai) * scl, (ai * rat - ar) * scl)


@njit_checked
def complex_abs(z):
    """|z| as NumPy's loop: larger * sqrt(fma(r, r, 1)), r = smaller / larger; inf beats nan."""
    re, im = abs(z.real), abs(z.imag)
    inf = inf_like(re)
    if re == inf or im == inf:
        return inf
    if re != re or im != im:
        return nan_like(re)
    larger = max(re, im)
    smaller = min(re, im)
    ratio = smaller / larger if larger != 0 and smaller != inf else zero_like(re)
    return larger * np.sqrt(fma(ratio, ratio, one_like(re)))


# exp's range reduction (C99's cexp as glibc writes it, which NumPy's complex exp calls): the largest
# integer t with exp(t) finite, the smallest normal number and the largest finite one, per float type
_exp_limit = _per_type(88.0, 709.0)
_smallest_normal = _per_type(float(np.finfo(np.float32).tiny), float(np.finfo(np.float64).tiny))
_largest = _per_type(float(np.finfo(np.float32).max), float(np.finfo(np.float64).max))


@njit_checked
def _sin_cos(y):
    if abs(y) > _smallest_normal(y):
        return math.sin(y), math.cos(y)
    return y, one_like(y)


@njit_checked
def complex_exp(z):
    """exp(z) as NumPy's loop computes it (libm's cexp: exp(x) (cos y + i sin y) with libm's exp, sin and
    cos, exp(x) split in up to three factors where it alone would overflow; C99's special values)."""
    x, y = z.real, z.imag
    inf = inf_like(x)
    if math.isfinite(x):
        if not math.isfinite(y):
            return complex_of(nan_like(x), nan_like(x))
        s, c = _sin_cos(y)
        t = _exp_limit(x)
        if x > t:
            exp_t = math.exp(t)
            x -= t
            s *= exp_t
            c *= exp_t
            if x > t:
                x -= t
                s *= exp_t
                c *= exp_t
        if x > t:
            return complex_of(_largest(x) * c, _largest(x) * s)
        e = math.exp(x)
        return complex_of(e * c, e * s)
    if x == inf or x == -inf:
        if math.isfinite(y):
            value = zero_like(x) if x < 0 else inf
            if y == 0:
                return complex_of(value, y)
            s, c = _sin_cos(y)
            return complex_of(math.copysign(value, c), math.copysign(value, s))
        if x > 0:
            return complex_of(inf, y - y)
        return complex_of(zero_like(x), math.copysign(zero_like(x), y))
    return complex_of(nan_like(x), y if y == 0 else nan_like(x))


_quarter_of_largest = _per_type(float(np.finfo(np.float32).max) / 4, float(np.finfo(np.float64).max) / 4)
_half_mantissa = _per_type(-12.0, -27.0)  # -((mantissa digits + 1) // 2): 24 and 53 digits


@njit_checked
def _scaled(x, n):
    return math.ldexp(x, n)


@njit_checked
def complex_sqrt(z):
    """sqrt(z) as NumPy's loop computes it: libm's csqrt (hypot, the identity 2 Re Im = Im z against
    cancellation, scaling near overflow and underflow, C99's special values)."""
    x, y = z.real, z.imag
    zero, half, inf, nan = zero_like(x), _half(x), inf_like(x), nan_like(x)
    if not (math.isfinite(x) and math.isfinite(y)):
        if y == inf or y == -inf:
            return complex_of(inf, y)
        if x == inf or x == -inf:
            if x < 0:
                return complex_of(nan if y != y else zero, math.copysign(inf, y))
            return complex_of(x, nan if y != y else math.copysign(zero, y))
        return complex_of(nan, nan)
    tiny = _smallest_normal(x)
    if y == 0:
        if x < 0:
            return complex_of(zero, math.copysign(math.sqrt(-x), y))
        return complex_of(abs(math.sqrt(x)), math.copysign(zero, y))
    if x == 0:
        if abs(y) >= _two(x) * tiny:
            r = math.sqrt(half * abs(y))
        else:
            r = half * math.sqrt(_two(x) * abs(y))
        return complex_of(r, math.copysign(r, y))
    scale = 0
    if abs(x) > _quarter_of_largest(x):
        scale = 1
        x = _scaled(x, -2)
        y = _scaled(y, -2)
    elif abs(y) > _quarter_of_largest(x):
        scale = 1
        x = _scaled(x, -2) if abs(x) >= _four(x) * tiny else zero
        y = _scaled(y, -2)
    elif abs(x) < _two(x) * tiny and abs(y) < _two(x) * tiny:
        scale = int(_half_mantissa(x))
        x = _scaled(x, -2 * scale)
        y = _scaled(y, -2 * scale)
    d = math.hypot(x, y)
    if x > 0:
        r = math.sqrt(half * (d + x))
        if scale == 1 and abs(y) < 1:
            s = y / r
            r = _scaled(r, scale)
            scale = 0
        else:
            s = half * (y / r)
    else:
        s = math.sqrt(half * (d - x))
        if scale == 1 and abs(y) < 1:
            r = abs(y / s)
            s = _scaled(s, scale)
            scale = 0
        else:
            r = abs(half * (y / s))
    if scale:
        r = _scaled(r, scale)
        s = _scaled(s, scale)
    return complex_of(r, math.copysign(s, y))
