"""vdot, inner, outer, tensordot, kron, vecdot, matvec, vecmat and matrix_transpose against NumPy."""

from __future__ import annotations

import functools

import numpy
import pytest

from tests import oracle

rng = numpy.random.default_rng(1)


make = functools.partial(oracle.make, seed=rng, ints=(0, 5))


DTYPES = ["bool", "int32", "int64", "float32", "float64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes(parity, dtype):
    a, b = make((2, 3), dtype), make((2, 3), dtype)
    v, w = make((3,), dtype), make((4,), dtype)
    parity(lambda xp, a, b: xp.vdot(a, b), a, b)
    parity(lambda xp, a, b: xp.inner(a, b), a, b)
    parity(lambda xp, v, w: xp.outer(v, w), v, w)
    parity(lambda xp, a, b: xp.tensordot(a, b, axes=([0, 1], [0, 1])), a, b)
    parity(lambda xp, a, v: xp.kron(a, v), a, v)
    parity(lambda xp, a, b: xp.vecdot(a, b), a, b)
    parity(lambda xp, a, v: xp.matvec(a, v), a, v)
    parity(lambda xp, v, a: xp.vecmat(v, a.T), v, a)


def test_mixed_dtypes(parity):
    parity(lambda xp, a, b: xp.vdot(a, b), make((4,), "int32"), make((4,), "float32"))
    parity(lambda xp, a, b: xp.inner(a, b), make((2, 4), "float32"), make((3, 4), "complex64"))
    parity(lambda xp, a, b: xp.tensordot(a, b, 1), make((2, 4), "int8"), make((4, 3), "float64"))
    parity(lambda xp, a, b: xp.vecdot(a, b), make((2, 4), "float32"), make((4,), "float64"))


@pytest.mark.parametrize(
    "sa, sb, axes",
    [
        ((3, 4, 5), (4, 5, 2), 2),
        ((3, 4), (4, 5), 1),
        ((3, 4), (5, 6), 0),
        ((2, 3, 4), (4, 3, 2), ([1, 2], [1, 0])),
        ((2, 3), (3, 2), ([-1], [0])),
        ((2, 3), (3,), (1, 0)),
        ((), (), 0),
        ((0, 3), (3, 2), 1),
    ],
)
def test_tensordot_shapes(parity, sa, sb, axes):
    parity(lambda xp, a, b: xp.tensordot(a, b, axes), make(sa), make(sb))


@pytest.mark.parametrize(
    "sa, sb",
    [
        ((3,), (3,)),
        ((2, 3), (4, 3)),
        ((2, 2, 3), (3,)),
        ((), (2, 3)),
        ((0,), (0,)),
        ((2, 0), (3, 0)),
    ],
)
def test_inner_vdot_outer(parity, sa, sb):
    a, b = make(sa), make(sb)
    parity(lambda xp, a, b: xp.inner(a, b), a, b)
    parity(lambda xp, a, b: xp.outer(a, b), a, b)
    if a.size == b.size:
        parity(lambda xp, a, b: xp.vdot(a, b), a, b.reshape(a.shape) if sa else b)


def test_vdot_conjugates_and_flattens(parity):
    parity(lambda xp, a, b: xp.vdot(a, b), make((2, 3), "complex128"), make((3, 2), "complex128"))


@pytest.mark.parametrize(
    "sa, sb",
    [
        ((2, 3), (4, 5)),
        ((3,), (2, 2)),
        ((2, 1, 3), (3, 2)),
        ((2,), (3,)),
        ((), (2, 3)),
        ((0, 2), (3,)),
    ],
)
def test_kron(parity, sa, sb):
    parity(lambda xp, a, b: xp.kron(a, b), make(sa), make(sb))


@pytest.mark.parametrize(
    "sa, sb, axis",
    [
        ((3,), (3,), -1),
        ((2, 3), (3,), -1),
        ((4, 1, 3), (2, 3), -1),
        ((3, 2), (3, 2), 0),
        ((2, 0), (2, 0), -1),
    ],
)
def test_vecdot(parity, sa, sb, axis):
    parity(
        lambda xp, a, b: xp.vecdot(a, b, axis=axis), make(sa, "complex128"), make(sb, "complex128")
    )
    parity(lambda xp, a, b: xp.linalg.vecdot(a, b, axis=axis), make(sa), make(sb))


@pytest.mark.parametrize(
    "sa, sb", [((2, 3), (3,)), ((4, 2, 3), (3,)), ((2, 3), (5, 3)), ((1, 2, 3), (4, 1, 3))]
)
def test_matvec_vecmat(parity, sa, sb):
    a, v = make(sa, "complex128"), make(sb, "complex128")
    parity(lambda xp, a, v: xp.matvec(a, v), a, v)
    parity(lambda xp, a, v: xp.vecmat(v, xp.matrix_transpose(a)), a, v)


def test_errors(parity):
    parity(lambda xp, a, b: xp.vdot(a, b), make((3,)), make((4,)))
    parity(lambda xp, a, b: xp.inner(a, b), make((2, 3)), make((2, 4)))
    parity(lambda xp, a, b: xp.tensordot(a, b), make((2, 3)), make((4, 5)))
    parity(lambda xp, a, b: xp.tensordot(a, b, ([0], [0, 1])), make((2, 3)), make((2, 3)))
    parity(lambda xp, a, b: xp.vecdot(a, b), make((2, 3)), make((2, 4)))
    parity(lambda xp, a, b: xp.vecdot(a, b), make(()), make((2,)))
    parity(lambda xp, a, b: xp.matvec(a, b), make((2, 3)), make((2,)))
    parity(lambda xp, a, b: xp.matvec(a, b), make((3,)), make((3,)))
    parity(lambda xp, a, b: xp.vecmat(a, b), make((2,)), make((3, 2)))
    parity(lambda xp, a: xp.matrix_transpose(a), make((3,)))
    parity(lambda xp, a, b: xp.linalg.outer(a, b), make((2, 2)), make((2,)))


def test_linalg_reexports(parity):
    a, b = make((2, 3, 4)), make((2, 4, 3))
    parity(lambda xp, a, b: xp.linalg.matmul(a, b), a, b)
    parity(lambda xp, a, b: xp.linalg.tensordot(a, b, axes=1), a, b)
    parity(lambda xp, a: xp.linalg.matrix_transpose(a), a)
    parity(lambda xp, a, b: xp.linalg.outer(a, b), make((3,)), make((2,)))
    parity(lambda xp, a: xp.linalg.diagonal(a, offset=1), a)
    parity(lambda xp, a: xp.linalg.trace(a, offset=-1), a)
    parity(lambda xp, a: xp.linalg.trace(a, dtype="float32"), a)
    parity(lambda xp, a, b: xp.linalg.cross(a, b), make((4, 3)), make((3,)))
    parity(lambda xp, a, b: xp.linalg.cross(a, b, axis=0), make((3, 2)), make((3, 2)))
    parity(lambda xp, a, b: xp.linalg.cross(a, b), make((2,)), make((2,)))


@pytest.mark.parametrize("dtype", ["float64", "complex128", "int32"])
@pytest.mark.parametrize("name", ["vecdot", "matvec", "vecmat"])
def test_vecdot_matvec_vecmat_write_into_out_as_numpys_gufuncs(parity, dtype, name):
    """NumPy's vecdot, matvec and vecmat are gufuncs: `out` may be passed by position or keyword."""
    a, v = make((2, 3), dtype), make((3,), dtype)
    x, y = {"vecdot": (a, a), "matvec": (a, v), "vecmat": (v, a.T)}[name]
    shape = getattr(numpy, name)(x, y).shape

    def positional(xp, p, q):
        out = xp.zeros(shape, dtype)
        assert getattr(xp, name)(p, q, out) is out
        return out

    def keyword(xp, p, q):
        out = xp.zeros(shape, dtype)
        assert getattr(xp, name)(p, q, out=out) is out
        return out

    parity(positional, x, y)
    parity(keyword, x, y)
