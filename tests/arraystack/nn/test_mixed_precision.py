"""arraystack.nn.mixed_precision: a small MLP trained in float32, in bfloat16 compute and in float16
compute with dynamic loss scaling reaches the same accuracy; the loss scale's schedule; a step with
an overflowing gradient is skipped."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from arraystack import nn, optim, prng

mp = nn.mixed_precision

# Three Gaussian blobs in 8 dimensions, centres 3 standard deviations apart: float32 separates them
# to about 97% on held-out points, and what is left is overlap, which no precision changes.
_RNG = numpy.random.default_rng(28)
_CENTRES = _RNG.standard_normal((3, 8)) * 1.5


def _blobs(n):
    labels = _RNG.integers(0, 3, n)
    points = _CENTRES[labels] + _RNG.standard_normal((n, 8))
    return ast.asarray(points, dtype=ast.float32), labels


X_TRAIN, Y_TRAIN = _blobs(512)
X_TEST, Y_TEST = _blobs(1024)
ONE_HOT = ast.asarray(numpy.eye(3)[Y_TRAIN], dtype=ast.float32)


def _model():
    k1, k2 = prng.split(prng.key(0))
    return (nn.Linear(8, 32, key=k1), nn.Linear(32, 3, key=k2))


def _apply(model, x):
    return model[1](nn.relu(model[0](x)))


def _train(policy, loss_scale, steps=300):
    opt = optim.adam(1e-2)

    def loss_fn(model, scale):
        logits = _apply(policy.cast_to_compute(model), policy.cast_to_compute(X_TRAIN))
        loss = ast.mean(nn.softmax_cross_entropy(policy.cast_to_output(logits), ONE_HOT))
        return scale.scale(loss)

    @ast.jit
    def step(model, state, scale):
        grads = scale.unscale(ast.grad(loss_fn)(model, scale))
        finite = mp.all_finite(grads)
        updates, new_state = opt.update(grads, state, model)
        model = mp.select_tree(finite, optim.apply_updates(model, updates), model)
        state = mp.select_tree(finite, new_state, state)
        return model, state, scale.adjust(finite)

    model = policy.cast_to_param(_model())
    state = opt.init(model)
    for _ in range(steps):
        model, state, loss_scale = step(model, state, loss_scale)
    logits = _apply(policy.cast_to_compute(model), policy.cast_to_compute(X_TEST))
    accuracy = float(numpy.mean(numpy.asarray(ast.argmax(logits, axis=-1)) == Y_TEST))
    return model, loss_scale, accuracy


@pytest.fixture(scope="module")
def float32_accuracy():
    return _train(mp.Policy(), mp.NoOpLossScale())[2]


def test_float32_training_separates_the_blobs(float32_accuracy):
    assert float32_accuracy > 0.9


@pytest.mark.parametrize(
    ("compute", "loss_scale"),
    [
        (ast.bfloat16, mp.NoOpLossScale()),
        (ast.float16, mp.DynamicLossScale(2.0**15, period=50)),
    ],
    ids=["bfloat16", "float16-loss-scaling"],
)
def test_mixed_precision_reaches_float32_accuracy(float32_accuracy, compute, loss_scale):
    # Within 2 points of float32 on 1,024 held-out points (about 20 points): bfloat16 keeps 8 bits
    # of mantissa, which moves logits by under 1%, so only points at the boundaries may change side;
    # parameters and Adam's moments stay float32, so training itself is not less precise.
    model, scale, accuracy = _train(mp.Policy(compute_dtype=compute), loss_scale)
    assert accuracy >= float32_accuracy - 0.02
    assert all(leaf.dtype == ast.float32 for leaf in ast.tree_util.leaves(model))
    if isinstance(scale, mp.DynamicLossScale):
        assert float(scale.loss_scale) >= 1.0


def test_policy_casts_floating_leaves_only():
    policy = mp.Policy(compute_dtype="bfloat16", output_dtype=ast.float16)
    tree = {"w": ast.ones(2), "n": ast.asarray([1, 2]), "flag": ast.asarray(True), "c": 3.5}
    out = policy.cast_to_compute(tree)
    assert out["w"].dtype == ast.bfloat16
    assert out["n"].dtype == ast.int64 and out["flag"].dtype == ast.bool_ and out["c"] == 3.5
    assert policy.cast_to_output(out)["w"].dtype == ast.float16
    assert policy.cast_to_param(out)["w"].dtype == ast.float32
    with pytest.raises(TypeError, match="compute_dtype must be a floating dtype"):
        mp.Policy(compute_dtype=ast.int32)


def test_overflow_skips_the_step_and_lowers_the_scale():
    model = _model()
    opt = optim.sgd(0.1)
    state = opt.init(model)
    policy = mp.Policy(compute_dtype=ast.float16)

    @ast.jit
    def step(model, state, scale):
        def loss_fn(model):
            logits = _apply(policy.cast_to_compute(model), policy.cast_to_compute(X_TRAIN))
            loss = ast.mean(nn.softmax_cross_entropy(policy.cast_to_output(logits), ONE_HOT))
            return scale.scale(loss)

        grads = scale.unscale(ast.grad(loss_fn)(model))
        finite = mp.all_finite(grads)
        updates, new_state = opt.update(grads, state, model)
        new_model = mp.select_tree(finite, optim.apply_updates(model, updates), model)
        return new_model, mp.select_tree(finite, new_state, state), scale.adjust(finite), finite

    # 2**40 times the loss's cotangent overflows float16 (max 65504) in the backward pass
    scale = mp.DynamicLossScale(2.0**40, counter=7)
    new_model, _, new_scale, finite = step(model, state, scale)
    assert not bool(finite)
    assert float(new_scale.loss_scale) == 2.0**39 and int(new_scale.counter) == 0
    for a, b in zip(ast.tree_util.leaves(new_model), ast.tree_util.leaves(model)):
        numpy.testing.assert_array_equal(numpy.asarray(a), numpy.asarray(b))
    # a small scale: finite gradients, the step is taken
    moved, _, kept, finite = step(model, state, mp.DynamicLossScale(8.0, counter=7))
    assert bool(finite) and float(kept.loss_scale) == 8.0 and int(kept.counter) == 8
    assert not numpy.array_equal(numpy.asarray(moved[0].weight), numpy.asarray(model[0].weight))


def test_dynamic_loss_scale_schedule():
    scale = mp.DynamicLossScale(4.0, period=3, factor=2.0, min_loss_scale=2.0)
    adjust = ast.jit(lambda s, finite: s.adjust(finite))
    seen = []
    for finite in [True, True, True, True, False, False, False]:
        scale = adjust(scale, ast.asarray(finite))
        seen.append((float(scale.loss_scale), int(scale.counter)))
    assert seen == [(4, 1), (4, 2), (8, 0), (8, 1), (4, 0), (2, 0), (2, 0)]
    # growth that would overflow float32 keeps the scale
    top = mp.DynamicLossScale(numpy.float32(2.0**127), counter=2, period=3)
    assert float(top.adjust(True).loss_scale) == 2.0**127


def test_scale_and_unscale_keep_each_leaf_dtype():
    scale = mp.DynamicLossScale(1024.0)
    tree = {"h": ast.ones(2, ast.float16), "b": ast.ones(2, ast.bfloat16), "i": ast.asarray([3])}
    scaled = scale.scale(tree)
    assert scaled["h"].dtype == ast.float16 and float(scaled["h"][0]) == 1024.0
    assert scaled["b"].dtype == ast.bfloat16 and scaled["i"].dtype == tree["i"].dtype
    back = scale.unscale(scaled)
    assert float(back["h"][0]) == 1.0 and float(back["b"][0]) == 1.0
    assert bool(mp.all_finite(back)) and not bool(mp.all_finite({"x": ast.asarray([ast.inf])}))
