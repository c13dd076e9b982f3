"""Parameter initializers `f(key, shape, dtype=float32) -> array`, after jax.nn.initializers.

Fans follow JAX: the last axis is fan_out, the second to last fan_in, and the product of the others
is the receptive field that multiplies both (a conv kernel is (*window, in, out)). The normal
variants draw a normal truncated to two standard deviations and rescaled to the target variance,
as JAX's do (PyTorch's xavier_normal_/kaiming_normal_ use an untruncated normal: same variance).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

import arraystack as ast
from arraystack import prng
from arraystack.nn._variance_scaling import compute_fans, variance_scaling

if TYPE_CHECKING:
    from collections.abc import Callable

    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike

    Initializer = Callable[..., NDArray]  # (key, shape, dtype=float32) -> array


_glorot_uniform = variance_scaling(1.0, "fan_avg", "uniform")


def glorot_uniform(key: ArrayLike, shape: ShapeLike, dtype: DTypeLike = numpy.float32) -> NDArray:
    """Draw uniform weights with variance ``2 / (fan_in + fan_out)``.

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    shape : tuple of int
        Shape of the weight; at least 2 axes (the last is fan_out, the one before fan_in).
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        The weights.

    See Also
    --------
    jax.nn.initializers.glorot_uniform : the initializer mirrored.
    torch.nn.init.xavier_uniform_ : the PyTorch equivalent,
        also available as arraystack.nn.initializers.xavier_uniform.
    arraystack.nn.initializers.variance_scaling

    Notes
    -----
    Variance 2 / (fan_in + fan_out) (Glorot & Bengio 2010).
    """
    return _glorot_uniform(key, shape, dtype)


_glorot_normal = variance_scaling(1.0, "fan_avg", "truncated_normal")


def glorot_normal(key: ArrayLike, shape: ShapeLike, dtype: DTypeLike = numpy.float32) -> NDArray:
    """Draw truncated-normal weights with variance ``2 / (fan_in + fan_out)``.

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    shape : tuple of int
        Shape of the weight; at least 2 axes (the last is fan_out, the one before fan_in).
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        The weights.

    See Also
    --------
    jax.nn.initializers.glorot_normal : the initializer mirrored.
    torch.nn.init.xavier_normal_ : the PyTorch equivalent,
        also available as arraystack.nn.initializers.xavier_normal.
    arraystack.nn.initializers.variance_scaling

    Notes
    -----
    Variance 2 / (fan_in + fan_out) (Glorot & Bengio 2010). A normal truncated to two standard
    deviations, rescaled to the target variance, as JAX's (PyTorch's is untruncated, with the
    same variance).
    """
    return _glorot_normal(key, shape, dtype)


_he_uniform = variance_scaling(2.0, "fan_in", "uniform")


def he_uniform(key: ArrayLike, shape: ShapeLike, dtype: DTypeLike = numpy.float32) -> NDArray:
    """Draw uniform weights with variance ``2 / fan_in`` (for ReLU layers).

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    shape : tuple of int
        Shape of the weight; at least 2 axes (the last is fan_out, the one before fan_in).
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        The weights.

    See Also
    --------
    jax.nn.initializers.he_uniform : the initializer mirrored.
    torch.nn.init.kaiming_uniform_ : the PyTorch equivalent,
        also available as arraystack.nn.initializers.kaiming_uniform.
    arraystack.nn.initializers.variance_scaling

    Notes
    -----
    Variance 2 / fan_in (He et al. 2015).
    """
    return _he_uniform(key, shape, dtype)


_he_normal = variance_scaling(2.0, "fan_in", "truncated_normal")


def he_normal(key: ArrayLike, shape: ShapeLike, dtype: DTypeLike = numpy.float32) -> NDArray:
    """Draw truncated-normal weights with variance ``2 / fan_in`` (for ReLU layers).

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    shape : tuple of int
        Shape of the weight; at least 2 axes (the last is fan_out, the one before fan_in).
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        The weights.

    See Also
    --------
    jax.nn.initializers.he_normal : the initializer mirrored.
    torch.nn.init.kaiming_normal_ : the PyTorch equivalent,
        also available as arraystack.nn.initializers.kaiming_normal.
    arraystack.nn.initializers.variance_scaling

    Notes
    -----
    Variance 2 / fan_in (He et al. 2015). A normal truncated to two standard deviations,
    rescaled to the target variance, as JAX's (PyTorch's is untruncated, with the same
    variance).
    """
    return _he_normal(key, shape, dtype)


_lecun_uniform = variance_scaling(1.0, "fan_in", "uniform")


def lecun_uniform(key: ArrayLike, shape: ShapeLike, dtype: DTypeLike = numpy.float32) -> NDArray:
    """Draw uniform weights with variance ``1 / fan_in``.

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    shape : tuple of int
        Shape of the weight; at least 2 axes (the last is fan_out, the one before fan_in).
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        The weights.

    See Also
    --------
    jax.nn.initializers.lecun_uniform : the initializer mirrored.
    arraystack.nn.initializers.variance_scaling

    Notes
    -----
    Variance 1 / fan_in (LeCun 1998).
    """
    return _lecun_uniform(key, shape, dtype)


_lecun_normal = variance_scaling(1.0, "fan_in", "truncated_normal")


def lecun_normal(key: ArrayLike, shape: ShapeLike, dtype: DTypeLike = numpy.float32) -> NDArray:
    """Draw truncated-normal weights with variance ``1 / fan_in`` (SELU networks).

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    shape : tuple of int
        Shape of the weight; at least 2 axes (the last is fan_out, the one before fan_in).
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        The weights.

    See Also
    --------
    jax.nn.initializers.lecun_normal : the initializer mirrored.
    arraystack.nn.initializers.variance_scaling

    Notes
    -----
    Variance 1 / fan_in (LeCun 1998). A normal truncated to two standard deviations, rescaled to
    the target variance, as JAX's (PyTorch's is untruncated, with the same variance).
    """
    return _lecun_normal(key, shape, dtype)


xavier_uniform = glorot_uniform  # PyTorch's names
xavier_normal = glorot_normal
kaiming_uniform = he_uniform
kaiming_normal = he_normal


def zeros(key: ArrayLike, shape: ShapeLike, dtype: DTypeLike = numpy.float32) -> NDArray:
    """Initialize with zeros (the key is ignored).

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    shape : tuple of int
        Shape of the result.
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        Zeros.

    See Also
    --------
    jax.nn.initializers.zeros : the initializer mirrored.
    arraystack.nn.initializers.ones
    """
    del key
    return ast.zeros(shape, dtype=dtype)


def ones(key: ArrayLike, shape: ShapeLike, dtype: DTypeLike = numpy.float32) -> NDArray:
    """Initialize with ones (the key is ignored).

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    shape : tuple of int
        Shape of the result.
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        Ones.

    See Also
    --------
    jax.nn.initializers.ones : the initializer mirrored.
    arraystack.nn.initializers.zeros
    """
    del key
    return ast.ones(shape, dtype=dtype)


def constant(value: ArrayLike) -> Initializer:
    """Create an initializer filling every element with `value`.

    Parameters
    ----------
    value : scalar
        The fill value.

    Returns
    -------
    callable
        An initializer ``init(key, shape, dtype=float32) -> ndarray``.

    See Also
    --------
    jax.nn.initializers.constant : the function mirrored.
    arraystack.nn.initializers.zeros
    """

    def init(key, shape, dtype=numpy.float32):
        del key
        return ast.full(shape, value, dtype=dtype)

    return init


def normal(stddev: float = 1e-2) -> Initializer:
    """Create an initializer drawing from ``N(0, stddev**2)``.

    Parameters
    ----------
    stddev : float, optional
        Standard deviation.

    Returns
    -------
    callable
        An initializer ``init(key, shape, dtype=float32) -> ndarray``.

    See Also
    --------
    jax.nn.initializers.normal : the function mirrored.
    arraystack.prng.normal
    """

    def init(key, shape, dtype=numpy.float32):
        return prng.normal(key, shape, dtype) * ast.asarray(stddev, dtype=dtype)

    return init


def uniform(scale: float = 1e-2) -> Initializer:
    """Create an initializer drawing uniformly from ``[0, scale)``.

    Parameters
    ----------
    scale : float, optional
        Upper bound.

    Returns
    -------
    callable
        An initializer ``init(key, shape, dtype=float32) -> ndarray``.

    See Also
    --------
    jax.nn.initializers.uniform : the function mirrored.
    arraystack.prng.uniform
    """

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
