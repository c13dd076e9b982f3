"""Splitting a model's tree by a filter (Equinox's partition/combine), for freezing parameters, and
counting parameters.

`partition(tree, spec)` returns two trees of the same structure, each with None where the other has
a leaf; `grad` differentiates the first, and `combine` puts them back together inside the loss.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack.ir import tree as tree_util
from arraystack.nn.module import Module, is_array

if TYPE_CHECKING:
    from arraystack.typing import PyTree


def _is_none(x) -> bool:
    return x is None


def _one_level(x):
    """x's children and x's one-level structure (its children as leaves)."""
    return tree_util.flatten(x, is_leaf=lambda y: y is not x)


def _mask(spec, x, path):
    """A tree of x's structure with a bool at each leaf: spec is a bool or a callable applied to
    every leaf below it, or a node of x's structure holding more specs (a prefix of x)."""
    if isinstance(spec, bool | np.bool_):
        return tree_util.tree_map(lambda _: bool(spec), x)
    if callable(spec) and not isinstance(spec, Module):
        return tree_util.tree_map(lambda leaf: bool(spec(leaf)), x)
    spec_children, spec_def = _one_level(spec)
    children, x_def = _one_level(x)
    if spec_def.node is None:
        raise TypeError(
            f"filter_spec at {path or 'the root'} is a {type(spec).__name__}; its leaves must be "
            "bools or callables (leaf -> bool)"
        )
    if spec_def != x_def:
        raise ValueError(
            f"filter_spec at {path or 'the root'} has structure {spec_def!r}, the tree "
            f"{x_def!r}: a filter spec is a prefix of the tree, with bools or callables as leaves"
        )
    return tree_util.unflatten(
        x_def,
        [_mask(s, c, f"{path}[{i}]") for i, (s, c) in enumerate(zip(spec_children, children))],
    )


def partition(tree: PyTree, filter_spec: Any) -> tuple[PyTree, PyTree]:
    """Split a tree in two by a filter: the leaves it selects, and the others.

    Parameters
    ----------
    tree : pytree
        A module or any pytree.
    filter_spec : bool, callable or pytree
        A callable ``leaf -> bool`` (is_inexact_array), a bool, or a prefix of `tree` whose leaves
        are those (a tree of bools from ``tree_map(lambda _: False, model)`` with
        ``.replace(...)`` of the parts to select).

    Returns
    -------
    tuple
        ``(selected, rest)``: two trees of `tree`'s structure with None in place of the leaves
        of the other.

    See Also
    --------
    equinox.partition : the function mirrored.
    arraystack.nn.combine, arraystack.nn.is_inexact_array

    Notes
    -----
    Freezing: differentiate the selected part only, and combine inside the loss::

        trainable, frozen = nn.partition(model, spec)
        def loss(trainable, frozen, x, y):
            model = nn.combine(trainable, frozen)
            return ...
        grads = arraystack.grad(loss)(trainable, frozen, x, y)

    None holds no leaves, so grad, jit and optim's init/update skip the frozen positions; with
    ``grad(loss, has_aux=True)`` the loss may return ``(value, aux)`` (a BatchNorm state, metrics).

    Examples
    --------
    >>> import arraystack as np
    >>> np.nn.partition({'w': np.ones(2), 'step': np.asarray(3)}, np.nn.is_inexact_array)
    ({'step': None, 'w': array([1., 1.])}, {'step': array(3), 'w': None})
    """
    mask = _mask(filter_spec, tree, "")
    leaves, treedef = tree_util.flatten(tree)
    flags = tree_util.flatten_up_to(treedef, mask)
    selected = [leaf if flag else None for leaf, flag in zip(leaves, flags)]
    rest = [None if flag else leaf for leaf, flag in zip(leaves, flags)]
    return tree_util.unflatten(treedef, selected), tree_util.unflatten(treedef, rest)


def combine(*trees: PyTree) -> PyTree:
    """Merge trees of one structure: at each leaf, the first that is not None.

    Parameters
    ----------
    *trees : pytree
        Trees from `partition` (None marks a leaf held by another tree).

    Returns
    -------
    pytree
        The merged tree.

    See Also
    --------
    equinox.combine : the function mirrored.
    arraystack.nn.partition
    """
    if not trees:
        raise TypeError("combine() needs at least one tree")
    flat = [tree_util.flatten(t, is_leaf=_is_none) for t in trees]
    treedef = flat[0][1]
    for i, (_, other) in enumerate(flat[1:], 1):
        if other != treedef:
            raise ValueError(
                f"combine: tree {i} has structure {other!r}, tree 0 {treedef!r}; combine takes "
                "the trees of one partition"
            )
    columns = zip(*(leaves for leaves, _ in flat))
    merged = [next((x for x in column if x is not None), None) for column in columns]
    return tree_util.unflatten(treedef, merged)


def count_params(tree: PyTree) -> int:
    """Count the elements of the arrays in a tree (a model's parameter count).

    Parameters
    ----------
    tree : pytree
        A module, a dict of parameters, or any pytree; leaves that are not arrays count nothing.

    Returns
    -------
    int
        The sum of the array leaves' sizes.

    See Also
    --------
    torch.nn.Module.parameters : counted in PyTorch as ``sum(p.numel() for p in m.parameters())``.
    arraystack.nn.partition

    Notes
    -----
    BatchNorm's running statistics live in its state, not in the module, so they are not counted
    (as PyTorch counts no buffers). Count the trainable part with
    ``count_params(partition(model, spec)[0])``.

    Examples
    --------
    >>> import arraystack as np
    >>> np.nn.count_params(np.nn.Linear(3, 2, key=np.prng.key(0)))
    8
    """
    return sum(int(np.prod(leaf.shape)) for leaf in tree_util.leaves(tree) if is_array(leaf))


__all__ = ["combine", "count_params", "partition"]
