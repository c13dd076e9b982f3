"""Keys of arraystack.prng: the threefry-2x32 block cipher, key, split, fold_in and bits."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy

import arraystack as xp
from arraystack._core.devices import constants_on_operand_device

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA  # Threefish's key-schedule constant


def _u32(v):
    return numpy.uint32(v)


def _rotate_left(v, r):
    return (v << _u32(r)) | (v >> _u32(32 - r))


def threefry2x32(key: ArrayLike, count0: ArrayLike, count1: ArrayLike) -> tuple[NDArray, NDArray]:
    """Threefry-2x32, 20 rounds (Random123): encrypt the counters (count0, count1) under `key`.

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    count0 : uint32 array_like
        First words of the counters.
    count1 : uint32 array_like
        Second words of the counters, broadcast against `count0`.

    Returns
    -------
    tuple of two uint32 ndarrays
        The two words of each encrypted counter.

    See Also
    --------
    jax.random.threefry_2x32 : the function mirrored (same values).
    arraystack.prng.bits

    Notes
    -----
    The block cipher every other function of arraystack.prng draws from; written with the public
    arraystack API, so it traces.
    """
    key = xp.asarray(key)
    k0, k1 = key[0], key[1]
    schedule = (k0, k1, k0 ^ k1 ^ _u32(_PARITY))
    # uint32 arithmetic wraps by design: NumPy's scalars (0-d counts) would warn of each overflow
    with numpy.errstate(over="ignore"):
        x0 = xp.asarray(count0, dtype=xp.uint32) + k0
        x1 = xp.asarray(count1, dtype=xp.uint32) + k1
        for i in range(5):  # five groups of four rounds, a key injection after each group
            for r in _ROTATIONS[i % 2]:
                x0 = x0 + x1
                x1 = _rotate_left(x1, r) ^ x0
            x0 = x0 + schedule[(i + 1) % 3]
            x1 = x1 + schedule[(i + 2) % 3] + _u32(i + 1)
    return x0, x1


def _check_key(key):
    key = xp.asarray(key)
    if key.dtype != numpy.uint32 or key.shape != (2,):
        raise TypeError(
            "a PRNG key is a uint32[2] array (from arraystack.prng.key), "
            f"got {key.dtype}{list(key.shape)}"
        )
    return key


def _shape_tuple(shape):
    return (
        (int(shape),) if isinstance(shape, (int, numpy.integer)) else tuple(int(d) for d in shape)
    )


def _blocks(key, shape):
    """threefry2x32(key, (0, i)) for each flat index i of shape: two uint32 arrays."""
    shape = _shape_tuple(shape)
    size = math.prod(shape)
    if size > 2**32:
        raise ValueError(
            f"arraystack.prng draws at most 2**32 values at once, asked for shape {shape}"
        )
    counts = xp.arange(size, dtype=xp.uint32).reshape(shape)
    return threefry2x32(_check_key(key), xp.zeros(shape, dtype=xp.uint32), counts)


def key(seed: ArrayLike) -> NDArray:
    """Create a PRNG key from an integer seed.

    Parameters
    ----------
    seed : int or 0-d integer array
        The seed: a Python int (any, taken modulo 2**64) or an integer scalar array (traced
        too).

    Returns
    -------
    uint32[2] ndarray
        ``[high, low]``: the 32-bit words of the seed as an unsigned 64-bit integer.

    See Also
    --------
    jax.random.key : the function mirrored.
    jax.random.PRNGKey : the older name, also arraystack.prng.PRNGKey.
    arraystack.random.default_rng : NumPy's stateful generator, eager only.
    arraystack.prng.split

    Notes
    -----
    Keys are plain uint32[2] arrays (JAX's raw keys), not typed key arrays. A traced 32-bit seed
    has no high word: its value forms the low word.

    Examples
    --------
    >>> import arraystack as np
    >>> np.prng.key(42)
    array([ 0, 42], dtype=uint32)
    """
    if isinstance(seed, (int, numpy.integer)) and not isinstance(seed, bool):
        seed = int(seed) % 2**64
        return xp.asarray([seed >> 32, seed & 0xFFFFFFFF], dtype=xp.uint32)
    seed = xp.asarray(seed)
    if seed.shape != () or seed.dtype.kind not in "iu":
        raise TypeError(
            f"key(seed) takes a scalar integer seed, got {seed.dtype}{list(seed.shape)}"
        )
    high = (seed >> 32) if seed.dtype.itemsize == 8 else xp.zeros((), dtype=seed.dtype)
    return xp.stack([high.astype(xp.uint32), seed.astype(xp.uint32)])


PRNGKey = key  # the JAX name


@constants_on_operand_device
def split(key: ArrayLike, num: int | tuple[int, ...] = 2) -> NDArray:
    """Split a key into `num` new, independent keys.

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    num : int or tuple of int, optional
        Number of keys (or their batch shape).

    Returns
    -------
    uint32 ndarray
        Of shape (num, 2), or num + (2,) for a tuple.

    See Also
    --------
    jax.random.split : the function mirrored.
    arraystack.prng.fold_in

    Notes
    -----
    A pure function of `key`: the same key gives the same values, eagerly, under `jit` and under
    `vmap` (over a batch of keys). Reusing a key reuses its randomness: `split` it instead.
    Values are JAX's (jax_threefry_partitionable=True).

    Examples
    --------
    >>> import arraystack as np
    >>> k1, k2 = np.prng.split(np.prng.key(0))
    >>> k1.shape, k1.dtype
    ((2,), dtype('uint32'))
    """
    y0, y1 = _blocks(key, num)
    return xp.stack([y0, y1], axis=-1)


@constants_on_operand_device
def fold_in(key: ArrayLike, data: ArrayLike) -> NDArray:
    """Derive a new key from `key` and a 32-bit integer (a step count, a layer index).

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    data : int or integer scalar array
        The integer folded in (modulo 2**32).

    Returns
    -------
    uint32[2] ndarray
        The new key.

    See Also
    --------
    jax.random.fold_in : the function mirrored.
    arraystack.prng.split

    Notes
    -----
    A pure function of `key`: the same key gives the same values, eagerly, under `jit` and under
    `vmap` (over a batch of keys). Reusing a key reuses its randomness: `split` it instead.
    """
    if isinstance(data, (int, numpy.integer)):
        data = xp.asarray(int(data) % 2**32, dtype=xp.uint32)
    data = xp.asarray(data).astype(xp.uint32)
    if data.shape != ():
        raise TypeError(f"fold_in takes a scalar integer, got shape {data.shape}")
    y0, y1 = threefry2x32(_check_key(key), xp.zeros((), dtype=xp.uint32), data)
    return xp.stack([y0, y1])


@constants_on_operand_device
def bits(key: ArrayLike, shape: ShapeLike = (), dtype: DTypeLike = numpy.uint32) -> NDArray:
    """Draw uniformly random unsigned integers.

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    shape : int or tuple of int, optional
        Shape of the result.
    dtype : dtype, optional
        uint8, uint16, uint32 (default) or uint64.

    Returns
    -------
    ndarray
        Random bits of `shape` and `dtype`.

    See Also
    --------
    jax.random.bits : the function mirrored.
    arraystack.prng.randint

    Notes
    -----
    A pure function of `key`: the same key gives the same values, eagerly, under `jit` and under
    `vmap` (over a batch of keys). Reusing a key reuses its randomness: `split` it instead.
    """
    dtype = numpy.dtype(dtype)
    if dtype.kind != "u":
        raise TypeError(f"bits needs an unsigned integer dtype, got {dtype}")
    y0, y1 = _blocks(key, shape)
    if dtype.itemsize == 8:
        return (y0.astype(xp.uint64) << numpy.uint64(32)) | y1.astype(xp.uint64)
    return (y0 ^ y1).astype(dtype)
