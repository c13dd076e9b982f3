"""arraystack.tree_util under JAX's names: tree_flatten, tree_unflatten, tree_leaves, tree_structure,
tree_map, tree_reduce and tree_all, on nested containers and registered classes."""

from __future__ import annotations

import operator
from collections import namedtuple

import pytest

import arraystack

tu = arraystack.tree_util
Point = namedtuple("Point", "x y")
TREE = {"b": [1, (2, None)], "a": Point(3, 4), "c": 5}


def test_jax_names_are_the_functions():
    assert tu.tree_flatten is tu.flatten and tu.tree_unflatten is tu.unflatten
    assert tu.tree_leaves is tu.leaves and tu.tree_structure is tu.structure


def test_flatten_round_trips_in_key_order():
    leaves, treedef = tu.tree_flatten(TREE)
    assert leaves == [3, 4, 1, 2, 5]  # dict keys sorted, None is no leaf
    assert tu.tree_unflatten(treedef, leaves) == TREE
    assert tu.tree_structure(TREE) == treedef and tu.tree_leaves(TREE) == leaves
    assert tu.tree_map(lambda v: v * 10, TREE)["a"] == Point(30, 40)


def test_tree_reduce_and_tree_all():
    assert tu.tree_reduce(operator.add, TREE) == 15
    assert tu.tree_reduce(lambda acc, v: acc + [v], TREE, []) == [3, 4, 1, 2, 5]
    assert tu.tree_reduce(operator.add, {"x": [1, 2]}, is_leaf=lambda n: isinstance(n, list)) == [
        1,
        2,
    ]
    with pytest.raises(TypeError):
        tu.tree_reduce(operator.add, [])
    assert tu.tree_all([True, {"k": 1}]) and not tu.tree_all([True, (0,)]) and tu.tree_all([])
    arrays = {"w": arraystack.ones(3), "b": arraystack.zeros(2)}
    total = tu.tree_reduce(lambda s, leaf: s + leaf.sum(), arrays, 0.0)
    assert float(total) == 3.0
