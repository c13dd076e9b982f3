"""NumPy's subclasses with behaviour of their own (numpy.matrix, numpy.ma's masked arrays) and the objects
NumPy's operators defer to (scipy.sparse's matrices and arrays) beside arraystack arrays: every operator
and function gives what it gives beside a NumPy array (the subclass, its values and its mask), where it
used to recurse forever (`array * matrix`), to drop the subclass (`dot`, `@`), or to make an object
array of sparse matrices (`array * sparse`)."""

import operator

import numpy
import pytest
import scipy.sparse

import arraystack

A = [[1.0, 2.0], [3.0, 4.0]]
MATRIX = numpy.matrix([[2.0, -1.0], [0.5, 3.0]])
MASKED = numpy.ma.array([[2.0, -1.0], [0.5, 3.0]], mask=[[0, 1], [0, 0]])
SPARSE = [scipy.sparse.csr_matrix(MATRIX), scipy.sparse.csr_array(numpy.asarray(MATRIX))]

OPERATORS = [
    operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
    operator.pow, operator.matmul, operator.lt, operator.le, operator.gt, operator.ge, operator.eq,
    operator.ne,
]  # fmt: skip


def _same(got, expected):
    assert type(got) is type(expected)
    if scipy.sparse.issparse(expected):
        numpy.testing.assert_array_equal(got.toarray(), expected.toarray())
    elif isinstance(expected, numpy.ma.MaskedArray):
        numpy.testing.assert_array_equal(
            numpy.ma.getmaskarray(got), numpy.ma.getmaskarray(expected)
        )
        numpy.testing.assert_array_equal(got.filled(0), expected.filled(0))
    else:
        numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(expected))


@pytest.mark.parametrize(
    "other", [MATRIX, MASKED, *SPARSE], ids=["matrix", "masked", "csr_matrix", "csr_array"]
)
@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.__name__)
@pytest.mark.parametrize("side", ["left", "right"])
def test_operators_give_what_they_give_beside_a_numpy_array(op, other, side):
    def run(xp):
        a = xp.asarray(A)
        try:
            return op(a, other) if side == "left" else op(other, a)
        except Exception as e:  # noqa: BLE001 - the same exception type is the expected outcome
            return e

    got, expected = run(arraystack), run(numpy)
    if isinstance(expected, Exception):  # matrix ** array: the exponent must be an integer
        assert type(got) is type(expected)
    else:
        _same(got, expected)


@pytest.mark.parametrize("other", [MATRIX, MASKED], ids=["matrix", "masked"])
@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a, m: xp.dot(a, m),
        lambda xp, a, m: xp.matmul(a, m),
        lambda xp, a, m: xp.multiply(a, m),
        lambda xp, a, m: xp.add(m, a),
        lambda xp, a, m: xp.concatenate([m, a]),
        lambda xp, a, m: xp.sum(m, axis=0),
        lambda xp, a, m: xp.sin(m),
        lambda xp, a, m: a.dot(m),
        lambda xp, a, m: xp.linalg.inv(m),
        lambda xp, a, m: xp.asanyarray(m),
        lambda xp, a, m: xp.asanyarray(m, dtype=xp.float32),
    ],
    ids=[
        "dot",
        "matmul",
        "multiply",
        "add",
        "concatenate",
        "sum",
        "sin",
        "method dot",
        "inv",
        "asanyarray",
        "asanyarray dtype",
    ],
)
def test_functions_keep_the_subclass_as_numpys_do(call, other):
    got = call(arraystack, arraystack.asarray(A), other)
    _same(got, call(numpy, numpy.asarray(A), other))


def test_the_matrix_class_is_numpys():
    assert arraystack.matrix is numpy.matrix
    a = arraystack.asarray(A)
    m = arraystack.asmatrix(a)
    assert type(m) is numpy.matrix and numpy.shares_memory(m, numpy.asarray(a))
    block = arraystack.bmat([[a, a], [a, a]])
    numpy.testing.assert_array_equal(block, numpy.bmat([[A, A], [A, A]]))
    assert (m * m).tolist() == (numpy.matrix(A) @ numpy.matrix(A)).tolist()


def test_in_place_operators_keep_the_arraystack_array():
    for xp in (arraystack, numpy):
        a = xp.asarray(A)
        a *= MATRIX
        assert type(a) is xp.ndarray
        numpy.testing.assert_array_equal(numpy.asarray(a), numpy.asarray(A) * numpy.asarray(MATRIX))


def test_a_traced_function_refuses_a_matrix_argument():
    with pytest.raises(TypeError, match="numpy.matrix"):
        arraystack.jit(lambda x: x * 2)(MATRIX)


def test_structured_comparison_with_a_recarray_is_numpys():
    rec = numpy.rec.array([(1, 2.0), (3, 4.0)], dtype=[("a", "i8"), ("b", "f8")])
    plain = rec.copy().view(numpy.ndarray)
    for op in (operator.eq, operator.ne):
        expected = op(plain, rec)
        got = op(arraystack.asarray(plain), rec)
        assert type(got) is type(expected)
        assert numpy.asarray(got).tolist() == numpy.asarray(expected).tolist()


@pytest.mark.parametrize("other", [MATRIX, SPARSE[0]], ids=["matrix", "sparse"])
def test_a_traced_array_beside_such_an_object_raises_naming_it(other):
    name = "numpy.matrix" if other is MATRIX else "scipy.sparse.csr_matrix"
    with pytest.raises(arraystack.errors.ConcretizationError, match=name):
        arraystack.jit(lambda x: x * other)(arraystack.ones((2, 2)))


def test_asanyarray_passes_arraystacks_masked_arrays_through():
    for xp in (numpy, arraystack):
        x = xp.ma.array([1, 2, 3], mask=[0, 1, 0])
        assert xp.asanyarray(x) is x
        as_float = xp.asanyarray(x, dtype=xp.float32)
        assert type(as_float) is type(x) and as_float.dtype == xp.float32
        assert as_float.mask.tolist() == [False, True, False]
        assert xp.asanyarray(x, copy=True) is not x
