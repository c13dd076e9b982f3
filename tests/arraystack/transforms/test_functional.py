"""NumPy parity of _transforms/functional.py: apply_along_axis and vectorize, eagerly, traced, under jit and
grad; apply_over_axes."""

from __future__ import annotations

import numpy
import pytest

import arraystack

X = numpy.arange(24.0).reshape(2, 3, 4) - 7


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_apply_along_axis(parity, axis):
    parity(lambda xp, x: xp.apply_along_axis(lambda r: r[::-1].cumsum(), axis, x), X)
    parity(lambda xp, x: xp.apply_along_axis(lambda r: xp.sum(r * r), axis, x), X)
    parity(lambda xp, x: xp.apply_along_axis(lambda r: xp.outer(r, r), axis, x), X)
    parity(lambda xp, x: xp.apply_along_axis(lambda r, k: r[:k] * 2, axis, x.astype(int), 2), X)
    parity(lambda xp, x: xp.apply_along_axis(lambda r, k=1: r[k], axis, x, k=0), X)


def test_apply_along_axis_errors(parity):
    parity(lambda xp, x: xp.apply_along_axis(xp.sum, 3, x), X)
    parity(lambda xp, x: xp.apply_along_axis(xp.sum, 0, x[:, :0]), X)


def test_vectorize_eager(parity):
    def piecewise(x, y):
        return x + y if x > 0 else x - y  # branches on values: runs element by element as in NumPy

    parity(lambda xp, x: xp.vectorize(piecewise)(x, 2), X, traced=False)
    parity(lambda xp, x: xp.vectorize(piecewise, otypes=[numpy.float32])(x, x[0]), X, traced=False)
    parity(lambda xp, x: xp.vectorize(piecewise, excluded={1})(x, 3), X, traced=False)
    parity(lambda xp, x: xp.vectorize(lambda a, b: (a + b, a * b))(x, 2.0), X, traced=False)
    parity(
        lambda xp, x: xp.vectorize(lambda a, y=1: a * y, excluded={"y"})(x, y=3), X, traced=False
    )
    parity(lambda xp, x: xp.vectorize(lambda r: r.sum(), signature="(n)->()")(x), X, traced=False)
    parity(lambda xp, x: xp.vectorize(lambda r: r[::-1], signature="(n)->(n)")(x), X, traced=False)
    parity(lambda xp, x: xp.vectorize(lambda a: a)(x[:0]), X, traced=False)
    parity(lambda xp, x: xp.vectorize(lambda a: a, otypes="q")(x[:0]), X, traced=False)
    parity(lambda xp, x: xp.vectorize(lambda a: a, otypes="?x")(x), X, traced=False)
    parity(lambda xp, x: xp.vectorize(lambda r: r, signature="(n)->(n")(x), X, traced=False)


def test_vectorize_decorator():
    for module in (numpy, arraystack):

        @module.vectorize(otypes=[float])
        def double(x):
            return x * 2

        assert numpy.asarray(double(module.asarray([1, 2]))).dtype == numpy.float64
        assert double.otypes == [numpy.dtype(float)]


def test_vectorize_traced(parity):
    parity(lambda xp, x: xp.vectorize(lambda a, b: xp.sin(a) * b)(x, x[0, 0]), X)
    parity(lambda xp, x: xp.vectorize(lambda a: a * 2, otypes=[numpy.float32])(x), X)
    parity(
        lambda xp, x: xp.vectorize(lambda r, s: xp.sum(r * s), signature="(n),()->()")(
            x, x[:, :, 0]
        ),
        X,
    )
    parity(
        lambda xp, x: xp.vectorize(lambda r: (r[::-1], xp.max(r)), signature="(n)->(n),()")(x), X
    )
    parity(lambda xp, x: xp.vectorize(lambda a, k: a**k, excluded={1})(x, 2), X)


def test_vectorize_jit_and_grad(check_grads):
    f = arraystack.jit(
        lambda x: arraystack.vectorize(lambda r: arraystack.sum(r * r), signature="(n)->()")(x)
    )
    numpy.testing.assert_allclose(numpy.asarray(f(arraystack.asarray(X))), (X * X).sum(-1))
    check_grads(lambda x: arraystack.vectorize(lambda t: arraystack.tanh(t) * t)(x), [X / 10])
    check_grads(
        lambda x: arraystack.apply_along_axis(lambda r: arraystack.cumsum(r * r), 1, x), [X / 10]
    )


def test_frompyfunc_gives_numpys_object_results():
    for xp in (numpy, arraystack):
        add = xp.frompyfunc(lambda a, b: a + b, 2, 1)
        x = xp.arange(4)
        got = add(x, xp.asarray([1, 2, 3, 4]))
        assert isinstance(got, xp.ndarray) and got.dtype == object
        assert list(got) == [1, 3, 5, 7]
        assert add.reduce(x) == 6 and list(add.accumulate(x)) == [0, 1, 3, 6]
        assert add.outer(x[:2], x[:3]).shape == (2, 3)
        assert add.nin == 2 and add.nout == 1
    pair = arraystack.frompyfunc(lambda a: (a, -a), 1, 2)(arraystack.arange(2))
    assert [list(p) for p in pair] == [[0, 1], [0, -1]]
    with pytest.raises(TypeError):
        arraystack.frompyfunc(lambda a: a, 1, 1)(1, 2)
    with pytest.raises(arraystack.errors.HostDtypeError, match=r"frompyfunc\(...\).__call__"):
        arraystack.jit(lambda x: arraystack.frompyfunc(lambda a: a, 1, 1)(x))(arraystack.arange(2))
    objects = arraystack.asarray([1, 2, 3], dtype=object)
    add.at(objects, [0, 0], 10)  # in place, as NumPy's
    assert objects.tolist() == [21, 2, 3]


# -- apply_over_axes -------------------------------------------------------------------------------

DTYPES = ["bool", "int8", "float32", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axes", [0, -1, [0, 2], (2, 0), [], numpy.array([1, 2]), [0, 0]])
@pytest.mark.parametrize("func", ["sum", "max", "mean", "cumsum"])
def test_apply_over_axes(parity, dtype, axes, func):
    x = (numpy.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    for arg in (x, x.transpose(2, 0, 1), x[::-1, :, ::2]):
        parity(lambda xp, x: xp.apply_over_axes(getattr(xp, func), x, axes), arg)


def test_apply_over_axes_errors(parity):
    x = numpy.arange(6.0).reshape(2, 3)
    parity(lambda xp, x: xp.apply_over_axes(lambda a, axis: a.ravel()[0], x, 0), x)  # ValueError
    parity(lambda xp, x: xp.apply_over_axes(xp.sum, x, 3), x)  # AxisError
    parity(lambda xp: xp.apply_over_axes(xp.sum, [[1, 2]], 0))  # AttributeError: no ndim
