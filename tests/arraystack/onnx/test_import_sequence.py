"""ONNX sequences and optionals beyond ONNX's node tests (arraystack/onnx/import_sequence.py): a tensor split
into a sequence, mapped by a sub-graph, edited and concatenated back, eagerly and under jit against onnx's
ReferenceEvaluator; sequences through an If on a traced condition; sequence and optional graph inputs and
outputs; gradients through a sequence against finite differences; bad positions as ModelError."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast

RNG = numpy.random.default_rng(0)
X = RNG.normal(size=(5, 3))
SEQ = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.DOUBLE, None))


def _pipeline(split=None, keepdims=1, position=None):
    """x -> SplitToSequence -> SequenceMap(tanh(s) * 2 + w) -> Insert x[0] at `position` -> Erase
    the first -> ConcatFromSequence (and the sequence's length)."""
    rank = [None] * (2 if keepdims or split is not None else 1)
    body = helper.make_graph(
        [
            helper.make_node("Tanh", ["s"], ["t"]),
            helper.make_node("Mul", ["t", "two"], ["u"]),
            helper.make_node("Add", ["u", "w"], ["v"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("s", TensorProto.DOUBLE, rank),
            helper.make_tensor_value_info("w", TensorProto.DOUBLE, [3]),
        ],
        [helper.make_tensor_value_info("v", TensorProto.DOUBLE, rank)],
        [numpy_helper.from_array(numpy.float64(2.0), "two")],
    )
    split_inputs = ["x"] + (["split"] if split is not None else [])
    insert = ["mapped", "first"] + (["pos"] if position is not None else [])
    nodes = [
        helper.make_node("SplitToSequence", split_inputs, ["seq"], axis=0, keepdims=keepdims),
        helper.make_node("SequenceMap", ["seq", "w"], ["mapped"], body=body),
        helper.make_node("SequenceAt", ["mapped", "zero"], ["first"]),
        helper.make_node("SequenceInsert", insert, ["inserted"]),
        helper.make_node("SequenceErase", ["inserted", "zero"], ["erased"]),
        helper.make_node("ConcatFromSequence", ["erased"], ["y"], axis=0, new_axis=1 - keepdims),
        helper.make_node("SequenceLength", ["erased"], ["n"]),
    ]
    inits = [numpy_helper.from_array(numpy.int64(0), "zero")]
    if split is not None:
        inits.append(numpy_helper.from_array(numpy.asarray(split, numpy.int64), "split"))
    if position is not None:
        inits.append(numpy_helper.from_array(numpy.int64(position), "pos"))
    graph = helper.make_graph(
        nodes,
        "seq",
        [
            helper.make_tensor_value_info("x", TensorProto.DOUBLE, X.shape),
            helper.make_tensor_value_info("w", TensorProto.DOUBLE, [3]),
        ],
        [
            helper.make_tensor_value_info("y", TensorProto.DOUBLE, [None, None]),
            helper.make_tensor_value_info("n", TensorProto.INT64, []),
        ],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


@pytest.mark.parametrize(
    "split,keepdims,position",
    [(None, 1, None), (None, 0, -2), (2, 1, 0), ([1, 3, 1], 1, 2), ([5], 1, -1)],
)
def test_a_sequence_pipeline_as_the_reference(split, keepdims, position):
    model = _pipeline(split, keepdims, position)
    w = RNG.normal(size=3)
    want = ReferenceEvaluator(model).run(None, {"x": X, "w": w})
    numpy.testing.assert_allclose(_spec(X, w, split, keepdims, position), want[0], rtol=1e-12)
    _check(model, w, want)


def test_insert_at_the_back_by_position_as_the_specification():
    # position n is the back ([-n, n]); onnx's reference takes it modulo n, inserting at the front
    model = _pipeline([1, 3, 1], 1, 3)
    w = RNG.normal(size=3)
    _check(model, w, [_spec(X, w, [1, 3, 1], 1, 3), 3])


def _spec(x, w, split, keepdims, position):
    if split is None:
        parts = [x[i : i + 1] if keepdims else x[i] for i in range(len(x))]
    else:
        sizes = [split] * (len(x) // split) + [len(x) % split] if numpy.ndim(split) == 0 else split
        bounds = numpy.cumsum([s for s in sizes if s])[:-1]
        parts = numpy.split(x, bounds)
    mapped = [numpy.tanh(p) * 2 + w for p in parts]
    n = len(mapped)
    mapped.insert(n if position is None else position + n if position < 0 else position, mapped[0])
    del mapped[0]
    return numpy.concatenate(mapped) if keepdims or split is not None else numpy.stack(mapped)


def _check(model, w, want):
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        got = f(params, X, w)
        numpy.testing.assert_allclose(numpy.asarray(got[0]), want[0], rtol=1e-12)
        assert int(got[1]) == int(want[1])


def test_gradient_through_a_sequence(check_grads):
    params, fn = ast.onnx.load(_pipeline([2, 3], 1, 1))
    check_grads(lambda x, w: ast.sum(fn(params, x, w)[0] ** 2), [X, RNG.normal(size=3)], jit=True)


def test_sequences_through_an_if_on_a_traced_condition():
    def branch(name, op):
        return helper.make_graph(
            [
                helper.make_node(op, ["a", "b"], ["c"]),
                helper.make_node("SequenceConstruct", ["c", "a"], [f"out_{name}"]),
            ],
            name,
            [],
            [helper.make_value_info(f"out_{name}", SEQ)],
        )

    nodes = [
        helper.make_node("ReduceSum", ["a"], ["total"], keepdims=0),
        helper.make_node("Greater", ["total", "zero"], ["positive"]),
        helper.make_node(
            "If",
            ["positive"],
            ["pair"],
            then_branch=branch("then", "Add"),
            else_branch=branch("else", "Sub"),
        ),
        helper.make_node("ConcatFromSequence", ["pair"], ["y"], axis=0, new_axis=1),
    ]
    graph = helper.make_graph(
        nodes,
        "if_seq",
        [
            helper.make_tensor_value_info("a", TensorProto.DOUBLE, [3]),
            helper.make_tensor_value_info("b", TensorProto.DOUBLE, [3]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [2, 3])],
        [numpy_helper.from_array(numpy.float64(0.0), "zero")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    params, fn = ast.onnx.load(model)
    for a in (numpy.array([1.0, 2.0, -0.5]), numpy.array([-1.0, 0.2, -0.5])):
        b = RNG.normal(size=3)
        want = ReferenceEvaluator(model).run(None, {"a": a, "b": b})[0]
        for f in (fn, ast.jit(fn)):
            numpy.testing.assert_allclose(numpy.asarray(f(params, a, b)[0]), want, rtol=1e-12)


def test_sequence_and_optional_inputs_and_outputs():
    opt = helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.DOUBLE, [3]))
    nodes = [
        helper.make_node("OptionalHasElement", ["maybe"], ["has"]),
        helper.make_node("SequenceLength", ["seq"], ["n"]),
        helper.make_node("Identity", ["seq"], ["same"]),
    ]
    graph = helper.make_graph(
        nodes,
        "io",
        [helper.make_value_info("seq", SEQ), helper.make_value_info("maybe", opt)],
        [
            helper.make_tensor_value_info("has", TensorProto.BOOL, []),
            helper.make_tensor_value_info("n", TensorProto.INT64, []),
            helper.make_value_info("same", SEQ),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    params, fn = ast.onnx.load(model)
    items = [numpy.ones(2), numpy.arange(3.0)]
    has, n, same = fn(params, items, numpy.zeros(3))
    assert bool(has) and int(n) == 2 and isinstance(same, list)
    for got, want in zip(same, items):
        numpy.testing.assert_array_equal(numpy.asarray(got), want)
    assert not bool(fn(params, items, None)[0])
    with pytest.raises(ast.onnx.ModelError, match="pass a list of arrays"):
        fn(params, numpy.ones(2), None)
    with pytest.raises(ast.onnx.ModelError, match="must be float64"):
        fn(params, [numpy.ones(2, numpy.float32)], None)


@pytest.mark.parametrize(
    "op,inputs,message",
    [
        ("SequenceAt", ["seq", "far"], r"position 5 is out of range \[-2, 1\]"),
        ("SequenceErase", ["seq", "far"], r"position 5 is out of range \[-2, 1\]"),
        ("SequenceInsert", ["seq", "x", "far"], r"position 5 is out of range \[-2, 2\]"),
    ],
)
def test_positions_out_of_range_are_model_errors(op, inputs, message):
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "x"], ["seq"]),
        helper.make_node(op, inputs, ["out"]),
    ]
    out_type = SEQ if op != "SequenceAt" else helper.make_tensor_type_proto(TensorProto.DOUBLE, [2])
    graph = helper.make_graph(
        nodes,
        "bad",
        [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [2])],
        [helper.make_value_info("out", out_type)],
        [numpy_helper.from_array(numpy.int64(5), "far")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    params, fn = ast.onnx.load(model)
    with pytest.raises(ast.onnx.ModelError, match=message):
        fn(params, numpy.ones(2))
