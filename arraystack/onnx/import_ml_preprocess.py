"""Import rules of ONNX-ML's preprocessing operators and of ZipMap (convention: interpreter.py): Imputer,
OneHotEncoder, FeatureVectorizer, CategoryMapper and ZipMap, what skl2onnx writes around scikit-learn's
models (SimpleImputer, OneHotEncoder, ColumnTransformer, classifiers' probabilities).

Numbers trace (comparisons and selects, under jit); strings are a host dtype, mapped eagerly with NumPy.
ZipMap gives a sequence (import_sequence.TensorSequence) of one dict per row, class label to score; a
jitted function returns it as a list of dicts of 0-d arrays.
"""

from __future__ import annotations

import numpy

from arraystack.onnx.import_sequence import TensorSequence


def _strings(x) -> bool:
    return numpy.dtype(x.dtype).kind in "OUST"


def _imputer(xp, node, x):
    floats = node.attr("imputed_value_floats")
    if floats is not None and len(floats):
        values, replaced = (
            numpy.asarray(floats, numpy.float32),
            node.attr("replaced_value_float", 0.0),
        )
    else:
        values = numpy.asarray(node.attr("imputed_value_int64s", []), numpy.int64)
        replaced = node.attr("replaced_value_int64", 0)
        if not len(values):
            raise node.error("has no imputed_value_floats or imputed_value_int64s")
    if numpy.ndim(x) != 2 or len(values) not in (1, numpy.shape(x)[1]):
        raise node.error(f"takes a matrix whose width is {len(values)} or 1, got {numpy.shape(x)}")
    missing = xp.isnan(x) if numpy.isnan(replaced) else x == xp.asarray(replaced, dtype=x.dtype)
    return xp.where(missing, xp.asarray(values.astype(numpy.dtype(x.dtype))), x)


def _one_hot_encoder(xp, node, x):
    cats = node.attr("cats_int64s")
    cats = numpy.asarray(cats if cats is not None and len(cats) else node.attr("cats_strings", []))
    if not len(cats):
        raise node.error("has no cats_int64s or cats_strings")
    if _strings(x) or cats.dtype.kind in "OUS":
        xp, x, cats = numpy, numpy.asarray(x).astype(object), cats.astype(object)
    else:
        cats = cats.astype(numpy.dtype(x.dtype))
    hot = x[..., None] == xp.asarray(cats)
    if not node.attr("zeros", 1) and not bool(xp.all(xp.any(hot, axis=-1))):
        raise node.error("a value has no category (zeros=0)")
    return xp.asarray(hot).astype(numpy.float32)


def _feature_vectorizer(xp, node, *inputs):
    widths = node.attr("inputdimensions", [])
    parts = []
    for x, width in zip(inputs, widths):
        x = xp.reshape(x, (-1, 1)) if numpy.ndim(x) == 1 else x
        have = numpy.shape(x)[1]
        if have > width:
            x = x[:, :width]
        elif have < width:
            x = xp.concatenate([x, xp.zeros((numpy.shape(x)[0], width - have), x.dtype)], axis=1)
        parts.append(x.astype(numpy.float32))
    return xp.concatenate(parts, axis=1)


def _category_mapper(xp, node, x):
    ints = [int(v) for v in node.attr("cats_int64s", [])]
    strings = list(node.attr("cats_strings", []))
    flat = numpy.asarray(x).reshape(-1).tolist()  # strings in or out: NumPy, eagerly
    if _strings(x):
        table, default = dict(zip(strings, ints)), node.attr("default_int64", -1)
        out = numpy.asarray([table.get(v, default) for v in flat], numpy.int64)
    else:
        table, default = dict(zip(ints, strings)), node.attr("default_string", "_Unused")
        out = numpy.asarray([table.get(v, default) for v in flat], object)
    return out.reshape(numpy.shape(x))


def _zip_map(xp, node, x):
    labels = node.attr("classlabels_int64s")
    labels = (
        [int(v) for v in labels] if labels is not None else list(node.attr("classlabels_strings"))
    )
    if numpy.ndim(x) != 2 or numpy.shape(x)[1] != len(labels):
        raise node.error(f"takes (N, {len(labels)}) scores, got shape {numpy.shape(x)}")
    return TensorSequence([dict(zip(labels, [row[k] for k in range(len(labels))])) for row in x])


preprocess_rules = {
    "Imputer": _imputer,
    "OneHotEncoder": _one_hot_encoder,
    "FeatureVectorizer": _feature_vectorizer,
    "CategoryMapper": _category_mapper,
    "ZipMap": _zip_map,
}

__all__ = ["preprocess_rules"]
