"""NumPy's memory order of an advanced index's result while tracing (result_layouts.gathered): the
strides of x[key] for random layouts of x and of its index arrays (constant and traced), against
NumPy's own indexing, and programs whose reshape of such a result views or copies by that order."""

from __future__ import annotations

import random

import numpy
import pytest

import arraystack
from arraystack._transforms import aliasing
from tests.fuzz.tiers import check_program

np = numpy  # each program's `np` is rebound to the module under test


def _layout_of(rng, ndim):
    """A view recipe of a C-ordered array (applied to NumPy's and to a traced one alike)."""
    steps = [rng.choice([1, 1, 2, -1]) for _ in range(ndim)]
    perm = rng.sample(range(ndim), ndim) if rng.random() < 0.6 else list(range(ndim))
    return lambda a: a[tuple(slice(None, None, s) for s in steps)].transpose(perm)


def _index_array(rng, shape, n):
    """An index array into an axis of length n, of `shape`, in a random memory order: its base
    array (C-ordered) and the recipe that views it in that order."""
    kind = rng.choice(["c", "t", "rev", "f"]) if len(shape) >= 2 else "c"
    if kind == "t":
        base = numpy.array(rng.choices(range(n), k=int(numpy.prod(shape)))).reshape(shape[::-1])
        return base, lambda m, a: a.T
    if kind == "rev":
        base = numpy.array(rng.choices(range(n), k=int(numpy.prod(shape)))).reshape(shape)
        return base, lambda m, a: a[::-1]
    base = numpy.array(rng.choices(range(n), k=int(numpy.prod(shape)))).reshape(shape)
    if kind == "f":
        return base, lambda m, a: m.asfortranarray(a)
    return base, lambda m, a: a


def _random_case(rng):
    ndim = rng.randint(1, 4)
    shape = [rng.choice([1, 2, 3, 4]) for _ in range(ndim)]
    view = _layout_of(rng, ndim)
    fancy = tuple(rng.choice([1, 2, 3]) for _ in range(rng.randint(0, 3)))
    items = []  # ("basic", item) | ("array", base, recipe, traced) | ("mask", mask)
    axis = 0
    viewed = numpy.empty(shape)
    viewed_shape = view(viewed).shape
    while axis < ndim:
        n = viewed_shape[axis]
        r = rng.random()
        if r < 0.1:
            items.append(("basic", None))
            continue
        if r < 0.35:
            items.append(("basic", slice(None, None, rng.choice([1, 2, -1]))))
        elif r < 0.45:
            items.append(("basic", rng.randrange(n)))
        elif r < 0.55 and n > 1:
            items.append(("mask", numpy.arange(n) % 2 == 0))
        else:
            own = tuple(k if rng.random() < 0.8 else 1 for k in fancy)
            own = own[rng.randint(0, len(own)) :] if rng.random() < 0.3 else own
            base, recipe = _index_array(rng, own, n)
            items.append(("array", base, recipe, rng.random() < 0.4))
        axis += 1
    if items and rng.random() < 0.2:
        items.insert(rng.randrange(len(items)), ("basic", Ellipsis))
        if rng.random() < 0.5:
            items.pop()
    return shape, view, items


def _key(m, items, traced):
    key, it = [], iter(traced)
    for item in items:
        if item[0] == "array":
            _, base, recipe, is_traced = item
            key.append(recipe(m, next(it) if is_traced else base))
        else:
            key.append(item[1])
    return tuple(key)


def _advanced(item):
    return item[0] == "mask" or (item[0] == "array" and item[1].ndim >= 1)


@pytest.mark.parametrize("seed", range(4))
def test_advanced_index_strides_are_numpys(seed):
    """The strides of every axis longer than 1 (NumPy's reshape and contiguity read no others)."""
    rng = random.Random(seed)
    checked = 0
    while checked < 300:
        shape, view, items = _random_case(rng)
        x = numpy.arange(float(numpy.prod(shape))).reshape(shape)
        try:
            want = view(x)[_key(numpy, items, [i[1] for i in items if i[0] == "array" and i[3]])]
        except IndexError:
            continue
        if want.ndim < 2 or want.size == 0 or not any(_advanced(i) for i in items):
            continue  # a 0-d index array alone indexes as an integer does
        got = {}

        def f(a, *indices, view=view, items=items, got=got):
            y = view(a)[_key(arraystack, items, indices)]
            got["layout"] = aliasing.layout_of(y)
            return y

        traced = [arraystack.asarray(i[1]) for i in items if i[0] == "array" and i[3]]
        arraystack.eval_shape(f, arraystack.asarray(x), *traced)
        long = [k for k, n in enumerate(want.shape) if n != 1]
        strides = got["layout"].strides
        assert [strides[k] for k in long] == [want.strides[k] for k in long], (
            items,
            want.strides,
            strides,
        )
        checked += 1


def indexed_columns(a):
    y = a[:, [0, 2]]  # NumPy: Fortran-ordered, so the reshape copies
    z = y.reshape(-1)
    z[0] = 100.0
    return y, z


def indexed_by_a_fortran_array(a):
    i = np.asfortranarray(np.array([[0, 1, 2], [2, 1, 0]]))
    y = a[0][i]  # the index array's order
    z = y.reshape(-1)
    z[1] = -1.0
    w = a.T[[1, 0]][:, ::-1]  # C-ordered rows, reversed: the reshape copies
    u = w.reshape(-1)
    u[0] = 7.0
    return y, z, w, u


@pytest.mark.parametrize("f", [indexed_columns, indexed_by_a_fortran_array])
def test_reshapes_of_indexed_arrays_view_or_copy_as_numpys(f):
    check_program(f, lambda: [numpy.arange(12.0).reshape(3, 4)])
