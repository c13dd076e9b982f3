"""Discrete distributions of arraystack.prng: bernoulli, randint, permutation, categorical."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

import arraystack as xp
from arraystack._core.devices import constants_on_operand_device
from arraystack.prng._continuous import gumbel, uniform
from arraystack.prng._keys import _shape_tuple, bits, split

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike


@constants_on_operand_device
def bernoulli(key: ArrayLike, p: ArrayLike = 0.5, shape: ShapeLike | None = None) -> NDArray:
    """Draw booleans, True with probability `p`.

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    p : float or array_like, optional
        Probability of True, broadcast to `shape`.
    shape : int or tuple of int, optional
        Shape of the result (default: p's shape).

    Returns
    -------
    bool ndarray
        The draws.

    See Also
    --------
    jax.random.bernoulli : the function mirrored.
    numpy.random.Generator.binomial : with n=1, NumPy's stateful counterpart.

    Notes
    -----
    A pure function of `key`: the same key gives the same values, eagerly, under `jit` and under
    `vmap` (over a batch of keys). Reusing a key reuses its randomness: `split` it instead.
    """
    p = xp.asarray(p)
    if p.dtype.kind != "f":
        p = p.astype(xp.float32)
    shape = p.shape if shape is None else _shape_tuple(shape)
    return uniform(key, shape, p.dtype) < p


def _bound(value, dtype, low, high):
    """(value clipped to [low, high] in dtype, whether value exceeded dtype's maximum)."""
    limit = int(numpy.iinfo(dtype).max)
    if isinstance(value, (int, numpy.integer)):
        value = int(value)
        return xp.asarray(min(max(value, low), high), dtype=dtype), value > limit
    value = xp.asarray(value)
    if value.dtype.kind not in "iu":
        value = value.astype(xp.int64)  # as JAX: non-integer bounds are cast to int
    source = numpy.iinfo(value.dtype)
    above = value > xp.asarray(limit, dtype=value.dtype) if source.max > limit else False
    low, high = max(low, int(source.min)), min(high, int(source.max))
    value = xp.clip(value, xp.asarray(low, dtype=value.dtype), xp.asarray(high, dtype=value.dtype))
    return value.astype(dtype), above


def _rem(a, span):
    """a % span, with a % 0 = a (XLA's unsigned remainder): a span of 0 stands for 2**nbits."""
    zero = span == xp.asarray(0, dtype=span.dtype)
    return xp.where(zero, a, a % xp.where(zero, xp.asarray(1, dtype=span.dtype), span))


@constants_on_operand_device
def randint(
    key: ArrayLike,
    shape: ShapeLike,
    minval: ArrayLike,
    maxval: ArrayLike,
    dtype: DTypeLike = numpy.int32,
) -> NDArray:
    """Draw integers uniformly from ``[minval, maxval)``.

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    shape : int or tuple of int
        Shape of the result.
    minval : int or array_like
        Lower bound (inclusive), clipped to the dtype's range.
    maxval : int or array_like
        Upper bound (exclusive), clipped to the dtype's range.
    dtype : dtype, optional
        Integer dtype, 8 to 64 bits (default int32).

    Returns
    -------
    ndarray
        The draws, of `shape` and `dtype`.

    See Also
    --------
    jax.random.randint : the function mirrored.
    numpy.random.Generator.integers : NumPy's stateful counterpart.

    Notes
    -----
    jax.random.randint's method and values: two words of random bits h, l give ``(h * 2**nbits +
    l) mod span`` in nbits-bit unsigned arithmetic; the bias is about span / 2**nbits. Dtypes
    narrower than 32 bits draw int32 values and convert them, as JAX does.
    """
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "iu":
        raise TypeError(f"randint draws integers, got dtype {dtype}")
    shape = _shape_tuple(shape)
    info = numpy.iinfo(dtype)
    if info.bits < 32:
        lo, _ = _bound(minval, numpy.dtype(numpy.int32), int(info.min), int(info.max))
        hi, _ = _bound(maxval, numpy.dtype(numpy.int32), int(info.min), int(info.max) + 1)
        return randint(key, shape, lo, hi, numpy.int32).astype(dtype)
    lo, _ = _bound(minval, dtype, int(info.min), int(info.max))
    hi, maxval_out_of_range = _bound(maxval, dtype, int(info.min), int(info.max))
    unsigned = numpy.dtype(f"uint{info.bits}")
    k1, k2 = split(key)
    higher, lower = bits(k1, shape, unsigned), bits(k2, shape, unsigned)
    one = xp.asarray(1, dtype=unsigned)
    span = hi.astype(unsigned) - lo.astype(unsigned)  # wraps modulo 2**nbits, which is exact
    span = xp.where(hi <= lo, one, span)
    span = xp.where(maxval_out_of_range & (hi > lo), span + one, span)  # 0 when it is 2**nbits
    multiplier = _rem(xp.asarray(2 ** (info.bits // 2), dtype=unsigned), span)
    multiplier = _rem(multiplier * multiplier, span)
    offset = _rem(_rem(higher, span) * multiplier + _rem(lower, span), span)
    return lo + offset.astype(dtype)


def _lexicographic_greater(ka, ia, kb, ib):
    return (ka > kb) | ((ka == kb) & (ia > ib))


def _bitonic_sort_by_key(keys, payload):
    """Sort (keys, payload) pairs ascending by (key, payload) with a bitonic network of selects.

    The length must be a power of two. Unlike a data-dependent sort, every step has static shapes,
    so it traces and batches like any elementwise code: log2(n) * (log2(n) + 1) / 2 stages.
    """
    n = keys.shape[0]
    size = 2
    while size <= n:
        stride = size // 2
        while stride >= 1:
            blocks = n // (2 * stride)
            ascending = ((numpy.arange(blocks) * 2 * stride) & size) == 0
            ascending = xp.asarray(ascending.reshape(blocks, 1))
            pairs_k = keys.reshape(blocks, 2, stride)
            pairs_p = payload.reshape(blocks, 2, stride)
            ka, kb = pairs_k[:, 0, :], pairs_k[:, 1, :]
            pa, pb = pairs_p[:, 0, :], pairs_p[:, 1, :]
            out_of_order = _lexicographic_greater(ka, pa, kb, pb)
            swap = xp.where(ascending, out_of_order, ~out_of_order)
            keys = xp.stack([xp.where(swap, kb, ka), xp.where(swap, ka, kb)], axis=1).reshape(n)
            payload = xp.stack([xp.where(swap, pb, pa), xp.where(swap, pa, pb)], axis=1).reshape(n)
            stride //= 2
        size *= 2
    return keys, payload


@constants_on_operand_device
def permutation(key: ArrayLike, x: int | ArrayLike) -> NDArray:
    """Return a random permutation of ``range(x)`` or of the rows of `x`.

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    x : int or array_like
        A length, or an array (with at least one axis) whose rows are permuted.

    Returns
    -------
    ndarray
        The permutation (default integer dtype) or the permuted rows.

    See Also
    --------
    jax.random.permutation : the function mirrored.
    numpy.random.Generator.permutation : NumPy's stateful counterpart.

    Notes
    -----
    Sorts random 32-bit keys with a bitonic network (it traces), ties broken by position; the
    permutation is uniform up to the chance of a tie (about n**2 / 2**33). Values differ from
    JAX's.
    """
    if isinstance(x, (int, numpy.integer)):
        n, rows = int(x), None
    else:
        rows = xp.asarray(x)
        if rows.ndim == 0:
            raise TypeError("permutation takes an int or an array with at least one axis")
        n = rows.shape[0]
    padded = 1 << max(0, (n - 1).bit_length())
    random_keys = bits(key, (n,), xp.uint32)
    positions = xp.arange(padded, dtype=xp.uint32)
    if padded > n:  # padding sorts last: the largest key, and positions above every real one
        filler = xp.full((padded - n,), 0xFFFFFFFF, dtype=xp.uint32)
        random_keys = xp.concatenate([random_keys, filler])
    _, order = _bitonic_sort_by_key(random_keys, positions)
    order = order[:n].astype(xp.arange(0).dtype)
    return order if rows is None else rows[order]


@constants_on_operand_device
def categorical(key: ArrayLike, logits: ArrayLike, axis: int = -1) -> NDArray:
    """Draw indices with probabilities ``softmax(logits)`` along `axis` (the Gumbel-max trick).

    Parameters
    ----------
    key : uint32[2] array
        A key from `key`, `split` or `fold_in`.
    logits : array_like
        Unnormalized log-probabilities.
    axis : int, optional
        The axis of the categories.

    Returns
    -------
    integer ndarray
        Indices, of logits' shape without `axis`.

    See Also
    --------
    jax.random.categorical : the function mirrored.
    numpy.random.Generator.choice : NumPy's stateful counterpart (with p=).
    arraystack.prng.gumbel

    Notes
    -----
    A pure function of `key`: the same key gives the same values, eagerly, under `jit` and under
    `vmap` (over a batch of keys). Reusing a key reuses its randomness: `split` it instead.
    """
    logits = xp.asarray(logits)
    dtype = logits.dtype if logits.dtype in (numpy.float32, numpy.float64) else numpy.float32
    noise = gumbel(key, logits.shape, dtype)
    return xp.argmax(logits.astype(dtype) + noise, axis=axis)
