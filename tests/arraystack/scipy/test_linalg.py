"""arraystack.scipy.linalg against scipy.linalg: values, SciPy's conventions (which triangle is read, the
upper Cholesky factor, qr's modes), errors, and expm under jit and grad."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import arraystack as ast

L = ast.scipy.linalg
RNG = np.random.default_rng(0)
M = RNG.standard_normal((4, 4))
SPD = M @ M.T + 4 * np.eye(4)
B = RNG.standard_normal((4, 2))
HPD = SPD + 1j * (np.triu(M, 1) - np.triu(M, 1).T)  # Hermitian positive definite


def close(got, want, rtol=1e-12):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=rtol * np.abs(want).max())


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("a", [SPD, HPD], ids=["real", "complex"])
def test_cholesky_and_cho_solve_read_one_triangle(a, lower):
    # the other triangle holds garbage: SciPy never reads it, and neither does this
    junk = np.triu(a, 1) * 0 + (np.tril(a, -1) if not lower else np.triu(a, 1)) * 7.0
    garbled = np.where(junk != 0, junk, a)
    close(L.cholesky(garbled, lower=lower), sl.cholesky(garbled, lower=lower))
    c = L.cho_factor(garbled, lower=lower)
    assert c[1] is lower
    close(L.cho_solve(c, B), sl.cho_solve(sl.cho_factor(garbled, lower=lower), B))
    close(L.cho_solve(c, B[:, 0]), sl.cho_solve(sl.cho_factor(garbled, lower=lower), B[:, 0]))


@pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("unit_diagonal", [False, True])
def test_solve_triangular_is_scipys(trans, lower, unit_diagonal):
    a = M + 3 * np.eye(4) + 0.5j * M.T
    got = L.solve_triangular(a, B, trans=trans, lower=lower, unit_diagonal=unit_diagonal)
    close(got, sl.solve_triangular(a, B, trans=trans, lower=lower, unit_diagonal=unit_diagonal))


@pytest.mark.parametrize("assume_a", [None, "gen", "sym", "her", "pos"])
@pytest.mark.parametrize("lower", [False, True])
def test_solve_reads_what_scipy_reads(assume_a, lower):
    a = SPD + np.triu(M, 1) if assume_a in ("sym", "her", "pos") else M  # garbage in a triangle
    close(
        L.solve(a, B, lower=lower, assume_a=assume_a),
        sl.solve(a, B, lower=lower, assume_a=assume_a),
    )
    close(L.solve(M, B[:, 0], transposed=True), sl.solve(M, B[:, 0], transposed=True))
    with pytest.raises(ValueError, match="assume_a"):
        L.solve(M, B, assume_a="banded")


def test_inv_det_eigh_svd_qr():
    close(L.inv(M), sl.inv(M))
    close(L.det(M), sl.det(M))
    for lower in (True, False):
        w, v = L.eigh(M, lower=lower)
        ws, vs = sl.eigh(M, lower=lower)
        close(w, ws)
        close(np.abs(np.asarray(v)), np.abs(vs))  # eigenvectors up to sign
        close(L.eigh(M, lower=lower, eigvals_only=True), ws)
    with pytest.raises(NotImplementedError, match="generalized"):
        L.eigh(M, SPD)
    x = RNG.standard_normal((5, 3))
    for full in (True, False):
        for got, want in zip(L.svd(x, full_matrices=full), sl.svd(x, full_matrices=full)):
            close(np.abs(np.asarray(got)), np.abs(want))
    close(L.svd(x, compute_uv=False), sl.svd(x, compute_uv=False))
    for mode in ("full", "economic", "r"):
        got, want = L.qr(x, mode=mode), sl.qr(x, mode=mode)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert np.asarray(g).shape == w.shape
            close(np.abs(np.asarray(g)), np.abs(w))
    with pytest.raises(NotImplementedError, match="pivoting"):
        L.qr(x, pivoting=True)
    with pytest.raises(ValueError, match="square"):
        L.inv(x)


def test_block_diag_is_scipys():
    blocks = ([[1, 2], [3, 4]], 5, [6.5, 7], np.ones((2, 0)), np.zeros((0, 2)))
    got = L.block_diag(*blocks)
    want = sl.block_diag(*blocks)
    assert np.asarray(got).dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    assert np.asarray(L.block_diag()).shape == sl.block_diag().shape
    with pytest.raises(ValueError, match="dimension greater than 2"):
        L.block_diag(np.ones((2, 2, 2)))


@pytest.mark.parametrize(
    "a",
    [
        M,
        M * 10,
        np.zeros((3, 3)),
        np.diag([1e-20, 2.0, -3.0]),
        1j * M,
        RNG.standard_normal((2, 3, 3)),
    ],
    ids=["normal", "large", "zero", "diagonal", "complex", "batch"],
)
def test_expm_is_scipys(a):
    want = sl.expm(a)
    got = np.asarray(L.expm(a))
    for g, w in zip(got.reshape(-1, *a.shape[-2:]), want.reshape(-1, *a.shape[-2:])):
        close(g, w, rtol=1e-13)


def test_expm_under_jit_and_its_gradient():
    compiled = ast.jit(L.expm)
    for a in (M, M * 10):
        close(compiled(a), sl.expm(a), rtol=1e-13)
    # beyond 16 squarings a traced expm gives nan (as JAX's); a known one squares as often as needed
    t = 4e5  # a rotation by t radians: 1-norm 4e5, 17 squarings
    rotation = np.array([[0.0, t], [-t, 0.0]])
    assert np.isnan(np.asarray(compiled(rotation))).all()
    want = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    np.testing.assert_allclose(np.asarray(L.expm(rotation)), want, atol=1e-9)
    a = M * 0.1
    grad = np.asarray(ast.grad(lambda x: ast.sum(L.expm(x)))(a))
    eps, fd = 1e-6, np.zeros_like(a)
    for i in range(4):
        for j in range(4):
            e = np.zeros_like(a)
            e[i, j] = eps
            fd[i, j] = (sl.expm(a + e).sum() - sl.expm(a - e).sum()) / (2 * eps)
    np.testing.assert_allclose(grad, fd, rtol=1e-7)


def test_a_stack_of_matrices_with_one_vector():
    p = np.eye(3) * 2 + np.ones((3, 3))
    stack, b = np.stack([p, 2 * p]), np.ones(3)
    close(L.solve(stack, b), sl.solve(stack, b))
    close(L.solve_triangular(stack, b), sl.solve_triangular(stack, b))
    close(L.cho_solve(L.cho_factor(stack), b), np.linalg.solve(stack, b[:, None])[..., 0])


def test_expm_edge_inputs():
    assert np.asarray(L.expm(np.zeros((0, 0)))).shape == (0, 0)
    with np.errstate(all="ignore"):
        assert np.isnan(np.asarray(L.expm([[np.nan, 0.0], [0.0, 1.0]]))).any()
    assert np.asarray(L.inv(np.eye(2, dtype=np.float16))).dtype == np.float32  # SciPy's
