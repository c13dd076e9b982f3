"""The optimizer passes: each keeps meaning (checked by evaluating before/after) and verifies."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.ir import eval_graph, typecheck
from arraystack.ir.control import fusion_p
from arraystack.ir.passes import PIPELINE, PassError, run_pipeline
from arraystack.ir.passes.cse import eliminate_common_subexpressions
from arraystack.ir.passes.dce import eliminate_dead_code
from arraystack.ir.passes.fold import fold_constants
from arraystack.ir.passes.fuse import fuse_elementwise

import arraystack as ast


def graph_of(fn, *args):
    return ast.make_graph(fn)(*[ast.asarray(a) for a in args])


def names(graph):
    return [e.prim.name for e in graph.eqns]


def same_results(g1, g2, *args):
    for a, b in zip(eval_graph(g1, *args), eval_graph(g2, *args)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


X = np.arange(12.0).reshape(3, 4)


def test_dead_code_is_removed():
    def f(x):
        unused = ast.exp(x) * 3  # noqa: F841
        return x + 1

    g = graph_of(f, X)
    out = eliminate_dead_code(g)
    typecheck(out)
    assert names(out) == ["add"]
    same_results(g, out, X)


def test_common_subexpressions_are_merged():
    g = graph_of(lambda x: ast.exp(x * 2) + ast.exp(x * 2), X)
    out = eliminate_dead_code(eliminate_common_subexpressions(g))
    typecheck(out)
    assert names(out) == ["mul", "exp", "add"]
    same_results(g, out, X)


def test_scalar_constants_fold_through_the_reference_rules():
    from arraystack.ir import primitives as p
    from arraystack.ir import structural as s
    from arraystack.ir.avals import ShapedArray
    from arraystack.ir.ir import GraphBuilder, Literal, Var

    f64 = np.dtype(np.float64)
    b = GraphBuilder()
    x = Var(ShapedArray((3,), f64))
    (c,) = b.emit(
        p.mul_p,
        [
            Literal(np.float64(2.0), ShapedArray((), f64)),
            Literal(np.float64(3.0), ShapedArray((), f64)),
        ],
    )
    (d,) = b.emit(p.exp_p, [c])
    (e,) = b.emit(s.broadcast_in_dim_p, [d], {"shape": (3,), "broadcast_dimensions": ()})
    (y,) = b.emit(p.add_p, [x, e])
    g = b.build([x], [y])
    out = fold_constants(g)
    typecheck(out)
    assert names(out) == ["broadcast_in_dim", "add"]
    literal = out.eqns[0].inputs[0]
    assert isinstance(literal, Literal) and literal.value == np.exp(6.0)
    same_results(g, out, np.arange(3.0))


def test_splats_fold_into_scalars_and_no_region_computes_a_constant():
    """A scalar broadcast to a shape (the gradient of a mean makes one), times -1, broadcast again and
    multiplied into an array: the arithmetic on the splat folds to a scalar, the array reads it as a
    Literal, and no fusion region is left computing a constant array."""
    from arraystack.ir import primitives as p
    from arraystack.ir import structural as s
    from arraystack.ir.avals import ShapedArray
    from arraystack.ir.ir import GraphBuilder, Literal, Var

    f32 = np.dtype(np.float32)
    b = GraphBuilder()
    x = Var(ShapedArray((3, 4), f32))
    third = Literal(np.float32(1 / 3), ShapedArray((), f32))
    (d,) = b.emit(s.broadcast_in_dim_p, [third], {"shape": (3,), "broadcast_dimensions": ()})
    (e,) = b.emit(p.mul_p, [d, Literal(np.float32(-1.0), ShapedArray((), f32))])
    (f,) = b.emit(s.broadcast_in_dim_p, [e], {"shape": (3, 4), "broadcast_dimensions": (0,)})
    (y,) = b.emit(p.mul_p, [x, f])
    (z,) = b.emit(p.add_p, [e, d])  # splats only: a splat of the folded sum, an output
    g = b.build([x], [y, z])
    out = eliminate_dead_code(fold_constants(g))
    typecheck(out)
    assert names(out) == ["mul", "broadcast_in_dim"]
    (scalar,) = [a for a in out.eqns[0].inputs if isinstance(a, Literal)]
    assert scalar.value == np.float32(1 / 3) * np.float32(-1.0)
    assert out.eqns[1].inputs[0].value == np.float32(0.0)
    same_results(g, out, np.arange(12.0, dtype=np.float32).reshape(3, 4))
    # fused: the multiply reading the scalar, and the output z made by a broadcast alone
    inner = [names(e.params["graph"]) for e in run_pipeline(g).eqns if e.prim is fusion_p]
    assert sorted(inner) == [["broadcast_in_dim"], ["mul"]]


def test_chain_fuses_into_one_region():
    g = graph_of(lambda a, b, c: ast.tanh(a * b + c) * 0.5 + ast.exp(-a * a), X, X, X)
    out = fuse_elementwise(g)
    typecheck(out)
    assert names(out) == ["fusion"]
    same_results(g, out, X, X + 1, X - 1)


def test_softmax_fuses_reductions_and_broadcasts_into_one_region():
    def softmax(x):
        e = ast.exp(x - ast.max(x, axis=-1, keepdims=True))
        return e / ast.sum(e, axis=-1, keepdims=True)

    g = run_pipeline(graph_of(softmax, X), verify=True)
    assert [n for n in names(g) if n != "reshape"].count("fusion") <= 2
    region_eqns = [e for e in g.eqns if e.prim is fusion_p]
    inner = [x.prim.name for e in region_eqns for x in e.params["graph"].eqns]
    assert "reduce_max" in inner and "reduce_sum" in inner and "exp" in inner


def test_fusion_never_creates_a_cycle():
    # b depends on a region value through a non-fusible op; joining it would close a cycle
    def f(x):
        y = ast.exp(x)
        z = ast.matmul(y, ast.ones((4, 4)))
        return y * 2 + z

    g = graph_of(f, X)
    out = fuse_elementwise(g)
    typecheck(out)
    same_results(g, out, X)


def test_pipeline_verifies_after_every_pass_and_names_a_failing_pass():
    g = graph_of(lambda x: ast.exp(x) + 1, X)
    run_pipeline(g, verify=True)

    def broken(graph):
        raise ValueError("boom")

    with pytest.raises(PassError, match="'broken'.*boom"):
        run_pipeline(g, [("broken", broken)])


def test_dump_prints_ir_after_named_passes(monkeypatch, capsys):
    monkeypatch.setenv("ARRAYSTACK_DUMP", "fuse_elementwise")
    run_pipeline(graph_of(lambda x: ast.exp(x) + 1, X))
    err = capsys.readouterr().err
    assert "IR after fuse_elementwise" in err and "fusion" in err


def test_pipeline_is_an_ordered_list_of_named_functions():
    assert [name for name, _ in PIPELINE][-1] == "fuse_elementwise"
    assert all(callable(fn) for _, fn in PIPELINE)
