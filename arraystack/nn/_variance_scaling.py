"""Fans and the variance-scaling family of initializers (arraystack.nn.initializers re-exports both).

Fans follow JAX: the last axis is fan_out, the second to last fan_in, and the product of the others
is the receptive field that multiplies both (a conv kernel is (*window, in, out))."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy

import arraystack as ast
from arraystack import prng

if TYPE_CHECKING:
    from collections.abc import Callable

    from arraystack.typing import NDArray, ShapeLike

    Initializer = Callable[..., NDArray]  # (key, shape, dtype=float32) -> array

# Standard deviation of a standard normal truncated to (-2, 2): dividing by it restores variance 1.
_TRUNCATED_STDDEV = 0.87962566103423978


def compute_fans(shape: ShapeLike, in_axis: int = -2, out_axis: int = -1) -> tuple[int, int]:
    """Compute the fan-in and fan-out of a weight of this shape.

    Parameters
    ----------
    shape : tuple of int
        Weight shape (at least 2 axes).
    in_axis : int, optional
        The input-feature axis.
    out_axis : int, optional
        The output-feature axis.

    Returns
    -------
    tuple of int
        ``(fan_in, fan_out)``: the two axes' sizes times the receptive field (the product of the
        other axes).

    See Also
    --------
    jax.nn.initializers.compute_fans : the function mirrored.
    arraystack.nn.initializers.variance_scaling
    """
    shape = tuple(int(d) for d in shape)
    if len(shape) < 2:
        raise ValueError(
            f"can't compute fan_in/fan_out of a {len(shape)}-dimensional weight of shape {shape}: "
            "variance-scaling initializers need at least 2 axes (use zeros/ones for biases)"
        )
    in_axis, out_axis = in_axis % len(shape), out_axis % len(shape)
    in_size, out_size = shape[in_axis], shape[out_axis]
    receptive_field = math.prod(d for i, d in enumerate(shape) if i not in (in_axis, out_axis))
    return in_size * receptive_field, out_size * receptive_field


def variance_scaling(
    scale: float, mode: str, distribution: str, in_axis: int = -2, out_axis: int = -1
) -> Initializer:
    """Create an initializer with variance ``scale / n``, n the fan-in, fan-out or their mean.

    Parameters
    ----------
    scale : float
        Variance scale.
    mode : {'fan_in', 'fan_out', 'fan_avg'}
        Which n.
    distribution : {'truncated_normal', 'normal', 'uniform'}
        Uniform is on [-l, l) with ``l = sqrt(3 * variance)``; the truncated normal is cut at
        two standard deviations and rescaled.
    in_axis : int, optional
        The input-feature axis.
    out_axis : int, optional
        The output-feature axis.

    Returns
    -------
    callable
        An initializer ``init(key, shape, dtype=float32) -> ndarray``.

    See Also
    --------
    jax.nn.initializers.variance_scaling : the function mirrored (real dtypes).
    arraystack.nn.initializers.glorot_uniform, arraystack.nn.initializers.he_normal
    """
    if mode not in ("fan_in", "fan_out", "fan_avg"):
        raise ValueError(f"invalid variance scaling mode {mode!r} (fan_in, fan_out or fan_avg)")
    if distribution not in ("truncated_normal", "normal", "uniform"):
        raise ValueError(
            f"invalid distribution for variance scaling: {distribution!r} "
            "(truncated_normal, normal or uniform)"
        )

    def init(key, shape, dtype=numpy.float32):
        fan_in, fan_out = compute_fans(shape, in_axis, out_axis)
        if mode == "fan_in":
            denominator = fan_in
        elif mode == "fan_out":
            denominator = fan_out
        else:
            denominator = (fan_in + fan_out) / 2
        variance = scale / max(denominator, 1)
        dtype = numpy.dtype(dtype)
        if distribution == "truncated_normal":
            z = prng.truncated_normal(key, -2.0, 2.0, shape, dtype)
            return z * ast.asarray(math.sqrt(variance) / _TRUNCATED_STDDEV, dtype=dtype)
        if distribution == "normal":
            return prng.normal(key, shape, dtype) * ast.asarray(math.sqrt(variance), dtype=dtype)
        limit = math.sqrt(3.0 * variance)
        return prng.uniform(key, shape, dtype, minval=-limit, maxval=limit)

    return init
