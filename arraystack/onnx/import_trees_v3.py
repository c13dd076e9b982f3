"""ONNX-ML's older tree operators, TreeEnsembleRegressor and TreeEnsembleClassifier (ai.onnx.ml opsets 1-3,
what skl2onnx writes for scikit-learn's trees, forests and boosting), as import rules (convention:
interpreter.py), walked as import_trees.py walks TreeEnsemble.

Their nodes are (tree id, node id) pairs whose mode names the comparison ("BRANCH_LEQ", ...) or marks a
leaf ("LEAF"); a leaf adds its weights to targets or classes through the target_* / class_* lists. A NaN
feature goes the way `nodes_missing_value_tracks_true` says (false when it is unset), whatever the
comparison. The classifier's scores for a binary problem (one class column) follow onnx's reference: the
positive score is the sum, the negative 1 - it (without a transform or with PROBIT) or -it.
"""

from __future__ import annotations

import numpy

from arraystack.onnx.import_trees import Tree, depth_of, post_transform, walk

_MODES = {"BRANCH_LEQ": 0, "BRANCH_LT": 1, "BRANCH_GTE": 2, "BRANCH_GT": 3}
_MODES.update({"BRANCH_EQ": 4, "BRANCH_NEQ": 5, "LEAF": -1})


def _floats(node, name, dtype):
    value = node.attr(f"{name}_as_tensor")
    value = node.attr(name) if value is None else value
    return None if value is None else numpy.asarray(value, dtype).reshape(-1)


def _ensemble(node, dtype):
    """(Tree, roots, single, depth, index of (tree, node)) of the older operators' attributes."""
    trees = numpy.asarray(node.attr("nodes_treeids"), numpy.int64)
    ids = numpy.asarray(node.attr("nodes_nodeids"), numpy.int64)
    index = {(int(t), int(n)): k for k, (t, n) in enumerate(zip(trees, ids))}
    names = node.attr("nodes_modes")
    unknown = sorted({m for m in names if m not in _MODES})
    if unknown:
        raise node.error(f"node modes {unknown} are not known (BRANCH_MEMBER is not supported)")
    modes = numpy.array([_MODES[m] for m in names], numpy.int64)
    leaf = modes == -1

    def child(name):
        return numpy.array(
            [index.get((int(t), int(c)), k) if not leaf[k] else k
             for k, (t, c) in enumerate(zip(trees, node.attr(name)))],
            numpy.int64,
        )  # fmt: skip

    true_ids, false_ids = child("nodes_truenodeids"), child("nodes_falsenodeids")
    missing = node.attr("nodes_missing_value_tracks_true")
    missing = numpy.zeros(len(modes), bool) if missing is None else numpy.asarray(missing, bool)
    tree = Tree(
        modes=numpy.maximum(modes, 0),
        splits=_floats(node, "nodes_values", dtype),
        features=numpy.asarray(node.attr("nodes_featureids"), numpy.int64),
        true_ids=true_ids,
        false_ids=false_ids,
        true_leaf=leaf[true_ids],
        false_leaf=leaf[false_ids],
        missing=missing,
        table=numpy.full((len(modes), 1), numpy.nan, dtype),
    )
    roots = numpy.array([min(numpy.flatnonzero(trees == t)) for t in sorted(set(trees.tolist()))])
    single = leaf[roots]
    depth = max(
        (0 if s else depth_of(r, False, true_ids, false_ids, leaf[true_ids], leaf[false_ids]))
        for r, s in zip(roots, single)
    )
    return tree, roots, single, depth, index


def _contributions(node, prefix, index, size, width, dtype):
    """(sum, low, high, present): per node and output column, the summed, least and greatest weight the
    leaf adds, and whether it adds any."""
    total = numpy.zeros((size, width), dtype)
    low = numpy.full((size, width), numpy.inf, dtype)
    high = numpy.full((size, width), -numpy.inf, dtype)
    present = numpy.zeros((size, width), bool)
    weights = _floats(node, f"{prefix}_weights", dtype)
    columns = node.attr(f"{prefix}_ids")
    pairs = zip(node.attr(f"{prefix}_treeids"), node.attr(f"{prefix}_nodeids"))
    for (t, n), column, w in zip(pairs, columns, weights):
        k = index[(int(t), int(n))]
        total[k, column] += w
        low[k, column] = min(low[k, column], w)
        high[k, column] = max(high[k, column], w)
        present[k, column] = True
    return total, low, high, present


def _tree_ensemble_regressor(xp, node, x):
    import arraystack as ast

    dtype = numpy.dtype(x.dtype)
    tree, roots, single, depth, index = _ensemble(node, dtype)
    n_targets = int(node.attr("n_targets"))
    total, low, high, present = _contributions(
        node, "target", index, len(tree.modes), n_targets, dtype
    )
    at = walk(ast, x, tree, roots, single, depth, nan_follows_flag=True)
    aggregate = node.attr("aggregate_function", "SUM")
    if aggregate in ("SUM", "AVERAGE"):
        out = ast.sum(ast.asarray(total)[at], axis=1)
        if aggregate == "AVERAGE":
            out = out / ast.asarray(len(roots), dtype=dtype)
    elif aggregate in ("MIN", "MAX"):
        info = numpy.finfo(dtype)
        fill = ast.asarray(info.max if aggregate == "MIN" else info.min, dtype=dtype)
        values = ast.where(
            ast.asarray(present)[at], ast.asarray(low if aggregate == "MIN" else high)[at], fill
        )
        out = ast.min(values, axis=1) if aggregate == "MIN" else ast.max(values, axis=1)
    else:
        raise node.error(f"aggregate_function {aggregate!r} is not one of SUM, AVERAGE, MIN, MAX")
    base = _floats(node, "base_values", dtype)
    if base is not None:
        out = out + ast.asarray(base)
    return post_transform(ast, node, out)


def _tree_ensemble_classifier(xp, node, x):
    import arraystack as ast

    dtype = numpy.dtype(x.dtype)
    tree, roots, single, depth, index = _ensemble(node, dtype)
    labels = node.attr("classlabels_int64s")
    labels = numpy.asarray(labels if labels is not None else node.attr("classlabels_strings"))
    classes = len(labels)
    total, _, _, _ = _contributions(node, "class", index, len(tree.modes), classes, numpy.float32)
    at = walk(ast, x, tree, roots, single, depth, nan_follows_flag=True)
    scores = ast.sum(ast.asarray(total)[at], axis=1)  # (N, classes) float32
    base = _floats(node, "base_values", numpy.float32)
    if base is not None:
        scores = scores + ast.asarray(base)
    transform = node.attr("post_transform", "NONE")
    if len(set(node.attr("class_ids"))) == 1:  # binary: one column of scores
        positive = scores[:, :1] if classes > 1 else scores
        negative = 1 - positive if transform in ("NONE", "PROBIT") else -positive
        scores = ast.concatenate([negative, positive, scores[:, 2:]], axis=1)
    scores = post_transform(ast, node, scores)
    best = ast.argmax(scores, axis=1)
    if labels.dtype.kind in "iu":
        if classes == 1:  # onnx's reference: the one label is 1
            picked = ast.where(best == 1, 1, 0).astype(numpy.int64)
        else:
            picked = ast.asarray(labels.astype(numpy.int64))[best]
    else:  # strings: a host dtype, eagerly
        picked = labels.astype(object)[numpy.asarray(best)]
    return picked, scores


tree_v3_rules = {
    "TreeEnsembleRegressor": _tree_ensemble_regressor,
    "TreeEnsembleClassifier": _tree_ensemble_classifier,
}

__all__ = ["tree_v3_rules"]
