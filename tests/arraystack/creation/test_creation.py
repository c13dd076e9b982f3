"""Array creation against NumPy: array/asarray (copy semantics, nested and traced lists), filled arrays and
*_like, arange/linspace/logspace/geomspace (bit-exact ranges), eye/tri/tril/triu/diag, grids."""

from __future__ import annotations

import numpy
import pytest

from arraystack.errors import HostDtypeError
from arraystack.ir import ShapedArray, TracerError, make_graph

import arraystack
from tests import oracle

pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")

DTYPES = [
    "bool",
    "int8",
    "uint8",
    "int32",
    "int64",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
]


def sample(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True).astype(
            dtype
        )
    values = rng.standard_normal(shape) * 10
    if dtype.kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


def traced_result(fn):
    """fn() evaluated inside a trace (no inputs), returned as a NumPy array."""
    from arraystack.ir import eval_graph

    graph, consts = make_graph(lambda: [arraystack.asarray(fn())._value], [])
    return numpy.asarray(eval_graph(graph, *consts)[0])


# -- asarray / array ------------------------------------------------------------------------------------------

NESTED = [
    [1, 2, 3],
    [[1.5, 2], [3, 4]],
    [True, False],
    [1 + 2j, 3],
    [],
    [[]],
    3,
    2.5,
    True,
    numpy.float32(1.5),
    numpy.int8(-3),
    [numpy.float32(1), numpy.float32(2)],
    [numpy.float32(1), 1.0],
    [numpy.int8(1), 300],
    (1, (2, 3))[1],
]


@pytest.mark.parametrize("obj", NESTED, ids=repr)
@pytest.mark.parametrize("fn", ["asarray", "array", "asanyarray", "ascontiguousarray"])
def test_from_python_data(parity, obj, fn):
    parity(lambda xp: getattr(xp, fn)(obj))


@pytest.mark.parametrize("dtype", [None, "float32", "int16", "bool", "complex128"])
def test_from_list_with_dtype(parity, dtype):
    parity(lambda xp: xp.asarray([[1, 2.5], [-3, 0]], dtype=dtype))
    parity(lambda xp: xp.array([[1, 2.5], [-3, 0]], dtype=dtype, ndmin=4))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3)])
def test_from_arrays(parity, dtype, shape):
    a = sample(shape, dtype)
    parity(lambda xp, x: xp.asarray(x), a)
    parity(lambda xp, x: xp.array(x, ndmin=3), a)
    parity(lambda xp, x: xp.asarray(x, dtype="float64"), a)
    parity(lambda xp, x: xp.ascontiguousarray(x), a)
    parity(lambda xp, x: xp.copy(x), a)
    parity(lambda xp, x: xp.astype(x, "int32"), a)


def test_array_like_objects(parity):
    class HasArray:
        def __array__(self, dtype=None, copy=None):
            return numpy.arange(4.0).reshape(2, 2)

    parity(lambda xp: xp.asarray(HasArray()))
    parity(lambda xp: xp.array([HasArray(), HasArray()]))
    parity(lambda xp: xp.frombuffer(b"\x01\x02\x03\x04", dtype=numpy.uint8, count=2, offset=1))
    parity(lambda xp: xp.frombuffer(numpy.arange(3.0).tobytes()))
    parity(lambda xp: xp.frombuffer(b"\x01\x02\x03", dtype=numpy.int16))


def test_nested_lists_of_arrays(parity):
    a = numpy.arange(3, dtype=numpy.float32)
    b = numpy.ones(3, numpy.float32)
    parity(lambda xp, x, y: xp.asarray([x, y]), a, b)
    parity(lambda xp, x, y: xp.array([[x, y], [y, x]], dtype=numpy.int64), a, b)
    parity(lambda xp, x: xp.asarray([x, [1.0, 2.0, 3.0]]), a)  # float64: list floats are not weak
    parity(lambda xp, x, y: xp.asarray([x[0], y[1], 5]), a, b)
    parity(lambda xp, x, y: xp.asarray([x, y[:2]]), a, b)  # ragged


def test_copy_semantics():
    base = numpy.arange(6.0)
    x = arraystack.asarray(base)
    assert arraystack.asarray(x) is x
    assert numpy.shares_memory(numpy.asarray(x), base)  # asarray of a NumPy array wraps its buffer
    for fn in (
        lambda: arraystack.array(x),
        lambda: arraystack.asarray(x, copy=True),
        lambda: arraystack.copy(x),
        lambda: x.copy(),
        lambda: arraystack.array(base),
    ):
        assert not numpy.shares_memory(numpy.asarray(fn()), base)
    assert numpy.shares_memory(numpy.asarray(arraystack.array(x, copy=False)), base)
    assert numpy.shares_memory(numpy.asarray(arraystack.asarray(x, dtype="float64")), base)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        arraystack.asarray(x, dtype="float32", copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        arraystack.asarray([1, 2], copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        arraystack.asarray(x.T[::2], order="C", copy=False)
    f = arraystack.asarray(numpy.ones((3, 4)), order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    assert arraystack.copy(f, order="C").flags.c_contiguous
    assert f.copy().flags.c_contiguous  # ndarray.copy defaults to order="C"
    assert arraystack.copy(f).flags.f_contiguous  # numpy.copy keeps the layout (order="K")


@pytest.mark.parametrize(
    "obj, dtype",
    [([1.0], "longdouble"), ([1j], "clongdouble"), (numpy.ones(2, numpy.longdouble), None)],
)
def test_unsupported_dtypes(obj, dtype):
    with pytest.raises(TypeError, match="does not support dtype"):
        arraystack.asarray(obj, dtype=dtype)
    with pytest.raises(TypeError, match="does not support dtype"):
        arraystack.array(obj, dtype=dtype)


def test_zero_d_traced_list_stacks():
    def body(t):
        x = arraystack._core.array.wrap(t)
        out = arraystack.asarray([[x, 1.0], [2.0, x]])
        return [out._value]

    graph, _ = make_graph(body, [ShapedArray((), numpy.dtype(numpy.float32))])
    assert graph.out_avals[0] == ShapedArray((2, 2), numpy.dtype(numpy.float64))


# -- filled arrays --------------------------------------------------------------------------------------------

SHAPES = [(), 0, 3, (2, 3), (0, 4), [2, 1, 3], numpy.int64(2), (numpy.int32(2), 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=repr)
@pytest.mark.parametrize(
    "dtype", [None, "bool", "int8", "uint32", "float16", "float32", "complex128"]
)
def test_zeros_ones_full(parity, shape, dtype):
    parity(lambda xp: xp.zeros(shape, dtype))
    parity(lambda xp: xp.ones(shape, dtype=dtype))
    parity(lambda xp: xp.full(shape, 7, dtype))
    parity(lambda xp: xp.empty(shape, dtype).shape, traced=False)
    parity(lambda xp: xp.empty(shape, dtype).dtype, traced=False)


@pytest.mark.parametrize(
    "fill", [0, -1, 2.5, True, 1j, numpy.nan, -0.0, numpy.float32(1.5), numpy.uint8(200), 2**62]
)
def test_full_fill_values(parity, fill):
    parity(lambda xp: xp.full((2, 2), fill))
    parity(lambda xp: xp.full((2, 2), fill, dtype="float32"))
    parity(lambda xp: xp.full((3,), fill, dtype="int16"))


def test_full_array_fill(parity):
    parity(lambda xp, v: xp.full((2, 3), v), numpy.array([1.5, 2, 3]))
    parity(lambda xp, v: xp.full((2, 3), v, dtype=numpy.int8), numpy.array([1.5, 2, 3]))
    parity(lambda xp, v: xp.full((4,), v), numpy.array(2.5, numpy.float32))
    parity(lambda xp, v: xp.full((2, 3), v), numpy.array([1, 2]))
    parity(lambda xp: xp.full((2, 3), [1, 2, 3]))


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.zeros(-1),
        lambda xp: xp.ones((2, -3)),
        lambda xp: xp.zeros(2.0),
        lambda xp: xp.zeros((2, "a")),
        lambda xp: xp.full(2, 300, dtype=numpy.uint8),
        lambda xp: xp.full(2, -1, dtype=numpy.uint8),
        lambda xp: xp.full_like(xp.arange(3, dtype=numpy.uint8), 300),
        lambda xp: xp.zeros(3, order="X"),
        lambda xp: xp.zeros(3, device="gpu"),
    ],
)
def test_filled_errors(parity, call):
    parity(call)


def test_filled_layouts():
    for fn in (arraystack.zeros, arraystack.ones, arraystack.empty):
        f = fn((3, 4), order="F")
        assert f.flags.f_contiguous and not f.flags.c_contiguous
    e = arraystack.eye(3, 4, order="F")
    assert e.flags.f_contiguous
    numpy.testing.assert_array_equal(e, numpy.eye(3, 4))
    src = arraystack.asarray(numpy.ones((3, 4), order="F"))
    assert arraystack.zeros_like(src).flags.f_contiguous
    assert arraystack.ones_like(src, order="C").flags.c_contiguous


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["c", "T", "neg"])
def test_like(parity, dtype, layout):
    a = sample((2, 3), dtype)
    view = {"c": lambda x: x, "T": lambda x: x.T, "neg": lambda x: x[::-1]}[layout]
    parity(lambda xp, x: xp.zeros_like(view(x)), a)
    parity(lambda xp, x: xp.ones_like(view(x), dtype="float32"), a)
    parity(lambda xp, x: xp.full_like(view(x), 2.7), a)
    parity(lambda xp, x: xp.full_like(view(x), 1, shape=(4, 1)), a)
    parity(lambda xp, x: xp.empty_like(view(x)).shape, a, traced=False)
    parity(lambda xp: xp.zeros_like([[1, 2]], dtype=dtype))


# -- arange ---------------------------------------------------------------------------------------------------

ARANGE_CASES = [
    ((10,), {}),
    ((0,), {}),
    ((-3,), {}),
    ((2, 11, 3), {}),
    ((10, 0, -3), {}),
    ((5, 5), {}),
    ((5, 1), {}),
    ((0.0, 1.0, 0.1), {}),
    ((1.0, 0.0, -0.1), {}),
    ((0.1, 1.3, 0.3), {}),
    ((0.1, 1.3, 0.3), {"dtype": "float32"}),
    ((0.1, 10, 0.7), {"dtype": "float16"}),
    ((-2.5, 7.25), {}),
    ((1e-300, 2e-300, 1e-301), {}),
    ((0, 10, numpy.inf), {}),
    ((0, -10, numpy.inf), {}),
    ((0.5, 5), {"dtype": int}),
    ((0, 300, 100), {"dtype": "int8"}),
    ((250, 260), {"dtype": "uint8"}),
    ((5,), {"dtype": "uint64"}),
    ((2**40, 2**40 + 5), {}),
    ((0, 2), {"dtype": bool}),
    ((1,), {"dtype": bool}),
    ((numpy.float32(5),), {}),
    ((numpy.float32(0), numpy.float32(1), numpy.float32(0.1)), {}),
    ((numpy.int8(5),), {}),
    ((numpy.uint64(5),), {}),
    ((True,), {}),
    ((numpy.float16(3),), {}),
    ((1 + 1j, 5 + 3j), {}),
    ((0, 5, 1j), {}),
    ((0, 4), {"dtype": "complex64"}),
    ((-0.0, 3), {}),
    ((0.0, -3, -1), {}),
    ((3,), {"dtype": "float32"}),
    # errors
    ((0, 5, 0), {}),
    ((0, 0, 0), {}),
    ((0.0, 5.0, 0.0), {}),
    ((0, numpy.inf), {}),
    ((0, numpy.nan), {}),
    ((numpy.nan, 1, -1), {}),
    ((0, 3), {"dtype": bool}),
    ((-1, 3), {"dtype": "uint8"}),
    ((1e20,), {"dtype": int}),
    ((), {}),
    ((0, (1, 2)), {}),
    ((3,), {"dtype": object}),
]


@pytest.mark.parametrize("args, kwargs", ARANGE_CASES, ids=repr)
def test_arange(args, kwargs):
    with numpy.errstate(all="ignore"):
        try:
            expected = numpy.arange(*args, **kwargs)
        except Exception as e:  # noqa: BLE001  (NumPy's exception type is the expectation)
            with pytest.raises(type(e)):
                arraystack.arange(*args, **kwargs)
            return
        oracle.assert_same_bits(expected, arraystack.arange(*args, **kwargs))
        if expected.dtype == object:  # a host dtype: eager only
            with pytest.raises(HostDtypeError, match="arange would make an object array"):
                traced_result(lambda: arraystack.arange(*args, **kwargs))
            return
        oracle.assert_same_bits(expected, traced_result(lambda: arraystack.arange(*args, **kwargs)))


def test_arange_keywords(parity):
    parity(lambda xp: xp.arange(stop=5))
    parity(lambda xp: xp.arange(1, stop=5))
    parity(lambda xp: xp.arange(5, step=2))
    parity(lambda xp: xp.arange(2, 20, 3, numpy.float32))
    parity(lambda xp: xp.arange(xp.asarray(2), xp.asarray(9.5)))


@pytest.mark.parametrize("n", [3, 100, 1001, 5000])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_arange_float_bits(n, dtype):
    for start, step in [(0.1, 0.3), (-7.3, 0.013), (1e5, -3.7), (3, 0.5)]:
        expected = numpy.arange(start, start + n * step, step, dtype=dtype)
        got = arraystack.arange(start, start + n * step, step, dtype=dtype)
        oracle.assert_same_bits(expected, got)


def test_arange_traced_argument_raises():
    def body(t):
        return [arraystack.arange(arraystack._core.array.wrap(t))._value]

    with pytest.raises(TracerError):
        make_graph(body, [ShapedArray((), numpy.dtype(numpy.int64))])


# -- linspace, logspace, geomspace ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((0, 1), {}),
        ((0, 1, 5), {"endpoint": False}),
        ((-3.5, 2, 7), {"retstep": True}),
        ((0, 10, 0), {"retstep": True}),
        ((0, 10, 1), {"retstep": True}),
        ((0, 10, 1), {"endpoint": False, "retstep": True}),
        ((1, 0, 4), {"dtype": int}),
        ((0, 10, 7), {"dtype": "int8"}),
        ((numpy.float32(0), 1, 3), {}),
        ((numpy.float16(0), 1, 9), {}),
        ((numpy.int8(0), numpy.int8(10), 3), {}),
        ((1j, 2 + 3j, 4), {}),
        ((0, 5e-324, 3), {}),
        ((2, 3, 4), {"dtype": "float32"}),
        ((0, 10, -1), {}),
        ((0, 10, 2.0), {}),
    ],
    ids=repr,
)
def test_linspace_scalars(parity, args, kwargs):
    # a NaN step is a Python float in NumPy; traced outputs are arrays
    nan_step = kwargs.get("retstep") and (args[2] - kwargs.get("endpoint", True)) <= 0
    parity(lambda xp: xp.linspace(*args, **kwargs), traced=not nan_step)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_linspace_arrays(parity, dtype, axis):
    start = sample((3,), dtype)
    stop = sample((2, 3), dtype, seed=1)
    parity(lambda xp, a, b: xp.linspace(a, b, 5, axis=axis), start, stop)
    parity(lambda xp, a, b: xp.linspace(a, b, 4, endpoint=False, retstep=True), start, stop)
    parity(lambda xp, a: xp.linspace(a, 1, 3, axis=axis), start)
    parity(lambda xp, a, b: xp.linspace(a, b, 1, axis=axis), start, stop)
    parity(lambda xp, a, b: xp.linspace(a, b, 6, dtype=int, axis=axis), start, stop)


def test_linspace_of_lists(parity):
    parity(lambda xp: xp.linspace([0, 1], [1, 2], 3, axis=1), traced=False)
    parity(lambda xp: xp.linspace((0.5,), 2, 4), traced=False)
    parity(lambda xp: xp.logspace([0, 1], [1, 2], 2), traced=False)


def test_linspace_denormal_delta(parity):
    parity(lambda xp, a: xp.linspace(a, a + 5e-323, 4), numpy.array([0.0, 1e-310]))
    parity(lambda xp, a: xp.linspace(0, a, 3), numpy.array(5e-324))


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((0, 2, 3), {}),
        ((0, 2, 4), {"base": 2, "endpoint": False}),
        ((0, 2, 3), {"base": [2, 3], "axis": 1}),
        ((0, 2, 3), {"base": [2, 3], "axis": 0}),
        ((1, 3, 5), {"dtype": int}),
        ((numpy.float32(0), 1, 4), {}),
    ],
    ids=repr,
)
def test_logspace(parity, args, kwargs):
    parity(lambda xp: xp.logspace(*args, **kwargs))


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((1, 1000, 4), {}),
        ((-1, -1000, 4), {}),
        ((1, 256, 9), {"endpoint": False}),
        ((1j, 1000j, 4), {}),
        ((1 + 1j, 8 + 8j, 5), {}),
        ((2, 2e6, 7), {"dtype": int}),
        ((1, 1000, 1), {}),
        ((1, 1000, 0), {}),
        ((0, 1000, 4), {}),
        ((1, 10, 3), {"dtype": "float32"}),
    ],
    ids=repr,
)
def test_geomspace(parity, args, kwargs):
    parity(lambda xp: xp.geomspace(*args, **kwargs))


def test_geomspace_arrays(parity):
    parity(
        lambda xp, a, b: xp.geomspace(a, b, 4, axis=1), numpy.array([1.0, -2.0]), numpy.array(64.0)
    )


# -- matrices -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n, m", [(0, None), (1, None), (3, None), (3, 5), (4, 2), (3, 0)])
@pytest.mark.parametrize("k", [0, 1, -2, 7, -9])
def test_eye_tri(parity, n, m, k):
    parity(lambda xp: xp.eye(n, m, k))
    parity(lambda xp: xp.eye(n, m, k, dtype=numpy.int8))
    parity(lambda xp: xp.eye(n, m, k=k, dtype=bool))
    parity(lambda xp: xp.tri(n, m, k))
    parity(lambda xp: xp.tri(n, m, k, dtype=numpy.complex64))


def test_identity_and_errors(parity):
    parity(lambda xp: xp.identity(3))
    parity(lambda xp: xp.identity(2, dtype=int))
    parity(lambda xp: xp.eye(-1))
    parity(lambda xp: xp.eye(2, 2.5))
    parity(lambda xp: xp.tri(-1, 2))
    parity(lambda xp: xp.tri(3, -2))
    parity(lambda xp: xp.eye(3, k=2**70 // 2**10))


@pytest.mark.parametrize("shape", [(3, 3), (2, 5), (5, 2), (2, 3, 4), (4,), (0, 3)])
@pytest.mark.parametrize("k", [0, 1, -1, 10])
@pytest.mark.parametrize("dtype", ["bool", "int32", "float32", "complex128"])
def test_tril_triu(parity, shape, k, dtype):
    a = sample(shape, dtype)
    parity(lambda xp, x: xp.tril(x, k), a)
    parity(lambda xp, x: xp.triu(x, k=k), a)


def test_tril_0d(parity):
    parity(lambda xp, x: xp.tril(x), numpy.array(3.0))


@pytest.mark.parametrize("shape", [(0,), (1,), (4,), (3, 3), (2, 5), (5, 2), (0, 3), (2, 2, 2), ()])
@pytest.mark.parametrize("k", [0, 2, -1, -6])
def test_diag(parity, shape, k):
    a = sample(shape, "float64")
    parity(lambda xp, x: xp.diag(x, k), a)
    parity(lambda xp, x: xp.diagflat(x, k), a)
    if len(shape) == 2:
        parity(lambda xp, x: xp.diag(x.T, k), a)


def test_diag_dtypes(parity):
    for dtype in DTYPES:
        parity(lambda xp, x: xp.diag(x), sample((3,), dtype))
        parity(lambda xp, x: xp.diag(x, 1), sample((3, 3), dtype))


# -- grids ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [True, False])
def test_meshgrid(parity, indexing, sparse, copy):
    x, y, z = numpy.arange(3.0), numpy.arange(4, dtype=numpy.int8), numpy.array([1.5, 2.5])
    kw = {"indexing": indexing, "sparse": sparse, "copy": copy}
    parity(lambda xp, a, b, c: xp.meshgrid(a, b, c, **kw), x, y, z)
    parity(lambda xp, a, b: xp.meshgrid(a, b, **kw), x, y)
    parity(lambda xp, a: xp.meshgrid(a, **kw), x)
    parity(lambda xp: xp.meshgrid(**kw))
    parity(lambda xp, a: xp.meshgrid(a, [[1, 2], [3, 4]], **kw), x)


def test_meshgrid_errors(parity):
    parity(lambda xp: xp.meshgrid([1, 2], [3, 4], indexing="x"))


@pytest.mark.parametrize("dims", [(), (3,), (2, 3), (2, 0, 4), (1, 2, 3)])
@pytest.mark.parametrize("dtype", [int, "int8", "float32"])
def test_indices(parity, dims, dtype):
    parity(lambda xp: xp.indices(dims, dtype=dtype))
    parity(lambda xp: xp.indices(dims, dtype=dtype, sparse=True))


def test_indices_errors(parity):
    parity(lambda xp: xp.indices((3,), dtype=bool))
    parity(lambda xp: xp.indices((-1, 2)))


def test_fromfunction(parity):
    parity(lambda xp: xp.fromfunction(lambda i, j: i * 10 + j, (3, 4)))
    parity(lambda xp: xp.fromfunction(lambda i, j, k=1: i - j * k, (2, 2), dtype=int, k=3))


# -- copy / astype --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src", ["bool", "int8", "uint16", "int64", "float16", "float64", "complex64"]
)
@pytest.mark.parametrize("dst", ["bool", "int8", "uint32", "float32", "complex128"])
def test_astype(parity, src, dst):
    a = sample((2, 3), src)
    parity(lambda xp, x: x.T.astype(dst), a)
    parity(lambda xp, x: x.astype(dst, casting="same_kind"), a)
    parity(lambda xp, x: xp.astype(x, dst, copy=False), a)


def test_astype_special_values(parity):
    a = numpy.array([numpy.nan, numpy.inf, -0.0, 1e10, -3.7])
    with numpy.errstate(invalid="ignore"):
        parity(lambda xp, x: x.astype(numpy.float16), a)
        parity(lambda xp, x: x.astype(bool), a)
    parity(lambda xp, x: x.astype("int8", copy=False), numpy.arange(3, dtype=numpy.int8))
    x = arraystack.arange(3)
    assert x.astype("int64", copy=False) is x
    assert not numpy.shares_memory(numpy.asarray(x.astype("int64")), numpy.asarray(x))


# -- error messages are NumPy's, word for word ----------------------------------------------------------------

MESSAGES = [
    lambda xp: xp.zeros(-1),
    lambda xp: xp.full((2, 3), [1, 2]),
    lambda xp: xp.full(2, 300, dtype=numpy.uint8),
    lambda xp: xp.zeros(3, order="X"),
    lambda xp: xp.arange(0, 5, 0),
    lambda xp: xp.arange(0.0, 5.0, 0.0),
    lambda xp: xp.arange(0, numpy.inf),
    lambda xp: xp.arange(0, numpy.nan),
    lambda xp: xp.arange(0, 3, dtype=bool),
    lambda xp: xp.arange(-1, 3, dtype=numpy.uint8),
    lambda xp: xp.arange(),
    lambda xp: xp.arange(0, (1, 2)),
    lambda xp: xp.linspace(0, 1, -1),
    lambda xp: xp.geomspace(0, 1),
    lambda xp: xp.eye(-1),
    lambda xp: xp.diag(xp.ones((2, 2, 2))),
    lambda xp: xp.meshgrid([1], indexing="x"),
    lambda xp: xp.indices((3,), dtype=bool),
    lambda xp: xp.asarray([1, 2], copy=False),
    lambda xp: xp.array([1, 2], copy=False),
    lambda xp: xp.asarray([[1], [1, 2]], dtype=float),
]


@pytest.mark.parametrize("call", MESSAGES)
def test_error_messages(call):
    with pytest.raises(Exception) as expected:
        call(numpy)
    with pytest.raises(type(expected.value)) as actual:
        call(arraystack)
    assert str(actual.value) == str(expected.value)
