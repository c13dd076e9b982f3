"""Write and read time and file size of arraystack.save_tree / load_tree on a ~100 MB training state.

    python benchmarks/bench_checkpoints.py [--mb 100] [--repeats 5] [--dir DIR] [--json out.json]

The tree: float32 weight matrices (1024 x 2048) and biases, about --mb megabytes, plus a step count.
Baselines in the same run on the same disk: numpy.savez / numpy.load of the same arrays as a flat
archive (no fsync, no sha256), and sha256 of the same bytes alone, since save_tree and load_tree hash
every byte once. save_tree also fsyncs the file and its directory. Times are the best of --repeats.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import describe_machine, format_table, machine_info, write_json


def best(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def training_state(megabytes: float):
    import numpy

    import arraystack

    rng = numpy.random.default_rng(0)
    layers = max(1, round(megabytes * 1e6 / (1024 * 2048 * 4)))
    params = {
        f"layer{i}": {
            "w": arraystack.asarray(rng.standard_normal((1024, 2048), dtype=numpy.float32)),
            "b": arraystack.zeros(2048, arraystack.float32),
        }
        for i in range(layers)
    }
    return {"params": params, "step": 100}


def measure(megabytes: float, repeats: int, directory: str) -> list[dict]:
    import numpy

    import arraystack

    tree = training_state(megabytes)
    arrays = [numpy.asarray(a) for a in arraystack.tree_util.leaves(tree) if hasattr(a, "nbytes")]
    nbytes = sum(a.nbytes for a in arrays)
    path = os.path.join(directory, "state.ckpt")
    npz = os.path.join(directory, "state.npz")
    flat = {f"a{i}": a for i, a in enumerate(arrays)}
    data = b"".join(a.tobytes() for a in arrays)

    def read_npz():
        with numpy.load(npz) as archive:
            return [archive[k] for k in archive.files]

    rows = [
        ("save_tree", best(lambda: arraystack.save_tree(path, tree), repeats), path),
        ("load_tree", best(lambda: arraystack.load_tree(path), repeats), path),
        ("load_tree(like=)", best(lambda: arraystack.load_tree(path, like=tree), repeats), path),
        ("numpy.savez", best(lambda: numpy.savez(npz, **flat), repeats), npz),
        ("numpy.load (npz)", best(read_npz, repeats), npz),
        ("sha256 alone", best(lambda: hashlib.sha256(data).digest(), repeats), None),
    ]
    return [
        {
            "operation": name,
            "ms": seconds * 1e3,
            "gb_per_s": nbytes / seconds / 1e9,
            "array_mb": nbytes / 1e6,
            "file_mb": os.path.getsize(file) / 1e6 if file else None,
            "overhead_bytes": os.path.getsize(file) - nbytes if file else None,
        }
        for name, seconds, file in rows
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100.0, help="size of the arrays, megabytes")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dir", default=None, help="where to write (default: a temporary dir)")
    parser.add_argument("--json", default=None, help="write the results as JSON here")
    args = parser.parse_args(argv)
    info = machine_info()
    print("\n".join(describe_machine(info)))
    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        rows = measure(args.mb, args.repeats, directory)
    columns = [
        ("operation", "operation", ""),
        ("ms", "ms", ".0f"),
        ("gb_per_s", "GB/s", ".2f"),
        ("file_mb", "file MB", ".2f"),
        ("overhead_bytes", "file - arrays (B)", "d"),
    ]
    print(format_table(rows, columns))
    if args.json:
        write_json(args.json, {"machine": info, "rows": rows})


if __name__ == "__main__":
    main()
