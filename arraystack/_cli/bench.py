"""`python -m arraystack bench`: run the repository's benchmark scripts (benchmarks/) and show their tables.

The scripts live in the source repository, next to the arraystack/ folder; an installed wheel does not ship
them. Each script runs in its own process (as `python benchmarks/<script>.py`), so its thread limits and
imports are its own; its output (the medians and ratio tables) is printed as it comes. Peers that are not
installed (jax, torch) are skipped by the scripts themselves.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time

# name -> (script, what it measures, extra arguments for --quick, accepts --threads)
SCRIPTS = {
    "jit": (
        "bench_jit.py",
        "arraystack.jit vs NumPy and jax.jit: fused chains, softmax, sums, dispatch",
        ["--quick"],
        True,
    ),
    "train": (
        "bench_train.py",
        "training steps (MLP, CNN) vs jax.jit, torch and NumPy",
        ["--quick", "--skip-first-call"],
        True,
    ),
    "eager": (
        "bench_eager.py",
        "eager per-call time vs NumPy on small and large inputs",
        ["--quick"],
        True,
    ),
    "memory": (
        "bench_memory.py",
        "peak memory of jitted chains vs NumPy eager",
        ["--n", "1000000"],
        False,
    ),
}
PEERS = {"jax": "jax", "torch": "torch"}


def default_folder() -> str:
    """benchmarks/ next to the arraystack package folder: present in a source checkout (pip install -e .)."""
    package = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(package), "benchmarks")


def missing_folder_message(folder: str) -> str:
    return (
        f"no benchmarks folder at {folder}.\n"
        "The benchmark scripts ship with the source repository, not with the installed package (a wheel). "
        "Clone the repository and install it in place (pip install -e .), then run "
        "`python -m arraystack bench` again, or point --dir at a benchmarks/ folder."
    )


def plan(folder: str, only=None) -> tuple[list[tuple[str, str]], list[str]]:
    """([(name, path)] of the scripts to run, [names of selected scripts missing from the folder])."""
    chosen, missing = [], []
    for name in only or SCRIPTS:
        path = os.path.join(folder, SCRIPTS[name][0])
        (chosen.append((name, path)) if os.path.isfile(path) else missing.append(name))
    return chosen, missing


def peers_line() -> str:
    found = [name for name, module in PEERS.items() if importlib.util.find_spec(module) is not None]
    absent = [name for name in PEERS if name not in found]
    text = f"peers installed: {', '.join(found) or 'none'}"
    if absent:
        text += (
            f'; not installed (skipped): {", ".join(absent)} (pip install -e ".[bench]" for jax)'
        )
    return text


def command_for(name: str, path: str, quick: bool, threads: int | None) -> list[str]:
    _, _, quick_args, takes_threads = SCRIPTS[name]
    argv = [sys.executable, path]
    if quick:
        argv += quick_args
    if threads is not None and takes_threads:
        argv += ["--threads", str(threads)]
    return argv


def run_bench(
    folder=None, only=None, quick=False, threads=None, list_only=False, out=sys.stdout
) -> int:
    folder = os.path.abspath(folder or default_folder())
    if not os.path.isdir(folder):
        print(f"error: {missing_folder_message(folder)}", file=sys.stderr)
        return 2
    chosen, missing = plan(folder, only)
    for name in missing:
        print(f"note: {SCRIPTS[name][0]} is not in {folder}; skipped", file=out)
    if not chosen:  # e.g. an unrelated `benchmarks` folder next to an installed package
        print(
            f"error: none of the benchmark scripts are in {folder}.\n{missing_folder_message(folder)}",
            file=sys.stderr,
        )
        return 2
    if list_only:
        for name, path in chosen:
            print(f"{name:8s} {' '.join(command_for(name, path, quick, threads)[1:])}", file=out)
            print(f"         {SCRIPTS[name][1]}", file=out)
        return 0
    print(
        f"benchmarks from {folder} ({'quick' if quick else 'full'} runs); {peers_line()}", file=out
    )
    results = []
    for name, path in chosen:
        argv = command_for(name, path, quick, threads)
        print(
            f"\n=== {name}: {SCRIPTS[name][1]}\n$ python {' '.join(argv[1:])}", file=out, flush=True
        )
        start = time.perf_counter()
        try:
            done = subprocess.run(argv, cwd=os.path.dirname(folder), stdout=out, check=False)
            code = done.returncode
        except KeyboardInterrupt:
            print(f"\ninterrupted during {name}", file=out)
            return 130
        except (
            OSError,
            ValueError,
        ):  # `out` has no file descriptor (e.g. a StringIO): capture instead
            done = subprocess.run(
                argv, cwd=os.path.dirname(folder), capture_output=True, text=True, check=False
            )
            print(done.stdout, end="", file=out)
            code = done.returncode
        results.append((name, code, time.perf_counter() - start))
    print("\nsummary:", file=out)
    for name, code, seconds in results:
        state = "ok" if code == 0 else f"FAILED (exit {code})"
        print(f"  {name:8s} {state:18s} {seconds:6.1f} s", file=out)
    return 0 if all(code == 0 for _, code, _ in results) else 1
