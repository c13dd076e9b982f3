"""Inverted dropout: a pure function of an explicit arraystack.prng key; traceable, batchable."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arraystack as ast
from arraystack import prng
from arraystack._core.array import is_tracing

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


def dropout(key: ArrayLike, x: ArrayLike, rate: float, deterministic: bool = False) -> NDArray:
    """Inverted dropout: zero elements with probability `rate`, scale the rest by 1 / (1 - rate).

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    x : array_like
        Inputs.
    rate : float
        Drop probability in [0, 1], a Python number (it decides the program's structure).
    deterministic : bool, optional
        Inference mode: return `x` unchanged.

    Returns
    -------
    ndarray
        Of x's shape and dtype; its expectation equals `x`. rate == 1 gives zeros.

    See Also
    --------
    flax.linen.Dropout : the layer mirrored.
    torch.nn.functional.dropout : the PyTorch relative (a global generator instead of a key).
    arraystack.prng.bernoulli

    Notes
    -----
    The mask comes from ``prng.bernoulli(key, 1 - rate, x.shape)``: a pure function of `key`,
    traceable and batchable. It is drawn on x's device: an eager key of another device (a key made on
    the CPU for activations on a GPU) is copied there first (two 32-bit words); under `jit` the key is
    an argument like any other, so pass it on x's device (``device_put(key, "cuda")``).
    """
    x = ast.asarray(x)
    rate = float(rate)
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"dropout rate must be in [0, 1], got {rate}")
    if deterministic or rate == 0.0:
        return x
    if rate == 1.0:
        return ast.zeros_like(x)
    key = ast.asarray(key)
    if not is_tracing() and key.device != x.device:
        key = ast.asarray(key, device=x.device)  # the stream for x, where x is
    keep = prng.bernoulli(key, 1.0 - rate, x.shape)
    kept = x * (1.0 / (1.0 - rate))  # a weak Python float: x's floating dtype is kept
    return ast.where(keep, kept, ast.zeros_like(kept))


__all__ = ["dropout"]
