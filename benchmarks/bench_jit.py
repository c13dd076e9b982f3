"""arraystack.jit against NumPy and jax.jit (if installed) on the CPU, in one run, as ratios.

    python benchmarks/bench_jit.py [--threads N] [--quick] [--json out.json] [--no-first-call]

Workloads (issue 4): (a) fused chain tanh(a*b+c)*0.5+exp(-a*a) on 1e7 float32; (b) row softmax and layernorm on
(4096, 1024) float32; (c) sum of squares on 1e7 float32; (d) cached-call dispatch of x*2+1 on shape (8,),
and of a function writing through a reshape of its product (keyed by its argument's layout);
(e) first-call latency in a fresh process, cold and with a warm disk cache; (f) a STREAM triad as the
bandwidth roofline, timed again within each bandwidth row's rounds (its % of triad compares the two
in the same rounds; with jax present, a bandwidth row also prints the largest jax/ours ratio a kernel
moving the row's bytes at the triad's bandwidth would reach). A row reading one input and writing one
output of its size also times a plain copy of the input in its rounds, on the same threads: the same
bytes moved by the simplest loop (at one thread the kernels came within 10% of it, at two they beat it).
Beyond the issue's list, (g) GELU in its exact form, through erf, on (4096, 1024) float32 (NumPy's row
uses scipy.special.erf), and (h) a Python loop writing 64 rows of a (64, 256) float32 array one by one
(jax.jit's row: the same loop of `.at[i].set`). Systems are timed interleaved round-robin, each round in a shuffled order;
tables report medians.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness


def _set_threads(n):
    for var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(n)
    if n == 1:
        os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false"
        # XLA's CPU runtime keeps its own thread pool whatever the flags say (jax's "one-thread" sums
        # ran on both cores): pin the whole process, every library in it, to one core
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def interleaved(systems: dict, rounds: int, warmup: int = 2) -> dict:
    """Median seconds per call of each system, timed round-robin, each round in a new order.

    The order is shuffled (seeded), so each system follows every other one in some rounds: what a call
    inherits from the one before it (caches emptied by a large NumPy temporary, another library's worker
    threads still spinning) is spread over all systems. A rotation of one order, used before, keeps
    every system behind the same predecessor in every round: arraystack always ran right after NumPy's
    call and jax always right after arraystack's."""
    names = list(systems)
    times = {n: [] for n in names}
    for n in names:
        for _ in range(warmup):
            systems[n]()
    shuffle = random.Random(0).shuffle
    for r in range(rounds):
        order = list(names)
        shuffle(order)
        for n in order:
            start = time.perf_counter()
            systems[n]()
            times[n].append(time.perf_counter() - start)
    return {n: statistics.median(t) for n, t in times.items()}


def workloads(quick: bool):
    import numpy as np

    import arraystack as ast

    ast.config.tiered = False  # steady-state timing: compile before the first call returns

    rng = np.random.default_rng(0)
    n = 2_000_000 if quick else 10_000_000
    rows = 1024 if quick else 4096
    a, b, c = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    x2 = rng.standard_normal((rows, 1024)).astype(np.float32)
    g = rng.standard_normal(1024).astype(np.float32)
    tiny = np.arange(8, dtype=np.float32)

    def chain(xp):
        return lambda a, b, c: xp.tanh(a * b + c) * 0.5 + xp.exp(-a * a)

    def softmax(xp):
        def f(x):
            e = xp.exp(x - xp.max(x, axis=-1, keepdims=True))
            return e / xp.sum(e, axis=-1, keepdims=True)

        return f

    def layernorm(xp):
        def f(x, g):
            mu = xp.mean(x, axis=-1, keepdims=True)
            d = x - mu
            var = xp.mean(d * d, axis=-1, keepdims=True)
            return d / xp.sqrt(var + 1e-5) * g

        return f

    def sumsq(xp):
        return lambda x: xp.sum(x * x)

    def small(xp):
        return lambda x: x * 2 + 1

    def small_write(xp):  # a write through a reshape: jit keys it by its argument's layout
        if xp.__name__.startswith("jax"):
            return lambda x: (x * 2).at[0].set(1.0)

        def f(x):
            y = x * 2
            y.reshape(2, 4)[0, 0] = 1.0
            return y

        return f

    def row_writes(xp):  # a Python loop of row writes: each costs its row, not the whole array
        if xp.__name__.startswith("jax"):

            def functional(x):
                out = xp.zeros_like(x)
                for i in range(x.shape[0]):
                    out = out.at[i].set(x[i] * 2 + 1)
                return out

            return functional

        def f(x):
            out = xp.empty_like(x)
            for i in range(x.shape[0]):
                out[i] = x[i] * 2 + 1
            return out

        return f

    def gelu(xp):  # exact GELU, x * Phi(x): NumPy has no erf, so its row is NumPy with scipy's erf
        if xp is np:
            from scipy.special import erf

            return lambda x: 0.5 * x * (1 + erf(x * np.float32(0.7071067811865476)))
        if xp.__name__.startswith("jax"):
            import jax

            return lambda x: jax.nn.gelu(x, approximate=False)
        return lambda x: xp.nn.gelu(x, approximate=False)

    bytes_chain = 4 * n * 4
    return [
        ("(a) chain 1e7 f32" if not quick else "(a) chain 2e6 f32", chain, (a, b, c), bytes_chain),
        (f"(b) softmax ({rows},1024)", softmax, (x2,), 2 * x2.nbytes),
        (f"(b) layernorm ({rows},1024)", layernorm, (x2, g), 2 * x2.nbytes),
        ("(c) sum of squares", sumsq, (a,), a.nbytes),
        ("(d) dispatch x*2+1 (8,)", small, (tiny,), None),
        ("(d) write through a reshape (8,)", small_write, (tiny,), None),
        ("(h) 64 row writes (64,256)", row_writes, (x2[:64, :256].copy(),), None),
        (f"(g) exact GELU ({rows},1024)", gelu, (x2,), 2 * x2.nbytes),
    ], ast


DISPATCH_BATCH = 200


def systems_for(make, args, ast):
    import numpy as np

    # calls on tiny inputs run in batches, so the timer's own cost does not dominate what is measured
    batch = DISPATCH_BATCH if args[0].size <= 8 else 1
    np_fn = make(np)
    out = {"numpy": lambda: [np_fn(*args) for _ in range(batch)]}
    jf = ast.jit(make(ast))
    as_args = [ast.asarray(x) for x in args]
    out["arraystack.jit"] = lambda: [jf(*as_args) for _ in range(batch)]
    try:
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_enable_x64", False)
        jj = jax.jit(make(jnp))
        j_args = [jnp.asarray(x) for x in args]
        out["jax.jit"] = lambda: [jax.block_until_ready(jj(*j_args)) for _ in range(batch)]
    except ImportError:
        pass
    return out, batch


def _copy_of(x):
    """A copy of x into a buffer of its own on the run's threads (a numba loop, as the triad), or None:
    the bytes a kernel reading the row's input once and writing its output once moves, by the simplest
    loop (the triad's byte count leaves out the write-allocate reads; this moves them too)."""
    import numba
    import numpy as np

    if not isinstance(x, np.ndarray) or x.size < 1 << 20:
        return None

    @numba.njit(parallel=True)
    def kernel(src, dst):
        for i in numba.prange(src.size):
            dst[i] = src[i]

    src = np.ascontiguousarray(x).reshape(-1)
    dst = np.empty_like(src)
    return lambda: kernel(src, dst)


def triad(quick: bool):
    """(call, bytes moved per call) of a STREAM triad a = b + s * c on float64 (24 bytes per element, as
    STREAM counts: the write-allocate read of `a` is not counted)."""
    import numba
    import numpy as np

    n = 2_000_000 if quick else 10_000_000

    @numba.njit(parallel=True, fastmath=True)
    def kernel(a, b, c, s):
        for i in numba.prange(a.size):
            a[i] = b[i] + s * c[i]

    a, b, c = np.zeros(n), np.ones(n), np.ones(n)
    return (lambda: kernel(a, b, c, 3.0)), 24 * n


FIRST_CALL = """
import time, numpy as np
t0 = time.perf_counter()
import arraystack as ast
t1 = time.perf_counter()
x = np.random.default_rng(0).standard_normal({shape}).astype(np.float32)
{define}
args = [ast.asarray(x)] * {nargs}
t2 = time.perf_counter()
f(*args)
t3 = time.perf_counter()
f.wait_compiled()  # tiered compilation: the first call ran the reference path; numba compiles meanwhile
t4 = time.perf_counter()
print(t1 - t0, t3 - t2, t4 - t2)
"""
DEFINES = {
    "chain": (
        "(1000000,)",
        3,
        "f = ast.jit(lambda a, b, c: ast.tanh(a * b + c) * 0.5 + ast.exp(-a * a))",
    ),
    "softmax": (
        "(512, 1024)",
        1,
        (
            "f = ast.jit(lambda x: (lambda e: e / ast.sum(e, axis=-1, keepdims=True))"
            "(ast.exp(x - ast.max(x, axis=-1, keepdims=True))))"
        ),
    ),
}


def first_call(name):
    """Seconds of the first call in fresh processes: (cold, helpers cached, warm).

    cold: nothing cached (fresh kernel cache and fresh numba cache, so mathlib's helpers compile too);
    helpers cached: a fresh kernel cache, but mathlib's helpers are in numba's cache as after any earlier
    use of the installed library; warm: every kernel loads from the disk cache."""
    shape, nargs, define = DEFINES[name]
    code = FIRST_CALL.format(shape=shape, define=define, nargs=nargs)
    with tempfile.TemporaryDirectory() as root:
        numba_cache = os.path.join(root, "numba")
        runs = []
        for kernels in ("first", "second", "second"):  # the numba cache is shared by all three
            env = dict(
                os.environ,
                ARRAYSTACK_CACHE_DIR=os.path.join(root, kernels),
                NUMBA_CACHE_DIR=numba_cache,
            )
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
            )
            if out.returncode:
                return None, out.stderr[-500:]
            fields = out.stdout.split()
            runs.append((float(fields[1]), float(fields[2]), float(fields[0])))
        return tuple(runs), None


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", default=None)
    parser.add_argument(
        "--no-first-call", action="store_true", help="skip (e), the fresh-process first calls"
    )
    parser.add_argument(
        "--markdown",
        metavar="PATH",
        help="also write the output into this benchmark's section of PATH (docs/benchmarks.md)",
    )
    args = parser.parse_args(argv)
    if args.threads:
        _set_threads(args.threads)
    with harness.markdown_section(
        args.markdown, "jit", "jit: arraystack.jit against NumPy and jax.jit", argv, __file__
    ):
        for line in harness.describe_machine():
            print(line)
        rounds = 5 if args.quick else 11
        results = {"threads": args.threads or os.cpu_count(), "rows": []}
        run_triad, triad_bytes = triad(args.quick)
        bandwidth = triad_bytes / interleaved({"triad": run_triad}, rounds)["triad"] / 1e9
        print(f"(f) STREAM triad roofline: {bandwidth:.1f} GB/s  (threads: {results['threads']})")
        results["triad_gbs"] = bandwidth
        loads, ast = workloads(args.quick)
        for name, make, data, nbytes in loads:
            systems, batch = systems_for(make, data, ast)
            if nbytes:  # the triad joins the round-robin: on a shared machine the bandwidth varies by the minute
                systems["triad"] = run_triad
            copy = _copy_of(data[0]) if nbytes == 2 * data[0].nbytes else None
            if copy is not None:  # one read and one write of the row's bytes, as the kernel's
                systems["copy"] = copy
            t = interleaved(systems, rounds if batch == 1 else rounds * 5)
            t = {k: v / batch for k, v in t.items()}
            copied = t.pop("copy", None)
            if nbytes:
                bandwidth = triad_bytes / t.pop("triad") / 1e9
            row = {"workload": name, **{k: v for k, v in t.items()}}
            base = t["arraystack.jit"]
            parts = [
                f"{k} {v * 1e3:8.3f} ms" if v > 1e-4 else f"{k} {v * 1e6:6.2f} us" for k, v in t.items()
            ]
            ratios = [f"numpy/ours {t['numpy'] / base:5.2f}x"]
            if "jax.jit" in t:
                ratios.append(f"jax/ours {t['jax.jit'] / base:5.2f}x")
            if nbytes:
                gbs = nbytes / base / 1e9
                ratios.append(
                    f"{gbs:5.1f} GB/s = {100 * gbs / bandwidth:3.0f}% of triad ({bandwidth:.1f} GB/s in"
                    " the same rounds)"
                )
                row["triad_gbs"] = bandwidth
                if "jax.jit" in t:  # how far the triad's bandwidth lets any kernel get ahead of jax here
                    ceiling = bandwidth / (nbytes / t["jax.jit"] / 1e9)
                    ratios.append(f"the roofline allows jax/ours <= {ceiling:4.2f}x")
                    row["jax_ratio_at_triad"] = ceiling
            if copied is not None:  # the same bytes moved by a plain copy
                floor = f"a copy of the input {copied * 1e3:.3f} ms"
                if "jax.jit" in t:
                    floor += f" (jax/copy {t['jax.jit'] / copied:4.2f}x)"
                ratios.append(floor)
                row["copy"] = copied
            print(f"{name:28s} " + " | ".join(parts) + " || " + ", ".join(ratios))
            results["rows"].append(row)
        for name in () if args.no_first_call else DEFINES:
            runs, err = first_call(name)
            if err:
                print(f"(e) first call {name}: failed: {err}")
                continue
            (cold, cold_c, cold_i), (helpers, helpers_c, _), (warm, warm_c, warm_i) = runs
            print(
                f"(e) first call {name:8s} fresh process: cold {cold:.3f} s, "
                f"helpers cached {helpers:.3f} s, warm disk cache {warm:.3f} s "
                f"(compiled speed after {cold_c:.2f} / {helpers_c:.2f} / {warm_c:.2f} s; "
                f"import arraystack before it {cold_i:.2f} / {warm_i:.2f} s)"
            )
            results["rows"].append(
                {
                    "workload": f"(e) first call {name}",
                    "cold_s": cold,
                    "helpers_cached_s": helpers,
                    "warm_s": warm,
                    "compiled_after_s": [cold_c, helpers_c, warm_c],
                }
            )
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
