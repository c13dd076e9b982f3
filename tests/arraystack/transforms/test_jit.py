"""arraystack.jit: results equal eager and NumPy, caching is never stale, errors say what to do."""

from __future__ import annotations

import collections
import threading

import numpy as np
import pytest

import arraystack as ast
from arraystack.ir.core import ConcretizationError, TracerError

BACKENDS = ["numba", "reference"]


def chain(xp, a, b, c):
    return xp.tanh(a * b + c) * 0.5 + xp.exp(-a * a)


def softmax(xp, x):
    e = xp.exp(x - xp.max(x, axis=-1, keepdims=True))
    return e / xp.sum(e, axis=-1, keepdims=True)


def layernorm(xp, x, g):
    mu = xp.mean(x, axis=-1, keepdims=True)
    d = x - mu
    return d / xp.sqrt(xp.mean(d * d, axis=-1, keepdims=True) + 1e-5) * g


def sumsq(xp, x):
    return xp.sum(x * x)


def colsum_scaled(xp, x, y):
    return xp.sum(x * 2.0, axis=0) + xp.max(y, axis=1)


def mixed(xp, i, f):
    return (i * 3 + 1) < f, xp.maximum(i, 7) * f, i * i


def ints(xp, a, b):
    return a * b + a - b, (a & b) ^ 5, -a, xp.abs(a), a > b


CASES = [
    ("chain", chain, lambda r: [r.standard_normal(s).astype(np.float32) for s in [(1000,)] * 3]),
    ("chain_big", chain, lambda r: [r.standard_normal(s).astype(np.float32) for s in [(70000,)] * 3]),
    ("chain_f64_2d", chain, lambda r: [r.standard_normal((37, 19)) for _ in range(3)]),
    ("softmax", softmax, lambda r: [r.standard_normal((64, 33)).astype(np.float32)]),
    ("softmax_big", softmax, lambda r: [r.standard_normal((256, 300)).astype(np.float32)]),
    ("layernorm", layernorm, lambda r: [r.standard_normal((16, 32)), r.standard_normal(32)]),
    ("sumsq", sumsq, lambda r: [r.standard_normal(100000).astype(np.float32)]),
    ("sumsq_small", sumsq, lambda r: [r.standard_normal(7)]),
    ("colsum", colsum_scaled, lambda r: [r.standard_normal((5, 6)), r.standard_normal((6, 4))]),
    ("mixed", mixed, lambda r: [r.integers(-5, 5, (4, 5)).astype(np.int16), r.standard_normal((4, 5)).astype(np.float32)]),
    ("ints_wrap", ints, lambda r: [r.integers(-128, 127, 50).astype(np.int8), r.integers(-128, 127, 50).astype(np.int8)]),
]


def _compare(expected, actual):
    expected = expected if isinstance(expected, tuple) else (expected,)
    actual = actual if isinstance(actual, tuple) else (actual,)
    assert len(expected) == len(actual)
    for e, a in zip(expected, actual):
        a = np.asarray(a)
        e = np.asarray(e)
        assert a.dtype == e.dtype and a.shape == e.shape
        if e.dtype.kind == "f":
            np.testing.assert_allclose(a, e, rtol=2e-5 if e.dtype == np.float32 else 1e-12, atol=1e-6)
        else:
            np.testing.assert_array_equal(a, e)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", CASES, ids=[c[0] for c in CASES])
def test_jit_matches_numpy_and_eager(name, fn, make, backend):
    args = make(np.random.default_rng(0))
    expected = fn(np, *args)
    as_args = [ast.asarray(a) for a in args]
    _compare(expected, fn(ast, *as_args))
    jf = ast.jit(lambda *xs: fn(ast, *xs), backend=backend)
    _compare(expected, jf(*as_args))
    _compare(expected, jf(*as_args))  # cached
    assert jf.stats()["traces"] == 1 and jf.stats()["cache_hits"] == 1


SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 1e-40, 100.0, -100.0, 1e30, -1e30])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "fn",
    [
        lambda xp, x: xp.exp(x),
        lambda xp, x: xp.tanh(x),
        lambda xp, x: xp.log(xp.abs(x)),
        lambda xp, x: xp.maximum(x, 0.0) - xp.minimum(x, -0.0),
        lambda xp, x: xp.sqrt(x * x) / x,
        lambda xp, x: xp.max(x) + xp.sum(x),
    ],
)
def test_special_values_match_numpy(fn, dtype):
    x = SPECIAL.astype(dtype)
    with np.errstate(all="ignore"):
        expected = fn(np, x)
        got = ast.jit(lambda v: fn(ast, v))(ast.asarray(x))
    np.testing.assert_array_max_ulp(np.asarray(got), np.asarray(expected), maxulp=4)


@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1,), (5, 1, 3)])
def test_zero_d_and_empty(shape):
    x = np.ones(shape, np.float32) * 1.5
    f = ast.jit(lambda v: ast.exp(v) * 2 + v)
    _compare(np.exp(x) * 2 + x, f(ast.asarray(x)))


def test_non_contiguous_and_negative_strides():
    base = np.random.default_rng(1).standard_normal((20, 30))
    for view in (base[::2, ::3], base[::-1], base.T, base[:, ::-2]):
        f = ast.jit(lambda v: ast.tanh(v) + v * v)
        _compare(np.tanh(view) + view * view, f(ast.asarray(view)))


def test_new_shape_retraces_without_recompiling_kernels():
    from arraystack.backends.numba.kernels import compile_counts

    f = ast.jit(lambda v: ast.tanh(v * 3.0) + 1.0)
    f(ast.asarray(np.ones(10, np.float32)))
    kernels = compile_counts()["kernels"]
    f(ast.asarray(np.ones(17, np.float32)))
    f(ast.asarray(np.ones(29, np.float32)))
    assert f.stats()["traces"] == 3
    assert compile_counts()["kernels"] == kernels  # the same shape-generic kernel serves every size


def test_global_array_rebound_gives_fresh_results():
    global W
    W = ast.asarray(np.ones(4))
    f = ast.jit(lambda x: x * W)
    x = ast.asarray(np.arange(4.0))
    np.testing.assert_array_equal(np.asarray(f(x)), np.arange(4.0))
    W = ast.asarray(np.full(4, 2.0))
    np.testing.assert_array_equal(np.asarray(f(x)), 2 * np.arange(4.0))
    W = ast.asarray(np.full(1, 3.0))  # new shape: retrace
    np.testing.assert_array_equal(np.asarray(f(x)), 3 * np.arange(4.0))
    assert f.stats()["traces"] == 2


def test_closure_array_mutated_or_rebound_gives_fresh_results():
    scale = np.ones(3)

    def make():
        return ast.jit(lambda x: x + scale)

    f = make()
    x = ast.asarray(np.zeros(3))
    assert np.asarray(f(x)).tolist() == [1, 1, 1]
    scale[:] = 5  # mutated in place: the captured buffer is an input, not a constant
    assert np.asarray(f(x)).tolist() == [5, 5, 5]


def test_static_argument_changes_the_program():
    f = ast.jit(lambda x, n: x * n if n > 2 else x - n, static_argnums=1)
    x = ast.asarray(np.ones(3))
    assert np.asarray(f(x, 3)).tolist() == [3, 3, 3]
    assert np.asarray(f(x, 1)).tolist() == [0, 0, 0]
    assert f.stats()["traces"] == 2
    with pytest.raises(TypeError, match="hashable"):
        f(x, [1])


def test_python_scalars_are_weak_and_do_not_retrace():
    f = ast.jit(lambda x, s: x * s)
    x = ast.asarray(np.ones(3, np.float32))
    assert f(x, 2.0).dtype == np.float32
    assert np.asarray(f(x, 3.0)).tolist() == [3, 3, 3]
    assert f.stats()["traces"] == 1


def test_pytrees_in_and_out():
    Point = collections.namedtuple("Point", "x y")

    @ast.jit
    def f(params, p):
        return {"out": params["w"] * p.x + params["b"], "y": p.y}

    params = {"w": ast.asarray(np.full(2, 2.0)), "b": ast.asarray(np.ones(2))}
    out = f(params, Point(ast.asarray(np.arange(2.0)), ast.asarray(np.zeros(2))))
    assert set(out) == {"out", "y"}
    assert np.asarray(out["out"]).tolist() == [1.0, 3.0]


def test_concurrent_calls_from_eight_threads():
    f = ast.jit(lambda v: ast.exp(v) * 2.0)
    errors = []

    def work(k):
        try:
            for n in range(5):
                x = np.full(10 + k, float(n))
                np.testing.assert_allclose(np.asarray(f(ast.asarray(x))), np.exp(x) * 2)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_corrupt_kernel_file_is_rebuilt(tmp_path, monkeypatch):
    from arraystack.backends.numba import kernels

    source = (
        "@numba.njit(cache=True)\ndef kernel(n0, a0, o0):\n    for i in range(n0):\n"
        "        o0[i] = a0[i] + 41.5\n"
    )
    monkeypatch.setattr(kernels, "_dispatchers", {})
    kernels.load_kernel(source, cache_dir=str(tmp_path))
    path = next(tmp_path.rglob("k_*.py"))
    path.write_text("this is not python (")
    monkeypatch.setattr(kernels, "_dispatchers", {})
    kernel, fresh = kernels.load_kernel(source, cache_dir=str(tmp_path))
    out = np.zeros(2)
    kernel(2, np.ones(2), out)
    assert fresh and out.tolist() == [42.5, 42.5]


def test_disable_jit_runs_eagerly(monkeypatch):
    monkeypatch.setattr(ast.config, "disable_jit", True)
    seen = []
    f = ast.jit(lambda x: seen.append(type(x._value)) or x + 1)
    f(ast.asarray(np.ones(2)))
    assert seen == [np.ndarray]


@pytest.mark.parametrize(
    "body,fix",
    [
        (lambda x: 1 if x.sum() > 0 else 0, "static_argnums"),
        (lambda x: int(x[0]), "static_argnums"),
        (lambda x: float(x.sum()), "static_argnums"),
        (lambda x: x.sum().item(), "static_argnums"),
        (lambda x: np.asarray(x), "NumPy array"),
        (lambda x: x[x > 0], "size="),
    ],
)
def test_tracer_errors_name_the_line_and_the_fix(body, fix):
    f = ast.jit(body)
    with pytest.raises(TracerError) as info:
        f(ast.asarray(np.ones(3)))
    message = str(info.value)
    assert "test_jit.py" in message and fix in message


def test_concretization_error_is_a_type_error():
    with pytest.raises(TypeError):
        ast.jit(lambda x: bool(x))(ast.asarray(np.ones(1)))
    assert issubclass(ConcretizationError, TracerError)


def test_lower_and_compile_show_ir_plan_and_source():
    f = ast.jit(lambda a, b: ast.tanh(a * b) + 1.0)
    a = ast.asarray(np.ones(4, np.float32))
    lowered = f.lower(a, a)
    text = lowered.as_text()
    assert "tanh" in text and "fusion" in text
    compiled = lowered.compile().as_text()
    assert "numba kernel" in compiled and "tanh_f32" in compiled
    graph = ast.make_graph(lambda a, b: a * b)(a, a)
    assert [e.prim.name for e in graph.eqns] == ["mul"]


def test_donated_argument_buffer_receives_the_output():
    x = ast.asarray(np.linspace(-3, 3, 1000))
    buffer = x._value
    f = ast.jit(lambda v: ast.exp(v) * 0.5, donate_argnums=0)
    out = f(x)
    np.testing.assert_allclose(np.asarray(out), np.exp(np.linspace(-3, 3, 1000)) * 0.5)
    assert out.__array__() is buffer  # written in place: the donated input is consumed
    y = ast.asarray(np.arange(1000.0))
    g = ast.jit(lambda v: ast.exp(v) * 0.5)
    assert not np.shares_memory(np.asarray(g(y)), y._value)  # without donation: never overwritten


@pytest.mark.parametrize("backend", BACKENDS)
def test_outputs_never_alias_the_arguments(backend):
    x = ast.asarray(np.arange(6.0))
    for fn in (lambda v: v, lambda v: v.reshape(2, 3), lambda v: v[::2], lambda v: (v, v.T)):
        out = ast.jit(fn, backend=backend)(x)
        for o in out if isinstance(out, tuple) else (out,):
            assert not np.shares_memory(np.asarray(o), np.asarray(x))
