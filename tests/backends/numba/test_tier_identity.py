"""Tiered compilation's two tiers compute the same bits: tier 0 (the numba backend's NumPy twin,
backends/numba/twin.py) and tier 1 (the compiled kernels), on the transcendental functions the kernels
compute with their own polynomials, on float sums and products in every reduction form, and on whole
training steps. (tests/backends/numba/test_tiering.py checks the switch between the tiers inside
jit.)"""

from __future__ import annotations

import numpy
import pytest
from arraystack.backends import compile_graph

import arraystack as ast
from tests import oracle

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # tier 0 runs NumPy, which warns


def _tiers(fun, *args):
    """(tier-0 outputs, tier-1 outputs, the tier-0 plan) of fun's optimized graph on args."""
    graph = ast.jit(fun).lower(*args).optimized
    buffers = [numpy.asarray(a) for a in args]
    twin = compile_graph(graph, "numba", tier=0)
    compiled = compile_graph(graph, "numba")
    return twin(*buffers), compiled(*buffers), twin.steps


def assert_tiers_agree(fun, *args):
    tier0, tier1, steps = _tiers(fun, *args)
    assert any("twin" in how for _, how in steps), steps  # the twin ran, not only reference steps
    oracle.assert_same_bits(list(tier0), list(tier1), "tier 1 against tier 0: output")


def _values(dtype, n=20000, seed=0):
    """Random values over many binades plus the special values."""
    rng = numpy.random.default_rng(seed)
    info = numpy.finfo(dtype)
    x = (rng.standard_normal(n) * numpy.exp(rng.uniform(-12, 6, n))).astype(dtype)
    specials = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, info.tiny, info.tiny / 8, -info.tiny / 8,
                info.max, -info.max, 88.72, -87.3, 709.7, -745.0, 1e-30, -1e-30, 20.0, -20.0, 9.0, -9.0]
    x[: len(specials)] = numpy.array(specials, dtype=numpy.float64).astype(dtype)
    return x


FUNCTIONS = {
    "exp": lambda x: ast.exp(x) * 0.5 + 1.0,
    "expm1": lambda x: ast.expm1(x) - x,
    "log": lambda x: ast.log(ast.abs(x)) + ast.log(x),
    "tanh": lambda x: ast.tanh(x * 0.75) + x,
    "logistic": lambda x: ast.nn.sigmoid(x) * 2.0,
    "erf": lambda x: ast.nn.gelu(x) + x,  # x * 0.5 * (1 + erf(x / sqrt(2)))
    "chain": lambda x: ast.tanh(x * x + 0.5) * 0.5 + ast.exp(-x * x),
    "sin cos": lambda x: ast.sin(x) * 0.5 + ast.cos(x * 3e5),  # float32: x * 3e5 crosses 2**20
    "sum sin": lambda x: ast.sum(ast.sin(x) * x),  # float32 sin stays out of the reducing region
    "softplus": lambda x: ast.nn.softplus(x) + ast.log1p(x),
    "powers": lambda x: x**3 * 0.5 + x**4,  # float32: fused, in float64 (twin.py follows)
}


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_transcendental_functions(name, dtype):
    assert_tiers_agree(FUNCTIONS[name], _values(dtype))


SHAPES_AND_AXES = [
    ((1,), None), ((63,), None), ((64,), None), ((65,), None), ((257,), None), ((100003,), None),
    ((0,), None), ((7, 129), 1), ((7, 129), 0), ((129, 7), None), ((3, 70, 5), (0, 2)), ((3, 70, 5), 1),
    ((3, 70, 5), (1, 2)), ((2, 1, 300), 2), ((4096, 33), 1),
]


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape, axis", SHAPES_AND_AXES, ids=[f"{s}-{a}" for s, a in SHAPES_AND_AXES])
def test_sums_and_products(shape, axis, dtype):
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal(shape).astype(dtype)
    assert_tiers_agree(
        lambda x: (ast.sum(x, axis=axis), ast.sum(x * x + 1.0, axis=axis), ast.mean(x, axis=axis),
                   ast.prod(1.0 + x * 1e-3, axis=axis)),
        x,
    )


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_sums_over_special_values_and_strided_inputs(dtype):
    x = _values(dtype, 5000)
    assert_tiers_agree(lambda x: (ast.sum(x), ast.sum(x[::3]), ast.sum(x[::-1])), x)
    assert_tiers_agree(lambda x: ast.sum(x.reshape(50, 100).T, axis=1), x)


def softmax(x):
    e = ast.exp(x - ast.max(x, axis=-1, keepdims=True))
    return e / ast.sum(e, axis=-1, keepdims=True)


def layernorm(x):
    m = ast.mean(x, axis=-1, keepdims=True)
    v = ast.mean((x - m) ** 2, axis=-1, keepdims=True)
    return (x - m) / ast.sqrt(v + 1e-5)


@pytest.mark.parametrize("fun", [softmax, layernorm])
@pytest.mark.parametrize("shape", [(8, 1000), (3, 5, 17), (1, 4096)])
def test_row_softmax_and_layernorm(fun, shape):
    x = numpy.random.default_rng(3).standard_normal(shape).astype(numpy.float32) * 4
    assert_tiers_agree(fun, x)


def mlp_step(params, x, y):
    def loss(p):
        h = ast.tanh(x @ p["w1"] + p["b1"])
        g = ast.nn.sigmoid(h @ p["w2"] + p["b2"]) * h[:, :10]
        logits = g @ p["w3"]
        shifted = logits - ast.max(logits, axis=1, keepdims=True)
        logp = shifted - ast.log(ast.sum(ast.exp(shifted), axis=1, keepdims=True))
        return -ast.mean(ast.sum(logp * y, axis=1))

    value, grads = ast.value_and_grad(loss)(params)
    return value, {k: params[k] - 0.1 * grads[k] for k in params}


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_a_training_step_updates_parameters_identically(dtype):
    rng = numpy.random.default_rng(4)
    params = {
        "w1": rng.standard_normal((64, 32)) * 0.2, "b1": rng.standard_normal(32) * 0.1,
        "w2": rng.standard_normal((32, 10)) * 0.3, "b2": numpy.zeros(10),
        "w3": rng.standard_normal((10, 10)) * 0.3,
    }
    params = {k: v.astype(dtype) for k, v in params.items()}
    x = rng.standard_normal((128, 64)).astype(dtype)
    y = numpy.eye(10, dtype=dtype)[rng.integers(0, 10, 128)]
    f = lambda w1, b1, w2, b2, w3, x, y: mlp_step(  # noqa: E731
        {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "w3": w3}, x, y
    )
    assert_tiers_agree(f, *params.values(), x, y)


def test_jit_switches_tiers_without_changing_a_bit(monkeypatch):
    """Through jit itself: the first call (tier 0) and a call after the switch (tier 1) agree."""
    import threading

    import arraystack.backends.numba.tiering as tiering

    gate, compile_now = threading.Event(), tiering.Tier._compile
    monkeypatch.setattr(tiering.Tier, "_compile", lambda self, *a: (gate.wait(300), compile_now(self, *a)))
    monkeypatch.setattr(ast.config, "tier_compile", "thread")
    x = _values(numpy.float32, 4096, seed=5)
    f = ast.jit(lambda x: (ast.tanh(x) * ast.exp(-x * x), ast.sum(ast.log1p(x * x)), softmax(x[:4000].reshape(40, 100))),
                tiered=True)
    first = [numpy.asarray(o) for o in f(ast.asarray(x))]
    (entry,) = f._cache.values()
    assert entry.tier == 0
    gate.set()
    assert f.wait_compiled(timeout=300) and entry.tier == 1
    later = [numpy.asarray(o) for o in f(ast.asarray(x))]
    for a, b in zip(first, later):
        assert a.tobytes() == b.tobytes()
