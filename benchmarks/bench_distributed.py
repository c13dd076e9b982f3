"""Step time of data-parallel training on dask.distributed against one process, on this machine.

    python benchmarks/bench_distributed.py [--hidden 128] [--batch 256] [--steps 30] [--threads 1]
                                           [--json out.json]

The model is the demo's classifier (64 inputs, --hidden units, 10 classes) on the UCI digits, trained with
adam. In one run, each after a warmup of 3 steps (compiles, cluster start and kernel loads excluded):

- single process: one jitted step (value_and_grad of the whole batch and the update);
- in process, 2 shards: arraystack.distributed.DataParallel(workers=0), the shards and the tree
  reduction without dask (the cost of sharding alone);
- 1 and 2 workers: DataParallel on a LocalCluster of that many processes on the loopback interface.

Per-step overhead is a cluster step's median minus the single-process step's median; the round trip of an
empty dask task is printed beside it (the floor of any step: submit, schedule, run, gather). Bytes per
step are the payload the driver sends and gets back (parameters to each worker, the batch, one gradient
per shard), and the bytes the workers sent each other (dask's transfer counters).

Every process runs one BLAS/numba thread (--threads): dask's workers start with one BLAS thread each,
and on a machine with as many cores as workers, more threads per process oversubscribe the cores (a
2-core machine then spends 30-100x longer in BLAS's spinning threads than in the work).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import describe_machine, format_table, limit_threads, machine_info, write_json


def model(hidden: int):
    import arraystack as np
    from arraystack import nn

    def loss(params, x, labels):
        logits = nn.dense(params["out"], nn.relu(nn.dense(params["hidden"], x)))
        return nn.cross_entropy(logits, labels)

    k1, k2 = np.prng.split(np.prng.key(0))
    params = {"hidden": nn.init_dense(k1, 64, hidden), "out": nn.init_dense(k2, hidden, 10)}
    return loss, params


def batches(batch: int):
    import numpy

    from arraystack.datasets import load_digits

    images, labels = load_digits()
    x = (images.reshape(len(images), 64) / 16.0).astype(numpy.float32)
    starts = len(x) - batch

    def take(step):
        start = (step * batch) % max(starts, 1)
        return x[start : start + batch], labels[start : start + batch]

    return take


def median_step(step, params, state, take, warmup: int, steps: int):
    for number in range(warmup):
        _, params, state = step(params, state, *take(number))
    times = []
    for number in range(warmup, warmup + steps):
        x, y = take(number)
        start = time.perf_counter()
        value, params, state = step(params, state, x, y)
        float(value)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peer_bytes(client) -> int:
    counts = client.run(lambda dask_worker: dask_worker.transfer_outgoing_bytes_total)
    return sum(counts.values())


def measure(hidden: int, batch: int, steps: int, warmup: int = 3) -> tuple[list[dict], dict]:
    import arraystack as np
    from arraystack.distributed import DataParallel
    from arraystack.distributed.training import hold

    loss, params = model(hidden)
    optimizer = np.optim.adam(3e-3)
    state = optimizer.init(params)
    take = batches(batch)

    def single(params, state, x, y):
        value, grads = np.value_and_grad(loss)(params, x, y)
        updates, state = optimizer.update(grads, state, params)
        return value, np.optim.apply_updates(params, updates), state

    jitted = np.jit(single, tiered=False)
    as_arrays = lambda step: tuple(np.asarray(a) for a in take(step))
    rows = [
        {
            "setup": "single process",
            "step_ms": median_step(jitted, params, state, as_arrays, warmup, steps) * 1e3,
        }
    ]
    base = rows[0]["step_ms"]
    with DataParallel(loss, optimizer, workers=0, shards=2) as parallel:
        ms = median_step(parallel.step, params, state, take, warmup, steps) * 1e3
        rows.append({"setup": "in process, 2 shards", "step_ms": ms})
    extra = {}
    for workers in (1, 2):
        started = time.perf_counter()
        with DataParallel(loss, optimizer, workers=workers) as parallel:
            extra[f"cluster_start_s_{workers}"] = time.perf_counter() - started
            client = parallel.client
            ms = median_step(parallel.step, params, state, take, warmup, steps) * 1e3
            sent_before, peers_before = parallel.bytes_sent, peer_bytes(client)
            median_step(parallel.step, params, state, take, 0, steps)
            driver = (parallel.bytes_sent - sent_before) / steps
            peers = (peer_bytes(client) - peers_before) / steps
            trips = []
            for _ in range(20):
                start = time.perf_counter()
                client.submit(hold, 0, pure=False).result()
                trips.append(time.perf_counter() - start)
            rows.append(
                {
                    "setup": f"{workers} worker{'s' if workers > 1 else ''}",
                    "step_ms": ms,
                    "overhead_ms": ms - base,
                    "task_trip_ms": statistics.median(trips) * 1e3,
                    "driver_kb": driver / 1e3,
                    "peer_kb": peers / 1e3,
                }
            )
    from arraystack.ir.tree import leaves

    extra["param_bytes"] = sum(int(leaf.nbytes) for leaf in leaves(params))
    return rows, extra


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hidden", type=int, default=128, help="hidden units (default 128)")
    parser.add_argument("--batch", type=int, default=256, help="examples per step (default 256)")
    parser.add_argument("--steps", type=int, default=30, help="timed steps per setup (default 30)")
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="BLAS/numba threads of the driver and the workers (default 1: a worker per core)",
    )
    args = parser.parse_args(argv)
    limit_threads(args.threads)  # before NumPy loads; the worker processes inherit the environment
    info = machine_info()
    rows, extra = measure(args.hidden, args.batch, args.steps)
    print("\n".join(describe_machine(info)))
    print(
        f"model 64-{args.hidden}-10 ({extra['param_bytes'] / 1e3:.1f} kB of float32 parameters), "
        f"batch {args.batch}, median of {args.steps} steps; LocalCluster start "
        f"{extra['cluster_start_s_1']:.1f} s (1 worker), {extra['cluster_start_s_2']:.1f} s (2)"
    )
    columns = [
        ("setup", "setup", "s"),
        ("step_ms", "step ms", ".2f"),
        ("overhead_ms", "overhead ms", ".2f"),
        ("task_trip_ms", "empty task ms", ".2f"),
        ("driver_kb", "driver kB/step", ".1f"),
        ("peer_kb", "worker-worker kB/step", ".1f"),
    ]
    print(format_table(rows, columns))
    if args.json:
        write_json(args.json, {"machine": info, "rows": rows, **extra, "args": vars(args)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
