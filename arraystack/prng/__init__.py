"""A splittable counter-based PRNG with explicit keys: JAX's threefry-2x32 design, on uint32 arrays.

A key is a uint32[2] array. Every function is a pure function of its key, written with the public
arraystack API, so it runs eagerly, under arraystack.jit and under arraystack.vmap alike. Keys are
derived as in JAX with `jax_threefry_partitionable=True` (its default): element i of a draw of
`shape` is threefry2x32(key, (0, i)) and `split(key, n)[i]` is the same block, so `key`, `split`,
`fold_in`, `bits`, `uniform` and `randint` give JAX's values bit for bit and `truncated_normal`
to within float rounding (tests/arraystack/prng/test_prng.py checks this). `normal` uses Box-Muller
(JAX inverts erf) and `permutation` a sorting network, so their values differ from JAX's.
"""

from arraystack.prng._continuous import (
    _erfinv,  # noqa: F401  (tests/arraystack/nn/test_initializers.py)
    gumbel,
    normal,
    truncated_normal,
    uniform,
)
from arraystack.prng._discrete import bernoulli, categorical, permutation, randint
from arraystack.prng._keys import PRNGKey, bits, fold_in, key, split, threefry2x32

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
