"""from_jax of lax.linalg (arraystack/jax_import/rules_linalg.py): jnp.linalg's solve, inv, det, slogdet,
eigh, svd, qr, pinv, lstsq and jax.scipy.linalg.lu_factor converted give jax.jit's results (float32,
batched, complex), compile under arraystack's jit, and differentiate under arraystack's grad as under
jax.grad. Eigen- and singular vectors are checked by what defines them (up to sign)."""

from __future__ import annotations

import numpy
import pytest

jax = pytest.importorskip("jax", reason="from_jax traces JAX functions: needs jax and jaxlib")

import jax.numpy as jnp

import arraystack as ast
from tests.arraystack.test_from_jax import same

RNG = numpy.random.default_rng(7)
A = RNG.standard_normal((2, 5, 5)).astype(numpy.float32)
B = RNG.standard_normal((2, 5, 3)).astype(numpy.float32)
SPD = (A @ numpy.swapaxes(A, -1, -2) + 5 * numpy.eye(5)).astype(numpy.float32)
C = (RNG.standard_normal((4, 4)) + 1j * RNG.standard_normal((4, 4))).astype(numpy.complex64)

VALUES = {
    "solve": (jnp.linalg.solve, (A, B)),
    "inv": (jnp.linalg.inv, (A,)),
    "det": (jnp.linalg.det, (A,)),
    "slogdet": (jnp.linalg.slogdet, (A,)),
    "lu_factor": (jax.scipy.linalg.lu_factor, (A[0],)),
    "complex solve": (jnp.linalg.solve, (C, C[:, :2])),
    "complex lu_factor": (jax.scipy.linalg.lu_factor, (C,)),
    "eigvalsh": (jnp.linalg.eigvalsh, (SPD,)),
    "svdvals": (lambda x: jnp.linalg.svd(x, compute_uv=False), (A[:, :, :3],)),
    "pinv": (jnp.linalg.pinv, (A[:, :, :3],)),
    "lstsq": (lambda a, b: jnp.linalg.lstsq(a, b)[0], (A[0, :, :3], B[0])),
    "triangular": (
        lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True, trans=1),
        (numpy.tril(A[0]) + 4 * numpy.eye(5, dtype=numpy.float32), B[0]),
    ),
    "triangular right unit": (
        lambda a, b: jax.lax.linalg.triangular_solve(a, b, left_side=False, unit_diagonal=True),
        (A[0], B[0].T),
    ),
}


@pytest.mark.parametrize("name", list(VALUES))
def test_converted_linalg_gives_jax_values(name):
    f, args = VALUES[name]
    want = jax.jit(f)(*args)
    converted = ast.from_jax(f)
    for g in (converted, ast.jit(converted)):
        same(g(*args), want, rtol=2e-4)


def test_eigh_svd_and_qr_factors_reconstruct_their_operand():
    w, v = ast.from_jax(jnp.linalg.eigh)(SPD)
    w, v = numpy.asarray(w), numpy.asarray(v)
    numpy.testing.assert_allclose(w, numpy.asarray(jnp.linalg.eigh(SPD)[0]), rtol=1e-4)
    numpy.testing.assert_allclose(
        v @ (w[..., None] * numpy.swapaxes(v, -1, -2)), SPD, rtol=1e-4, atol=1e-4
    )
    u, s, vh = (numpy.asarray(t) for t in ast.jit(ast.from_jax(jnp.linalg.svd))(A))
    numpy.testing.assert_allclose((u * s[..., None, :]) @ vh, A, rtol=1e-4, atol=1e-4)
    for mode in ("reduced", "complete"):
        qr = ast.from_jax(lambda x, mode=mode: jnp.linalg.qr(x, mode=mode))
        q, r = (numpy.asarray(t) for t in qr(A[0, :, :3]))
        assert q.shape == ((5, 3) if mode == "reduced" else (5, 5))
        numpy.testing.assert_allclose(q @ r, A[0, :, :3], rtol=1e-4, atol=1e-5)
        numpy.testing.assert_allclose(numpy.tril(r, -1), 0, atol=1e-6)


def test_gradients_through_converted_solves_and_determinants():
    def loss(a, b):
        return jnp.sum(jnp.linalg.solve(a, b) ** 2) + jnp.linalg.slogdet(a)[1].sum()

    want = jax.grad(loss, argnums=(0, 1))(A, B)
    got = ast.jit(ast.grad(ast.from_jax(loss), argnums=(0, 1)))(A, B)
    same(tuple(got), tuple(want), rtol=2e-3)


def test_forward_mode_through_a_converted_solve():
    tangent = RNG.standard_normal(A.shape).astype(numpy.float32)
    want = jax.jvp(lambda a: jnp.linalg.solve(a, B), (A,), (tangent,))[1]
    solve = ast.from_jax(lambda a: jnp.linalg.solve(a, B))
    same(ast.jvp(solve, (A,), (tangent,))[1], want, rtol=2e-4)


def test_custom_linear_solve_differentiates_as_a_linear_solve():
    # the derivatives of lax.custom_linear_solve are those of x = A^-1 b, whatever its solve does:
    # cg iterates (a while loop), and jnp.linalg.solve stops the gradients of its LU factors
    from jax.scipy.sparse.linalg import cg

    spd = SPD[0]

    def loss(s, b):
        return jnp.sum(cg(lambda v: s @ v, b, tol=1e-10)[0] ** 2)

    want = jax.grad(loss, argnums=(0, 1))(spd, B[0, :, 0])
    same(tuple(ast.grad(ast.from_jax(loss), argnums=(0, 1))(spd, B[0, :, 0])), tuple(want), 1e-3)

    def stopped(a, b):  # a solve whose own body carries no gradient to a
        def solve(matvec, rhs):
            return jnp.linalg.solve(jax.lax.stop_gradient(a), rhs)

        def transpose_solve(vecmat, rhs):
            return jnp.linalg.solve(jax.lax.stop_gradient(a).T, rhs)

        x = jax.lax.custom_linear_solve(lambda v: a @ v, b, solve, transpose_solve)
        return jnp.sum(x**2)

    want = jax.grad(stopped, argnums=(0, 1))(A[0], B[0, :, 0])
    got = ast.grad(ast.from_jax(stopped), argnums=(0, 1))(A[0], B[0, :, 0])
    same(tuple(got), tuple(want), rtol=1e-3)


def test_a_subset_of_eigenvalues_is_a_conversion_error():
    def f(x):
        return jax.lax.linalg.eigh(x, subset_by_index=(0, 2))[1]

    with pytest.raises(ast.jax_import.JaxConversionError, match="subset of eigenvalues"):
        ast.from_jax(f)(SPD[0])
