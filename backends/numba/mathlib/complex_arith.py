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
from arraystack.backends.numba.mathlib.checked_jit import OPTIONS, njit_checked
from arraystack.backends.numba.mathlib.exp_log import fma
from numba import types
from numba.extending import intrinsic, overload


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


# clog's constants per float type (glibc's clog, which NumPy's complex log calls): the mantissa
# digits (the scaling up of two subnormal parts), the machine epsilon, pi and ln 2 rounded to the
# type; and log2(e) and log10(e) rounded to the type, the factors of NumPy's complex log2 and log10
_mantissa_digits = _per_type(24.0, 53.0)
_epsilon = _per_type(float(np.finfo(np.float32).eps), float(np.finfo(np.float64).eps))
_pi = _per_type(float(np.float32(math.pi)), math.pi)
_ln2 = _per_type(float(np.float32(math.log(2.0))), math.log(2.0))
_log2_e = _per_type(float(np.float32(np.log2(np.e))), float(np.log2(np.e)))
_log10_e = _per_type(float(np.float32(np.log10(np.e))), float(np.log10(np.e)))


@njit_checked
def _ordered(a, b):
    """(a, b) by magnitude, a first on a tie: one step of a stable sort."""
    if abs(a) > abs(b):
        return b, a
    return a, b


@njit_checked
def _add_split(x, y):
    """x + y exactly, as (rounded sum, error), for |x| >= |y| (Dekker)."""
    hi = x + y
    return hi, (x - hi) + y


def _x2y2m1_double(x, y):
    # x*x and y*y as exact pairs (fma's pair is Dekker's: nothing underflows here) and -1, sorted by
    # magnitude (stably, as glibc's merge-sorting qsort), then each value folded exactly into the
    # next larger one; after a fold only the new larger part can be out of order, so one bubbling
    # pass re-sorts the rest
    xx = x * x
    yy = y * y
    v0, v1, v2, v3, v4 = fma(x, x, -xx), xx, fma(y, y, -yy), yy, -one_like(x)
    for _ in range(4):
        v0, v1 = _ordered(v0, v1)
        v1, v2 = _ordered(v1, v2)
        v2, v3 = _ordered(v2, v3)
        v3, v4 = _ordered(v3, v4)
    v1, v0 = _add_split(v1, v0)
    v1, v2 = _ordered(v1, v2)
    v2, v3 = _ordered(v2, v3)
    v3, v4 = _ordered(v3, v4)
    v2, v1 = _add_split(v2, v1)
    v2, v3 = _ordered(v2, v3)
    v3, v4 = _ordered(v3, v4)
    v3, v2 = _add_split(v3, v2)
    v3, v4 = _ordered(v3, v4)
    v4, v3 = _add_split(v4, v3)
    return v4 + v3 + v2 + v1 + v0


def _x2y2m1_single(x, y):
    # float32 parts: in float64, where both products are exact, rounded once to float32
    wide_x, wide_y = np.float64(x), np.float64(y)
    return np.float32((wide_x - 1.0) * (wide_x + 1.0) + wide_y * wide_y)


def _x2y2m1(x, y):
    """x^2 + y^2 - 1 without cancellation, for 1 > x >= y >= epsilon / 2 and x^2 + y^2 >= 1/2
    (glibc's __x2y2m1 and __x2y2m1f)."""
    raise NotImplementedError("compiled only: called from complex_log")


@overload(_x2y2m1, jit_options=OPTIONS)
def _x2y2m1_typed(x, y):
    return _x2y2m1_single if x == types.float32 else _x2y2m1_double


@njit_checked
def _log_modulus(x, y):
    """log |x + iy| for finite x, y, not both zero, as glibc's clog: log1p of x^2 + y^2 - 1 near
    |z| = 1, log of hypot otherwise, with a power of two taken out near overflow and underflow."""
    one, two, half = one_like(x), _two(x), _half(x)
    big, small = abs(x), abs(y)
    if big < small:
        big, small = small, big
    scale = zero_like(x)
    if big > _largest(x) * half:
        scale = -one
        big = _scaled(big, -1)
        small = _scaled(small, -1) if small >= _smallest_normal(x) * two else zero_like(x)
    elif big < _smallest_normal(x) and small < _smallest_normal(x):
        scale = _mantissa_digits(x)
        big = _scaled(big, int(scale))
        small = _scaled(small, int(scale))
    if scale == 0 and big == one:
        return math.log1p(small * small) / two
    if scale == 0 and one < big < two and small < one:
        d2m1 = (big - one) * (big + one)
        if small >= _epsilon(x):
            d2m1 += small * small
        return math.log1p(d2m1) / two
    if scale == 0 and half <= big < one and small < _epsilon(x) / two:
        return math.log1p((big - one) * (big + one)) / two
    if scale == 0 and half <= big < one and big * big + small * small >= half:
        return math.log1p(_x2y2m1(big, small)) / two
    return math.log(math.hypot(big, small)) - scale * _ln2(x)


@njit_checked
def complex_log(z):
    """log(z) as NumPy's loop computes it: libm's clog (glibc's algorithm in z's float type, with
    libm's log, log1p, hypot and atan2 of that type; C99's special values)."""
    x, y = z.real, z.imag
    if x != x or y != y:
        real = inf_like(x) if math.isinf(x) or math.isinf(y) else nan_like(x)
        return complex_of(real, nan_like(x))
    if x == 0 and y == 0:
        angle = _pi(x) if math.copysign(one_like(x), x) < 0 else zero_like(x)
        return complex_of(-one_like(x) / abs(x), math.copysign(angle, y))
    return complex_of(_log_modulus(x, y), math.atan2(y, x))


@njit_checked
def complex_log2(z):
    """log2(z) as NumPy's loop computes it: each part of clog(z) times log2(e)."""
    w = complex_log(z)
    return complex_of(w.real * _log2_e(w.real), w.imag * _log2_e(w.real))


@njit_checked
def complex_log10(z):
    """log10(z) as NumPy's loop computes it: each part of clog(z) times log10(e)."""
    w = complex_log(z)
    return complex_of(w.real * _log10_e(w.real), w.imag * _log10_e(w.real))
