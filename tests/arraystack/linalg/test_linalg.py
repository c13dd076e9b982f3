"""arraystack.linalg against numpy.linalg: factorizations, solvers, determinants, inverses; dtypes, stacks,
empty and singular matrices, NumPy 2's result named tuples, and LinAlgError where NumPy raises it."""

from __future__ import annotations

import functools

import numpy
import pytest

import arraystack
from tests import oracle

rng = numpy.random.default_rng(7)


@pytest.fixture
def parity(parity):
    """The shared parity check, with NumPy 2's result named tuples compared as plain tuples (the shared
    helpers rebuild sequences from a generator, which a named tuple does not accept)."""

    def check(fn, *args, **kwargs):
        def plain(xp, *xs):
            out = fn(xp, *xs)
            return tuple(out) if isinstance(out, tuple) else out

        return parity(plain, *args, **kwargs)

    return check


make = functools.partial(oracle.make, seed=rng, ints=(-4, 5))


def well(n, batch=(), dtype="float64"):
    x = make(batch + (n, n), dtype)
    return (x + numpy.asarray(4 * numpy.eye(n)).astype(x.dtype)).astype(x.dtype)


def spd(n, batch=(), dtype="float64"):
    x = make(batch + (n, n), dtype)
    h = x @ numpy.conj(numpy.swapaxes(x, -1, -2))
    return (h + n * numpy.eye(n)).astype(x.dtype)


DTYPES = ["int64", "float32", "float64", "complex64", "complex128"]
SQUARE = {
    "inv": lambda xp, a: xp.linalg.inv(a),
    "det": lambda xp, a: xp.linalg.det(a),
    "slogdet": lambda xp, a: xp.linalg.slogdet(a),
    "solve_vector": lambda xp, a: xp.linalg.solve(a, a[..., 0, :] + 1),
    "solve_matrix": lambda xp, a: xp.linalg.solve(a, a[..., :2] * 2),
    "eigvals_complex": lambda xp, a: xp.linalg.eigvals(a.astype(complex)),
    "eig_complex": lambda xp, a: xp.linalg.eig(a.astype(complex)),
    "svd": lambda xp, a: xp.linalg.svd(a),
    "svdvals": lambda xp, a: xp.linalg.svdvals(a),
    "qr": lambda xp, a: xp.linalg.qr(a),
    "pinv": lambda xp, a: xp.linalg.pinv(a),
    "matrix_power_5": lambda xp, a: xp.linalg.matrix_power(a, 5),
    "matrix_power_-2": lambda xp, a: xp.linalg.matrix_power(a, -2),
    "matrix_power_0": lambda xp, a: xp.linalg.matrix_power(a, 0),
    "matrix_rank": lambda xp, a: xp.linalg.matrix_rank(a),
    "cond": lambda xp, a: xp.linalg.cond(a),
}
HERMITIAN = {
    "cholesky": lambda xp, a: xp.linalg.cholesky(a),
    "cholesky_upper": lambda xp, a: xp.linalg.cholesky(a, upper=True),
    "eigh": lambda xp, a: xp.linalg.eigh(a),
    "eigh_upper": lambda xp, a: xp.linalg.eigh(a, UPLO="u"),
    "eigvalsh": lambda xp, a: xp.linalg.eigvalsh(a),
    "svd_hermitian": lambda xp, a: xp.linalg.svd(a - 4 * xp.eye(a.shape[-1]), hermitian=True),
    "svdvals_hermitian": lambda xp, a: xp.linalg.svd(a, compute_uv=False, hermitian=True),
    "pinv_hermitian": lambda xp, a: xp.linalg.pinv(a, hermitian=True),
    "matrix_rank_hermitian": lambda xp, a: xp.linalg.matrix_rank(a, hermitian=True),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(SQUARE))
def test_square(parity, name, dtype):
    rtol = 1e-4 if dtype in ("float32", "complex64") else 1e-10  # pinv/cond combine many roundings
    parity(SQUARE[name], well(3, (), dtype), rtol=rtol)
    parity(SQUARE[name], well(3, (2,), dtype), rtol=rtol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(HERMITIAN))
def test_hermitian(parity, name, dtype):
    rtol = 1e-4 if dtype in ("float32", "complex64") else 1e-10
    parity(HERMITIAN[name], spd(3, (), dtype), rtol=rtol)
    parity(HERMITIAN[name], spd(4, (2,), dtype), rtol=rtol)


def test_result_named_tuples():
    a = arraystack.asarray(spd(3))
    assert type(arraystack.linalg.svd(a)).__name__ == "SVDResult"
    assert arraystack.linalg.svd(a).S.shape == (3,) and arraystack.linalg.svd(a).Vh.shape == (3, 3)
    assert arraystack.linalg.eigh(a).eigenvectors.shape == (3, 3)
    assert arraystack.linalg.eig(a).eigenvalues.shape == (3,)
    assert arraystack.linalg.qr(a).Q.shape == (3, 3)
    assert arraystack.linalg.slogdet(a).logabsdet.shape == ()
    want = numpy.linalg.svd(numpy.asarray(a))
    assert type(want).__name__ == "SVDResult" and want._fields == arraystack.linalg.svd(a)._fields
    assert arraystack.linalg.LinAlgError is numpy.linalg.LinAlgError


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 5, 3), (3, 3)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r", "raw"])
def test_qr_modes(parity, shape, mode):
    parity(lambda xp, a: xp.linalg.qr(a, mode=mode), make(shape))
    parity(lambda xp, a: xp.linalg.qr(a, mode=mode), make(shape, "complex64"), rtol=1e-5)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 5, 3), (0, 3), (3, 0)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_shapes(parity, shape, full_matrices):
    parity(lambda xp, a: xp.linalg.svd(a, full_matrices=full_matrices), make(shape))
    parity(lambda xp, a: xp.linalg.svd(a, compute_uv=False), make(shape))


def test_eig_result_type_depends_on_values(parity):
    rotation = numpy.array([[0.0, -1.0], [1.0, 0.0]])
    parity(lambda xp, a: xp.linalg.eig(a), rotation, traced=False)  # complex eigenvalues
    parity(lambda xp, a: xp.linalg.eig(a), spd(3), traced=False)  # real eigenvalues: real results
    parity(lambda xp, a: xp.linalg.eigvals(a), rotation.astype(numpy.float32), traced=False)
    parity(lambda xp, a: xp.linalg.eigvals(a), well(3, (2,)), traced=False)
    parity(
        lambda xp, a: xp.linalg.eig(a), numpy.array([[1.0, numpy.nan], [0.0, 1.0]]), traced=False
    )
    with pytest.raises(arraystack.ir.TracerError, match="complex"):
        arraystack.jit(arraystack.linalg.eigvals)(arraystack.asarray(spd(3)))


SINGULAR = numpy.array([[1.0, 2.0], [2.0, 4.0]])


def test_singular_matrices(parity):
    stack = numpy.stack([well(2), SINGULAR])
    parity(lambda xp, a: xp.linalg.inv(a), SINGULAR)
    parity(lambda xp, a: xp.linalg.inv(a), stack)
    parity(lambda xp, a: xp.linalg.solve(a, a[0]), SINGULAR)
    parity(lambda xp, a: xp.linalg.det(a), stack)
    parity(lambda xp, a: xp.linalg.slogdet(a), stack)
    parity(lambda xp, a: xp.linalg.cholesky(a), -spd(3))
    parity(lambda xp, a: xp.linalg.matrix_power(a, -1), SINGULAR)
    parity(lambda xp, a: xp.linalg.pinv(a), SINGULAR)
    parity(lambda xp, a: xp.linalg.matrix_rank(a), stack)
    parity(lambda xp, a: xp.linalg.cond(a), stack, traced=False)
    parity(lambda xp, a: xp.linalg.cond(a, 1), stack, traced=False)
    parity(lambda xp, a: xp.linalg.tensorinv(a, 1), SINGULAR)
    with pytest.raises(numpy.linalg.LinAlgError):
        arraystack.linalg.inv(arraystack.asarray(SINGULAR))


@pytest.mark.parametrize(
    "fn",
    [
        lambda xp, a: xp.linalg.inv(a),
        lambda xp, a: xp.linalg.det(a),
        lambda xp, a: xp.linalg.cholesky(a),
        lambda xp, a: xp.linalg.eigh(a),
        lambda xp, a: xp.linalg.eig(a),
        lambda xp, a: xp.linalg.svd(a),
        lambda xp, a: xp.linalg.qr(a),
        lambda xp, a: xp.linalg.solve(a, a),
        lambda xp, a: xp.linalg.matrix_power(a, 2),
    ],
)
@pytest.mark.parametrize("shape", [(3,), (2, 3), (0, 0), (2, 0, 0), ()])
def test_shapes_and_errors(parity, fn, shape):
    parity(fn, make(shape), traced=False)


def test_bad_arguments(parity):
    a = well(3)
    parity(lambda xp, a: xp.linalg.inv(a), a.astype(numpy.float16))
    parity(lambda xp, a: xp.linalg.eigh(a, UPLO="X"), a)
    parity(lambda xp, a: xp.linalg.qr(a, mode="bogus"), a)
    parity(lambda xp, a: xp.linalg.matrix_power(a, 1.5), a)
    parity(lambda xp, a: xp.linalg.solve(a, a[:2]), a)
    parity(lambda xp, a: xp.linalg.solve(a, a[0, :2]), a)
    parity(lambda xp, a: xp.linalg.solve(a, a[0, 0]), a)
    parity(lambda xp, a: xp.linalg.tensorinv(a, 0), a)
    parity(lambda xp, a: xp.linalg.pinv(a, rcond=1e-3, rtol=1e-3), a)
    parity(lambda xp, a: xp.linalg.matrix_rank(a, tol=1, rtol=1), a)


def test_solve_broadcasting(parity):
    parity(lambda xp, a, b: xp.linalg.solve(a, b), well(3, (2,)), make((3,)))
    parity(lambda xp, a, b: xp.linalg.solve(a, b), well(3), make((4, 3, 2)))
    parity(lambda xp, a, b: xp.linalg.solve(a, b), well(3, (2, 1)), make((5, 3, 1)))
    parity(lambda xp, a, b: xp.linalg.solve(a, b), well(3, (), "float32"), make((3,), "complex128"))


@pytest.mark.parametrize(
    "sa, sb",
    [
        ((5, 3), (5,)),
        ((5, 3), (5, 2)),
        ((3, 5), (3,)),
        ((3, 3), (3, 0)),
        ((0, 3), (0,)),
        ((4, 2), (4, 1)),
    ],
)
def test_lstsq(parity, sa, sb):
    parity(lambda xp, a, b: xp.linalg.lstsq(a, b), make(sa), make(sb))
    parity(
        lambda xp, a, b: xp.linalg.lstsq(a, b, rcond=0.5),
        make(sa, "float32"),
        make(sb),
        traced=False,
    )


def test_lstsq_rank_deficient_and_errors(parity):
    a = numpy.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    parity(lambda xp, a, b: xp.linalg.lstsq(a, b), a, make((3,)), traced=False)
    parity(lambda xp, a, b: xp.linalg.lstsq(a, b), a, make((4,)))
    parity(lambda xp, a, b: xp.linalg.lstsq(a, b), make((2, 3, 2)), make((3,)))
    # under jit the residuals keep their shape (K,) whatever the rank: NaN where NumPy's are empty
    x, residuals, rank, _ = arraystack.jit(lambda a, b: arraystack.linalg.lstsq(a, b))(a, a)
    numpy.testing.assert_allclose(numpy.asarray(x), numpy.linalg.lstsq(a, a)[0], atol=1e-12)
    assert residuals.shape == (2,) and numpy.isnan(numpy.asarray(residuals)).all() and rank == 1
    full = make((4, 2))
    _, residuals, _, _ = arraystack.jit(lambda a, b: arraystack.linalg.lstsq(a, b))(
        full, full[:, 0]
    )
    numpy.testing.assert_allclose(
        numpy.asarray(residuals), numpy.linalg.lstsq(full, full[:, 0])[1], atol=1e-12
    )


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7, 13, -1, -3])
def test_matrix_power(parity, n):
    parity(lambda xp, a: xp.linalg.matrix_power(a, n), well(3, (2,)), rtol=1e-11)
    if n >= 0:
        parity(lambda xp, a: xp.linalg.matrix_power(a, n), make((3, 3), "int32"))


def test_pinv_options(parity):
    a = make((4, 3))
    parity(lambda xp, a: xp.linalg.pinv(a, rcond=0.5), a)
    parity(lambda xp, a: xp.linalg.pinv(a, rtol=None), a)
    parity(lambda xp, a: xp.linalg.pinv(a, rtol=0.3), make((2, 4, 3)))
    parity(lambda xp, a: xp.linalg.pinv(a, rcond=numpy.array([0.1, 0.9])), make((2, 4, 3)))
    parity(lambda xp, a: xp.linalg.pinv(a), make((0, 3)))


def test_tensor_functions(parity):
    a = make((6, 2, 3)) + numpy.eye(6).reshape(6, 2, 3) * 4
    parity(lambda xp, a: xp.linalg.tensorinv(a, 1), a)
    b = make((4, 6, 8, 3)) + 0
    b = (b.reshape(24, 24) + 6 * numpy.eye(24)).reshape(4, 6, 8, 3)
    parity(lambda xp, a: xp.linalg.tensorinv(a, 2), b)
    c = (make((6, 6)) + 5 * numpy.eye(6)).reshape(2, 3, 6)
    parity(lambda xp, a, y: xp.linalg.tensorsolve(a, y), c, make((2, 3)))
    d = (make((6, 6)) + 5 * numpy.eye(6)).reshape(2, 3, 2, 3)
    parity(lambda xp, a, y: xp.linalg.tensorsolve(a, y, axes=(0, 1)), d, make((2, 3)))
    parity(lambda xp, a, y: xp.linalg.tensorsolve(a, y), make((2, 3, 4)), make((2, 3)))


@pytest.mark.parametrize(
    "shapes",
    [
        [(2, 3), (3, 4)],
        [(2, 3), (3, 4), (4, 5)],
        [(10, 3), (3, 20), (20, 2)],
        [(3,), (3, 4), (4, 2), (2,)],
        [(3,), (3, 4), (4, 5), (5, 6), (6, 2)],
        [(4, 3), (3, 4), (4, 5), (5,)],
    ],
)
def test_multi_dot(parity, shapes):
    parity(lambda xp, *xs: xp.linalg.multi_dot(xs), *[make(s) for s in shapes])


def test_multi_dot_errors(parity):
    parity(lambda xp, a: xp.linalg.multi_dot([a]), make((2, 2)))
    parity(
        lambda xp, a, b, c: xp.linalg.multi_dot([a, b, c]),
        make((2, 2, 2)),
        make((2, 2)),
        make((2, 2)),
    )


def test_linalg_under_jit():
    a = arraystack.asarray(well(3, (2,)))
    f = arraystack.jit(
        lambda a: (
            arraystack.linalg.inv(a),
            arraystack.linalg.slogdet(a)[1],
            arraystack.linalg.qr(a)[1],
            arraystack.linalg.eigvalsh(a + a.mT),
        )
    )
    want = (
        numpy.linalg.inv(numpy.asarray(a)),
        numpy.linalg.slogdet(numpy.asarray(a))[1],
        numpy.linalg.qr(numpy.asarray(a))[1],
    )
    for g, w in zip(f(a), want):
        numpy.testing.assert_allclose(numpy.asarray(g), w, rtol=1e-12)
