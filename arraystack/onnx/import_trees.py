"""ONNX-ML's TreeEnsemble (ai.onnx.ml opset 5) as an import rule (convention: interpreter.py): every tree
walked at once, one level per step (see import_ml.py), then the leaves aggregated per target and the
post transform applied. Node modes: 0 <=, 1 <, 2 >=, 3 >, 4 ==, 5 !=, 6 membership in a set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy

_NONE, _SOFTMAX, _LOGISTIC, _SOFTMAX_ZERO, _PROBIT = range(5)


def _flat(node, name, dtype=None):
    value = node.attr(name)
    return None if value is None else numpy.asarray(value, dtype).reshape(-1)


def depth_of(start, leaf, true_ids, false_ids, true_leaf, false_leaf):
    """The number of decisions from node `start` to its deepest leaf."""
    if leaf:
        return 0
    return 1 + max(
        depth_of(true_ids[start], true_leaf[start], true_ids, false_ids, true_leaf, false_leaf),
        depth_of(false_ids[start], false_leaf[start], true_ids, false_ids, true_leaf, false_leaf),
    )


def _members(node, modes):
    """(nodes, width) table of each membership node's set, NaN-padded (other rows all NaN)."""
    values = _flat(node, "membership_values", numpy.float64)
    sets, current = [], []
    for v in values if values is not None else []:
        if numpy.isnan(v):
            sets.append(current)
            current = []
        else:
            current.append(v)
    if current:
        sets.append(current)
    member_nodes = numpy.flatnonzero(modes == 6)
    if len(sets) != len(member_nodes):
        raise node.error(f"{len(member_nodes)} membership nodes, {len(sets)} sets of members")
    table = numpy.full((len(modes), max([len(s) for s in sets] + [1])), numpy.nan)
    for k, s in zip(member_nodes, sets):
        table[k, : len(s)] = s
    return table


@dataclass
class Tree:
    """An ensemble's nodes, one entry per node: mode (0-6), split, feature tested, true and false child
    (a node or a leaf index), whether each child is a leaf, whether NaN goes true, membership sets."""

    modes: numpy.ndarray
    splits: numpy.ndarray
    features: numpy.ndarray
    true_ids: numpy.ndarray
    false_ids: numpy.ndarray
    true_leaf: numpy.ndarray
    false_leaf: numpy.ndarray
    missing: numpy.ndarray
    table: numpy.ndarray


def walk(xp, x, tree, start, single, depth, nan_follows_flag):
    """The leaf each sample reaches in each tree, (N, trees): from the nodes `start` (a tree that is a
    leaf, `single`, starts there), `depth` levels at most. A NaN feature goes true when the node's
    missing flag says so; with `nan_follows_flag` (the older operators) it goes false otherwise, else
    the comparison decides."""
    batch = numpy.shape(x)[0]
    at = xp.broadcast_to(xp.asarray(start), (batch, len(start)))
    done = xp.broadcast_to(xp.asarray(single), (batch, len(start)))
    for _ in range(depth):
        node_at = xp.where(done, 0, at)  # a leaf's index is no node's: read node 0, keep the leaf
        value = xp.take_along_axis(x, xp.asarray(tree.features)[node_at], axis=1)
        split = xp.asarray(tree.splits)[node_at]
        mode = xp.asarray(tree.modes)[node_at]
        tests = [value <= split, value < split, value >= split, value > split]
        tests += [value == split, value != split]
        tests.append(xp.any(value[..., None] == xp.asarray(tree.table)[node_at], axis=-1))
        go = tests[6]
        for k in range(5, -1, -1):
            go = xp.where(mode == k, tests[k], go)
        missing = xp.asarray(tree.missing)[node_at]
        if nan_follows_flag:
            go = xp.where(xp.isnan(value), missing, go)
        else:
            go = go | (xp.isnan(value) & missing)
        following = xp.where(
            go, xp.asarray(tree.true_ids)[node_at], xp.asarray(tree.false_ids)[node_at]
        )
        reached = xp.where(
            go, xp.asarray(tree.true_leaf)[node_at], xp.asarray(tree.false_leaf)[node_at]
        )
        at = xp.where(done, at, following)
        done = done | reached
    return at


def tree_ensemble(xp, node, x):
    """TreeEnsemble: the aggregated, post-transformed leaf weights (N, n_targets) of x (N, features)."""
    import arraystack as ast

    xp = ast
    dtype = numpy.dtype(x.dtype)
    modes = _flat(node, "nodes_modes", numpy.int64)
    splits = _flat(node, "nodes_splits", dtype)
    features = _flat(node, "nodes_featureids", numpy.int64)
    true_ids, false_ids = (
        _flat(node, "nodes_truenodeids", numpy.int64),
        _flat(node, "nodes_falsenodeids", numpy.int64),
    )
    true_leaf, false_leaf = (
        _flat(node, "nodes_trueleafs", bool),
        _flat(node, "nodes_falseleafs", bool),
    )
    missing = _flat(node, "nodes_missing_value_tracks_true", bool)
    missing = numpy.zeros(len(modes), bool) if missing is None else missing
    weights = _flat(node, "leaf_weights", dtype)
    targets = _flat(node, "leaf_targetids", numpy.int64)
    roots = _flat(node, "tree_roots", numpy.int64)
    n_targets = int(node.attr("n_targets"))
    if splits is None:
        splits = numpy.zeros(len(modes), dtype)
    table = _members(node, modes).astype(dtype)
    # a tree that is one leaf: a root whose branches are the same leaf
    single = true_leaf[roots] & false_leaf[roots] & (true_ids[roots] == false_ids[roots])
    index = numpy.where(single, true_ids[roots], roots)
    depth = max(
        (0 if s else depth_of(r, False, true_ids, false_ids, true_leaf, false_leaf))
        for r, s in zip(roots, single)
    )
    tree = Tree(modes, splits, features, true_ids, false_ids, true_leaf, false_leaf, missing, table)
    at = walk(xp, x, tree, index, single, depth, nan_follows_flag=False)
    w = xp.asarray(weights)[at]  # (N, trees)
    hot = xp.asarray(targets)[at][..., None] == xp.arange(n_targets)  # (N, trees, targets)
    aggregate = node.attr("aggregate_function", 1)
    if aggregate in (0, 1):
        out = xp.sum(xp.where(hot, w[..., None], xp.zeros((), dtype)), axis=1)
        if aggregate == 0:
            out = out / xp.asarray(len(roots), dtype=dtype)
    elif aggregate in (2, 3):
        info = numpy.finfo(dtype)
        fill = info.max if aggregate == 2 else info.min
        spread = xp.where(hot, w[..., None], xp.asarray(fill, dtype=dtype))
        out = xp.min(spread, axis=1) if aggregate == 2 else xp.max(spread, axis=1)
    else:
        raise node.error(f"aggregate_function {aggregate} is not one of 0 to 3")
    return post_transform(xp, node, out)


_TRANSFORMS = {"NONE": _NONE, "SOFTMAX": _SOFTMAX, "LOGISTIC": _LOGISTIC}
_TRANSFORMS.update({"SOFTMAX_ZERO": _SOFTMAX_ZERO, "PROBIT": _PROBIT})


def post_transform(xp, node, out):
    """out transformed as the node's post_transform says (by number, or by name in the older
    operators)."""
    transform = node.attr("post_transform", _NONE)
    transform = _TRANSFORMS.get(transform, transform)
    if transform == _NONE:
        return out
    if transform == _LOGISTIC:
        return 1 / (1 + xp.exp(-out))
    if transform in (_SOFTMAX, _SOFTMAX_ZERO):
        e = xp.exp(out - xp.max(out, axis=-1, keepdims=True))
        if transform == _SOFTMAX_ZERO:  # zeros stay zero
            e = xp.where(out == 0, 0, e)
        total = xp.sum(e, axis=-1, keepdims=True)
        return e / xp.where(total == 0, 1, total)
    if transform == _PROBIT:
        # Note: sqrt(2) erfinv(2 x - 1) as ONNX defines it, to float32's rounding; onnx's reference and
        # onnxruntime evaluate a closed-form approximation of erfinv, off by up to 2e-3 of the value
        from arraystack.scipy.special import ndtri

        return ndtri(out).astype(out.dtype)
    raise node.error(f"post_transform {transform} is not one of 0 to 4")


__all__ = ["Tree", "depth_of", "post_transform", "tree_ensemble", "walk"]
