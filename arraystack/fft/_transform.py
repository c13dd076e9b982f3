"""The machinery of arraystack.fft: argument handling as numpy.fft's, then one `fft` primitive.

Every transform lowers to the `fft` primitive (jit/fft.py): the operand is converted to NumPy's dtype
(float16/float32 -> complex64, other real inputs -> complex128), cropped or zero-padded to `n`/`s` along
each axis, then transformed over all axes in one primitive, so the results are numpy.fft's, eagerly and
under jit, and grad/vmap go through the primitive's rules. fftfreq, rfftfreq, fftshift and ifftshift are
compositions.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

from arraystack._core.array import ndarray, raw, wrap
from arraystack._core.operands import convert_raw, shape_of
from arraystack._core.shapes import normalize_axis
from arraystack._creation.basic import asarray
from arraystack._transforms import result_layouts
from arraystack.ir.core import bind
from arraystack.ir.fft import complex_dtype_of, fft_p, real_dtype_of
from arraystack.ir.structural import pad_p, slice_p

_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _check_norm(norm):
    if norm not in _SWAP:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')
    return norm or "backward"


def _fit(x, axis, n):
    """Crop or zero-pad `x` along `axis` to length n, as numpy.fft's `n` does."""
    shape = shape_of(x)
    have = shape[axis]
    if have > n:
        limits = shape[:axis] + (n,) + shape[axis + 1 :]
        return bind(
            slice_p,
            x,
            start_indices=(0,) * len(shape),
            limit_indices=limits,
            strides=(1,) * len(shape),
        )
    if have < n:
        config = [(0, 0, 0)] * len(shape)
        config[axis] = (0, n - have, 0)
        zero = np.dtype(x.dtype).type(0)
        return bind(pad_p, x, zero, padding_config=tuple(config))
    return x


def _step(x, kind, axes, lengths, norm):
    """One fft primitive over distinct `axes`, after fitting the operand to `lengths`."""
    for i, (axis, n) in enumerate(zip(axes, lengths)):
        x = _fit(x, axis, n // 2 + 1 if kind == "irfft" and i == len(axes) - 1 else n)
    return bind(fft_p, x, fft_type=kind, axes=tuple(axes), lengths=tuple(lengths), norm=norm)


_FORWARD = ("fft", "rfft")


def _scales(kind, norm) -> bool:
    """Whether a `kind` transform with `norm` multiplies by a factor (1/n or 1/sqrt(n))."""
    return norm == "ortho" or (norm == "forward") == (kind in _FORWARD)


def _half_first_step(x, kind, axis, n, norm):
    """numpy.fft's transform of a float16 operand: the factor is computed in the operand's float16
    (reciprocal(n) or reciprocal(sqrt(n)), as numpy.fft's `fct`), then applied to the unnormalized
    complex64 (or float32) transform."""
    unscaled = _step(x, kind, [axis], [n], "backward" if kind in _FORWARD else "forward")
    if norm == "ortho":
        factor = np.reciprocal(np.sqrt(n, dtype=np.float16))
    else:
        factor = np.reciprocal(n, dtype=np.float16)
    return (wrap(unscaled) * np.float32(factor))._value


def _transform(a, kind, lengths, axes, norm, out):
    """The `kind` transform of ndarray `a` with resolved lengths and axes (NumPy's per-axis order)."""
    for n in lengths:
        if operator.index(n) < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    norm = _check_norm(norm)
    axes = [normalize_axis(ax, a.ndim) for ax in axes]
    lengths = [operator.index(n) for n in lengths]
    if kind == "rfft":
        if a.dtype.kind == "c":
            raise TypeError(f"rfft is not defined for complex input ({a.dtype}); use fft")
        x = convert_raw(raw(a), real_dtype_of(a.dtype))
    else:
        x = convert_raw(raw(a), complex_dtype_of(a.dtype))
    half = a.dtype == np.float16  # numpy.fft's first transform normalizes in float16
    if len(set(axes)) == len(axes) and not (half and _scales(kind, norm)):
        x = _step(x, kind, axes, lengths, norm)
    else:  # one transform at a time, in numpy.fft's order
        steps = list(zip(axes, lengths))
        if kind in ("fft", "ifft"):
            order = [(kind, step) for step in reversed(steps)]
        elif kind == "rfft":
            order = [("rfft", steps[-1])] + [("fft", step) for step in reversed(steps[:-1])]
        else:
            order = [("ifft", step) for step in steps[:-1]] + [("irfft", steps[-1])]
        for i, (k, (axis, n)) in enumerate(order):
            if i == 0 and half and _scales(k, norm):
                x = _half_first_step(x, k, axis, n, norm)
            else:
                x = _step(x, k, [axis], [n], norm)
    if kind == "irfft" and a.dtype == np.float16 and len(axes) == 1:
        # Note: NumPy's irfft writes the result of float16 input as float16; its irfftn over two
        # axes or more runs ifft first, whose complex64 result gives float32
        x = convert_raw(x, np.float16)
    # NumPy's result is empty_like(a, shape=...): in a's memory order
    return _store(result_layouts.like(a, wrap(x)), out)


def _store(result, out):
    if out is None:
        return result
    if not isinstance(out, ndarray) or out.shape != result.shape:
        raise ValueError("output array has wrong shape.")
    if out.dtype != result.dtype:
        # Note: NumPy also accepts an `out` of another dtype it can cast to; arraystack needs the exact one
        raise TypeError(f"out must have the result's dtype {result.dtype}, got {out.dtype}")
    out[...] = result
    return out


def _one(a, n, axis, norm, out, kind):
    a = asarray(a)
    if n is None:
        n = a.shape[axis]
        if kind == "irfft":
            n = (n - 1) * 2
    return _transform(a, kind, [n], [axis], norm, out)


def _cook_nd_args(a, s, axes, invreal=False):
    """Mirrors numpy.fft's argument handling for the n-dimensional transforms (warnings included)."""
    shapeless = s is None
    if shapeless:
        s = list(a.shape) if axes is None else [a.shape[ax] for ax in axes]
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn(
                "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). Pass a "
                "sequence [0, ..., k-1] to `axes` for an array of dimension k.",
                DeprecationWarning,
                stacklevel=4,
            )
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn(
            "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0; pass the "
            "length of each transformed axis.",
            DeprecationWarning,
            stacklevel=4,
        )
    s = [a.shape[ax] if n == -1 else n for n, ax in zip(s, axes)]
    for i, (n, ax) in enumerate(zip(s, axes)):
        if n is None:
            n = a.shape[ax]
            s[i] = (n - 1) * 2 if invreal and i == len(s) - 1 else n
    return s, axes


def _nd(a, s, axes, norm, out, kind):
    a = asarray(a)
    s, axes = _cook_nd_args(a, s, axes, invreal=kind == "irfft")
    if not axes:
        if kind in ("rfft", "irfft"):
            raise IndexError("list index out of range")
        return a  # numpy.fft.fftn over no axes returns its input unchanged
    return _transform(a, kind, s, axes, norm, out)


def _check_swap(norm):
    _check_norm(norm)
    return _SWAP[norm]
