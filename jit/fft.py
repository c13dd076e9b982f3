"""The discrete Fourier transform primitive, declared once (shape rule and NumPy reference rule).

`fft[fft_type, axes, lengths, norm] x` transforms x over `axes` (distinct, non-negative; for rfft/irfft the
last one is the real axis). fft_type is "fft" or "ifft" (complex -> complex), "rfft" (real -> complex, the
real axis becomes lengths[-1] // 2 + 1 long) or "irfft" (complex -> real, the real axis is lengths[-1]
long and the operand's is lengths[-1] // 2 + 1). `lengths` are the transform lengths; the operand already
has them (the frontend crops or zero-pads, as numpy.fft's `n`/`s` do). norm is NumPy's "backward", "ortho"
or "forward". Dtypes follow NumPy 2: complex64 <-> float32 and complex128 <-> float64.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir.avals import ShapedArray
from arraystack.ir.core import Primitive
from arraystack.ir.primitives import abstract_eval_rules
from arraystack.ir.reference import reference_rules

FFT_TYPES = ("fft", "ifft", "rfft", "irfft")
NORMS = ("backward", "ortho", "forward")
_COMPLEX_OF = {
    np.dtype(np.float32): np.dtype(np.complex64),
    np.dtype(np.float64): np.dtype(np.complex128),
}
_REAL_OF = {c: r for r, c in _COMPLEX_OF.items()}

fft_p = Primitive("fft")


def _fft_rule(x, *, fft_type, axes, lengths, norm):
    where = f"fft[{fft_type}] of {x.str_short()} over axes {tuple(axes)}"
    if fft_type not in FFT_TYPES:
        raise ValueError(f"fft: fft_type must be one of {FFT_TYPES}, got {fft_type!r}")
    if norm not in NORMS:
        raise ValueError(f"{where}: norm must be one of {NORMS}, got {norm!r}")
    if not axes or len(axes) != len(lengths):
        raise ValueError(f"{where}: needs one length per axis and at least one axis, got {lengths}")
    if len(set(axes)) != len(axes) or any(not 0 <= a < x.ndim for a in axes):
        raise ValueError(f"{where}: axes must be distinct axes of the operand")
    if any(n < 1 for n in lengths):
        raise ValueError(f"{where}: transform lengths must be positive, got {tuple(lengths)}")
    real_input = fft_type == "rfft"
    allowed = _COMPLEX_OF if real_input else _REAL_OF
    if x.dtype not in allowed:
        kind = "float32/float64" if real_input else "complex64/complex128"
        raise TypeError(f"{where}: the operand must be {kind}")
    expected = list(lengths)
    if fft_type == "irfft":
        expected[-1] = lengths[-1] // 2 + 1
    got = [x.shape[a] for a in axes]
    if got != expected:
        raise ValueError(
            f"{where}: the operand's transformed axes must be {expected} long, got {got}"
        )
    shape = list(x.shape)
    dtype = x.dtype
    if fft_type == "rfft":
        shape[axes[-1]] = lengths[-1] // 2 + 1
        dtype = _COMPLEX_OF[x.dtype]
    elif fft_type == "irfft":
        shape[axes[-1]] = lengths[-1]
        dtype = _REAL_OF[x.dtype]
    return ShapedArray(tuple(shape), dtype)


abstract_eval_rules[fft_p] = _fft_rule


def _fft_reference(xp, x, *, fft_type, axes, lengths, norm):
    axes = list(axes)
    if fft_type == "fft":
        return xp.fft.fftn(x, axes=axes, norm=norm)
    if fft_type == "ifft":
        return xp.fft.ifftn(x, axes=axes, norm=norm)
    if fft_type == "rfft":
        return xp.fft.rfftn(x, axes=axes, norm=norm)
    return xp.fft.irfftn(x, s=list(lengths), axes=axes, norm=norm)


reference_rules[fft_p] = _fft_reference


def complex_dtype_of(dtype) -> np.dtype:
    """The complex dtype of an FFT of `dtype`, as NumPy 2 picks it (float16/32 -> complex64)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return dtype
    if dtype.kind == "f" and dtype.itemsize <= 4:
        return np.dtype(np.complex64)
    return np.dtype(np.complex128)


def real_dtype_of(dtype) -> np.dtype:
    """The real dtype of the FFT of `dtype`'s real counterpart (float16/32/complex64 -> float32)."""
    return _REAL_OF[complex_dtype_of(dtype)]


__all__ = ["FFT_TYPES", "NORMS", "complex_dtype_of", "fft_p", "real_dtype_of"]
