"""Data-parallel training on a dask.distributed LocalCluster (arraystack/distributed/training.py): the
parameters after K steps on the cluster equal those of the same shards and reduction in one process,
bitwise, and those of full-batch single-process training to a bound."""

from __future__ import annotations

import io

import numpy
import pytest

distributed = pytest.importorskip("distributed")

from arraystack.ir.tree import leaves

import arraystack
from arraystack.distributed import DataParallel
from arraystack.distributed.training import reduce_in_order, shard_bounds

STEPS = 3


def _problem():
    """A two-layer classifier on fixed random data. Defined in a function, so cloudpickle sends the
    loss by value (workers need not import this test module)."""

    def loss(params, x, y):
        hidden = arraystack.tanh(x @ params["w1"] + params["b1"])
        logits = hidden @ params["w2"]
        shifted = logits - arraystack.max(logits, axis=1, keepdims=True)
        logp = shifted - arraystack.log(
            arraystack.sum(arraystack.exp(shifted), axis=1, keepdims=True)
        )
        return -arraystack.mean(arraystack.take_along_axis(logp, y[:, None], axis=1))

    rng = numpy.random.default_rng(7)
    params = {
        "w1": (rng.standard_normal((6, 8)) * 0.5).astype(numpy.float32),
        "b1": numpy.zeros(8, numpy.float32),
        "w2": (rng.standard_normal((8, 3)) * 0.5).astype(numpy.float32),
    }
    x = rng.standard_normal((STEPS * 24, 6)).astype(numpy.float32)
    y = rng.integers(0, 3, STEPS * 24)

    def batch(step):
        return x[step * 24 : (step + 1) * 24], y[step * 24 : (step + 1) * 24]

    return loss, params, batch


def _train(optimizer, steps=STEPS, **options):
    loss, params, batch = _problem()
    with DataParallel(loss, optimizer, **options) as parallel:
        params, _, losses = parallel.fit(
            params, optimizer.init(params), batch, steps, progress=False
        )
    return params, losses


def _bits(tree):
    return [numpy.asarray(leaf) for leaf in leaves(tree)]


@pytest.mark.parametrize("shards", [2, 3])
def test_cluster_equals_one_process_bitwise(client, shards):
    optimizer = arraystack.optim.adam(1e-2)
    on_cluster, cluster_losses = _train(optimizer, client=client, shards=shards)
    in_process, process_losses = _train(optimizer, workers=0, shards=shards)
    assert cluster_losses == process_losses
    for a, b in zip(_bits(on_cluster), _bits(in_process)):
        assert a.dtype == b.dtype == numpy.float32
        numpy.testing.assert_array_equal(a, b)


def test_cluster_by_scheduler_address(client):
    optimizer = arraystack.optim.sgd(0.1)
    address = client.scheduler.address
    by_address, _ = _train(optimizer, client=address, shards=2)
    in_process, _ = _train(optimizer, workers=0, shards=2)
    for a, b in zip(_bits(by_address), _bits(in_process)):
        numpy.testing.assert_array_equal(a, b)


def test_matches_full_batch_training_to_a_bound(client):
    # one value_and_grad over the whole batch groups the gradient sum differently: equal up to
    # float32 rounding, a few ulps of the gradients per step
    loss, params, batch = _problem()
    optimizer = arraystack.optim.sgd(0.1)
    step = arraystack.jit(lambda p, s, x, y: _sgd_step(loss, optimizer, p, s, x, y), tiered=False)
    state = optimizer.init(params)
    full = {k: arraystack.asarray(v) for k, v in params.items()}
    for number in range(STEPS):
        x, y = batch(number)
        full, state = step(full, state, arraystack.asarray(x), arraystack.asarray(y))
    sharded, _ = _train(optimizer, client=client, shards=3)
    for a, b in zip(_bits(sharded), _bits(full)):
        numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _sgd_step(loss, optimizer, params, state, x, y):
    _, grads = arraystack.value_and_grad(loss)(params, x, y)
    updates, state = optimizer.update(grads, state, params)
    return arraystack.optim.apply_updates(params, updates), state


def test_resumed_run_equals_uninterrupted(client):
    optimizer = arraystack.optim.adam(1e-2)
    loss, params, batch = _problem()
    whole, _ = _train(optimizer, client=client, shards=2)
    with DataParallel(loss, optimizer, client=client, shards=2) as parallel:
        first, state, _ = parallel.fit(params, optimizer.init(params), batch, 1, progress=False)
        resumed, _, _ = parallel.fit(first, state, batch, STEPS, start=1, progress=False)
    for a, b in zip(_bits(whole), _bits(resumed)):
        numpy.testing.assert_array_equal(a, b)


def test_progress_bar_shows_steps_loss_and_throughput():
    loss, params, batch = _problem()
    optimizer = arraystack.optim.sgd(0.1)
    out = io.StringIO()
    with DataParallel(loss, optimizer, workers=0, shards=2) as parallel:
        parallel.fit(params, optimizer.init(params), batch, 2, out=out)
    text = out.getvalue()
    assert "2/2" in text and "loss=" in text and "ex_per_s=" in text


def test_the_given_client_is_left_open(client):
    loss, _, _ = _problem()
    with DataParallel(loss, arraystack.optim.sgd(0.1), client=client) as parallel:
        assert parallel.shards == 2  # one per worker
    assert client.status == "running"


@pytest.mark.parametrize(
    "options, message",
    [({"workers": -1}, "workers must be at least 0"), ({"workers": 0, "shards": 0}, "shards")],
)
def test_bad_options(options, message):
    loss, params, batch = _problem()
    with pytest.raises(ValueError, match=message):
        parallel = DataParallel(loss, arraystack.optim.sgd(0.1), **options)
        parallel.gradients(params, *batch(0))


def test_bad_batches():
    loss, params, batch = _problem()
    parallel = DataParallel(loss, arraystack.optim.sgd(0.1), workers=0, shards=4)
    x, y = batch(0)
    with pytest.raises(ValueError, match="differ in length: 24 and 23"):
        parallel.gradients(params, x, y[:-1])
    with pytest.raises(ValueError, match="cannot be cut into 4 shards"):
        parallel.gradients(params, x[:3], y[:3])


def test_tree_reduction_order_and_shards():
    assert reduce_in_order(list("abcde"), lambda a, b: f"({a}{b})") == "(((ab)(cd))e)"
    assert shard_bounds(10, 3) == [(0, 3), (3, 6), (6, 10)]
    with pytest.raises(ValueError):
        reduce_in_order([], max)


def test_gradients_called_twice_with_other_parameters(client):
    loss, params, batch = _problem()
    with DataParallel(loss, arraystack.optim.sgd(0.1), client=client, shards=2) as parallel:
        first = parallel.gradients(params, *batch(0))
        moved = {k: v + 1 for k, v in params.items()}
        second = parallel.gradients(moved, *batch(0))
    local = DataParallel(loss, arraystack.optim.sgd(0.1), workers=0, shards=2)
    assert first[0] == local.gradients(params, *batch(0))[0]
    assert second[0] == local.gradients(moved, *batch(0))[0]
    assert first[0] != second[0]
