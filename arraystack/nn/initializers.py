"""Parameter initializers `f(key, shape, dtype=float32) -> array`, after jax.nn.initializers.

Fans follow JAX: the last axis is fan_out, the second to last fan_in, and the product of the others
is the receptive field that multiplies both (a conv kernel is (*window, in, out)). The normal
variants draw a normal truncated to two standard deviations and rescaled to the target variance,
as JAX's do (PyTorch's xavier_normal_/kaiming_normal_ use an untruncated normal: same variance).
"""

from __future__ import annotations

import math

import numpy

import arraystack as ast
from arraystack import prng

# Standard deviation of a standard normal truncated to (-2, 2): dividing by it restores variance 1.
_TRUNCATED_STDDEV = 0.87962566103423978


def compute_fans(shape, in_axis=-2, out_axis=-1):
    """(fan_in, fan_out) of a weight of this shape: axis sizes times the receptive field size."""
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


def variance_scaling(scale, mode, distribution, in_axis=-2, out_axis=-1):
    """An initializer with variance scale / n, n = fan_in, fan_out or their mean (fan_avg).

    distribution: "truncated_normal", "normal" or "uniform" (on [-l, l) with l = sqrt(3 variance)).
    Mirrors jax.nn.initializers.variance_scaling for real dtypes.
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


_glorot_uniform = variance_scaling(1.0, "fan_avg", "uniform")


def glorot_uniform(key, shape, dtype=numpy.float32):
    """Uniform with variance 2 / (fan_in + fan_out) (Glorot & Bengio 2010)."""
    return _glorot_uniform(key, shape, dtype)


_glorot_normal = variance_scaling(1.0, "fan_avg", "truncated_normal")


def glorot_normal(key, shape, dtype=numpy.float32):
    """Truncated normal with variance 2 / (fan_in + fan_out)."""
    return _glorot_normal(key, shape, dtype)


_he_uniform = variance_scaling(2.0, "fan_in", "uniform")


def he_uniform(key, shape, dtype=numpy.float32):
    """Uniform with variance 2 / fan_in (He et al. 2015, for ReLU layers)."""
    return _he_uniform(key, shape, dtype)


_he_normal = variance_scaling(2.0, "fan_in", "truncated_normal")


def he_normal(key, shape, dtype=numpy.float32):
    """Truncated normal with variance 2 / fan_in (He et al. 2015)."""
    return _he_normal(key, shape, dtype)


_lecun_uniform = variance_scaling(1.0, "fan_in", "uniform")


def lecun_uniform(key, shape, dtype=numpy.float32):
    """Uniform with variance 1 / fan_in (LeCun 1998)."""
    return _lecun_uniform(key, shape, dtype)


_lecun_normal = variance_scaling(1.0, "fan_in", "truncated_normal")


def lecun_normal(key, shape, dtype=numpy.float32):
    """Truncated normal with variance 1 / fan_in (LeCun 1998; SELU nets)."""
    return _lecun_normal(key, shape, dtype)


xavier_uniform = glorot_uniform  # PyTorch's names
xavier_normal = glorot_normal
kaiming_uniform = he_uniform
kaiming_normal = he_normal


def zeros(key, shape, dtype=numpy.float32):
    """All zeros (the key is ignored)."""
    del key
    return ast.zeros(shape, dtype=dtype)


def ones(key, shape, dtype=numpy.float32):
    """All ones (the key is ignored)."""
    del key
    return ast.ones(shape, dtype=dtype)


def constant(value):
    """An initializer filling every element with value."""

    def init(key, shape, dtype=numpy.float32):
        del key
        return ast.full(shape, value, dtype=dtype)

    return init


def normal(stddev=1e-2):
    """An initializer drawing N(0, stddev**2) (jax.nn.initializers.normal)."""

    def init(key, shape, dtype=numpy.float32):
        return prng.normal(key, shape, dtype) * ast.asarray(stddev, dtype=dtype)

    return init


def uniform(scale=1e-2):
    """An initializer drawing from [0, scale) (jax.nn.initializers.uniform)."""

    def init(key, shape, dtype=numpy.float32):
        return prng.uniform(key, shape, dtype, minval=0.0, maxval=scale)

    return init


__all__ = [
    "compute_fans",
    "constant",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "kaiming_normal",
    "kaiming_uniform",
    "lecun_normal",
    "lecun_uniform",
    "normal",
    "ones",
    "uniform",
    "variance_scaling",
    "xavier_normal",
    "xavier_uniform",
    "zeros",
]
