"""arraystack against array-api-strict (the Array API's executable reference, at version 2024.12):
elementwise functions and operators, reductions, manipulation, creation and dtype functions, each on
shapes, dtypes and values (specials included) drawn by hypothesis; see array_api_oracle.strict_parity.
"""

from __future__ import annotations

import operator

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.arraystack.array_api_oracle import DTYPES, strict_parity, strict_version
from tests.conftest import check_parity

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(autouse=True, scope="module")
def _strict_2024_12():
    with strict_version("2024.12"):
        yield


dtypes = st.sampled_from(DTYPES)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)


def arrays(dtype, shape=shapes):
    return hnp.arrays(numpy.dtype(dtype), shape)


@st.composite
def array_pairs(draw, same_dtype=False):
    """Two arrays of mutually broadcastable shapes."""
    d1 = draw(dtypes)
    d2 = d1 if same_dtype else draw(dtypes)
    s1, s2 = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3)
    ).input_shapes
    return draw(arrays(d1, s1)), draw(arrays(d2, s2))


scalars = st.sampled_from([True, False, 0, 1, -2, 3, 0.0, -0.0, 0.5, -1.5, 2.0, 1e300])
scalars |= st.sampled_from([float("inf"), float("-inf"), float("nan"), 1j, -0.5 + 2j])

# fmt: off
UNARY = [
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert", "ceil", "conj",
    "cos", "cosh", "exp", "expm1", "floor", "imag", "isfinite", "isinf", "isnan", "log", "log1p",
    "log2", "log10", "logical_not", "negative", "positive", "real", "reciprocal", "round", "sign",
    "signbit", "sin", "sinh", "square", "sqrt", "tan", "tanh", "trunc",
]
BINARY = [
    "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift",
    "bitwise_xor", "copysign", "divide", "equal", "floor_divide", "greater", "greater_equal",
    "hypot", "less", "less_equal", "logaddexp", "logical_and", "logical_or", "logical_xor",
    "maximum", "minimum", "multiply", "nextafter", "not_equal", "pow", "remainder", "subtract",
]
OPERATORS = [
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor", "lshift",
    "rshift", "lt", "le", "gt", "ge", "eq", "ne",
]
# fmt: on


@pytest.mark.parametrize("name", UNARY)
@SETTINGS
@given(data=st.data())
def test_unary(name, data):
    x = data.draw(dtypes.flatmap(arrays))
    # Note: complex sign is NumPy's (sign(infj) = 1j, sign(1e-42j) = 1j); array-api-strict divides
    # z/|z| naively: nan+nanj for infinities, nan+infj for subnormal |z| in complex64.
    compare = check_parity if name == "sign" and x.dtype.kind == "c" else strict_parity
    with numpy.errstate(all="ignore"):
        compare(lambda xp, x: getattr(xp, name)(x), x, traced=True)


@pytest.mark.parametrize("name", BINARY)
@SETTINGS
@given(pair=array_pairs())
def test_binary(name, pair):
    with numpy.errstate(all="ignore"):
        strict_parity(lambda xp, a, b: getattr(xp, name)(a, b), *pair, traced=True)


@pytest.mark.parametrize("name", BINARY)
@SETTINGS
@given(data=st.data())
def test_binary_with_python_scalars(name, data):
    x = data.draw(dtypes.flatmap(arrays))
    s = data.draw(scalars)
    with numpy.errstate(all="ignore"):
        strict_parity(lambda xp, x: getattr(xp, name)(x, s), x, traced=True)
        strict_parity(lambda xp, x: getattr(xp, name)(s, x), x)


@pytest.mark.parametrize("name", OPERATORS)
@SETTINGS
@given(pair=array_pairs(), s=scalars)
def test_operators(name, pair, s):
    op = getattr(operator, name)
    a, b = pair
    with numpy.errstate(all="ignore"):
        strict_parity(lambda xp, a, b: op(a, b), a, b)
        # Note: NumPy's `x ** s` takes a fast path for s in (-1, 0, 0.5, 1, 2) (sqrt for 0.5,
        # so (inf*1j) ** 0.5 is inf+infj, as exp(0.5*log(z)) gives); array-api-strict calls
        # numpy.power (inf+nanj). The standard leaves complex special cases unspecified.
        (check_parity if name == "pow" else strict_parity)(lambda xp, a: op(a, s), a)
        strict_parity(lambda xp, a: op(s, a), a)


@pytest.mark.parametrize(
    "name", ["iadd", "isub", "imul", "itruediv", "ifloordiv", "iand", "ilshift"]
)
@SETTINGS
@given(pair=array_pairs(same_dtype=True))
def test_inplace_operators(name, pair):
    a, b = pair
    if numpy.broadcast_shapes(a.shape, b.shape) != a.shape:
        return
    with numpy.errstate(all="ignore"):
        strict_parity(lambda xp, a, b: getattr(operator, name)(a, b), a, b)


def _axis(draw, ndim, tuples=True):
    if ndim == 0:
        return None
    single = st.integers(-ndim, ndim - 1)
    many = st.lists(st.integers(0, ndim - 1), unique=True).map(tuple)
    return draw(st.none() | single | (many if tuples else single))


REDUCTIONS = ["sum", "prod", "mean", "std", "var", "max", "min", "any", "all", "count_nonzero"]


@pytest.mark.parametrize("name", REDUCTIONS)
@SETTINGS
@given(data=st.data())
def test_reductions(name, data):
    x = data.draw(dtypes.flatmap(arrays))
    kwargs = {"axis": _axis(data.draw, x.ndim), "keepdims": data.draw(st.booleans())}
    if name in ("std", "var"):
        kwargs["correction"] = data.draw(st.sampled_from([0, 1, 0.5]))
    if name in ("sum", "prod") and data.draw(st.booleans()):
        kwargs["dtype"] = data.draw(
            st.sampled_from([None, "int64", "uint64", "float64", "complex128"])
        )
    dtype_name = kwargs.get("dtype")

    def call(xp, x):
        kw = dict(kwargs, dtype=getattr(xp, dtype_name)) if dtype_name else kwargs
        return getattr(xp, name)(x, **kw)

    with numpy.errstate(all="ignore"):
        strict_parity(call, x, traced=True)


@pytest.mark.parametrize("name", ["argmax", "argmin", "cumulative_sum", "cumulative_prod"])
@SETTINGS
@given(data=st.data())
def test_axis_functions(name, data):
    x = data.draw(dtypes.flatmap(arrays))
    kwargs = {"axis": _axis(data.draw, x.ndim, tuples=False)}
    if name.startswith("arg"):
        kwargs["keepdims"] = data.draw(st.booleans())
    else:
        kwargs["include_initial"] = data.draw(st.booleans())
    dtype_name = data.draw(st.sampled_from([None, "int64", "float64"])) if "_" in name else None

    def call(xp, x):
        dtype = {"dtype": getattr(xp, dtype_name)} if dtype_name else {}
        return getattr(xp, name)(x, **kwargs, **dtype)

    # cumulative_* with include_initial: NumPy keeps the sign of -0.0 after the initial 0 (0 then -0.0);
    # array-api-strict adds them (0, 0). These are NumPy's names too, so they keep NumPy's result.
    compare = check_parity if name.startswith("cumulative") else strict_parity
    with numpy.errstate(all="ignore"):
        compare(call, x, traced=True)


@SETTINGS
@given(data=st.data())
def test_manipulation(data):
    x = data.draw(dtypes.flatmap(lambda d: arrays(d, hnp.array_shapes(min_dims=1, max_dims=3))))
    nd = x.ndim
    axis, new_axis = data.draw(st.integers(-nd, nd - 1)), data.draw(st.integers(-nd - 1, nd))
    maybe_axis = data.draw(st.none() | st.just(axis))
    perm = tuple(data.draw(st.permutations(range(nd))))
    shift, n, reps = (
        data.draw(st.integers(-5, 5)),
        data.draw(st.integers(0, 2)),
        data.draw(st.integers(0, 3)),
    )
    copy = data.draw(st.sampled_from([None, True]))
    strict_parity(lambda xp, x: xp.permute_dims(x, perm), x)
    strict_parity(lambda xp, x: xp.concat([x, x], axis=axis), x)
    strict_parity(lambda xp, x: xp.concat([x, x[..., :1]], axis=None), x)
    strict_parity(lambda xp, x: xp.stack([x, x], axis=new_axis), x)
    strict_parity(lambda xp, x: xp.unstack(x, axis=axis), x)
    strict_parity(lambda xp, x: xp.expand_dims(x, axis=new_axis), x)
    strict_parity(lambda xp, x: xp.squeeze(x, axis=axis), x)
    strict_parity(lambda xp, x: xp.roll(x, shift, axis=maybe_axis), x)
    strict_parity(lambda xp, x: xp.flip(x, axis=maybe_axis), x)
    strict_parity(lambda xp, x: xp.moveaxis(x, axis, perm[0]), x)
    strict_parity(lambda xp, x: xp.repeat(x, 2, axis=axis), x)
    strict_parity(lambda xp, x: xp.tile(x, (2,) * reps), x)
    strict_parity(lambda xp, x: xp.reshape(x, (-1,), copy=copy), x)
    strict_parity(lambda xp, x: xp.broadcast_to(x, (2, *x.shape)), x)
    strict_parity(lambda xp, x: xp.broadcast_arrays(x, x[..., :1]), x)
    strict_parity(lambda xp, x: xp.diff(x, axis=axis, n=n), x)
    strict_parity(lambda xp, x: xp.nonzero(x), x)
    strict_parity(lambda xp, x: xp.flip(xp.astype(x, xp.int16, copy=False)), x)
    if nd >= 2:
        strict_parity(lambda xp, x: xp.matrix_transpose(x), x)
        strict_parity(lambda xp, x: xp.tril(x, k=shift), x)
        strict_parity(lambda xp, x: xp.triu(x, k=shift), x)


@SETTINGS
@given(x=dtypes.flatmap(arrays), to=dtypes, copy=st.booleans())
def test_astype(x, to, copy):
    with numpy.errstate(all="ignore"):
        strict_parity(lambda xp, x: xp.astype(x, getattr(xp, to), copy=copy, device=x.device), x)


@SETTINGS
@given(pair=array_pairs(), c=hnp.arrays(numpy.bool_, st.sampled_from([(), (1,), (3,)])))
def test_where(pair, c):
    a, b = pair
    strict_parity(lambda xp, c, a, b: xp.where(c, a, b), c, a, b)
    strict_parity(lambda xp, c, a: xp.where(c, a, 0), c, a)
    strict_parity(lambda xp, c, b: xp.where(c, 1.5, b), c, b)


@SETTINGS
@given(pair=array_pairs(same_dtype=True), lo=st.integers(-3, 3), hi=st.integers(-3, 3))
def test_clip(pair, lo, hi):
    x, bound = pair
    # Python-int bounds outside x's range are unspecified (array-api-strict wraps them around);
    # arraystack raises NumPy's OverflowError.
    compare = check_parity if x.dtype.kind == "u" and min(lo, hi) < 0 else strict_parity
    compare(lambda xp, x: xp.clip(x, min=lo, max=hi), x)
    compare(lambda xp, x: xp.clip(x, max=hi), x)
    # clip(0.0, min=-0.0) is -0.0 in NumPy and 0.0 in array-api-strict; the standard leaves the sign of
    # equal zeros open, so NumPy is the oracle here.
    check_parity(lambda xp, x, b: xp.clip(x, min=b), x, bound)
    strict_parity(lambda xp, x: xp.clip(x), x)


@SETTINGS
@given(pair=array_pairs(same_dtype=True))
def test_matmul(pair):
    a, b = pair
    a, b = a.reshape(a.shape + (1,) * (a.ndim < 2)), b.reshape((1,) * (b.ndim < 2) + b.shape)
    with numpy.errstate(all="ignore"):
        strict_parity(lambda xp, a, b: xp.matmul(a, b), a, b)
        strict_parity(lambda xp, a: a @ xp.matrix_transpose(a), a)


@SETTINGS
@given(
    shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=3),
    dtype=st.none() | dtypes,
    fill=scalars,
)
def test_creation(shape, dtype, fill):
    def dt(xp):
        return None if dtype is None else getattr(xp, dtype)

    x = numpy.zeros(shape, dtype=dtype or "float64")
    strict_parity(lambda xp: xp.zeros(shape, dtype=dt(xp)))
    strict_parity(lambda xp: xp.ones(shape, dtype=dt(xp)))
    strict_parity(lambda xp: xp.empty(shape, dtype=dt(xp)).shape)
    strict_parity(lambda xp: xp.full(shape, fill, dtype=dt(xp)))
    strict_parity(lambda xp, x: xp.full_like(x, fill, dtype=dt(xp), device=x.device), x)
    strict_parity(lambda xp, x: xp.zeros_like(x, device=x.device), x)
    strict_parity(lambda xp, x: xp.ones_like(x, dtype=dt(xp)), x)
    strict_parity(lambda xp, x: xp.empty_like(x, device=x.device).dtype, x)
    strict_parity(lambda xp, x: xp.asarray(x, dtype=dt(xp), copy=True), x)
    strict_parity(lambda xp: xp.asarray(fill, dtype=dt(xp)))
    strict_parity(lambda xp: xp.asarray([[fill, fill]]))


@SETTINGS
@given(
    ints=st.lists(st.integers(-5, 5), min_size=1, max_size=3),
    n=st.integers(0, 4),
    k=st.integers(-3, 3),
    endpoint=st.booleans(),
    dtype=st.sampled_from([None, "int32", "float32", "float64", "complex128"]),
)
def test_ranges(ints, n, k, endpoint, dtype):
    def dt(xp):
        return None if dtype is None else getattr(xp, dtype)

    strict_parity(lambda xp: xp.arange(*ints, dtype=dt(xp)))
    strict_parity(lambda xp: xp.arange(*[i / 2 for i in ints]))
    strict_parity(lambda xp: xp.linspace(ints[0], k, n, endpoint=endpoint, dtype=dt(xp)))
    strict_parity(lambda xp: xp.linspace(0, 1j * k, n, endpoint=endpoint))
    strict_parity(lambda xp: xp.eye(n, k=k, dtype=dt(xp)))
    strict_parity(lambda xp: xp.eye(n, n + 1, k=k))
    grids = [numpy.arange(i % 4) for i in ints]
    for indexing in ("xy", "ij"):
        strict_parity(lambda xp, *g, i=indexing: xp.meshgrid(*g, indexing=i), *grids)


@SETTINGS
@given(a=dtypes, b=dtypes, s=scalars)
def test_dtype_functions(a, b, s):
    strict_parity(lambda xp: xp.result_type(getattr(xp, a), getattr(xp, b)))
    strict_parity(lambda xp: xp.result_type(getattr(xp, a), s))
    strict_parity(lambda xp, x: xp.result_type(x, getattr(xp, b), s), numpy.zeros(2, a))
    if numpy.dtype(a).kind == numpy.dtype(b).kind:  # across kinds: see test_array_api.py
        strict_parity(lambda xp: xp.can_cast(getattr(xp, a), getattr(xp, b)))
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating"]
    kinds += ["complex floating", "numeric", ("bool", "complex floating"), b]
    for kind in kinds:
        strict_parity(
            lambda xp, k=kind: xp.isdtype(getattr(xp, a), k if k != b else getattr(xp, b))
        )


# -- exhaustive: the promotion table and the special cases of the elementwise functions ----------------
SPECIALS = [
    numpy.nan,
    numpy.inf,
    -numpy.inf,
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    3.0,
    -3.0,
    1e-310,
]


def test_promotion_table():
    for a in DTYPES:
        for b in DTYPES:
            strict_parity(
                lambda xp, x, y: xp.result_type(x.dtype, y.dtype),
                numpy.ones(1, a),
                numpy.ones(1, b),
            )
            strict_parity(lambda xp, x, y: x + y, numpy.ones(1, a), numpy.ones(1, b))
        for s in (True, 2, 2.5, 1j):
            strict_parity(lambda xp, x, s=s: x * s, numpy.ones(1, a))
            strict_parity(lambda xp, x, s=s: xp.result_type(x, s), numpy.ones(1, a))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_unary_special_cases(dtype):
    values = numpy.array(SPECIALS, dtype=dtype)
    if values.dtype.kind == "c":
        values = (values[:, None] + 1j * numpy.array(SPECIALS)).astype(dtype).ravel()
    with numpy.errstate(all="ignore"):
        for name in UNARY:
            if name == "sign" and values.dtype.kind == "c":  # see test_unary
                continue
            strict_parity(lambda xp, x, f=name: getattr(xp, f)(x), values)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_binary_special_cases(dtype):
    grid = numpy.array(SPECIALS, dtype=dtype)
    x, y = numpy.repeat(grid, grid.size), numpy.tile(grid, grid.size)
    with numpy.errstate(all="ignore"):
        for name in BINARY:
            strict_parity(lambda xp, a, b, f=name: getattr(xp, f)(a, b), x, y)
            strict_parity(lambda xp, a, f=name: getattr(xp, f)(a, -0.0), x)
