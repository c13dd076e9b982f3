"""Fault tolerance of data-parallel training (arraystack/distributed/training.py) on loopback: a worker
killed with SIGKILL in the middle of a step, and the driver killed and restarted from its last
checkpoint, both end with the parameters of an uninterrupted run, bitwise."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy
import pytest

distributed = pytest.importorskip("distributed")

from arraystack.ir.tree import leaves

import arraystack
from arraystack.distributed import DataParallel

STEPS = 3
DEADLINE = 60.0  # seconds any single wait may take before the test fails


def _problem(gate=None):
    """A two-layer classifier on fixed random data. With `gate` (a directory), the loss, while it is
    traced in a worker process (once per process, inside its first shard task), writes the process id
    to ``<gate>/running-<pid>`` and waits for ``<gate>/go``: the test kills that worker while its
    task runs. Defined in a function, so cloudpickle sends the loss by value."""

    def loss(params, x, y):
        if gate is not None and not os.path.exists(os.path.join(gate, "go")):
            with open(os.path.join(gate, f"running-{os.getpid()}"), "w"):
                pass
            deadline = time.monotonic() + 60.0
            while not os.path.exists(os.path.join(gate, "go")):
                if time.monotonic() > deadline:
                    raise TimeoutError("the test never opened the gate")
                time.sleep(0.01)
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


def _bits(tree):
    return [numpy.asarray(leaf) for leaf in leaves(tree)]


def _assert_bitwise_equal(a, b):
    for left, right in zip(_bits(a), _bits(b), strict=True):
        assert left.dtype == right.dtype
        numpy.testing.assert_array_equal(left, right)


def _wait_for(condition, what):
    deadline = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def _uninterrupted(optimizer, steps, shards):
    loss, params, batch = _problem()
    with DataParallel(loss, optimizer, workers=0, shards=shards) as parallel:
        params, _, losses = parallel.fit(
            params, optimizer.init(params), batch, steps, progress=False
        )
    return params, losses


def test_worker_killed_in_the_middle_of_a_step(tmp_path):
    # a cluster of its own: the module's shared one is not damaged
    from concurrent.futures import ThreadPoolExecutor

    from dask.distributed import Client, LocalCluster

    gate = str(tmp_path)
    optimizer = arraystack.optim.adam(1e-2)
    loss, params, batch = _problem(gate)
    cluster = LocalCluster(
        n_workers=3,
        threads_per_worker=1,
        processes=True,  # each worker under a nanny, which starts a new one when it dies
        host="127.0.0.1",
        dashboard_address=":0",
        timeout=DEADLINE,
    )
    try:
        with (
            Client(cluster, timeout=DEADLINE) as client,
            ThreadPoolExecutor(1) as driver,
        ):
            pids = client.run(os.getpid)
            with DataParallel(loss, optimizer, client=client, shards=3) as parallel:
                run = driver.submit(
                    parallel.fit, params, optimizer.init(params), batch, STEPS, progress=False
                )
                running = lambda: [n for n in os.listdir(gate) if n.startswith("running-")]
                _wait_for(lambda: running() or run.done(), "a shard task to start")
                assert not run.done(), run.exception()
                victim = int(running()[0].removeprefix("running-"))
                assert victim in pids.values()  # a worker process, never the driver
                os.kill(victim, signal.SIGKILL)
                open(os.path.join(gate, "go"), "w").close()
                result, _, losses = run.result(timeout=DEADLINE)
            # the killed worker is gone (its nanny started another) and its task ran elsewhere
            assert victim not in client.run(os.getpid).values()
            assert parallel.steps == STEPS
    finally:
        cluster.close(timeout=30)
    expected, expected_losses = _uninterrupted(optimizer, STEPS, shards=3)
    assert losses == expected_losses
    _assert_bitwise_equal(result, expected)


DRIVER = textwrap.dedent(
    """
    import os, sys, time
    import numpy
    import arraystack
    from arraystack.distributed import DataParallel

    def make_batch(directory, stop_at, steps):
        rng = numpy.random.default_rng(3)
        x = rng.standard_normal((steps * 12, 6)).astype(numpy.float32)
        y = (x @ numpy.arange(6, dtype=numpy.float32)).astype(numpy.float32)

        def batch(step):
            if step == stop_at:  # the driver stops here until it is killed
                with open(os.path.join(directory, "stopped"), "w") as marker:
                    marker.write(str(step))
                time.sleep(120)
                raise TimeoutError("the driver was never killed")
            return x[step * 12 : (step + 1) * 12], y[step * 12 : (step + 1) * 12]

        return batch

    def loss(w, x, y):
        return arraystack.mean((x @ w - y) ** 2)

    if __name__ == "__main__":
        address, directory = sys.argv[1], sys.argv[2]
        stop_at, steps = int(sys.argv[3]), int(sys.argv[4])
        optimizer = arraystack.optim.adam(1e-2)
        params = numpy.zeros(6, numpy.float32)
        state, start = optimizer.init(params), 0
        checkpoints = arraystack.Checkpoints(os.path.join(directory, "run"))
        if checkpoints.latest() is not None:
            saved = checkpoints.restore()
            params, state, start = saved["params"], saved["state"], saved["step"]
        print("start", start, flush=True)
        with DataParallel(loss, optimizer, client=address, shards=2) as parallel:
            params, state, losses = parallel.fit(
                params, state, make_batch(directory, stop_at, steps), steps, start=start, progress=False,
                checkpoints=checkpoints, every=2,
            )
        numpy.save(os.path.join(directory, "final.npy"), numpy.asarray(params))
        print("losses", *losses, flush=True)
    """
)


def test_driver_killed_and_restarted_resumes_from_its_checkpoint(client, tmp_path):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    address, steps, stop_at = client.scheduler.address, 8, 5
    command = [sys.executable, str(script), address, str(tmp_path)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

    first = subprocess.Popen(
        [*command, str(stop_at), str(steps)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        stopped = tmp_path / "stopped"
        _wait_for(lambda: stopped.exists() or first.poll() is not None, "the driver to stop")
        assert first.poll() is None, first.communicate()[1]
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=DEADLINE)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(timeout=DEADLINE)
    assert first.returncode == -signal.SIGKILL
    checkpoints = arraystack.Checkpoints(tmp_path / "run")
    assert checkpoints.steps() == [2, 4]  # every 2 steps; step 5 never finished
    assert not (tmp_path / "final.npy").exists()

    resumed = subprocess.run(
        [*command, "-1", str(steps)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=DEADLINE * 2,
    )
    assert resumed.returncode == 0, resumed.stderr
    lines = dict(line.split(" ", 1) for line in resumed.stdout.splitlines())
    assert lines["start"] == "4"  # the exact step of the last checkpoint
    assert len(lines["losses"].split()) == steps - 4
    assert checkpoints.steps() == [4, 6, 8]

    # the uninterrupted run, in this process: the same shards and reduction, so the same bits
    namespace = {"__name__": "driver"}
    exec(compile(DRIVER, str(script), "exec"), namespace)  # noqa: S102
    optimizer = arraystack.optim.adam(1e-2)
    params = numpy.zeros(6, numpy.float32)
    with DataParallel(namespace["loss"], optimizer, workers=0, shards=2) as parallel:
        expected, _, losses = parallel.fit(
            params,
            optimizer.init(params),
            namespace["make_batch"](str(tmp_path), -1, steps),
            steps,
            progress=False,
        )
    final = numpy.load(tmp_path / "final.npy")
    numpy.testing.assert_array_equal(final, numpy.asarray(expected))
    assert [float(v) for v in lines["losses"].split()] == losses[4:]
    saved = checkpoints.restore()
    assert saved["step"] == steps
    numpy.testing.assert_array_equal(numpy.asarray(saved["params"]), final)


def test_fit_refuses_a_bad_every(tmp_path):
    loss, params, batch = _problem()
    optimizer = arraystack.optim.sgd(0.1)
    with (
        DataParallel(loss, optimizer, workers=0, shards=2) as parallel,
        pytest.raises(ValueError, match="every must be a positive int"),
    ):
        parallel.fit(
            params,
            optimizer.init(params),
            batch,
            2,
            progress=False,
            checkpoints=arraystack.Checkpoints(tmp_path),
            every=0,
        )
    assert arraystack.Checkpoints(tmp_path).steps() == []
