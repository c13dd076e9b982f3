"""einsum's memory layouts as NumPy's: a view of the one operand where nothing is summed (writes
reach it, also under jit, grad and vmap), else a new array in the operands' order, eagerly and
while tracing, on random subscripts and layouts."""

from __future__ import annotations

import random

import numpy
import pytest

import arraystack
from arraystack._transforms import aliasing
from tests.fuzz.tiers import check_program

np = numpy  # each program's `np` is rebound to the module under test


def views_and_orders(a):
    d = np.einsum("ii->i", a)  # a writeable view of the diagonal
    d[1] = -5.0
    t = np.einsum("iji->ji", a.reshape(3, 1, 3) * 1.0)
    t[0, 2] = 9.0
    e = np.einsum("ij->ji", a)  # a transposed view
    e[0, 1] += 100.0
    same = np.einsum("ij", a)
    same[2, 0] = 3.5
    b = np.einsum("ij,ij->ji", a, a)  # Fortran-ordered: its reshape copies
    z = b.reshape(-1)
    z[0] = 1e6
    a[2, 2] = 42.0  # reaches d and e
    return d, t, e, same, b, z, a


def test_einsum_views_and_orders_are_numpys():
    check_program(views_and_orders, lambda: [numpy.arange(9.0).reshape(3, 3)])


def _operand(rng, labels, sizes):
    shape = [sizes[c] for c in labels]
    base = numpy.arange(1.0, 1.0 + numpy.prod(shape)).reshape(shape)
    if len(labels) >= 2 and rng.random() < 0.5:
        base = numpy.asfortranarray(base)
    if labels and rng.random() < 0.3:
        base = base[(slice(None, None, -1),) * len(labels)]
    return base


@pytest.mark.parametrize("seed", range(3))
def test_einsum_result_order_is_numpys(seed):
    """The strides of every axis longer than 1 (NumPy's reshape and contiguity read no others), of
    eager results and of the layout recorded while tracing."""
    rng = random.Random(seed)
    checked = 0
    while checked < 80:
        letters = "ijkl"
        sizes = {c: rng.choice([1, 2, 3]) for c in letters}
        terms = ["".join(rng.sample(letters, rng.randint(0, 3))) for _ in range(rng.randint(1, 3))]
        used = sorted(set("".join(terms)))
        out = "".join(rng.sample(used, rng.randint(0, len(used))))
        subscripts = ",".join(terms) + "->" + out
        operands = [_operand(rng, t, sizes) for t in terms]
        want = numpy.einsum(subscripts, *operands)
        if want.ndim < 2:
            continue
        got = arraystack.einsum(subscripts, *[arraystack.asarray(o) for o in operands])
        traced = {}

        def f(*xs, subscripts=subscripts, traced=traced):
            r = arraystack.einsum(subscripts, *xs)
            traced["layout"] = aliasing.layout_of(r)
            return r

        arraystack.eval_shape(f, *[arraystack.asarray(o) for o in operands])
        numpy.testing.assert_array_equal(numpy.asarray(got), want)
        long = [k for k, n in enumerate(want.shape) if n != 1]
        for strides in (got._value.strides, traced["layout"].strides):
            assert [abs(strides[k]) for k in long] == [abs(want.strides[k]) for k in long], (
                subscripts,
                [o.strides for o in operands],
                want.strides,
                strides,
            )
        checked += 1
