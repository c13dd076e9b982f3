"""complex64/complex128 arithmetic for generated numba kernels, with NumPy's bits.

numba's own complex product rounds each of its four products (NumPy's SIMD loops fuse one of them into an
fma), its quotient divides by the denominator (NumPy multiplies by its reciprocal, and returns inf/nan
for a zero divisor where numba raises), and its abs calls hypot (NumPy's SIMD loop scales by the larger
part). These follow NumPy 2's loops (loops_arithm_fp / loops_unary_complex) operation for operation, so
a kernel's result equals NumPy's bit for bit, special values (inf/nan parts, signed zeros) included.
"""

from __future__ import annotations

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


one_like = _constant_like(1.0)  # the constant in x's float type (a Python 1.0 would be float64)
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
