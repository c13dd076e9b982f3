"""Every elementwise function is a ufunc: reduce, accumulate, reduceat, outer and at, and NumPy's
attributes, against NumPy (the parity fixture also traces each form, which runs the compositions of
arraystack/_math/ufunc_folds.py), under jit, grad and vmap."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir import ShapedArray, make_graph

import arraystack

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

A = numpy.arange(-3.0, 3.0).reshape(2, 3)
F = numpy.array([[0.5, -1.5, 2.0, 3.25], [1.0, 4.0, -0.25, 2.5], [7.0, -2.0, 0.75, 1.5]])
I8 = numpy.array([[1, -2, 3], [4, 5, -6]], dtype=numpy.int8)
B = numpy.array([[True, False, True], [True, True, True]])
NAN = numpy.array([1.0, numpy.nan, 3.0, -2.0])
NOT_ELEMENTWISE = ("isnat", "matmul", "matvec", "vecdot", "vecmat")  # datetimes; linalg's gufuncs
UFUNC_NAMES = sorted(
    n for n in dir(numpy) if isinstance(getattr(numpy, n), numpy.ufunc) and n not in NOT_ELEMENTWISE
)
# the gufuncs (linalg/_gufuncs.py) and isnat carry NumPy's attributes and methods too
ALL_UFUNC_NAMES = sorted(n for n in dir(numpy) if isinstance(getattr(numpy, n), numpy.ufunc))


# -- the everyday forms of the issue ----------------------------------------------------------------


def test_add_at_accumulates_repeated_indices(parity):
    def scatter_add(xp, x, idx):
        xp.add.at(x, idx, 1.0)
        return x

    parity(scatter_add, numpy.zeros(5), numpy.array([0, 1, 1, 3, 1]))
    parity(scatter_add, numpy.zeros((3, 2)), numpy.array([2, 0, 2]))

    def with_values(xp, x, v):
        xp.add.at(x, [0, 0, 2], v)
        return x

    parity(with_values, numpy.zeros(4), numpy.array([1.0, 2.0, 3.5]))
    parity(with_values, numpy.zeros(4, numpy.int32), numpy.array([1.5, 2.5, 3.5]))
    parity(with_values, numpy.zeros(4), numpy.array([1, 2, 3]))  # int values, float array


def test_add_at_writes_in_place_and_through_views():
    x = arraystack.zeros(6)
    view = x[1:4]
    assert arraystack.add.at(view, [0, 0, 2], 1.0) is None
    numpy.testing.assert_array_equal(numpy.asarray(x), [0, 2, 0, 1, 0, 0])


def test_at_of_other_ufuncs(parity):
    def update(xp, x, idx):
        xp.subtract.at(x, idx, 0.25)
        xp.multiply.at(x, idx[:2], 3.0)
        xp.maximum.at(x, idx, 2.0)
        xp.negative.at(x, idx)
        xp.divide.at(x, idx, 1.5)
        return x

    parity(update, F[0].copy(), numpy.array([1, 1, 3]))

    def on_ints(xp, x):
        xp.power.at(x, (xp.asarray([0, 0]), xp.asarray([1, 1])), 2)
        xp.bitwise_xor.at(x, (slice(None), 0), 5)
        return x

    parity(on_ints, numpy.arange(6, dtype=numpy.int64).reshape(2, 3) + 1)


def test_subtract_outer(parity):
    parity(lambda xp, x, y: xp.subtract.outer(x, y), F[0], numpy.arange(3.0))
    parity(lambda xp, x, y: xp.multiply.outer(x, y), A, numpy.arange(4, dtype=numpy.int8))
    parity(lambda xp, x: xp.divmod.outer(x, xp.asarray([2.0, 3.0])), F[1])
    parity(lambda xp, x: xp.less.outer(x, 0.5), F[0])
    parity(lambda xp, x: xp.add.outer(x, x, dtype=xp.float32), F[0])


def test_add_reduceat(parity):
    x = numpy.arange(8.0)
    parity(lambda xp, x: xp.add.reduceat(x, [0, 4, 1, 5, 7]), x)
    parity(lambda xp, x: xp.add.reduceat(x, numpy.array([0, 3]), axis=1), F)
    parity(lambda xp, x: xp.multiply.reduceat(x, [0, 2]), I8[0])
    parity(lambda xp, x: xp.maximum.reduceat(x, [1, 0, 2], axis=1), F)
    parity(lambda xp, x: xp.subtract.reduceat(x, [0, 2], dtype=xp.float32), x)
    parity(lambda xp, x: xp.add.reduceat(x, [0, 8]), x)  # IndexError


def test_maximum_accumulate(parity):
    parity(lambda xp, x: xp.maximum.accumulate(x), NAN)
    parity(lambda xp, x: xp.maximum.accumulate(x, axis=1), F)
    parity(lambda xp, x: xp.minimum.accumulate(x), I8)
    parity(lambda xp, x: xp.add.accumulate(x), I8)  # int8 accumulates in the platform integer
    parity(lambda xp, x: xp.multiply.accumulate(x, axis=-1, dtype=xp.float32), F)
    parity(lambda xp, x: xp.logical_and.accumulate(x, axis=1), B)
    parity(lambda xp, x: xp.subtract.accumulate(x, axis=1), F)
    parity(lambda xp, x: xp.hypot.accumulate(x), F)
    parity(lambda xp, x: xp.add.accumulate(x, axis=None), NAN)
    parity(lambda xp, x: xp.add.accumulate(x, axis=None), F)  # ValueError: several axes


def test_logical_and_reduce(parity):
    parity(lambda xp, x: xp.logical_and.reduce(x), B)
    parity(lambda xp, x: xp.logical_and.reduce(x, axis=1), B)
    parity(lambda xp, x: xp.logical_or.reduce(x, axis=None), I8)
    parity(lambda xp, x: xp.logical_xor.reduce(x, axis=1), B)
    parity(lambda xp, x: xp.bitwise_and.reduce(x, axis=1), I8)
    parity(lambda xp, x: xp.bitwise_or.reduce(x), B)


def test_multiply_reduce_axis_none(parity):
    parity(lambda xp, x: xp.multiply.reduce(x, axis=None), F)
    parity(lambda xp, x: xp.multiply.reduce(x, axis=None), I8)
    parity(lambda xp, x: xp.add.reduce(x, axis=(0, 1)), I8)
    parity(lambda xp, x: xp.maximum.reduce(x, axis=None), NAN)
    parity(lambda xp, x: xp.fmax.reduce(x), NAN)
    parity(lambda xp, x: xp.hypot.reduce(x, axis=(1, 0)), F)
    parity(lambda xp, x: xp.subtract.reduce(x, axis=None), F)  # ValueError: not reorderable


def test_reduce_of_other_ufuncs(parity):
    parity(lambda xp, x: xp.subtract.reduce(x), F)
    parity(lambda xp, x: xp.subtract.reduce(x, axis=1), F)
    parity(lambda xp, x: xp.divide.reduce(x, axis=-1), F)
    parity(lambda xp, x: xp.power.reduce(x), I8)
    parity(lambda xp, x: xp.logaddexp.reduce(x, axis=1), F)
    parity(lambda xp, x: xp.arctan2.reduce(x), F)
    parity(lambda xp, x: xp.gcd.reduce(x, axis=1), I8)
    parity(lambda xp, x: xp.add.reduce(x, axis=()), F)
    parity(lambda xp, x: xp.subtract.reduce(x), numpy.array(2.5))


def test_keepdims_initial_where_dtype(parity):
    parity(lambda xp, x: xp.add.reduce(x, axis=1, keepdims=True), F)
    parity(lambda xp, x: xp.subtract.reduce(x, axis=0, keepdims=True), F)
    parity(lambda xp, x: xp.add.reduce(x, initial=10.0), F)
    parity(lambda xp, x: xp.subtract.reduce(x, axis=1, initial=1.0), F)
    parity(lambda xp, x: xp.maximum.reduce(x, axis=1, initial=3.0), F)
    parity(lambda xp, x: xp.maximum.reduce(x[:, :0], axis=1, initial=-1.0), F)
    where = numpy.array([True, False, True, True])
    parity(lambda xp, x: xp.add.reduce(x, axis=1, where=where), F)
    parity(lambda xp, x: xp.minimum.reduce(x, axis=1, where=where, initial=9.0), F)
    parity(lambda xp, x: xp.subtract.reduce(x, axis=1, where=where, initial=0.0), F)
    parity(lambda xp, x: xp.add.reduce(x, dtype=xp.float32), I8)
    parity(lambda xp, x: xp.multiply.reduce(x, axis=1, dtype=xp.int8), I8)
    parity(lambda xp, x: xp.divide.reduce(x, dtype=xp.float32), I8)
    parity(lambda xp, x: xp.add.reduce(x, initial=None), F[:0])  # ValueError: no identity
    parity(lambda xp, x: xp.add.reduce(x), F[:0])


def test_out(parity):
    def reduce_into(xp, x):
        out = xp.zeros(4, xp.float32)
        r = xp.add.reduce(x, out=out)
        return r, out

    parity(reduce_into, F)

    def accumulate_into(xp, x):
        out = xp.zeros((3, 4))
        xp.subtract.accumulate(x, axis=1, out=out)
        return out

    parity(accumulate_into, F)

    def reduceat_into(xp, x):
        out = xp.ones((3, 2), xp.int64)
        xp.add.reduceat(x, [0, 2], axis=1, out=(out,))
        return out

    parity(reduceat_into, F)
    parity(lambda xp, x: xp.add.reduce(x, out=xp.zeros(3)), F)  # ValueError: wrong shape


def test_errors(parity):
    parity(lambda xp, x: xp.add.reduce(x, axis=2), F)  # AxisError
    parity(lambda xp, x: xp.maximum.accumulate(x, axis=-3), F)
    parity(lambda xp, x: xp.sin.reduce(x), F)  # ValueError: a unary ufunc
    parity(lambda xp, x: xp.sin.accumulate(x), F)
    parity(lambda xp, x: xp.negative.reduceat(x, [0]), F)
    parity(lambda xp, x: xp.sqrt.outer(x, x), F)
    parity(lambda xp, x: xp.divmod.reduce(x), F)  # ValueError: two outputs
    parity(lambda xp, x: xp.subtract.reduce(x), B)  # TypeError: boolean subtract
    parity(lambda xp, x: xp.maximum.reduce(x[:0]), F)  # ValueError: no identity
    parity(lambda xp, x: xp.maximum.reduce(x, where=x > 0), F)  # ValueError: needs initial
    parity(lambda xp, x: xp.add.accumulate(x[0, 0]), F)  # TypeError: a scalar
    parity(lambda xp, x: xp.ldexp.accumulate(x), F)  # TypeError: no loop


def test_at_errors():
    for xp in (numpy, arraystack):
        x = xp.zeros(3)
        with pytest.raises(ValueError):
            xp.add.at(x, [0])
        with pytest.raises(ValueError):
            xp.sin.at(x, [0], 1.0)
        with pytest.raises(ValueError):
            xp.divmod.at(x, [0], 1.0)
        with pytest.raises(ValueError):
            xp.add.at(x, [0, 1], [1.0, 2.0, 3.0])
        with pytest.raises(IndexError):
            xp.add.at(x, [5], 1.0)
        numpy.testing.assert_array_equal(numpy.asarray(x), numpy.zeros(3))
        with pytest.raises(TypeError):
            xp.add.at([1.0, 2.0], [0], 1.0)


@pytest.mark.parametrize("name", ALL_UFUNC_NAMES)
def test_attributes_are_numpys(name):
    mine, theirs = getattr(arraystack, name), getattr(numpy, name)
    for attribute in ("nin", "nout", "nargs", "ntypes", "types", "signature", "__name__"):
        assert getattr(mine, attribute) == getattr(theirs, attribute), attribute
    assert mine.identity == theirs.identity and type(mine.identity) is type(theirs.identity)
    for method in ("reduce", "accumulate", "reduceat", "outer", "at"):
        assert callable(getattr(mine, method))
        assert getattr(mine, method).__name__ == method


# -- under jit, grad and vmap ---------------------------------------------------------------------------


def _primitives(fn, *arrays):
    graph, _ = make_graph(
        lambda *xs: [arraystack.asarray(fn(*map(arraystack.asarray, xs)))._value],
        [ShapedArray(a.shape, a.dtype) for a in arrays],
    )
    return {eqn.prim.name for eqn in graph.eqns}


def test_methods_lower_to_primitives():
    assert "reduce_sum" in _primitives(lambda x: arraystack.add.reduce(x), F)
    assert "reduce_prod" in _primitives(lambda x: arraystack.multiply.reduce(x, axis=None), F)
    assert "reduce_max" in _primitives(lambda x: arraystack.maximum.reduce(x, axis=1), F)
    assert "reduce_and" in _primitives(lambda x: arraystack.logical_and.reduce(x), B)
    assert "cummax" in _primitives(lambda x: arraystack.maximum.accumulate(x), F)
    assert "cumsum" in _primitives(lambda x: arraystack.add.accumulate(x), F)
    assert "scan" in _primitives(lambda x: arraystack.subtract.reduce(x), F)
    assert "scan" in _primitives(lambda x: arraystack.subtract.accumulate(x), F)
    outer = _primitives(lambda x: arraystack.subtract.outer(x, x), F[0])
    assert "scan" not in outer and "sub" in outer

    def scatter(x):
        arraystack.add.at(x, arraystack.asarray([0, 0, 2]), 1.0)
        return x

    assert "scatter" in _primitives(scatter, F[0])


def test_at_under_jit_updates_the_argument():
    @arraystack.jit
    def f(x, idx, v):
        arraystack.add.at(x, idx, v)
        return x * 2.0

    x = arraystack.zeros(4)
    r = f(x, arraystack.asarray([0, 0, 3]), arraystack.asarray([1.0, 2.0, 3.0]))
    numpy.testing.assert_array_equal(numpy.asarray(r), [6.0, 0.0, 0.0, 6.0])
    numpy.testing.assert_array_equal(numpy.asarray(x), [3.0, 0.0, 0.0, 3.0])


def test_methods_under_jit():
    @arraystack.jit
    def f(x):
        return (
            arraystack.add.reduce(x, axis=1),
            arraystack.maximum.accumulate(x, axis=1),
            arraystack.subtract.outer(x[0], x[1]),
            arraystack.add.reduceat(x, [0, 2], axis=1),
            arraystack.divide.reduce(x),
        )

    got = f(arraystack.asarray(F))
    expected = (
        numpy.add.reduce(F, axis=1),
        numpy.maximum.accumulate(F, axis=1),
        numpy.subtract.outer(F[0], F[1]),
        numpy.add.reduceat(F, [0, 2], axis=1),
        numpy.divide.reduce(F),
    )
    for g, e in zip(got, expected):
        numpy.testing.assert_allclose(numpy.asarray(g), e, rtol=1e-12)


def test_traced_reduceat_indices_raise_naming_the_method():
    f = arraystack.jit(lambda x, idx: arraystack.add.reduceat(x, idx))
    with pytest.raises(arraystack.ir.core.TracerError, match="add.reduceat"):
        f(arraystack.asarray(F[0]), arraystack.asarray([0, 2]))


def test_gradients(check_grads):
    check_grads(lambda x: arraystack.add.reduce(x, axis=1), [F])
    check_grads(lambda x: arraystack.multiply.reduce(x, axis=None), [F])
    check_grads(lambda x: arraystack.maximum.reduce(x, axis=0), [F])
    check_grads(lambda x: arraystack.add.accumulate(x, axis=1), [F])
    check_grads(lambda x: arraystack.subtract.reduce(x, axis=1), [F])
    check_grads(lambda x: arraystack.subtract.accumulate(x), [F])
    check_grads(lambda x, y: arraystack.multiply.outer(x, y), [F[0], F[1]])
    check_grads(lambda x: arraystack.add.reduceat(x, [0, 2], axis=1), [F])

    def scatter(x, v):
        x = x * 1.0
        arraystack.add.at(x, arraystack.asarray([0, 0, 2]), v)
        return x

    check_grads(scatter, [F[0], F[1][:3]])


def test_vmap_against_a_loop():
    fns = [
        lambda x: arraystack.add.reduce(x),
        lambda x: arraystack.maximum.accumulate(x),
        lambda x: arraystack.subtract.reduce(x),
        lambda x: arraystack.subtract.outer(x, x),
        lambda x: arraystack.add.reduceat(x, [0, 3]),
    ]
    for fn in fns:
        batched = arraystack.vmap(fn)(arraystack.asarray(F))
        looped = numpy.stack([numpy.asarray(fn(arraystack.asarray(row))) for row in F])
        numpy.testing.assert_allclose(numpy.asarray(batched), looped, rtol=1e-12)


def test_ufunc_at_with_row_indices_and_row_updates_under_jit():
    # updates shaped like the indexed rows (indices (2, 3) into (5, 4): updates (2, 3, 4) or (4,))
    import arraystack as ast

    rng = numpy.random.default_rng(0)
    x, ids = rng.standard_normal((5, 4)), numpy.array([[0, 4, 0], [-1, 2, 2]])
    for g in (rng.standard_normal((2, 3, 4)), rng.standard_normal(4)):
        want = x.copy()
        numpy.add.at(want, ids, g)

        def f(x, g):
            out = x.copy()
            ast.add.at(out, ids, g)
            return out

        numpy.testing.assert_array_equal(numpy.asarray(ast.jit(f)(x, g)), want)
