"""Recurrent layers over whole sequences: GRU and LSTM modules running recurrent.py's cells with
arraystack.scan over the time axis (one scan equation, whatever the length)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arraystack as ast
from arraystack import prng
from arraystack.nn.module import Module, static
from arraystack.nn.module_layers import torch_uniform
from arraystack.nn.recurrent import gru_cell, lstm_cell

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _time_major(layer, xs, input_size):
    xs = ast.asarray(xs)
    if xs.ndim < 2 or xs.shape[-1] != input_size:
        raise ValueError(
            f"{layer} expects sequences of shape (time, ..., {input_size}) (or (..., time, "
            f"{input_size}) with batch_first=True); got shape {xs.shape}"
        )
    return xs


def _scan(cell, carry, xs, batch_first):
    if batch_first:
        xs = ast.moveaxis(xs, -2, 0)
    carry, ys = ast.scan(cell, carry, xs)
    return (ast.moveaxis(ys, 0, -2) if batch_first else ys), carry


def _batch_shape(xs, batch_first):
    return xs.shape[:-2] if batch_first else xs.shape[1:-1]


class GRU(Module):
    """A gated recurrent unit over a sequence: `arraystack.nn.gru_cell` under `arraystack.scan`.

    Parameters
    ----------
    input_size : int
        Input features.
    hidden_size : int
        Hidden size H.
    batch_first : bool, optional
        Inputs are (..., time, features) rather than (time, ..., features) (PyTorch's default).
    key : uint32[2] array
        An arraystack.prng key (keyword-only).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.GRU : the layer mirrored (one layer, one direction), with its equations, its gate
        order r, z, n and its initialization: every weight and bias uniform in +-1/sqrt(H).
        Its weight_ih_l0 is (3H, in), the transpose of weight_ih here.
    arraystack.nn.gru_cell, arraystack.scan, arraystack.nn.LSTM

    Notes
    -----
    Called as ``outputs, h = gru(xs, h0=None)``: `outputs` holds h at every step, `h` the last
    one; h0 defaults to zeros of shape (*batch, H).
    """

    weight_ih: NDArray
    weight_hh: NDArray
    bias_ih: NDArray
    bias_hh: NDArray
    input_size: int = static()
    hidden_size: int = static()
    batch_first: bool = static(default=False)

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        batch_first: bool = False,
        *,
        key: ArrayLike,
        dtype: DTypeLike | None = None,
    ) -> None:
        keys = prng.split(key, 4)
        h = int(hidden_size)
        self.input_size, self.hidden_size, self.batch_first = int(input_size), h, bool(batch_first)
        self.weight_ih = torch_uniform(keys[0], (self.input_size, 3 * h), h, dtype)
        self.weight_hh = torch_uniform(keys[1], (h, 3 * h), h, dtype)
        self.bias_ih = torch_uniform(keys[2], (3 * h,), h, dtype)
        self.bias_hh = torch_uniform(keys[3], (3 * h,), h, dtype)

    def __call__(
        self, xs: ArrayLike, h0: ArrayLike | None = None, *, key: ArrayLike | None = None
    ) -> tuple[NDArray, NDArray]:
        xs = _time_major("GRU", xs, self.input_size)
        params = {
            "wi": self.weight_ih,
            "wh": self.weight_hh,
            "bi": self.bias_ih,
            "bh": self.bias_hh,
        }
        dtype = ast.result_type(xs.dtype, self.weight_ih.dtype)
        if h0 is None:
            shape = (*_batch_shape(xs, self.batch_first), self.hidden_size)
            h0 = ast.zeros(shape, dtype, device=xs.device)  # beside the inputs, as PyTorch's
        h0 = ast.asarray(h0).astype(dtype)
        return _scan(lambda h, x: gru_cell(params, h, x), h0, xs, self.batch_first)


class LSTM(Module):
    """A long short-term memory layer over a sequence: `arraystack.nn.lstm_cell` under `scan`.

    Parameters
    ----------
    input_size : int
        Input features.
    hidden_size : int
        Hidden size H.
    batch_first : bool, optional
        Inputs are (..., time, features) rather than (time, ..., features) (PyTorch's default).
    key : uint32[2] array
        An arraystack.prng key (keyword-only).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.LSTM : the layer mirrored (one layer, one direction), with its equations, its gate
        order i, f, g, o and its initialization (uniform in +-1/sqrt(H)); PyTorch's two biases
        b_ih + b_hh are one `bias` here, drawn as their sum.
    arraystack.nn.lstm_cell, arraystack.scan, arraystack.nn.GRU

    Notes
    -----
    Called as ``outputs, (c, h) = lstm(xs, carry=None)``: `outputs` holds h at every step; the
    carry is lstm_cell's ``(c, h)`` (PyTorch returns ``(h, c)``), zeros by default.
    """

    weight_ih: NDArray
    weight_hh: NDArray
    bias: NDArray
    input_size: int = static()
    hidden_size: int = static()
    batch_first: bool = static(default=False)

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        batch_first: bool = False,
        *,
        key: ArrayLike,
        dtype: DTypeLike | None = None,
    ) -> None:
        keys = prng.split(key, 4)
        h = int(hidden_size)
        self.input_size, self.hidden_size, self.batch_first = int(input_size), h, bool(batch_first)
        self.weight_ih = torch_uniform(keys[0], (self.input_size, 4 * h), h, dtype)
        self.weight_hh = torch_uniform(keys[1], (h, 4 * h), h, dtype)
        self.bias = torch_uniform(keys[2], (4 * h,), h, dtype) + torch_uniform(
            keys[3], (4 * h,), h, dtype
        )

    def __call__(
        self,
        xs: ArrayLike,
        carry: tuple[ArrayLike, ArrayLike] | None = None,
        *,
        key: ArrayLike | None = None,
    ) -> tuple[NDArray, tuple[NDArray, NDArray]]:
        xs = _time_major("LSTM", xs, self.input_size)
        params = {"wi": self.weight_ih, "wh": self.weight_hh, "b": self.bias}
        dtype = ast.result_type(xs.dtype, self.weight_ih.dtype)
        if carry is None:
            shape = (*_batch_shape(xs, self.batch_first), self.hidden_size)
            zeros = ast.zeros(shape, dtype, device=xs.device)
            carry = (zeros, zeros)
        carry = (ast.asarray(carry[0]).astype(dtype), ast.asarray(carry[1]).astype(dtype))
        return _scan(lambda c, x: lstm_cell(params, c, x), carry, xs, self.batch_first)


__all__ = ["GRU", "LSTM"]
