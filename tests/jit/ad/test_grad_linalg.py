"""Derivatives of the linear-algebra primitives against finite differences (check_grads), and vmap
against a Python loop. Inputs are well conditioned; eigh/cholesky inputs are symmetrized inside f."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

la = ast.linalg
rng = numpy.random.default_rng(42)


def _mat(*shape, complex_=False):
    x = rng.standard_normal(shape)
    if complex_:
        x = x + 1j * rng.standard_normal(shape)
    return x


def _well(n, batch=()):
    """A well-conditioned (diagonally dominant) matrix."""
    return _mat(*batch, n, n) + 4 * numpy.eye(n)


def _spd(x):
    """A symmetric positive definite matrix from any square x, inside the differentiated function."""
    n = x.shape[-1]
    return x @ ast.matrix_transpose(x) + n * ast.eye(n)


def _sym(x):
    return (x + ast.matrix_transpose(x)) / 2


def _her(x):
    return (x + ast.conj(ast.matrix_transpose(x))) / 2


CASES = {
    "solve": (lambda a, b: la.solve(a, b), [_well(3), _mat(3, 2)]),
    "solve_vector_batched": (lambda a, b: la.solve(a, b), [_well(3, (2,)), _mat(3)]),
    "inv": (lambda a: la.inv(a), [_well(4)]),
    "inv_batched": (lambda a: la.inv(a), [_well(3, (2,))]),
    "det": (lambda a: la.det(a), [_well(3)]),
    "det_batched": (lambda a: la.det(a), [_well(3, (2,))]),
    "slogdet": (lambda a: la.slogdet(a)[1], [_mat(3, 3)]),
    "cholesky": (lambda x: la.cholesky(_spd(x)), [_mat(3, 3)]),
    "cholesky_upper": (lambda x: la.cholesky(_spd(x), upper=True), [_mat(2, 3, 3)]),
    "eigh_values": (lambda x: la.eigh(_sym(x))[0], [_mat(4, 4)]),
    "eigh_vectors": (lambda x: la.eigh(_sym(x))[1] ** 2, [_mat(3, 3)]),
    "eigh_both": (lambda x: la.eigh(_sym(x)), [_mat(2, 3, 3)]),
    "eigvalsh": (lambda x: la.eigvalsh(_sym(x)), [_mat(4, 4)]),
    "svd_square": (lambda x: la.svd(x), [_mat(3, 3)]),
    "svd_tall": (lambda x: la.svd(x, full_matrices=False), [_mat(5, 3)]),
    "svd_wide": (lambda x: la.svd(x, full_matrices=False), [_mat(2, 3, 5)]),
    "svdvals": (lambda x: la.svd(x, compute_uv=False), [_mat(4, 3)]),
    "svd_hermitian": (lambda x: la.svd(_sym(x) + 5 * ast.eye(3), hermitian=True), [_mat(3, 3)]),
    "qr_tall": (lambda x: la.qr(x), [_mat(5, 3)]),
    "qr_square_batched": (lambda x: la.qr(x), [_mat(2, 3, 3)]),
    "qr_r": (lambda x: la.qr(x, mode="r"), [_mat(4, 3)]),
    "pinv": (lambda x: la.pinv(x), [_mat(4, 3)]),
    "lstsq_tall": (lambda a, b: la.lstsq(a, b)[:2] + la.lstsq(a, b)[3:], [_mat(6, 3), _mat(6, 2)]),
    "lstsq_wide": (lambda a, b: la.lstsq(a, b)[0], [_mat(3, 5), _mat(3, 2)]),
    "lstsq_vector": (lambda a, b: la.lstsq(a, b)[:2], [_mat(5, 2), _mat(5)]),
    "norm_2": (lambda x: la.norm(x, 2), [_mat(3, 4)]),
    "norm_nuc": (lambda x: la.norm(x, "nuc"), [_mat(3, 4)]),
    "matrix_power_neg": (lambda x: la.matrix_power(x, -3), [_well(3)]),
    "einsum_trace": (lambda x, y: ast.einsum("ii,ij->j", x, y), [_mat(3, 3), _mat(3, 2)]),
    "tensordot": (
        lambda x, y: ast.tensordot(x, y, axes=([1, 0], [0, 2])),
        [_mat(2, 3), _mat(3, 4, 2)],
    ),
}


def _plain(f):
    """f with named-tuple results as plain tuples (check_grads rebuilds the result type from a list)."""

    def g(*xs):
        out = f(*xs)
        return tuple(out) if isinstance(out, tuple) else out

    return g


@pytest.mark.parametrize("name", sorted(CASES))
def test_grads(check_grads, name):
    f, args = CASES[name]
    check_grads(_plain(f), args)


def _svd_rebuilt(x):
    """U diag(S) Vh: invariant under the phases a complex SVD leaves free."""
    u, s, vh = la.svd(x, full_matrices=False)
    return (u * s[..., None, :]) @ vh


def _svd_moduli(x):
    u, _, vh = la.svd(x, full_matrices=False)
    return ast.abs(u) + ast.abs(vh[..., :1, :]).sum()


COMPLEX = {
    "solve": (lambda a, b: la.solve(a, b), [_well(3) + 1j * _mat(3, 3), _mat(3, 2, complex_=True)]),
    "det": (lambda a: la.det(a), [_well(3) + 1j * _mat(3, 3)]),
    "slogdet": (lambda a: la.slogdet(a), [_mat(3, 3, complex_=True)]),
    "cholesky": (
        lambda x: la.cholesky(x @ ast.conj(ast.matrix_transpose(x)) + 3 * ast.eye(3)),
        [_mat(3, 3, complex_=True)],
    ),
    "eigvalsh": (lambda x: la.eigvalsh(_her(x)), [_mat(3, 3, complex_=True)]),
    "eigh_invariant": (lambda x: ast.abs(la.eigh(_her(x))[1]), [_mat(3, 3, complex_=True)]),
    "svdvals": (lambda x: la.svd(x, compute_uv=False), [_mat(4, 3, complex_=True)]),
    "svd_invariant": (_svd_rebuilt, [_mat(4, 3, complex_=True)]),
    "svd_wide_invariant": (_svd_moduli, [_mat(2, 4, complex_=True)]),
    "qr": (lambda x: la.qr(x), [_mat(4, 3, complex_=True)]),
    "lstsq_tall": (
        lambda a, b: la.lstsq(a, b)[:2] + la.lstsq(a, b)[3:],
        [_mat(5, 3, complex_=True), _mat(5, 2, complex_=True)],
    ),
    "lstsq_wide": (
        lambda a, b: la.lstsq(a, b)[0],
        [_mat(2, 4, complex_=True), _mat(2, complex_=True)],
    ),
}


@pytest.mark.parametrize("name", sorted(COMPLEX))
def test_grads_complex(check_grads, name):
    f, args = COMPLEX[name]
    check_grads(_plain(f), args)


def test_grads_under_jit(check_grads):
    check_grads(lambda a, b: la.solve(a, b) + la.det(a), [_well(3), _mat(3)], jit=True)
    check_grads(lambda x: la.eigh(_sym(x))[0], [_mat(3, 3)], jit=True)
    check_grads(lambda a, b: la.lstsq(a, b)[:2], [_mat(6, 3), _mat(6, 2)], jit=True)


def test_second_order(check_grads):
    check_grads(lambda a: la.slogdet(a)[1], [_well(3)], order=2)
    check_grads(lambda x: la.cholesky(_spd(x)), [_mat(3, 3)], order=2)


def test_not_differentiable_has_a_clear_error():
    x = ast.asarray(_mat(3, 5))
    with pytest.raises(TypeError, match="full_matrices"):
        ast.grad(lambda y: la.svd(y)[0].sum())(x)
    with pytest.raises(TypeError, match="eig"):
        ast.grad(lambda y: ast.real(la.eigvals(y.astype(complex))).sum())(ast.asarray(_well(3)))


VMAP = {
    "solve": (lambda a, b: la.solve(a, b), [_well(3, (4,)), _mat(4, 3, 2)]),
    "inv": (lambda a: la.inv(a), [_well(3, (4,))]),
    "slogdet": (lambda a: la.slogdet(a), [_well(3, (4,))]),
    "cholesky": (lambda a: la.cholesky(a @ a.T + 3 * ast.eye(3)), [_mat(4, 3, 3)]),
    "eigh": (lambda a: la.eigh(a + a.T), [_mat(4, 3, 3)]),
    "svd": (lambda a: la.svd(a, full_matrices=False), [_mat(4, 3, 2)]),
    "qr": (lambda a: la.qr(a), [_mat(4, 3, 2)]),
    "lstsq": (lambda a, b: la.lstsq(a, b)[0], [_mat(4, 2, 3), _mat(4, 2)]),
    "lstsq_tall": (lambda a, b: la.lstsq(a, b)[:2], [_mat(4, 5, 2), _mat(4, 5)]),
    "eigvals": (lambda a: la.eigvals(a.astype(complex)), [_mat(4, 3, 3)]),
}


@pytest.mark.parametrize("name", sorted(VMAP))
def test_vmap_matches_a_loop(name):
    f, args = VMAP[name]
    got = ast.vmap(f)(*[ast.asarray(x) for x in args])
    for i in range(args[0].shape[0]):
        want = f(*[ast.asarray(x[i]) for x in args])
        pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
        for g, w in pairs:
            numpy.testing.assert_allclose(
                numpy.asarray(g)[i], numpy.asarray(w), rtol=1e-10, atol=1e-12
            )
