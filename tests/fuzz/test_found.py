"""What the fuzzer found, shrunk to minimal reproducers. A test marked xfail(strict=True) stands for
a known failure class (known.py names each class; the docstring here names it back): the fix that
makes it pass turns the mark into a failure, and then the mark and the class in known.py go
together. Unmarked tests reproduce classes fixed since they were found."""

from __future__ import annotations

import numpy
import pytest

import arraystack as np
from tests.fuzz.derivatives import assert_derivatives
from tests.fuzz.tiers import check_program

pytestmark = pytest.mark.filterwarnings("ignore")


def test_a_write_into_an_argument_reaches_the_caller():
    """Found by the fuzzer, fixed: writes into arguments reach the caller."""

    def f(a):
        a -= 1.0
        return a.sum()

    check_program(f, lambda: [numpy.arange(4.0)])


def test_a_write_into_a_read_only_argument_raises():
    """Found by the fuzzer, fixed: a write into a read-only argument raises."""

    def f(a):
        a[0] = 2.0
        return a

    check_program(f, lambda: [numpy.broadcast_to(numpy.ones(2), (3, 2))])


def test_reshape_of_a_fortran_ordered_argument_under_jit():
    """Found by the fuzzer, fixed: y = a + 1 of a transposed argument is Fortran-ordered in NumPy, so
    y.reshape(-1) is a copy the write misses; jit took every argument to be C-contiguous. A jitted
    function whose writes can show its arguments' layouts is now keyed by their strides."""

    def f(a):
        y = a + 1.0
        z = y.reshape(-1)
        y *= 2.0
        return z

    check_program(f, lambda: [numpy.arange(6.0).reshape(2, 3).T])


def test_reshape_of_an_elementwise_result_of_a_transpose_copies_as_in_numpy():
    """Found by the fuzzer, fixed: x.T * 2 is Fortran-ordered in NumPy (a ufunc's result takes its
    operands' memory order), so its reshape(-1) is a copy; traced, every result counted as
    C-contiguous and the reshape was a view that the later write reached
    (arraystack._transforms.result_layouts)."""

    def f(a):
        y = a.T * 2.0
        z = y.reshape(-1)
        y *= 3.0
        w = np.where(y > 4.0, y, a.T).reshape(3, 2)
        c = np.clip(a.T, 1.0, 4.0).astype(np.float32).reshape(-1)
        d = np.copy(a.T).reshape(-1)
        y[0, 0] = -1.0
        return z, y, w, c, d

    check_program(f, lambda: [numpy.arange(6.0).reshape(2, 3)])
    assert_derivatives(f, [numpy.arange(1.0, 7.0).reshape(2, 3)])


def test_reshape_of_a_copy_of_a_broadcast_argument_copies_as_in_numpy():
    """Fuzz program 370138: np.copy of a broadcast array puts the broadcast axis fastest (NumPy's
    rule for a new array like another), so the copy's reshape(-1) copies and the write misses it."""

    def f(a0):
        v0 = np.copy(a0)
        v0 += a0
        v0.reshape(-1)[0] = 2.0
        return v0

    check_program(f, lambda: [numpy.broadcast_to(numpy.array([[[-0.25, -2.5, 1.0]]]), (3, 1, 3))])


def test_reshape_of_a_fortran_ordered_argument_under_grad_and_vmap():
    """Found by the fuzzer, fixed: grad and vmap see their arguments' strides (and an example's,
    x[i]), so a * a of a Fortran-ordered argument is Fortran-ordered and its reshape a copy, as in
    NumPy."""

    def f(a):
        y = a * a
        z = y.reshape(-1)
        y *= 0.0
        return (z * z).sum()

    a = numpy.asfortranarray(numpy.arange(1.0, 7.0).reshape(2, 3))
    numpy.testing.assert_array_equal(np.grad(f)(a), 4 * a**3)
    batch = numpy.asfortranarray(numpy.arange(1.0, 25.0).reshape(2, 3, 4))
    got = np.vmap(f)(batch)
    expected = numpy.array([((batch[i] ** 2).reshape(-1) ** 2).sum() for i in range(2)])
    numpy.testing.assert_array_equal(numpy.asarray(got), expected)


def test_in_place_add_on_a_0d_result_rebinds_as_numpy_scalars_do():
    """Found by the fuzzer, fixed: NumPy's s is a scalar, so s += 1 makes a new one and t keeps the old
    value; traced, s was a 0-d array that t named too (see arraystack._transforms.traced_scalars)."""

    def f(a):
        s = a.sum()
        t = s
        s += 1.0
        return t, s

    check_program(f, lambda: [numpy.arange(3.0)])


def test_in_place_add_on_a_0d_comparison_promotes_as_numpy_scalars_do():
    """Found by the fuzzer, fixed: NumPy's s is a numpy.bool_, so s += 1 rebinds it to an int64;
    traced, the 0-d bool array could not hold the int64 sum (UFuncTypeError)."""

    def f(a):
        s = a[0] > 1
        s += 1
        return s

    check_program(f, lambda: [numpy.arange(3)])


def test_clip_keeps_negative_zero():
    """Found by the fuzzer, fixed: clip keeps x on a tie with a bound (clip(-0.0, -1, 0) is -0.0)."""

    def f(a):
        return np.clip(a, -1.0, 0.0)

    check_program(f, lambda: [numpy.array([-0.0, 0.5, -2.0])])


def test_integer_power_with_a_negative_exponent_raises():
    """Found by the fuzzer, fixed: int_array ** -1 raises NumPy's ValueError under jit too."""

    def f(a):
        return a**-1

    check_program(f, lambda: [numpy.array([1, 2, 3], dtype=numpy.int32)])


@pytest.mark.xfail(
    strict=True,
    reason="by design: jit drops unused values and their errors (docs/guide/sharp-edges.md)",
)
def test_errstate_raise_sees_errors_in_unused_values():
    """Known class: "errors of unused values under jit"."""

    def f(a):
        np.log(a)  # unused: NumPy still raises FloatingPointError for log(0) under errstate raise
        return a + 1.0

    check_program(f, lambda: [numpy.array([0.0, 1.0])], errstate="raise")


@pytest.mark.xfail(
    strict=True,
    reason="by design: jit drops unused values and their errors (docs/guide/sharp-edges.md)",
)
def test_an_unused_out_of_bounds_index_raises():
    """Known class: "errors of unused values under jit"."""

    def f(a, i):
        a[i]  # unused: NumPy still raises IndexError
        return a * 2.0

    check_program(f, lambda: [numpy.arange(3.0), numpy.array([5])])


@pytest.mark.xfail(
    strict=True,
    reason="by design: jit drops unused values and their errors (docs/guide/sharp-edges.md)",
)
def test_an_unused_integer_power_with_a_negative_exponent_raises():
    """Known class: "errors of unused values under jit"."""

    def f(a):
        a**-1  # unused: NumPy still raises ValueError
        return a + 1

    check_program(f, lambda: [numpy.array([1, 2, 3])])


@pytest.mark.xfail(
    strict=True,
    reason="by design: errors found while tracing come first (docs/guide/sharp-edges.md)",
)
def test_an_out_of_bounds_index_raises_before_a_later_shape_error():
    """Known class: "errors found while tracing come before run-time errors of earlier lines".
    NumPy stops at a[i] (IndexError); jit traces the whole function first and meets the (5,)
    halves' shape error."""

    def f(a, i):
        b = a[i]
        return b[::2] + b[1::2]

    check_program(f, lambda: [numpy.arange(3.0), numpy.array([0, 1, 2, 0, 7])])


@pytest.mark.xfail(
    strict=True,
    reason="by design: errors found while tracing come first (docs/guide/sharp-edges.md)",
)
def test_a_floating_point_error_raises_before_a_later_constant_index_error():
    """Known class: "errors found while tracing come before run-time errors of earlier lines".
    NumPy stops at the mean of nothing (FloatingPointError under errstate raise); jit meets the
    index -1 of an empty array while tracing."""

    def f(a):
        m = np.mean(a)
        b = a.copy()
        b[-1] = 3.0
        return m, b

    check_program(f, lambda: [numpy.zeros(0)], errstate="raise")


def test_power_of_a_0d_bool_result_has_numpy_scalar_dtype():
    """Found by the fuzzer, fixed: NumPy's np.any(a) is a numpy.bool_, whose ** 2 is int64 (its
    scalar math); traced, it was a 0-d bool array, whose ** 2 is int8."""

    def f(a):
        return np.any(a) ** 2

    check_program(f, lambda: [numpy.array([0.5, 0.0])])


def test_logaddexp_of_minus_infinities_under_errstate_raise():
    """NumPy's logaddexp(-inf, -inf) is -inf without an error; arraystack's computed inf - inf and
    raised under errstate(all='raise')."""

    def f(a):
        return np.logaddexp(a, a)

    check_program(f, lambda: [numpy.array([-numpy.inf, 0.0])], errstate="raise")


def test_logaddexp_of_nan_under_errstate_raise():
    """NumPy's logaddexp(x, nan) raises FloatingPointError (invalid) under errstate(all='raise');
    arraystack's returned nan under jit and for mixed operands."""

    def f(a):
        return np.logaddexp(0.25, a)

    check_program(f, lambda: [numpy.array([numpy.nan, 1.0])], errstate="raise")


def test_logaddexp2_of_nan_and_an_integer_under_errstate_raise():
    """logaddexp2 shares the composition, which an integer operand takes eagerly as well (NumPy's own
    loop is the eager path for two float arrays only)."""

    def f(b):
        return np.logaddexp2(b, numpy.int64(3))

    check_program(f, lambda: [numpy.array([1.0, numpy.nan])], errstate="raise")


def test_an_empty_write_into_a_read_only_view_raises():
    """Fuzz program 140369: writing no elements through a view of a read-only (broadcast) argument is
    still a write, which NumPy refuses (ValueError); traced, the empty update left the argument
    unwritten and nothing was checked."""

    def f(a0, a1, a2):
        a2 *= a2
        v0 = a1[::-1, ::-2]
        np.maximum(v0, v0, out=v0)

    def args():
        return [
            numpy.zeros((2, 0, 0), dtype=numpy.float64),
            numpy.broadcast_to(numpy.zeros((1, 0), dtype=numpy.float64), (2, 0)),
            numpy.zeros((0,), dtype=numpy.int64),
        ]

    check_program(f, args)


def test_a_checked_read_is_not_simplified_away():
    """Fuzz program 140784: `v -= v` of a fancy-indexed read is 0 whatever the read holds, and the
    simplifier's x - x -> 0 made the read dead code, dropping its bounds check; NumPy raises
    IndexError for the out-of-bounds index (x ** 0 and a constant select dropped reads alike)."""

    def f(a1, a2):
        v0 = a1[a2]
        v0 -= v0
        return v0, a1[a2] ** 0, np.where(True, a1[:2], a1[a2])

    check_program(f, lambda: [numpy.arange(17, dtype=numpy.int8), numpy.array([3, -23])])


def test_a_computed_float16_converted_to_float64_is_a_float16_number():
    """Fuzz program 180645: sin of a bool array is float16; converted to float64 under jit it gave
    sin(1) to float32's precision (the kernel computes float16 chains in float32 and rounded only
    the region's outputs), where NumPy's float16 result is 0.84130859375."""

    def f(a0, a1):
        v0 = np.sin(a0)
        return np.asarray(v0, dtype=np.float64), np.cos(a1).astype(np.float32)

    check_program(
        f,
        lambda: [
            numpy.array([True, False, True]),
            numpy.array([0.5, -2.0, 7.25], dtype=numpy.float16),
        ],
    )


def test_the_gradient_of_an_indexed_read_of_an_empty_broadcast_compiles():
    """Fuzz program 181072: under jit, the gradient of `v2[idx]` with v2 of shape (2, 0) is a
    scatter-add into rows of length 0, and the compiled kernel's reshape(-1, 0) raised ValueError."""

    def f(a0, a1):
        v0 = np.cumprod(a0)
        v2 = np.broadcast_to(v0[1:], (2, 0))
        return v2[numpy.array([-1, -1])], v0 * a1[0]

    args = [numpy.array(-0.78), numpy.array([0.5, -1.25, 2.0])[::-1]]
    assert_derivatives(f, args, seed=181072, compiled=True)


@pytest.mark.xfail(strict=True, reason="the tangent of a mean of no elements is NaN, as in JAX")
def test_the_tangent_of_a_mean_of_no_elements():
    """Known class: "the tangent of a mean of no elements is NaN". Fuzz program 220678: the mean over
    an axis of length 0 is 0/0, and so is its tangent (jax.jvp of jnp.mean gives nan too); the
    cotangent spreads over no elements, so the jvp/vjp check compares NaN with 0."""

    def f(a0):
        return np.abs(a0).mean(axis=-1, keepdims=True)

    assert_derivatives(f, [numpy.zeros((0,))], seed=220678)


def test_in_place_add_on_a_scalar_under_grad_rebinds():
    """Fuzz program 250094: under grad, v6 is a NumPy int64 scalar the trace computed eagerly (it does
    not depend on a0), and `v6 += 3.0` rebinds it to a float64 in NumPy; arraystack wrote it in place
    and raised UFuncTypeError (float64 into int64)."""

    def f(a0):
        v0 = 0.25 > a0
        v4 = np.prod(v0) + np.square(v0)
        v6 = np.maximum(v4, v4)
        v6 += 3.0
        return v6 * a0

    assert_derivatives(f, [numpy.array(0.7658640437928119)], seed=250094)


def test_a_float_sum_over_no_axes_adds_numpys_identity():
    """Fuzz program 310015 (cuda jit): the mean of a 0-d -0.0 is 0.0 in NumPy, whose sums add each
    element to +0.0; the optimizer dropped the reduction over no axes and kept -0.0, on every backend."""

    def f(a0):
        return np.rint(np.mean(a0, keepdims=True)), np.sum(a0.reshape(1, 1), axis=())

    check_program(f, lambda: [numpy.array(-0.0)])
    check_program(f, lambda: [numpy.array([-0.0]).astype(numpy.complex64)[0:1].reshape(())])


def test_an_in_place_op_after_a_write_into_an_untraced_view_under_vmap():
    """Fuzz program 490377 (vmap with in_axes=(0, None)): v0 does not depend on the mapped argument,
    so the trace computes it eagerly, a NumPy array. The write through its view v1 rebinds both (the
    trace's way), and then `v1 *= v1` wrote v1's buffer in place, which no longer was v0's: v0 kept
    -1.0 where NumPy squares it. Such an array is now rebound by in-place operations too."""

    def program(m):
        def f(a0, a1):
            v0 = a1 * 1.0
            v1 = v0[-2:, None, :]
            v1[::2, -2:] = -1.0
            v1 *= v1
            m.add(v0[:1], 1.0, out=v0[:1])
            m.sum(v1, axis=1, out=v1[:, 0])
            return v0 + a0[0]

        return f

    a1 = numpy.arange(27.0).reshape(3, 3, 3) + 1
    batch = numpy.stack([numpy.ones(3), numpy.full(3, 2.0)])
    got = np.vmap(program(np), in_axes=(0, None))(np.asarray(batch), np.asarray(a1))
    for b in range(2):
        want = program(numpy)(batch[b], a1.copy())
        numpy.testing.assert_array_equal(numpy.asarray(got[b]), want)


@pytest.mark.parametrize("dtype", ["bool", "int32", "complex128"])
@pytest.mark.parametrize("shape", [(1,), (1, 1), (2,), (0,)])
def test_an_element_set_from_an_array_of_one_element(dtype, shape):
    """Fuzz program 540063: `v0[1] = v2` with v0 boolean and v2 a traced one-element array. NumPy
    takes a one-element array's truth value for a bool element, raises ValueError for other real
    dtypes and TypeError for complex ones; traced, every target raised ValueError."""

    def f(a, v):
        b = a + 0
        b[1] = v * 1
        return b

    check_program(f, lambda: [numpy.zeros(3, dtype), numpy.ones(shape)])


def test_program_540063():
    def f(a0, a1):
        v0 = a0 != a1
        v1 = np.broadcast_to(v0, a0.shape)
        v2 = v1[numpy.array([False, True, False])]  # the program's mask(3, 287)
        v3 = np.array(v0)
        v0[1] = v2
        return v3, v0

    check_program(
        f, lambda: [numpy.array([1, 1, -1], dtype=numpy.int32), numpy.array(1, dtype=numpy.int32)]
    )


def test_program_650021_an_empty_indexed_write_into_a_read_only_argument():
    """Found by the fuzzer (program 650021, on the CUDA tiers), fixed: a write through an empty index
    array is still a write, so a read-only argument raises under jit as in NumPy."""

    def f(a0, a1):
        a1[numpy.zeros(0, numpy.int64)] = 3
        return a0 * 2

    read_only = numpy.broadcast_to(numpy.zeros((1, 2), numpy.uint8), (3, 2))
    check_program(f, lambda: [numpy.array(1.5), read_only])
    check_program(f, lambda: [numpy.array(1.5), numpy.zeros((3, 2), numpy.uint8)])


def test_derivatives_640080_a_0_d_operand_of_a_column_reduction():
    """Found by the fuzzer (program 640080, compiled tier), fixed: a 0-d operand that a column kernel
    reads per row (its squeezed shape is the rows' all-ones shape) was passed as a 1-d array, which the
    kernel cannot index (numba's TypingError)."""

    def f(a0, a1):
        v0 = np.broadcast_to(a1, (2,) + a1.shape)
        v1 = np.minimum(v0, -1.0)
        v1.reshape(-1)[1] = -0.0
        v4 = v0.min(keepdims=True)
        return np.broadcast_to(v4, (1, 4, 1, 1)), a0

    rng = numpy.random.default_rng(640080)
    assert_derivatives(f, [numpy.array(-0.75), rng.standard_normal((4, 3, 1))], 640080, True)
