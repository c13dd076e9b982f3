"""fuse_elementwise follows the FusionPolicy it is given (as an argument or through run_pipeline), and
records each region's layout (arraystack.ir.regions) for codegen. Every fused graph is evaluated against
NumPy on values."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.ir import eval_graph, typecheck
from arraystack.ir import primitives as p
from arraystack.ir.control import fusion_p
from arraystack.ir.passes import GENERIC, FusionPolicy, register_pass, run_pipeline
from arraystack.ir.passes.fuse import fuse_elementwise
from arraystack.ir.passes.pipeline import pipeline_scope
from arraystack.ir.regions import RegionLayout, derive_layout, region_layout

import arraystack as ast
from tests.jit.passes.graphs import graph_of, inside, outside

X = np.linspace(-1.5, 2.0, 12).reshape(3, 4)





def check_values(graph, expected, *args):
    typecheck(graph)
    got = eval_graph(graph, *args)
    for g, e in zip(got, expected if isinstance(expected, tuple) else (expected,)):
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-13, atol=1e-13)


NO_EXP = FusionPolicy("no exp", elementwise=lambda eqn: eqn.prim is not p.exp_p)
ELEMENTWISE_ONLY = FusionPolicy("elementwise only", reducing_regions=False)
# exp needs a checked variant: it joins regions that do not reduce only
CHECKED_EXP = FusionPolicy("checked exp", checked=lambda eqn: eqn.prim is p.exp_p)


def chain(a):
    return ast.exp(a * 2.0 + 1.0) * 3.0 - a


def chain_np(a):
    return np.exp(a * 2.0 + 1.0) * 3.0 - a


def test_generic_fuses_the_whole_chain():
    out = fuse_elementwise(graph_of(chain, X))
    assert outside(out) == [] and len(inside(out)) == 1 and "exp" in inside(out)[0]
    check_values(out, chain_np(X), X)


def test_a_policy_refusing_exp_keeps_exp_out_of_regions():
    out = fuse_elementwise(graph_of(chain, X), NO_EXP)
    assert outside(out) == ["exp"]
    assert all("exp" not in region for region in inside(out))
    assert len(inside(out)) == 2  # the chain before exp and the one after it still fuse
    check_values(out, chain_np(X), X)


def softmax(x):
    e = ast.exp(x - ast.max(x, axis=-1, keepdims=True))
    return e / ast.sum(e, axis=-1, keepdims=True)


def softmax_np(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_a_policy_without_reducing_regions_keeps_reductions_out():
    g = graph_of(softmax, X)
    generic = fuse_elementwise(g)
    assert any("reduce_sum" in region for region in inside(generic))
    out = fuse_elementwise(g, ELEMENTWISE_ONLY)
    assert "reduce_max" in outside(out) and "reduce_sum" in outside(out)
    assert all(not name.startswith("reduce") for region in inside(out) for name in region)
    assert inside(out)  # the elementwise parts still fuse
    check_values(out, softmax_np(X), X)
    check_values(generic, softmax_np(X), X)


def test_a_checked_equation_joins_only_regions_that_do_not_reduce():
    def f(x):
        return ast.exp(x).sum(axis=1) + ast.exp(x * 2.0)[:, 0]

    g = graph_of(f, X)
    expected = np.exp(X).sum(axis=1) + np.exp(X * 2.0)[:, 0]
    generic = fuse_elementwise(g)
    assert any("exp" in r and "reduce_sum" in r for r in inside(generic))
    out = fuse_elementwise(g, CHECKED_EXP)
    regions = inside(out)
    assert any("exp" in r for r in regions)
    assert not any("exp" in r and "reduce_sum" in r for r in regions)
    check_values(out, expected, X)
    check_values(generic, expected, X)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_generic_fuses_what_a_cpu_backend_may_refuse(dtype):
    # float64 arcsinh, hypot and a general power: numba's policy keeps them out (NumPy's loops are
    # faster than its scalar libm calls); the region model expresses them, so GENERIC fuses them
    x = (X + 2.0).astype(dtype)

    def f(a):
        return ast.arcsinh(a) * 2.0 + ast.hypot(a, 1.5) + a**2.5

    expected = np.arcsinh(x) * 2.0 + np.hypot(x, 1.5) + x**2.5
    out = run_pipeline(graph_of(f, x))
    assert outside(out) == []
    names = [n for region in inside(out) for n in region]
    assert {"asinh", "hypot", "pow"} <= set(names)
    typecheck(out)
    got = np.asarray(eval_graph(out, x)[0])
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, rtol=1e-6 if dtype == "float32" else 1e-13)


def test_generic_fuses_complex_values():
    z = X + 1j * X[::-1]
    out = fuse_elementwise(graph_of(lambda a: (a * a + 1.0).sum(axis=1), z))
    assert outside(out) == []
    check_values(out, (z * z + 1.0).sum(axis=1), z)


def test_run_pipeline_hands_its_policy_to_the_pass_and_to_nested_runs():
    g = graph_of(chain, X)
    assert "exp" not in outside(run_pipeline(g))  # GENERIC by default
    assert outside(run_pipeline(g, fusion=NO_EXP)) == ["exp"]
    # a loop body is optimized by a nested run (optimize_subgraphs): it inherits the policy
    loop = graph_of(lambda x: ast.fori_loop(0, 3, lambda i, v: ast.exp(v * 0.25) * 0.5 - v, x), X)
    out = run_pipeline(loop, fusion=NO_EXP)
    (body,) = [v for e in out.eqns for v in e.params.values() if hasattr(v, "eqns")]
    assert outside(body).count("exp") == 1
    expected = X
    for _ in range(3):
        expected = np.exp(expected * 0.25) * 0.5 - expected
    check_values(out, expected, X, np.int64(0))  # the graph's second input: the loop's start
    generic = run_pipeline(loop)
    (body,) = [v for e in generic.eqns for v in e.params.values() if hasattr(v, "eqns")]
    assert "exp" not in outside(body)


def test_the_policy_holds_for_one_run_only():
    g = graph_of(chain, X)
    run_pipeline(g, fusion=NO_EXP)
    assert "exp" not in outside(run_pipeline(g))
    assert "exp" not in outside(fuse_elementwise(g))


def test_a_plain_user_pass_still_runs_next_to_a_policy():
    seen = []

    def spy(graph):
        seen.append(len(graph.eqns))
        return graph

    with pipeline_scope():
        register_pass("spy", spy, before="fuse_elementwise")
        out = run_pipeline(graph_of(chain, X), fusion=NO_EXP)
    assert seen and outside(out) == ["exp"]


def test_run_pipeline_refuses_a_policy_of_another_type():
    with pytest.raises(TypeError, match="FusionPolicy"):
        run_pipeline(graph_of(chain, X), fusion="numba")


def test_the_pass_records_each_region_layout_and_readers_get_it_back():
    def f(x):
        return x - x.mean(axis=1, keepdims=True) + ast.exp(x)

    out = fuse_elementwise(graph_of(f, X))
    subs = [e.params["graph"] for e in out.eqns if e.prim is fusion_p]
    assert subs
    for sub in subs:
        layout = region_layout(sub)
        assert region_layout(sub) is layout  # recorded once, read back
        assert layout == derive_layout(sub)  # the same as worked out from the sub-graph
    reducing = [region_layout(sub) for sub in subs if region_layout(sub).axes]
    assert reducing == [RegionLayout((3, 4), (1,))]
    (layout,) = reducing
    assert layout.kept == (0,) and layout.outer_shape == (3,)
    assert [layout.level(s) for s in [(3, 4), (3,), (3, 1), (4,), (1, 4)]] == [
        "full",
        "outer",
        "outer",
        None,
        None,
    ]
    check_values(out, X - X.mean(axis=1, keepdims=True) + np.exp(X), X)


def test_a_layout_is_derived_once_for_a_region_the_pass_did_not_build():
    sub = next(
        e.params["graph"]
        for e in fuse_elementwise(graph_of(softmax, X)).eqns
        if e.prim is fusion_p and any(x.prim.name == "reduce_sum" for x in e.params["graph"].eqns)
    )
    rebuilt = type(sub)(sub.inputs, sub.eqns, sub.outputs)  # another object: nothing recorded
    first = region_layout(rebuilt)
    assert first == region_layout(sub) and region_layout(rebuilt) is first


def test_generic_is_the_default_policy():
    assert GENERIC.reducing_regions
    assert fuse_elementwise(graph_of(chain, X)).eqns[0].prim is fusion_p
