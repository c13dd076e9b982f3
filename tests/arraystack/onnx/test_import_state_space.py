"""LinearAttention and CausalConvWithState beyond ONNX's node tests (arraystack/onnx/import_state_space.py):
every update rule with grouped-query heads and a carried state, eagerly and under jit, against onnx's
ReferenceEvaluator; a prefill equals the same tokens decoded one at a time through the carried state (and
a convolution over a sequence equals it in chunks); gradients against finite differences in float64."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast
from arraystack.onnx.import_state_space import state_space_rules
from arraystack.onnx.interpreter import Node

RNG = numpy.random.default_rng(0)
B, T, HQ, HKV, DK, DV = 2, 5, 4, 2, 3, 2


def _attention_model(rule, dtype, with_past, per_key_decay=False, beta_heads=HKV):
    names = ["q", "k", "v", "past" if with_past else ""]
    shapes = {
        "q": (B, T, HQ * DK),
        "k": (B, T, HKV * DK),
        "v": (B, T, HKV * DV),
        "past": (B, HKV, DK, DV),
    }
    if rule in ("gated", "gated_delta"):
        names.append("decay")
        shapes["decay"] = (B, T, HKV * DK if per_key_decay else HKV)
    if rule in ("delta", "gated_delta"):
        names += [""] * (5 - len(names)) + ["beta"]
        shapes["beta"] = (B, T, beta_heads)
    node = helper.make_node(
        "LinearAttention",
        names,
        ["y", "state"],
        q_num_heads=HQ,
        kv_num_heads=HKV,
        update_rule=rule,
    )
    inputs = [n for n in names if n]
    graph = helper.make_graph(
        [node],
        "la",
        [helper.make_tensor_value_info(n, dtype, _any_length(n, shapes[n])) for n in inputs],
        [
            helper.make_tensor_value_info("y", dtype, (B, None, HQ * DV)),
            helper.make_tensor_value_info("state", dtype, (B, HKV, DK, DV)),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 27)])
    return model, inputs, shapes


def _any_length(name, shape):
    return shape if name == "past" else (shape[0], None, shape[2])


def _values(inputs, shapes, dtype):
    out = {}
    for n in inputs:
        x = RNG.normal(size=shapes[n])
        if n == "k":
            x /= numpy.linalg.norm(x.reshape(B, T, HKV, DK), axis=-1).repeat(DK, axis=-1)
        if n == "decay":
            x = -numpy.abs(x) * 0.5
        if n == "beta":
            x = 1 / (1 + numpy.exp(-x))
        out[n] = x.astype(dtype)
    return out


@pytest.mark.parametrize("with_past", [False, True])
@pytest.mark.parametrize(
    "rule,per_key,beta_heads",
    [
        ("linear", False, HKV),
        ("gated", False, HKV),
        ("gated", True, HKV),
        ("delta", False, HKV),
        ("gated_delta", False, 1),
        ("gated_delta", True, HKV),
    ],
)
def test_linear_attention_as_the_reference(rule, per_key, beta_heads, with_past):
    model, inputs, shapes = _attention_model(
        rule, TensorProto.FLOAT, with_past, per_key, beta_heads
    )
    values = _values(inputs, shapes, numpy.float32)
    want = ReferenceEvaluator(model).run(None, values)
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        got = f(params, *[values[n] for n in inputs])
        for g, w in zip(got, want):
            assert numpy.asarray(g).dtype == w.dtype
            numpy.testing.assert_allclose(numpy.asarray(g), w, rtol=2e-5, atol=2e-6)


def test_a_prefill_equals_decoding_token_by_token():
    model, inputs, shapes = _attention_model("gated_delta", TensorProto.FLOAT, True)
    values = _values(inputs, shapes, numpy.float32)
    params, fn = ast.onnx.load(model)
    step = ast.jit(fn)
    y_all, state_all = fn(params, *[values[n] for n in inputs])
    state = values["past"]
    for t in range(T):
        one = [state if n == "past" else values[n][:, t : t + 1] for n in inputs]
        y, state = step(params, *one)
        numpy.testing.assert_allclose(
            numpy.asarray(y), numpy.asarray(y_all)[:, t : t + 1], rtol=1e-5, atol=1e-6
        )
    numpy.testing.assert_allclose(numpy.asarray(state), numpy.asarray(state_all), rtol=1e-5)


def _rule(op, **attrs):
    """The import rule of `op` as a function of its operands, on arraystack arrays of any float dtype
    (ONNX's models of these operators take float32 at most; the gradients are checked in float64)."""
    node = Node(helper.make_node(op, [], [], **attrs), 27, None)
    return lambda *operands: state_space_rules[op](ast, node, *operands)


def test_linear_attention_gradients(check_grads):
    _, inputs, shapes = _attention_model("gated_delta", TensorProto.FLOAT, True, True)
    values = _values(inputs, shapes, numpy.float64)
    rule = _rule("LinearAttention", q_num_heads=HQ, kv_num_heads=HKV, update_rule="gated_delta")

    def loss(q, v, past, decay):
        y, state = rule(q, values["k"], v, past, decay, values["beta"])
        return ast.sum(y * y) + ast.sum(ast.sin(state))

    check_grads(loss, [values[n] for n in ("q", "v", "past", "decay")], rtol=1e-5, jit=True)


def _conv_model(dtype, k, activation, with_bias, with_past, channels=3):
    names = ["x", "w", "b" if with_bias else "", "past" if with_past else ""]
    node = helper.make_node("CausalConvWithState", names, ["y", "state"], activation=activation)
    shapes = {"x": (2, channels, None), "w": (channels, 1, k), "b": (channels,)}
    shapes["past"] = (2, channels, k - 1)
    graph = helper.make_graph(
        [node],
        "cc",
        [helper.make_tensor_value_info(n, dtype, shapes[n]) for n in names if n],
        [
            helper.make_tensor_value_info("y", dtype, (2, channels, None)),
            helper.make_tensor_value_info("state", dtype, (2, channels, k - 1)),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 27)]), names


@pytest.mark.parametrize("k,length", [(4, 7), (4, 2), (1, 3)])
@pytest.mark.parametrize("activation", ["none", "silu"])
def test_causal_conv_as_the_reference_and_in_chunks(k, length, activation):
    model, _ = _conv_model(TensorProto.FLOAT, k, activation, True, True)
    shapes = [(2, 3, length), (3, 1, k), (3,), (2, 3, k - 1)]
    x, w, b, past = [RNG.normal(size=s).astype(numpy.float32) for s in shapes]
    want = ReferenceEvaluator(model).run(None, {"x": x, "w": w, "b": b, "past": past})
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        for g, wv in zip(f(params, x, w, b, past), want):
            numpy.testing.assert_allclose(numpy.asarray(g), wv, rtol=1e-5, atol=1e-6)
    state, chunks = past, []
    for start in range(0, length, 2):  # the same sequence in chunks, the state carried
        y, state = fn(params, x[:, :, start : start + 2], w, b, state)
        chunks.append(numpy.asarray(y))
    numpy.testing.assert_allclose(numpy.concatenate(chunks, axis=2), want[0], rtol=1e-5, atol=1e-6)
    numpy.testing.assert_array_equal(numpy.asarray(state), want[1])


def test_causal_conv_gradients(check_grads):
    rule = _rule("CausalConvWithState", activation="silu")
    args = [RNG.normal(size=s) for s in [(2, 3, 5), (3, 1, 3), (3,), (2, 3, 2)]]
    check_grads(lambda *a: ast.sum(rule(*a)[0] ** 2) + ast.sum(rule(*a)[1] ** 3), args, jit=True)


def test_bad_heads_and_missing_gates_are_model_errors():
    q, k, v = (RNG.normal(size=(1, 2, 6)) for _ in range(3))
    with pytest.raises(ast.onnx.ModelError, match="positive multiple of kv_num_heads"):
        _rule("LinearAttention", q_num_heads=3, kv_num_heads=2, update_rule="linear")(q, k, v)
    with pytest.raises(ast.onnx.ModelError, match="'gated' requires decay"):
        _rule("LinearAttention", q_num_heads=2, kv_num_heads=2, update_rule="gated")(q, k, v)
    with pytest.raises(ast.onnx.ModelError, match="does not split into 4 heads"):
        _rule("LinearAttention", q_num_heads=4, kv_num_heads=4, update_rule="linear")(q, k, v)
    with pytest.raises(ast.onnx.ModelError, match="past_state has shape"):
        _rule("CausalConvWithState")(q, RNG.normal(size=(2, 1, 3)), None, numpy.zeros((1, 2, 1)))
