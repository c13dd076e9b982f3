"""bind() and the trace stack (jit/core.py, jit/trace.py): the bottom level evaluates eagerly, a GraphTrace
records equations, nested traces capture outer values as inputs, and misuse of traced values raises errors
that name the user's file:line."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import arraystack
from arraystack._core.array import wrap
from arraystack.ir import (
    ConcretizationError,
    EscapedTracerError,
    ShapedArray,
    Tracer,
    bind,
    eval_graph,
    is_tracing,
    make_graph,
    print_graph,
    typecheck,
)
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.core import pop_trace, push_trace, trace_state
from arraystack.ir.trace import GraphTrace

F64 = ShapedArray((3,), np.dtype(np.float64))


def _line(marker):
    with open(__file__) as f:
        return next(n for n, line in enumerate(f, 1) if line.rstrip().endswith(f"# {marker}"))


def test_trace_a_function_by_hand_with_the_trace_stack_and_print_it():
    trace = GraphTrace()
    x = trace.new_arg(ShapedArray((2, 3), np.dtype(np.float32)))
    push_trace(trace)
    try:
        assert is_tracing()
        y = bind(p.mul_p, x, x)  # hand-1
        z = bind(p.add_p, y, np.float32(1.0))  # hand-2
        total = bind(s.reduce_sum_p, z, axes=(0, 1))  # hand-3
    finally:
        pop_trace(trace)
    assert not is_tracing() and trace.finished
    graph = trace.to_graph([total, y])
    typecheck(graph)
    lines = [line.rstrip() for line in print_graph(graph).splitlines()]
    assert [line.split("#")[0].rstrip() for line in lines] == [
        "graph(a:f32[2,3]) {",
        "  b:f32[2,3] = mul a a",
        "  c:f32[2,3] = add b 1.0:f32",
        "  d:f32[] = reduce_sum[axes=(0, 1)] c",
        "  return d, b",
        "}",
    ]
    for line, marker in zip(lines[1:4], ("hand-1", "hand-2", "hand-3")):
        assert line.endswith(f"# test_trace.py:{_line(marker)}")
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    out_total, out_y = eval_graph(graph, data)
    np.testing.assert_array_equal(out_y, data * data)
    assert out_total == np.sum(data * data + np.float32(1)) and out_total.dtype == np.float32


def test_bottom_of_the_stack_evaluates_eagerly():
    assert not is_tracing() and trace_state.stack == []
    out = bind(p.add_p, np.array([1, 2], np.int8), np.array([3, 4], np.int8))
    assert isinstance(out, np.ndarray) and out.dtype == np.int8 and out.tolist() == [4, 6]
    m, e = bind(p.frexp_p, np.array([8.0]))
    assert m.tolist() == [0.5] and e.tolist() == [4]


def test_python_scalars_become_literals_and_concrete_arrays_become_inputs():
    table = np.array([10.0, 20.0, 30.0])

    def fn(x):
        return [bind(p.add_p, bind(p.mul_p, x, 2.0), table)]

    graph, consts = make_graph(fn, [F64])
    assert len(graph.inputs) == 2 and consts[0] is table
    text = print_graph(graph, sources=False)
    assert "mul a 2.0:~f64" in text and "add c b" in text
    (out,) = eval_graph(graph, np.array([1.0, 2.0, 3.0]), *consts)
    np.testing.assert_array_equal(out, [12.0, 24.0, 36.0])


def test_nested_traces_capture_outer_tracers_as_inputs():
    inner_graphs = []

    def outer(x):
        y = bind(p.exp_p, x)

        def inner(u):
            return [bind(p.mul_p, u, y)]  # y belongs to the outer trace

        graph, consts = make_graph(inner, [F64])
        inner_graphs.append(graph)
        assert len(consts) == 1 and type(consts[0]) is Tracer and consts[0] is y
        assert trace_state.top is not None and len(trace_state.stack) == 1
        return eval_graph(graph, x, *consts)  # inlines the inner graph into the outer trace

    graph, consts = make_graph(outer, [F64])
    assert consts == [] and trace_state.stack == []
    (inner,) = inner_graphs
    assert len(inner.inputs) == 2 and inner.in_avals == (F64, F64)
    assert [e.prim for e in graph.eqns] == [p.exp_p, p.mul_p]
    typecheck(graph)
    typecheck(inner)
    data = np.array([0.0, 1.0, -2.0])
    (out,) = eval_graph(graph, data)
    np.testing.assert_allclose(out, data * np.exp(data))


def test_an_escaped_tracer_raises_when_used_later():
    leaked = []

    def fn(x):
        leaked.append(x)
        return [bind(p.neg_p, x)]

    make_graph(fn, [F64])
    (tracer,) = leaked
    with pytest.raises(EscapedTracerError, match="after its trace ended"):
        bind(p.sin_p, tracer)  # a ufunc rule converts it with __array__
    with pytest.raises(EscapedTracerError, match="in slice at test_trace.py"):
        bind(s.slice_p, tracer, start_indices=(0,), limit_indices=(1,), strides=(1,))
    with pytest.raises(EscapedTracerError, match="from a trace that has ended"):
        make_graph(lambda u: [bind(p.add_p, u, tracer)], [F64])
    with pytest.raises(EscapedTracerError):
        np.asarray(tracer)
    assert trace_state.stack == []


def test_the_stack_unwinds_when_the_traced_function_raises():
    def fn(x):
        raise KeyError("boom")

    with pytest.raises(KeyError):
        make_graph(fn, [F64])
    assert trace_state.stack == [] and not is_tracing()


def test_popping_a_trace_that_is_not_on_top_is_an_error():
    outer, inner = GraphTrace(), GraphTrace()
    push_trace(outer)
    push_trace(inner)
    try:
        with pytest.raises(RuntimeError, match="not on top"):
            pop_trace(outer)
    finally:
        pop_trace(inner)
        pop_trace(outer)
    assert trace_state.stack == []


def test_the_trace_stack_is_per_thread():
    results = []

    def fn(x):
        worker = threading.Thread(target=lambda: results.append(bind(p.neg_p, np.ones(2))))
        worker.start()
        worker.join()
        return [bind(p.neg_p, x)]

    graph, _ = make_graph(fn, [F64])
    assert len(graph.eqns) == 1
    assert isinstance(results[0], np.ndarray) and results[0].tolist() == [-1.0, -1.0]


def test_eval_graph_checks_the_number_of_inputs():
    graph, _ = make_graph(lambda x: [bind(p.neg_p, x)], [F64])
    with pytest.raises(TypeError, match="takes 1 inputs, got 2"):
        eval_graph(graph, np.ones(3), np.ones(3))


# -- concretization: Python needs a concrete value from a traced arraystack array ------------------------------


def _trace_frontend(fn):
    return make_graph(lambda x: [fn(wrap(x))._value], [F64])


def _branch(x):
    if x.sum() > 0:  # concrete-bool
        return x
    return -x


def _to_int(x):
    return x * int(x.sum())  # concrete-int


def _to_float(x):
    return x * float(x.sum())  # concrete-float


def _to_index(x):
    return x * len(range(x.sum().astype(arraystack.int64)))  # concrete-index


@pytest.mark.parametrize(
    "fn, marker, what",
    [
        (_branch, "concrete-bool", "bool()"),
        (_to_int, "concrete-int", "int()"),
        (_to_float, "concrete-float", "float()"),
        (_to_index, "concrete-index", "__index__"),
    ],
)
def test_python_values_of_traced_arrays_raise_naming_the_users_line(fn, marker, what):
    with pytest.raises(ConcretizationError) as info:
        _trace_frontend(fn)
    message = str(info.value)
    assert message.startswith(f"{what} was called on a traced value")
    assert f"at test_trace.py:{_line(marker)}." in message
    assert "static_argnums" in message and "arraystack.where" in message
    assert isinstance(info.value, TypeError)  # what NumPy users catch for non-convertible values
    assert trace_state.stack == []


def test_numpy_conversion_of_a_traced_array_raises():
    with pytest.raises(
        ConcretizationError, match="numpy.asarray\\(\\) was called on a traced value f64\\[3\\]"
    ):
        _trace_frontend(lambda x: arraystack.asarray(np.asarray(x)))
