"""numba's fusion policy (backends/numba/fusion_policy.py): what the numba backend lets fuse_elementwise put
into regions, and that jit hands it to the pipeline. Values against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.numba.fusion_policy import NUMBA_FUSION, float32_integer_power
from arraystack.ir import eval_graph, typecheck
from arraystack.ir.control import fusion_p
from arraystack.ir.passes import run_pipeline
from arraystack.ir.passes.fuse import fuse_elementwise
from arraystack.ir.primitives import pow_p

import arraystack as ast
from tests.jit.passes.graphs import graph_of, inside, outside, square_to_pow

X = np.linspace(-2.0, 2.0, 12).reshape(3, 4)





def check_values(graph, expected, *args, rtol=1e-13):
    typecheck(graph)
    got = np.asarray(eval_graph(graph, *args)[0])
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)


def test_whole_array_float_functions_stay_out_and_the_rest_of_the_chain_fuses():
    g = graph_of(lambda a: ast.arcsinh(a * 2.0) + ast.hypot(a, 1.0) * 3.0, X)
    out = fuse_elementwise(g, NUMBA_FUSION)
    assert sorted(outside(out)) == ["asinh", "hypot"]
    assert inside(out)  # a * 2.0 and the sum around them still fuse
    check_values(out, np.arcsinh(X * 2.0) + np.hypot(X, 1.0) * 3.0, X)
    assert outside(fuse_elementwise(g)) == []  # the pass's default fuses them


@pytest.mark.parametrize("n, fuses", [(3.0, True), (4.0, True), (2.5, False)])
def test_float32_integer_powers_fuse_other_float32_powers_do_not(n, fuses):
    x = X.astype(np.float32)
    out = fuse_elementwise(graph_of(lambda a: (a + 3.0) ** n * 2.0, x), NUMBA_FUSION)
    assert ("pow" not in outside(out)) == fuses
    every = [e for r in out.eqns for e in (r.params["graph"].eqns if r.prim is fusion_p else (r,))]
    (power,) = [e for e in every if e.prim is pow_p]
    assert float32_integer_power(power) == (int(n) if fuses else None)
    check_values(out, (x + np.float32(3.0)) ** np.float32(n) * np.float32(2.0), x, rtol=1e-6)


def test_complex_arithmetic_reductions_exp_sqrt_and_logs_fuse_complex_sin_stays_out():
    z = X + 1j * X[::-1]
    out = fuse_elementwise(graph_of(lambda a: (a * a).sum(axis=1), z), NUMBA_FUSION)
    assert outside(out) == []
    assert inside(out) == [["mul", "reduce_sum"]]
    check_values(out, (z * z).sum(axis=1), z)
    out = fuse_elementwise(graph_of(lambda a: ast.exp(a) * 2.0 + a, z), NUMBA_FUSION)
    assert outside(out) == []
    out = fuse_elementwise(graph_of(lambda a: ast.sqrt(a) * 2.0 + a, z), NUMBA_FUSION)
    assert outside(out) == []
    logs = graph_of(lambda a: ast.log(a) * 2.0 + ast.log2(a) - ast.log10(a), z)
    out = fuse_elementwise(logs, NUMBA_FUSION)
    assert outside(out) == []
    out = fuse_elementwise(graph_of(lambda a: ast.sin(a) * 2.0 + a, z), NUMBA_FUSION)
    assert outside(out) == ["sin"]
    reductions = graph_of(lambda a: (a * a).prod(axis=1) + a.max(axis=1), z)
    assert outside(fuse_elementwise(reductions, NUMBA_FUSION)) == []  # codegen_complex.py


def test_float32_sin_joins_elementwise_regions_never_reducing_ones():
    x = X.astype(np.float32)

    def f(a):
        return ast.sin(a * 2.0).sum(axis=1) + ast.cos(a)[:, 0]

    expected = np.sin(x * np.float32(2.0)).sum(axis=1) + np.cos(x)[:, 0]
    out = fuse_elementwise(graph_of(f, x), NUMBA_FUSION)
    regions = inside(out)
    assert any("sin" in r for r in regions) and any("reduce_sum" in r for r in regions)
    assert not any(("sin" in r or "cos" in r) and "reduce_sum" in r for r in regions)
    check_values(out, expected, x, rtol=1e-5)
    # float64 sin is not checked: it joins the reducing region
    out64 = fuse_elementwise(graph_of(f, X), NUMBA_FUSION)
    assert any("sin" in r and "reduce_sum" in r for r in inside(out64))


def test_run_pipeline_with_numba_policy_matches_the_frontend():
    g = graph_of(lambda a: ast.arcsinh(a) * 2.0 + 1.0, X)
    assert outside(run_pipeline(g, fusion=NUMBA_FUSION)) == ["asinh"]
    numba = ast.jit(lambda a: ast.arcsinh(a) * 2.0 + 1.0, backend="numba").lower(ast.asarray(X))
    assert outside(numba.optimized) == ["asinh"]
    reference = ast.jit(lambda a: ast.arcsinh(a) * 2.0 + 1.0, backend="reference")
    assert outside(reference.lower(ast.asarray(X)).optimized) == []



@pytest.mark.numba
def test_a_user_pass_shows_in_the_numba_kernel_source():
    f = ast.jit(
        lambda x: ast.tanh(x * x),
        backend="numba",
        tiered=False,
        passes=["simplify", ("square_to_pow", square_to_pow), "fuse_elementwise"],
    )
    text = f.lower(ast.asarray(X)).compile().as_text()
    default = ast.jit(lambda x: ast.tanh(x * x), backend="numba", tiered=False)
    plan = text.split("# optimized graph", 1)[0]
    assert "pow" in plan  # the user's pow runs as its own NumPy step (float pow never fuses)
    assert text.split("# generated source", 1)[1] != (
        default.lower(ast.asarray(X)).compile().as_text().split("# generated source", 1)[1]
    )
    np.testing.assert_allclose(np.asarray(f(ast.asarray(X))), np.tanh(X * X), rtol=1e-13)


def test_the_plan_names_the_regions_numba_leaves_to_numpy():
    x = np.ones((8, 8))
    f = ast.jit(lambda a: ast.sort((a * 3.0).astype(np.int32), axis=1) + ast.tanh(a) * 2.0)
    text = f.lower(x).plan().explain()
    reason = "float -> int conversion keeps NumPy's out-of-range behaviour on the reference path"
    assert f"not compiled (numba: {reason})" in text
    fused = [part for part in text.split("region ")[1:] if "`fusion`" in part and "tanh" not in part]
    assert any("not compiled" not in part for part in fused)  # the float region is a kernel
