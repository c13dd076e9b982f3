"""benchmarks/bench_gpu.py (issue 25, item 6) works before GPU time is spent on it: its dry run on the stand-in
for cupy measures every workload, checks every system against NumPy, lists the issue's targets and runs the
planner on cuda:0; its checks and targets judge rows as the issue says."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BENCHMARKS = os.path.join(ROOT, "benchmarks")


@pytest.fixture
def bench():
    sys.path.insert(0, BENCHMARKS)
    try:
        import bench_gpu

        yield bench_gpu
    finally:
        sys.path.remove(BENCHMARKS)


@pytest.mark.slow
def test_the_dry_run_measures_every_workload_on_the_standin(tmp_path):
    out = tmp_path / "bench_gpu.json"
    env = {k: v for k, v in os.environ.items() if k != "ARRAYSTACK_CUDA_STANDIN"}
    done = subprocess.run(
        [sys.executable, "benchmarks/bench_gpu.py", "--dry-run", "--skip", "torch.compile",
         "--json", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads(out.read_text())
    assert results["dry_run"] and results["tests"]["gpu-marked"]["rc"] == 0
    assert "test_backend.py" in " ".join(results["tests"]["files"])
    assert results["environment"]["driver"] == "stand-in"
    assert results["device"]["source"] == "estimated"  # the stand-in's figures are not measured
    ours = [r for r in results["rows"] if r["system"] == "arraystack.jit"]
    assert sorted(r["workload"] for r in ours) == ["a", "b", "b", "c", "d", "e", "h"]
    for row in ours:
        assert row["error"] is None and row["seconds"] > 0, row
        assert any("cuda kernel" in step for step in row["steps"]), row
    (writes,) = [r for r in ours if r["workload"] == "h"]  # (h): rows written in the device buffer
    assert sum("writes into its operand's buffer" in step for step in writes["steps"]) == 8
    copies = [r for r in results["rows"] if r["system"] == "copy (roofline)"]
    assert sorted(r["workload"] for r in copies) == ["a", "b", "b", "c"]
    assert all(r.get("error") is None for r in results["rows"] if r["system"] == "cupy")
    graphed = [r for r in results["rows"] if r["system"] == "arraystack.jit + graphs"]
    assert [r["workload"] for r in graphed] == ["e", "h"]  # (d) is one kernel: no graph
    assert all(r["error"] is None and r["seconds"] > 0 for r in graphed), graphed
    # seven targets, and (e) again with CUDA graphs
    assert len(results["targets"]) == 8
    assert sum("(CUDA graphs)" in t["target"] for t in results["targets"]) == 1
    assert "cuda:0" in results["planner"]["explain"]
    assert "targets (issue 25, item 6)" in done.stdout


def test_check_flags_results_off_numpy(bench):
    import gpu_workloads as gw

    w = gw.Workload("a", "t", 0, reference=np.array([1.0, 2.0], np.float32))
    assert bench.check(w, np.array([1.0, 2.0], np.float32)) is None
    assert "tolerance" in bench.check(w, np.array([1.0, 2.1], np.float32))
    assert "shape" in bench.check(w, np.array([1.0], np.float32))


def test_targets_are_the_issues_ratios(bench):
    def row(key, title, system, seconds):
        return {"workload": key, "title": title, "system": system, "seconds": seconds}

    rows = [
        row("a", "chain", "arraystack.jit", 1.0), row("a", "chain", "copy (roofline)", 0.9),
        row("a", "chain", "jax.jit", 1.2), row("d", "x*2+1", "arraystack.jit", 12e-6),
        row("e", "mlp", "arraystack.jit", 1.0),
    ]  # fmt: skip
    goals = {(g["workload"], g["target"][:8]): g for g in bench.targets(rows)}
    assert goals[("a", ">= 85% o")]["met"] is True  # 0.9 of the copy's bandwidth
    assert goals[("a", ">= 1.5x ")]["met"] is False  # only 1.2x jax.jit
    assert goals[("d", "<= 10 us")]["met"] is False
    assert goals[("e", "<= jax.j")]["met"] is None  # no jax row: not judged
    assert len(goals) == 4
