"""einsum and einsum_path against NumPy: subscripts and sublists, ellipsis, diagonals and traces,
implicit output, broadcasting, dtypes, every `optimize` setting, errors; traced and differentiated."""

from __future__ import annotations

import functools

import numpy
import pytest

import arraystack
from tests import oracle

rng = numpy.random.default_rng(3)


make = functools.partial(oracle.make, seed=rng, ints=(-3, 5))


CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl,lm->mi", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iii->i", [(2, 2, 2)]),
    ("iij->ji", [(3, 3, 2)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("i,i", [(4,), (4,)]),
    ("i,j", [(2,), (3,)]),
    ("i,j->ji", [(2,), (3,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("i...->...", [(3, 2, 4)]),
    ("...i,...i", [(2, 3), (5, 1, 3)]),
    ("ij...,jk...->ik...", [(2, 3, 5), (3, 4, 5)]),
    ("ij,jk", [(2, 1), (3, 4)]),
    ("i,i->i", [(1,), (4,)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("ijk,jil->kl", [(3, 2, 4), (2, 3, 5)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 2), (2, 4), (4, 2)]),
    ("ii,ij,jj->", [(3, 3), (3, 3), (3, 3)]),
    (" i j , j k -> i k ", [(2, 3), (3, 4)]),
    ("", [()]),
    ("->", [()]),
    (",->", [(), ()]),
    ("i,->i", [(3,), ()]),
    ("ij,jk->ik", [(0, 3), (3, 4)]),
    ("ij,jk->ik", [(2, 0), (0, 4)]),
]


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"])
@pytest.mark.parametrize("subscripts, shapes", CASES, ids=[c[0] or "empty" for c in CASES])
def test_einsum(parity, subscripts, shapes, optimize):
    args = [make(s) for s in shapes]
    parity(lambda xp, *xs: xp.einsum(subscripts, *xs, optimize=optimize), *args)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "float32", "complex64", "complex128"])
def test_dtypes(parity, dtype):
    a, b = make((2, 3), dtype), make((3, 4), dtype)
    parity(lambda xp, a, b: xp.einsum("ij,jk->ik", a, b), a, b)
    parity(lambda xp, a: xp.einsum("ij->", a), a)
    parity(lambda xp, a: xp.einsum("ij->j", a), a)
    parity(lambda xp, a, b: xp.einsum("ij,ij->i", a, b.T), a, b)


def test_mixed_dtypes_and_dtype_argument(parity):
    a, b = make((2, 3), "float32"), make((3, 4), "int64")
    parity(lambda xp, a, b: xp.einsum("ij,jk->ik", a, b), a, b)
    parity(lambda xp, a, b: xp.einsum("ij,jk->ik", a, b, dtype="float64"), a, b)
    # float32 from int64 is not a safe cast: TypeError
    parity(lambda xp, a, b: xp.einsum("ij,jk->ik", a, b, dtype="float32"), a, b)
    parity(lambda xp, a, b: xp.einsum("ij,jk->ik", a, b, dtype="float32", casting="unsafe"), a, b)


def test_sublist_form(parity):
    a, b = make((2, 3)), make((3, 4))
    parity(lambda xp, a, b: xp.einsum(a, [0, 1], b, [1, 2], [0, 2]), a, b)
    parity(lambda xp, a, b: xp.einsum(a, [0, 1], b, [1, 2]), a, b)
    parity(lambda xp, a: xp.einsum(a, [0, 0]), make((3, 3)))
    parity(lambda xp, a: xp.einsum(a, [Ellipsis, 0], [Ellipsis]), make((2, 3)))
    parity(lambda xp, a, b: xp.einsum(a, [51, 0], b, [0, 26], [26, 51], optimize=True), a, b)


def test_explicit_path_and_einsum_path():
    a, b, c = make((2, 3)), make((3, 4)), make((4, 5))
    path = ["einsum_path", (1, 2), (0, 1)]
    got = arraystack.einsum(
        "ij,jk,kl->il", *[arraystack.asarray(x) for x in (a, b, c)], optimize=path
    )
    numpy.testing.assert_allclose(
        numpy.asarray(got), numpy.einsum("ij,jk,kl->il", a, b, c), rtol=1e-13
    )
    want = numpy.einsum_path("ij,jk,kl->il", a, b, c, optimize="optimal")
    have = arraystack.einsum_path(
        "ij,jk,kl->il", *[arraystack.asarray(x) for x in (a, b, c)], optimize="optimal"
    )
    assert have[0] == want[0] and have[1] == want[1]


def test_out(parity):
    def f(xp, a, b):
        out = xp.zeros((2, 4))
        r = xp.einsum("ij,jk->ik", a, b, out=out)
        return r, out

    parity(f, make((2, 3)), make((3, 4)), traced=False)


@pytest.mark.parametrize(
    "subscripts, shapes",
    [
        ("ij,jk->ik", [(2, 3), (4, 5)]),
        ("ij,jk->ik", [(2, 3)]),
        ("ij->ik", [(2, 3)]),
        ("ij->ii", [(2, 3)]),
        ("ijk->ij", [(2, 3)]),
        ("i->i", [(2, 3)]),
        ("ii->i", [(2, 3)]),
        ("i2->i", [(2, 3)]),
        ("...ij,jk->ik", [(5, 2, 3), (3, 4)]),
        ("i.j->i", [(2, 3)]),
    ],
)
def test_errors(parity, subscripts, shapes):
    parity(lambda xp, *xs: xp.einsum(subscripts, *xs), *[make(s) for s in shapes])


def test_grad_and_vmap():
    a, b = make((3, 3)), make((3, 4))

    def f(x, y):
        return arraystack.sum(arraystack.einsum("ii,ij,jk->k", x, x, y, optimize="optimal") ** 2)

    def g(x, y):
        return numpy.sum(numpy.einsum("ii,ij,jk->k", x, x, y) ** 2)

    grads = arraystack.grad(f, argnums=(0, 1))(arraystack.asarray(a), arraystack.asarray(b))
    eps = 1e-6
    for k, (x, gx) in enumerate(zip((a, b), grads)):
        t = make(x.shape)
        args_p = [a, b]
        args_m = [a, b]
        args_p[k], args_m[k] = x + eps * t, x - eps * t
        fd = (g(*args_p) - g(*args_m)) / (2 * eps)
        numpy.testing.assert_allclose(numpy.sum(numpy.asarray(gx) * t), fd, rtol=1e-6)
    batched = arraystack.vmap(lambda x: arraystack.einsum("ij,jk->ik", x, x))(
        arraystack.asarray(make((4, 3, 3)))
    )
    assert batched.shape == (4, 3, 3)
