"""The hardware model (backends/hardware.py, calibration.py, presets.py) and arraystack.devices()."""

from __future__ import annotations

import io
import json
import os
from dataclasses import replace

import numpy
import pytest
from arraystack.backends import calibration, hardware, presets
from arraystack.backends.hardware import Device, HardwareModel, Link

import arraystack

FAKE_CPU = Device(
    kind="cpu",
    name="fake CPU",
    cores=4,
    memory=8 << 30,
    peak_flops=(("float32", 200e9), ("float64", 100e9)),
    bandwidth=20e9,
    launch_latency=1e-6,
    source="measured",
)


@pytest.fixture
def fresh(monkeypatch):
    """No memoized models, no registered kinds but the built-in ones; calibration counted and instant."""
    monkeypatch.setattr(hardware, "_detected", {})
    monkeypatch.setattr(hardware, "device_kinds", dict(hardware.device_kinds))
    monkeypatch.setattr(hardware, "_backends", dict(hardware._backends))
    monkeypatch.setattr(hardware, "_entry_points_loaded", True)
    calls = []

    def fake_calibrate():
        calls.append(1)
        return FAKE_CPU

    monkeypatch.setattr(calibration, "calibrate_cpu", fake_calibrate)
    return calls


def test_calibration_measures_positive_figures():
    device = calibration.calibrate_cpu()
    assert device.kind == "cpu" and device.key == "cpu" and device.source == "measured"
    assert device.cores >= 1 and device.memory > 0
    assert device.bandwidth > 1e8 and device.launch_latency > 0
    assert dict(device.peak_flops).keys() == {"float32", "float64"}
    assert all(flops > 1e8 for _, flops in device.peak_flops)


def test_detect_calibrates_once_then_reads_the_cache(tmp_path, fresh):
    model = hardware.detect(str(tmp_path))
    assert model.default == FAKE_CPU and model["cpu"] is model[0] and len(fresh) == 1
    path = calibration.cache_path(str(tmp_path))
    with open(path) as f:
        data = json.load(f)
    assert data["machine"] == calibration.fingerprint()
    assert Device.from_dict(data["device"]) == FAKE_CPU
    assert [p for p in os.listdir(os.path.dirname(path)) if p != "cpu.json"] == []  # no temp files
    hardware._detected.clear()  # a new process: the figures come from disk
    assert hardware.detect(str(tmp_path)).default == FAKE_CPU and len(fresh) == 1
    assert hardware.detect(str(tmp_path)) is hardware.detect(str(tmp_path))  # memoized
    hardware.detect(str(tmp_path), recalibrate=True)
    assert len(fresh) == 2


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "",
        "[]",
        json.dumps({"format": 1, "machine": {"host": "elsewhere"}, "device": FAKE_CPU.as_dict()}),
        json.dumps({"format": 99, "device": {}}),
        "CORRECT_MACHINE_BAD_DEVICE",
    ],
)
def test_a_corrupt_or_foreign_cache_is_recalibrated(tmp_path, fresh, content):
    if content == "CORRECT_MACHINE_BAD_DEVICE":
        content = json.dumps(
            {"format": 1, "machine": calibration.fingerprint(), "device": {"kind": 3, "bogus": 1}}
        )
    path = calibration.cache_path(str(tmp_path))
    os.makedirs(os.path.dirname(path))
    with open(path, "w") as f:
        f.write(content)
    assert hardware.detect(str(tmp_path)).default == FAKE_CPU
    assert len(fresh) == 1
    assert calibration.load(path) == FAKE_CPU  # rewritten, valid


def test_an_unwritable_cache_dir_is_not_an_error(tmp_path, fresh):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert hardware.detect(str(blocker)).default == FAKE_CPU
    assert hardware.detect(None).default == FAKE_CPU  # no cache at all


def test_peak_lookup_by_dtype():
    assert FAKE_CPU.peak("float64") == 100e9
    assert FAKE_CPU.peak(numpy.complex64) == 200e9  # complex arithmetic: its real component's rate
    assert FAKE_CPU.peak("complex128") == 100e9
    assert FAKE_CPU.peak("int32") == FAKE_CPU.peak("float16") == 200e9  # no own figure: float32's
    assert Device("cpu").peak("float32") == 0.0


def test_records_round_trip_and_describe():
    assert Device.from_dict(json.loads(json.dumps(FAKE_CPU.as_dict()))) == FAKE_CPU
    text = FAKE_CPU.describe()
    assert "fake CPU" in text and "20 GB/s" in text and "float32 200 GFLOP/s" in text
    assert Device("cuda", 1).key == "cuda:1" and Device("cpu", 1).key == "cpu:1"


def test_presets_simulate_absent_devices():
    model = presets.model("h100")
    assert [d.key for d in model] == ["cpu", "cuda:0"]
    host, gpu = model
    assert host.name.startswith("64-core") and gpu.name.startswith("NVIDIA H100")
    assert gpu.backend == "" and gpu.source == "preset" and gpu.peak("float16") > gpu.peak("f8")
    up, down = model.link("cpu", "cuda:0"), model.link("cuda:0", "cpu")
    assert up.bandwidth == down.bandwidth == presets.LINK_PRESETS["pcie5"].bandwidth
    assert up.transfer_time(50e9) == pytest.approx(1 + up.latency)
    assert model.link("cpu", "cpu") is None
    two = presets.simulated(model, "a100")
    assert [d.key for d in two] == ["cpu", "cuda:0", "cuda:1"] and two["cuda:1"].name.endswith(
        "80GB"
    )
    with pytest.raises(KeyError, match="no link"):
        two.link("cuda:0", "cuda:1")
    with pytest.raises(KeyError, match="no device 'tpu:0'"):
        two.device("tpu:0")
    with pytest.raises(KeyError, match="no device preset 'z80'.*h100"):
        presets.model("z80")
    assert presets.preset_for_name("NVIDIA H100 80GB HBM3") is presets.DEVICE_PRESETS["h100"]
    assert presets.preset_for_name("Some Other GPU") is None


def test_detect_adds_presets_to_the_real_machine(tmp_path, fresh):
    model = hardware.detect(str(tmp_path), presets=("h100", "rtx4090"))
    assert [d.key for d in model] == ["cpu", "cuda:0", "cuda:1"] and model[0] == FAKE_CPU
    assert {(link.src, link.dst) for link in model.links} == {
        ("cpu", "cuda:0"),
        ("cuda:0", "cpu"),
        ("cpu", "cuda:1"),
        ("cuda:1", "cpu"),
    }
    assert "NVIDIA GeForce RTX 4090" in model.describe()


def _accelerator():
    device = Device(
        kind="fakeaccel",
        name="Fake Accelerator",
        peak_flops=(("float32", 1e12),),
        bandwidth=1e12,
        launch_latency=3e-6,
        backend="whatever",
    )
    link = Link("cpu", "fakeaccel:0", bandwidth=10e9, latency=1e-5)
    return [device, link, replace(link, src="fakeaccel:0", dst="cpu")]


def test_register_device_kind(tmp_path, fresh):
    hardware.register_device_kind("fakeaccel", _accelerator, backend="fakebackend")
    model = hardware.detect(str(tmp_path))
    accel = model["fakeaccel:0"]
    assert accel.backend == "fakebackend" and accel.name == "Fake Accelerator"
    assert model.link("fakeaccel:0", "cpu").bandwidth == 10e9
    with pytest.raises(ValueError, match="other than 'cpu'"):
        hardware.register_device_kind("cpu", _accelerator)
    with pytest.raises(TypeError, match="callable"):
        hardware.register_device_kind("x", 42)


def test_a_failing_device_kind_warns_and_the_rest_still_works(tmp_path, fresh):
    def broken():
        raise RuntimeError("driver exploded")

    hardware.register_device_kind("broken", broken)
    with pytest.warns(UserWarning, match="'broken' devices failed: driver exploded"):
        model = hardware.detect(str(tmp_path))
    assert [d.key for d in model] == ["cpu"]


class _EntryPoint:
    def __init__(self, name, value, target):
        self.name, self.value, self._target = name, value, target

    def load(self):
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


def test_entry_points_register_device_kinds(tmp_path, fresh, monkeypatch):
    import importlib.metadata

    seen = []

    def entry_points(group):
        seen.append(group)
        return [
            _EntryPoint("fakeaccel", "pkg.mod:detect", _accelerator),
            _EntryPoint("missing", "gone.mod:detect", ImportError("no module named gone")),
        ]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(hardware, "_entry_points_loaded", False)
    with pytest.warns(UserWarning, match="'gone.mod:detect' failed"):
        model = hardware.detect(str(tmp_path))
    assert seen == [hardware.ENTRY_POINT_GROUP] == ["arraystack.devices"]
    assert model["fakeaccel:0"].backend == "whatever"


def test_frontend_devices_and_array_api_devices_agree(tmp_path, fresh, monkeypatch):
    monkeypatch.setattr(arraystack.config, "cache_dir", str(tmp_path))
    model = arraystack.devices()
    assert isinstance(model, HardwareModel) and model[0] == FAKE_CPU
    assert os.path.exists(calibration.cache_path(str(tmp_path)))
    assert [d.key for d in arraystack.devices("h100")] == ["cpu", "cuda:0"]
    x = arraystack.ones(3)
    assert x.to_device(model[0]).device == "cpu"  # a record names a placement
    assert arraystack.__array_namespace_info__().devices()[0] == model[0].key
    with pytest.raises(ValueError, match="unsupported device 'cuda:0'"):
        x.to_device(arraystack.devices("h100")["cuda:0"])  # simulated: no buffers live there


def test_info_shows_the_hardware_model(tmp_path, fresh, monkeypatch):
    from arraystack.__main__ import info

    monkeypatch.setattr(arraystack.config, "cache_dir", str(tmp_path))
    out = io.StringIO()
    assert info(out) == 0
    assert "hardware model" in out.getvalue() and "fake CPU" in out.getvalue()
    assert info(io.StringIO(), recalibrate=True) == 0
    assert len(fresh) == 2
