"""The layer modules against NumPy references (and PyTorch's layers with copied weights where torch
imports), their initializations, gradients against finite differences, jit against eager, and vmap
against a loop."""

from __future__ import annotations

import math

import numpy
import pytest
import scipy.special

import arraystack as ast
from arraystack import nn, prng

RNG = numpy.random.default_rng(281)
F64 = ast.float64


def _a(x):
    return numpy.asarray(x)


def _close(got, expected, rtol=1e-10, atol=1e-12):
    numpy.testing.assert_allclose(_a(got), expected, rtol=rtol, atol=atol)


def _normal(*shape):
    return RNG.standard_normal(shape)


# -- NumPy references ------------------------------------------------------------------------------


def np_conv(x, w, b, stride, padding, dilation, groups):
    """Cross-correlation of (N, C, *spatial) with (O, C/groups, *kernel), PyTorch's definition."""
    nd = x.ndim - 2
    x = numpy.pad(x, [(0, 0), (0, 0)] + [(padding, padding)] * nd)
    kernel = w.shape[2:]
    out_sizes = [(x.shape[2 + i] - dilation * (kernel[i] - 1) - 1) // stride + 1 for i in range(nd)]
    n, o = x.shape[0], w.shape[0]
    per_group_in, per_group_out = w.shape[1], o // groups
    y = numpy.zeros((n, o, *out_sizes))
    for pos in numpy.ndindex(*out_sizes):
        window = tuple(
            slice(p * stride, p * stride + dilation * (k - 1) + 1, dilation)
            for p, k in zip(pos, kernel)
        )
        patch = x[(slice(None), slice(None), *window)]  # (N, C, *kernel)
        for g in range(groups):
            xs = patch[:, g * per_group_in : (g + 1) * per_group_in]
            ws = w[g * per_group_out : (g + 1) * per_group_out]
            y[(slice(None), slice(g * per_group_out, (g + 1) * per_group_out), *pos)] = (
                numpy.tensordot(xs, ws, axes=(list(range(1, nd + 2)), list(range(1, nd + 2))))
            )
    return y + b.reshape((1, -1) + (1,) * nd)


def np_layer_norm(x, axes, w, b, eps):
    mean = x.mean(axes, keepdims=True)
    var = x.var(axes, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps) * w + b


def np_attention(q, k, v, allowed):
    """q (..., Lq, D), allowed (..., Lq, Lk) booleans."""
    scores = q @ numpy.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    scores = numpy.where(allowed, scores, numpy.finfo(scores.dtype).min)
    return scipy.special.softmax(scores, axis=-1) @ v


def np_mha(m, query, kv, allowed):
    """MultiHeadAttention from its weights; allowed broadcasts to (..., heads, Lq, Lk)."""

    def proj(layer, x):
        return x @ _a(layer.weight) + _a(layer.bias)

    def heads(x):
        x = x.reshape(*x.shape[:-1], m.num_heads, -1)
        return numpy.swapaxes(x, -2, -3)

    q, k, v = (
        heads(proj(m.query_proj, query)),
        heads(proj(m.key_proj, kv)),
        heads(proj(m.value_proj, kv)),
    )
    out = numpy.swapaxes(np_attention(q, k, v, allowed), -2, -3)
    return proj(m.output_proj, out.reshape(*out.shape[:-2], -1))


def np_gelu(x):
    return 0.5 * x * (1 + scipy.special.erf(x / math.sqrt(2)))


def np_block(block, x, allowed):
    def ln(layer, h):
        return np_layer_norm(h, -1, _a(layer.weight), _a(layer.bias), layer.eps)

    x = x + np_mha(block.attention, ln(block.norm1, x), ln(block.norm1, x), allowed)
    h = np_gelu(ln(block.norm2, x) @ _a(block.mlp_in.weight) + _a(block.mlp_in.bias))
    return x + h @ _a(block.mlp_out.weight) + _a(block.mlp_out.bias)


def np_gru(m, xs, h):
    s = scipy.special.expit
    wi, wh, bi, bh = (_a(m.weight_ih), _a(m.weight_hh), _a(m.bias_ih), _a(m.bias_hh))
    out = []
    for x in xs:
        xr, xz, xn = numpy.split(x @ wi + bi, 3, axis=-1)
        hr, hz, hn = numpy.split(h @ wh + bh, 3, axis=-1)
        r, z = s(xr + hr), s(xz + hz)
        h = (1 - z) * numpy.tanh(xn + r * hn) + z * h
        out.append(h)
    return numpy.stack(out), h


def np_lstm(m, xs, c, h):
    s = scipy.special.expit
    out = []
    for x in xs:
        i, f, g, o = numpy.split(x @ _a(m.weight_ih) + h @ _a(m.weight_hh) + _a(m.bias), 4, axis=-1)
        c = s(f) * c + s(i) * numpy.tanh(g)
        h = s(o) * numpy.tanh(c)
        out.append(h)
    return numpy.stack(out), (c, h)


# -- layers against NumPy --------------------------------------------------------------------------


def test_linear():
    lin = nn.Linear(5, 3, key=prng.key(0), dtype=F64)
    x = _normal(2, 4, 5)
    _close(lin(x), x @ _a(lin.weight) + _a(lin.bias))
    _close(lin(x), nn.dense({"w": lin.weight, "b": lin.bias}, x))
    no_bias = nn.Linear(5, 3, bias=False, key=prng.key(0))
    assert no_bias.bias is None and no_bias(x).shape == (2, 4, 3)


@pytest.mark.parametrize(
    "stride, padding, dilation, groups", [(1, 0, 1, 1), (2, 1, 1, 2), (1, 2, 2, 1)]
)
def test_conv1d_and_conv2d(stride, padding, dilation, groups):
    c1 = nn.Conv1d(4, 6, 3, stride, padding, dilation, groups, key=prng.key(1), dtype=F64)
    x1 = _normal(2, 4, 9)
    _close(c1(x1), np_conv(x1, _a(c1.weight), _a(c1.bias), stride, padding, dilation, groups))
    c2 = nn.Conv2d(4, 2, (3, 2), stride, padding, dilation, groups, key=prng.key(2), dtype=F64)
    x2 = _normal(2, 4, 7, 6)
    _close(c2(x2), np_conv(x2, _a(c2.weight), _a(c2.bias), stride, padding, dilation, groups))


def test_conv_channels_last_and_errors():
    first = nn.Conv2d(3, 4, 3, padding="SAME", key=prng.key(3), dtype=F64)
    last = nn.Conv2d(3, 4, 3, padding="SAME", data_format="NHWC", key=prng.key(3), dtype=F64)
    assert last.weight.shape == (3, 3, 3, 4) and first.weight.shape == (4, 3, 3, 3)
    last = last.replace(weight=ast.transpose(first.weight, (2, 3, 1, 0)), bias=first.bias)
    x = _normal(2, 3, 5, 5)
    _close(last(numpy.moveaxis(x, 1, -1)), numpy.moveaxis(_a(first(x)), 1, -1))
    with pytest.raises(ValueError, match="divide by groups"):
        nn.Conv1d(3, 4, 2, groups=2, key=prng.key(0))
    with pytest.raises(ValueError, match="expected a 4-d input"):
        first(_normal(3, 5, 5))


def test_embedding():
    emb = nn.Embedding(7, 3, key=prng.key(4))
    ids = numpy.array([[0, 6, 2]])
    _close(emb(ids), _a(emb.weight)[ids])
    assert emb.weight.dtype == numpy.float32


def test_layer_norm_and_rms_norm():
    x = _normal(3, 4, 5)
    ln = nn.LayerNorm((4, 5), eps=1e-3, dtype=F64)
    ln = ln.replace(weight=ast.asarray(_normal(4, 5)), bias=ast.asarray(_normal(4, 5)))
    _close(ln(x), np_layer_norm(x, (1, 2), _a(ln.weight), _a(ln.bias), 1e-3))
    assert nn.LayerNorm(5, elementwise_affine=False).weight is None
    rms = nn.RMSNorm(5, dtype=F64).replace(weight=ast.asarray(_normal(5)))
    expected = x / numpy.sqrt((x**2).mean(-1, keepdims=True) + numpy.finfo(float).eps)
    _close(rms(x), expected * _a(rms.weight))
    _close(
        nn.rms_norm(None, x, axis=(0, 2), epsilon=0.5),
        x / numpy.sqrt((x**2).mean((0, 2), keepdims=True) + 0.5),
    )
    with pytest.raises(ValueError, match="trailing axes of shape"):
        ln(_normal(3, 5, 4))


def test_batch_norm_training_and_evaluation():
    bn = nn.BatchNorm(3, momentum=0.8, dtype=F64)
    bn = bn.replace(weight=ast.asarray(_normal(3)), bias=ast.asarray(_normal(3)))
    x = _normal(4, 3, 5)
    state = bn.initial_state()
    y, new = bn(x, state)
    mean, var = x.mean((0, 2)), x.var((0, 2))
    norm = (x - mean[:, None]) / numpy.sqrt(var[:, None] + 1e-5)
    _close(y, norm * _a(bn.weight)[:, None] + _a(bn.bias)[:, None])
    _close(new["mean"], 0.2 * mean)
    _close(new["var"], 0.8 + 0.2 * var)
    y_eval, same = bn.eval()(x, new)
    assert same is new
    norm = (x - _a(new["mean"])[:, None]) / numpy.sqrt(_a(new["var"])[:, None] + 1e-5)
    _close(y_eval, norm * _a(bn.weight)[:, None] + _a(bn.bias)[:, None])
    with pytest.raises(ValueError, match="3 features on axis 1"):
        bn(_normal(4, 5), state)


def test_dropout_needs_a_key_in_training_and_is_the_identity_in_evaluation():
    x = ast.asarray(_normal(50, 40))
    drop = nn.Dropout(0.3)
    key = prng.key(5)
    _close(drop(x, key=key), nn.dropout(key, x, 0.3))
    kept = _a(drop(x, key=key)) != 0
    assert 0.6 < kept.mean() < 0.8
    assert drop.eval()(x) is x or numpy.array_equal(_a(drop.eval()(x)), _a(x))
    with pytest.raises(ValueError, match="needs a PRNG key"):
        drop(x)
    with pytest.raises(ValueError, match=r"rate must be in \[0, 1\]"):
        nn.Dropout(1.5)


def test_sequential_and_lambda():
    k1, k2 = prng.split(prng.key(6))
    model = nn.Sequential(
        [nn.Linear(3, 4, key=k1, dtype=F64), nn.relu, nn.Linear(4, 2, key=k2, dtype=F64)]
    )
    x = _normal(5, 3)
    hidden = numpy.maximum(x @ _a(model[0].weight) + _a(model[0].bias), 0)
    _close(model(x), hidden @ _a(model[2].weight) + _a(model[2].bias))
    assert len(model) == 3 and isinstance(model[1], nn.Lambda) and model[1].fn == "relu"
    _close(model[:2](x), hidden)
    custom = nn.Lambda(lambda v: 2 * v)
    _close(custom(x), 2 * x)
    with pytest.raises(ValueError, match="names no function"):
        nn.Lambda("no_such_function")
    with_bn = nn.Sequential(nn.Sequential(nn.Linear(3, 4, key=k1), nn.BatchNorm(4)), nn.relu)
    with pytest.raises(ValueError, match="keeps a state"):
        with_bn(x)
    y, state = with_bn(x, with_bn.initial_state())
    assert state[1] is None and set(state[0][1]) == {"mean", "var"} and y.shape == (5, 4)


def test_multi_head_attention_with_causal_and_padding_masks():
    mha = nn.MultiHeadAttention(8, 2, key=prng.key(7), dtype=F64)
    mha = ast.tree_util.tree_map(lambda a: ast.asarray(_normal(*a.shape)), mha)  # non-zero biases
    x = _normal(3, 5, 8)
    causal = numpy.tril(numpy.ones((5, 5), bool))
    _close(mha(x), np_mha(mha, x, x, numpy.ones((5, 5), bool)))
    _close(mha(x, is_causal=True), np_mha(mha, x, x, causal))
    padding = numpy.zeros((3, 5), bool)
    padding[0, 3:] = True
    padding[2, 1:] = True
    allowed = causal & ~padding[:, None, None, :]
    _close(mha(x, is_causal=True, key_padding_mask=padding), np_mha(mha, x, x, allowed))
    _close(mha(x, mask=causal), np_mha(mha, x, x, causal))
    memory = _normal(3, 4, 8)  # cross-attention, keys and values of another length
    _close(mha(x, memory), np_mha(mha, x, memory, numpy.ones((5, 4), bool)))
    with pytest.raises(ValueError, match="divide by num_heads"):
        nn.MultiHeadAttention(6, 4, key=prng.key(0))


def test_a_fully_masked_query_gets_uniform_weights_not_nan():
    q = _normal(2, 3, 4)
    v = _normal(2, 3, 4)
    mask = numpy.ones((3, 3), bool)
    mask[1] = False
    out = _a(nn.dot_product_attention(q, q, v, mask))
    assert numpy.isfinite(out).all()
    _close(out[:, 1], v.mean(1))


def test_attention_dropout_needs_a_key():
    mha = nn.MultiHeadAttention(4, 2, dropout=0.5, key=prng.key(8))
    x = _normal(2, 3, 4)
    with pytest.raises(ValueError, match="needs a PRNG key"):
        mha(x)
    assert mha(x, key=prng.key(1)).shape == (2, 3, 4)
    _close(mha.eval()(x), _a(mha.replace(dropout=0.0)(x)), rtol=1e-6)


def test_transformer_block():
    block = nn.TransformerBlock(8, 2, mlp_hidden=12, key=prng.key(9), dtype=F64)
    block = ast.tree_util.tree_map(lambda a: ast.asarray(_normal(*a.shape) * 0.5), block)
    x = _normal(2, 5, 8)
    causal = numpy.tril(numpy.ones((5, 5), bool))
    _close(block(x, is_causal=True), np_block(block, x, causal))
    dropping = nn.TransformerBlock(8, 2, dropout=0.2, key=prng.key(9))
    with pytest.raises(ValueError, match="needs a PRNG key"):
        dropping(x)
    a, b = dropping(x, key=prng.key(1)), dropping(x, key=prng.key(2))
    assert not numpy.allclose(_a(a), _a(b))
    _close(dropping.eval()(x), _a(dropping.replace(dropout=nn.Dropout(0.0)).eval()(x)))


@pytest.mark.parametrize("batch_first", [False, True])
def test_gru_and_lstm_over_sequences(batch_first):
    xs = _normal(6, 2, 3)  # (time, batch, features)
    given = numpy.moveaxis(xs, 0, 1) if batch_first else xs
    gru = nn.GRU(3, 4, batch_first, key=prng.key(10), dtype=F64)
    ys, h = gru(given)
    want_ys, want_h = np_gru(gru, xs, numpy.zeros((2, 4)))
    _close(ys, numpy.moveaxis(want_ys, 0, 1) if batch_first else want_ys)
    _close(h, want_h)
    lstm = nn.LSTM(3, 4, batch_first, key=prng.key(11), dtype=F64)
    c0, h0 = _normal(2, 4), _normal(2, 4)
    ys, (c, h) = lstm(given, (c0, h0))
    want_ys, (want_c, want_h) = np_lstm(lstm, xs, c0, h0)
    _close(ys, numpy.moveaxis(want_ys, 0, 1) if batch_first else want_ys)
    _close(c, want_c)
    _close(h, want_h)
    with pytest.raises(ValueError, match="sequences of shape"):
        gru(_normal(6, 2, 5))


# -- initialization --------------------------------------------------------------------------------


def test_initializations_are_pytorchs_defaults():
    key = prng.key(12)
    lin = nn.Linear(64, 256, key=key)
    bound = 1 / math.sqrt(64)
    for p in (lin.weight, lin.bias):
        w = _a(p)
        assert w.dtype == numpy.float32 and numpy.abs(w).max() <= bound
        assert numpy.abs(w).max() > 0.95 * bound
    assert not numpy.array_equal(_a(lin.weight)[0, :8], _a(lin.bias)[:8])
    conv = nn.Conv2d(4, 8, 3, groups=2, key=key)
    w = _a(conv.weight)
    assert w.shape == (8, 2, 3, 3) and 0.9 / math.sqrt(18) < numpy.abs(w).max() <= 1 / math.sqrt(18)
    emb = _a(nn.Embedding(1000, 16, key=key).weight)
    assert abs(emb.std() - 1) < 0.05 and abs(emb.mean()) < 0.05
    gru = nn.GRU(10, 50, key=key)
    assert all(numpy.abs(_a(p)).max() <= 1 / math.sqrt(50) for p in ast.tree_util.leaves(gru))
    mha = nn.MultiHeadAttention(16, 4, key=key)
    xavier = math.sqrt(6 / (16 + 48))  # Glorot over PyTorch's packed (3E, E) in_proj_weight
    assert 0.9 * xavier < numpy.abs(_a(mha.query_proj.weight)).max() <= xavier
    assert not _a(mha.query_proj.bias).any() and not _a(mha.output_proj.bias).any()
    assert numpy.abs(_a(mha.output_proj.weight)).max() <= 1 / 4
    assert _a(nn.LayerNorm(3).weight).tolist() == [1, 1, 1]
    assert nn.Linear(3, 2, key=key).weight.dtype == numpy.float32
    again = nn.Linear(64, 256, key=key)
    numpy.testing.assert_array_equal(_a(again.weight), _a(lin.weight))  # a pure function of key


# -- gradients, jit, vmap --------------------------------------------------------------------------


def test_gradients_against_finite_differences(check_grads):
    lin = nn.Linear(3, 2, key=prng.key(13), dtype=F64)
    ln = nn.LayerNorm(2, dtype=F64)
    x = _normal(4, 3)

    def linear_then_norm(w, b, scale, x):
        return ln.replace(weight=scale)(lin.replace(weight=w, bias=b)(x))

    check_grads(linear_then_norm, (_a(lin.weight), _a(lin.bias), _normal(2), x))
    mha = nn.MultiHeadAttention(4, 2, key=prng.key(14), dtype=F64)
    q = _normal(2, 3, 4)

    def attention(wq, wo, q):
        return mha.replace(
            query_proj=mha.query_proj.replace(weight=wq),
            output_proj=mha.output_proj.replace(weight=wo),
        )(q, is_causal=True)

    check_grads(
        attention, (_a(mha.query_proj.weight), _a(mha.output_proj.weight), q), modes=("rev",)
    )
    gru = nn.GRU(2, 3, key=prng.key(15), dtype=F64)

    def recurrent(wh, xs):
        return gru.replace(weight_hh=wh)(xs)[0]

    check_grads(recurrent, (_a(gru.weight_hh), _normal(4, 2, 2)), modes=("rev",))
    conv = nn.Conv1d(2, 3, 3, padding=1, key=prng.key(16), dtype=F64)
    check_grads(
        lambda w, x: conv.replace(weight=w)(x), (_a(conv.weight), _normal(2, 2, 5)), modes=("rev",)
    )


def test_jit_equals_eager():
    block = nn.TransformerBlock(8, 2, mlp_hidden=16, key=prng.key(17), dtype=F64)
    x = ast.asarray(_normal(2, 5, 8))
    padding = ast.asarray(numpy.array([[False] * 5, [False] * 3 + [True] * 2]))
    run = ast.jit(lambda m, x, p: m(x, is_causal=True, key_padding_mask=p))
    _close(run(block, x, padding), _a(block(x, is_causal=True, key_padding_mask=padding)))


def test_jit_of_grad_through_scan_equals_eager():
    gru = nn.GRU(3, 4, key=prng.key(18), dtype=F64)
    xs = ast.asarray(_normal(5, 2, 3))

    def loss(m, xs):
        return ast.sum(m(xs)[0] ** 2)

    jitted = ast.jit(ast.grad(loss))(gru, xs)
    eager = ast.grad(loss)(gru, xs)
    assert type(jitted) is nn.GRU
    for a, b in zip(ast.tree_util.leaves(jitted), ast.tree_util.leaves(eager)):
        _close(a, _a(b))


def test_vmap_over_a_batch_matches_a_loop():
    block = nn.TransformerBlock(4, 2, mlp_hidden=8, key=prng.key(19), dtype=F64)
    xs = ast.asarray(_normal(3, 5, 4))  # three unbatched (L, E) sequences
    mapped = ast.vmap(lambda x: block(x, is_causal=True))(xs)
    for i in range(3):
        _close(mapped[i], _a(block(xs[i], is_causal=True)))
    conv = nn.Conv1d(2, 3, 3, key=prng.key(20), dtype=F64)
    images = ast.asarray(_normal(4, 1, 2, 6))
    mapped = ast.vmap(conv)(images)
    for i in range(4):
        _close(mapped[i], _a(conv(images[i])))


# -- PyTorch's layers with copied weights ---------------------------------------------------------


@pytest.fixture
def torch64():
    """torch with float64 as its default dtype for the test, restored afterwards (other tests in the
    same process export float32 models)."""
    torch = pytest.importorskip("torch")
    saved = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        yield torch
    finally:
        torch.set_default_dtype(saved)


def _t(x):
    import torch

    return torch.from_numpy(numpy.ascontiguousarray(_a(x)))


def test_against_torch_linear_conv_and_norms(torch64):
    torch = torch64
    x = _normal(2, 3, 6, 5)
    tconv = torch.nn.Conv2d(3, 4, 3, stride=2, padding=1)
    conv = nn.Conv2d(3, 4, 3, 2, 1, key=prng.key(0), dtype=F64)
    conv = conv.replace(
        weight=ast.asarray(tconv.weight.detach().numpy()),
        bias=ast.asarray(tconv.bias.detach().numpy()),
    )
    _close(conv(x), tconv(_t(x)).detach().numpy(), rtol=1e-9)
    tlin = torch.nn.Linear(5, 2)
    lin = nn.Linear(5, 2, key=prng.key(0), dtype=F64)
    lin = lin.replace(
        weight=ast.asarray(tlin.weight.detach().numpy().T),
        bias=ast.asarray(tlin.bias.detach().numpy()),
    )
    _close(lin(x), tlin(_t(x)).detach().numpy(), rtol=1e-9)
    _close(nn.LayerNorm(5, dtype=F64)(x), torch.nn.LayerNorm(5)(_t(x)).detach().numpy(), rtol=1e-9)
    _close(nn.RMSNorm(5, dtype=F64)(x), torch.nn.RMSNorm(5)(_t(x)).detach().numpy(), rtol=1e-9)


def test_against_torch_attention_and_recurrent_layers(torch64):
    torch = torch64
    tmha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    w, b = tmha.in_proj_weight.detach().numpy(), tmha.in_proj_bias.detach().numpy()
    mha = nn.MultiHeadAttention(8, 2, key=prng.key(0), dtype=F64)
    projections = {}
    for i, name in enumerate(["query_proj", "key_proj", "value_proj"]):
        layer = getattr(mha, name)
        projections[name] = layer.replace(
            weight=ast.asarray(w[8 * i : 8 * (i + 1)].T), bias=ast.asarray(b[8 * i : 8 * (i + 1)])
        )
    out = tmha.out_proj
    projections["output_proj"] = mha.output_proj.replace(
        weight=ast.asarray(out.weight.detach().numpy().T),
        bias=ast.asarray(out.bias.detach().numpy()),
    )
    mha = mha.replace(**projections)
    x = _normal(2, 5, 8)
    padding = numpy.zeros((2, 5), bool)
    padding[1, 3:] = True
    causal_blocked = ~numpy.tril(numpy.ones((5, 5), bool))  # PyTorch's attn_mask: True = blocked
    want = tmha(
        _t(x),
        _t(x),
        _t(x),
        key_padding_mask=_t(padding),
        attn_mask=_t(causal_blocked),
        need_weights=False,
    )[0]
    _close(mha(x, is_causal=True, key_padding_mask=padding), want.detach().numpy(), rtol=1e-9)
    tgru = torch.nn.GRU(3, 4)
    gru = nn.GRU(3, 4, key=prng.key(0), dtype=F64).replace(
        weight_ih=ast.asarray(tgru.weight_ih_l0.detach().numpy().T),
        weight_hh=ast.asarray(tgru.weight_hh_l0.detach().numpy().T),
        bias_ih=ast.asarray(tgru.bias_ih_l0.detach().numpy()),
        bias_hh=ast.asarray(tgru.bias_hh_l0.detach().numpy()),
    )
    xs = _normal(6, 2, 3)
    t_ys, t_h = tgru(_t(xs))
    ys, h = gru(xs)
    _close(ys, t_ys.detach().numpy(), rtol=1e-9)
    _close(h, t_h[0].detach().numpy(), rtol=1e-9)
    tlstm = torch.nn.LSTM(3, 4)
    lstm = nn.LSTM(3, 4, key=prng.key(0), dtype=F64).replace(
        weight_ih=ast.asarray(tlstm.weight_ih_l0.detach().numpy().T),
        weight_hh=ast.asarray(tlstm.weight_hh_l0.detach().numpy().T),
        bias=ast.asarray((tlstm.bias_ih_l0 + tlstm.bias_hh_l0).detach().numpy()),
    )
    t_ys, (t_h, t_c) = tlstm(_t(xs))
    ys, (c, h) = lstm(xs)
    _close(ys, t_ys.detach().numpy(), rtol=1e-9)
    _close(c, t_c[0].detach().numpy(), rtol=1e-9)
