"""Derivatives of the sorting primitives and of the selection/set functions built on them, against finite
differences (check_grads), and their vmap rules against a Python loop."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.ad import batch_rules, jvp_rules, vjp_rules
from arraystack.ir.ad.rules_sorting import not_differentiable
from arraystack.ir.sorting import argpartition_p, partition_p, searchsorted_p, sort_p

import arraystack as ast

RNG = numpy.random.default_rng(0)
X = RNG.standard_normal((4, 5))  # distinct values: sorting is differentiable there


def test_every_sorting_primitive_has_rules():
    for prim in (sort_p, partition_p, argpartition_p, searchsorted_p):
        assert prim in batch_rules
        assert prim in not_differentiable or (prim in jvp_rules and prim in vjp_rules)


@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort(check_grads, axis):
    check_grads(
        lambda x: (
            ast.sort(x, axis=axis)
            * ast.arange(1.0, 1.0 + x.size).reshape((x.size,) if axis is None else x.shape)
        ),
        [X],
    )


def test_sort_second_order_and_jit(check_grads):
    check_grads(lambda x: ast.sort(x, axis=0) ** 3, [X], order=2)
    check_grads(lambda x: ast.sort(x, kind="stable") * x, [X], jit=True)


def test_sort_of_complex(check_grads):
    z = X + 1j * RNG.standard_normal(X.shape)
    check_grads(lambda z: ast.sort(z) * (1 + 2j), [z])


def test_take_along_argsort_and_lexsort_order(check_grads):
    k = numpy.array([2, 0, 1, 0, 2])
    check_grads(lambda x: ast.take_along_axis(x, ast.argsort(x, axis=0), axis=0) ** 2, [X])
    check_grads(lambda x: x[:, ast.lexsort((x[0], k))], [X])


@pytest.mark.parametrize("kth", [2, (0, 3), -1])
def test_partition(check_grads, kth):
    check_grads(lambda x: ast.partition(x, kth) * ast.arange(1.0, 6.0), [X])
    check_grads(lambda x: ast.partition(x, 1, axis=0) ** 2, [X], jit=True)


def test_selection_functions(check_grads):
    idx = numpy.array([[0, 2], [1, 1]])
    check_grads(lambda x: ast.take(x, idx, axis=1), [X])
    check_grads(lambda x: ast.choose(numpy.array([0, 1, 1, 0, 1]), [x[0], x[1] ** 2]), [X])
    check_grads(lambda x: ast.select([x > 0, x < -1], [x**2, -x], default=1.0), [X])
    check_grads(lambda x: ast.diagonal(x, 1) * ast.trace(x), [X])
    check_grads(lambda x: ast.compress([True, False, True, True], x, axis=0), [X])

    def put_into(x):
        y = x * 1.0
        ast.put(y, [0, 7, 3], x[1, :3] ** 2)
        return y

    check_grads(put_into, [X])


def test_unique_values_and_size(check_grads):
    # duplicates made inside the function stay duplicates under the finite-difference perturbation
    v = numpy.array([3.0, 1.0, 2.0, 5.0])
    check_grads(lambda v: ast.unique(ast.concatenate([v, v[::-1]])) ** 2, [v])
    check_grads(
        lambda v: ast.unique(ast.concatenate([v, v[:2]]), size=6, fill_value=0.0) ** 2,
        [v],
        jit=True,
    )


def test_vmap_of_sort_matches_a_loop():
    xs = RNG.standard_normal((3, 4, 5))
    got = ast.vmap(lambda x: ast.sort(x, axis=0))(ast.asarray(xs))
    numpy.testing.assert_array_equal(
        numpy.asarray(got), numpy.stack([numpy.sort(x, axis=0) for x in xs])
    )
    # an unbatched key with a batched operand: every example is ordered by the same key
    grads = ast.vmap(ast.grad(lambda x: (ast.sort(x) * ast.arange(5.0)).sum()))(ast.asarray(xs[0]))
    expect = numpy.stack([numpy.arange(5.0)[numpy.argsort(numpy.argsort(r))] for r in xs[0]])
    numpy.testing.assert_allclose(numpy.asarray(grads), expect)
