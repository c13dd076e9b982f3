"""The numba backend's attention kernels (backends/numba/attention.py) against the reference rules, which
walk the same tiles with NumPy: masks, biases, causal attention, rows without an allowed key, shapes over
several tiles, float32 and float64; and compiled plans that run them."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.numba.attention import attention_step
from arraystack.ir import GraphBuilder, ShapedArray, Var
from arraystack.ir.attention import BLOCK_K, BLOCK_Q, attention_grad_p, attention_p
from arraystack.ir.reference import reference_rules

import arraystack as ast
from arraystack import nn

pytest.importorskip("numba")
pytestmark = pytest.mark.numba

RNG = np.random.default_rng(3)


def _step(prim, operands, **params):
    b = GraphBuilder()
    inputs = [Var(ShapedArray(x.shape, x.dtype)) for x in operands]
    eqn = b.build(inputs, b.emit(prim, inputs, params)).eqns[0]
    step, sources = attention_step(eqn)
    assert sources and all("@numba.njit(parallel=True" in s for s in sources)
    return step(*operands)


def _operands(dtype, lq, lk, masks):
    q, k = (RNG.standard_normal((2, 3, n, 8)).astype(dtype) for n in (lq, lk))
    v = RNG.standard_normal((2, 3, lk, 5)).astype(dtype)
    extra = []
    if "mask" in masks:
        mask = RNG.random((2, 1, lq, lk)) > 0.3
        mask[1, 0, lq // 2] = False  # a row without an allowed key
        extra.append(mask)
    if "bias" in masks:
        extra.append(RNG.standard_normal((1, 3, 1, lk)).astype(dtype))
    return [q, k, v, *extra]


CASES = [  # (Lq, Lk, causal, masks)
    (5, 7, False, ()),
    (1, 1, True, ("mask",)),
    (BLOCK_Q + 6, 2 * BLOCK_K + 3, True, ("mask", "bias")),
    (2 * BLOCK_Q + 1, BLOCK_K - 3, False, ("bias",)),
    (3 * BLOCK_Q, 3 * BLOCK_K, True, ()),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("lq,lk,causal,masks", CASES)
def test_kernels_match_the_reference_rules(dtype, lq, lk, causal, masks):
    operands = _operands(dtype, lq, lk, masks)
    params = {"scale": 0.4, "causal": causal}
    out, lse = _step(attention_p, operands, **params)
    want_out, want_lse = reference_rules[attention_p](np, *operands, **params)
    tol = 1e-6 if dtype == np.float32 else 1e-14
    assert out.dtype == lse.dtype == dtype
    np.testing.assert_allclose(out, want_out, rtol=tol * 10, atol=tol)
    np.testing.assert_allclose(lse, want_lse, rtol=tol, atol=tol)  # -inf on the same rows
    dout = RNG.standard_normal(out.shape).astype(dtype)
    dlse = RNG.standard_normal(lse.shape).astype(dtype)
    grads = _step(attention_grad_p, [*operands, want_out, want_lse, dout, dlse], **params)
    wanted = reference_rules[attention_grad_p](
        np, *operands, want_out, want_lse, dout, dlse, **params
    )
    for got, want in zip(grads, wanted):
        assert got.shape == want.shape and got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=tol * 100, atol=tol * 10)


def test_compiled_plans_run_the_kernels_forward_and_backward():
    q, k, v = (RNG.standard_normal((2, 2, 70, 8)) for _ in range(3))
    padding = np.ones((2, 1, 1, 70), bool)
    padding[1, ..., 40:] = False

    def loss(q, k, v):
        out = nn.dot_product_attention(q, k, v, padding, is_causal=True, implementation="fused")
        return ast.sum(out**2)

    grad = ast.jit(ast.value_and_grad(loss, argnums=(0, 1, 2)), tiered=False)
    plan = grad.lower(q, k, v).compile().steps
    assert ("attention", "numba attention kernels (score tiles, online softmax)") in plan
    assert ("attention_grad", "numba attention kernels (score tiles, online softmax)") in plan
    value, grads = grad(q, k, v)
    want_value, want_grads = ast.value_and_grad(loss, argnums=(0, 1, 2))(q, k, v)
    np.testing.assert_allclose(float(value), float(want_value), rtol=1e-13)
    for got, want in zip(grads, want_grads):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-11, atol=1e-13)
