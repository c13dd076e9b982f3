"""ONNX's string operators beyond its node tests (arraystack/onnx/import_strings.py), against onnx's
ReferenceEvaluator where it follows the specification: StringSplit with and without a delimiter and
maxsplit, empty inputs, StringConcat broadcasting, RegexFullMatch, and StringNormalizer's stop words
(whole elements, as the specification says; the reference also strips accents and splits on spaces).
Strings are a host dtype, so these models run eagerly; jit says so."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast


def _model(node, inputs, outputs):
    graph = helper.make_graph(
        [node],
        "s",
        [helper.make_tensor_value_info(n, TensorProto.STRING, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])


def _run(model, *args):
    params, fn = ast.onnx.load(model)
    return [numpy.asarray(o) for o in fn(params, *args)]


TEXT = numpy.array([["a,b,,c", " lead  trail ", ""], ["one", "x,y", ",,"]], object)


@pytest.mark.parametrize("delimiter", [None, ",", ""])
@pytest.mark.parametrize("maxsplit", [None, 1])
def test_string_split_as_the_reference(delimiter, maxsplit):
    attrs = {k: v for k, v in (("delimiter", delimiter), ("maxsplit", maxsplit)) if v is not None}
    model = _model(
        helper.make_node("StringSplit", ["x"], ["y", "n"], **attrs),
        [("x", [2, 3])],
        [("y", TensorProto.STRING, [2, 3, None]), ("n", TensorProto.INT64, [2, 3])],
    )
    want = ReferenceEvaluator(model).run(None, {"x": TEXT})
    for got, w in zip(_run(model, TEXT), want):
        assert got.shape == w.shape
        numpy.testing.assert_array_equal(got, w)


def test_string_concat_broadcasts_and_regex_full_match():
    concat = _model(
        helper.make_node("StringConcat", ["x", "y"], ["z"]),
        [("x", [2, 3]), ("y", [3])],
        [("z", TensorProto.STRING, [2, 3])],
    )
    suffix = numpy.array(["!", "?", ""], object)
    numpy.testing.assert_array_equal(
        _run(concat, TEXT, suffix)[0],
        ReferenceEvaluator(concat).run(None, {"x": TEXT, "y": suffix})[0],
    )
    match = _model(
        helper.make_node("RegexFullMatch", ["x"], ["m"], pattern=r"[a-z](,[a-z]?)*"),
        [("x", [2, 3])],
        [("m", TensorProto.BOOL, [2, 3])],
    )
    got = _run(match, TEXT)[0]
    assert got.dtype == bool
    numpy.testing.assert_array_equal(got, [[True, False, False], [False, True, False]])
    bad = _model(
        helper.make_node("RegexFullMatch", ["x"], ["m"], pattern="(unclosed"),
        [("x", [2, 3])],
        [("m", TensorProto.BOOL, [2, 3])],
    )
    with pytest.raises(ast.onnx.ModelError, match="does not compile"):
        _run(bad, TEXT)


@pytest.mark.parametrize("sensitive", [0, 1])
@pytest.mark.parametrize("action", ["NONE", "LOWER", "UPPER"])
def test_string_normalizer_drops_stop_words_then_changes_case(sensitive, action):
    x = numpy.array([["The", "cat", "THE", "sat", "on"]], object)
    model = _model(
        helper.make_node(
            "StringNormalizer",
            ["x"],
            ["y"],
            stopwords=["the", "on"],
            is_case_sensitive=sensitive,
            case_change_action=action,
        ),
        [("x", [1, 5])],
        [("y", TensorProto.STRING, [1, None])],
    )
    kept = ["The", "cat", "THE", "sat"] if sensitive else ["cat", "sat"]
    change = {"NONE": str, "LOWER": str.lower, "UPPER": str.upper}[action]
    numpy.testing.assert_array_equal(_run(model, x)[0], [[change(s) for s in kept]])
    everything = numpy.array(["on", "the"], object)
    flat = _model(
        helper.make_node("StringNormalizer", ["x"], ["y"], stopwords=["the", "on"]),
        [("x", [2])],
        [("y", TensorProto.STRING, [None])],
    )
    numpy.testing.assert_array_equal(_run(flat, everything)[0], [""])  # all dropped: [""]


def test_a_string_model_says_it_runs_eagerly_under_jit():
    model = _model(
        helper.make_node("StringConcat", ["x", "y"], ["z"]),
        [("x", [3]), ("y", [3])],
        [("z", TensorProto.STRING, [3])],
    )
    params, fn = ast.onnx.load(model)
    words = numpy.array(["a", "b", "c"], object)
    with pytest.raises(TypeError, match="host dtype|object|string"):
        ast.jit(fn)(params, words, words)


def _tfidf_model(mode, pool, counts, indexes, shape, weights=None, **attrs):
    strings = isinstance(pool[0], str)
    node = helper.make_node(
        "TfIdfVectorizer",
        ["x"],
        ["y"],
        mode=mode,
        ngram_counts=counts,
        ngram_indexes=indexes,
        **({"pool_strings": pool} if strings else {"pool_int64s": pool}),
        **({"weights": weights} if weights else {}),
        **attrs,
    )
    graph = helper.make_graph(
        [node],
        "tfidf",
        [
            helper.make_tensor_value_info(
                "x", TensorProto.STRING if strings else TensorProto.INT64, shape
            )
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * len(shape))],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])


@pytest.mark.parametrize("mode", ["TF", "IDF", "TFIDF"])
@pytest.mark.parametrize("grams,skips", [((1, 1), 0), ((1, 2), 2), ((2, 3), 1)])
@pytest.mark.parametrize("weighted", [False, True])
def test_tf_idf_vectorizer_of_integer_tokens_as_the_reference(mode, grams, skips, weighted):
    pool = [2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 2, 3, 5]  # 1-grams 2 3 5 4; 2-grams 56 78 67; 3-gram 235
    counts, indexes = [0, 4, 10], [0, 1, 2, 3, 4, 5, 6, 7]
    weights = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0] if weighted else None
    attrs = {"min_gram_length": grams[0], "max_gram_length": grams[1], "max_skip_count": skips}
    x = numpy.random.default_rng(0).integers(2, 9, size=(3, 9)).astype(numpy.int64)
    model = _tfidf_model(mode, pool, counts, indexes, x.shape, weights, **attrs)
    if weighted or mode == "TF":
        want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    else:  # the reference fails without weights; the specification: IDF marks presence, TFIDF = TF
        tf = _tfidf_model("TF", pool, counts, indexes, x.shape, None, **attrs)
        counted = ReferenceEvaluator(tf).run(None, {"x": x})[0]
        want = (counted > 0).astype(numpy.float32) if mode == "IDF" else counted
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        got = numpy.asarray(f(params, x)[0])
        assert got.dtype == numpy.float32
        numpy.testing.assert_array_equal(got, want)


def test_tf_idf_vectorizer_of_strings_runs_eagerly():
    pool = ["a", "b", "c", "a", "b", "b", "c"]
    model = _tfidf_model(
        "TF",
        pool,
        [0, 3],
        [2, 0, 1, 3, 4],
        [6],
        min_gram_length=1,
        max_gram_length=2,
        max_skip_count=1,
    )
    x = numpy.array(["a", "b", "x", "b", "c", "a"], object)
    want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    numpy.testing.assert_array_equal(_run(model, x)[0], want)
