"""Derivatives and batching of the fft primitive (jit/fft.py).

The DFT is linear, so the JVP is the same transform of the tangent. VJPs are transposes for the bilinear
pairing Re(sum(u * v)) (JAX's convention, see reverse.py). The DFT matrix F (with any of NumPy's norms,
applied per axis) is symmetric, so fft and ifft are their own transposes. rfft is F restricted to real
input and cropped to the first n // 2 + 1 frequencies along the real axis: its transpose zero-pads the
cotangent back to n, applies F and keeps the real part. irfft reads a half spectrum X as the Hermitian
full spectrum (imaginary parts of X[0] and, for even n, X[n / 2] ignored) and applies F^-1: its transpose
is conj(rfft(u)) with the reciprocal scale (the norm with its direction swapped), doubled at the
frequencies that stand for two of the full spectrum (all but 0 and n / 2).
"""

from __future__ import annotations

import numpy as np
from arraystack.ir import structural as s
from arraystack.ir.ad import ops
from arraystack.ir.ad.batching import batch_rules
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import vjp_rules
from arraystack.ir.fft import fft_p

_SWAPPED_NORM = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _fft(x, fft_type, axes, lengths, norm):
    return fft_p.bind(x, fft_type=fft_type, axes=tuple(axes), lengths=tuple(lengths), norm=norm)


def _fft_jvp(primals, tangents, out, *, fft_type, axes, lengths, norm):
    return _fft(tangents[0], fft_type, axes, lengths, norm)


def _rfft_transpose(ct, axes, lengths, norm):
    shape = ops.shape(ct)
    last = axes[-1]
    config = [(0, 0, 0)] * len(shape)
    config[last] = (0, lengths[-1] - shape[last], 0)
    padded = s.pad_p.bind(ct, ops.const(ct, 0), padding_config=tuple(config))
    return ops.real(_fft(padded, "fft", axes, lengths, norm))


def _irfft_transpose(ct, axes, lengths, norm):
    half = ops.conj(_fft(ct, "rfft", axes, lengths, _SWAPPED_NORM[norm]))
    n = lengths[-1]
    m = n // 2 + 1
    weights = np.full(m, 2.0, dtype=ops.dtype(half))
    weights[0] = 1
    if n % 2 == 0:
        weights[-1] = 1
    shape = ops.shape(half)
    return ops.mul(half, ops.broadcast_in_dim(weights, shape, (axes[-1],)))


def _fft_vjp(ct, out, needs, x, *, fft_type, axes, lengths, norm):
    if fft_type == "rfft":
        return [_rfft_transpose(ct, axes, lengths, norm)]
    if fft_type == "irfft":
        return [_irfft_transpose(ct, axes, lengths, norm)]
    return [_fft(ct, fft_type, axes, lengths, norm)]


def _fft_batch(size, args, batched, *, fft_type, axes, lengths, norm):
    return _fft(args[0], fft_type, tuple(a + 1 for a in axes), lengths, norm)


jvp_rules[fft_p] = _fft_jvp
vjp_rules[fft_p] = _fft_vjp
batch_rules[fft_p] = _fft_batch
