"""arraystack.optim: every optimizer against a NumPy transcription of PyTorch's documented update,
over several steps, eagerly and under jit; schedules against their formulas; jitted training."""

from __future__ import annotations

import math

import numpy
import pytest

import arraystack
from arraystack import optim

RNG = numpy.random.default_rng(0)
PARAMS = {"w": RNG.standard_normal((3, 2)), "b": RNG.standard_normal(2)}
GRADS = [{k: RNG.standard_normal(v.shape) for k, v in PARAMS.items()} for _ in range(6)]


def as_tree(tree):
    return {k: arraystack.asarray(v) for k, v in tree.items()}


def host_tree(tree):
    return {k: numpy.asarray(v) for k, v in tree.items()}


# NumPy transcriptions of torch.optim's documented algorithms, one parameter array at a time.
def torch_sgd(p, grads, lr, momentum=0.0, nesterov=False, weight_decay=0.0):
    buf = None
    for t, g in enumerate(grads):
        g = g + weight_decay * p
        if momentum:
            buf = g if buf is None else momentum * buf + g
            g = g + momentum * buf if nesterov else buf
        p = p - lr(t) * g
        yield p


def torch_adam(p, grads, lr, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0, decoupled=False):
    m = v = numpy.zeros_like(p)
    for t, g in enumerate(grads, start=1):
        if decoupled:
            p = p * (1 - lr(t - 1) * weight_decay)
        else:
            g = g + weight_decay * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        denom = numpy.sqrt(v) / math.sqrt(1 - b2**t) + eps
        p = p - lr(t - 1) / (1 - b1**t) * m / denom
        yield p


def torch_rmsprop(
    p, grads, lr, alpha=0.99, eps=1e-8, momentum=0.0, centered=False, weight_decay=0.0
):
    square_avg = grad_avg = buf = numpy.zeros_like(p)
    for t, g in enumerate(grads):
        g = g + weight_decay * p
        square_avg = alpha * square_avg + (1 - alpha) * g * g
        if centered:
            grad_avg = alpha * grad_avg + (1 - alpha) * g
            avg = numpy.sqrt(square_avg - grad_avg * grad_avg) + eps
        else:
            avg = numpy.sqrt(square_avg) + eps
        if momentum:
            buf = momentum * buf + g / avg
            p = p - lr(t) * buf
        else:
            p = p - lr(t) * g / avg
        yield p


def torch_adagrad(p, grads, lr, initial_accumulator_value=0.0, eps=1e-10, weight_decay=0.0):
    state_sum = numpy.full_like(p, initial_accumulator_value)
    for t, g in enumerate(grads):
        g = g + weight_decay * p
        state_sum = state_sum + g * g
        p = p - lr(t) * g / (numpy.sqrt(state_sum) + eps)
        yield p


HALVING = optim.exponential_decay(0.1, 2, 0.5)  # a schedule: 0.1 * 0.5 ** (t / 2)


def constant(value):
    return lambda t: value


def halving(t):
    return 0.1 * 0.5 ** (t / 2)


# (id, optimizer, reference generator, reference kwargs)
CASES = [
    ("sgd", optim.sgd(0.1), torch_sgd, {"lr": constant(0.1)}),
    (
        "sgd-momentum",
        optim.sgd(0.1, momentum=0.9),
        torch_sgd,
        {"momentum": 0.9, "lr": constant(0.1)},
    ),
    (
        "sgd-nesterov-wd",
        optim.sgd(0.1, momentum=0.8, nesterov=True, weight_decay=0.01),
        torch_sgd,
        {"momentum": 0.8, "nesterov": True, "weight_decay": 0.01, "lr": constant(0.1)},
    ),
    ("sgd-schedule", optim.sgd(HALVING, momentum=0.5), torch_sgd, {"momentum": 0.5, "lr": halving}),
    ("adam", optim.adam(0.01), torch_adam, {"lr": constant(0.01)}),
    (
        "adam-l2",
        optim.adam(0.02, b1=0.8, b2=0.99, eps=1e-6, weight_decay=0.1),
        torch_adam,
        {"b1": 0.8, "b2": 0.99, "eps": 1e-6, "weight_decay": 0.1, "lr": constant(0.02)},
    ),
    (
        "adamw",
        optim.adamw(0.01, weight_decay=0.1),
        torch_adam,
        {"weight_decay": 0.1, "decoupled": True, "lr": constant(0.01)},
    ),
    (
        "adamw-schedule",
        optim.adamw(HALVING),
        torch_adam,
        {"weight_decay": 0.01, "decoupled": True, "lr": halving},
    ),
    ("rmsprop", optim.rmsprop(0.01), torch_rmsprop, {"lr": constant(0.01)}),
    (
        "rmsprop-centered-momentum",
        optim.rmsprop(0.01, decay=0.9, momentum=0.7, centered=True, weight_decay=0.05),
        torch_rmsprop,
        {
            "alpha": 0.9,
            "momentum": 0.7,
            "centered": True,
            "weight_decay": 0.05,
            "lr": constant(0.01),
        },
    ),
    ("adagrad", optim.adagrad(0.1), torch_adagrad, {"lr": constant(0.1)}),
    (
        "adagrad-wd",
        optim.adagrad(0.1, initial_accumulator_value=0.5, weight_decay=0.1),
        torch_adagrad,
        {"initial_accumulator_value": 0.5, "weight_decay": 0.1, "lr": constant(0.1)},
    ),
]


def reference_trajectory(reference, kwargs):
    kwargs = dict(kwargs)
    lr = kwargs.pop("lr")
    steps = {k: list(reference(PARAMS[k], [g[k] for g in GRADS], lr, **kwargs)) for k in PARAMS}
    return [{k: steps[k][i] for k in PARAMS} for i in range(len(GRADS))]


def run(opt, step):
    params = as_tree(PARAMS)
    state = opt.init(params)
    trajectory = []
    for g in GRADS:
        params, state = step(as_tree(g), state, params)
        trajectory.append(host_tree(params))
    return trajectory, state


def make_step(opt):
    def step(grads, state, params):
        updates, state = opt.update(grads, state, params)
        return optim.apply_updates(params, updates), state

    return step


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("case_id, opt, reference, kwargs", CASES, ids=[c[0] for c in CASES])
def test_matches_pytorch_formulas(case_id, opt, reference, kwargs, jit):
    step = make_step(opt)
    if jit:
        step = arraystack.jit(step, backend="reference")
    trajectory, state = run(opt, step)
    expected = reference_trajectory(reference, kwargs)
    for got, want in zip(trajectory, expected):
        for k in PARAMS:
            numpy.testing.assert_allclose(got[k], want[k], rtol=1e-10, atol=1e-12)
    assert int(numpy.asarray(state.count)) == len(GRADS)


def test_float32_params_keep_their_dtype():
    params = {k: arraystack.asarray(v.astype(numpy.float32)) for k, v in PARAMS.items()}
    grads = {k: arraystack.asarray(v.astype(numpy.float32)) for k, v in GRADS[0].items()}
    for opt in [optim.adamw(optim.cosine_decay_schedule(0.1, 10)), optim.sgd(0.1, momentum=0.9)]:
        state = opt.init(params)
        updates, state = opt.update(grads, state, params)
        new = optim.apply_updates(params, updates)
        assert {numpy.asarray(v).dtype for v in new.values()} == {numpy.dtype(numpy.float32)}


def test_apply_updates_adds_without_a_copy():
    params = {k: v.astype(numpy.float32) for k, v in PARAMS.items()}
    updates = GRADS[0]  # float64 updates: the sum is cast back to the parameters' float32
    got = host_tree(optim.apply_updates(as_tree(params), as_tree(updates)))
    for k in params:
        assert got[k].dtype == numpy.float32
        numpy.testing.assert_array_equal(got[k], (params[k] + updates[k]).astype(numpy.float32))
    # a cast to the dtype the sum already has is no copy in the compiled graph
    same = {k: v.astype(numpy.float32) for k, v in updates.items()}
    lowered = arraystack.jit(optim.apply_updates).lower(as_tree(params), as_tree(same))
    assert not [e for e in lowered.optimized.eqns if e.prim.name == "copy"], lowered.optimized


def test_weight_decay_needs_params():
    opt = optim.adamw(0.1)
    state = opt.init(as_tree(PARAMS))
    with pytest.raises(ValueError, match="params"):
        opt.update(as_tree(GRADS[0]), state)


def evaluate(schedule, steps):
    return [float(numpy.asarray(schedule(arraystack.asarray(s, dtype=numpy.int32)))) for s in steps]


STEPS = [0, 1, 2, 5, 9, 10, 11, 25]
SCHEDULES = [
    (optim.constant_schedule(0.3), lambda t: 0.3),
    (optim.exponential_decay(1.0, 4, 0.5), lambda t: 0.5 ** (t / 4)),
    (optim.exponential_decay(1.0, 4, 0.5, staircase=True), lambda t: 0.5 ** (t // 4)),
    (
        optim.exponential_decay(1.0, 4, 0.5, transition_begin=5, end_value=0.2),
        lambda t: max(0.5 ** (max(t - 5, 0) / 4), 0.2),
    ),
    (optim.step_decay(0.1, 10, gamma=0.3), lambda t: 0.1 * 0.3 ** (t // 10)),
    (
        optim.piecewise_constant_schedule(1.0, {2: 0.5, 10: 0.1}),
        lambda t: 1.0 * (0.5 if t >= 2 else 1) * (0.1 if t >= 10 else 1),
    ),
    (
        optim.linear_schedule(1.0, 0.0, 10, transition_begin=1),
        lambda t: 1 - min(max(t - 1, 0), 10) / 10,
    ),
    (
        optim.cosine_decay_schedule(2.0, 10, alpha=0.1),
        lambda t: 2.0 * (0.9 * 0.5 * (1 + math.cos(math.pi * min(t, 10) / 10)) + 0.1),
    ),
    (
        optim.linear_warmup(optim.cosine_decay_schedule(1.0, 10), 5),
        lambda t: t / 5 if t < 5 else 0.5 * (1 + math.cos(math.pi * min(t - 5, 10) / 10)),
    ),
    (
        optim.warmup_cosine_decay_schedule(0.0, 1.0, 5, 15, end_value=0.1),
        lambda t: (
            t / 5 if t < 5 else 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(t - 5, 10) / 10))
        ),
    ),
    (
        optim.join_schedules(
            [optim.constant_schedule(1.0), optim.linear_schedule(1.0, 0.0, 5)], [10]
        ),
        lambda t: 1.0 if t < 10 else 1 - min(t - 10, 5) / 5,
    ),
]


@pytest.mark.parametrize("index", range(len(SCHEDULES)))
def test_schedules(index):
    schedule, formula = SCHEDULES[index]
    numpy.testing.assert_allclose(
        evaluate(schedule, STEPS), [formula(t) for t in STEPS], rtol=1e-12, atol=1e-15
    )
    traced = arraystack.jit(schedule, backend="reference")
    numpy.testing.assert_allclose(
        evaluate(traced, STEPS), [formula(t) for t in STEPS], rtol=1e-12, atol=1e-15
    )


def test_clip_by_global_norm():
    grads = {"a": numpy.array([3.0, 0.0]), "b": numpy.array([[4.0]])}  # global norm 5
    numpy.testing.assert_allclose(float(numpy.asarray(optim.global_norm(as_tree(grads)))), 5.0)
    clip = optim.clip_by_global_norm(1.0)
    clipped, _ = clip.update(as_tree(grads), clip.init(None))
    numpy.testing.assert_allclose(numpy.asarray(clipped["a"]), [0.6, 0.0])
    numpy.testing.assert_allclose(numpy.asarray(clipped["b"]), [[0.8]])
    unchanged, _ = optim.clip_by_global_norm(10.0).update(as_tree(grads), ())
    numpy.testing.assert_array_equal(numpy.asarray(unchanged["a"]), grads["a"])
    zeros, _ = clip.update({"a": arraystack.zeros(3)}, ())
    assert numpy.asarray(zeros["a"]).tolist() == [0.0, 0.0, 0.0]


def test_chain_clip_then_sgd_under_jit():
    opt = optim.chain(optim.clip_by_global_norm(0.5), optim.sgd(0.1, momentum=0.9))
    step = arraystack.jit(make_step(opt), backend="reference")
    trajectory, _ = run(opt, step)

    def clipped_grads():
        for g in GRADS:
            norm = math.sqrt(sum(float((v * v).sum()) for v in g.values()))
            yield {k: v * min(1.0, 0.5 / norm) for k, v in g.items()}

    clipped = list(clipped_grads())
    for k, start in PARAMS.items():
        expected = list(torch_sgd(start, [g[k] for g in clipped], constant(0.1), momentum=0.9))
        for got, want in zip(trajectory, expected):
            numpy.testing.assert_allclose(got[k], want, rtol=1e-10)


@pytest.mark.parametrize(
    "opt, backend",
    [
        pytest.param(optim.adam(0.05), "numba", marks=pytest.mark.numba),
        (optim.sgd(0.02, momentum=0.9, nesterov=True), "reference"),
    ],
    ids=["adam-numba", "sgd-nesterov-reference"],
)
def test_jitted_training_step_converges(opt, backend):
    a = RNG.standard_normal((20, 3))
    target = numpy.array([1.0, -2.0, 0.5])
    b = a @ target

    def loss(params, a, b):
        residual = a @ params["w"] + params["c"] - b
        return (residual * residual).mean()

    @arraystack.jit(backend=backend)
    def train_step(params, state, a, b):
        value, grads = arraystack.value_and_grad(loss)(params, a, b)
        updates, state = opt.update(grads, state, params)
        return optim.apply_updates(params, updates), state, value

    params = {"w": arraystack.zeros(3), "c": arraystack.asarray(0.0)}
    state = opt.init(params)
    first = None
    for _ in range(300):
        params, state, value = train_step(
            params, state, arraystack.asarray(a), arraystack.asarray(b)
        )
        first = float(numpy.asarray(value)) if first is None else first
    assert float(numpy.asarray(loss(params, a, b))) < 1e-4 * first
    numpy.testing.assert_allclose(numpy.asarray(params["w"]), target, atol=1e-2)
