"""Recurrent cells with the scan signature `cell(params, carry, x) -> (carry, h)`.

`arraystack.scan(lambda c, x: lstm_cell(params, c, x), carry, xs)` runs one over the leading (time)
axis of xs. Inputs are (batch, features) or (features,); the gates come from one matmul per operand,
sliced apart."""

from __future__ import annotations

import arraystack as ast
from arraystack.nn.activations import sigmoid


def _split(z, parts):
    size = z.shape[-1] // parts
    return [z[..., i * size : (i + 1) * size] for i in range(parts)]


def lstm_cell(params, carry, x):
    """One LSTM step (torch.nn.LSTMCell's gate order i, f, g, o): carry = (c, h) -> ((c', h'), h').

    params: 'wi' (in, 4H), 'wh' (H, 4H), 'b' (4H,)."""
    c, h = carry
    z = ast.matmul(ast.asarray(x), params["wi"]) + ast.matmul(h, params["wh"]) + params["b"]
    i, f, g, o = _split(z, 4)
    c = sigmoid(f) * c + sigmoid(i) * ast.tanh(g)
    h = sigmoid(o) * ast.tanh(c)
    return (c, h), h


def gru_cell(params, carry, x):
    """One GRU step (torch.nn.GRUCell's equations, gate order r, z, n): h -> (h', h').

    r = sigmoid(x Wir + bir + h Whr + bhr), z likewise, n = tanh(x Win + bin + r * (h Whn + bhn)),
    h' = (1 - z) * n + z * h. params: 'wi' (in, 3H), 'wh' (H, 3H), 'bi' and 'bh' (3H,)."""
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


def init_lstm(key, in_features, hidden, forget_bias=1.0, dtype=None):
    """params for lstm_cell: glorot_uniform 'wi' and 'wh', 'b' zero except forget_bias on the f gate
    (float32 unless `dtype` says otherwise)."""
    wi, wh = _init_recurrent(key, in_features, hidden, 4, dtype)
    b = ast.zeros(4 * hidden, dtype=wi.dtype)
    b[hidden : 2 * hidden] = forget_bias
    return {"wi": wi, "wh": wh, "b": b}


def init_gru(key, in_features, hidden, dtype=None):
    """params for gru_cell: glorot_uniform 'wi' and 'wh', zero 'bi' and 'bh'."""
    wi, wh = _init_recurrent(key, in_features, hidden, 3, dtype)
    return {
        "wi": wi,
        "wh": wh,
        "bi": ast.zeros(3 * hidden, dtype=wi.dtype),
        "bh": ast.zeros(3 * hidden, dtype=wi.dtype),
    }


def lstm_carry(batch_shape, hidden, dtype=None):
    """Zero (c, h) of shape (*batch_shape, hidden) to start lstm_cell."""
    shape = (*tuple(batch_shape), hidden)
    dtype = ast.float32 if dtype is None else dtype
    return ast.zeros(shape, dtype=dtype), ast.zeros(shape, dtype=dtype)


def gru_carry(batch_shape, hidden, dtype=None):
    """Zero h of shape (*batch_shape, hidden) to start gru_cell."""
    return ast.zeros((*tuple(batch_shape), hidden), dtype=ast.float32 if dtype is None else dtype)


__all__ = ["gru_carry", "gru_cell", "init_gru", "init_lstm", "lstm_carry", "lstm_cell"]
