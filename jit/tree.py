"""Pytrees: nested containers (tuple, list, dict, None, namedtuple, registered classes) of leaves.

flatten(tree) -> (leaves, treedef); unflatten(treedef, leaves) rebuilds it. A TreeDef is hashable and
compares structurally, so it can be part of a cache key.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple


class _NodeType(NamedTuple):
    to_children: Callable  # node -> (children, aux_data); aux_data must be hashable
    from_children: Callable  # (aux_data, children) -> node


_registry: dict[type, _NodeType] = {}


def register_pytree_node(cls: type, flatten_fn: Callable, unflatten_fn: Callable) -> None:
    """Make instances of `cls` pytree nodes, so transformations see through them.

    Parameters
    ----------
    cls : type
        The node class.
    flatten_fn : callable
        ``flatten_fn(node) -> (children, aux)``; aux must be hashable (it is part of cache
        keys).
    unflatten_fn : callable
        ``unflatten_fn(aux, children) -> node``.

    See Also
    --------
    jax.tree_util.register_pytree_node : the function mirrored.
    arraystack.tree_util.register_dataclass
    """
    _registry[cls] = _NodeType(flatten_fn, unflatten_fn)


def registered_node_types() -> tuple[type, ...]:
    """The classes registered as pytree nodes, in order of registration.

    Returns
    -------
    types : tuple of type
        The classes given to register_pytree_node or register_dataclass: what a reader of saved
        trees (arraystack.load_tree) resolves node names against.

    See Also
    --------
    register_pytree_node, register_dataclass
    """
    return tuple(_registry)


def register_dataclass(cls: type) -> type:
    """Register a dataclass as a pytree node whose fields are its children (usable as a decorator).

    Parameters
    ----------
    cls : type
        A dataclass.

    Returns
    -------
    type
        `cls` itself.

    See Also
    --------
    jax.tree_util.register_dataclass : the function mirrored (every field is a child, no meta
        fields).
    arraystack.tree_util.register_pytree_node

    Examples
    --------
    >>> import dataclasses
    >>> import arraystack as np
    >>> @np.tree_util.register_dataclass
    ... @dataclasses.dataclass
    ... class Point:
    ...     x: float
    ...     y: float
    >>> np.tree_util.leaves(Point(1.0, 2.0))
    [1.0, 2.0]
    """
    names = tuple(f.name for f in dataclasses.fields(cls))
    register_pytree_node(
        cls,
        lambda node: ([getattr(node, n) for n in names], None),
        lambda aux, children: cls(**dict(zip(names, children))),
    )
    return cls


register_pytree_node(tuple, lambda t: (list(t), None), lambda aux, c: tuple(c))
register_pytree_node(list, lambda t: (list(t), None), lambda aux, c: list(c))
register_pytree_node(
    dict,
    lambda d: ([d[k] for k in sorted(d)], tuple(sorted(d))),
    lambda keys, c: dict(zip(keys, c)),
)
register_pytree_node(type(None), lambda n: ([], None), lambda aux, c: None)


def _node_type(x):
    node = _registry.get(type(x))
    if node is not None:
        return node
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):  # namedtuple
        cls = type(x)
        return _NodeType(lambda t: (list(t), None), lambda aux, c, cls=cls: cls(*c))
    return None


@dataclasses.dataclass(frozen=True)
class TreeDef:
    """The structure of a pytree without its leaves: hashable and compared structurally.

    Parameters
    ----------
    node : type or None
        The node's type, or None for a leaf.
    aux : hashable
        The node's auxiliary data (a dict's sorted keys).
    children : tuple of TreeDef
        The children's structures.

    See Also
    --------
    jax.tree_util.PyTreeDef : the class mirrored.
    arraystack.tree_util.flatten, arraystack.tree_util.unflatten

    Notes
    -----
    Part of jit's cache keys: two trees with the same structure have equal TreeDefs.
    """

    node: Any  # the node's type, or None for a leaf
    aux: Any
    children: tuple

    @property
    def num_leaves(self) -> int:
        if self.node is None:
            return 1
        return sum(c.num_leaves for c in self.children)

    def __repr__(self):
        if self.node is None:
            return "*"
        inner = ", ".join(map(repr, self.children))
        return (
            f"{self.node.__name__}({inner})"
            if self.aux is None
            else f"{self.node.__name__}[{self.aux}]({inner})"
        )


_LEAF = TreeDef(None, None, ())


def flatten(tree: Any, is_leaf: Callable | None = None) -> tuple[list, TreeDef]:
    """Flatten a pytree into its leaves and its structure.

    Parameters
    ----------
    tree : pytree
        Nested tuples, lists, dicts, None, named tuples and registered classes; anything else is
        a leaf.
    is_leaf : callable, optional
        ``is_leaf(x) -> bool``: stop at `x` and treat it as a leaf.

    Returns
    -------
    tuple
        ``(leaves, treedef)``: leaves in order (dicts by sorted key), and the TreeDef that
        `unflatten` takes.

    See Also
    --------
    jax.tree_util.tree_flatten : the function mirrored.
    arraystack.tree_util.unflatten, arraystack.tree_util.leaves

    Examples
    --------
    >>> import arraystack as np
    >>> leaves, treedef = np.tree_util.flatten({'b': 2, 'a': (1, None)})
    >>> leaves, treedef
    ([1, 2], dict[('a', 'b')](tuple(*, NoneType()), *))
    """
    leaves: list = []
    treedef = _flatten(tree, leaves, is_leaf)
    return leaves, treedef


def _flatten(x, leaves, is_leaf):
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return _LEAF
    node = _node_type(x)
    if node is None:
        leaves.append(x)
        return _LEAF
    children, aux = node.to_children(x)
    return TreeDef(type(x), aux, tuple(_flatten(c, leaves, is_leaf) for c in children))


def unflatten(treedef: TreeDef, leaves: Iterable) -> Any:
    """Rebuild a pytree from its structure and leaves.

    Parameters
    ----------
    treedef : TreeDef
        From `flatten` or `structure`.
    leaves : iterable
        Exactly ``treedef.num_leaves`` leaves (ValueError otherwise).

    Returns
    -------
    pytree
        The rebuilt tree.

    See Also
    --------
    jax.tree_util.tree_unflatten : the function mirrored.
    arraystack.tree_util.flatten
    """
    it = iter(leaves)
    out = _unflatten(treedef, it)
    if next(it, _SENTINEL) is not _SENTINEL:
        raise ValueError("too many leaves for the tree structure")
    return out


_SENTINEL = object()


def _unflatten(treedef, it):
    if treedef.node is None:
        try:
            return next(it)
        except StopIteration:
            raise ValueError("too few leaves for the tree structure") from None
    children = [_unflatten(c, it) for c in treedef.children]
    node = _node_type_of_class(treedef.node)
    return node.from_children(treedef.aux, children)


def _node_type_of_class(cls):
    node = _registry.get(cls)
    if node is not None:
        return node
    return _NodeType(None, lambda aux, c: cls(*c))  # namedtuple


def tree_map(fn: Callable, tree: Any, *rest: Any, is_leaf: Callable | None = None) -> Any:
    """Apply `fn` to the leaves of one or more pytrees of the same structure.

    Parameters
    ----------
    fn : callable
        Called as ``fn(leaf, *corresponding_leaves_of_rest)``.
    tree : pytree
        Nested tuples, lists, dicts, None, named tuples and registered classes; anything else is
        a leaf.
    *rest : pytree
        Trees with `tree`'s structure (ValueError on a mismatch).
    is_leaf : callable, optional
        ``is_leaf(x) -> bool``: stop at `x` and treat it as a leaf.

    Returns
    -------
    pytree
        `tree`'s structure with ``fn``'s results as leaves.

    See Also
    --------
    jax.tree_util.tree_map : the function mirrored.
    arraystack.tree_util.flatten

    Examples
    --------
    >>> import arraystack as np
    >>> np.tree_util.tree_map(lambda a, b: a + b, {'w': 1, 'b': 2}, {'w': 10, 'b': 20})
    {'b': 22, 'w': 11}
    """
    leaves, treedef = flatten(tree, is_leaf)
    others = [flatten_up_to(treedef, r) for r in rest]
    return unflatten(treedef, [fn(*xs) for xs in zip(leaves, *others)])


def flatten_up_to(treedef: TreeDef, tree: Any) -> list:
    """Flatten `tree`, checking that its structure is `treedef`.

    Parameters
    ----------
    treedef : TreeDef
        The expected structure.
    tree : pytree
        Nested tuples, lists, dicts, None, named tuples and registered classes; anything else is
        a leaf.

    Returns
    -------
    list
        The leaves of `tree`; a ValueError names the mismatch otherwise.

    See Also
    --------
    jax.tree_util.PyTreeDef.flatten_up_to : the method mirrored (here only an equal structure is
        accepted).
    arraystack.tree_util.flatten
    """
    leaves, other = flatten(tree, is_leaf=None)
    if other != treedef:
        raise ValueError(f"pytree structure mismatch: expected {treedef!r}, got {other!r}")
    return leaves


def leaves(tree: Any) -> list:
    """Return the leaves of a pytree, in `flatten`'s order.

    Parameters
    ----------
    tree : pytree
        Nested tuples, lists, dicts, None, named tuples and registered classes; anything else is
        a leaf.

    Returns
    -------
    list
        The leaves.

    See Also
    --------
    jax.tree_util.tree_leaves : the function mirrored.
    arraystack.tree_util.flatten
    """
    return flatten(tree)[0]


def structure(tree: Any) -> TreeDef:
    """Return the structure of a pytree.

    Parameters
    ----------
    tree : pytree
        Nested tuples, lists, dicts, None, named tuples and registered classes; anything else is
        a leaf.

    Returns
    -------
    TreeDef
        The structure, without the leaves.

    See Also
    --------
    jax.tree_util.tree_structure : the function mirrored.
    arraystack.tree_util.flatten
    """
    return flatten(tree)[1]


_NO_INITIAL = object()


def tree_reduce(
    function: Callable, tree: Any, initializer: Any = _NO_INITIAL, is_leaf: Callable | None = None
) -> Any:
    """Reduce the leaves of a pytree with a function of two arguments, left to right.

    Parameters
    ----------
    function : callable
        ``function(accumulated, leaf)``.
    tree : pytree
        The tree whose leaves are reduced (in `flatten`'s order).
    initializer : optional
        The first accumulated value; without it the first leaf is, and a tree of no leaves raises
        TypeError (as functools.reduce does).
    is_leaf : callable, optional
        As in `flatten`.

    Returns
    -------
    object
        The reduced value.

    See Also
    --------
    jax.tree_util.tree_reduce : the function mirrored.
    """
    values = flatten(tree, is_leaf)[0]
    if initializer is _NO_INITIAL:
        return functools.reduce(function, values)
    return functools.reduce(function, values, initializer)


def tree_all(tree: Any, is_leaf: Callable | None = None) -> bool:
    """Whether every leaf of a pytree is true (True for a tree of no leaves).

    Parameters
    ----------
    tree : pytree
        The tree whose leaves are tested.
    is_leaf : callable, optional
        As in `flatten`.

    Returns
    -------
    bool
        Whether every leaf is true.

    See Also
    --------
    jax.tree_util.tree_all : the function mirrored.
    """
    return all(flatten(tree, is_leaf)[0])


# JAX's names for the functions above (jax.tree_util spells them with a tree_ prefix)
tree_flatten = flatten
tree_unflatten = unflatten
tree_leaves = leaves
tree_structure = structure
