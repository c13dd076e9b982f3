"""Continuous distributions of arraystack.prng: uniform, normal, truncated_normal, gumbel."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy

import arraystack as xp
from arraystack._core.devices import constants_on_operand_device
from arraystack.prng._keys import _blocks, _shape_tuple, _u32, split
from arraystack.scipy._normal import GILES_CENTRAL, GILES_TAIL

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike


def _float_dtype(dtype):
    dtype = numpy.dtype(dtype)
    if dtype not in (numpy.float32, numpy.float64):
        raise TypeError(f"arraystack.prng draws float32 or float64 values, got {dtype}")
    return dtype


def _unit_uniform(key, shape, dtype):
    """Values k * 2**-m in [0, 1) from the top m mantissa bits of the random bits (m = 23 or 52).

    The same numbers as JAX's bitcast of (bits >> (nbits - m)) | bits(1.0) minus 1, computed by
    exact integer-to-float conversions instead of a bitcast (arraystack has no bitcast primitive).
    """
    y0, y1 = _blocks(key, shape)
    if dtype == numpy.float32:
        return ((y0 ^ y1) >> _u32(9)).astype(xp.float32) * numpy.float32(2.0**-23)
    high = y0.astype(xp.float64) * 2.0**-32
    return high + (y1 >> _u32(12)).astype(xp.float64) * 2.0**-52


@constants_on_operand_device
def uniform(
    key: ArrayLike,
    shape: ShapeLike = (),
    dtype: DTypeLike = numpy.float32,
    minval: ArrayLike = 0.0,
    maxval: ArrayLike = 1.0,
) -> NDArray:
    """Draw uniform floats in ``[minval, maxval)``.

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    shape : int or tuple of int, optional
        Shape of the result.
    dtype : dtype, optional
        Floating dtype of the result (default float32).
    minval : float or array_like, optional
        Lower bound (inclusive), broadcast to `shape`.
    maxval : float or array_like, optional
        Upper bound (exclusive), broadcast to `shape`.

    Returns
    -------
    ndarray
        Uniform samples of `shape` and `dtype`.

    See Also
    --------
    jax.random.uniform : the function mirrored.
    numpy.random.Generator.uniform : NumPy's stateful counterpart.
    arraystack.prng.normal

    Notes
    -----
    A pure function of `key`: the same key gives the same values, eagerly, under `jit` and under
    `vmap` (over a batch of keys). Reusing a key reuses its randomness: `split` it instead. The
    default dtype is float32, as in JAX (NumPy's is float64). The result is clamped below
    `maxval`, where JAX can round up to it.

    Examples
    --------
    >>> import arraystack as np
    >>> x = np.prng.uniform(np.prng.key(0), (3,))
    >>> x.shape, x.dtype, bool(((x >= 0) & (x < 1)).all())
    ((3,), dtype('float32'), True)
    """
    dtype = _float_dtype(dtype)
    shape = _shape_tuple(shape)
    lo = xp.asarray(minval, dtype=dtype)
    hi = xp.asarray(maxval, dtype=dtype)
    unit = _unit_uniform(key, shape, dtype)
    values = xp.maximum(lo, unit * (hi - lo) + lo)
    # Note: JAX can round up to maxval when maxval - minval is not a power of two; clamp to keep
    # the interval half-open (no change for the default [0, 1)).
    return xp.broadcast_to(xp.minimum(values, xp.nextafter(hi, lo)), shape)


@constants_on_operand_device
def normal(key: ArrayLike, shape: ShapeLike = (), dtype: DTypeLike = numpy.float32) -> NDArray:
    """Draw standard normal floats (Box-Muller transform).

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    shape : int or tuple of int, optional
        Shape of the result.
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        Standard normal samples of `shape` and `dtype`.

    See Also
    --------
    jax.random.normal : the function mirrored.
    numpy.random.Generator.standard_normal : NumPy's stateful counterpart.
    arraystack.prng.truncated_normal

    Notes
    -----
    A pure function of `key`: the same key gives the same values, eagerly, under `jit` and under
    `vmap` (over a batch of keys). Reusing a key reuses its randomness: `split` it instead.
    Values differ from JAX's, which inverts erf: ``z = sqrt(-2 log(1 - u1)) cos(2 pi u2)`` with
    u1, u2 from two subkeys; 1 - u1 lies in (0, 1], so the log is finite. The tails end where 1
    - u1 is smallest: ``|z| <= 5.65`` in float32 and ``<= 8.49`` in float64 (probabilities
    1.6e-8 and 2e-17 beyond those).
    """
    dtype = _float_dtype(dtype)
    k1, k2 = split(key)
    u1 = _unit_uniform(k1, shape, dtype)
    u2 = _unit_uniform(k2, shape, dtype)
    one = xp.asarray(1.0, dtype=dtype)
    radius = xp.sqrt(xp.asarray(-2.0, dtype=dtype) * xp.log(one - u1))
    return radius * xp.cos(xp.asarray(2.0 * math.pi, dtype=dtype) * u2)


# Giles' single-precision erfinv (arraystack/scipy/_normal.py holds the coefficients), which XLA uses
# for float32 erf_inv. Relative error below 4e-7 for |y| <= 1 - 1e-7 (|erfinv| <= 3.77), in float64
# too (no refinement); beyond that, float64 loses accuracy (1e-5 at 1 - 1e-8, 7e-3 at 1 - 1e-12).


def _horner(coefficients, w):
    p = xp.full_like(w, coefficients[0])
    for c in coefficients[1:]:
        p = p * w + c
    return p


def _erfinv(y):
    w = -xp.log((1.0 - y) * (1.0 + y))
    central = _horner(GILES_CENTRAL, w - 2.5)
    tail = _horner(GILES_TAIL, xp.sqrt(w) - 3.0)
    return xp.where(w < 5.0, central, tail) * y


@constants_on_operand_device
def truncated_normal(
    key: ArrayLike,
    lower: float,
    upper: float,
    shape: ShapeLike = (),
    dtype: DTypeLike = numpy.float32,
) -> NDArray:
    """Draw standard normal values conditioned on ``lower < z < upper``.

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    lower : float
        Lower bound (a Python number; JAX also takes arrays).
    upper : float
        Upper bound (a Python number).
    shape : int or tuple of int, optional
        Shape of the result.
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        Samples strictly inside (lower, upper).

    See Also
    --------
    jax.random.truncated_normal : the function mirrored.
    arraystack.prng.normal

    Notes
    -----
    jax.random.truncated_normal's method: invert the normal CDF on a uniform draw between
    erf(lower / sqrt 2) and erf(upper / sqrt 2). The inverse erf is accurate to 4e-7 relative
    for ``|z| <= 5.3``, so float64 results carry float32-level accuracy, and bounds beyond 5.3
    standard deviations give less accurate far tails.
    """
    dtype = _float_dtype(dtype)
    lower, upper = float(lower), float(upper)
    a, b = math.erf(lower / math.sqrt(2.0)), math.erf(upper / math.sqrt(2.0))
    z = math.sqrt(2.0) * _erfinv(uniform(key, shape, dtype, minval=a, maxval=b))
    inside_low = numpy.nextafter(numpy.asarray(lower, dtype), numpy.asarray(numpy.inf, dtype))
    inside_high = numpy.nextafter(numpy.asarray(upper, dtype), numpy.asarray(-numpy.inf, dtype))
    return xp.clip(z, inside_low, inside_high)


@constants_on_operand_device
def gumbel(key: ArrayLike, shape: ShapeLike = (), dtype: DTypeLike = numpy.float32) -> NDArray:
    """Draw standard Gumbel samples ``-log(-log(u))`` with u uniform in (0, 1).

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    shape : int or tuple of int, optional
        Shape of the result.
    dtype : dtype, optional
        Floating dtype of the result (default float32).

    Returns
    -------
    ndarray
        The samples.

    See Also
    --------
    jax.random.gumbel : the function mirrored.
    numpy.random.Generator.gumbel : NumPy's stateful counterpart.
    arraystack.prng.categorical

    Notes
    -----
    A pure function of `key`: the same key gives the same values, eagerly, under `jit` and under
    `vmap` (over a batch of keys). Reusing a key reuses its randomness: `split` it instead.
    """
    dtype = _float_dtype(dtype)
    tiny = numpy.finfo(dtype).tiny
    u = uniform(key, shape, dtype, minval=tiny, maxval=1.0)
    return -xp.log(-xp.log(u))
