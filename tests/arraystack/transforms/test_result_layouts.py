"""NumPy's memory order of new arrays while tracing (arraystack._transforms.result_layouts): the rule for
an elementwise result's strides against NumPy's own ufuncs on random layouts, and programs whose
reshapes view or copy by that order, against NumPy as the oracle (tests/fuzz/tiers.check_program)."""

from __future__ import annotations

import random

import numpy
import pytest

import arraystack
from arraystack._transforms.result_layouts import k_order_strides, multi_sorted_strides
from tests.fuzz.tiers import check_program

np = numpy  # each program's `np` is rebound to the module under test


def _random_operand(rng):
    ndim = rng.randint(0, 4)
    shape = [rng.choice([1, 2, 3, 4]) for _ in range(ndim)]
    dtype = rng.choice([numpy.float64, numpy.float32, numpy.int8])
    base = numpy.zeros([n * rng.choice([1, 2]) for n in shape], dtype)
    if ndim >= 2 and rng.random() < 0.3:
        base = numpy.asfortranarray(base)
    key = tuple(
        slice(None, None, rng.choice([1, 2, -1, -2])) if rng.random() < 0.4 else slice(None)
        for _ in range(ndim)
    )
    view = base[key]
    if ndim >= 2 and rng.random() < 0.4:
        view = view.transpose(rng.sample(range(ndim), ndim))
    if ndim and view.shape[-1] and rng.random() < 0.2:
        view = numpy.broadcast_to(view[..., :1], view.shape[:-1] + (3,))
    return view


@pytest.mark.parametrize("seed", range(4))
def test_elementwise_strides_are_numpys(seed):
    """The strides of every axis longer than 1 (NumPy's reshape and contiguity read no others)."""
    rng = random.Random(seed)
    checked = 0
    while checked < 500:
        operands = [_random_operand(rng) for _ in range(rng.randint(1, 3))]
        try:
            shape = numpy.broadcast_shapes(*(o.shape for o in operands))
        except ValueError:
            continue
        if 0 in shape:
            continue
        if len(operands) == 3:
            result = numpy.where(operands[0] > 0, operands[1], operands[2])
        elif len(operands) == 2:
            result = numpy.add(*operands)
        else:
            result = numpy.negative(operands[0])
        got = k_order_strides([(o.shape, o.strides) for o in operands], shape, result.itemsize)
        long = [k for k, n in enumerate(shape) if n != 1]
        assert [got[k] for k in long] == [result.strides[k] for k in long], (
            [(o.shape, o.strides) for o in operands],
            result.strides,
            got,
        )
        checked += 1


@pytest.mark.parametrize("seed", range(2))
def test_concatenation_strides_are_numpys(seed):
    rng = random.Random(seed)
    checked = 0
    while checked < 400:
        ndim, axis = rng.randint(2, 3), rng.randrange(3)
        axis %= ndim
        common = [rng.choice([1, 2, 3]) for _ in range(ndim)]
        operands = []
        for _ in range(rng.randint(1, 3)):
            shape = list(common)
            shape[axis] = rng.choice([1, 2])
            permutation = rng.sample(range(ndim), ndim)
            base = numpy.zeros(
                [shape[k] for k in permutation], rng.choice([numpy.float64, numpy.int8])
            )
            view = base.transpose(numpy.argsort(permutation))
            if rng.random() < 0.3:
                view = view[(slice(None, None, -1),) * ndim]
            operands.append(view)
        result = numpy.concatenate(operands, axis=axis)
        got = multi_sorted_strides(
            [(o.shape, o.strides) for o in operands], result.shape, result.itemsize
        )
        long = [k for k, n in enumerate(result.shape) if n != 1]
        assert [got[k] for k in long] == [result.strides[k] for k in long]
        checked += 1


def transposed_product(a):
    y = a.T * 2.0
    z = y.reshape(-1)  # NumPy: a copy (y is Fortran-ordered)
    y += 1.0
    return z, y


def kept_by_astype_and_copy(a):
    c = a.T.astype(np.float32)
    d = np.copy(a.T)
    e = np.array(a.T)
    views = [c.reshape(-1), d.reshape(-1), e.reshape(-1)]
    c[0, 0] = d[0, 0] = e[0, 0] = -5
    return tuple(views) + (c, d, e)


def made_c_ordered(a):
    y = (a.T + 1.0).copy()  # ndarray.copy: C order
    z = np.asarray(a.T * 1.0, order="C")  # a copy into C order
    u, w = y.reshape(-1), z.reshape(-1)  # views
    y[0, 0] = z[0, 0] = 7.0
    return u, w


def fortran_copy(a):
    y = np.copy(a + 1.0, order="F")
    z = y.reshape(-1)  # a copy
    y[1, 1] = 0.0
    return z, y


def mixed_orders(a):
    y = a + a.T.T  # C and C
    z = a.T * a.T + 1.0  # Fortran and Fortran
    w = z.reshape(-1)
    z[0, 1] = -3.0
    u = (a.T + np.ones((3, 2))).reshape(-1)  # Fortran and C: C wins, a view
    return y, w, u


def a_traced_c_operand_votes(a):
    # fuzz 440041: y is traced and C-ordered, a.T is not: C's order wins, so the sum is C-ordered,
    # its transpose is not, and that transpose's reshape is a copy the write misses
    y = a.T.copy()
    s = np.fmin(y, a.T)
    t = np.moveaxis(s, 0, -1)
    t.reshape(-1)[1] = 0.25
    u = (a.T + [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).reshape(-1)  # a list: C-ordered, so a view
    u[0] = -1.0
    return s, t, u


def kept_by_sort_scans_and_likes(a):
    made = [
        np.sort(a.T, axis=0),
        np.cumsum(a.T, axis=1),
        np.nan_to_num(a.T),
        np.zeros_like(a.T),
        np.full_like(a.T, 2.0),
        np.zeros((3, 2), order="F"),
    ]
    views = [m.reshape(-1) for m in made]  # copies: each is Fortran-ordered in NumPy
    for m in made:
        m[0, 1] = -1.0
    return tuple(views) + tuple(made)


def copies_of_broadcasts_and_reversals(a):
    b = np.broadcast_to(a, (3, 2, 3))
    c = np.copy(b)  # NumPy: the broadcast axis fastest, so not C-contiguous
    r = a[::-1, ::-1].astype(np.float32)  # C-contiguous: the reshape views
    d, e = c.reshape(-1), r.reshape(-1)
    c[0, 0, 0] = r[0, 0] = -1.0
    s = np.cumsum(b, axis=1)  # accumulate allocates as ufuncs do: C order here
    t = s.reshape(-1)
    s[0, 0, 0] = -2.0
    return d, e, c, r, t


def shape_set_on_a_fortran_result(a):
    y = a.T * 3.0
    y.shape = (3, 2)  # the same shape: fine
    t = y.reshape(2, 3)  # a copy
    y[0, 0] = 0.0
    return t, y


@pytest.mark.parametrize(
    "f",
    [
        transposed_product,
        kept_by_astype_and_copy,
        made_c_ordered,
        fortran_copy,
        mixed_orders,
        a_traced_c_operand_votes,
        kept_by_sort_scans_and_likes,
        copies_of_broadcasts_and_reversals,
        shape_set_on_a_fortran_result,
    ],
)
def test_reshapes_of_results_view_or_copy_as_numpys(f):
    check_program(f, lambda: [numpy.arange(6.0).reshape(2, 3)])


def test_setting_the_shape_of_a_fortran_ordered_result_raises_as_numpys():
    def f(a):
        y = a.T * 3.0
        y.shape = (6,)
        return y

    with pytest.raises(AttributeError, match="Incompatible shape"):
        f(numpy.arange(6.0).reshape(2, 3))
    with pytest.raises(AttributeError, match="Incompatible shape"):
        arraystack.jit(f)(arraystack.arange(6.0).reshape(2, 3))


def test_a_jitted_function_is_keyed_by_its_arguments_layouts_where_they_show():
    """A function whose write shows whether a reshape of its argument's sum viewed or copied gives
    NumPy's result for C-, Fortran-ordered and transposed arguments, one trace per layout; a function
    with no write is traced once for both, and served by the fast path."""

    def f(a):
        y = a + 1.0
        z = y.reshape(-1)
        y *= 2.0
        return z

    jitted = arraystack.jit(f)
    c = numpy.arange(6.0).reshape(2, 3)
    calls = [c, numpy.asfortranarray(c), c, numpy.arange(6.0).reshape(3, 2).T, c]
    for a in calls:
        numpy.testing.assert_array_equal(numpy.asarray(jitted(a)), f(a))
    assert jitted.stats()["traces"] == 2  # F and the transpose have the same strides
    assert "argument memory layouts" in jitted.stats()["retrace_reasons"][-1]
    # the entry for C-ordered arguments is served by the fast path, for C-ordered arguments only
    c_entry = next(e for k, e in jitted._specs.entries.items() if k[6] == (None,))
    assert list(jitted._specs.fast_c.values()) == [c_entry]
    hits = jitted.stats()["cache_hits"]
    for a in calls:
        numpy.testing.assert_array_equal(numpy.asarray(jitted(a)), f(a))
    assert jitted.stats()["cache_hits"] == hits + len(calls)
    assert jitted.stats()["traces"] == 2

    def g(a):
        return (a * 2.0).reshape(-1)

    jitted = arraystack.jit(g)
    for a in calls:
        numpy.testing.assert_array_equal(numpy.asarray(jitted(a)), g(a))
    assert jitted.stats()["traces"] == 1


LAYOUTS = {
    "broadcast": lambda: numpy.broadcast_to(numpy.arange(15.0).reshape(1, 5, 3), (3, 5, 3)),
    "permuted": lambda: numpy.arange(60.0).reshape(3, 4, 5).transpose(1, 0, 2)[:, :, ::2],
    "fortran": lambda: numpy.asfortranarray(numpy.arange(60.0).reshape(3, 4, 5)),
    "reversed": lambda: numpy.arange(60.0).reshape(3, 4, 5)[::-1, :, ::-1],
}
NEW_ARRAYS = {
    "copy": "np.copy(a)",
    "array": "np.array(a)",
    "astype": "a.astype(np.float32)",
    "sort": "np.sort(a, axis=1)",
    "cumsum": "np.cumsum(a, axis=1)",
    "nan_to_num": "np.nan_to_num(a)",
    "negative": "np.negative(a)",
    "where": "np.where(a > 2, a, 0.0)",
    "clip": "np.clip(a, 1, 4)",
    "zeros_like": "np.zeros_like(a) + a",
    "ones_like": "np.ones_like(a)",
    "concatenate": "np.concatenate([a, a * 2], axis=1)",
    "stack": "np.stack([a, a], axis=1)",
    "pad": "np.pad(a, 1)",
    "roll": "np.roll(a, 1, axis=0)",
    "repeat": "np.repeat(a, 2, axis=0)",
    "accumulate": "np.maximum.accumulate(a, axis=1)",
}


def _writes_through_a_reshape(expression):
    """A program making y by `expression` (of its argument a), writing through y's flat reshape and
    returning y: NumPy's memory order of y decides whether the writes reach it."""
    source = (
        f"def f(a):\n    y = {expression}\n    z = y.reshape(-1)\n"
        "    z[0] = 99\n    z[-1] = 98\n    return y\n"
    )
    namespace = {"np": numpy}
    exec(source, namespace)  # noqa: S102  (a program of one of the tables below)
    return namespace["f"]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("made", sorted(NEW_ARRAYS))
def test_new_arrays_from_arguments_in_any_layout(made, layout):
    """Each way of making a new array from an argument of each layout: NumPy's result is in its
    own memory order (two rules: ufuncs' and new-arrays-like-another's), which decides whether
    its reshape is a view the writes reach, eagerly and in every traced tier."""
    check_program(_writes_through_a_reshape(NEW_ARRAYS[made]), lambda: [LAYOUTS[layout]()])


LAYOUTS_2D = {
    "fortran": lambda: numpy.asfortranarray(numpy.arange(1.0, 13.0).reshape(3, 4)),
    "reversed": lambda: numpy.arange(1.0, 25.0).reshape(4, 6)[::-1, ::2],
}
MORE_NEW_ARRAYS = {
    "partition": "np.partition(a, 1, axis=0)",
    "nancumsum": "np.nancumsum(a, axis=1)",
    "cumulative_sum": "np.cumulative_sum(a, axis=0, include_initial=True)",
    "take": "np.take(a, [0, 2], axis=1)",  # C-ordered, where the index a[:, [0, 2]] is not
    "choose": "np.choose((a > 3).astype(int), [a, -a])",
    "delete one": "np.delete(a, 1, axis=1)",
    "delete two": "np.delete(a, [0, 2], axis=1)",
    "insert": "np.insert(a, [1, 2], 0.0, axis=1)",
    "require": "np.require(a, requirements='CO')",
    "vectorize": "np.vectorize(lambda v: v * 2.0)(a)",
    "einsum": "np.einsum('ij,ij->ij', a, a)",
    "vander": "np.vander(a[0], 3)",
    "meshgrid": "np.meshgrid(a[0], a[:, 0])[0]",
    "fft": "np.fft.fft(a, axis=0)",
    "irfft": "np.fft.irfft(a, n=4, axis=1)",
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS_2D))
@pytest.mark.parametrize("made", sorted(MORE_NEW_ARRAYS))
def test_more_new_arrays_in_numpys_order(made, layout):
    """Functions whose result NumPy allocates in an order of their own (the argument's, Fortran's
    where the argument is Fortran-contiguous, or C's): its reshape views or copies as NumPy's."""
    check_program(_writes_through_a_reshape(MORE_NEW_ARRAYS[made]), lambda: [LAYOUTS_2D[layout]()])


REDUCED_AND_OTHERS = {
    "sum": "np.sum(a, axis=1)",
    "mean keepdims": "np.mean(a, axis=2, keepdims=True)",
    "std": "np.std(a, axis=0)",
    "max": "np.max(a, axis=(0,))",
    "ptp": "np.ptp(a, axis=1)",
    "count_nonzero": "np.count_nonzero(a > 3, axis=2) * 1",
    "median": "np.median(a, axis=0)",
    "nanmedian": "np.nanmedian(a, axis=1)",
    "quantile": "np.quantile(a, [0.2, 0.5], axis=1)",
    "norm": "np.linalg.norm(a, axis=2)",
    "vecdot": "np.vecdot(a, a, axis=0)",
    "tril": "np.tril(a)",
    "round": "np.round(a, 1)",
    "cross": "np.cross(a[..., :3], a[..., 1:4])",
    "diagonal": "np.diagonal(a, 0, 1, 2) * 1.0",
    "zeros_like shape": "np.zeros_like(a, shape=(2, 2, 2))",
    "pad edge": "np.pad(a, 1, mode='edge')",
    "copy A": "a.copy(order='A')",
}


@pytest.mark.parametrize("layout", ["fortran", "permuted"])
@pytest.mark.parametrize("made", sorted(REDUCED_AND_OTHERS))
def test_reductions_and_others_in_numpys_order(made, layout):
    """Reductions keep their operand's order (NumPy's iterator, order 'K'); the others allocate in
    an order of their own: the reshape of each views or copies as NumPy's."""
    check_program(_writes_through_a_reshape(REDUCED_AND_OTHERS[made]), lambda: [LAYOUTS[layout]()])


def read_in_memory_order(a):
    """ravel(order='K') and reshape/ravel/flatten in order 'A' read the values in a's memory order:
    under a trace too, where that order is the argument's (or a result's, as NumPy has it)."""
    y = a.T * 2.0
    return (
        np.ravel(a, order="K"),
        a.ravel("A"),
        a.reshape(-1, order="A"),
        y.flatten("K"),
        np.ravel(a[::-1], order="K"),
        y.T.reshape(2, -1, order="A"),
    )


@pytest.mark.parametrize("layout", ["c", "fortran", "transposed", "reversed"])
def test_values_read_in_memory_order_are_numpys(layout):
    base = numpy.arange(12.0).reshape(3, 4)
    made = {
        "c": lambda: base.copy(),
        "fortran": lambda: numpy.asfortranarray(base),
        "transposed": lambda: base.reshape(4, 3).T,
        "reversed": lambda: base[:, ::-1],
    }[layout]
    check_program(read_in_memory_order, lambda: [made()])
