"""The planner and engine with a CUDA device (issue 25, item 4), on the stand-in: the device's figures are
measured and cached like the CPU's (the stand-in's own stay estimated and say so), a plan with a region on
cuda:0 runs with its transfers as explicit steps, a memory limit or a full pool raises OutOfMemory naming
the step, and explain() shows each step's measured time beside the predicted one."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from arraystack.backends.cupy import calibration
from arraystack.backends.hardware import HardwareModel

import arraystack as ast


class OnTheDevice:
    """A placement policy: every region on cuda:0."""

    def place(self, eqn, cost, devices, current):
        return "cuda:0"


def _model():
    model = ast.devices()
    keep = ("cpu", "cuda:0")
    return HardwareModel(
        tuple(d for d in model if d.key in keep),
        tuple(link for link in model.links if link.src in keep and link.dst in keep),
    )


def _device_and_links(model):
    gpu = model["cuda:0"]
    return gpu, [link for link in model.links if "cuda:0" in (link.src, link.dst)]


def _layer(a):
    return ast.tanh(a * 2.0 + 1.0).sum(axis=1) * 0.5


def test_the_standins_figures_are_estimated_and_say_so(standin):
    gpu = ast.devices()["cuda:0"]
    assert gpu.source == "estimated"
    assert "(estimated" in gpu.describe()


def test_a_devices_figures_are_measured_then_cached(standin, tmp_path, monkeypatch):
    gpu, links = _device_and_links(_model())
    records = calibration.calibrated(standin, gpu, links, str(tmp_path))
    measured, *measured_links = records
    assert measured.source == "measured" and measured.key == "cuda:0"
    assert measured.bandwidth > 0 and measured.launch_latency > 0
    assert measured.peak_flops == gpu.peak_flops and measured.memory == gpu.memory
    assert {(link.src, link.dst) for link in measured_links} == {
        ("cpu", "cuda:0"),
        ("cuda:0", "cpu"),
    }
    assert all(link.name == "measured copies" and link.bandwidth > 0 for link in measured_links)
    path = tmp_path / "hardware" / "cuda-0.json"
    assert json.loads(path.read_text())["machine"]["gpu"] == gpu.name

    def no_measuring(*args):
        raise AssertionError("measured again although the cache matches")

    monkeypatch.setattr(calibration, "measure", no_measuring)
    assert calibration.calibrated(standin, gpu, links, str(tmp_path)) == records


def test_a_corrupt_or_foreign_cache_is_measured_again(standin, tmp_path, monkeypatch):
    gpu, links = _device_and_links(_model())
    calls = []

    def fake_measure(xp, device, links):
        calls.append(device.key)
        return [replace(device, bandwidth=1e12, source="measured"), *links]

    monkeypatch.setattr(calibration, "measure", fake_measure)
    calibration.calibrated(standin, gpu, links, str(tmp_path))
    path = tmp_path / "hardware" / "cuda-0.json"
    path.write_text("{ not json")
    assert calibration.calibrated(standin, gpu, links, str(tmp_path))[0].bandwidth == 1e12
    monkeypatch.setattr(standin.cuda.runtime, "driverGetVersion", lambda: 13000)  # a new driver
    calibration.calibrated(standin, gpu, links, str(tmp_path))
    calibration.calibrated(standin, gpu, links, str(tmp_path), recalibrate=True)
    assert calls == ["cuda:0"] * 4


def test_a_failed_measurement_keeps_the_estimates(standin, tmp_path, monkeypatch):
    gpu, links = _device_and_links(_model())

    def broken(*args):
        raise RuntimeError("no events")

    monkeypatch.setattr(calibration, "copy_bandwidth", broken)
    assert calibration.calibrated(standin, gpu, links, str(tmp_path)) == [gpu, *links]
    assert not (tmp_path / "hardware" / "cuda-0.json").exists()


def test_a_plan_on_cuda_runs_its_transfers_and_explains_measured_beside_predicted(standin):
    x = np.linspace(-1.0, 1.0, 256, dtype=np.float32).reshape(4, 64)
    plan = ast.jit(_layer).lower(x).plan(policy=OnTheDevice(), devices=_model())
    assert [r.device for r in plan.regions] == ["cuda:0"]
    assert [(t.src, t.dst) for t in plan.transfers] == [("cpu", "cuda:0"), ("cuda:0", "cpu")]
    out = plan.run(x)
    np.testing.assert_allclose(np.asarray(out), _layer(np.asarray(x)), rtol=1e-6)
    report = plan.last_run
    assert report.runtimes["cuda:0"] == "cupy"
    assert [t[1:3] for t in report.transfers] == [("cpu", "cuda:0"), ("cuda:0", "cpu")]
    assert set(report.measured) == {("region", 0), ("transfer", 0), ("transfer", 1)}
    assert all(seconds > 0 for seconds in report.measured.values())
    text = plan.explain()
    assert "    runs as cuda kernel (" in text  # how the backend runs the region
    header = next(line for line in text.splitlines() if "predicted" in line and "measured" in line)
    steps = text.splitlines()[text.splitlines().index(header) + 1 :]
    assert [line.split()[1] for line in steps] == ["copy", "region", "copy"]
    region = plan.regions[0].estimate().compute * 1e6
    assert f"{region:.4g} us" in steps[1] and steps[1].count(" us") == 2


def test_the_memory_limit_of_cuda_names_the_step(standin, monkeypatch):
    x = np.ones((64, 64), np.float32)
    plan = ast.jit(lambda a: ast.exp(a) @ a).lower(x).plan(policy=OnTheDevice(), devices=_model())
    monkeypatch.setattr(ast.config, "memory_limit", {"cuda:0": x.nbytes + 1024})
    with pytest.raises(ast.OutOfMemory, match=r"out of memory on cuda:0 at plan step \d") as e:
        plan.run(x)
    assert e.value.device == "cuda:0" and e.value.primitive in ("fusion", "dot_general")


def test_running_out_of_cupys_pool_in_a_plan_is_out_of_memory(standin):
    x = np.ones((64, 64), np.float32)
    plan = ast.jit(lambda a: ast.exp(a) @ a).lower(x).plan(policy=OnTheDevice(), devices=_model())
    pool = standin.get_default_memory_pool()
    pool.free_all_blocks()
    pool.set_limit(size=pool.total_bytes() + x.nbytes + 512)
    try:
        with pytest.raises(ast.OutOfMemory, match=r"cuda:0 at plan step \d") as e:
            plan.run(x)
    finally:
        pool.set_limit(None)
    assert e.value.device == "cuda:0" and "region 0 `fusion`" in str(e.value)
    assert isinstance(e.value.__cause__, standin.cuda.memory.OutOfMemoryError)  # cupy's, reported


def test_a_plan_given_a_cuda_argument_says_it_reads_host_arrays(standin):
    x = ast.asarray(np.ones((4, 64), np.float32), device="cuda")
    plan = ast.jit(_layer).lower(x).plan(policy=OnTheDevice(), devices=_model())
    with pytest.raises(ValueError, match=r"argument leaf 0 is on cuda:0.*to_device\('cpu'\)"):
        plan.run(x)
    out = plan.run(x.to_device("cpu"))
    np.testing.assert_allclose(np.asarray(out), _layer(np.ones((4, 64), np.float32)), rtol=1e-6)
