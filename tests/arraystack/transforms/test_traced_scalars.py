"""NumPy scalars under jit: where NumPy gives a scalar (a ufunc of 0-d operands, a full reduction, an
integer index, dot of vectors, a scalar's copy or astype), in-place operators rebind the name, views
are new values, item assignment raises and a bool scalar ** int is int64, in every tier, as NumPy's
scalars behave. Each program runs against NumPy as the oracle (tests/fuzz/tiers.check_program)."""

from __future__ import annotations

import numpy
import pytest

import arraystack
from tests.fuzz.tiers import check_program

np = numpy  # each program's `np` is rebound to the module under test

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def reduction_rebinds(a):
    s = a.sum()
    t = s
    s += 1.0
    return t, s


def comparison_promotes(a):
    s = a[0] > 1.0
    s += 1
    return s


def bool_scalar_power(a):
    return np.any(a) ** 2, np.all(a) ** 3


def write_through_view_of_scalar(a):
    s = a.sum()
    v = s.reshape(1)
    v[0] = 5.0
    return s, v


def view_then_rebind(a):
    s = a.max()
    v = s.reshape(1)
    s *= 2.0
    return s, v


def integer_index_rebinds(a):
    s = a[1]
    t = s
    s -= 3.0
    return s, t, a


def ufunc_of_0d_rebinds(a):
    s = np.sqrt(a[0])
    u = s
    s += 1.0
    return s, u


def ellipsis_of_scalar_is_new(a):
    s = a.sum()
    v = s[...]
    v += 1.0
    return s, v


def scalar_plus_array_broadcasts(a):
    s = a.min()
    s += a
    return s


def mean_rebinds(a):
    m = a.mean()
    n = m
    m /= 2.0
    return m, n


def dot_rebinds(a):
    s = a @ a
    t = s
    s += 1.0
    return s, t


def copy_and_astype_are_scalars(a):
    s = a.sum().copy()
    t = s
    s += 1.0
    u = a.sum().astype(np.float32)
    w = u
    u += 1.0
    return s, t, u, w


def argmax_floor_divides(a):
    s = a.argmax()
    s //= 2
    return s


def zero_d_arrays_are_written(a):
    z = np.zeros(())
    y = z
    z += a.sum()
    w = np.where(True, a.sum(), 0.0)
    x = w
    w += 1.0
    v = a[1:2].reshape(())
    v += 1.0
    return y, x, a


def at_least_1d_of_a_scalar_is_new(a):
    s = a.sum()
    v = np.atleast_1d(s)
    v[0] = 7.0
    w = s.view()
    return s, v, w


def at_least_2d_is_a_view_of_an_array(a):
    y = np.atleast_2d(a)
    y[0, 0] = 9.0
    return a


def unstacked_rows_are_views(a):
    m = a.reshape(2, 2)
    first, _ = np.unstack(m)
    first[0] = -1.0
    s, t = np.unstack(a)[:2]
    s += 1.0
    return m, a, s, t


def transposed_scalar_is_a_scalar(a):
    s = a.sum().T
    t = s
    s += 1.0
    return s, t


PROGRAMS = [
    reduction_rebinds,
    comparison_promotes,
    bool_scalar_power,
    write_through_view_of_scalar,
    view_then_rebind,
    integer_index_rebinds,
    ufunc_of_0d_rebinds,
    ellipsis_of_scalar_is_new,
    scalar_plus_array_broadcasts,
    mean_rebinds,
    dot_rebinds,
    copy_and_astype_are_scalars,
    argmax_floor_divides,
    zero_d_arrays_are_written,
    transposed_scalar_is_a_scalar,
    at_least_1d_of_a_scalar_is_new,
    at_least_2d_is_a_view_of_an_array,
    unstacked_rows_are_views,
]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_numpy_scalars_in_every_tier(program):
    check_program(program, lambda: [numpy.arange(1.0, 5.0)])


def test_item_assignment_into_a_scalar_raises_type_error():
    def f(a):
        s = a.sum()
        s[...] = 2.0
        return s

    check_program(f, lambda: [numpy.arange(3.0)])


def test_gradient_through_a_rebound_scalar():
    """grad of a function whose scalar is rebound: t keeps the value before `s *= 3`."""

    def f(a):
        s = (a * a).sum()
        t = s
        s *= 3.0
        return s + t

    x = arraystack.asarray([1.0, 2.0, 3.0])
    got = arraystack.grad(f)(x)
    numpy.testing.assert_allclose(numpy.asarray(got), 8.0 * numpy.asarray(x))
    got_jit = arraystack.jit(arraystack.grad(f))(x)
    numpy.testing.assert_allclose(numpy.asarray(got_jit), 8.0 * numpy.asarray(x))


# zero_d_arrays_are_written adds a device's sum into a new host array: two devices, refused on cuda
ON_CUDA = [f for f in PROGRAMS if f is not zero_d_arrays_are_written]


@pytest.mark.parametrize("program", ON_CUDA, ids=lambda f: f.__name__)
def test_numpy_scalars_on_a_cuda_device(program):
    """cupy has no scalars: a device's 0-d result where NumPy gives a scalar is marked as one, so the
    same programs give NumPy's results on cuda:0 (the stand-in for cupy without a GPU)."""
    check_program(program, lambda: [numpy.arange(1.0, 5.0)], tiers=("cuda eager",))


@pytest.mark.parametrize("program", [reduction_rebinds, comparison_promotes, dot_rebinds])
def test_numpy_scalars_under_jit_on_a_cuda_device(program):
    check_program(program, lambda: [numpy.arange(1.0, 5.0)], tiers=("cuda jit",))


def test_gradient_on_a_cuda_device_through_a_rebound_comparison(standin):
    """Fuzz program 280178 on cuda:0: v1 = v0 > a0 is NumPy's bool scalar, and `v1 -= v0` rebinds it to
    a float64; on the device it was a 0-d bool array that could not hold the difference
    (UFuncTypeError)."""

    def f(a0):
        v0 = a0 + 2.0
        v1 = v0 > a0
        v1 -= v0
        return v1 * a0

    x = arraystack.asarray(numpy.array(0.5655743024117479), device="cuda")
    value, gradient = arraystack.value_and_grad(f)(x)
    assert gradient.device == "cuda:0"
    numpy.testing.assert_allclose(float(value), (1.0 - 2.5655743024117479) * 0.5655743024117479)
    numpy.testing.assert_allclose(float(gradient), -1.0 - 2.0 * 0.5655743024117479)
