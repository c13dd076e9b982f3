"""GPU benchmark (issue 25, item 6): the `gpu`-marked tests, then arraystack.jit on a CUDA device timed against
cupy (eager and cupy.fuse), jax.jit and torch.compile where importable, with a device-to-device copy of the same
bytes as the bandwidth roofline, all in one run and interleaved (round-robin, the order alternating).

Workloads and the issue's targets (ratios from one run on an H100/H200):
  (a) tanh(a*b+c)*0.5+exp(-a*a) on 1e8 float32: >= 85% of the copy's bandwidth and >= 1.5x jax.jit
  (b) row softmax and layernorm on (16384, 4096) float32: >= 80% of the copy's bandwidth
  (c) sum of squares on 1e8 float32: at least as fast as jax.jit
  (d) cached dispatch of x*2+1 on (8,) float32: <= 10 us per call
  (e) one SGD step of the digits MLP (64-128-10, all 1,797 images, value_and_grad): <= jax.jit's time
  (h) beyond the targets: 64 row writes out[i] = x[i]*2+1 into a fresh (64, 256) array, which the plan
      writes in the array's own device buffer (jax.jit: the same with .at[i].set)

Timing: every system is called until compiled (arraystack waits for its compiled tier), its result checked
against NumPy, then timed in batches of calls sized to about --target seconds, synchronizing before and after
each batch; CUDA events where the system runs on a stream we can record on (cupy's current stream: arraystack,
cupy, the copy; torch's), else the host clock around the batch with jax.block_until_ready. The figure is the
median over --rounds batches. "vs copy" is the copy's time over the system's: the fraction of the copy's
bandwidth the system reaches moving its minimum bytes (inputs read once, outputs written once).

    python benchmarks/bench_gpu.py [--json out.json] [--rounds 7] [--target 0.05] [--budget 420]
        [--tests-timeout 150] [--skip NAME ...] [--dry-run]

--dry-run runs everything at tiny sizes on the stand-in for cupy (ARRAYSTACK_CUDA_STANDIN, kernels through
the CPU harness; jax and torch on the CPU) in under a minute: it proves the script before GPU time is spent,
and tests/backends/cupy/test_gpu_bench.py runs it in CI. Its times mean nothing.

On the device machine (an H100/H200 with cupy, jax and torch installed, no network), one command, with a
timeout of 540 s, is benchmarks/gpu_session.sh: it installs arraystack from the working tree if it is not
importable, runs this script with --json $OUT/bench_gpu.json and keeps the log as $OUT/bench_gpu.log; copy
both back (the run tool does).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import harness
from gpu_report import report, targets

FULL = {"n": 10**8, "rows": (16384, 4096), "digits": None, "writes": (64, 256)}
DRY = {"n": 4099, "rows": (33, 130), "digits": 300, "writes": (8, 16)}
TEST_TIMEOUT = 150


# -- the gpu-marked tests ---------------------------------------------------------------------------------
def gpu_test_files() -> list:
    """The test files that mark a test `gpu` (collecting only them keeps the run short)."""
    found = []
    for folder, _, names in os.walk(os.path.join(ROOT, "tests")):
        for name in sorted(names):
            if name.startswith("test_") and name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    if "mark.gpu" in f.read():
                        found.append(os.path.relpath(path, ROOT))
    return sorted(found)


def run_gpu_tests(timeout: float, dry_run: bool, log: str | None = None) -> dict:
    """The gpu-marked tests, then the CUDA kernel suite (tests/backends/cupy) with its kernels on the device
    (ARRAYSTACK_TEST_KERNELS=gpu, tests/backends/cupy/on_device.py; not in a dry run, which has no device):
    each run's counts, exit status, seconds and the tail of its output; the whole output goes to `log`."""
    files = gpu_test_files()
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfEs"]
    runs = [
        ("gpu-marked", [*base, "-m", "gpu", "-o", "addopts=--import-mode=importlib", *files], {})
    ]
    if not dry_run:
        workers = str(max(1, min(8, (os.cpu_count() or 2) // 2)))
        kernel_suite = [
            *base,
            "-m",
            "not gpu",
            "-n",
            workers,
            "-o",
            "addopts=--import-mode=importlib",
        ]
        runs.append(
            ("kernels on the device", [*kernel_suite, "tests/backends/cupy"],
             {"ARRAYSTACK_TEST_KERNELS": "gpu"})
        )  # fmt: skip
    out = {"files": files}
    texts = []
    for label, command, extra in runs:
        env = dict(os.environ, **extra)
        env.pop("ARRAYSTACK_CUDA_STANDIN", None)  # the tests install the stand-in themselves
        started = time.perf_counter()
        try:
            done = subprocess.run(
                command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
                check=False,
            )  # fmt: skip
            output, rc = done.stdout + done.stderr, done.returncode
        except subprocess.TimeoutExpired as e:
            output = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else ""
            output, rc = output + f"\n(timed out after {timeout:.0f} s)", "timeout"
        counts = {
            word: int(n)
            for n, word in re.findall(r"(\d+) (passed|failed|skipped|errors?|deselected)", output)
        }
        out[label] = {
            "rc": rc, "counts": counts, "seconds": round(time.perf_counter() - started, 1),
            "tail": output[-4000:],
        }  # fmt: skip
        texts.append(f"==== {label}: {' '.join(command)}\n{output}")
    if log:
        with open(log, "w", encoding="utf-8") as f:
            f.write("\n".join(texts))
    return out


# -- timing ------------------------------------------------------------------------------------------------
class Clock:
    """Times batches of calls of a System (gpu_workloads.System) on the device."""

    def __init__(self, peers):
        self.peers = peers
        self.xp = peers.xp

    def synchronize(self, out=None):
        if out is not None and self.peers.jax is not None:
            self.peers.jax.block_until_ready(out)
        self.xp.cuda.Device().synchronize()
        torch = self.peers.torch
        if torch is not None and self.peers.torch_device == "cuda":
            torch.cuda.synchronize()

    def batch(self, system, n: int) -> float:
        """Seconds per call over n calls."""
        run = system.run
        self.synchronize()
        if system.timer == "cupy":
            start, end = self.xp.cuda.Event(), self.xp.cuda.Event()
            start.record()
            for _ in range(n):
                run()
            end.record()
            end.synchronize()
            return self.xp.cuda.get_elapsed_time(start, end) / 1e3 / n
        if system.timer == "torch":
            cuda = self.peers.torch.cuda
            start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
            start.record()
            for _ in range(n):
                run()
            end.record()
            end.synchronize()
            return start.elapsed_time(end) / 1e3 / n
        t0 = time.perf_counter()
        out = None
        for _ in range(n):
            out = run()
        self.synchronize(out)
        return (time.perf_counter() - t0) / n


def to_host(system, out):
    if isinstance(out, (tuple, list)):
        return tuple(to_host(system, o) for o in out)
    return system.to_host(out)


def check(workload, got) -> str | None:
    """None when `got` matches the workload's NumPy reference, else what differs."""
    import numpy as np

    expected = workload.reference
    pairs = zip(expected, got) if isinstance(expected, tuple) else [(expected, got)]
    for k, (e, g) in enumerate(pairs):
        g = np.asarray(g, dtype=np.float64)
        e = np.asarray(e, dtype=np.float64)
        if g.shape != e.shape:
            return f"output {k}: shape {g.shape}, expected {e.shape}"
        if not np.allclose(g, e, rtol=workload.rtol, atol=workload.atol):
            worst = float(np.max(np.abs(g - e) / (workload.atol + workload.rtol * np.abs(e))))
            return f"output {k}: {worst:.3g} x the tolerance off NumPy"
    return None


def measure(workload, clock, rounds: int, target: float, errors: dict) -> list:
    """Warm up and check every system, then time them interleaved; one row per system."""
    systems = list(workload.systems)
    if workload.moved:
        systems.append(clock.peers.copy(workload.moved))
    rows, timed = [], []
    for system in systems:
        row = {"workload": workload.key, "title": workload.title, "system": system.name}
        rows.append(row)
        try:
            started = time.perf_counter()
            out = system.run()
            clock.synchronize(out)
            if system.warm is not None:
                system.warm()
            row["first_call_s"] = round(time.perf_counter() - started, 3)
            for _ in range(2):
                out = system.run()
            clock.synchronize(out)
            if system.name != "copy (roofline)":
                row["error"] = check(workload, to_host(system, out))
            if system.describe is not None:
                row["steps"] = system.describe()
            once = clock.batch(system, 1)
            row["calls"] = max(1, min(100_000, int(target / max(once, 1e-7))))
            timed.append((system, row))
        except Exception as e:  # noqa: BLE001 - one system's failure is a row of the table
            row["error"] = f"{type(e).__name__}: {e}"[:300]
            row["traceback"] = traceback.format_exc()[-3000:]
    samples = {id(row): [] for _, row in timed}
    for r in range(rounds):
        order = timed if r % 2 == 0 else timed[::-1]
        for system, row in order:
            samples[id(row)].append(clock.batch(system, row["calls"]))
    for _, row in timed:
        row["seconds"] = statistics.median(samples[id(row)])
        row["spread"] = (min(samples[id(row)]), max(samples[id(row)]))
    for name, why in errors.items():
        rows.append(
            {"workload": workload.key, "title": workload.title, "system": name, "error": why}
        )
    _relate(rows, workload.moved)
    return rows


def _relate(rows, moved: int) -> None:
    """Add each row's GB/s, fraction of the copy's bandwidth and time relative to arraystack."""
    by_name = {r["system"]: r.get("seconds") for r in rows}
    copy, ours = by_name.get("copy (roofline)"), by_name.get("arraystack.jit")
    for row in rows:
        seconds = row.get("seconds")
        if seconds is None:
            continue
        row["us"] = seconds * 1e6
        if moved:
            row["GB/s"] = moved / seconds / 1e9
            if copy:
                row["vs copy"] = copy / seconds
        if ours:
            row["x arraystack"] = seconds / ours


# -- the device and its planner ----------------------------------------------------------------------------
def environment(xp, peers, dry_run: bool) -> dict:
    runtime = xp.cuda.runtime
    props = runtime.getDeviceProperties(0)
    name = props["name"]
    info = {
        "gpu": name.decode() if isinstance(name, bytes) else str(name),
        "compute capability": f"{props.get('major')}.{props.get('minor')}",
        "cuda driver API": runtime.driverGetVersion(),
        "cuda runtime": runtime.runtimeGetVersion(),
        "driver": "stand-in" if dry_run else _nvidia_smi_driver(),
        **peers.versions(),
    }
    return info


def _nvidia_smi_driver() -> str:
    try:
        done = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20, check=False,
        )  # fmt: skip
        return done.stdout.strip() or done.stderr.strip()[:200]
    except (OSError, subprocess.SubprocessError) as e:
        return f"nvidia-smi failed: {e}"


class OnTheDevice:
    """A placement policy: every region on cuda:0 (so the plan has transfers both ways)."""

    def place(self, eqn, cost, devices, current):
        return "cuda:0"


def planner_run(ast, n: int) -> dict:
    """The device's figures as the planner sees them, and a plan with a region on cuda:0 run once:
    explain() with the measured times beside the predicted ones."""
    import numpy as np
    from arraystack.backends.hardware import HardwareModel

    model = ast.devices()
    keep = ("cpu", "cuda:0")
    model = HardwareModel(
        tuple(d for d in model if d.key in keep),
        tuple(link for link in model.links if link.src in keep and link.dst in keep),
    )
    x = np.linspace(-1.0, 1.0, n, dtype=np.float32).reshape(-1, 64)
    f = ast.jit(lambda a: ast.tanh(a * 2.0 + 1.0).sum(axis=1) * 0.5)
    plan = f.lower(x).plan(policy=OnTheDevice(), devices=model)
    plan.run(x)  # compiles
    plan.run(x)
    return {"hardware": model.describe(), "explain": plan.explain()}


# -- the run -----------------------------------------------------------------------------------------------
def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--dry-run", action="store_true", help="tiny sizes on the stand-in for cupy"
    )
    parser.add_argument("--json", help="write the results here (after every workload)")
    parser.add_argument("--rounds", type=int, default=None, help="timed batches per system (7)")
    parser.add_argument("--target", type=float, default=None, help="seconds per batch (0.05)")
    parser.add_argument(
        "--budget", type=float, default=420.0, help="seconds before workloads are skipped"
    )
    parser.add_argument("--tests-timeout", type=float, default=TEST_TIMEOUT)
    parser.add_argument("--skip", nargs="*", default=[], help="systems or 'tests' to leave out")
    parser.add_argument(
        "--from-json", help="print the report of an earlier run's --json file (runs nothing)"
    )
    parser.add_argument(
        "--markdown", help="with --from-json: write the report as the gpu section of this page"
    )
    parser.add_argument("--when", help="with --markdown: when and at which commit the run was made")
    return parser.parse_args(argv)


def from_json(path: str, markdown: str | None, when: str | None = None) -> int:
    """The report of a run on a GPU, from its --json file; with `markdown`, also the `gpu` section of that
    page (docs/benchmarks.md), under the command the run was made with."""
    import contextlib
    import io
    import json

    with open(path, encoding="utf-8") as f:
        results = json.load(f)
    rows = [r for r in results["rows"] if "title" in r]
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        for label, run in results.get("tests", {}).items():
            if label != "files":
                print(f"{label} tests: {run['counts']} in {run['seconds']} s")
        env = results.get("environment", {})
        print("; ".join(f"{k} {v}" for k, v in env.items()))
        report(results, rows, results.get("targets") or targets(rows))
    output = text.getvalue()
    print(output)
    if markdown:
        gpu = results.get("environment", {}).get("gpu", "a GPU")
        section = "\n".join([
            f"## GPU ({gpu}): arraystack.jit against cupy, cupy.fuse, jax.jit and torch.compile", "",
            f"`bash benchmarks/gpu_session.sh` (that is, `{results['command']}`) on {gpu}"
            + (f", {when}" if when else "") + ":", "", "```text", output.rstrip(), "```",
        ])  # fmt: skip
        with open(markdown, encoding="utf-8") as f:
            page = f.read()
        with open(markdown, "w", encoding="utf-8") as f:
            f.write(harness.replace_section(page, "gpu", section))
        print(f"wrote the gpu section of {markdown}")
    return 0


def main(argv=None) -> int:
    args = parse(argv)
    if args.from_json:
        return from_json(args.from_json, args.markdown, args.when)
    started = time.perf_counter()
    if args.dry_run:
        os.environ["ARRAYSTACK_CUDA_STANDIN"] = "1"
    rounds = args.rounds or (3 if args.dry_run else 7)
    target = args.target or (0.002 if args.dry_run else 0.05)
    sizes = DRY if args.dry_run else FULL
    results = {"command": harness.command_line(argv, __file__), "dry_run": args.dry_run}

    def save():
        if args.json:
            harness.write_json(args.json, results)

    if "tests" not in args.skip:
        log = (
            os.path.join(os.path.dirname(os.path.abspath(args.json)), "gpu_tests.log")
            if args.json
            else None
        )
        results["tests"] = tests = run_gpu_tests(args.tests_timeout, args.dry_run, log)
        for label, run in tests.items():
            if label != "files":
                print(f"{label} tests: {run['counts']} rc {run['rc']} in {run['seconds']} s")
        save()

    import gpu_workloads as gw
    from arraystack.backends.cupy import arrays

    import arraystack as ast

    xp = arrays.cupy_module()
    if xp is None:
        print(f"no CUDA device: {arrays.missing()}")
        results["error"] = arrays.missing()
        save()
        return 1
    peers = gw.Peers(xp, ast, args.dry_run, args.skip)
    results["environment"] = env = environment(xp, peers, args.dry_run)
    print("\n".join(harness.describe_machine()))
    print("; ".join(f"{k} {v}" for k, v in env.items()))
    device = ast.devices()["cuda:0"]
    results["device"] = device.as_dict()
    print(f"planner's figures: {device.describe()}")
    save()

    builders = [
        lambda: gw.cached_dispatch(peers),
        lambda: gw.fused_chain(peers, sizes["n"]),
        lambda: gw.squares(peers, sizes["n"]),
        lambda: gw.rows(peers, gw.softmax, "softmax", sizes["rows"]),
        lambda: gw.rows(peers, gw.layernorm, "layernorm", sizes["rows"]),
        lambda: gw.mlp_step(peers, sizes["digits"]),
        lambda: gw.row_writes(peers, sizes["writes"]),  # beyond the targets: writes on the device
    ]
    rows = results["rows"] = []
    clock = Clock(peers)
    for build in builders:
        if time.perf_counter() - started > args.budget:
            rows.append({"workload": "?", "system": "-", "error": "skipped: over --budget"})
            break
        peers.errors = {k: v for k, v in peers.errors.items() if "not importable" in v}
        try:
            workload = build()
        except Exception as e:  # noqa: BLE001 - a workload that cannot be built is a row of the table
            rows.append({"workload": "?", "system": "-", "error": f"{type(e).__name__}: {e}"[:300],
                         "traceback": traceback.format_exc()[-3000:]})  # fmt: skip
            save()
            continue
        rows += measure(workload, clock, rounds, target, dict(peers.errors))
        del workload
        _free(xp, peers)
        save()
        print(
            f"  {rows[-1].get('title')}: done at {time.perf_counter() - started:.0f} s", flush=True
        )
    results["targets"] = goals = targets([r for r in rows if "title" in r])
    if "planner" not in args.skip:
        try:
            results["planner"] = planner_run(ast, 1 << 12 if args.dry_run else 1 << 22)
        except Exception as e:  # noqa: BLE001 - reported with the rest
            results["planner"] = {
                "error": f"{type(e).__name__}: {e}",
                "traceback": traceback.format_exc(),
            }
    results["seconds"] = round(time.perf_counter() - started, 1)
    save()
    report(results, rows, goals)
    return 0


def _free(xp, peers):
    gc.collect()
    xp.get_default_memory_pool().free_all_blocks()
    if peers.torch is not None and peers.torch_device == "cuda":
        peers.torch.cuda.empty_cache()


if __name__ == "__main__":
    sys.exit(main())
