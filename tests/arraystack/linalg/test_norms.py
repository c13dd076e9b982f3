"""norm, vector_norm, matrix_norm, cond and matrix_rank against numpy.linalg."""

from __future__ import annotations

import functools

import numpy
import pytest

import arraystack
from tests import oracle

rng = numpy.random.default_rng(11)
inf = numpy.inf


make = functools.partial(oracle.make, seed=rng, ints=(-4, 5))


DTYPES = ["bool", "int32", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (0,), (0, 3), ()])
def test_norm_default(parity, shape, dtype):
    rtol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
    parity(lambda xp, x: xp.linalg.norm(x), make(shape, dtype), rtol=rtol)
    parity(lambda xp, x: xp.linalg.norm(x, keepdims=True), make(shape, dtype), rtol=rtol)


@pytest.mark.parametrize("ord", [None, 2, 1, 0, inf, -inf, 3, 0.5, -1, -2, "fro", "nuc"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_vector_orders(parity, ord, dtype):
    rtol = 1e-5 if dtype == "float32" else 1e-12
    x = make((3, 4), dtype)
    parity(lambda xp, x: xp.linalg.norm(x, ord=ord, axis=1), x, rtol=rtol)
    parity(lambda xp, x: xp.linalg.norm(x, ord=ord, axis=0, keepdims=True), x, rtol=rtol)
    parity(lambda xp, x: xp.linalg.norm(x, ord=ord), x[0], rtol=rtol)


@pytest.mark.parametrize("ord", [None, "fro", "nuc", inf, -inf, 1, -1, 2, -2, 3, "bad"])
@pytest.mark.parametrize("axis", [None, (0, 1), (1, 0), (-1, -2)])
def test_matrix_orders(parity, ord, axis):
    x = make((3, 4))
    rtol = 1e-12
    parity(lambda xp, x: xp.linalg.norm(x, ord=ord, axis=axis), x, rtol=rtol)
    parity(lambda xp, x: xp.linalg.norm(x, ord=ord, axis=axis, keepdims=True), x, rtol=rtol)
    if axis is not None:
        parity(lambda xp, x: xp.linalg.norm(x, ord=ord, axis=(0, 2)), make((3, 2, 4)), rtol=rtol)


def test_norm_errors(parity):
    x = make((2, 3, 4))
    parity(lambda xp, x: xp.linalg.norm(x, axis=(0, 1, 2)), x)
    parity(lambda xp, x: xp.linalg.norm(x, axis=(1, 1)), x)
    parity(lambda xp, x: xp.linalg.norm(x, axis=1.5), x)
    parity(lambda xp, x: xp.linalg.norm(x, ord=2), x)  # 3-d with axis None


@pytest.mark.parametrize("ord", [2, 1, inf, -inf, 0, 3])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), (2, 0)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm(parity, ord, axis, keepdims):
    x = make((2, 3, 4))
    parity(
        lambda xp, x: xp.linalg.vector_norm(x, ord=ord, axis=axis, keepdims=keepdims), x, rtol=1e-12
    )


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, inf, -inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(parity, ord, keepdims):
    parity(
        lambda xp, x: xp.linalg.matrix_norm(x, ord=ord, keepdims=keepdims),
        make((2, 3, 4)),
        rtol=1e-12,
    )
    parity(lambda xp, x: xp.linalg.matrix_norm(x), make((3, 3), "int32"), rtol=1e-12)


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, inf, -inf, "fro", "nuc"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_cond(parity, p, dtype):
    x = make((2, 3, 3), dtype) + numpy.eye(3).astype(dtype)
    rtol = 1e-4 if dtype == "float32" else 1e-10
    parity(lambda xp, x: xp.linalg.cond(x, p), x, rtol=rtol)


def test_cond_special(parity):
    parity(lambda xp, x: xp.linalg.cond(x), make((4, 3)))
    parity(lambda xp, x: xp.linalg.cond(x, 1), make((4, 3)))
    parity(lambda xp, x: xp.linalg.cond(x), make((0, 0)))
    singular = numpy.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]]])
    parity(lambda xp, x: xp.linalg.cond(x, "fro"), singular, traced=False)
    parity(
        lambda xp, x: xp.linalg.cond(x, 1),
        numpy.array([[numpy.nan, 1.0], [1.0, 1.0]]),
        traced=False,
    )


def test_matrix_rank(parity):
    low = make((5, 2)) @ make((2, 4))
    parity(lambda xp, x: xp.linalg.matrix_rank(x), low)
    parity(lambda xp, x: xp.linalg.matrix_rank(x), numpy.stack([low[:4], numpy.eye(4)]))
    parity(lambda xp, x: xp.linalg.matrix_rank(x, tol=0.5), make((3, 3)))
    parity(lambda xp, x: xp.linalg.matrix_rank(x, rtol=0.5), make((3, 3)))
    parity(lambda xp, x: xp.linalg.matrix_rank(x, rtol=numpy.array([0.1, 0.9])), make((2, 3, 3)))
    parity(lambda xp, x: xp.linalg.matrix_rank(x, hermitian=True), low[:4] @ low[:4].T)
    assert arraystack.linalg.matrix_rank(arraystack.asarray(numpy.zeros(3))) == 0
    assert arraystack.linalg.matrix_rank(arraystack.asarray(numpy.ones(3))) == 1


def test_norm_grad(check_grads_like=None):
    x = make((3, 4))
    g = arraystack.grad(lambda v: arraystack.linalg.norm(v))(arraystack.asarray(x))
    numpy.testing.assert_allclose(numpy.asarray(g), x / numpy.linalg.norm(x), rtol=1e-12)
