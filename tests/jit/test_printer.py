"""IR text: print -> parse -> print is the identity, parsed graphs equal the originals, and bad text is
rejected with its line and column (jit/printer.py, jit/parser.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from arraystack.ir import (
    Eqn,
    Graph,
    GraphBuilder,
    IRParseError,
    Literal,
    ShapedArray,
    Var,
    bind,
    fingerprint,
    graph_difference,
    make_graph,
    parse_graph,
    print_graph,
    typecheck,
)
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.printer import format_literal
from hypothesis import given, settings
from hypothesis import strategies as st


def aval(shape, dtype, weak=False):
    return ShapedArray(tuple(shape), np.dtype(dtype), weak)


def round_trip(graph):
    """Print, parse, print again: the texts are identical and the parsed graph equals the original."""
    text = print_graph(graph)
    parsed = parse_graph(text)
    typecheck(parsed)
    assert print_graph(parsed) == text
    assert graph_difference(graph, parsed) is None, (graph_difference(graph, parsed), text)
    assert fingerprint(parsed) == fingerprint(graph)
    return text, parsed


# -- graphs traced from functions that use many kinds of params and literals ------------------------------------

F64 = aval((3, 4), "f8")


def _elementwise(x, y):
    a = bind(p.mul_p, x, y)
    b = bind(p.add_p, a, 2.0)
    c = bind(p.sub_p, b, np.float64("-inf"))
    d = bind(p.max_p, c, np.float64("nan"))
    return [d, bind(p.lt_p, d, -0.0), bind(p.select_p, bind(p.isnan_p, a), a, b)]


def _structural(x, y):
    r = bind(s.reshape_p, x, new_sizes=(4, 3))
    t = bind(s.transpose_p, r, permutation=(1, 0))
    sl = bind(s.slice_p, t, start_indices=(0, 1), limit_indices=(3, 4), strides=(1, 2))
    padded = bind(s.pad_p, x, np.float64(0.5), padding_config=((1, 0, 0), (0, 2, 1)))
    dot = bind(s.dot_general_p, x, y, dimension_numbers=(((1,), (1,)), ((), ())))
    red = bind(s.reduce_sum_p, x, axes=(0, 1))
    cat = bind(s.concatenate_p, x, y, x, dimension=0)
    rev = bind(s.rev_p, cat, dimensions=())
    cum = bind(s.cumsum_p, y, axis=1, reverse=True)
    return [sl, padded, dot, red, rev, cum]


def _types(x, y):
    i = bind(p.iota_p, dtype=np.dtype(np.int32), shape=(3, 4), dimension=1)
    f = bind(p.convert_p, i, dtype=np.dtype(np.float16), weak_type=False)
    w = bind(p.convert_p, x, dtype=np.dtype(np.float64), weak_type=True)
    c = bind(p.convert_p, x, dtype=np.dtype(np.complex64))
    c2 = bind(p.mul_p, c, np.complex64(complex(1.5, -0.0)))
    c3 = bind(p.add_p, c2, np.complex64(complex(float("nan"), float("inf"))))
    b = bind(p.and_p, bind(p.gt_p, x, y), True)
    u = bind(p.add_p, bind(p.convert_p, i, dtype=np.dtype(np.uint64)), np.uint64(2**64 - 1))
    k = bind(p.shift_left_p, bind(p.convert_p, i, dtype=np.dtype(np.int8)), np.int8(-128))
    full = bind(s.full_p, 7, shape=(2,), dtype=np.dtype(np.int64))
    return [f, w, c3, b, u, k, full]


def _indexing(x, y):
    idx = bind(p.iota_p, dtype=np.dtype(np.int64), shape=(5,), dimension=0)
    g = bind(s.gather_p, x, idx, mode="clip")
    upd = bind(s.full_p, 1.0, shape=(5, 4), dtype=np.dtype(np.float64))
    sc = bind(s.scatter_p, x, upd, idx, mode="clip", update="add")
    nz = bind(s.nonzero_p, bind(p.gt_p, x, 0.0), size=4, fill_value=-1)
    am = bind(s.argmax_p, y, axis=1)
    m, e = bind(p.frexp_p, y)
    return [g, sc, *nz, am, m, e]


@pytest.mark.parametrize(
    "fn", [_elementwise, _structural, _types, _indexing], ids=lambda f: f.__name__
)
def test_traced_graphs_round_trip(fn):
    graph, consts = make_graph(fn, [F64, F64])
    assert consts == []
    text, _ = round_trip(graph)
    assert "# test_printer.py:" in text  # the user's file:line on every equation


def test_printed_text_is_the_documented_let_language():
    def fn(x, y):
        return [bind(s.reduce_sum_p, bind(p.mul_p, x, y), axes=(1,))]  # documented-line

    graph, _ = make_graph(fn, [F64, F64])
    lines = print_graph(graph).splitlines()
    source = f"# test_printer.py:{_line_of('# documented-line')}"
    assert lines[0] == "graph(a:f64[3,4], b:f64[3,4]) {"
    assert lines[1] == f"{'  c:f64[3,4] = mul a b':<60} {source}"
    assert lines[2] == f"{'  d:f64[3] = reduce_sum[axes=(1,)] c':<60} {source}"
    assert lines[3:] == ["  return d", "}"]
    assert print_graph(graph, sources=False).splitlines()[1:3] == [
        "  c:f64[3,4] = mul a b",
        "  d:f64[3] = reduce_sum[axes=(1,)] c",
    ]


def _line_of(marker):
    with open(__file__) as f:
        return next(n for n, line in enumerate(f, 1) if line.rstrip().endswith(marker))


@pytest.mark.parametrize(
    "value, dtype, weak, text",
    [
        (True, "bool", False, "true:bool"),
        (np.bool_(False), "bool", False, "false:bool"),
        (2, "i8", True, "2:~i64"),
        (np.int8(-128), "i1", False, "-128:i8"),
        (np.uint64(2**64 - 1), "u8", False, "18446744073709551615:u64"),
        (2.0, "f8", True, "2.0:~f64"),
        (np.float32(0.1), "f4", False, "0.10000000149011612:f32"),
        (np.float16(-0.0), "f2", False, "-0.0:f16"),
        (float("nan"), "f8", True, "nan:~f64"),
        (np.float32("inf"), "f4", False, "inf:f32"),
        (np.float64("-inf"), "f8", False, "-inf:f64"),
        (1e-300, "f8", False, "1e-300:f64"),
        (complex(1, 2), "c16", True, "(1.0+2.0j):~c128"),
        (np.complex64(complex(-0.0, -0.0)), "c8", False, "(-0.0-0.0j):c64"),
        (complex(float("nan"), float("-inf")), "c16", False, "(nan-infj):c128"),
    ],
)
def test_literals_print_and_parse_back(value, dtype, weak, text):
    lit = Literal(value, aval((), dtype, weak))
    assert format_literal(lit) == text
    b = GraphBuilder()
    x = Var(lit.aval)
    (out,) = b.emit(p.add_p if lit.aval.dtype.kind != "b" else p.or_p, [x, lit])
    round_trip(b.build([x], [out, lit]))


def test_sub_graphs_and_every_kind_of_param_round_trip(call_p):
    inner = GraphBuilder()
    u = Var(aval((3,), "f4"))
    (v,) = inner.emit(p.mul_p, [u, Literal(np.float32(3.0), aval((), "f4"))], source="model.py:3")
    body = inner.build([u], [v, u])
    params = {
        "body": body,
        "ints": (0, -1, 2**70),
        "floats": (float("nan"), float("inf"), -float("inf"), -0.0, 1e-300, 0.1),
        "complex_value": complex(float("nan"), -2.5),
        "flags": (True, False, None),
        "text": 'it\'s a "quote" # not a comment\\',
        "dtypes": (np.dtype("f2"), np.dtype("bool"), np.dtype("c16"), np.dtype("u4")),
        "nested": (((1,), (0,)), ((), ())),
        "empty": (),
        "branches": (body, (body,)),
    }
    outer = GraphBuilder()
    x = Var(aval((3,), "f4"))
    (r, _) = outer.emit(call_p, [x], params, source="my file.py:12")
    (nested_out, _) = outer.emit(call_p, [r], {"body": _wrap_in_call(call_p, body)})
    text, parsed = round_trip(outer.build([x], [nested_out]))
    assert "body=graph(a:f32[3]) {" in text
    assert parsed.eqns[0].params["text"] == params["text"]
    assert parsed.eqns[0].params["dtypes"] == params["dtypes"]
    assert parsed.eqns[0].params["body"].eqns[0].source == "model.py:3"
    assert parsed.eqns[0].source == "my file.py:12"
    assert math.isnan(parsed.eqns[0].params["floats"][0])
    assert isinstance(parsed.eqns[0].params["branches"][1][0], Graph)


def _wrap_in_call(call_p, body):
    b = GraphBuilder()
    x = Var(body.in_avals[0])
    outs = b.emit(call_p, [x], {"body": body})
    return b.build([x], outs)


def test_var_names_skip_reserved_words():
    # chains long enough to reach the names "inf" (5751) and "nan" (8801)
    b = GraphBuilder()
    x = Var(aval((), "f8"))
    y = x
    for _ in range(8900):
        (y,) = b.emit(p.neg_p, [y])
    text, _ = round_trip(b.build([x], [y]))
    defined = {line.split(":")[0].strip() for line in text.splitlines()[1:-2]}
    assert not defined & {"nan", "inf", "true", "false", "graph", "return"}
    assert "ba" in defined and "zz" in defined


def test_graph_without_inputs_or_outputs_round_trips():
    round_trip(Graph((), (), ()))
    b = GraphBuilder()
    (i,) = b.emit(p.iota_p, [], {"dtype": np.dtype(np.int64), "shape": (3,), "dimension": 0})
    text, _ = round_trip(b.build([], [i]))
    assert "iota[dimension=0, dtype=i64, shape=(3,)]" in text


def test_hand_written_text_parses():
    text = """
    # a comment line, blank lines and any names are fine
    graph(x:f32[2,3], y2:f32[2,3]) {

      s:f32[2,3] = add x y2            # hand.py:1
      t:~f64[] = convert[dtype=f64, weak_type=True] 1.5:f32
      r:f32[3] = reduce_max[axes=(0,)] s
      return r, t, 3:~i64
    }
    """
    graph = parse_graph(text)
    typecheck(graph)
    assert [e.prim for e in graph.eqns] == [p.add_p, p.convert_p, s.reduce_max_p]
    assert graph.eqns[0].source == "hand.py:1" and graph.eqns[1].source is None
    assert graph.outputs[2].value == 3 and graph.outputs[2].aval.weak_type
    assert graph.eqns[0].inputs == graph.inputs
    assert graph.outputs[0] is graph.eqns[2].outputs[0]
    round_trip(graph)


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "graph(a:f32[3]) {\n  b:f32[3] = frobnicate a\n  return b\n}",
            "line 2, column 14: unknown primitive",
        ),
        ("graph(a:f32[3]) {\n  b:f32[3] = neg c\n  return b\n}", "c is used before it is defined"),
        ("graph(a:f32[3]) {\n  a:f32[3] = neg a\n  return a\n}", "a is assigned twice"),
        ("graph(a:q32[3]) {\n  return a\n}", "expected a dtype"),
        (
            "graph(a:f32[3]) {\n  b:f32[3] = add a 1.5:i32\n  return b\n}",
            "not a valid int32 literal",
        ),
        ("graph(a:i8[3]) {\n  b:i8[3] = add a 300:i8\n  return b\n}", "not a valid int8 literal"),
        ("graph(a:bool[]) {\n  return 1:bool\n}", "not a valid bool literal"),
        ("graph(a:f32[3]) {\n  return a\n} extra", "expected end"),
        ("graph(a:f32[3]) {\n  return a\n", "expected }"),
        ("graph(a:f32[-3]) {\n  return a\n}", "non-negative integer dimension"),
        (
            "graph(a:f32[3]) {\n  b:f32[3] = reshape[new_sizes=banana] a\n  return b\n}",
            "param value",
        ),
        ("graph(a:f32[3]) {\n  b:f32[3] = neg a $\n  return b\n}", "unexpected character '$'"),
        ("graph(true:bool[]) {\n  return true\n}", "expected a variable name"),
    ],
)
def test_bad_text_is_rejected_with_its_position(text, message):
    with pytest.raises(IRParseError, match="line") as info:
        parse_graph(text)
    assert message in str(info.value)


def test_parser_trusts_the_text_and_typecheck_catches_wrong_avals():
    graph = parse_graph("graph(a:f32[3]) {\n  b:f64[3] = neg a\n  return b\n}")
    assert graph.eqns[0].outputs[0].aval == aval((3,), "f8")
    with pytest.raises(Exception, match="eqn 0 `neg`.*declared f64\\[3\\].*gives f32\\[3\\]"):
        typecheck(graph)


def test_fingerprint_ignores_var_identity_and_sources_but_not_structure():
    def build(source, literal):
        b = GraphBuilder()
        x = Var(aval((3,), "f4"))
        (y,) = b.emit(p.mul_p, [x, Literal(np.float32(literal), aval((), "f4"))], source=source)
        return b.build([x], [y])

    assert fingerprint(build("a.py:1", 2.0)) == fingerprint(build("b.py:9", 2.0))
    assert fingerprint(build("a.py:1", 2.0)) != fingerprint(build("a.py:1", 3.0))
    assert graph_difference(build("a.py:1", 2.0), build("b.py:9", 2.0), sources=False) is None
    assert "source" in graph_difference(build("a.py:1", 2.0), build("b.py:9", 2.0))


def test_eqn_with_several_outputs_prints_them_in_order():
    b = GraphBuilder()
    x = Var(aval((2,), "f4"))
    m, e = b.emit(p.frexp_p, [x])
    text, parsed = round_trip(b.build([x], [e, m]))
    assert "  b:f32[2] c:i32[2] = frexp a" in text
    assert isinstance(parsed.eqns[0], Eqn) and parsed.outputs[0] is parsed.eqns[0].outputs[1]


@settings(max_examples=300, deadline=None)
@given(
    dtype=st.sampled_from(["f2", "f4", "f8", "c8", "c16", "i1", "u8", "i8"]),
    data=st.data(),
    weak=st.booleans(),
)
def test_any_literal_survives_the_round_trip_bit_for_bit(dtype, data, weak):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        value = dtype.type(data.draw(st.integers(int(info.min), int(info.max))))
    elif dtype.kind == "f":
        value = dtype.type(data.draw(st.floats(width=8 * dtype.itemsize, allow_nan=False)))
    else:
        value = dtype.type(data.draw(st.complex_numbers(width=8 * dtype.itemsize, allow_nan=False)))
    lit = Literal(value, aval((), dtype, weak))
    text = format_literal(lit)
    graph = parse_graph(f"graph() {{\n  return {text}\n}}")
    (parsed,) = graph.outputs
    assert parsed.aval == lit.aval
    assert np.asarray(parsed.value, dtype).tobytes() == np.asarray(value, dtype).tobytes(), text
