"""searchsorted's sorter= is checked in every tier: an entry outside [0, len(a)) raises NumPy's
ValueError("Sorter index out of range.") eagerly, under jit (each tier), grad and vmap (for the
examples whose results are kept), where it was clamped silently. NumPy is the oracle; the gather mode
"sorter" that carries the check is tested against NumPy's message at the reference rule."""

from __future__ import annotations

import re

import numpy
import pytest
from arraystack.ir import ShapedArray, make_graph
from arraystack.ir import structural as s
from arraystack.ir.core import bind
from arraystack.ir.reference import reference_rules

import arraystack as ast
from tests.jit.test_printer import round_trip

A = numpy.array([3.0, 1.0, 2.0, 5.0, 4.0])
KEYS = numpy.array([0.5, 2.5, 4.5, 9.0])
GOOD = [numpy.argsort(A), numpy.array([1, 2, 0, 4, 3], dtype=numpy.int32)]
# NumPy raises for each of these with these keys (its search visits the bad entry)
BAD = [numpy.array([1, 2, 0, 4, 9]), numpy.array([1, 2, -1, 4, 3]), numpy.array([5, 2, 0, 4, 3])]

TIERS = {
    "eager": lambda f: f,
    "tiered": ast.jit,
    "compiled": lambda f: ast.jit(f, tiered=False),
    "reference": lambda f: ast.jit(f, backend="reference"),
}


def _numpy_error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return info.type, str(info.value)


@pytest.mark.parametrize("tier", list(TIERS))
@pytest.mark.parametrize("side", ["left", "right"])
def test_sorter_checked_as_numpy_does(tier, side):
    f = TIERS[tier](lambda a, v, sorter: ast.searchsorted(a, v, side=side, sorter=sorter))
    for sorter in GOOD:
        expected = numpy.searchsorted(A, KEYS, side=side, sorter=sorter)
        out = f(ast.asarray(A), ast.asarray(KEYS), ast.asarray(sorter))
        assert numpy.asarray(out).dtype == expected.dtype
        numpy.testing.assert_array_equal(numpy.asarray(out), expected)
    for sorter in BAD:
        kind, message = _numpy_error(
            lambda sorter=sorter: numpy.searchsorted(A, KEYS, side=side, sorter=sorter)
        )
        with pytest.raises(kind, match=f"^{re.escape(message)}$"):
            f(ast.asarray(A), ast.asarray(KEYS), ast.asarray(sorter))


@pytest.mark.parametrize("tier", list(TIERS))
def test_reproducer_traced_sorter_out_of_range(tier):
    f = TIERS[tier](lambda v, s: ast.searchsorted(v, 2.5, sorter=s))
    v, sorter = numpy.arange(5.0), numpy.array([0, 1, 2, 3, 9])
    kind, message = _numpy_error(lambda: numpy.searchsorted(v, 2.5, sorter=sorter))
    with pytest.raises(kind, match=f"^{re.escape(message)}$"):
        f(ast.asarray(v), ast.asarray(sorter))


def test_empty_keys_search_nothing():
    """With no keys NumPy never reads sorter, and neither does arraystack."""
    bad = BAD[0]
    expected = numpy.searchsorted(A, numpy.zeros(0), sorter=bad)
    for tier in TIERS.values():
        out = tier(lambda a, v, s: ast.searchsorted(a, v, sorter=s))(A, numpy.zeros(0), bad)
        assert numpy.asarray(out).shape == expected.shape == (0,)


@pytest.mark.parametrize("wrap", [lambda f: f, ast.jit])
def test_vmap_checks_kept_examples_only(wrap):
    a = ast.asarray(A)
    search = wrap(ast.vmap(lambda sorter: ast.searchsorted(a, 2.5, sorter=sorter)))
    numpy.testing.assert_array_equal(
        search(numpy.stack(GOOD)), [numpy.searchsorted(A, 2.5, sorter=g) for g in GOOD]
    )
    with pytest.raises(ValueError, match=r"^Sorter index out of range\.$"):
        search(numpy.stack([GOOD[0], BAD[0]]))

    def pick(take, sorter):
        return ast.cond(
            take, lambda t: ast.searchsorted(a, 2.5, sorter=t), lambda t: ast.asarray(-1), sorter
        )

    picked = wrap(ast.vmap(pick))
    sorters = numpy.stack([GOOD[0], BAD[0]])
    numpy.testing.assert_array_equal(picked(numpy.array([True, False]), sorters), [2, -1])
    with pytest.raises(ValueError, match=r"^Sorter index out of range\.$"):
        picked(numpy.array([True, True]), sorters)


@pytest.mark.parametrize("tier", list(TIERS))
def test_grad_checks_the_sorter(tier):
    def loss(a, sorter):
        return ast.searchsorted(a, 2.5, sorter=sorter).astype(numpy.float64) * (a * a).sum()

    grad = TIERS[tier](ast.grad(loss))
    position = numpy.searchsorted(A, 2.5, sorter=GOOD[0])
    numpy.testing.assert_array_equal(
        numpy.asarray(grad(ast.asarray(A), ast.asarray(GOOD[0]))), position * 2 * A
    )
    with pytest.raises(ValueError, match=r"^Sorter index out of range\.$"):
        grad(ast.asarray(A), ast.asarray(BAD[1]))


# -- the gather mode ---------------------------------------------------------------------------------


def test_sorter_mode_at_the_reference_rule():
    gather = reference_rules[s.gather_p]
    numpy.testing.assert_array_equal(gather(numpy, A, GOOD[0], mode="sorter"), A[GOOD[0]])
    for bad in BAD:
        kind, message = _numpy_error(lambda bad=bad: numpy.searchsorted(A, KEYS, sorter=bad))
        with pytest.raises(kind, match=f"^{re.escape(message)}$"):
            gather(numpy, A, bad, mode="sorter")


def test_sorter_mode_prints_and_parses_back():
    def fn(a, i):
        return [bind(s.gather_p, a, i, mode="sorter")]

    avals = [
        ShapedArray((5,), numpy.dtype(numpy.float64)),
        ShapedArray((5,), numpy.dtype(numpy.int64)),
    ]
    graph, _ = make_graph(fn, avals)
    text, _ = round_trip(graph)
    assert "mode='sorter'" in text
