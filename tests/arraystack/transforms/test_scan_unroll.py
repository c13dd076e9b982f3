"""scan(unroll=) and fori_loop(unroll=), as jax.lax's: the same values as the rolled loop (the same
calls of the body in the same order), eagerly, under jit and under grad, with a block of leftover
iterations and in reverse; the recorded loop holds that many copies of the body."""

from __future__ import annotations

import numpy
import pytest

import arraystack as np


def body(carry, x):
    c, total = carry
    c = c * 0.5 + x["a"] * x["b"].sum()
    return (c, total + c), {"c": c, "v": x["b"] * c}


def run(xs, unroll, reverse):
    return np.scan(body, (np.asarray(1.0), np.asarray(0.0)), xs, reverse=reverse, unroll=unroll)


XS = {"a": numpy.linspace(-1.0, 2.0, 7), "b": numpy.arange(14.0).reshape(7, 2)}


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("unroll", [2, 3, 7, 9, True, False])
def test_scan_unroll_gives_the_rolled_values(unroll, reverse):
    expected = np.tree_util.tree_leaves(run(XS, 1, reverse))
    for got in (run(XS, unroll, reverse), np.jit(run, static_argnums=(1, 2))(XS, unroll, reverse)):
        leaves = np.tree_util.tree_leaves(got)
        assert len(leaves) == len(expected)
        for g, e in zip(leaves, expected):
            numpy.testing.assert_array_equal(numpy.asarray(g), numpy.asarray(e))


def test_scan_unroll_under_grad_and_without_xs():
    def loss(a, unroll):
        (_, total), ys = run({"a": a, "b": XS["b"]}, unroll, False)
        return total + ys["c"].sum()

    a = XS["a"]
    numpy.testing.assert_allclose(np.grad(loss)(a, 3), np.grad(loss)(a, 1), rtol=1e-15)
    carry, ys = np.scan(lambda c, _: (c + 1, c * 2), 0, None, length=5, unroll=2)
    assert int(carry) == 5
    numpy.testing.assert_array_equal(ys, [0, 2, 4, 6, 8])


def test_the_recorded_loop_holds_unroll_copies_of_the_body():
    def f(xs, unroll):
        return np.scan(lambda c, x: (np.sin(c) + x, c), 0.0, xs, unroll=unroll)[0]

    xs = numpy.arange(8.0)
    for unroll, copies in [(1, 1), (4, 4), (True, 8)]:
        text = np.jit(f, static_argnums=1).lower(xs, unroll).as_text()
        assert text.split("# after passes")[0].count("= sin ") == copies


def test_fori_loop_unroll():
    def f(x, unroll):
        return np.fori_loop(1, 10, lambda i, v: v * 0.75 + i, x, unroll=unroll)

    expected = f(numpy.asarray(0.5), None)
    for unroll in (2, 4, True):
        assert float(np.jit(f, static_argnums=1)(numpy.asarray(0.5), unroll)) == float(expected)
    with pytest.raises(ValueError, match="positive int"):
        np.fori_loop(0, 3, lambda i, v: v + i, 0, unroll=0)
    with pytest.raises(ValueError, match="known while tracing"):
        np.jit(lambda n: np.fori_loop(0, n, lambda i, v: v + i, 0, unroll=2))(3)


@pytest.mark.parametrize("unroll", [0, -1, 1.5])
def test_scan_unroll_must_be_a_positive_int_or_a_bool(unroll):
    with pytest.raises(ValueError, match="positive int"):
        np.scan(lambda c, x: (c + x, c), 0.0, numpy.arange(3.0), unroll=unroll)
