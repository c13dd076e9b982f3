"""Random compositions of primitives: grad under jit equals grad in eager mode, and both match finite
differences; vmap(grad) equals a loop."""

from __future__ import annotations

import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import arraystack as ast

UNARY = {
    "sin": ast.sin,
    "cos": ast.cos,
    "tanh": ast.tanh,
    "exp_bounded": lambda a: ast.exp(ast.tanh(a)),
    "logistic": lambda a: 1 / (1 + ast.exp(-a)),
    "square": lambda a: a * a,
    "log1p_sq": lambda a: ast.log1p(a * a),
    "sqrt_pos": lambda a: ast.sqrt(a * a + 1.0),
    "cumsum": lambda a: ast.cumsum(a, axis=-1),
    "flip": lambda a: a[..., ::-1],
    "softmaxish": lambda a: a - ast.max(a, axis=-1, keepdims=True),
    "mean_b": lambda a: a - ast.mean(a, axis=0),
    "relu": lambda a: ast.maximum(a, 0.1),
}
BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div_safe": lambda a, b: a / (1.5 + ast.sin(b)),
    "where": lambda a, b: ast.where(a > b, a, b * 2.0),
    "matmul_t": lambda a, b: a @ b.T @ a,
}


def build(program):
    def f(x, y):
        vals = [x, y]
        for kind, name, i, j in program:
            a, b = vals[i % len(vals)], vals[j % len(vals)]
            vals.append(UNARY[name](a) if kind == "u" else BINARY[name](a, b))
        return ast.sum(vals[-1] * vals[-1])

    return f


step = st.one_of(
    st.tuples(st.just("u"), st.sampled_from(sorted(UNARY)), st.integers(0, 20), st.integers(0, 20)),
    st.tuples(st.just("b"), st.sampled_from(sorted(BINARY)), st.integers(0, 20), st.integers(0, 20)),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(step, min_size=1, max_size=6), st.integers(0, 2**31 - 1))
def test_random_compositions(program, seed):
    rng = numpy.random.default_rng(seed)
    x, y = rng.uniform(-1, 1, (3, 3)), rng.uniform(-1, 1, (3, 3))
    f = build(program)
    gx, gy = ast.grad(f, argnums=(0, 1))(x, y)
    jx, jy = ast.jit(ast.grad(f, argnums=(0, 1)))(x, y)
    numpy.testing.assert_allclose(numpy.asarray(jx), numpy.asarray(gx), rtol=1e-9, atol=1e-9)
    numpy.testing.assert_allclose(numpy.asarray(jy), numpy.asarray(gy), rtol=1e-9, atol=1e-9)
    t = rng.standard_normal(x.shape)
    eps = 1e-6
    fd = (float(f(ast.asarray(x + eps * t), y)) - float(f(ast.asarray(x - eps * t), y))) / (2 * eps)
    analytic = float(numpy.sum(numpy.asarray(gx) * t))
    assert abs(fd - analytic) <= 1e-4 * max(1.0, abs(fd)), (fd, analytic)
    _, tangent = ast.jvp(lambda a: f(a, y), (x,), (t,))
    assert abs(float(tangent) - analytic) <= 1e-7 * max(1.0, abs(analytic))


@settings(max_examples=15, deadline=None)
@given(st.lists(step, min_size=1, max_size=4), st.integers(0, 2**31 - 1))
def test_vmap_of_grad_matches_a_loop(program, seed):
    rng = numpy.random.default_rng(seed)
    xs, y = rng.uniform(-1, 1, (4, 3, 3)), rng.uniform(-1, 1, (3, 3))
    f = build(program)
    batched = numpy.asarray(ast.vmap(ast.grad(f), in_axes=(0, None))(xs, y))
    for k in range(4):
        numpy.testing.assert_allclose(batched[k], numpy.asarray(ast.grad(f)(xs[k], y)), rtol=1e-9, atol=1e-9)
