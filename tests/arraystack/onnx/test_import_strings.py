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
