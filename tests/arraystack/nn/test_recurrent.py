"""LSTM and GRU cells against NumPy step functions, run through arraystack.scan, eager and jit, with
gradients against finite differences."""

from __future__ import annotations

import numpy
import pytest
import scipy.special

import arraystack as ast
from arraystack import nn

RNG = numpy.random.default_rng(4)
IN, HID, BATCH, STEPS = 3, 4, 2, 5


def _np_lstm(p, carry, x):
    c, h = carry
    z = x @ p["wi"] + h @ p["wh"] + p["b"]
    i, f, g, o = numpy.split(z, 4, axis=-1)
    s = scipy.special.expit
    c = s(f) * c + s(i) * numpy.tanh(g)
    h = s(o) * numpy.tanh(c)
    return (c, h), h


def _np_gru(p, h, x):
    xr, xz, xn = numpy.split(x @ p["wi"] + p["bi"], 3, axis=-1)
    hr, hz, hn = numpy.split(h @ p["wh"] + p["bh"], 3, axis=-1)
    s = scipy.special.expit
    r, z = s(xr + hr), s(xz + hz)
    n = numpy.tanh(xn + r * hn)
    h = (1 - z) * n + z * h
    return h, h


def _params(kind):
    gates = 4 if kind == "lstm" else 3
    p = {
        "wi": RNG.standard_normal((IN, gates * HID)) * 0.5,
        "wh": RNG.standard_normal((HID, gates * HID)) * 0.5,
    }
    if kind == "lstm":
        p["b"] = RNG.standard_normal(gates * HID) * 0.1
    else:
        p["bi"] = RNG.standard_normal(gates * HID) * 0.1
        p["bh"] = RNG.standard_normal(gates * HID) * 0.1
    return p


def _np_run(kind, p, xs):
    step = _np_lstm if kind == "lstm" else _np_gru
    carry = (numpy.zeros((BATCH, HID)),) * 2 if kind == "lstm" else numpy.zeros((BATCH, HID))
    ys = []
    for x in xs:
        carry, y = step(p, carry, x)
        ys.append(y)
    return numpy.stack(ys)


def _run(kind, p, xs):
    cell = nn.lstm_cell if kind == "lstm" else nn.gru_cell
    carry = (
        nn.lstm_carry((BATCH,), HID, ast.float64)
        if kind == "lstm"
        else nn.gru_carry((BATCH,), HID, ast.float64)
    )
    _, ys = ast.scan(lambda c, x: cell(p, c, x), carry, xs)
    return ys


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_cell_under_scan(kind):
    p = _params(kind)
    xs = RNG.standard_normal((STEPS, BATCH, IN))
    expected = _np_run(kind, p, xs)
    ap = {k: ast.asarray(v) for k, v in p.items()}
    numpy.testing.assert_allclose(
        numpy.asarray(_run(kind, ap, ast.asarray(xs))), expected, rtol=1e-10
    )
    jitted = ast.jit(lambda p, xs: _run(kind, p, xs))(ap, ast.asarray(xs))
    numpy.testing.assert_allclose(numpy.asarray(jitted), expected, rtol=1e-10)


def _unrolled(kind, p, xs):
    """The same recurrence as a Python loop (differentiable without scan's own rules)."""
    cell = nn.lstm_cell if kind == "lstm" else nn.gru_cell
    carry = (
        nn.lstm_carry((BATCH,), HID, ast.float64)
        if kind == "lstm"
        else nn.gru_carry((BATCH,), HID, ast.float64)
    )
    ys = []
    for t in range(xs.shape[0]):
        carry, y = cell(p, carry, xs[t])
        ys.append(y)
    return ast.stack(ys)


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_gradients_through_time(kind, check_grads):
    p = _params(kind)
    xs = RNG.standard_normal((3, BATCH, IN))
    names = sorted(p)
    check_grads(
        lambda xs, *leaves: ast.sum(_unrolled(kind, dict(zip(names, leaves)), xs)[-1] ** 2),
        [xs, *(p[n] for n in names)],
    )


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_gradients_through_scan(kind):
    p = {k: ast.asarray(v) for k, v in _params(kind).items()}
    xs = ast.asarray(RNG.standard_normal((3, BATCH, IN)))

    def loss(p, xs, run):
        return ast.sum(run(kind, p, xs)[-1] ** 2)

    expected = ast.grad(loss)(p, xs, _unrolled)
    got = ast.grad(loss)(p, xs, _run)
    for name in p:
        numpy.testing.assert_allclose(
            numpy.asarray(got[name]), numpy.asarray(expected[name]), rtol=1e-10
        )


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_single_step_unbatched(kind, check_grads):
    p = _params(kind)
    x = RNG.standard_normal(IN)
    if kind == "lstm":
        carry = (RNG.standard_normal(HID), RNG.standard_normal(HID))
        expected = _np_lstm(p, carry, x)[1]
        f = lambda x, c, h: nn.lstm_cell({k: ast.asarray(v) for k, v in p.items()}, (c, h), x)[1]
        args = [x, *carry]
    else:
        carry = RNG.standard_normal(HID)
        expected = _np_gru(p, carry, x)[1]
        f = lambda x, h: nn.gru_cell({k: ast.asarray(v) for k, v in p.items()}, h, x)[1]
        args = [x, carry]
    numpy.testing.assert_allclose(
        numpy.asarray(f(*[ast.asarray(a) for a in args])), expected, rtol=1e-12
    )
    check_grads(f, args)
