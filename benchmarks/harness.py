"""Shared benchmark harness: thread limits, machine description, interleaved timing, tables, JSON, and the
sections of the benchmarks page (docs/benchmarks.md) that `--markdown PATH` rewrites.

Benchmarks are scripts, not tests. Call `limit_threads` before anything imports NumPy (BLAS reads its
thread count once, at load time); everything else here imports NumPy lazily for that reason.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
import timeit

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "NUMBA_NUM_THREADS",
)


def limit_threads(n: int | None) -> None:
    """Limit BLAS/OpenMP/numba threads to n through their environment variables (before importing NumPy);
    n = 1 also turns off XLA's threads and pins the process to one core."""
    if n is None:
        return
    if "numpy" in sys.modules:
        raise RuntimeError("limit_threads must run before NumPy is imported")
    for name in THREAD_VARIABLES:
        os.environ[name] = str(n)
    if n == 1:
        # XLA's CPU runtime keeps its own thread pool whatever the variables say: one thread means one core
        # for the whole process, every library in it
        os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false"
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info() -> dict:
    """Where the numbers come from: CPU, cores, library versions, thread pools and their limits."""
    import numpy

    info = {
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "cpu": _cpu_model(),
        "logical_cores": os.cpu_count(),
        "numpy": numpy.__version__,
        "thread_env": {k: os.environ[k] for k in THREAD_VARIABLES if k in os.environ},
    }
    try:
        import arraystack

        info["arraystack"] = getattr(arraystack, "__version__", "?")
    except Exception as e:  # noqa: BLE001  (the benchmark still describes the machine)
        info["arraystack"] = f"import failed: {e}"
    try:
        from threadpoolctl import threadpool_info

        info["threadpools"] = [
            {k: pool.get(k) for k in ("user_api", "internal_api", "num_threads", "version")}
            for pool in threadpool_info()
        ]
    except ImportError:
        info["threadpools"] = "threadpoolctl not installed; see thread_env"
    try:
        config = numpy.show_config(mode="dicts")
        blas = config.get("Build Dependencies", {}).get("blas", {})
        info["numpy_blas"] = f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except Exception:  # noqa: BLE001  (show_config's layout varies between NumPy versions)
        info["numpy_blas"] = "unknown"
    return info


def calibrate(timer: timeit.Timer, target_seconds: float) -> int:
    """How many calls make one measurement last about `target_seconds` (at least 1)."""
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= target_seconds / 10 or number >= 1 << 24:
            break
        number *= 10
    per_call = max(elapsed / number, 1e-9)
    return max(1, int(target_seconds / per_call))


def interleaved(pairs: dict, rounds: int, target_seconds: float, warmup: int = 2) -> dict:
    """Time several (baseline, candidate) timeit.Timer pairs round-robin in one process.

    Each round measures every pair once, alternating which side goes first, so drifts in clock speed or
    background load hit both sides alike. Both sides of a pair run the same number of calls per
    measurement (calibrated on the baseline). Returns {key: (baseline seconds/call, candidate seconds/call)},
    the medians over the rounds.
    """
    numbers = {}
    for key, (base, cand) in pairs.items():
        numbers[key] = calibrate(base, target_seconds)
        for _ in range(warmup):
            base.timeit(max(1, numbers[key] // 10))
            cand.timeit(max(1, numbers[key] // 10))
    samples = {key: ([], []) for key in pairs}
    for r in range(rounds):
        for key, (base, cand) in pairs.items():
            n = numbers[key]
            order = ((0, base), (1, cand)) if r % 2 == 0 else ((1, cand), (0, base))
            for side, timer in order:
                samples[key][side].append(timer.timeit(n) / n)
    return {key: (statistics.median(b), statistics.median(c)) for key, (b, c) in samples.items()}


def geometric_mean(values) -> float:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    if not values:
        return float("nan")
    return math.exp(sum(math.log(v) for v in values) / len(values))


def format_table(rows: list[dict], columns: list[tuple[str, str, str]]) -> str:
    """rows of dicts -> a fixed-width text table; columns are (key, heading, format spec)."""
    cells = [[heading for _, heading, _ in columns]]
    for row in rows:
        line = []
        for key, _, spec in columns:
            value = row.get(key)
            line.append("" if value is None else format(value, spec) if spec else str(value))
        cells.append(line)
    widths = [max(len(c[i]) for c in cells) for i in range(len(columns))]
    out = []
    for j, line in enumerate(cells):
        padded = [
            c.rjust(w) if spec else c.ljust(w) for c, w, (_, _, spec) in zip(line, widths, columns)
        ]
        out.append("  ".join(padded).rstrip())
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def write_json(path: str, payload: dict) -> None:
    payload = dict(payload, written=time.strftime("%Y-%m-%dT%H:%M:%S%z"))
    with open(path, "w") as f:
        json.dump(payload, f, indent=2, default=str)
        f.write("\n")


def describe_machine(info: dict | None = None) -> list[str]:
    """The machine in a few lines, as every benchmark prints it first: CPU, cores, load, library versions
    and thread settings."""
    info = info or machine_info()
    try:
        load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        load = "unknown"
    env = ", ".join(f"{k}={v}" for k, v in info["thread_env"].items()) or "no thread variables set"
    pools = info["threadpools"]
    if isinstance(pools, str):
        threads = f"threads: {env} (pools not listed: threadpoolctl is not installed)"
    else:
        listed = ", ".join(f"{p['internal_api']} {p['num_threads']}" for p in pools)
        threads = f"threads: {listed}; {env}"
    return [
        f"machine: {info['cpu']}, {info['logical_cores']} logical cores, {info['platform']}",
        f"load average (1, 5, 15 min) at start: {load}",
        (
            f"python {info['python']}, numpy {info['numpy']} ({info['numpy_blas']}), "
            f"arraystack {info['arraystack']}"
        ),
        threads,
    ]


def command_line(argv: list[str] | None, script: str) -> str:
    """The command that reproduces this run: the script's path from the repository root and its arguments,
    without --markdown (which only says where the output goes)."""
    args = list(sys.argv[1:] if argv is None else argv)
    kept = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--markdown":
            skip = True
        elif not arg.startswith("--markdown="):
            kept.append(arg)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.relpath(os.path.abspath(script), root)
    return " ".join(["python", shlex.quote(path), *map(shlex.quote, kept)])


def _commit() -> str:
    """The commit the code ran at, and whether the library's folders differed from it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def git(*args) -> str:
        try:
            done = subprocess.run(
                ["git", "-C", root, *args], capture_output=True, text=True, check=False, timeout=10
            )
        except (OSError, subprocess.SubprocessError):
            return ""
        return done.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    if git("status", "--porcelain", "--", "arraystack", "jit", "backends"):
        commit += " with uncommitted changes to arraystack/, jit/ or backends/"
    return commit


class _Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy."""

    def __init__(self, stream):
        self.stream = stream
        self.copy = io.StringIO()

    def write(self, text):
        self.stream.write(text)
        self.copy.write(text)
        return len(text)

    def flush(self):
        self.stream.flush()


def begin_marker(name: str) -> str:
    return f"<!-- benchmark {name}: written by --markdown, do not edit -->"


def end_marker(name: str) -> str:
    return f"<!-- end of benchmark {name} -->"


def replace_section(page: str, name: str, section: str) -> str:
    """page with the text between `name`'s markers replaced by section (appended when absent)."""
    begin, end = begin_marker(name), end_marker(name)
    block = f"{begin}\n{section.rstrip()}\n{end}"
    start = page.find(begin)
    if start < 0:
        return page.rstrip() + "\n\n" + block + "\n"
    stop = page.index(end, start) + len(end)
    return page[:start] + block + page[stop:]


@contextlib.contextmanager
def markdown_section(path: str | None, name: str, title: str, argv: list[str] | None, script: str):
    """Everything printed inside the block also goes into the section `name` of the Markdown page at
    `path` (docs/benchmarks.md), under `title`, with the command that reproduces it, the date and the
    commit. Without a path, only prints."""
    if not path:
        yield
        return
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield
    output = tee.copy.getvalue().rstrip()
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    section = "\n".join(
        [
            f"## {title}",
            "",
            f"`{command_line(argv, script)}` (run {when}, commit {_commit()}):",
            "",
            "```text",
            output,
            "```",
        ]
    )
    with open(path, encoding="utf-8") as f:
        page = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(replace_section(page, name, section))
    print(f"wrote the {name} section of {path}")
