"""Import rules of ONNX's signal operators (DFT, STFT, the Hann, Hamming and Blackman windows and
MelWeightMatrix), against `xp`.

Convention: interpreter.py. ONNX holds a signal as real numbers with one more axis at the end: of
length 1 for a real signal, of length 2 for a complex one as (real, imaginary) pairs; a transform's
output is such pairs too (length 2), except the inverse of a one-sided spectrum, which is real
(length 1). DFT transforms along `axis` (an attribute before opset 20, default 1; an input since,
default -2; never the last axis) with `dft_length` samples: the axis is cut to that length or
zero-padded to it. `inverse` divides by the length; `onesided` keeps the bins 0..n//2 of the forward
transform of a real signal (an rfft), and reads such a one-sided spectrum for an inverse one (an
irfft, to a real signal whose length defaults to 2 * (bins - 1)). STFT cuts the (batch, length, 1 or
2) signal into frames of `frame_length` samples (the window's length, else the whole signal) every
`frame_step` samples, floor((length - frame_length) / frame_step) + 1 of them, multiplies each by the
window (ones when omitted) and transforms it, one-sided (for a real signal only) unless `onesided` is
0. The transforms run through arraystack.fft, so they are differentiable and compile under `jit`: in
float64 for float64 signals, in float32 for the others, the result cast back to the input's dtype, as
ONNX's reference computes with NumPy. Lengths, axes and steps must be known when tracing.

The windows are cosine sums w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N) over n < size, with
N = size when `periodic` (the default) and size - 1 otherwise; a symmetric window of one sample, where
that divides by zero, is [1]. They, and MelWeightMatrix, depend on sizes only, so they are computed in
float64 with NumPy while the function is built, and cast to `output_datatype` (default float).
MelWeightMatrix follows ONNX's reference: num_mel_bins + 2 edges evenly spaced in mel
(mel(f) = 2595 log10(1 + f / 700)) from lower_edge_hertz by (upper - lower) / (num_mel_bins + 2), each
mapped to the spectrogram bin floor((dft_length + 1) f / sample_rate); band i rises linearly from its
edge i to a peak of 1 at edge i + 1 and falls to 0 at edge i + 2, over dft_length // 2 + 1 rows.
"""

from __future__ import annotations

import math

import numpy

signal_rules: dict = {}


def _dtype_of(node, code):
    """The NumPy dtype of ONNX's TensorProto data type `code`."""
    from onnx import helper

    try:
        return numpy.dtype(helper.tensor_dtype_to_np_dtype(int(code)))
    except (KeyError, TypeError, ValueError) as e:
        raise node.error(f"output_datatype {code!r} is not a data type") from e


def _scalar(node, value, what):
    """An integer operand that must be known when tracing (a length, a step, an axis)."""
    v = node.static(value, what)
    if v.size != 1:
        raise node.error(f"{what} must be a scalar, got shape {v.shape}")
    return int(v.reshape(()))


def _signal(node, x):
    """The signal `x` holds, without its trailing (real[, imaginary]) axis: a real array for a length of
    1, a complex one for 2, in float64 for a float64 `x` and float32 otherwise; and whether complex."""
    shape = numpy.shape(x)
    if len(shape) < 2 or shape[-1] not in (1, 2):
        raise node.error(
            f"the signal's last axis must be of length 1 (real) or 2 (complex), got shape {shape}"
        )
    work = numpy.float64 if numpy.dtype(x.dtype) == numpy.float64 else numpy.float32
    if numpy.dtype(x.dtype) != work:
        x = x.astype(work)
    if shape[-1] == 1:
        return x[..., 0], False
    return x[..., 0] + 1j * x[..., 1], True


def _pairs(xp, z, dtype):
    """Complex `z` as (real, imaginary) pairs on a new last axis, in `dtype`."""
    return xp.stack([xp.real(z), xp.imag(z)], axis=-1).astype(dtype)


def _transform(xp, node, z, is_complex, n, axis, inverse, onesided, dtype):
    """The DFT of signal `z` (from _signal) along `axis` with `n` samples, as ONNX's output in `dtype`."""
    if onesided and is_complex != inverse:
        raise node.error(
            f"a one-sided {'inverse ' if inverse else ''}DFT takes a "
            f"{'complex spectrum' if inverse else 'real signal'} (last axis of length "
            f"{2 if inverse else 1})"
        )
    if inverse and onesided:
        return xp.expand_dims(xp.fft.irfft(z, n=n, axis=axis), -1).astype(dtype)
    if inverse:
        return _pairs(xp, xp.fft.ifft(z, n=n, axis=axis), dtype)
    if onesided:
        return _pairs(xp, xp.fft.rfft(z, n=n, axis=axis), dtype)
    return _pairs(xp, xp.fft.fft(z, n=n, axis=axis), dtype)


def _dft(xp, node, x, dft_length=None, axis=None):
    rank = numpy.ndim(x)
    if node.opset >= 20:
        axis = -2 if axis is None else _scalar(node, axis, "axis")
    else:
        axis = int(node.attr("axis", 1))
    if not (-rank <= axis < rank) or axis % rank == rank - 1:
        raise node.error(
            f"axis {axis} is not a signal axis of an input of rank {rank} (the last axis holds "
            "the real and imaginary parts)"
        )
    axis %= rank
    inverse = bool(node.attr("inverse", 0))
    onesided = bool(node.attr("onesided", 0))
    z, is_complex = _signal(node, x)
    if dft_length is not None:
        n = _scalar(node, dft_length, "dft_length")
    elif inverse and onesided:
        n = 2 * (numpy.shape(x)[axis] - 1)
    else:
        n = numpy.shape(x)[axis]
    if n < 1:
        raise node.error(f"dft_length must be positive, got {n}")
    return _transform(xp, node, z, is_complex, n, axis, inverse, onesided, numpy.dtype(x.dtype))


def _stft(xp, node, signal, frame_step, window=None, frame_length=None):
    shape = numpy.shape(signal)
    if len(shape) != 3:
        raise node.error(f"the signal must be (batch, length, 1 or 2), got shape {shape}")
    length = shape[1]
    step = _scalar(node, frame_step, "frame_step")
    if frame_length is not None:
        n = _scalar(node, frame_length, "frame_length")
    elif window is not None:
        n = numpy.shape(window)[0] if numpy.ndim(window) == 1 else -1
    else:
        n = length
    if window is not None and numpy.shape(window) != (n,):
        raise node.error(
            f"the window must be 1-D, of frame_length {n} samples; got shape {numpy.shape(window)}"
        )
    if step < 1 or not 1 <= n <= length:
        raise node.error(
            f"frame_step ({step}) must be positive and frame_length ({n}) in 1..{length}, the "
            "signal's length"
        )
    frames = 1 + (length - n) // step
    index = numpy.arange(frames)[:, None] * step + numpy.arange(n)
    framed = xp.take(signal, index, axis=1)  # (batch, frames, n, 1 or 2)
    if window is not None:
        framed = framed * xp.reshape(window.astype(framed.dtype), (n, 1))
    z, is_complex = _signal(node, framed)
    onesided = bool(node.attr("onesided", 1))
    return _transform(xp, node, z, is_complex, n, 2, False, onesided, numpy.dtype(signal.dtype))


def _cosine_window(coefficients):
    """The rule of the window sum_k (-1)^k a_k cos(2 pi k n / N), a_k the `coefficients`."""

    def rule(xp, node, size):
        m = _scalar(node, size, "size")
        if m < 0:
            raise node.error(f"the window's size must not be negative, got {m}")
        dtype = _dtype_of(node, node.attr("output_datatype", 1))
        period = m if node.attr("periodic", 1) else m - 1
        if period < 1:
            return numpy.ones(m, dtype)
        phase = 2 * math.pi * numpy.arange(m, dtype=numpy.float64) / period
        w = sum((-1) ** k * a * numpy.cos(k * phase) for k, a in enumerate(coefficients))
        return w.astype(dtype)

    return rule


def _mel_edges(lower, upper, count):
    """`count` frequencies (Hz) evenly spaced in mel from `lower` by (upper - lower) / count in mel."""

    def mel(hz):  # the logarithm in the edges' own precision, as ONNX's reference takes it
        return 2595 * numpy.log1p(hz / 700).astype(numpy.float64) / math.log(10)

    low = mel(lower)
    step = (mel(upper) - low) / count
    return 700 * numpy.expm1((numpy.arange(count) * step + low) / 2595 * math.log(10))


def _mel_weight_matrix(xp, node, num_mel_bins, dft_length, sample_rate, lower, upper):
    bands = _scalar(node, num_mel_bins, "num_mel_bins")
    n = _scalar(node, dft_length, "dft_length")
    rate = node.static(sample_rate, "sample_rate").reshape(())
    if bands < 1 or n < 1 or rate <= 0:
        raise node.error(
            f"num_mel_bins ({bands}), dft_length ({n}) and sample_rate ({rate}) must be positive"
        )
    lower = node.static(lower, "lower_edge_hertz").reshape(())
    upper = node.static(upper, "upper_edge_hertz").reshape(())
    hz = _mel_edges(lower, upper, bands + 2)
    edges = ((n + 1) * hz // rate).astype(numpy.int64)
    left, center, right = edges[:-2], edges[1:-1], edges[2:]
    j = numpy.arange(n // 2 + 1)[:, None]
    with numpy.errstate(divide="ignore", invalid="ignore"):
        rise = numpy.where(center > left, (j - left) / (center - left), 1.0)
        fall = (right - j) / (right - center)
    weights = numpy.where(
        (left <= j) & (j <= center), rise, numpy.where((center < j) & (j < right), fall, 0.0)
    )
    return weights.astype(_dtype_of(node, node.attr("output_datatype", 1)))


signal_rules["DFT"] = _dft
signal_rules["STFT"] = _stft
signal_rules["HannWindow"] = _cosine_window((0.5, 0.5))
signal_rules["HammingWindow"] = _cosine_window((25 / 46, 21 / 46))
signal_rules["BlackmanWindow"] = _cosine_window((0.42, 0.5, 0.08))
signal_rules["MelWeightMatrix"] = _mel_weight_matrix

__all__ = ["signal_rules"]
