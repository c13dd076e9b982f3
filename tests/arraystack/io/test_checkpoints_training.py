"""A training loop (arraystack.nn, arraystack.optim, arraystack.prng) stopped after k steps, restored
from its checkpoint and continued ends bit for bit where an uninterrupted run ends, also when the
process is killed and a new one resumes."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import numpy
from arraystack.ir import tree as tree_util

import arraystack
from arraystack import nn, optim, prng

ROOT = pathlib.Path(__file__).resolve().parents[3]
STEPS = 6


def optimizer():
    return optim.chain(
        optim.clip_by_global_norm(1.0), optim.adam(optim.exponential_decay(0.05, 2, 0.5))
    )


def initial_state(seed=0):
    k1, k2, k3 = prng.split(prng.key(seed), 3)
    params = {"dense1": nn.init_dense(k1, 3, 8), "dense2": nn.init_dense(k2, 8, 1)}
    return {"params": params, "opt_state": optimizer().init(params), "key": k3, "step": 0}


def loss(params, x, y):
    hidden = nn.relu(nn.dense(params["dense1"], x))
    return nn.mse(nn.dense(params["dense2"], hidden), y)


def train_step(state):
    """One step: a fresh batch drawn from the state's key, Adam on a schedule of the step count."""
    key, batch_key = prng.split(state["key"])
    x = prng.normal(batch_key, (16, 3))
    y = arraystack.sum(x, axis=1, keepdims=True) ** 2
    value, grads = arraystack.value_and_grad(loss)(state["params"], x, y)
    updates, opt_state = optimizer().update(grads, state["opt_state"], state["params"])
    params = optim.apply_updates(state["params"], updates)
    return {"params": params, "opt_state": opt_state, "key": key, "step": state["step"] + 1}, value


def train(directory, stop_after=None):
    """Train to STEPS, resuming from the latest checkpoint in `directory` and saving one after
    each step; with `stop_after`, the process kills itself (SIGKILL) after that step's save."""
    checkpoints = arraystack.Checkpoints(directory, keep=2)
    state = initial_state()
    if checkpoints.latest() is not None:
        state = checkpoints.restore(like=state)
    while state["step"] < STEPS:
        state, _ = train_step(state)
        checkpoints.save(state["step"], state)
        if state["step"] == stop_after:
            import os
            import signal

            os.kill(os.getpid(), signal.SIGKILL)
    return state


def assert_bitwise_equal(found, expected):
    found_leaves, found_def = tree_util.flatten(found)
    expected_leaves, expected_def = tree_util.flatten(expected)
    assert found_def == expected_def
    for a, b in zip(found_leaves, expected_leaves, strict=True):
        assert type(a) is type(b)
        a, b = numpy.asarray(a), numpy.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def uninterrupted():
    state, losses = initial_state(), []
    for _ in range(STEPS):
        state, value = train_step(state)
        losses.append(float(value))
    return state, losses


def test_a_run_restored_after_k_steps_ends_bitwise_where_an_uninterrupted_run_ends(tmp_path):
    expected, expected_losses = uninterrupted()
    assert expected_losses[-1] < expected_losses[0]  # it trains
    state = initial_state()
    for _ in range(3):
        state, _ = train_step(state)
    arraystack.save_tree(tmp_path / "step3.ckpt", state)
    del state
    state, losses = arraystack.load_tree(tmp_path / "step3.ckpt", like=initial_state()), []
    assert state["step"] == 3 and type(state["opt_state"][1]) is optim.AdamState
    for _ in range(3):
        state, value = train_step(state)
        losses.append(float(value))
    assert losses == expected_losses[3:]
    assert_bitwise_equal(state, expected)


def test_a_killed_process_resumes_from_its_last_checkpoint_in_a_new_one(tmp_path):
    run = (
        f"from tests.arraystack.io.test_checkpoints_training import train; train({str(tmp_path)!r}"
    )
    killed = subprocess.run(
        [sys.executable, "-c", run + ", stop_after=4)"], cwd=ROOT, timeout=300, check=False
    )
    assert killed.returncode == -9
    assert arraystack.Checkpoints(tmp_path).steps() == [3, 4]
    resumed = subprocess.run([sys.executable, "-c", run + ")"], cwd=ROOT, timeout=300, check=False)
    assert resumed.returncode == 0
    final = arraystack.Checkpoints(tmp_path).restore(like=initial_state())
    assert final["step"] == STEPS
    assert_bitwise_equal(final, uninterrupted()[0])
