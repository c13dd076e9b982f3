"""The verifier (typecheck in jit/ir.py): binding, single assignment, literals, avals against shape rules,
closed sub-graphs; every error names the eqn index, the primitive and the user's source line."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.ir import (
    Eqn,
    Graph,
    GraphBuilder,
    Literal,
    ShapedArray,
    TypecheckError,
    Var,
    make_graph,
    parse_graph,
    typecheck,
)
from arraystack.ir import primitives as p
from arraystack.ir import structural as s

F32 = ShapedArray((3,), np.dtype(np.float32))
SCALAR_F32 = ShapedArray((), np.dtype(np.float32))


def test_traced_graphs_pass():
    def fn(x, y):
        z = p.mul_p.bind(x, y)
        return [s.reduce_max_p.bind(z, axes=(0,)), p.add_p.bind(z, 1.0), p.frexp_p.bind(z)[1]]

    graph, _ = make_graph(fn, [ShapedArray((3,), np.dtype(np.float64))] * 2)
    typecheck(graph)


def test_literal_outputs_and_inputs_as_outputs_pass():
    x = Var(F32)
    typecheck(Graph((x,), (), (x, Literal(1.0, ShapedArray((), np.dtype(np.float64), True)))))


def _eqn(prim, inputs, outputs, params=None, source="model.py:7"):
    return Eqn(prim, tuple(inputs), tuple(outputs), params or {}, source)


def _bad_graphs():
    x, y = Var(F32), Var(F32)
    lit = Literal(np.float32(2.0), SCALAR_F32)
    out = Var(F32)
    ok = _eqn(p.neg_p, [x], [y])
    return [
        (
            "use before definition",
            Graph((x,), (_eqn(p.add_p, [x, out], [y]),), (y,)),
            "eqn 0 `add` at model.py:7: Var(f32[3]) is used before it is defined",
        ),
        (
            "assigned twice",
            Graph((x,), (ok, _eqn(p.neg_p, [x], [y])), (y,)),
            "eqn 1 `neg` at model.py:7: Var(f32[3]) is assigned twice",
        ),
        ("input redefined", Graph((x,), (_eqn(p.neg_p, [x], [x]),), (x,)), "eqn 0 `neg`"),
        (
            "input listed twice",
            Graph((x, x), (), (x,)),
            "graph input: Var(f32[3]) is assigned twice",
        ),
        (
            "wrong output dtype",
            Graph((x,), (_eqn(p.isnan_p, [x], [Var(F32)]),), ()),
            "eqn 0 `isnan` at model.py:7: output declared f32[3], the rule gives bool[3]",
        ),
        (
            "wrong output count",
            Graph((x,), (_eqn(p.frexp_p, [x], [Var(F32)]),), ()),
            "eqn 0 `frexp` at model.py:7: 1 outputs, the rule gives 2",
        ),
        (
            "rule rejects",
            Graph((x,), (_eqn(s.reduce_sum_p, [x], [Var(SCALAR_F32)], {"axes": (3,)}),), ()),
            (
                "eqn 0 `reduce_sum` at model.py:7: the shape rule rejects operands (f32[3]) with params "
                "{axes=(3,)}: ValueError: reduce_sum: axis 3 out of range"
            ),
        ),
        (
            "mixed dtypes",
            Graph(
                (x,),
                (
                    _eqn(
                        p.add_p,
                        [x, Literal(2.0, ShapedArray((), np.dtype("f8"), True))],
                        [Var(F32)],
                    ),
                ),
                (),
            ),
            "the shape rule rejects operands (f32[3], ~f64[]) with params {}: TypeError",
        ),
        (
            "undefined output",
            Graph((x,), (), (y,)),
            "graph output: Var(f32[3]) is used before it is defined",
        ),
        (
            "array literal",
            Graph((x,), (_eqn(p.add_p, [x, Literal(np.ones(3, "f4"), F32)], [out]),), ()),
            "literals must be scalars",
        ),
        (
            "float in an int literal",
            Graph((), (), (Literal(2.5, ShapedArray((), np.dtype("i8"))),)),
            "holds a float, not a scalar of int64",
        ),
        (
            "bool in a float literal",
            Graph((), (), (Literal(True, SCALAR_F32),)),
            "holds a bool, not a scalar of float32",
        ),
        (
            "int literal out of range",
            Graph((), (), (Literal(300, ShapedArray((), np.dtype("u1"))),)),
            "out of range for uint8",
        ),
        ("not an atom", Graph((x,), (), ("x",)), "expected a Var or Literal"),
        (
            "literal output of an eqn",
            Graph((x,), (_eqn(p.neg_p, [x], [lit]),), ()),
            "outputs must be Vars",
        ),
        (
            "no source",
            Graph((x,), (_eqn(p.add_p, [x, out], [y], source=None),), ()),
            "typecheck: eqn 0 `add`: Var",
        ),
    ]


@pytest.mark.parametrize(
    "graph, message", [g[1:] for g in _bad_graphs()], ids=[g[0] for g in _bad_graphs()]
)
def test_broken_graphs_are_rejected_with_a_precise_message(graph, message):
    with pytest.raises(TypecheckError) as info:
        typecheck(graph)
    assert message in str(info.value)


def test_errors_name_the_eqn_of_the_sub_graph_and_the_outer_eqn(call_p):
    u = Var(F32)
    body = Graph((u,), (_eqn(p.isnan_p, [u], [Var(F32)], source="inner.py:3"),), (u,))
    x = Var(F32)
    outer = Graph((x,), (_eqn(call_p, [x], [Var(F32)], {"body": body}, source="outer.py:9"),), ())
    with pytest.raises(TypecheckError) as info:
        typecheck(outer)
    assert str(info.value).startswith(
        "typecheck: eqn 0 `test_call` at outer.py:9, in sub-graph body: typecheck: eqn 0 `isnan` at inner.py:3"
    )


def test_sub_graphs_are_closed(call_p):
    x = Var(F32)
    u = Var(F32)
    body = Graph((u,), (), (x,))  # refers to the outer graph's input
    outer = Graph((x,), (_eqn(call_p, [x], [Var(F32)], {"body": body}),), ())
    with pytest.raises(
        TypecheckError, match="sub-graph body: graph output: .* used before it is defined"
    ):
        typecheck(outer)
    good = Graph((u,), (), (u,))
    b = GraphBuilder()
    (y,) = b.emit(call_p, [x], {"body": good})
    typecheck(b.build([x], [y]))


def test_a_parsed_graph_with_wrong_declared_avals_is_caught():
    graph = parse_graph(
        "graph(a:f32[3]) {\n  b:f32[] = reduce_sum[axes=(0,)] a   # m.py:4\n  return b\n}"
    )
    typecheck(graph)
    bad = parse_graph(
        "graph(a:f32[3]) {\n  b:f32[3] = reduce_sum[axes=(0,)] a   # m.py:4\n  return b\n}"
    )
    with pytest.raises(
        TypecheckError, match="eqn 0 `reduce_sum` at m.py:4: output declared f32\\[3\\]"
    ):
        typecheck(bad)
