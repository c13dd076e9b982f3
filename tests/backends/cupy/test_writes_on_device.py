"""Writes under jit on a CUDA device (the stand-in): update_slice and scatter write into their operand's
device buffer where it dies there and nothing alive sees it (backends/updates.py, the rule the numba
plan uses), into a copy otherwise; host loops donate the carries their bodies write. NumPy is the
oracle."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.updates import describe

import arraystack as ast
from tests.backends.cupy.cuda_check import needs_nvrtc

pytestmark = needs_nvrtc
IN_PLACE = describe(True)


def _host(value):
    return np.asarray(value.to_device("cpu"))


def _writes(text):
    plan = text.split("# optimized")[0]
    return [
        line
        for line in plan.splitlines()
        if line.lstrip("# ").startswith(("update_slice", "scatter"))
    ]


def rows(x):
    out = ast.zeros_like(x)
    for i in range(x.shape[0]):
        out[i] = ast.tanh(x[i]) * 2 + 1
    out[1:, ::3] = -out[:-1, 1::3][:, :1]
    return out


def test_row_writes_run_in_the_device_buffer(standin):
    x = np.random.default_rng(0).standard_normal((5, 7)).astype(np.float32)
    xd = ast.asarray(x, device="cuda")
    steps = _writes(ast.jit(rows, tiered=False).lower(xd).compile().as_text())
    assert len(steps) == 6 and all(IN_PLACE in line for line in steps), steps
    got = ast.jit(rows, tiered=False)(xd)
    assert got.device == "cuda:0"
    want = np.zeros_like(x)
    for i in range(5):
        want[i] = np.tanh(x[i]) * 2 + 1
    want[1:, ::3] = -want[:-1, 1::3][:, :1]
    np.testing.assert_allclose(_host(got), want, rtol=1e-6)


def test_a_value_still_read_after_a_write_is_copied_first(standin):
    def functional(x):
        y = x * 2
        v = y[1:3]
        z = y.at[1].set(7.0)
        w = z.at[ast.asarray([0, 3])].set(v[1, 0])  # a scatter into z, which dies here
        return w, v, y

    x = np.arange(12.0).reshape(4, 3)
    xd = ast.asarray(x, device="cuda")
    steps = _writes(ast.jit(functional, tiered=False).lower(xd).compile().as_text())
    assert [IN_PLACE in line for line in steps] == [False, True], steps
    y = x * 2
    w = y.copy()
    w[1] = 7.0
    w[[0, 3]] = y[2, 0]
    for got, want in zip(ast.jit(functional, tiered=False)(xd), (w, y[1:3], y)):
        np.testing.assert_array_equal(_host(got), want)


def test_a_device_argument_is_written_only_when_donated(standin):
    def f(x):
        return x.at[1:3].set(x[2:4] * 10)

    x0 = np.arange(8.0)
    want = x0.copy()
    want[1:3] = x0[2:4] * 10
    xd = ast.asarray(x0, device="cuda")
    assert IN_PLACE not in _writes(ast.jit(f, tiered=False).lower(xd).compile().as_text())[0]
    np.testing.assert_array_equal(_host(ast.jit(f, tiered=False)(xd)), want)
    np.testing.assert_array_equal(_host(xd), x0)  # the argument as it was
    donated = ast.asarray(x0, device="cuda")
    buffer = donated._value
    out = ast.jit(f, tiered=False, donate_argnums=0)(donated)
    np.testing.assert_array_equal(_host(out), want)
    assert out._value is buffer  # the donated argument's own device buffer, written


@pytest.mark.parametrize("bound", ["static", "traced"])
def test_loops_writing_rows_of_a_carry(standin, bound):
    def f(x, n):
        stop = x.shape[0] if bound == "static" else n

        def body(i, carry):
            out, twin, seen = carry
            out = out.at[i].set(ast.sin(x[i]) + i)
            # the next step's two carries are one buffer: the written one is copied before the write,
            # and twin's row i, read after it, is still the previous step's (zero)
            return out, out, seen + twin[i]

        return ast.fori_loop(0, stop, body, (ast.zeros_like(x), x * 0, x[0] * 0))

    x = np.random.default_rng(1).standard_normal((4, 6))
    xd = ast.asarray(x, device="cuda")
    out, twin, seen = ast.jit(f, tiered=False)(xd, 4)
    want = np.sin(x) + np.arange(4.0)[:, None]
    np.testing.assert_allclose(_host(out), want, rtol=1e-12)
    np.testing.assert_allclose(_host(twin), want, rtol=1e-12)
    np.testing.assert_array_equal(_host(seen), np.zeros(6))
    np.testing.assert_array_equal(_host(xd), x)


def test_gradient_through_device_writes(standin, check_grads):
    def f(x):
        return ast.sum(rows(x) ** 2)

    x = np.random.default_rng(2).standard_normal((3, 4))
    g = ast.jit(ast.grad(f))(ast.asarray(x, device="cuda"))
    np.testing.assert_allclose(_host(g), np.asarray(ast.grad(f)(x)), rtol=1e-10)


def test_in_place_writes_replayed_as_cuda_graphs(standin, monkeypatch):
    from arraystack.backends.cupy import graphs

    replays = []
    replay = graphs.Captured.replay

    def counting(self, *args):
        replays.append(1)
        return replay(self, *args)

    monkeypatch.setattr(graphs.Captured, "replay", counting)
    f = ast.jit(rows, tiered=False)
    ast.config.cuda_graphs = True
    try:
        kept = []
        for k in range(4):
            x = np.random.default_rng(k).standard_normal((5, 7))
            got = f(ast.asarray(x, device="cuda"))
            kept.append((got, _host(got)))
            want = np.zeros_like(x)
            for i in range(5):
                want[i] = np.tanh(x[i]) * 2 + 1
            want[1:, ::3] = -want[:-1, 1::3][:, :1]
            np.testing.assert_allclose(kept[-1][1], want, rtol=1e-12)
    finally:
        ast.config.cuda_graphs = False
    assert len(replays) == 3  # the second call captures (and replays), later ones replay
    for array, value in kept:  # a replay's writes never reach an array handed out before
        np.testing.assert_array_equal(_host(array), value)
