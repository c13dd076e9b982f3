"""ONNX-ML operators (arraystack/onnx/import_ml.py, import_trees.py) beyond ONNX's node tests: random tree
ensembles with every node mode, set membership, NaN routing, several targets and every aggregation, and
LabelEncoder of numbers (NaN keys included) and strings, eagerly and under jit, against onnx's
ReferenceEvaluator."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast

ML = [helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 5)]


def _random_forest(rng, trees, depth, features, targets):
    """TreeEnsemble attributes of `trees` random trees up to `depth` levels deep."""
    nodes = {
        k: [] for k in ("modes", "splits", "features", "true", "false", "tleaf", "fleaf", "miss")
    }
    leaves_w, leaves_t, members, roots = [], [], [], []

    def leaf():
        leaves_w.append(float(rng.normal()))
        leaves_t.append(int(rng.integers(targets)))
        return len(leaves_w) - 1

    def grow(level):
        k = len(nodes["modes"])
        mode = int(rng.integers(7))
        for column in nodes.values():
            column.append(0)
        nodes["modes"][k] = mode
        nodes["features"][k] = int(rng.integers(features))
        nodes["splits"][k] = float(numpy.round(rng.normal(), 1)) if mode != 6 else 0.0
        nodes["miss"][k] = int(rng.integers(2))
        if mode == 6:  # no member 0.0: onnx's reference ends a set at any falsy value
            members.extend([float(v) for v in rng.choice([-1.0, 0.5, 1.0, 2.0], 2)] + [numpy.nan])
        for side, flag in (("true", "tleaf"), ("false", "fleaf")):
            if level + 1 >= depth or rng.random() < 0.3:
                nodes[side][k], nodes[flag][k] = leaf(), 1
            else:
                nodes[side][k], nodes[flag][k] = grow(level + 1), 0
        return k

    for _ in range(trees):
        roots.append(grow(0))
    tensor = numpy_helper.from_array
    return {
        "nodes_modes": tensor(numpy.array(nodes["modes"], numpy.uint8), "m"),
        "nodes_splits": tensor(numpy.array(nodes["splits"], numpy.float32), "s"),
        "nodes_featureids": nodes["features"],
        "nodes_truenodeids": nodes["true"],
        "nodes_falsenodeids": nodes["false"],
        "nodes_trueleafs": nodes["tleaf"],
        "nodes_falseleafs": nodes["fleaf"],
        "nodes_missing_value_tracks_true": nodes["miss"],
        "leaf_weights": tensor(numpy.array(leaves_w, numpy.float32), "w"),
        "leaf_targetids": leaves_t,
        "tree_roots": roots,
        "membership_values": tensor(numpy.array(members, numpy.float32), "mv"),
        "n_targets": targets,
    }


@pytest.mark.parametrize("aggregate", [0, 1, 2, 3])
@pytest.mark.parametrize("seed", [0, 1])
def test_random_tree_ensembles_as_the_reference(aggregate, seed):
    rng = numpy.random.default_rng(seed)
    attrs = _random_forest(rng, trees=5, depth=4, features=3, targets=2)
    node = helper.make_node(
        "TreeEnsemble", ["x"], ["y"], domain="ai.onnx.ml", aggregate_function=aggregate, **attrs
    )
    graph = helper.make_graph(
        [node],
        "forest",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 2])],
    )
    model = helper.make_model(graph, opset_imports=ML)
    x = rng.choice([-1.0, 0.0, 0.5, 1.0, numpy.nan, 2.0], size=(40, 3)).astype(numpy.float32)
    want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        numpy.testing.assert_allclose(numpy.asarray(f(params, x)[0]), want, rtol=1e-6, atol=1e-6)


def _encoder(x_type, y_type, **attrs):
    node = helper.make_node("LabelEncoder", ["x"], ["y"], domain="ai.onnx.ml", **attrs)
    graph = helper.make_graph(
        [node],
        "enc",
        [helper.make_tensor_value_info("x", x_type, [None])],
        [helper.make_tensor_value_info("y", y_type, [None])],
    )
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 4)]
    )


def test_label_encoder_of_numbers_under_jit_and_of_strings():
    model = _encoder(
        TensorProto.FLOAT,
        TensorProto.INT64,
        keys_floats=[3.5, -1.0, float("nan"), 0.0],
        values_int64s=[7, 8, 9, 10],
        default_int64=-5,
    )
    x = numpy.array([0.0, numpy.nan, 3.5, 2.0, -1.0, -0.0], numpy.float32)
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        numpy.testing.assert_array_equal(numpy.asarray(f(params, x)[0]), [10, 9, 7, -5, 8, 10])
    words = _encoder(
        TensorProto.STRING, TensorProto.INT64, keys_strings=["a", "b"], values_int64s=[1, 2]
    )
    x = numpy.array(["b", "z", "a"], object)
    want = ReferenceEvaluator(words).run(None, {"x": x})[0]
    params, fn = ast.onnx.load(words)
    numpy.testing.assert_array_equal(numpy.asarray(fn(params, x)[0]), want)


def test_set_membership_with_zero_as_the_specification():
    # one membership node: x0 in {0, 1} -> leaf 0 (weight 5), else leaf 1 (weight 7)
    tensor = numpy_helper.from_array
    node = helper.make_node(
        "TreeEnsemble",
        ["x"],
        ["y"],
        domain="ai.onnx.ml",
        nodes_modes=tensor(numpy.array([6], numpy.uint8), "m"),
        nodes_splits=tensor(numpy.array([0.0], numpy.float32), "s"),
        nodes_featureids=[0],
        nodes_truenodeids=[0],
        nodes_falsenodeids=[1],
        nodes_trueleafs=[1],
        nodes_falseleafs=[1],
        leaf_weights=tensor(numpy.array([5.0, 7.0], numpy.float32), "w"),
        leaf_targetids=[0, 0],
        tree_roots=[0],
        membership_values=tensor(numpy.array([0.0, 1.0, numpy.nan], numpy.float32), "mv"),
        n_targets=1,
    )
    graph = helper.make_graph(
        [node],
        "member",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 1])],
    )
    params, fn = ast.onnx.load(helper.make_model(graph, opset_imports=ML))
    x = numpy.array([[0.0], [1.0], [2.0], [numpy.nan]], numpy.float32)
    numpy.testing.assert_array_equal(numpy.asarray(ast.jit(fn)(params, x)[0]), [[5], [5], [7], [7]])


_V3_MODES = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"]


def _v3_forest(rng, trees, depth, features, columns, prefix):
    """Attributes of TreeEnsembleRegressor/Classifier (ai.onnx.ml 3): `trees` random trees whose node ids
    count within each tree; every leaf adds one or two weights (prefix "target" or "class")."""
    nodes = {
        k: []
        for k in ("treeids", "nodeids", "modes", "values", "features", "true", "false", "miss")
    }
    leaves = {"treeids": [], "nodeids": [], "ids": [], "weights": []}

    def grow(tree, level, counter):
        k = counter[0]
        counter[0] += 1
        is_leaf = level >= depth or (level > 0 and rng.random() < 0.3)
        for column in nodes.values():
            column.append(0)
        nodes["treeids"][-1], nodes["nodeids"][-1] = tree, k
        position = len(nodes["modes"]) - 1
        if is_leaf:
            nodes["modes"][position] = "LEAF"
            for _ in range(int(rng.integers(1, 3))):
                leaves["treeids"].append(tree)
                leaves["nodeids"].append(k)
                leaves["ids"].append(int(rng.integers(columns)))
                leaves["weights"].append(float(rng.normal()))
            return k
        nodes["modes"][position] = _V3_MODES[int(rng.integers(6))]
        nodes["values"][position] = float(numpy.round(rng.normal(), 1))
        nodes["features"][position] = int(rng.integers(features))
        nodes["miss"][position] = int(rng.integers(2))
        nodes["true"][position] = grow(tree, level + 1, counter)
        nodes["false"][position] = grow(tree, level + 1, counter)
        return k

    for t in range(trees):
        grow(t, 0, [0])
    return {
        "nodes_treeids": nodes["treeids"],
        "nodes_nodeids": nodes["nodeids"],
        "nodes_modes": nodes["modes"],
        "nodes_values": nodes["values"],
        "nodes_featureids": nodes["features"],
        "nodes_truenodeids": nodes["true"],
        "nodes_falsenodeids": nodes["false"],
        "nodes_missing_value_tracks_true": nodes["miss"],
        **{f"{prefix}_{k}": v for k, v in leaves.items()},
    }


def _v3_model(op, attrs, outputs):
    node = helper.make_node(op, ["x"], [n for n, _, _ in outputs], domain="ai.onnx.ml", **attrs)
    graph = helper.make_graph(
        [node],
        op,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3])],
        [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs],
    )
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 3)]
    return helper.make_model(graph, opset_imports=opsets)


@pytest.mark.parametrize("aggregate", ["SUM", "AVERAGE", "MIN", "MAX"])
def test_tree_ensemble_regressor_as_the_reference(aggregate):
    rng = numpy.random.default_rng(11)
    attrs = _v3_forest(rng, trees=4, depth=3, features=3, columns=2, prefix="target")
    attrs.update(n_targets=2, aggregate_function=aggregate, base_values=[0.25, -1.0])
    model = _v3_model("TreeEnsembleRegressor", attrs, [("y", TensorProto.FLOAT, [None, 2])])
    x = rng.choice([-1.0, 0.0, 0.5, 1.0, numpy.nan, 2.0], size=(30, 3)).astype(numpy.float32)
    want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        numpy.testing.assert_allclose(numpy.asarray(f(params, x)[0]), want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    "classes,transform",
    [(3, "NONE"), (3, "SOFTMAX"), (2, "LOGISTIC"), (2, "NONE")],
)
def test_tree_ensemble_classifier_as_the_reference(classes, transform):
    rng = numpy.random.default_rng(12)
    columns = 1 if classes <= 2 else classes  # binary: one column of scores
    attrs = _v3_forest(rng, trees=3, depth=3, features=3, columns=columns, prefix="class")
    labels = [1] if classes == 1 else [10 * k for k in range(classes)]
    attrs.update(classlabels_int64s=labels, post_transform=transform)
    width = max(classes, 2)
    outputs = [("label", TensorProto.INT64, [None]), ("scores", TensorProto.FLOAT, [None, width])]
    model = _v3_model("TreeEnsembleClassifier", attrs, outputs)
    x = rng.choice([-1.0, 0.0, 0.5, 1.0, numpy.nan, 2.0], size=(30, 3)).astype(numpy.float32)
    want = ReferenceEvaluator(model).run(None, {"x": x})
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        label, scores = (numpy.asarray(v) for v in f(params, x))
        numpy.testing.assert_allclose(scores, want[1], rtol=1e-6, atol=1e-6)
        numpy.testing.assert_array_equal(label, want[0])


def _pipeline(classifier_attrs, classes, norm=None):
    """Scaler (and Normalizer) then LinearClassifier: a scikit-learn pipeline as skl2onnx writes it."""
    nodes = [
        helper.make_node(
            "Scaler",
            ["x"],
            ["s"],
            domain="ai.onnx.ml",
            offset=[0.5, -1.0, 2.0],
            scale=[2.0, 0.5, 1.5],
        )
    ]
    last = "s"
    if norm:
        nodes.append(helper.make_node("Normalizer", ["s"], ["n"], domain="ai.onnx.ml", norm=norm))
        last = "n"
    nodes.append(
        helper.make_node(
            "LinearClassifier", [last], ["label", "scores"], domain="ai.onnx.ml", **classifier_attrs
        )
    )
    graph = helper.make_graph(
        nodes,
        "pipeline",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3])],
        [
            helper.make_tensor_value_info("label", TensorProto.INT64, [None]),
            helper.make_tensor_value_info("scores", TensorProto.FLOAT, [None, max(classes, 2)]),
        ],
    )
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 1)]
    return helper.make_model(graph, opset_imports=opsets)


@pytest.mark.parametrize(
    "classes,transform,norm",
    [(3, "SOFTMAX", None), (3, "NONE", "L2"), (2, "LOGISTIC", "L1"), (2, "NONE", "MAX")],
)
def test_scaler_normalizer_and_linear_classifier_as_the_reference(classes, transform, norm):
    rng = numpy.random.default_rng(13)
    rows = 1 if classes == 2 else classes
    attrs = {
        "coefficients": [float(v) for v in rng.normal(size=rows * 3)],
        "intercepts": [float(v) for v in rng.normal(size=rows)],
        "classlabels_ints": [3 * k + 1 for k in range(classes)],
        "post_transform": transform,
    }
    model = _pipeline(attrs, classes, norm)
    x = rng.normal(size=(25, 3)).astype(numpy.float32)
    want = ReferenceEvaluator(model).run(None, {"x": x})
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        label, scores = (numpy.asarray(v) for v in f(params, x))
        numpy.testing.assert_allclose(scores, want[1], rtol=1e-5, atol=1e-6)
        numpy.testing.assert_array_equal(label, want[0])


def test_linear_regressor_with_several_targets():
    rng = numpy.random.default_rng(14)
    coefficients, intercepts = rng.normal(size=(2, 3)), rng.normal(size=2)
    node = helper.make_node(
        "LinearRegressor",
        ["x"],
        ["y"],
        domain="ai.onnx.ml",
        coefficients=[float(v) for v in coefficients.ravel()],
        intercepts=[float(v) for v in intercepts],
        targets=2,
    )
    graph = helper.make_graph(
        [node],
        "linear",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 2])],
    )
    model = helper.make_model(graph, opset_imports=ML)
    x = rng.normal(size=(10, 3)).astype(numpy.float32)
    want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        numpy.testing.assert_allclose(numpy.asarray(f(params, x)[0]), want, rtol=1e-5, atol=1e-6)


def _one_node(op, inputs, outputs, **attrs):
    node = helper.make_node(
        op, [n for n, _, _ in inputs], [n for n, _, _ in outputs], domain="ai.onnx.ml", **attrs
    )
    graph = helper.make_graph(
        [node],
        op,
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [
            helper.make_value_info(n, t) if s == "type" else helper.make_tensor_value_info(n, t, s)
            for n, t, s in outputs
        ],
    )
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 1)]
    return helper.make_model(graph, opset_imports=opsets)


def test_imputer_one_hot_encoder_and_feature_vectorizer_as_the_reference():
    x = numpy.array([[1.0, numpy.nan, 3.0], [numpy.nan, 2.0, numpy.nan]], numpy.float32)
    imputer = _one_node(
        "Imputer",
        [("x", TensorProto.FLOAT, [None, 3])],
        [("y", TensorProto.FLOAT, [None, 3])],
        imputed_value_floats=[0.5, -1.0, 9.0],
        replaced_value_float=float("nan"),
    )
    codes = numpy.array([[4, 1], [7, 4], [1, 1]], numpy.int64)
    encoder = _one_node(
        "OneHotEncoder",
        [("x", TensorProto.INT64, [None, 2])],
        [("y", TensorProto.FLOAT, [None, 2, 3])],
        cats_int64s=[1, 4, 9],
    )
    a, b = numpy.ones((2, 3), numpy.float32), numpy.arange(2, dtype=numpy.float32)
    vectorizer = _one_node(
        "FeatureVectorizer",
        [("a", TensorProto.FLOAT, [2, 3]), ("b", TensorProto.FLOAT, [2])],
        [("y", TensorProto.FLOAT, [2, 5])],
        inputdimensions=[2, 3],
    )
    for model, args in [(imputer, [x]), (encoder, [codes]), (vectorizer, [a, b])]:
        names = [i.name for i in model.graph.input]
        want = ReferenceEvaluator(model).run(None, dict(zip(names, args)))[0]
        params, fn = ast.onnx.load(model)
        for f in (fn, ast.jit(fn)):
            numpy.testing.assert_array_equal(numpy.asarray(f(params, *args)[0]), want)


def test_category_mapper_and_zip_map():
    mapper = _one_node(
        "CategoryMapper",
        [("x", TensorProto.STRING, [None])],
        [("y", TensorProto.INT64, [None])],
        cats_strings=["cat", "dog"],
        cats_int64s=[3, 5],
        default_int64=-1,
    )
    words = numpy.array(["dog", "bird", "cat"], object)
    params, fn = ast.onnx.load(mapper)
    numpy.testing.assert_array_equal(numpy.asarray(fn(params, words)[0]), [5, -1, 3])
    maps = helper.make_sequence_type_proto(
        helper.make_map_type_proto(
            TensorProto.INT64, helper.make_tensor_type_proto(TensorProto.FLOAT, [])
        )
    )
    zipmap = _one_node(
        "ZipMap",
        [("p", TensorProto.FLOAT, [None, 3])],
        [("m", maps, "type")],
        classlabels_int64s=[10, 20, 30],
    )
    p = numpy.array([[0.1, 0.7, 0.2], [0.5, 0.25, 0.25]], numpy.float32)
    params, fn = ast.onnx.load(zipmap)
    for f in (fn, ast.jit(fn)):
        rows = f(params, p)[0]
        assert [sorted(r) for r in rows] == [[10, 20, 30]] * 2
        for row, want in zip(rows, p):
            numpy.testing.assert_array_equal([float(row[k]) for k in (10, 20, 30)], want)


def test_probit_post_transform_is_the_normal_quantile():
    """sqrt(2) erfinv(2 x - 1) to float32's rounding; onnxruntime evaluates a closed-form
    approximation of erfinv, within 2e-3 of it (onnx's reference has no PROBIT here)."""
    import scipy.special

    onnxruntime = pytest.importorskip("onnxruntime")

    rng = numpy.random.default_rng(15)
    node = helper.make_node(
        "LinearRegressor",
        ["x"],
        ["y"],
        domain="ai.onnx.ml",
        coefficients=[0.1, -0.05, 0.2],
        intercepts=[0.5],
        post_transform="PROBIT",
    )
    graph = helper.make_graph(
        [node],
        "probit",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 1])],
    )
    model = helper.make_model(graph, opset_imports=ML)
    x = rng.uniform(-1, 1, size=(40, 3)).astype(numpy.float32)
    scores = x.astype(numpy.float64) @ numpy.array([0.1, -0.05, 0.2]) + 0.5
    exact = scipy.special.ndtri(scores)[:, None]
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    approximate = session.run(None, {"x": x})[0]
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        y = numpy.asarray(f(params, x)[0])
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y, exact, rtol=2e-6, atol=1e-6)
        numpy.testing.assert_allclose(y, approximate, rtol=2e-3, atol=2e-3)
