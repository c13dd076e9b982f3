"""A splittable counter-based PRNG with explicit keys: JAX's threefry-2x32 design, on uint32 arrays.

A key is a uint32[2] array. Every function is a pure function of its key, written with the public
arraystack API, so it runs eagerly, under arraystack.jit and under arraystack.vmap alike. Keys are
derived as in JAX with `jax_threefry_partitionable=True` (its default): element i of a draw of
`shape` is threefry2x32(key, (0, i)) and `split(key, n)[i]` is the same block, so `key`, `split`,
`fold_in`, `bits`, `uniform` and `randint` give JAX's values bit for bit and `truncated_normal`
to within float rounding (tests/test_prng.py checks this). `normal` uses Box-Muller (JAX inverts
erf) and `permutation` a sorting network, so their values differ from JAX's.
"""

from __future__ import annotations

import math

import numpy

import arraystack as xp

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA  # Threefish's key-schedule constant


def _u32(v):
    return numpy.uint32(v)


def _rotate_left(v, r):
    return (v << _u32(r)) | (v >> _u32(32 - r))


def threefry2x32(key, count0, count1):
    """Threefry-2x32, 20 rounds (Random123): encrypt the counter pair (count0, count1) under key.

    key is uint32[2]; count0 and count1 are uint32 arrays of one shape. Returns two uint32 arrays.
    """
    key = xp.asarray(key)
    k0, k1 = key[0], key[1]
    schedule = (k0, k1, k0 ^ k1 ^ _u32(_PARITY))
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


def key(seed):
    """A key from an integer seed: [high, low] 32-bit words of the seed as an unsigned 64-bit int.

    Mirrors jax.random.PRNGKey (with 64-bit seeds). A traced seed must be a 0-d integer array; its
    value's low 32 bits form the key (a 32-bit integer has no high word).
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


def split(key, num=2):
    """`num` new keys, shape (num, 2), or (*num, 2) when num is a tuple. jax.random.split."""
    y0, y1 = _blocks(key, num)
    return xp.stack([y0, y1], axis=-1)


def fold_in(key, data):
    """A new key from key and a 32-bit integer (a step count, a layer index). jax.random.fold_in."""
    if isinstance(data, (int, numpy.integer)):
        data = xp.asarray(int(data) % 2**32, dtype=xp.uint32)
    data = xp.asarray(data).astype(xp.uint32)
    if data.shape != ():
        raise TypeError(f"fold_in takes a scalar integer, got shape {data.shape}")
    y0, y1 = threefry2x32(_check_key(key), xp.zeros((), dtype=xp.uint32), data)
    return xp.stack([y0, y1])


def bits(key, shape=(), dtype=numpy.uint32):
    """Uniformly random unsigned integers (uint8/16/32/64) of the given shape. jax.random.bits."""
    dtype = numpy.dtype(dtype)
    if dtype.kind != "u":
        raise TypeError(f"bits needs an unsigned integer dtype, got {dtype}")
    y0, y1 = _blocks(key, shape)
    if dtype.itemsize == 8:
        return (y0.astype(xp.uint64) << numpy.uint64(32)) | y1.astype(xp.uint64)
    return (y0 ^ y1).astype(dtype)


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


def uniform(key, shape=(), dtype=numpy.float32, minval=0.0, maxval=1.0):
    """Uniform floats in [minval, maxval) (minval/maxval broadcast to shape). jax.random.uniform."""
    dtype = _float_dtype(dtype)
    shape = _shape_tuple(shape)
    lo = xp.asarray(minval, dtype=dtype)
    hi = xp.asarray(maxval, dtype=dtype)
    unit = _unit_uniform(key, shape, dtype)
    values = xp.maximum(lo, unit * (hi - lo) + lo)
    # Note: JAX can round up to maxval when maxval - minval is not a power of two; clamp to keep
    # the interval half-open (no change for the default [0, 1)).
    return xp.broadcast_to(xp.minimum(values, xp.nextafter(hi, lo)), shape)


def normal(key, shape=(), dtype=numpy.float32):
    """Standard normal floats by the Box-Muller transform. Differs from JAX, which inverts erf.

    z = sqrt(-2 log(1 - u1)) * cos(2 pi u2) with u1, u2 from two subkeys; 1 - u1 lies in
    (0, 1], so the log is finite. The tails end where 1 - u1 is smallest: |z| <= 5.65 in float32
    and <= 8.49 in float64 (probabilities 1.6e-8 and 2e-17 beyond those).
    """
    dtype = _float_dtype(dtype)
    k1, k2 = split(key)
    u1 = _unit_uniform(k1, shape, dtype)
    u2 = _unit_uniform(k2, shape, dtype)
    one = xp.asarray(1.0, dtype=dtype)
    radius = xp.sqrt(xp.asarray(-2.0, dtype=dtype) * xp.log(one - u1))
    return radius * xp.cos(xp.asarray(2.0 * math.pi, dtype=dtype) * u2)


# Giles (2010), "Approximating the erfinv function": the single-precision version, which XLA uses
# for float32 erf_inv. Relative error below 4e-7 for |y| <= 1 - 1e-7 (|erfinv| <= 3.77), in float64
# too (no refinement); beyond that, float64 loses accuracy (1e-5 at 1 - 1e-8, 7e-3 at 1 - 1e-12).
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                   -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)  # fmt: skip
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)  # fmt: skip


def _horner(coefficients, w):
    p = xp.full_like(w, coefficients[0])
    for c in coefficients[1:]:
        p = p * w + c
    return p


def _erfinv(y):
    w = -xp.log((1.0 - y) * (1.0 + y))
    central = _horner(_ERFINV_CENTRAL, w - 2.5)
    tail = _horner(_ERFINV_TAIL, xp.sqrt(w) - 3.0)
    return xp.where(w < 5.0, central, tail) * y


def truncated_normal(key, lower, upper, shape=(), dtype=numpy.float32):
    """Standard normal values conditioned on (lower, upper). jax.random.truncated_normal's method.

    Inverts the normal CDF on a uniform draw between erf(lower / sqrt 2) and erf(upper / sqrt 2).
    lower and upper are Python numbers here (JAX also takes arrays). The inverse erf is accurate to
    4e-7 relative for |z| <= 5.3 (see _erfinv), so float64 results carry float32-level accuracy,
    and bounds beyond 5.3 standard deviations give less accurate far tails.
    """
    dtype = _float_dtype(dtype)
    lower, upper = float(lower), float(upper)
    a, b = math.erf(lower / math.sqrt(2.0)), math.erf(upper / math.sqrt(2.0))
    z = math.sqrt(2.0) * _erfinv(uniform(key, shape, dtype, minval=a, maxval=b))
    inside_low = numpy.nextafter(numpy.asarray(lower, dtype), numpy.asarray(numpy.inf, dtype))
    inside_high = numpy.nextafter(numpy.asarray(upper, dtype), numpy.asarray(-numpy.inf, dtype))
    return xp.clip(z, inside_low, inside_high)


def bernoulli(key, p=0.5, shape=None):
    """Booleans, True with probability p (shape defaults to p's shape). jax.random.bernoulli."""
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


def randint(key, shape, minval, maxval, dtype=numpy.int32):
    """Integers in [minval, maxval), 8- to 64-bit: jax.random.randint's method and values.

    Two words of random bits h, l give (h * 2**nbits + l) mod span, computed in nbits-bit unsigned
    arithmetic as JAX does; the bias is about span / 2**nbits. Dtypes narrower than 32 bits draw
    int32 values and convert them, as JAX does.
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


def permutation(key, x):
    """A random permutation of range(x) (x an int) or of x's rows (x an array).

    Sorts random 32-bit keys with a bitonic network, ties broken by position; the resulting
    permutation is uniform up to the chance of a tie (about n**2 / 2**33). Values differ from JAX's.
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


def gumbel(key, shape=(), dtype=numpy.float32):
    """Standard Gumbel samples -log(-log(u)), u uniform in (0, 1). jax.random.gumbel."""
    dtype = _float_dtype(dtype)
    tiny = numpy.finfo(dtype).tiny
    u = uniform(key, shape, dtype, minval=tiny, maxval=1.0)
    return -xp.log(-xp.log(u))


def categorical(key, logits, axis=-1):
    """Indices drawn with probabilities softmax(logits) along axis; jax.random.categorical."""
    logits = xp.asarray(logits)
    dtype = logits.dtype if logits.dtype in (numpy.float32, numpy.float64) else numpy.float32
    noise = gumbel(key, logits.shape, dtype)
    return xp.argmax(logits.astype(dtype) + noise, axis=axis)


__all__ = [
    "PRNGKey",
    "bernoulli",
    "bits",
    "categorical",
    "fold_in",
    "gumbel",
    "key",
    "normal",
    "permutation",
    "randint",
    "split",
    "threefry2x32",
    "truncated_normal",
    "uniform",
]
