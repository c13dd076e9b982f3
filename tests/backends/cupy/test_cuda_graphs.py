"""CUDA graphs of compiled plans (backends/cupy/graphs.py, arraystack.config.cuda_graphs) on the stand-in,
whose capturing streams record each operation and whose graphs run them again: the second call of a
plan captures it, later calls replay it with their own arguments and get new arrays; a plan that waits
for the device inside the capture runs step by step; the profiler and memory limits keep the step run."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.cupy import graphs

import arraystack as ast


@pytest.fixture
def counted(standin, monkeypatch):
    """Graphs on; counts of captures, replays and failed captures."""
    counts = {"captures": 0, "replays": 0, "failed": []}
    capture, replay, failed = (
        graphs.Captured.__init__,
        graphs.Captured.replay,
        graphs.Replays._capture,
    )

    def counting_capture(self, *args):
        capture(self, *args)
        counts["captures"] += 1

    def counting_replay(self, *args):
        counts["replays"] += 1
        return replay(self, *args)

    def noting_failure(self, *args):
        made = failed(self, *args)
        if made is None:
            counts["failed"].append(self.broken)
        return made

    monkeypatch.setattr(graphs.Captured, "__init__", counting_capture)
    monkeypatch.setattr(graphs.Captured, "replay", counting_replay)
    monkeypatch.setattr(graphs.Replays, "_capture", noting_failure)
    ast.config.cuda_graphs = True
    try:
        yield counts
    finally:
        ast.config.cuda_graphs = False


def _host(x):
    return np.asarray(x.to_device("cpu"))


def test_the_second_call_captures_and_later_calls_replay_with_their_own_arguments(counted):
    rng = np.random.default_rng(0)

    @ast.jit
    def f(w, x):
        h = ast.tanh(x @ w + 1.0)
        return ast.sum(h * h, axis=0), h.T, ast.max(h)

    kept = []
    for k in range(5):
        w, x = rng.standard_normal((4, 3)), rng.standard_normal((6, 4))
        given = (
            ast.asarray(x.T.copy(), device="cuda").T if k == 3 else ast.asarray(x, device="cuda")
        )
        s, ht, m = f(ast.asarray(w, device="cuda"), given)
        h = np.tanh(x @ w + 1.0)
        np.testing.assert_allclose(_host(s), (h * h).sum(0), rtol=1e-12)
        np.testing.assert_allclose(_host(ht), h.T, rtol=1e-12)
        np.testing.assert_allclose(_host(m), h.max(), rtol=1e-12)
        assert s.device == "cuda:0"
        kept.append((_host(s), s))
    assert counted == {"captures": 1, "replays": 4, "failed": []}
    for value, array in kept:  # a replay writes the graph's buffers, never an array handed out
        np.testing.assert_array_equal(_host(array), value)


def test_a_training_step_replayed_gives_the_bits_of_the_step_by_step_run(counted):
    rng = np.random.default_rng(1)
    params = [rng.standard_normal((8, 16)) * 0.3, np.zeros(16), rng.standard_normal((16, 3)) * 0.3]
    x, y = rng.standard_normal((40, 8)), np.eye(3)[rng.integers(0, 3, 40)]

    def loss(p, x, y):
        logits = ast.maximum(x @ p[0] + p[1], 0.0) @ p[2]
        m = ast.max(logits, axis=1, keepdims=True)
        lse = ast.log(ast.sum(ast.exp(logits - m), axis=1)) + m[:, 0]
        return ast.mean(lse - ast.sum(logits * y, axis=1))

    grad = ast.value_and_grad(loss)

    @ast.jit
    def step(p, x, y):
        value, g = grad(p, x, y)
        return value, [a - 0.1 * b for a, b in zip(p, g)]

    def train(graphs_on):
        ast.config.cuda_graphs = graphs_on
        p = [ast.asarray(a, device="cuda") for a in params]
        xs, ys = ast.asarray(x, device="cuda"), ast.asarray(y, device="cuda")
        values = []
        for _ in range(4):
            value, p = step(p, xs, ys)
            values.append(_host(value))
        return values, [_host(a) for a in p]

    with_graphs = train(True)
    assert counted["captures"] == 1 and counted["replays"] == 3
    without = train(False)
    for a, b in zip([*with_graphs[0], *with_graphs[1]], [*without[0], *without[1]]):
        assert a.tobytes() == b.tobytes()
    assert with_graphs[0][-1] < with_graphs[0][0]


def test_a_plan_that_waits_for_the_device_runs_step_by_step(counted):
    def body(c):
        return ast.tanh(c @ c.T) @ c * 0.25  # three steps: each trip replays the body's graph

    @ast.jit
    def halve(a):  # the loop's condition is read on the host after each body
        return ast.while_loop(lambda c: ast.sum(c * c) > 1.0, body, a) + 1.0

    for scale in (8.0, 3.0, 20.0):
        a = np.full((2, 2), scale)
        want = a.copy()
        while (want * want).sum() > 1.0:
            want = np.tanh(want @ want.T) @ want * 0.25
        np.testing.assert_allclose(_host(halve(ast.asarray(a, device="cuda"))), want + 1.0)
    # the whole plan was tried once, on its second call, and not again; the loop's body, a plan of its
    # own run once per trip, replays its graph (the condition, one step, runs as it is)
    (why,) = counted["failed"]
    assert "operation not permitted when stream is capturing" in why
    assert counted["captures"] == 1 and counted["replays"] > 0


def test_a_plan_of_one_step_runs_as_it_is(counted):
    f = ast.jit(lambda a: a * 2.0 + 1.0)  # one kernel: a graph would only add copies
    x = ast.asarray(np.arange(6.0), device="cuda")
    for _ in range(4):
        np.testing.assert_array_equal(_host(f(x)), np.arange(6.0) * 2 + 1)
    assert counted == {"captures": 0, "replays": 0, "failed": []}


def test_the_profiler_and_memory_limits_keep_the_step_by_step_run(counted, tmp_path):
    f = ast.jit(lambda a: ast.cumsum(a * 2.0) + 1.0)
    x = ast.asarray(np.arange(6.0), device="cuda")
    ast.config.memory_limit = {"cuda:0": 1 << 30}
    try:
        for _ in range(3):
            f(x)
    finally:
        ast.config.memory_limit = None
    with ast.profile(tmp_path / "trace.json"):
        for _ in range(3):
            f(x)
    assert counted["captures"] == 0
    for _ in range(2):
        np.testing.assert_array_equal(_host(f(x)), np.cumsum(np.arange(6.0) * 2) + 1)
    assert counted["captures"] == 1 and counted["replays"] == 1


def test_each_argument_layout_has_its_graph_and_the_latest_are_kept(counted):
    f = ast.jit(lambda a: ast.cumsum(ast.sum(a, axis=-1)))
    sizes = [(2, n) for n in range(3, 3 + graphs.GRAPHS_PER_PLAN + 2)]
    for shape in sizes + sizes[-1:]:
        for _ in range(2):
            a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
            got = _host(f(ast.asarray(a, device="cuda")))
            np.testing.assert_array_equal(got, np.cumsum(a.sum(-1)))
    assert counted["captures"] == len(sizes) and counted["replays"] == len(sizes) + 2
