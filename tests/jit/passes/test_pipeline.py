"""The pass manager: editing the pipeline, per-function pipelines, reports, dumps, verification, errors."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.ir import Eqn, Graph, ShapedArray, passes
from arraystack.ir.passes import PassError, PassReport, run_pipeline
from arraystack.ir.passes.simplify import simplify_rules
from arraystack.ir.primitives import exp_p

import arraystack as ast
from tests.jit.passes.graphs import graph_of, square_to_pow

X = np.linspace(-2.0, 2.0, 12).reshape(3, 4)




def test_register_before_after_remove_and_scope_restores():
    before = passes.passes()
    with passes.pipeline_scope():
        passes.register_pass("mine", square_to_pow, before="fuse_elementwise")
        names = passes.passes()
        assert names.index("mine") == names.index("fuse_elementwise") - 1
        passes.register_pass("late", lambda g: g, after="simplify")
        assert passes.passes()[passes.passes().index("simplify") + 1] == "late"
        with pytest.raises(ValueError, match="already"):
            passes.register_pass("mine", square_to_pow)
        with pytest.raises(KeyError, match="no optimizer pass named 'nope'"):
            passes.register_pass("x", square_to_pow, before="nope")
        assert passes.remove_pass("mine") is square_to_pow
        assert "mine" not in passes.passes()
    assert passes.passes() == before


def test_scope_with_a_given_list_runs_only_those():
    with passes.pipeline_scope(["simplify"]):
        assert passes.passes() == ["simplify"]
        g = run_pipeline(graph_of(lambda x: ast.exp(x) * 1.0, X))
        assert [e.prim for e in g.eqns] == [exp_p]  # not fused: only simplify ran


def test_a_user_pass_per_function_changes_the_compiled_code():
    def f(x):
        return ast.tanh(x * x) + 1.0

    plain = ast.jit(f, backend="reference")
    mine = ast.jit(
        f,
        backend="reference",
        passes=["simplify", ("square_to_pow", square_to_pow), "fuse_elementwise"],
    )
    x = ast.asarray(X)
    lowered = mine.lower(x)
    assert "pow" in lowered.compile().as_text()
    assert "pow" not in plain.lower(x).compile().as_text()
    assert [row[0] for row in lowered.pass_report().rows] == [
        "simplify",
        "square_to_pow",
        "fuse_elementwise",
    ]
    np.testing.assert_allclose(np.asarray(mine(x)), np.tanh(X**2) + 1.0)


def test_the_cache_key_holds_the_global_pipeline():
    calls = []

    def spy(graph):
        calls.append(1)
        return graph

    f = ast.jit(lambda x: x + 1.0, backend="reference")
    x = ast.asarray(X)
    f(x)
    f(x)
    assert f.stats()["traces"] == 1
    with passes.pipeline_scope():
        passes.register_pass("spy", spy)
        f(x)
        f(x)
    assert f.stats()["traces"] == 2 and len(calls) == 1
    f(x)  # the old pipeline is back: its program is still cached
    assert f.stats()["traces"] == 2


def test_pass_report_times_counts_and_lists_events():
    lowered = ast.jit(lambda x: (x * 1.0) / 4.0 + ast.exp(x), backend="reference").lower(
        ast.asarray(X)
    )
    report = lowered.pass_report()
    assert isinstance(report, PassReport)
    assert [row[0] for row in report.rows] == passes.passes()
    assert all(seconds >= 0 for _, seconds, _, _ in report.rows)
    assert report.counts["simplify"] == {"x*1": 1, "x/2**k": 1}
    text = str(report)
    assert "simplify" in text and "x/2**k x1" in text


def test_an_error_in_a_rule_names_the_pass_and_the_equation(monkeypatch):
    def broken(eqn, ctx):
        raise ZeroDivisionError("bad rule")

    monkeypatch.setitem(simplify_rules, exp_p, broken)
    g = graph_of(lambda x: ast.exp(x + 1.0), X)
    with pytest.raises(PassError) as info:
        run_pipeline(g)
    e = info.value
    assert e.pass_name == "simplify" and e.eqn_index == 1 and e.primitive == "exp"
    assert "test_pipeline.py" in e.source
    assert "'simplify'" in str(e) and "#1 (exp" in str(e) and "bad rule" in str(e)


def test_an_error_inside_a_control_flow_body_names_the_inner_pass(monkeypatch):
    def broken(eqn, ctx):
        raise RuntimeError("inner")

    monkeypatch.setitem(simplify_rules, exp_p, broken)
    g = graph_of(lambda x: ast.fori_loop(0, 3, lambda i, v: ast.exp(v), x), X)
    pattern = "'simplify' failed at equation #1 \\(exp.*inner.*during pass 'optimize_subgraphs' at equation #0"
    with pytest.raises(PassError, match=pattern):
        run_pipeline(g)


def test_tests_verify_after_every_pass():
    def breaks_types(graph):  # an output aval that the shape rule does not give
        eqn = graph.eqns[0]
        bad = Eqn(
            eqn.prim, eqn.inputs, (type(eqn.outputs[0])(ShapedArray((7,), X.dtype)),), eqn.params
        )
        return Graph(graph.inputs, (bad,), bad.outputs)

    g = graph_of(lambda x: ast.exp(x), X)
    with pytest.raises(PassError, match="after pass 'breaks_types' does not verify"):
        run_pipeline(g, [("breaks_types", breaks_types)])  # no verify=True: tests turn it on
    run_pipeline(g, [("breaks_types", breaks_types)], verify=False)


def test_dump_prints_the_ir_after_named_passes_of_a_jitted_function(monkeypatch, capsys):
    monkeypatch.setenv("ARRAYSTACK_DUMP", "simplify,eliminate_dead_code")
    ast.jit(lambda x: x * 1.0 + 2.0, backend="reference").lower(ast.asarray(X))
    err = capsys.readouterr().err
    assert "# IR after simplify" in err and "# IR after eliminate_dead_code" in err
    assert "# IR after fuse_elementwise" not in err


def test_pipeline_specs_are_checked():
    with pytest.raises(KeyError, match="no optimizer pass named 'nope'"):
        ast.jit(lambda x: x, passes=["nope"])
    with pytest.raises(TypeError, match="a name or a \\(name, fn\\) pair"):
        ast.jit(lambda x: x, passes=[42])
    with pytest.raises(PassError, match="returned a NoneType"):
        run_pipeline(graph_of(lambda x: x + 1.0, X), [("nothing", lambda g: None)])
