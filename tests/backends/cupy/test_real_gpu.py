"""The GPU path end to end on a real device (`gpu`-marked; with ARRAYSTACK_CUDA_STANDIN=1 they run on the
stand-in for cupy instead, which proves the tests themselves on a machine without a GPU): jit of elementwise
chains with broadcasting and strides, row/column/whole reductions, argmax, cumulative sums, products,
float16/float64/int/bool/complex values, sizes 0 and 1, loops, gradients of jitted functions, eager
operations, memory limits, determinism, 64-bit indexing past 2**31 elements, and the exchange with cupy,
torch and jax. NumPy is the oracle."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from arraystack.backends.cupy import arrays as cupy_arrays

import arraystack as ast
from tests.arraystack.transforms.test_jit import layernorm, softmax

pytestmark = pytest.mark.gpu


def host(x):
    return np.asarray(x.to_device("cpu"))


def on_gpu(*hosts):
    return [ast.asarray(h, device="cuda") for h in hosts]


RNG = np.random.default_rng(0)
X = RNG.standard_normal((37, 1029)).astype(np.float32)
B = RNG.standard_normal(1029).astype(np.float32)


# name -> (fn(xp, *arrays), host arrays, rtol); every function is written once and run by NumPy and by
# arraystack.jit on the device
CASES = {
    "chain broadcast": (lambda xp, a, b: xp.tanh(a * b + 0.5) * 0.5 + xp.exp(-a * a), (X, B), 1e-5),
    "strided views": (lambda xp, a: xp.sin(a[::2, ::-3]) * 2.0 + 1.0, (X,), 1e-5),
    "softmax rows": (softmax, (X,), 1e-5),
    "layernorm rows": (layernorm, (X, B), 1e-4),
    "sum columns": (lambda xp, a: xp.sum(a * a, axis=0), (X,), 1e-5),
    "sum whole": (lambda xp, a: xp.sum(a * a), (X,), 1e-5),
    "mean var": (lambda xp, a: (xp.mean(a, axis=1), xp.var(a, axis=0)), (X,), 1e-4),
    "max min": (lambda xp, a: (xp.max(a, axis=1), xp.min(a, axis=0), xp.max(a)), (X,), 0),
    "argmax": (lambda xp, a: (xp.argmax(a, axis=1), xp.argmin(a, axis=0), xp.argmax(a)), (X,), 0),
    "cumsum": (lambda xp, a: (xp.cumsum(a, axis=1), xp.cumsum(a, axis=0)), (X[:, :200],), 1e-3),
    "matmul": (lambda xp, a, b: xp.tanh(a @ b[:, None] * 0.1), (X, B), 1e-4),
    "float64": (lambda xp, a: xp.log1p(xp.abs(a)) * xp.cos(a), (X.astype(np.float64),), 1e-12),
    "float16": (lambda xp, a: a * np.float16(2) + np.float16(1), (X[:4].astype(np.float16),), 0),
    "int32": (
        lambda xp, a: (a // 7 + a % 5, a & 12, xp.sum(a, axis=0)),
        ((X * 1000).astype(np.int32),),
        0,
    ),
    "bool where": (lambda xp, a: xp.where(a > 0, a, -a * 0.5), (X,), 0),
    "complex64": (
        lambda xp, a: (a * a + 1j, xp.abs(a)),
        ((X[:5] + 1j * X[5:10]).astype(np.complex64),),
        1e-5,
    ),
    "size 0": (lambda xp, a: (a * 2.0, xp.sum(a, axis=0)), (np.zeros((0, 5), np.float32),), 0),
    "size 1": (lambda xp, a: (xp.exp(a), xp.sum(a)), (np.full((1, 1), 0.5, np.float32),), 1e-6),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_jit_on_the_device_equals_numpy(name):
    fn, hosts, rtol = CASES[name]
    with np.errstate(all="ignore"):
        want = fn(np, *hosts)
    f = ast.jit(lambda *a: fn(ast, *a))
    got = f(*on_gpu(*hosts))
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    for g, w in zip(got, want):
        assert g.device == "cuda:0"
        g = host(g)
        assert g.dtype == np.asarray(w).dtype and g.shape == np.shape(w)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol and 1e-5)


def test_eager_operations_on_the_device_equal_numpy():
    a, b = on_gpu(X, B)
    checks = [
        (ast.sin(a) * 2 + 1, np.sin(X) * 2 + 1),
        (ast.sum(a, axis=1), X.sum(axis=1)),
        (a @ b, X @ B),
        (ast.sort(a, axis=1), np.sort(X, axis=1)),
        (ast.argsort(b), np.argsort(B)),
        (ast.concatenate([a, a], axis=0), np.concatenate([X, X])),
        (a.T.reshape(-1)[:50], X.T.reshape(-1)[:50]),
        (a[3:9, ::4], X[3:9, ::4]),
        (ast.where(a > 0, a, 0.0), np.where(X > 0, X, 0.0)),
        (ast.cumsum(b[:100]), np.cumsum(B[:100])),
        (ast.unique(ast.round(b)), np.unique(np.round(B))),
        (ast.lexsort([b, a[0]]), np.lexsort([B, X[0]])),
    ]
    for got, want in checks:
        assert got.device == "cuda:0"
        np.testing.assert_allclose(host(got), want, rtol=1e-4, atol=1e-5)


def test_loops_on_the_device():
    (a,) = on_gpu(X[:8, :16])

    def f(x):
        y = ast.fori_loop(0, 5, lambda i, c: c * 0.5 + ast.sin(c), x)
        z, ys = ast.scan(lambda c, r: (c + r, c * r), ast.zeros(16), x)
        w = ast.while_loop(lambda c: ast.sum(c) < 100.0, lambda c: c * 2.0 + 1.0, ast.abs(x))
        v = ast.cond(ast.sum(x) > 0, lambda t: t * 2.0, lambda t: -t, x)
        return y, z, ys, w, v

    got = ast.jit(f)(a)
    want = ast.jit(f)(ast.asarray(X[:8, :16]))
    for g, w in zip(got, want):
        assert g.device == "cuda:0"
        np.testing.assert_allclose(host(g), np.asarray(w), rtol=1e-5, atol=1e-6)


def test_gradients_of_a_jitted_function_on_the_device():
    rng = np.random.default_rng(1)
    w, x = rng.standard_normal((16, 8)), rng.standard_normal((32, 16))

    def loss(w, x):
        return ast.mean(ast.tanh(x @ w) ** 2)

    value, grad = ast.jit(ast.value_and_grad(loss))(*on_gpu(w, x))
    want_value, want_grad = ast.value_and_grad(loss)(w, x)
    assert grad.device == "cuda:0"
    np.testing.assert_allclose(host(value), np.asarray(want_value), rtol=1e-10)
    np.testing.assert_allclose(host(grad), np.asarray(want_grad), rtol=1e-10)
    eps, k = 1e-6, (3, 2)
    bumped = w.copy()
    bumped[k] += eps
    fd = (float(np.asarray(loss(bumped, x))) - float(np.asarray(want_value))) / eps
    assert abs(fd - host(grad)[k]) < 1e-5


def test_cuda_graphs_replay_a_training_step_with_the_bits_of_the_step_by_step_run():
    """arraystack.config.cuda_graphs: the second call captures (cupy's stream capture, a private memory
    pool, cuBLAS inside), later calls replay; the results are those of the plan run step by step."""
    rng = np.random.default_rng(2)
    params = [rng.standard_normal((64, 128)).astype(np.float32) * 0.1, np.zeros(128, np.float32)]
    params.append(rng.standard_normal((128, 10)).astype(np.float32) * 0.1)
    x = rng.standard_normal((300, 64)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 300)]

    def loss(p, x, y):
        logits = ast.maximum(x @ p[0] + p[1], 0.0) @ p[2]
        m = ast.max(logits, axis=1, keepdims=True)
        return ast.mean(
            ast.log(ast.sum(ast.exp(logits - m), axis=1)) + m[:, 0] - ast.sum(logits * y, 1)
        )

    grad = ast.value_and_grad(loss)

    @ast.jit
    def step(p, x, y):
        value, g = grad(p, x, y)
        return value, [a - 0.1 * b for a, b in zip(p, g)]

    def train(graphs_on, steps=5):
        ast.config.cuda_graphs = graphs_on
        try:
            p, xs, ys = on_gpu(*params), *on_gpu(x, y)
            values = []
            for _ in range(steps):
                value, p = step(p, xs, ys)
                values.append(host(value))
            return values + [host(a) for a in p]
        finally:
            ast.config.cuda_graphs = False

    for a, b in zip(train(True), train(False)):
        assert a.tobytes() == b.tobytes()


def test_reductions_give_the_same_bits_on_every_run():
    (a,) = on_gpu(RNG.standard_normal(3_000_001).astype(np.float32))
    f = ast.jit(lambda x: (ast.sum(x * x), ast.cumsum(x)[-1], ast.argmax(x)))
    first = [host(v) for v in f(a)]
    for _ in range(3):
        for g, w in zip(f(a), first):
            np.testing.assert_array_equal(host(g), w)


def test_index_arithmetic_past_2_31_elements():
    xp = cupy_arrays.cupy_module()
    if cupy_arrays._standin() is not None:
        pytest.skip("the stand-in holds device memory in this machine's RAM")
    n = (1 << 31) + 77
    flags = ast.asarray(xp.zeros(n, dtype=xp.int8))
    total = ast.jit(lambda m: ast.sum((m + 1).astype(ast.int64)))(flags)
    assert int(host(total)) == n
    last = ast.jit(lambda m: m * 3 + 1)(flags)
    assert int(host(last[-1:])[0]) == 1
    del flags, last


def test_memory_limit_raises_out_of_memory_naming_the_device(monkeypatch):
    (a,) = on_gpu(X)
    monkeypatch.setattr(ast.config, "memory_limit", {"cuda:0": 1024})
    with pytest.raises(ast.OutOfMemory, match="cuda:0"):
        ast.jit(lambda x: ast.exp(x) * 2.0 + x)(a)


def test_arrays_cross_to_numpy_only_explicitly_and_to_cupy_without_a_copy():
    xp = cupy_arrays.cupy_module()
    (a,) = on_gpu(X)
    with pytest.raises(TypeError):
        np.asarray(a)
    c = xp.asarray(a)
    assert c.data.ptr == a.__cuda_array_interface__["data"][0]
    back = ast.from_dlpack(xp.arange(5.0))
    assert back.device == "cuda:0"
    np.testing.assert_array_equal(host(back), np.arange(5.0))


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dlpack_with_torch():
    import torch

    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")
    (a,) = on_gpu(X)
    t = torch.from_dlpack(a)
    assert t.is_cuda and t.data_ptr() == a.__cuda_array_interface__["data"][0]
    back = ast.from_dlpack(torch.arange(6.0, device="cuda") * 2)
    assert back.device == "cuda:0"
    np.testing.assert_array_equal(host(back), np.arange(6.0) * 2)


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_dlpack_with_jax():
    import jax

    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("jax sees no GPU")
    (a,) = on_gpu(X)
    j = jax.dlpack.from_dlpack(a)
    np.testing.assert_array_equal(np.asarray(j), X)
    back = ast.from_dlpack(jax.numpy.arange(4.0) + 1)
    assert back.device == "cuda:0"
    np.testing.assert_array_equal(host(back), np.arange(4.0) + 1)


def test_plan_explain_shows_measured_beside_predicted():
    from arraystack.backends.hardware import HardwareModel

    class OnTheDevice:
        def place(self, eqn, cost, devices, current):
            return "cuda:0"

    model = ast.devices()
    keep = ("cpu", "cuda:0")
    model = HardwareModel(
        tuple(d for d in model if d.key in keep),
        tuple(link for link in model.links if link.src in keep and link.dst in keep),
    )
    f = ast.jit(lambda a: ast.tanh(a * 2.0 + 1.0).sum(axis=1))
    plan = f.lower(X).plan(policy=OnTheDevice(), devices=model)
    np.testing.assert_allclose(np.asarray(plan.run(X)), np.tanh(X * 2 + 1).sum(axis=1), rtol=1e-4)
    text = plan.explain()
    assert "measured" in text and "cuda:0" in text
