"""Inverted dropout: a pure function of an explicit arraystack.prng key; traceable, batchable."""

from __future__ import annotations

import arraystack as ast
from arraystack import prng


def dropout(key, x, rate, deterministic=False):
    """Zero each element of x with probability `rate` and scale the survivors by 1 / (1 - rate).

    The expectation of the output equals x, so inference (deterministic=True, or rate == 0) is the
    identity. rate == 1 gives zeros. rate is a Python number (it decides the program's structure);
    the mask comes from prng.bernoulli(key, 1 - rate, x.shape). Mirrors flax.linen.Dropout.
    """
    x = ast.asarray(x)
    rate = float(rate)
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"dropout rate must be in [0, 1], got {rate}")
    if deterministic or rate == 0.0:
        return x
    if rate == 1.0:
        return ast.zeros_like(x)
    keep = prng.bernoulli(key, 1.0 - rate, x.shape)
    kept = x * (1.0 / (1.0 - rate))  # a weak Python float: x's floating dtype is kept
    return ast.where(keep, kept, ast.zeros_like(kept))


__all__ = ["dropout"]
