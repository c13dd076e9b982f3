"""Unusual inputs to jitted functions, compared with NumPy in eager mode, through jit's first call (tier
0) and through the compiled tier: empty arrays, size-1 operands broadcast into reductions, misaligned
and big-endian arrays, bad axis= values, and NumPy array subclasses jit refuses (np.ma, np.matrix)."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def modes(fn):
    """(name, callable) for eager arraystack, jit's first call (tier 0) and the compiled tier."""
    return [
        ("eager", lambda *a: fn(*[ast.asarray(x) for x in a])),
        ("tier 0", ast.jit(fn, tiered=True)),
        ("compiled", ast.jit(fn, tiered=False)),
    ]


def _results(out):
    return [numpy.asarray(o) for o in out] if isinstance(out, tuple) else [numpy.asarray(out)]


def check(fn, *args, exact=True):
    """fn on NumPy arrays (NumPy's own functions on them) against fn in every mode."""
    expected = _results(fn(*[numpy.array(a) for a in args]))
    for name, run in modes(fn):
        got = _results(run(*args))
        assert len(got) == len(expected), name
        for g, e in zip(got, expected):
            assert (g.dtype, g.shape) == (e.dtype.newbyteorder("="), e.shape), name
            if exact:
                numpy.testing.assert_array_equal(g, e, err_msg=name)
            else:
                numpy.testing.assert_allclose(g, e, rtol=1e-6, err_msg=name)


# -- empty arrays -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (2, 0, 3), (0,)])
def test_sums_and_products_over_empty_axes(shape):
    x = numpy.zeros(shape)
    for axis in [None, *range(len(shape))]:
        check(
            lambda a, axis=axis: (a.sum(axis=axis), a.prod(axis=axis), (a * 2.0).sum(axis=axis)), x
        )


def test_sum_of_an_empty_array_reproducer():
    check(lambda a: a.sum(), numpy.zeros((3, 0)))


# -- size-1 operands broadcast into reductions ----------------------------------------------------------------


def test_broadcast_to_then_sum_reproducer():
    check(lambda v: ast.broadcast_to(v, (2, 3)).sum(), numpy.ones((1, 1)))


@pytest.mark.parametrize(
    ("shape", "full", "axis"),
    [((1, 1), (2, 3), 0), ((1, 1), (2, 3), 1), ((4, 1), (4, 4), 0), ((4, 1), (4, 4), 1),
     ((1, 4), (4, 4), 0), ((1, 1), (4, 1, 1), 0), ((1,), (3, 4), None), ((3, 1, 1), (3, 5, 6), 0)],
)  # fmt: skip
def test_reductions_of_broadcast_operands(shape, full, axis):
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal(shape).round(2)
    y = rng.standard_normal(full).round(2)
    check(lambda a: ast.broadcast_to(a, full).sum(axis=axis), x, exact=False)
    check(lambda a: ast.broadcast_to(a, full).max(axis=axis), x)
    check(lambda a, b: (a * b - a).max(axis=axis), x, y)
    check(lambda a, b: (a + b).sum(axis=axis), x, y, exact=False)


GRADIENTS = {  # functions of NumPy or arraystack arrays
    "(a[None] - a) ** 2 + a[None] * a": lambda a: ((a[None] - a) ** 2 + a[None] * a).sum(),
    "max((a[None] - a) ** 2 + a)": lambda a: ((a[None] - a) ** 2 + a).max(),
    "(a[None] - a.T) ** 2": lambda a: ((a[None] - a.T) ** 2).sum(),
}


def finite_differences(f, a, h=1e-6):
    grad = numpy.zeros_like(a)
    for k in numpy.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[k] += h
        down[k] -= h
        grad[k] = (f(up) - f(down)) / (2 * h)
    return grad


@pytest.mark.parametrize("shape", [(1, 1), (1, 3), (3, 1)])
@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_of_broadcast_differences(name, shape):
    """Their backward passes sum size-1 operands broadcast into reductions (the compiled tier raised
    numba TypingErrors on some)."""
    a0 = numpy.arange(1.0, 1.0 + numpy.prod(shape)).reshape(shape)
    expected = finite_differences(GRADIENTS[name], a0)
    for mode, run in modes(ast.grad(GRADIENTS[name])):
        numpy.testing.assert_allclose(numpy.asarray(run(a0)), expected, atol=1e-5, err_msg=mode)


# -- memory layouts and byte orders ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_misaligned_inputs(dtype):
    values = numpy.linspace(-3.0, 3.0, 37).astype(dtype)
    misaligned = numpy.frombuffer(b"\0" + values.tobytes(), dtype, offset=1)
    assert not misaligned.flags.aligned

    def f(a):
        return ast.tanh(a) * ast.exp(a * 0.5) + ast.sin(a), ast.max(a), ast.sum(a * a)

    for name, run in modes(f)[1:]:
        for x, y in zip(run(misaligned), run(values)):  # the bits of the aligned array's results
            assert numpy.asarray(x).tobytes() == numpy.asarray(y).tobytes(), name


@pytest.mark.parametrize("dtype", [">f8", ">f4", ">i4", ">c16"])
def test_big_endian_inputs_enter_in_native_order(dtype):
    x = numpy.arange(6).reshape(2, 3).astype(dtype)
    check(lambda a: (a + 1, a.sum(axis=0), a * a), x)
    assert ast.asarray(x).dtype == numpy.dtype(dtype).newbyteorder("=")
    f = ast.jit(lambda a: a * 2)
    for _ in range(3):  # cached calls too (the cache keys by dtype, byte order included)
        numpy.testing.assert_array_equal(f(x), x * 2)


def test_big_endian_constants_captured_by_a_jitted_function():
    be = numpy.arange(4.0).astype(">f8")
    for tiered in (True, False):
        f = ast.jit(lambda a: (a + be, (a * be).sum(), ast.add(be, 1.0)), tiered=tiered)
        for got, want in zip(f(numpy.ones(4)), (1.0 + be, be.sum(), be + 1.0)):
            numpy.testing.assert_array_equal(got, want)


# -- axis= ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("axis", "message"),
    [(1.0, "'float' object cannot be interpreted as an integer"),
     ((0, 1.0), "'float' object cannot be interpreted as an integer"),
     ([1], "'list' object cannot be interpreted as an integer"),
     (True, "an integer is required"),
     ((0, 0), "duplicate value in 'axis'"),
     (2, "axis 2 is out of bounds for array of dimension 2")],
)  # fmt: skip
@pytest.mark.parametrize("name", ["sum", "max", "any", "nansum", "ptp", "count_nonzero"])
def test_bad_axis_raises_numpys_error(name, axis, message):
    x = numpy.ones((2, 2))
    with pytest.raises(Exception) as expected:
        getattr(numpy, name)(x, axis=axis)
    assert message in str(expected.value)
    for mode, run in modes(lambda a: getattr(ast, name)(a, axis=axis)):
        with pytest.raises(type(expected.value), match=message.replace("(", r"\(")):
            run(x)


def test_sum_axis_float_reproducer():
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        ast.jit(lambda a: a.sum(axis=1.0))(numpy.ones((2, 2)))


# -- array subclasses --------------------------------------------------------------------------------------


def test_masked_arrays_are_refused_with_what_to_pass():
    m = numpy.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    for tiered in (True, False):
        with pytest.raises(TypeError, match=r"MaskedArray.*drop the mask.*\.filled\(.*np\.asarray"):
            ast.jit(lambda a: a.sum(), tiered=tiered)(m)
    assert float(ast.jit(lambda a: a.sum())(m.filled(0.0))) == m.sum()


def test_matrices_are_refused_with_what_to_pass():
    m = numpy.matrix([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match=r"numpy\.matrix.*np\.asarray\(m\)"):
        ast.jit(lambda a: a * a)(m)
    numpy.testing.assert_array_equal(ast.jit(lambda a: a @ a)(numpy.asarray(m)), m * m)
