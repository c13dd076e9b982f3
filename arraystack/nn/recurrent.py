"""Recurrent cells with the scan signature `cell(params, carry, x) -> (carry, h)`.

`arraystack.scan(lambda c, x: lstm_cell(params, c, x), carry, xs)` runs one over the leading (time)
axis of xs. Inputs are (batch, features) or (features,); the gates come from one matmul per operand,
sliced apart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import arraystack as ast
from arraystack.nn.activations import sigmoid

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike


def _split(z, parts):
    size = z.shape[-1] // parts
    return [z[..., i * size : (i + 1) * size] for i in range(parts)]


def lstm_cell(
    params: dict[str, ArrayLike], carry: tuple[ArrayLike, ArrayLike], x: ArrayLike
) -> tuple[tuple[NDArray, NDArray], NDArray]:
    """One LSTM step: ``(c, h), x -> ((c', h'), h')``.

    Parameters
    ----------
    params : dict
        'wi' (in, 4H), 'wh' (H, 4H), 'b' (4H,), gate order i, f, g, o (see init_lstm).
    carry : tuple
        ``(c, h)``, each (batch, H) or (H,) (see lstm_carry).
    x : array_like
        Input (batch, in) or (in,).

    Returns
    -------
    tuple
        ``((c', h'), h')``.

    See Also
    --------
    torch.nn.LSTMCell : the equations and gate order mirrored.
    arraystack.nn.init_lstm, arraystack.nn.lstm_carry, arraystack.scan

    Notes
    -----
    Has the `scan` signature: ``arraystack.scan(lambda c, x: cell(params, c, x), carry, xs)``
    runs it over the leading (time) axis of xs.
    """
    c, h = carry
    z = ast.matmul(ast.asarray(x), params["wi"]) + ast.matmul(h, params["wh"]) + params["b"]
    i, f, g, o = _split(z, 4)
    c = sigmoid(f) * c + sigmoid(i) * ast.tanh(g)
    h = sigmoid(o) * ast.tanh(c)
    return (c, h), h


def gru_cell(
    params: dict[str, ArrayLike], carry: ArrayLike, x: ArrayLike
) -> tuple[NDArray, NDArray]:
    """One GRU step: ``h, x -> (h', h')``.

    Parameters
    ----------
    params : dict
        'wi' (in, 3H), 'wh' (H, 3H), 'bi' and 'bh' (3H,), gate order r, z, n (see init_gru).
    carry : array_like
        h, (batch, H) or (H,) (see gru_carry).
    x : array_like
        Input (batch, in) or (in,).

    Returns
    -------
    tuple
        ``(h', h')`` with ``h' = (1 - z) * n + z * h``.

    See Also
    --------
    torch.nn.GRUCell : the equations mirrored.
    arraystack.nn.init_gru, arraystack.nn.gru_carry, arraystack.scan

    Notes
    -----
    Has the `scan` signature: ``arraystack.scan(lambda c, x: cell(params, c, x), carry, xs)``
    runs it over the leading (time) axis of xs.
    """
    h = carry
    xr, xz, xn = _split(ast.matmul(ast.asarray(x), params["wi"]) + params["bi"], 3)
    hr, hz, hn = _split(ast.matmul(h, params["wh"]) + params["bh"], 3)
    r = sigmoid(xr + hr)
    z = sigmoid(xz + hz)
    n = ast.tanh(xn + r * hn)
    h = (1.0 - z) * n + z * h
    return h, h


def _init_recurrent(key, in_features, hidden, gates, dtype):
    from arraystack import prng
    from arraystack.nn import initializers

    dtype = ast.float32 if dtype is None else dtype
    k_input, k_hidden = prng.split(key)
    wi = initializers.glorot_uniform(k_input, (in_features, gates * hidden), dtype)
    wh = initializers.glorot_uniform(k_hidden, (hidden, gates * hidden), dtype)
    return wi, wh


def init_lstm(
    key: ArrayLike,
    in_features: int,
    hidden: int,
    forget_bias: float = 1.0,
    dtype: DTypeLike | None = None,
) -> dict[str, NDArray]:
    """Create the parameters of `lstm_cell`.

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    in_features : int
        Input size.
    hidden : int
        Hidden size H.
    forget_bias : float, optional
        Initial bias of the forget gate.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    dict
        Glorot-uniform 'wi' and 'wh'; 'b' zero except `forget_bias` on the f gate.

    See Also
    --------
    torch.nn.LSTMCell : the layer whose parameters these are (PyTorch initializes them uniformly,
        without a forget bias).
    arraystack.nn.lstm_cell
    """
    wi, wh = _init_recurrent(key, in_features, hidden, 4, dtype)
    b = ast.zeros(4 * hidden, dtype=wi.dtype)
    b[hidden : 2 * hidden] = forget_bias
    return {"wi": wi, "wh": wh, "b": b}


def init_gru(
    key: ArrayLike, in_features: int, hidden: int, dtype: DTypeLike | None = None
) -> dict[str, NDArray]:
    """Create the parameters of `gru_cell`.

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    in_features : int
        Input size.
    hidden : int
        Hidden size H.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    dict
        Glorot-uniform 'wi' and 'wh', zero 'bi' and 'bh'.

    See Also
    --------
    torch.nn.GRUCell : the layer whose parameters these are (initialized differently).
    arraystack.nn.gru_cell
    """
    wi, wh = _init_recurrent(key, in_features, hidden, 3, dtype)
    return {
        "wi": wi,
        "wh": wh,
        "bi": ast.zeros(3 * hidden, dtype=wi.dtype),
        "bh": ast.zeros(3 * hidden, dtype=wi.dtype),
    }


def lstm_carry(
    batch_shape: ShapeLike, hidden: int, dtype: DTypeLike | None = None, *, device: Any = None
) -> tuple[NDArray, NDArray]:
    """Create the zero initial carry of `lstm_cell`.

    Parameters
    ----------
    batch_shape : tuple of int
        Leading shape (() for a single sequence).
    hidden : int
        Hidden size H.
    dtype : dtype, optional
        Default float32.
    device : Device or str, optional
        Where the zeros are made (the default device when None), as for `arraystack.zeros`.

    Returns
    -------
    tuple
        ``(c, h)``, zeros of shape (*batch_shape, hidden).

    See Also
    --------
    flax.linen.LSTMCell.initialize_carry : the flax relative.
    arraystack.nn.lstm_cell
    """
    shape = (*tuple(batch_shape), hidden)
    dtype = ast.float32 if dtype is None else dtype
    zeros = ast.zeros(shape, dtype=dtype, device=device)
    return zeros, ast.zeros_like(zeros)


def gru_carry(
    batch_shape: ShapeLike, hidden: int, dtype: DTypeLike | None = None, *, device: Any = None
) -> NDArray:
    """Create the zero initial carry of `gru_cell`.

    Parameters
    ----------
    batch_shape : tuple of int
        Leading shape (() for a single sequence).
    hidden : int
        Hidden size H.
    dtype : dtype, optional
        Default float32.
    device : Device or str, optional
        Where the zeros are made (the default device when None), as for `arraystack.zeros`.

    Returns
    -------
    ndarray
        h, zeros of shape (*batch_shape, hidden).

    See Also
    --------
    flax.linen.GRUCell.initialize_carry : the flax relative.
    arraystack.nn.gru_cell
    """
    dtype = ast.float32 if dtype is None else dtype
    return ast.zeros((*tuple(batch_shape), hidden), dtype=dtype, device=device)


__all__ = ["gru_carry", "gru_cell", "init_gru", "init_lstm", "lstm_carry", "lstm_cell"]
