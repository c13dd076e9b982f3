"""Derivatives of the fft primitive against finite differences, and its vmap against a loop."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

RNG = numpy.random.default_rng(0)
REAL = RNG.standard_normal((3, 6))
CPLX = RNG.standard_normal((3, 6)) + 1j * RNG.standard_normal((3, 6))
NORMS = ["backward", "ortho", "forward"]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize(
    "name, kwargs, arg",
    [
        ("fft", {}, CPLX),
        ("fft", {}, REAL),
        ("ifft", {"n": 4, "axis": 0}, CPLX),
        ("rfft", {}, REAL),
        ("rfft", {"n": 5, "axis": 0}, REAL),
        ("irfft", {}, CPLX),
        ("irfft", {"n": 7}, CPLX),
        ("irfft", {"n": 4, "axis": 0}, CPLX),
        ("hfft", {}, CPLX),
        ("ihfft", {}, REAL),
        ("fftn", {}, CPLX),
        ("ifft2", {"s": (4, 3), "axes": (0, 1)}, CPLX),
        ("rfftn", {"axes": (1, 0)}, REAL),
        ("rfft2", {"s": (2, 5), "axes": (0, 1)}, REAL),
        ("irfftn", {}, CPLX),
        ("irfft2", {"s": (3, 9), "axes": (0, 1)}, CPLX),
        ("fftn", {"axes": (1, 1)}, CPLX),
    ],
)
def test_grads(check_grads, name, kwargs, arg, norm):
    def f(x):
        return getattr(ast.fft, name)(x, norm=norm, **kwargs)

    check_grads(f, [arg])


def test_grads_under_jit_and_second_order(check_grads):
    def loss(x):
        spectrum = ast.fft.rfft(ast.sin(x), norm="ortho")
        return ast.fft.irfft(spectrum * spectrum, n=6)

    check_grads(loss, [REAL], jit=True)
    check_grads(loss, [REAL], order=2)


def test_grad_of_a_power_spectrum():
    x = REAL[0]
    g = ast.grad(lambda v: ast.sum(ast.abs(ast.fft.fft(v)) ** 2))(ast.asarray(x))
    # Parseval: sum |F x|^2 = n sum x^2, so the gradient is 2 n x
    numpy.testing.assert_allclose(numpy.asarray(g), 2 * x.size * x, rtol=1e-12)


@pytest.mark.parametrize(
    "name, kwargs, arg",
    [
        ("fft", {"axis": 0}, CPLX),
        ("rfft2", {}, REAL),
        ("irfft", {"n": 9}, CPLX),
        ("ihfft", {}, REAL),
    ],
)
def test_vmap_and_jacobians(name, kwargs, arg):
    def f(x):
        return getattr(ast.fft, name)(x, **kwargs)

    batch = numpy.stack([arg, 2 * arg, arg[::-1]])
    got = numpy.asarray(ast.vmap(f)(ast.asarray(batch)))
    want = numpy.stack([getattr(numpy.fft, name)(b, **kwargs) for b in batch])
    numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    if arg is REAL:  # jacfwd (batched jvp) agrees with jacrev (batched vjp) on a real function

        def g(x):
            return ast.real(f(x))

        fwd = numpy.asarray(ast.jacfwd(g)(ast.asarray(arg)))
        rev = numpy.asarray(ast.jacrev(g)(ast.asarray(arg)))
        numpy.testing.assert_allclose(fwd, rev, rtol=1e-12, atol=1e-12)
