"""matmul (`@`) and dot against NumPy: 1-d promotion, batch broadcasting, dtypes, out=/dtype=/axes=, errors."""

from __future__ import annotations

import functools

import numpy
import pytest

import arraystack
from tests import oracle

rng = numpy.random.default_rng(0)


_arr = functools.partial(oracle.make, seed=rng, ints=(0, 5))


SHAPES = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3, 4)),
    ((5, 2, 3), (3, 4)),
    ((2, 3), (5, 3, 4)),
    ((5, 2, 3), (5, 3, 4)),
    ((5, 1, 2, 3), (4, 3, 2)),
    ((1, 2, 3), (6, 3, 2)),
    ((4, 2, 3), (3,)),
    ((3,), (4, 3, 2)),
    ((0, 3), (3, 2)),
    ((2, 0), (0, 3)),
    ((2, 3, 0), (0, 4)),
    ((1, 1), (1, 1)),
]


@pytest.mark.parametrize("sa, sb", SHAPES)
def test_matmul_shapes(parity, sa, sb):
    parity(lambda xp, a, b: xp.matmul(a, b), _arr(sa), _arr(sb))
    parity(lambda xp, a, b: a @ b, _arr(sa), _arr(sb))


@pytest.mark.parametrize(
    "da, db",
    [
        ("float32", "float32"),
        ("float16", "float16"),
        ("int8", "uint8"),
        ("int64", "int64"),
        ("int32", "float32"),
        ("bool", "bool"),
        ("bool", "int16"),
        ("complex64", "float64"),
        ("complex128", "complex128"),
        ("uint64", "int64"),
    ],
)
def test_matmul_dtypes(parity, da, db):
    parity(lambda xp, a, b: xp.matmul(a, b), _arr((2, 3, 4), da), _arr((4, 2), db))
    parity(lambda xp, a, b: a @ b, _arr((4,), da), _arr((4,), db))


def test_matmul_integer_overflow_wraps(parity):
    a = numpy.full((2, 2), 100, numpy.int8)
    parity(lambda xp, a: xp.matmul(a, a), a)


def test_matmul_non_contiguous_operands(parity):
    a = _arr((4, 3)).T  # transposed
    b = _arr((6, 4))[::2]  # strided rows
    c = _arr((4, 3))[::-1]  # negative strides
    parity(lambda xp, a, b: xp.matmul(a, b), a, b.T)
    parity(lambda xp, a, c: xp.matmul(c, a), a, c)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")
def test_matmul_nan_inf(parity):
    a = numpy.array([[numpy.nan, 1.0], [numpy.inf, -0.0]])
    parity(lambda xp, a: a @ a, a)


def test_matmul_lists_and_rmatmul(parity):
    parity(lambda xp, a: [[1.0, 2.0], [3.0, 4.0]] @ a, _arr((2, 3)), traced=False)
    parity(lambda xp, a: xp.matmul([1, 2], [3, 4]), _arr((1,)), traced=False)


@pytest.mark.parametrize(
    "sa, sb",
    [
        ((2, 3), (4, 5)),  # core mismatch
        ((3,), (4,)),
        ((2, 3, 4), (5, 3, 4)),  # core mismatch is reported before the batch mismatch
        ((2, 2, 3, 4), (5, 4, 6)),  # batch shapes do not broadcast
        ((2, 3, 4), (3, 4, 2)),
    ],
)
def test_matmul_shape_errors(parity, sa, sb):
    parity(lambda xp, a, b: xp.matmul(a, b), _arr(sa), _arr(sb))


def test_matmul_error_messages_are_numpys():
    cases = [((2, 3), (4, 5)), ((2, 2, 3, 4), (5, 4, 6)), ((4,), (2, 3))]
    for sa, sb in cases:
        with pytest.raises(ValueError) as expected:
            numpy.matmul(numpy.ones(sa), numpy.ones(sb))
        with pytest.raises(ValueError) as actual:
            arraystack.matmul(arraystack.ones(sa), arraystack.ones(sb))
        assert str(actual.value) == str(expected.value)


@pytest.mark.parametrize("which", [0, 1])
def test_matmul_rejects_scalars(which):
    x = arraystack.ones(3)
    args = (2.0, x) if which == 0 else (x, 2.0)
    with pytest.raises(ValueError, match=f"Input operand {which} does not have enough dimensions"):
        arraystack.matmul(*args)
    with pytest.raises(ValueError):
        args[0] @ args[1]
    with pytest.raises(ValueError):
        arraystack.matmul(arraystack.asarray(2.0), arraystack.ones((1, 1)))


def test_matmul_dtype_keyword(parity):
    a, b = _arr((2, 3)), _arr((3,))
    parity(lambda xp, a, b: xp.matmul(a, b, dtype=xp.float32), a, b)
    ai, bi = _arr((2, 3), "int8"), _arr((3,), "int8")
    parity(lambda xp, a, b: xp.matmul(a, b, dtype=xp.float32), ai, bi)
    parity(lambda xp, a, b: xp.matmul(a, b, dtype=xp.int32, casting="unsafe"), a, b)
    with pytest.raises(TypeError):  # float64 -> int32 is not same_kind
        arraystack.matmul(arraystack.asarray(a), arraystack.asarray(b), dtype=arraystack.int32)


def test_matmul_out_eager():
    a, b = _arr((2, 3)), _arr((3, 4))
    out = arraystack.zeros((2, 4))
    ret = arraystack.matmul(arraystack.asarray(a), arraystack.asarray(b), out=out)
    assert ret is out
    numpy.testing.assert_allclose(numpy.asarray(out), a @ b, rtol=1e-13)
    out32 = arraystack.zeros((2, 4), dtype=arraystack.float32)
    arraystack.matmul(arraystack.asarray(a), arraystack.asarray(b), out=out32)  # same_kind allowed
    numpy.testing.assert_allclose(numpy.asarray(out32), (a @ b).astype(numpy.float32), rtol=1e-6)
    bad = arraystack.zeros((2, 4), dtype=arraystack.int64)
    with pytest.raises(TypeError):
        arraystack.matmul(arraystack.asarray(a), arraystack.asarray(b), out=bad)
    assert not numpy.asarray(bad).any()  # left unchanged


def test_matmul_inplace_operator():
    a = arraystack.asarray(numpy.arange(4.0).reshape(2, 2))
    view = a[0]
    expected = numpy.arange(4.0).reshape(2, 2) @ numpy.eye(2) * 2
    a @= arraystack.asarray(numpy.eye(2) * 2)
    numpy.testing.assert_array_equal(numpy.asarray(a), expected)
    numpy.testing.assert_array_equal(numpy.asarray(view), expected[0])  # wrote the buffer


@pytest.mark.parametrize(
    "sa, sb, axes",
    [
        ((3, 2, 2), (3, 2, 2), [(1, 2), (1, 2), (1, 2)]),
        ((2, 2, 3), (3,), [(0, 2), 0, 0]),
        ((4, 3), (3, 5), [(0, 1), (0, 1), (1, 0)]),
        ((3,), (3,), [0, 0, ()]),
        ((2, 4, 3), (2, 3, 5), [(-2, -1), (-2, -1), (0, 1)]),
    ],
)
def test_matmul_axes(parity, sa, sb, axes):
    parity(lambda xp, a, b: xp.matmul(a, b, axes=axes), _arr(sa), _arr(sb))


def test_matmul_axes_errors(parity):
    parity(lambda xp, a, b: xp.matmul(a, b, axes=[(0, 2), 0, ()]), _arr((2, 2, 3)), _arr((3,)))
    parity(lambda xp, a, b: xp.matmul(a, b, axes=[(0, 1), (0, 1)]), _arr((3, 2)), _arr((2, 3)))
    parity(lambda xp, a, b: xp.matmul(a, b, axes=[0, 0]), _arr((3,)), _arr((3,)))
    parity(lambda xp, a, b: xp.matmul(a, b, axes=[(0, 1), (0, 1), 0]), _arr((3, 2)), _arr((2, 3)))
    parity(
        lambda xp, a, b: xp.matmul(a, b, axes=[(0, 5), (0, 1), (0, 1)]), _arr((3, 2)), _arr((2, 3))
    )


def test_matmul_traced_graph_is_dot_general():
    from arraystack.ir import ShapedArray, make_graph, print_graph

    def f(a, b):
        return [arraystack.matmul(arraystack._core.array.wrap(a), arraystack._core.array.wrap(b))._value]

    graph, _ = make_graph(
        f,
        [
            ShapedArray((5, 1, 2, 3), numpy.dtype("float32")),
            ShapedArray((4, 3, 2), numpy.dtype("float64")),
        ],
    )
    text = print_graph(graph)
    assert "dot_general" in text and "convert" in text and "broadcast_in_dim" in text


# -- dot ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sa, sb",
    [
        ((3,), (3,)),
        ((2, 3), (3,)),
        ((3,), (3, 4)),
        ((2, 3), (3, 4)),
        ((2, 3, 4), (4,)),
        ((2, 3, 4), (5, 4, 6)),
        ((3,), (2, 3, 4)),
        ((), (2, 2)),
        ((2, 3), ()),
        ((), ()),
        ((0, 3), (3, 0)),
    ],
)
def test_dot_shapes(parity, sa, sb):
    parity(lambda xp, a, b: xp.dot(a, b), _arr(sa), _arr(sb))


@pytest.mark.parametrize(
    "da, db",
    [
        ("int8", "float16"),
        ("bool", "bool"),
        ("int8", "int8"),
        ("float32", "complex64"),
        ("uint8", "int8"),
    ],
)
def test_dot_dtypes(parity, da, db):
    parity(lambda xp, a, b: xp.dot(a, b), _arr((2, 3), da), _arr((3, 2), db))


def test_dot_python_scalars_are_strong(parity):
    # numpy.dot converts Python scalars with asarray, so int8 . 300 is an int64 product (no overflow)
    parity(lambda xp, a: xp.dot(a, 300), numpy.array(2, numpy.int8), traced=False)
    parity(lambda xp, a: xp.dot(a, 3.0), numpy.ones(2, numpy.int8), traced=False)


@pytest.mark.parametrize("sa, sb", [((2, 3), (4, 5)), ((3,), (4,)), ((2, 3, 4), (5, 3))])
def test_dot_errors(parity, sa, sb):
    parity(lambda xp, a, b: xp.dot(a, b), _arr(sa), _arr(sb))
    with pytest.raises(ValueError) as expected:
        numpy.dot(numpy.ones(sa), numpy.ones(sb))
    with pytest.raises(ValueError) as actual:
        arraystack.dot(arraystack.ones(sa), arraystack.ones(sb))
    assert str(actual.value) == str(expected.value)


def test_dot_method(parity):
    parity(lambda xp, a, b: a.dot(b), _arr((2, 3)), _arr((3,)))


def test_dot_out():
    a, b = _arr((3, 2)), _arr((2,))
    out = arraystack.zeros(3)
    assert arraystack.dot(arraystack.asarray(a), arraystack.asarray(b), out=out) is out
    numpy.testing.assert_allclose(numpy.asarray(out), a @ b, rtol=1e-13)
    for bad in (
        arraystack.zeros(3, dtype=arraystack.float32),
        arraystack.zeros((1, 3)),
        arraystack.zeros((3, 2))[:, 0],
        arraystack.zeros(4),
    ):
        before = numpy.asarray(bad).copy()
        with pytest.raises(ValueError):
            arraystack.dot(arraystack.asarray(a), arraystack.asarray(b), out=bad)
        numpy.testing.assert_array_equal(numpy.asarray(bad), before)


@pytest.mark.parametrize("name", ["matmul", "matvec", "vecmat", "vecdot"])
def test_gufunc_attributes_and_refused_methods_are_numpys(name):
    mine, theirs = getattr(arraystack, name), getattr(numpy, name)
    for attribute in ("nin", "nout", "nargs", "signature", "identity", "ntypes", "types"):
        assert getattr(mine, attribute) == getattr(theirs, attribute)
    calls = {
        "reduce": lambda f: f.reduce(numpy.ones((2, 3))),
        "accumulate": lambda f: f.accumulate(numpy.ones((2, 3))),
        "reduceat": lambda f: f.reduceat(numpy.ones((2, 3)), [0]),
        "outer": lambda f: f.outer(numpy.ones(3), numpy.ones(3)),
        "at": lambda f: f.at(numpy.ones(3), [0], numpy.ones(1)),
    }
    for call in calls.values():
        with pytest.raises(Exception) as expected:
            call(theirs)
        with pytest.raises(type(expected.value), match=str(expected.value)[:30].replace("(", r"\(")):
            call(mine)
