"""Import rules of operators of the ONNX-ML domain "ai.onnx.ml" (convention: interpreter.py): Binarizer,
ArrayFeatureExtractor, LabelEncoder, TreeEnsemble (opset 5's single tree operator, import_trees.py) and
the older TreeEnsembleRegressor and TreeEnsembleClassifier (import_trees_v3.py), Scaler, Normalizer,
LinearRegressor and LinearClassifier, and the preprocessing operators and ZipMap
(import_ml_preprocess.py): what skl2onnx writes for scikit-learn's pipelines.

TreeEnsemble walks every tree of the ensemble at once, one level per step, for as many steps as the
deepest tree has levels (known from the attributes): each step gathers the feature each sample's node
tests, compares it by the node's mode (a NaN goes the way `nodes_missing_value_tracks_true` says) and
moves to the chosen child; the leaves' weights are then summed, averaged or reduced per target. It is
gathers and selects, so it runs under jit. LabelEncoder of numbers is a search in the sorted keys (also
under jit); of strings it runs eagerly (a host dtype).
"""

from __future__ import annotations

import numpy

from arraystack.onnx.import_ml_preprocess import preprocess_rules
from arraystack.onnx.import_trees import post_transform, tree_ensemble
from arraystack.onnx.import_trees_v3 import tree_v3_rules

ml_rules: dict = {}


def _binarizer(xp, node, x):
    threshold = node.attr("threshold", 0.0)
    return xp.where(x > xp.asarray(threshold, dtype=x.dtype), 1, 0).astype(x.dtype)


def _array_feature_extractor(xp, node, x, indices):
    index = node.ints(indices, "indices")
    if numpy.ndim(x) == 1:
        return xp.reshape(xp.take(x, numpy.asarray(index), axis=0), (1, len(index)))
    return xp.take(x, numpy.asarray(index), axis=-1)


def _label_table(node):
    """(keys, values, default) as NumPy arrays from LabelEncoder's attributes (opset 2's lists or
    opset 4's tensors)."""
    keys = next(
        (node.attr(k) for k in ("keys_tensor", "keys_floats", "keys_int64s", "keys_strings")
         if node.attr(k) is not None),
        None,
    )  # fmt: skip
    for name, kind in (("tensor", None), ("floats", numpy.float32), ("int64s", numpy.int64),
                       ("strings", object)):  # fmt: skip
        values = node.attr(f"values_{name}")
        if values is None:
            continue
        values = numpy.asarray(values, kind)
        if name == "tensor":
            default = node.attr("default_tensor")
            if default is None:
                default = {"O": "_Unused", "U": "_Unused", "f": -0.0}.get(values.dtype.kind, -1)
        else:
            default = node.attr(f"default_{name[:-1]}")
            if default is None:
                default = {"floats": -0.0, "int64s": -1, "strings": "_Unused"}[name]
        return numpy.asarray(keys), values, numpy.asarray(default, values.dtype).reshape(())
    raise node.error("has no values_* attribute")


def _label_encoder(xp, node, x):
    keys, values, default = _label_table(node)
    if values.dtype.kind in "OUS":
        values = values.astype(object)
    if keys.dtype.kind in "OUS" or values.dtype == object or numpy.dtype(x.dtype).kind in "OUST":
        table = dict(zip(keys.tolist(), values.tolist()))  # strings: NumPy, eagerly
        flat = [table.get(k, default.item()) for k in numpy.asarray(x).reshape(-1).tolist()]
        return numpy.asarray(flat, values.dtype).reshape(numpy.shape(x))
    keys = keys.astype(numpy.dtype(x.dtype))
    order = numpy.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    where = xp.clip(xp.searchsorted(xp.asarray(keys), x), 0, max(len(keys) - 1, 0))
    found = xp.asarray(keys)[where]
    hit = (found == x) | (xp.isnan(found) & xp.isnan(x)) if keys.dtype.kind == "f" else found == x
    return xp.where(hit, xp.asarray(values)[where], xp.asarray(default))


def _scaler(xp, node, x):
    offset = numpy.asarray(node.attr("offset", [0.0]), numpy.float32)
    scale = numpy.asarray(node.attr("scale", [1.0]), numpy.float32)
    return ((x - xp.asarray(offset)) * xp.asarray(scale)).astype(x.dtype)


def _normalizer(xp, node, x):
    norm = node.attr("norm", "MAX")
    if norm == "MAX":
        size = xp.max(xp.abs(x), axis=1, keepdims=True)
    elif norm == "L1":
        size = xp.sum(xp.abs(x), axis=1, keepdims=True)
    elif norm == "L2":
        size = xp.sqrt(xp.sum(x * x, axis=1, keepdims=True))
    else:
        raise node.error(f"norm {norm!r} is not one of MAX, L1, L2")
    return x / xp.maximum(size, xp.asarray(1e-30, dtype=x.dtype))


def _linear_scores(xp, node, x, rows):
    """x @ coefficients^T + intercepts, the coefficients `rows` rows (targets or classes) of x's width;
    float32 unless x is float64."""
    dtype = numpy.float64 if numpy.dtype(x.dtype) == numpy.float64 else numpy.float32
    x = x.astype(dtype)
    width = numpy.shape(x)[1]
    coefficients = numpy.asarray(node.attr("coefficients"), dtype).reshape(rows or -1, width)
    scores = xp.matmul(x, xp.asarray(coefficients.T))
    intercepts = node.attr("intercepts")
    if intercepts is not None:
        scores = scores + xp.asarray(numpy.asarray(intercepts, dtype))
    return scores


def _linear_regressor(xp, node, x):
    scores = _linear_scores(xp, node, x, int(node.attr("targets", 1)))
    return post_transform(xp, node, scores)


def _linear_classifier(xp, node, x):
    """(labels, scores): one column of scores for two classes becomes (-s, s), as onnx's reference."""
    labels = node.attr("classlabels_ints")
    labels = numpy.asarray(labels if labels is not None else node.attr("classlabels_strings", []))
    scores = _linear_scores(xp, node, x, None)
    if numpy.shape(scores)[1] == 1 and len(labels) == 2:
        scores = xp.concatenate([-scores, scores], axis=1)
    scores = post_transform(xp, node, scores)
    if numpy.shape(scores)[1] == 1:
        threshold = 0 if node.attr("post_transform", "NONE") == "NONE" else 0.5
        chosen = scores[:, 0] >= threshold
        first = labels[0] if len(labels) else 1
        if labels.dtype.kind in "iu" or not len(labels):
            return xp.where(chosen, int(first), 0).astype(numpy.int64), scores
        return numpy.where(numpy.asarray(chosen), first, "").astype(object), scores
    best = xp.argmax(scores, axis=1)
    if labels.dtype.kind in "iu":
        return xp.asarray(labels.astype(numpy.int64))[best], scores
    return labels.astype(object)[numpy.asarray(best)], scores  # strings: eagerly


ml_rules.update(
    {
        "Binarizer": _binarizer,
        "ArrayFeatureExtractor": _array_feature_extractor,
        "LabelEncoder": _label_encoder,
        "TreeEnsemble": tree_ensemble,
        **tree_v3_rules,
        "Scaler": _scaler,
        "Normalizer": _normalizer,
        "LinearRegressor": _linear_regressor,
        "LinearClassifier": _linear_classifier,
        **preprocess_rules,
    }
)

__all__ = ["ml_rules"]
