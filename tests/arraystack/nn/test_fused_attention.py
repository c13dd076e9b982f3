"""The fused attention primitive behind nn.dot_product_attention: against the composite formula in NumPy
(masks, shapes across several tiles, dtypes, fully masked rows), its gradients against finite differences
and the composite's gradient, jit against eager, vmap against a loop, and the scores never materialized
whole in the gradient's graph."""

from __future__ import annotations

import math

import numpy as np
import pytest
from arraystack.ir.attention import BLOCK_K, BLOCK_Q, attention_p
from arraystack.ir.avals import aval_of_concrete
from arraystack.ir.core import bind
from arraystack.ir.primitives import abstract_eval_rules

import arraystack as ast
from arraystack import nn
from arraystack._core.array import raw, wrap
from arraystack.nn.attention import _composite

RNG = np.random.default_rng(0)


def numpy_attention(q, k, v, mask=None, is_causal=False, scale=None):
    """The composite formula in NumPy, float64: masked scores at the most negative finite value."""
    q, k, v = (np.asarray(x, np.float64) for x in (q, k, v))
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ np.swapaxes(k, -1, -2) * scale
    allowed = None
    if is_causal:
        allowed = np.arange(q.shape[-2])[:, None] >= np.arange(k.shape[-2])[None, :]
    if mask is not None and np.asarray(mask).dtype == bool:
        allowed = mask if allowed is None else allowed & mask
    elif mask is not None:
        s = s + mask
    if allowed is not None:
        s = np.where(allowed, s, np.finfo(np.float64).min)
    w = np.exp(s - s.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)) @ v


def qkv(batch, lq, lk, d=8, dv=None, dtype=np.float64):
    dv = d if dv is None else dv
    return [
        RNG.standard_normal((*batch, n, m)).astype(dtype) for n, m in ((lq, d), (lk, d), (lk, dv))
    ]


def masks(batch, lq, lk):
    """name -> mask (None, boolean, additive, key padding, a boolean that empties a row)."""
    padding = np.ones((*batch[:1], 1, 1, lk), bool)
    padding[..., lk // 2 + 1 :] = False
    empties = RNG.random((*batch[:1], 1, lq, lk)) > 0.3
    empties[..., 0, :] = False
    return {
        "none": None,
        "boolean": RNG.random((lq, lk)) > 0.4,
        "additive": RNG.standard_normal((*batch, lq, lk)),
        "key_padding": padding,
        "empty_row": empties,
    }


SHAPES = [  # (Lq, Lk): one tile, Lq != Lk, not multiples of the block, length 1, several tiles
    (5, 7),
    (1, 1),
    (1, 9),
    (BLOCK_Q + 3, 2 * BLOCK_K + 5),
    (2 * BLOCK_Q + 1, BLOCK_K - 1),
]


def attention(*args, **kwargs):
    """nn.dot_product_attention on its fused path (the default takes it for large score matrices)."""
    return nn.dot_product_attention(*args, implementation="fused", **kwargs)


def _uses_fused(fn, *args):
    graph = ast.jit(fn).lower(*args).traced
    return any(eqn.prim is attention_p for eqn in graph.eqns)


@pytest.mark.parametrize("lq,lk", SHAPES)
@pytest.mark.parametrize("mask_name", ["none", "boolean", "additive", "key_padding", "empty_row"])
@pytest.mark.parametrize("is_causal", [False, True])
def test_matches_the_composite_formula(lq, lk, mask_name, is_causal):
    q, k, v = qkv((2, 3), lq, lk, dv=5)
    mask = masks((2, 3), lq, lk)[mask_name]
    got = attention(q, k, v, mask, is_causal=is_causal)
    np.testing.assert_allclose(
        np.asarray(got), numpy_attention(q, k, v, mask, is_causal), rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtypes_and_the_fused_path(dtype):
    q, k, v = qkv((2,), 2 * BLOCK_Q + 3, BLOCK_K + 9, dtype=dtype)
    mask = RNG.random((BLOCK_K + 9,)) > 0.2
    got = attention(q, k, v, mask, is_causal=True, scale=0.3)
    assert got.dtype == dtype
    tol = 2e-6 if dtype == np.float32 else 1e-12
    expected = numpy_attention(q, k, v, mask, True, 0.3)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=tol, atol=tol)
    assert _uses_fused(lambda q, k, v: attention(q, k, v, is_causal=True), q, k, v)


def test_other_dtypes_and_dropout_run_the_composite_formula():
    q, k, v = qkv((2,), 4, 6, dtype=np.float16)
    assert not _uses_fused(attention, q, k, v)
    np.testing.assert_allclose(
        np.asarray(attention(q, k, v)),
        numpy_attention(q, k, v),
        rtol=2e-2,
        atol=2e-3,
    )
    q, k, v = qkv((2,), 4, 6)
    key = ast.prng.key(0)

    def dropped(q, k, v):
        return attention(q, k, v, dropout_rate=0.5, dropout_key=key)

    assert not _uses_fused(dropped, q, k, v)


def test_a_row_without_allowed_keys_averages_the_values_and_its_lse_is_minus_inf():
    q, k, v = qkv((1,), 3, 5)
    mask = np.ones((1, 3, 5), bool)
    mask[0, 1] = False
    out, lse = bind(attention_p, q, k, v, mask, scale=0.5, causal=False)
    np.testing.assert_allclose(out[0, 1], v[0].mean(axis=0), rtol=1e-14)
    assert lse[0, 1] == -np.inf and np.isfinite(lse[0, [0, 2]]).all()
    s = q[0] @ k[0].T * 0.5
    np.testing.assert_allclose(lse[0, [0, 2]], np.log(np.exp(s[[0, 2]]).sum(-1)), rtol=1e-14)
    # no key at all: zeros (the sum over no value row)
    out, lse = bind(attention_p, q, k[:, :0], v[:, :0], scale=0.5, causal=False)
    assert (out == 0).all() and out.shape == (1, 3, 8) and (lse == -np.inf).all()


def test_a_bias_of_minus_inf_everywhere_gives_nan_as_the_composite_does():
    q, k, v = qkv((1,), 2, 3)
    bias = np.full((1, 2, 3), -np.inf)
    bias[0, 0, 1] = 0.0
    with np.errstate(invalid="ignore"):
        got = np.asarray(attention(q, k, v, bias))
    assert np.isnan(got[0, 1]).all() and np.isfinite(got[0, 0]).all()


def test_bad_operands_raise_numpy_s_errors():
    q, k, v = qkv((2,), 3, 4)
    with pytest.raises(ValueError):
        attention(q, k[..., :5], v)
    with pytest.raises(ValueError):
        attention(q, k, v, np.ones((3, 5), bool))
    rule = abstract_eval_rules[attention_p]
    a = [aval_of_concrete(x) for x in (q, k, v)]
    with pytest.raises(TypeError, match="attention of q f64"):
        rule(a[0], a[1], aval_of_concrete(v.astype(np.float32)), scale=1.0, causal=False)
    with pytest.raises(ValueError, match="does not broadcast"):
        rule(*a, aval_of_concrete(np.ones((2, 2, 4), bool)), scale=1.0, causal=False)
    with pytest.raises(TypeError, match="a bool mask then a bias"):
        rule(*a, aval_of_concrete(np.ones((2, 3, 4))), aval_of_concrete(np.ones((2, 3, 4), bool)),
             scale=1.0, causal=False)  # fmt: skip


def test_scaled_dot_product_attention_is_pytorch_s_name():
    q, k, v = qkv((2,), 3, 4)
    mask = RNG.random((3, 4)) > 0.3
    np.testing.assert_array_equal(
        np.asarray(nn.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=True)),
        np.asarray(nn.dot_product_attention(q, k, v, mask, is_causal=True)),
    )


# -- derivatives ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mask_name", ["none", "boolean", "additive", "empty_row"])
@pytest.mark.parametrize("is_causal", [False, True])
def test_gradients_against_finite_differences(check_grads, mask_name, is_causal):
    q, k, v = qkv((1, 2), 4, 6, d=3, dv=2)
    mask = masks((1, 2), 4, 6)[mask_name]

    def f(q, k, v):
        return attention(q, k, v, mask, is_causal=is_causal)

    check_grads(f, (q, k, v), order=2)


def test_the_bias_gradient_against_finite_differences(check_grads):
    q, k, v = qkv((2,), 4, 5, d=3)
    mask = RNG.random((1, 4, 5)) > 0.3
    mask[0, 1] = False

    def f(bias, q):
        operands = [raw(ast.asarray(x)) for x in (q, k, v, mask, bias)]
        out, lse = (wrap(x) for x in bind(attention_p, *operands, scale=0.7, causal=True))
        return out, ast.where(ast.isfinite(lse), lse, 0.0)

    check_grads(f, (RNG.standard_normal((1, 4, 5)), q))


@pytest.mark.parametrize("lq,lk", [(5, 7), (BLOCK_Q + 3, BLOCK_K + 17)])
def test_gradients_equal_the_composite_formula_s(lq, lk):
    q, k, v = qkv((2, 2), lq, lk, dv=5)
    mask = masks((2, 2), lq, lk)["empty_row"]
    weights = RNG.standard_normal((2, 2, lq, 5))

    def loss(attention):
        def f(q, k, v):
            return ast.sum(attention(q, k, v, mask, is_causal=True) * weights)

        return ast.grad(f, argnums=(0, 1, 2))

    def composite(q, k, v, mask, is_causal):
        return _composite(q, k, v, ast.asarray(mask), is_causal, 1 / math.sqrt(8), 0.0, None)

    for got, want in zip(loss(attention)(q, k, v), loss(composite)(q, k, v)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-10, atol=1e-12)


def test_the_gradient_graph_holds_no_whole_score_matrix():
    lq, lk = 3 * BLOCK_Q, 2 * BLOCK_K + 1
    q, k, v = qkv((2,), lq, lk, d=4)

    def f(q, k, v):
        return ast.sum(attention(q, k, v, is_causal=True) ** 2)

    graph = ast.jit(ast.grad(f, argnums=(0, 1, 2))).lower(q, k, v).optimized
    shapes = {tuple(v.aval.shape) for eqn in graph.eqns for v in eqn.outputs}
    assert not any(s[-2:] == (lq, lk) for s in shapes if len(s) >= 2)
    assert {eqn.prim.name for eqn in graph.eqns} >= {"attention", "attention_grad"}


# -- jit and vmap -----------------------------------------------------------------------------------------


def test_jit_equals_eager():
    q, k, v = qkv((2, 2), 9, 11)
    mask = masks((2, 2), 9, 11)["key_padding"]

    def f(q, k, v):
        return attention(q, k, v, mask, is_causal=True)

    np.testing.assert_allclose(
        np.asarray(ast.jit(f)(q, k, v)), np.asarray(f(q, k, v)), rtol=1e-13, atol=1e-13
    )


@pytest.mark.parametrize("in_axes", [(0, 0, 0, None), (0, None, None, 0), (None, 1, 1, None)])
def test_vmap_equals_a_loop(in_axes):
    q, k, v = qkv((2,), 3, 4)
    bias = RNG.standard_normal((3, 4))
    batched = {0: lambda x: np.stack([x, 2 * x]), 1: lambda x: np.stack([x, 2 * x], axis=1)}
    args = [a if ax is None else batched[ax](a) for a, ax in zip((q, k, v, bias), in_axes)]

    def f(q, k, v, bias):
        return attention(q, k, v, bias, is_causal=True)

    got = np.asarray(ast.vmap(f, in_axes=in_axes)(*args))
    for n in range(2):
        one = [a if ax is None else np.take(a, n, axis=ax) for a, ax in zip(args, in_axes)]
        np.testing.assert_allclose(got[n], np.asarray(f(*one)), rtol=1e-13, atol=1e-13)


def test_vmap_of_the_gradient_equals_a_loop():
    q, k, v = qkv((3,), 5, 6)

    def f(q, k, v):
        return ast.sum(attention(q, k, v, is_causal=True) ** 2)

    got = ast.vmap(ast.grad(f, argnums=(0, 1, 2)))(q, k, v)
    for n in range(3):
        for g, w in zip(got, ast.grad(f, argnums=(0, 1, 2))(q[n], k[n], v[n])):
            np.testing.assert_allclose(np.asarray(g)[n], np.asarray(w), rtol=1e-13, atol=1e-13)


def test_the_default_takes_the_fused_path_for_large_score_matrices(monkeypatch):
    q, k, v = qkv((2,), 5, 6)
    assert not _uses_fused(nn.dot_product_attention, q, k, v)
    monkeypatch.setattr(nn.attention, "FUSED_MIN_BYTES", 2 * 5 * 6 * 8)
    assert _uses_fused(nn.dot_product_attention, q, k, v)
    assert not _uses_fused(nn.dot_product_attention, q, k[:, :5], v[:, :5])
    assert not _uses_fused(
        lambda q, k, v: nn.dot_product_attention(q, k, v, implementation="composite"), q, k, v
    )
    with pytest.raises(ValueError, match="implementation"):
        nn.dot_product_attention(q, k, v, implementation="flash")


def test_multi_head_attention_uses_it_with_masks_and_key_padding(monkeypatch):
    monkeypatch.setattr(nn.attention, "FUSED_MIN_BYTES", 0)
    mha = nn.MultiHeadAttention(8, 2, key=ast.prng.key(0), dtype=ast.float64)
    x = RNG.standard_normal((2, 5, 8))
    padding = np.zeros((2, 5), bool)
    padding[1, 3:] = True
    assert _uses_fused(lambda x: mha(x, key_padding_mask=padding, is_causal=True), x)
    got = np.asarray(mha(x, key_padding_mask=padding, is_causal=True))
    q, k, v = (
        np.asarray(mha._heads(layer(x))) for layer in (mha.query_proj, mha.key_proj, mha.value_proj)
    )
    heads = numpy_attention(q, k, v, ~padding[:, None, None, :], True)
    merged = np.swapaxes(heads, 1, 2).reshape(2, 5, 8)
    expected = merged @ np.asarray(mha.output_proj.weight) + np.asarray(mha.output_proj.bias)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("is_causal", [False, True])
def test_onnx_export_decomposes_it(is_causal):
    pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    import arraystack.onnx

    q, k, v = qkv((2,), 5, 7, dtype=np.float32)
    mask = masks((2,), 5, 7)["empty_row"][0]

    def f(q, k, v):
        return attention(q, k, v, mask, is_causal=is_causal)

    model = arraystack.onnx.export(f, q, k, v)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {i.name: x for i, x in zip(model.graph.input, (q, k, v))})
    np.testing.assert_allclose(got, numpy_attention(q, k, v, mask, is_causal), rtol=2e-5, atol=2e-6)
