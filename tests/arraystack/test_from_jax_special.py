"""from_jax of the lax primitives that JAX lowers as lax programs (arraystack/jax_import/rules_lowered.py):
the incomplete gamma and beta functions, bessel_i0e and jax.random's gamma sampler, against JAX's values
and derivatives."""

from __future__ import annotations

import warnings

import numpy
import pytest

jax = pytest.importorskip("jax", reason="from_jax traces JAX functions: needs jax and jaxlib")

import jax.numpy as jnp
import jax.scipy.special as jsp

import arraystack as ast

A = numpy.array([0.5, 1.0, 3.0, 10.0, 40.0], numpy.float32)
X = numpy.array([0.2, 1.0, 2.5, 12.0, 30.0], numpy.float32)
KEY = jax.random.PRNGKey(7)


def close(got, want, rtol=2e-6):
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


@pytest.mark.parametrize(
    "f",
    [
        jsp.gammainc,
        jsp.gammaincc,
        lambda a, x: jsp.betainc(a, a + 1, x / 31),
        lambda a, x: jsp.i0e(x - a),
    ],
    ids=["gammainc", "gammaincc", "betainc", "i0e"],
)
def test_values_are_jaxs_eagerly_and_under_jit(f):
    converted = ast.from_jax(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # XLA's arithmetic raises no floating-point warnings
        close(converted(A, X), jax.jit(f)(A, X))
    compiled = ast.jit(converted)
    close(compiled(A, X), jax.jit(f)(A, X))  # the first tier (NumPy) of the plan
    compiled.wait_compiled()
    close(compiled(A, X), jax.jit(f)(A, X))
    # betainc's loop body has a region without a numba lowering (fmod), run by reference rules: its
    # 0-d results are NumPy scalars, which the host loop hands back to kernels as arrays
    close(ast.jit(converted, tiered=False)(A, X), jax.jit(f)(A, X))


@pytest.mark.parametrize("f", [jsp.gammainc, jsp.gammaincc], ids=["gammainc", "gammaincc"])
def test_incomplete_gamma_gradients_are_jaxs(f):
    loss = lambda a, x: jnp.sum(f(a, x))
    got = ast.grad(ast.from_jax(loss), argnums=(0, 1))(A, X)
    want = jax.grad(loss, argnums=(0, 1))(A, X)
    for g, w in zip(got, want):
        close(g, w, rtol=1e-5)


def test_betainc_forward_derivative_is_jaxs():
    f = lambda x: jnp.sum(jsp.betainc(2.0, 3.0, x))
    x, t = numpy.float32([0.3, 0.6]), numpy.float32([1.0, 1.0])
    for g, w in zip(ast.jvp(ast.from_jax(f), (x,), (t,)), jax.jvp(f, (x,), (t,))):
        close(g, w, rtol=1e-5)


def test_gamma_samples_are_jaxs():
    """The same draws and the same accept/reject steps; log and pow may round one ulp apart."""
    f = lambda key, a: jax.random.gamma(key, a, (3, 5))
    close(ast.from_jax(f)(KEY, A), f(KEY, A), rtol=1e-6)
    g = lambda key, a: jax.random.loggamma(key, a, (5,))
    close(ast.from_jax(g)(KEY, A), g(KEY, A))


def test_samplers_built_on_gamma_are_jaxs():
    f = lambda key: (
        jax.random.beta(key, 2.0, 3.0, (4,)),
        jax.random.dirichlet(key, jnp.array([1.0, 2.0, 3.0]), (2,)),
        jax.random.chisquare(key, 3.0, (3,)),
    )
    for got, want in zip(ast.from_jax(f)(KEY), f(KEY)):
        close(got, want, rtol=1e-5)


def test_gamma_sample_gradient_is_jaxs_implicit_one():
    f = lambda a: jnp.sum(jax.random.gamma(KEY, a))
    close(ast.grad(ast.from_jax(f))(A), jax.grad(f)(A), rtol=1e-5)


def test_bessel_i1e_converts_to_the_composition_with_jaxs_values_and_derivative():
    x = numpy.array([-30.0, -2.5, -0.3, 0.0, 0.7, 4.0, 19.5, 20.5, 80.0], numpy.float32)
    converted = ast.from_jax(jsp.i1e)
    close(converted(x), jax.jit(jsp.i1e)(x), rtol=1e-6)
    close(ast.jit(converted)(x), jax.jit(jsp.i1e)(x), rtol=1e-6)
    loss = lambda v: jnp.sum(jsp.i1e(v))
    close(ast.grad(ast.from_jax(loss))(x), jax.grad(loss)(x), rtol=1e-5)


def test_zeta_and_polygamma_convert_with_jaxs_values_and_derivative():
    x = numpy.array([1.5, 2.0, 3.5, 7.0], numpy.float32)
    q = numpy.array([0.3, 1.0, 2.5, 40.0], numpy.float32)
    close(ast.from_jax(jsp.zeta)(x, q), jax.jit(jsp.zeta)(x, q), rtol=1e-6)
    negative = numpy.array([-2.5, -0.5, 0.5, 3.0], numpy.float32)
    for n in (0, 1, 3):
        f = lambda v, n=n: jsp.polygamma(n, v)  # noqa: E731
        close(ast.from_jax(f)(negative), jax.jit(f)(negative), rtol=1e-5)
    loss = lambda v: jnp.sum(jsp.polygamma(1, v))
    close(ast.grad(ast.from_jax(loss))(q), jax.grad(loss)(q), rtol=1e-5)
