"""Import rules of ONNX's recurrent operators (RNN, GRU, LSTM), against `xp`.

Convention: interpreter.py. The sequence axis is known when the model is built or traced, so the time
loop is unrolled into array operations: the result runs eagerly, under `jit` and under `grad`. Both
layouts, the three directions, `sequence_lens` (steps past a sequence's length keep its state and give 0
in Y), `clip`, the activation attributes with their alpha/beta, GRU's `linear_before_reset` and LSTM's
peepholes are honoured.
"""

from __future__ import annotations

import numpy

from arraystack.onnx.errors import UnsupportedOperatorError

recurrent_rules: dict = {}


def _const(xp, x, value):
    return xp.asarray(value, dtype=x.dtype)


def _sigmoid(xp, x):
    return _const(xp, x, 1) / (_const(xp, x, 1) + xp.exp(-x))


# name -> (function of (xp, x, alpha, beta), default alpha, default beta); None: takes no alpha/beta
_ACTIVATIONS = {
    "Sigmoid": (lambda xp, x, a, b: _sigmoid(xp, x), None, None),
    "Tanh": (lambda xp, x, a, b: xp.tanh(x), None, None),
    "Relu": (lambda xp, x, a, b: xp.maximum(x, _const(xp, x, 0)), None, None),
    "Softsign": (lambda xp, x, a, b: x / (_const(xp, x, 1) + xp.abs(x)), None, None),
    "Softplus": (lambda xp, x, a, b: xp.logaddexp(x, _const(xp, x, 0)), None, None),
    "Affine": (lambda xp, x, a, b: x * _const(xp, x, a) + _const(xp, x, b), 1.0, 0.0),
    "LeakyRelu": (lambda xp, x, a, b: xp.where(x >= 0, x, x * _const(xp, x, a)), 0.01, None),
    "ThresholdedRelu": (
        lambda xp, x, a, b: xp.where(x > _const(xp, x, a), x, _const(xp, x, 0)),
        1.0,
        None,
    ),
    "ScaledTanh": (lambda xp, x, a, b: _const(xp, x, a) * xp.tanh(x * _const(xp, x, b)), 1.0, 1.0),
    "HardSigmoid": (
        lambda xp, x, a, b: xp.clip(
            x * _const(xp, x, a) + _const(xp, x, b), _const(xp, x, 0), _const(xp, x, 1)
        ),
        0.2,
        0.5,
    ),
    "Elu": (lambda xp, x, a, b: xp.where(x > 0, x, _const(xp, x, a) * xp.expm1(x)), 1.0, None),
}


def _activations(node, defaults: list, directions: int) -> list:
    """One list of activation functions (of xp, x) per direction; alphas and betas are consumed in the
    order of the activations that take them."""
    names = node.attr("activations") or defaults * directions
    if len(names) != len(defaults) * directions:
        raise node.error(
            f"activations lists {len(names)} functions; {len(defaults) * directions} are needed "
            f"({len(defaults)} per direction)"
        )
    alphas = list(node.attr("activation_alpha") or [])
    betas = list(node.attr("activation_beta") or [])
    out = []
    for name in names:
        key = next((k for k in _ACTIVATIONS if k.lower() == str(name).lower()), None)
        if key is None:
            raise node.error(f"activation {name!r} is not supported", UnsupportedOperatorError)
        fn, alpha, beta = _ACTIVATIONS[key]
        if alpha is not None and alphas:
            alpha = alphas.pop(0)
        if beta is not None and betas:
            beta = betas.pop(0)
        out.append(lambda xp, x, fn=fn, a=alpha, b=beta: fn(xp, x, a, b))
    per = len(defaults)
    return [out[d * per : (d + 1) * per] for d in range(directions)]


def _split(xp, v, parts: int, axis: int = -1):
    size = v.shape[axis] // parts
    return [
        v[..., i * size : (i + 1) * size] if axis == -1 else v[i * size : (i + 1) * size]
        for i in range(parts)
    ]


def _recurrent(kind: str, gates: int, defaults: list):
    def rule(xp, node, x, w, r, b=None, sequence_lens=None, initial_h=None, *rest):
        layout = int(node.attr("layout", 0))
        direction = node.attr("direction", "forward")
        if direction not in ("forward", "reverse", "bidirectional"):
            raise node.error(f"direction {direction!r} is not forward, reverse or bidirectional")
        if kind == "LSTM" and int(node.attr("input_forget", 0)):
            raise node.error("input_forget=1 is not supported", UnsupportedOperatorError)
        directions = 2 if direction == "bidirectional" else 1
        if numpy.shape(w)[0] != directions:
            raise node.error(f"W has {numpy.shape(w)[0]} directions; direction={direction!r}")
        if layout:
            x = xp.swapaxes(x, 0, 1)
            initial_h = None if initial_h is None else xp.swapaxes(initial_h, 0, 1)
            rest = tuple(None if v is None else xp.swapaxes(v, 0, 1) for v in rest[:1]) + rest[1:]
        steps, batch = numpy.shape(x)[0], numpy.shape(x)[1]
        hidden = numpy.shape(r)[-1]
        lengths = None if sequence_lens is None else node.static(sequence_lens, "sequence_lens")
        clip = node.attr("clip")
        acts = _activations(node, defaults, directions)
        ys, hs, cs = [], [], []
        for d in range(directions):
            reverse = direction == "reverse" or d == 1
            state = {
                "h": _initial(xp, x, initial_h, d, batch, hidden),
                "c": _initial(xp, x, rest[0] if rest else None, d, batch, hidden),
            }
            bias = None if b is None else _split(xp, b[d], 2)
            peep = None if len(rest) < 2 or rest[1] is None else _split(xp, rest[1][d], 3)
            outs = [None] * steps
            for t in range(steps)[::-1] if reverse else range(steps):
                gx = xp.matmul(x[t], xp.swapaxes(w[d], 0, 1))
                if bias is not None:
                    gx = gx + bias[0]
                step = _CELLS[kind](xp, node, gx, state, r[d], bias, peep, acts[d], clip)
                if lengths is not None:
                    keep = xp.asarray((t < lengths)[:, None])
                    step = {k: xp.where(keep, v, state[k]) for k, v in step.items()}
                    outs[t] = xp.where(keep, step["h"], _const(xp, x, 0))
                else:
                    outs[t] = step["h"]
                state.update(step)
            ys.append(xp.stack(outs) if steps else xp.zeros((0, batch, hidden), x.dtype))
            hs.append(state["h"])
            cs.append(state["c"])
        y = xp.stack(ys, axis=1)  # [seq, directions, batch, hidden]
        y_h, y_c = xp.stack(hs), xp.stack(cs)
        if layout:
            y = xp.transpose(y, (2, 0, 1, 3))
            y_h, y_c = xp.swapaxes(y_h, 0, 1), xp.swapaxes(y_c, 0, 1)
        return (y, y_h, y_c) if kind == "LSTM" else (y, y_h)

    return rule


def _initial(xp, x, value, d, batch, hidden):
    if value is None:
        return xp.zeros((batch, hidden), dtype=x.dtype)
    return value[d]


def _clipped(xp, v, clip):
    if clip is None:
        return v
    return xp.clip(v, _const(xp, v, -float(clip)), _const(xp, v, float(clip)))


def _rnn_cell(xp, node, gx, state, r, bias, peep, acts, clip):
    pre = gx + xp.matmul(state["h"], xp.swapaxes(r, 0, 1))
    if bias is not None:
        pre = pre + bias[1]
    return {"h": acts[0](xp, _clipped(xp, pre, clip))}


def _gru_cell(xp, node, gx, state, r, bias, peep, acts, clip):
    f, g = acts
    h = state["h"]
    r_z, r_r, r_h = _split(xp, r, 3, axis=0)
    rb = _split(xp, bias[1], 3) if bias is not None else [None] * 3
    x_z, x_r, x_h = _split(xp, gx, 3)

    def rec(weights, bias_part, value):
        out = xp.matmul(value, xp.swapaxes(weights, 0, 1))
        return out if bias_part is None else out + bias_part

    z = f(xp, _clipped(xp, x_z + rec(r_z, rb[0], h), clip))
    reset = f(xp, _clipped(xp, x_r + rec(r_r, rb[1], h), clip))
    if int(node.attr("linear_before_reset", 0)):
        candidate = x_h + reset * rec(r_h, rb[2], h)
    else:
        candidate = x_h + rec(r_h, rb[2], reset * h)
    candidate = g(xp, _clipped(xp, candidate, clip))
    return {"h": (_const(xp, h, 1) - z) * candidate + z * h}


def _lstm_cell(xp, node, gx, state, r, bias, peep, acts, clip):
    f, g, h_act = acts
    h, c = state["h"], state["c"]
    pre = gx + xp.matmul(h, xp.swapaxes(r, 0, 1))
    if bias is not None:
        pre = pre + bias[1]
    x_i, x_o, x_f, x_c = _split(xp, pre, 4)
    if peep is not None:
        x_i, x_f = x_i + peep[0] * c, x_f + peep[2] * c
    i = f(xp, _clipped(xp, x_i, clip))
    forget = f(xp, _clipped(xp, x_f, clip))
    c_new = forget * c + i * g(xp, _clipped(xp, x_c, clip))
    if peep is not None:
        x_o = x_o + peep[1] * c_new
    o = f(xp, _clipped(xp, x_o, clip))
    return {"h": o * h_act(xp, c_new), "c": c_new}


_CELLS = {"RNN": _rnn_cell, "GRU": _gru_cell, "LSTM": _lstm_cell}

recurrent_rules["RNN"] = _recurrent("RNN", 1, ["Tanh"])
recurrent_rules["GRU"] = _recurrent("GRU", 3, ["Sigmoid", "Tanh"])
recurrent_rules["LSTM"] = _recurrent("LSTM", 4, ["Sigmoid", "Tanh", "Tanh"])

__all__ = ["recurrent_rules"]
