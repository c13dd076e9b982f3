"""Loops compiled whole (backends/numba/loops.py): fori_loop, while_loop and scan run as one numba function
when their bodies lower, with the host loop's results (bit for bit where no BLAS product is involved), and
the plan says which loops compiled and why the others did not."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast
from arraystack.backends.numba import loop_source, loops


def _plan(f, *args) -> str:
    return f.lower(*args).compile().as_text()


@pytest.fixture
def host_loops(monkeypatch):
    """Plans compiled inside the block run their loops on the host (the path a body that does not lower
    takes): the reference for the compiled loops."""

    def refuse(eqn, cache_dir, host_step):
        raise loop_source.Unsupported("switched off by the test")

    def run(f, *args):
        with monkeypatch.context() as m:
            m.setattr(loops, "compile_loop", refuse)
            g = ast.jit(f, tiered=False)
            assert "host loop over compiled bodies: switched off" in _plan(g, *args)
            return g(*args)

    return run


def _both(f, host_loops, *args):
    g = ast.jit(f, tiered=False)
    assert "compiled loop (numba)" in _plan(g, *args)
    return g(*args), host_loops(f, *args)


def _same(a, b):
    for x, y in zip(a if isinstance(a, tuple) else (a,), b if isinstance(b, tuple) else (b,)):
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)


def test_fori_scalar_carry(host_loops):
    f = lambda c: ast.fori_loop(0, 1000, lambda i, c: c * 0.999 + 1.0, c)  # noqa: E731
    got, host = _both(f, host_loops, np.float64(1.0))
    c = 1.0
    for _ in range(1000):
        c = c * 0.999 + 1.0
    assert float(got) == c
    _same(got, host)


def test_fori_uses_the_index_and_integer_wraparound(host_loops):
    def f(x):
        return ast.fori_loop(0, 300, lambda i, c: c * np.int8(3) + i.astype(np.int8), x)

    x = np.int8(1)
    got, host = _both(f, host_loops, x)
    want = np.int8(1)
    with np.errstate(over="ignore"):
        for i in range(300):
            want = np.int8(want * np.int8(3) + np.array(i).astype(np.int8))
    assert got.dtype == np.int8 and int(got) == int(want)
    _same(got, host)


def test_while_loop_array_carry_and_counter(host_loops):
    def f(v):
        return ast.while_loop(lambda s: ast.sum(s[1]) < 1e6, lambda s: (s[0] + 1, s[1] * 1.5 + 1), (0, v))

    v = np.linspace(0, 1, 7, dtype=np.float32)
    (n, out), host = _both(f, host_loops, v)
    k, w = 0, v.copy()
    while w.sum() < 1e6:
        k, w = k + 1, w * np.float32(1.5) + np.float32(1)
    assert int(n) == k
    np.testing.assert_array_equal(np.asarray(out), w)
    _same((n, out), host)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_with_consts_xs_and_stacked_ys(host_loops, reverse):
    w = np.arange(12, dtype=np.float64).reshape(3, 4) / 10

    def f(h0, xs, scalars):
        def step(h, x):
            x, s = x
            h = ast.tanh(h * w[0] + x * s) - ast.mean(h)
            return h, (h.sum(), h[1:3])

        return ast.scan(step, h0, (xs, scalars), reverse=reverse)

    h0 = np.ones(4)
    xs = np.random.default_rng(0).standard_normal((9, 4))
    scalars = np.linspace(-1, 1, 9)
    got, host = _both(f, host_loops, h0, xs, scalars)
    h, sums, parts = h0, [], []
    order = range(8, -1, -1) if reverse else range(9)
    stacked = {}
    for t in order:
        h = np.tanh(h * w[0] + xs[t] * scalars[t]) - h.mean()
        stacked[t] = (h.sum(), h[1:3])
    np.testing.assert_allclose(np.asarray(got[0]), h, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(got[1][0]), [stacked[t][0] for t in range(9)], rtol=1e-12)
    np.testing.assert_allclose(np.asarray(got[1][1]), [stacked[t][1] for t in range(9)], rtol=1e-13)
    _same(tuple(ast.tree_util.leaves(got)), tuple(ast.tree_util.leaves(host)))


def test_nested_loops_and_a_branch(host_loops):
    def f(x):
        def outer(i, c):
            inner = ast.fori_loop(0, 3, lambda j, d: d + j * i, c)
            return ast.cond(i % 2 == 0, lambda v: v * 2.0, lambda v: v - 1.0, inner)

        return ast.fori_loop(0, 6, outer, x)

    x = np.arange(4.0)
    got, host = _both(f, host_loops, x)
    c = x.copy()
    for i in range(6):
        for j in range(3):
            c = c + j * i
        c = c * 2.0 if i % 2 == 0 else c - 1.0
    np.testing.assert_array_equal(np.asarray(got), c)
    _same(got, host)


def test_indexing_and_updates_at_the_loop_index(host_loops):
    def f(xs):
        def body(i, c):
            out, total = c
            total = total + xs[i] * xs[-1 - i]
            out[i] = total.sum()
            out[0] += 1.0
            return out, total

        return ast.fori_loop(0, xs.shape[0], body, (ast.zeros(xs.shape[0]), ast.zeros(xs.shape[1])))

    xs = np.random.default_rng(1).standard_normal((5, 3))
    got, host = _both(f, host_loops, xs)
    out, total = np.zeros(5), np.zeros(3)
    for i in range(5):
        total = total + xs[i] * xs[-1 - i]
        out[i] = total.sum()
        out[0] += 1.0
    np.testing.assert_allclose(np.asarray(got[0]), out, rtol=1e-14)
    _same(got, host)


def test_index_out_of_range_raises_numpys_error():
    def f(xs, k):
        return ast.fori_loop(0, 3, lambda i, c: c + xs[i + k], ast.zeros(xs.shape[1]))

    xs = np.ones((4, 2))
    g = ast.jit(f, tiered=False)
    assert "compiled loop" in _plan(g, xs, 1)
    np.testing.assert_array_equal(np.asarray(g(xs, 1)), np.full(2, 3.0))
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        g(xs, 2)
    np.testing.assert_array_equal(np.asarray(g(xs, -4)), np.full(2, 3.0))  # negative: NumPy's meaning


def test_structural_operations_in_a_body(host_loops):
    def f(a):
        def body(i, c):
            t = c.T.reshape(c.shape)  # transpose, reshape
            p = ast.pad(t[:, 1:], ((0, 0), (0, 1)))  # slice, pad
            q = ast.concatenate([p[:1], p[1:][::-1]], axis=0)  # concatenate, rev
            r = q + ast.arange(c.shape[1]).astype(c.dtype) * i.astype(c.dtype)  # iota, convert, broadcast
            return ast.where(r > 5, r / 3, r + 1)

        return ast.fori_loop(0, 5, body, a)

    a = np.arange(9, dtype=np.float32).reshape(3, 3)
    got, host = _both(f, host_loops, a)
    c = a.copy()
    for i in range(5):
        t = c.T.reshape(c.shape)
        p = np.pad(t[:, 1:], ((0, 0), (0, 1)))
        q = np.concatenate([p[:1], p[1:][::-1]], axis=0)
        r = q + np.arange(3).astype(np.float32) * np.float32(i)
        c = np.where(r > 5, r / np.float32(3), r + np.float32(1))
    np.testing.assert_allclose(np.asarray(got), c, rtol=1e-6)
    _same(got, host)


def test_products_in_a_body_call_blas():
    pytest.importorskip("scipy")
    m = np.random.default_rng(2).standard_normal((6, 6)) / 3

    def f(v):
        def body(i, c):
            v, s = c
            w = m @ v + v @ m.T
            return w / ast.linalg.norm(w), s + v @ w

        return ast.fori_loop(0, 20, body, (v, 0.0))

    v = np.ones(6) / np.sqrt(6)
    g = ast.jit(f, tiered=False)
    assert "BLAS product" in _plan(g, v)
    got = g(v)
    want, s = v, 0.0
    for _ in range(20):
        w = m @ want + want @ m.T
        s = s + want @ w
        want = w / np.linalg.norm(w)
    np.testing.assert_allclose(np.asarray(got[0]), want, rtol=1e-12)
    np.testing.assert_allclose(float(got[1]), s, rtol=1e-12)


def test_a_body_without_a_lowering_runs_on_the_host_and_says_why():
    def f(x):
        return ast.fori_loop(0, 3, lambda i, c: ast.sort(c * -1.0), x)

    g = ast.jit(f, tiered=False)
    assert "host loop over compiled bodies: sort has no compiled-loop lowering" in _plan(g, np.arange(4.0))
    np.testing.assert_array_equal(np.asarray(g(np.arange(4.0))), -np.arange(4.0)[::-1])


def test_gru_gradient_through_a_compiled_scan():
    from arraystack import nn, prng

    gru = nn.GRU(5, 4, key=prng.key(0))
    xs = np.random.default_rng(3).standard_normal((6, 2, 5)).astype(np.float64)
    gru = ast.tree_util.tree_map(lambda p: p.astype(np.float64), gru)

    def loss(m, xs):
        return ast.mean(m(xs)[0] ** 2)

    g = ast.jit(ast.value_and_grad(loss), tiered=False)
    assert "compiled loop" in _plan(g, gru, xs)
    value, grads = g(gru, xs)
    value_e, grads_e = ast.value_and_grad(loss)(gru, xs)
    np.testing.assert_allclose(float(value), float(value_e), rtol=1e-13)
    for a, b in zip(ast.tree_util.leaves(grads), ast.tree_util.leaves(grads_e)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-11, atol=1e-14)
    # and against finite differences on one weight
    eps, (i, j) = 1e-6, (1, 2)
    w = np.asarray(gru.weight_hh).copy()
    bumped = []
    for sign in (1, -1):
        w2 = w.copy()
        w2[i, j] += sign * eps
        bumped.append(float(loss(gru.replace(weight_hh=ast.asarray(w2)), xs)))
    fd = (bumped[0] - bumped[1]) / (2 * eps)
    np.testing.assert_allclose(np.asarray(grads.weight_hh)[i, j], fd, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_integer_remainder_fmod_and_floor_division_by_positive_constants_compile(dtype):
    info = np.iinfo(dtype)
    values = [info.min, info.min + 1, -7, -3, -1, 0, 1, 2, 3, 7, info.max - 1, info.max]
    a = np.unique(np.array([v for v in values if info.min <= v <= info.max], dtype=dtype))
    f = ast.jit(
        lambda x: (x % 3, x // 4, (x + x % 5) // 7, ast.fmod(x, 3), ast.fmod(x, dtype(info.max))),
        tiered=False,
    )
    plan = _plan(f, a)
    assert "reference" not in plan.split("# optimized graph")[0]
    with np.errstate(over="ignore"):
        want = (a % dtype(3), a // dtype(4), (a + a % dtype(5)) // dtype(7), np.fmod(a, dtype(3)))
        want = (*want, np.fmod(a, dtype(info.max)))
    for got, expected in zip(f(a), want):
        assert np.asarray(got).dtype == expected.dtype
        np.testing.assert_array_equal(np.asarray(got), expected)


def test_division_by_a_variable_or_a_negative_constant_keeps_numpys_special_cases():
    f = ast.jit(lambda x, y: (x % y, x // -2, ast.fmod(x, y)), tiered=False)
    a, b = np.arange(-4, 4), np.array([0, 1, 2, 3, 0, -1, -2, -3])
    plan = _plan(f, a, b)
    assert plan.count("reference: rem") + plan.count("reference: floordiv") == 2
    assert plan.count("reference: fmod") == 1
    with np.errstate(divide="ignore", invalid="ignore"):
        want = (a % b, a // -2, np.fmod(a, b))
    for got, expected in zip(f(a, b), want):
        np.testing.assert_array_equal(np.asarray(got), expected)


def test_a_body_with_parallel_sized_kernels_stays_a_host_loop():
    from arraystack.backends.numba import PARALLEL_THRESHOLD

    x = np.linspace(-1, 1, PARALLEL_THRESHOLD, dtype=np.float32)
    g = ast.jit(lambda x: ast.fori_loop(0, 2, lambda i, c: ast.tanh(c * 0.5 + 0.25), x), tiered=False)
    assert f"a kernel of {PARALLEL_THRESHOLD} elements runs in parallel from a host loop" in _plan(g, x)
    want = x
    for _ in range(2):
        want = np.tanh(want * np.float32(0.5) + np.float32(0.25))
    np.testing.assert_allclose(np.asarray(g(x)), want, rtol=2e-6)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_carries_products_and_functions_compile(host_loops, dtype):
    """A body of complex arithmetic, exp, abs, conj, real and a complex product compiles whole; its bits
    are the host loop's (the same kernels), and NumPy's for the elementwise part."""
    pytest.importorskip("scipy")
    rng = np.random.default_rng(5)
    xs = (rng.standard_normal((40, 6)) + 1j * rng.standard_normal((40, 6))).astype(dtype)
    m = ((rng.standard_normal((6, 6)) + 1j * rng.standard_normal((6, 6))) / 6).astype(dtype)
    w = np.asarray(np.exp(0.3j) * 0.9, dtype)

    def f(z0, xs):
        def body(z, x):
            z = z * w + ast.exp(x * 0.1) - ast.conj(z) / 3
            return z, ast.abs(z) + ast.real(z)

        return ast.scan(body, z0, xs)

    def g(v):
        return ast.fori_loop(0, 5, lambda i, v: m @ v / 2 + 1j, v)

    z0 = np.ones(6, dtype)
    got, host = _both(f, host_loops, z0, xs)
    _same(got, host)
    z, ys = z0, []
    for x in xs:
        z = z * w + np.exp(x * np.float32(0.1) if dtype == np.complex64 else x * 0.1) - np.conj(z) / 3
        ys.append(np.abs(z) + z.real)
    np.testing.assert_array_equal(np.asarray(got[0]).view(np.uint8), z.view(np.uint8))
    np.testing.assert_array_equal(np.asarray(got[1]), np.array(ys))
    got, host = _both(g, host_loops, z0)
    assert "BLAS product" in _plan(ast.jit(g, tiered=False), z0)
    want = z0
    for _ in range(5):
        want = m @ want / 2 + 1j
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5 if dtype == np.complex64 else 1e-13)
    np.testing.assert_allclose(np.asarray(host), want, rtol=1e-5 if dtype == np.complex64 else 1e-13)


def test_a_complex_to_real_conversion_keeps_the_host_loop():
    f = ast.jit(lambda z: ast.fori_loop(0, 3, lambda i, c: c + z.astype(np.float64), np.zeros(2)), tiered=False)
    z = np.array([1 + 2j, 3 - 1j])
    with pytest.warns(np.exceptions.ComplexWarning):
        text = _plan(f, z)
        out = f(z)
    np.testing.assert_array_equal(np.asarray(out), [3.0, 9.0])
    assert "host loop over compiled bodies: a complex -> real conversion (NumPy's ComplexWarning)" in text


@pytest.mark.parametrize("dtype", [np.float16, ast.bfloat16])
def test_float16_and_bfloat16_loops_compile_on_their_bits(host_loops, dtype):
    """Half-precision values cross the compiled loop as their bits: kernels widen and round them (the
    host loop's bits), slices, concatenations, pads, constants and indexed sets move the bits."""
    rng = np.random.default_rng(6)
    xs = rng.standard_normal((30, 8)).astype(dtype)

    def f(z0, xs):
        def body(z, x):
            z = ast.tanh(z * 0.5 + x)
            return z, (z * 2).astype(np.float32)

        return ast.scan(body, z0, xs)

    def g(v):
        def body(i, v):
            v = ast.concatenate([v[1:], v[:1]]) * 1.5 - 0.25
            v = ast.pad(v[:4], (1, 1), constant_values=-0.5)
            v[i % 6] = v[0] + 1
            return v

        return ast.fori_loop(0, 10, body, v)

    got, host = _both(f, host_loops, np.ones(8, dtype), xs)
    assert np.asarray(got[0]).dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(got[0]).view(np.uint16), np.asarray(host[0]).view(np.uint16))
    _same(got[1], host[1])
    v = np.arange(6).astype(dtype)
    got, host = _both(g, host_loops, v)
    np.testing.assert_array_equal(np.asarray(got).view(np.uint16), np.asarray(host).view(np.uint16))
    want = v
    for i in range(10):  # NumPy computes each step in the dtype (kernels: one rounding per region output)
        w = np.concatenate([want[1:], want[:1]]).astype(np.float32) * 1.5 - 0.25
        w = np.pad(w.astype(dtype)[:4], (1, 1), constant_values=-0.5)
        w[i % 6] = (w[0].astype(np.float32) + 1).astype(dtype)
        want = w
    np.testing.assert_array_equal(np.asarray(got).view(np.uint16), want.view(np.uint16))


def test_arithmetic_on_half_precision_bits_outside_a_kernel_keeps_the_host_loop():
    def body(i, v):
        ast.add.at(v, i, ast.float16(1.0))  # a scatter-add
        return v

    def f(v):
        return ast.fori_loop(0, 3, body, v)

    g = ast.jit(f, tiered=False)
    v = np.zeros(4, np.float16)
    assert "host loop over compiled bodies: a scatter-add of float16 values outside a kernel" in _plan(g, v)
    np.testing.assert_array_equal(np.asarray(g(v)), [1, 1, 1, 0])
