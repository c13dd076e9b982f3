"""Training-step benchmark (issue 5): arraystack jit(value_and_grad) vs jax.jit, torch eager autograd and
NumPy with a hand-written backward, timed interleaved in one run; prints medians and ratios.

(a) MLP 784 -> 512 -> 10, batch 256, float32, ReLU, softmax cross-entropy, SGD update inside the step.
(b) small CNN: conv 3x3 (8 channels, SAME) - ReLU - 2x2 max pool - dense, on 28x28 single-channel images,
    batch 128.
(d) a small character-level GPT (train_gpt.py): 2 pre-norm transformer blocks, 4 heads, context 64, embedding
    128, vocabulary 96, batch 16 (--gpt-batch): forward, backward and an Adam update in one jitted step,
    against jax.jit of the same model in plain jax, torch eager with torch.optim.Adam and (--torch-compile)
    torch.compile of the forward.
(c) first call of (a) in a fresh process, cold and with a warm disk cache, with tiered compilation compiling
    in a worker process and in a thread (config.tier_compile): the first call, when compiled code takes over,
    how many calls a loop that keeps calling gets served meanwhile and how slow they are, against the same
    reference path on an idle machine, the compiled step and NumPy's eager step.

    python benchmarks/bench_train.py [--threads 1] [--quick] [--json out.json] [--workloads mlp,cnn,gpt]
        [--gpt-batch 16] [--torch-compile]
        [--first-call-only] [--first-call-modes process,thread] [--first-call-repeats 3]
        [--first-call-workload mlp|elementwise]

jax and torch are optional (pip install jax jaxlib; pip install torch==2.13.0); missing peers are skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness
from bench_jit import _set_threads, interleaved
from train_gpt import gpt_systems
from train_models import cnn_systems, mlp_systems

FIRST_CALL = """
import json, statistics, sys, time
t0 = time.perf_counter()
import numpy as np
import arraystack as ast
from arraystack.backends import compile_graph
sys.path.insert(0, {here!r})
from train_models import mlp_arraystack, mlp_data, mlp_numpy_step
if {workload!r} == "mlp":
    step, args = mlp_arraystack(np.random.default_rng(0), 256)
    params, x, y = mlp_data(np.random.default_rng(0), 256)
    numpy_step = lambda: mlp_numpy_step(params, x, y)
else:  # a light step: the reference path is a few short NumPy calls, so it needs the GIL often
    def chain(xp, a, b):
        return xp.tanh(a * b + 1.0) * 0.5 + xp.exp(-a * a) + xp.sum(a * b)

    a = np.linspace(-2, 2, 16384).astype(np.float32)
    step, args = ast.jit(lambda a, b: chain(ast, a, b)), (ast.asarray(a), ast.asarray(a[::-1].copy()))
    numpy_step = lambda: chain(np, a, a)
t1 = time.perf_counter()
out = step(*args)
np.asarray(out[0] if isinstance(out, tuple) else out)
t2 = time.perf_counter()
(entry,) = step._cache.values()
meanwhile = []  # a training loop that keeps calling while numba compiles in the background
while entry.pending is not None and not entry.pending.done.is_set() and time.perf_counter() - t2 < 300:
    s = time.perf_counter()
    step(*args)
    meanwhile.append((s, time.perf_counter() - s))
step.wait_compiled()
t3 = time.perf_counter()
buffers = [leaf._value for leaf in step._key(args, {{}})[1]] + list(entry.consts)
reference = compile_graph(entry.lowered.optimized, "reference")


def median(fn, n=15):
    fn()
    times = []
    for _ in range(n):
        s = time.perf_counter()
        fn()
        times.append(time.perf_counter() - s)
    return statistics.median(times)


pending = entry.pending
answered = pending.timeline.get("answered", float("inf"))  # process mode: then this process loads
compiling = [d for s, d in meanwhile if s < answered]
loading = [d for s, d in meanwhile if s >= answered]
window = meanwhile[-1][0] + meanwhile[-1][1] - meanwhile[0][0] if meanwhile else 0.0
print(json.dumps(dict(
    setup=t1 - t0, first=t2 - t1, compiled_after=t3 - t1, served=len(meanwhile),
    tier0_meanwhile=statistics.median(compiling) if compiling else None,
    tier0_mean=statistics.fmean(d for _, d in meanwhile) if meanwhile else None,
    tier0_p90=statistics.quantiles([d for _, d in meanwhile], n=10)[-1] if len(meanwhile) > 1 else None,
    tier0_loading=statistics.median(loading) if loading else None, served_loading=len(loading),
    loading_s=pending.timeline["switched"] - answered if loading or answered < t3 else None,
    tier0_idle=median(lambda: reference(*buffers)), tier1=median(lambda: step(*args)),
    numpy=median(numpy_step), tier=entry.tier,
    mode=pending and pending.mode, fallback=pending and pending.fallback,
    report=pending and pending.report,
)))
"""


def first_call(modes=("process", "thread"), repeats=1, workload="mlp"):
    """(c): per compile mode, a fresh process with a cold disk cache, then one with the cache it left."""
    code = FIRST_CALL.format(here=os.path.dirname(os.path.abspath(__file__)), workload=workload)
    rows = []
    for _ in range(repeats):
        for mode in modes:
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, ARRAYSTACK_CACHE_DIR=cache, ARRAYSTACK_TIER_COMPILE=mode)
                for cache_state in ("cold", "warm"):
                    out = subprocess.run(
                        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
                    )
                    if out.returncode:
                        return rows, out.stderr[-800:]
                    run = json.loads(out.stdout)
                    run["ran"] = run.pop("mode")  # where the compiled tier came from
                    rows.append(dict(run, mode=mode, cache=cache_state, workload=workload))
    return rows, None


def summarize_first_calls(rows):
    """Medians over repeats, per workload, compile mode and cache state."""
    groups = {}
    for r in rows:
        groups.setdefault((r["workload"], r["mode"], r["cache"]), []).append(r)
    for (workload, mode, cache), runs in groups.items():
        def med(fn, runs=runs):
            return statistics.median(fn(r) for r in runs)

        rate = med(lambda r: r["served"] / r["compiled_after"])
        print(
            f"(c) median of {len(runs)}, {workload}, {mode:7s} {cache}: "
            f"first call {med(lambda r: r['first']):.3f} s, "
            f"compiled after {med(lambda r: r['compiled_after']):.2f} s, {rate:.1f} calls/s served meanwhile, "
            f"mean tier-0 call {med(lambda r: r['tier0_mean'] or 0) * 1e3:.2f} ms "
            f"(idle {med(lambda r: r['tier0_idle']) * 1e3:.2f} ms, NumPy {med(lambda r: r['numpy']) * 1e3:.2f} ms)"
        )


def print_first_calls(rows):
    for r in rows:
        served = (
            f"{r['served']} calls served meanwhile, median {r['tier0_meanwhile'] * 1e3:.2f} ms, mean "
            f"{r['tier0_mean'] * 1e3:.2f} ms, p90 {(r['tier0_p90'] or 0) * 1e3:.2f} ms"
            if r["tier0_meanwhile"]
            else "no calls served meanwhile"
        )
        if r["tier0_loading"]:
            served += (
                f" ({r['served_loading']} of them, median {r['tier0_loading'] * 1e3:.1f} ms, while this "
                f"process loaded the kernels, {r['loading_s']:.2f} s)"
            )
        print(
            f"(c) first call, {r['workload']}, {r['mode']:7s} {r['cache']} cache: first call {r['first']:.3f} s "
            f"({r['first'] / r['numpy']:.1f}x a NumPy step), compiled after {r['compiled_after']:.2f} s, "
            f"{served}; tier 0 idle {r['tier0_idle'] * 1e3:.2f} ms, tier 1 {r['tier1'] * 1e3:.2f} ms, "
            f"NumPy {r['numpy'] * 1e3:.2f} ms (setup {r['setup']:.2f} s; ran {r['ran']}"
            f"{', fell back: ' + r['fallback'] if r['fallback'] else ''})"
        )


def report(name, times, results):
    base = times["arraystack.jit"]
    parts = [f"{k} {v * 1e3:7.2f} ms" for k, v in times.items()]
    ratios = [f"{k}/ours {v / base:4.2f}x" for k, v in times.items() if k != "arraystack.jit"]
    print(f"{name:10s} " + " | ".join(parts) + " || " + ", ".join(ratios))
    results["rows"].append({"workload": name, **times})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", default=None)
    parser.add_argument("--skip-first-call", action="store_true")
    parser.add_argument("--workloads", default="mlp,cnn,gpt", help="rows to time: mlp,cnn,gpt")
    parser.add_argument("--gpt-batch", type=int, default=16)
    parser.add_argument("--torch-compile", action="store_true", help="torch.compile in the GPT row")
    parser.add_argument("--first-call-only", action="store_true")
    parser.add_argument("--first-call-modes", default="process,thread")
    parser.add_argument("--first-call-repeats", type=int, default=1)
    parser.add_argument("--first-call-workload", default="mlp", choices=["mlp", "elementwise"])
    parser.add_argument(
        "--markdown",
        metavar="PATH",
        help="also write the output into this benchmark's section of PATH (docs/benchmarks.md)",
    )
    args = parser.parse_args(argv)
    if args.threads:
        _set_threads(args.threads)
    section = harness.markdown_section(
        args.markdown, "train", "A training step: arraystack.jit against jax.jit, PyTorch and NumPy", argv, __file__
    )
    if args.workloads == "gpt" and args.skip_first_call:  # a section of its own per thread count
        threads = f"{args.threads} thread{'s' if args.threads != 1 else ''}" if args.threads else "all threads"
        title = f"A transformer training step ({threads}): arraystack.jit against jax.jit and PyTorch"
        section = harness.markdown_section(
            args.markdown, f"train-gpt-{args.threads or 'all'}", title, argv, __file__
        )
    with section:
        for line in harness.describe_machine():
            print(line)
        import numpy as np

        import arraystack

        arraystack.config.tiered = False  # steady-state timing: compile before the first call returns
        rounds = 5 if args.quick else 15
        results = {"threads": args.threads or os.cpu_count(), "rows": []}
        rng = np.random.default_rng(0)
        workloads = [] if args.first_call_only else args.workloads.split(",")
        if "mlp" in workloads:
            systems = mlp_systems(rng, 256)
            report("(a) MLP", interleaved(systems, rounds), results)
        if "cnn" in workloads:
            systems = cnn_systems(rng, 128)
            if systems:
                report("(b) CNN", interleaved(systems, rounds), results)
        if "gpt" in workloads:
            systems = gpt_systems(args.gpt_batch, args.torch_compile)
            report("(d) GPT", interleaved(systems, rounds), results)
        if not args.skip_first_call:
            rows, err = first_call(
                args.first_call_modes.split(","), args.first_call_repeats, args.first_call_workload
            )
            print_first_calls(rows)
            if args.first_call_repeats > 1:
                summarize_first_calls(rows)
            if err:
                print(f"(c) first call: failed: {err}")
            results["rows"].append({"workload": "(c) first call", "runs": rows})
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
