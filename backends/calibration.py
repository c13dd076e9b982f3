"""CPU calibration: measure this machine's figures with micro-benchmarks (< 1 s) and cache them on disk; the
cache (load_records/save_records) also keeps other devices' measured figures (backends/cupy/calibration.py).

Bandwidth is NumPy's STREAM "add" (c = a + b on arrays far larger than the caches), peak flops a float32 and
a float64 matmul through NumPy's BLAS, launch latency a ufunc call on one element. The cache file
<cache_dir>/hardware/cpu.json is written atomically and keyed by a fingerprint of the machine; a missing,
corrupt or foreign file means measuring again, never an error.
"""

from __future__ import annotations

import json
import os
import platform
import tempfile
import time
from dataclasses import asdict

import numpy as np
from arraystack.backends.hardware import Device, Link, log

FORMAT = 1
BANDWIDTH_ELEMENTS = 1 << 22  # float64: 32 MiB per array, 96 MiB per pass
MATMUL_SIZE = 512
BUDGET = 0.25  # seconds per measurement at most (after its first repetition)


def cpu_device(cache_dir: str | None = None, recalibrate: bool = False) -> Device:
    """The host CPU's Device record: from the cache when it matches this machine, else measured."""
    path = cache_path(cache_dir) if cache_dir else None
    if path and not recalibrate:
        cached = load(path)
        if cached is not None:
            return cached
    device = calibrate_cpu()
    if path:
        save(path, device)
    return device


def cache_path(cache_dir: str) -> str:
    return os.path.join(cache_dir, "hardware", "cpu.json")


def fingerprint() -> dict:
    """What must match for cached figures to describe this machine."""
    return {
        "host": platform.node(),
        "cpu": cpu_name(),
        "cores": _cores(),
        "numpy": np.__version__,
        "blas": _blas_name(),
    }


def load(path: str) -> Device | None:
    """The CPU's record cached at `path`, when it describes this machine; else None."""
    records = load_records(path, fingerprint())
    return None if records is None else records[0]


def save(path: str, device: Device) -> None:
    save_records(path, fingerprint(), device)


def load_records(path: str, machine: dict) -> list | None:
    """[Device, *Links] cached at `path` when the file was written for `machine` (a fingerprint); None for
    a missing, corrupt or foreign file, or figures no device could have."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("format") != FORMAT or data.get("machine") != machine:
            return None
        device = Device.from_dict(data["device"])
        links = [Link(**link) for link in data.get("links", ())]
        if device.bandwidth <= 0 or device.launch_latency < 0 or not device.peak_flops:
            return None
        if any(link.bandwidth <= 0 or link.latency < 0 for link in links):
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        if not isinstance(e, FileNotFoundError):
            log.info("arraystack: ignoring the hardware cache %s (%s); recalibrating", path, e)
        return None
    return [device, *links]


def save_records(path: str, machine: dict, device: Device, links=()) -> None:
    """Write atomically (a temporary file renamed over the old one); an unwritable cache is only logged."""
    data = {
        "format": FORMAT,
        "machine": machine,
        "device": device.as_dict(),
        "links": [asdict(link) for link in links],
    }
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".calibration.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as e:
        log.info("arraystack: could not write the hardware cache %s: %s", path, e)


def calibrate_cpu() -> Device:
    start = time.perf_counter()
    device = Device(
        kind="cpu",
        name=cpu_name(),
        cores=_cores(),
        memory=_memory(),
        peak_flops=tuple((dtype, measure_matmul(dtype)) for dtype in ("float32", "float64")),
        bandwidth=measure_bandwidth(),
        launch_latency=measure_latency(),
        source="measured",
    )
    log.info("arraystack: calibrated the CPU in %.2f s", time.perf_counter() - start)
    return device


def _best_time(run, repeats: int) -> float:
    best = float("inf")
    spent = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        run()
        elapsed = time.perf_counter() - t0
        best = min(best, elapsed)
        spent += elapsed
        if spent > BUDGET:
            break
    return max(best, 1e-9)


def measure_bandwidth() -> float:
    """Bytes/s of c = a + b in float64 (two arrays read, one written), best of a few passes."""
    a = np.ones(BANDWIDTH_ELEMENTS)
    b = np.ones(BANDWIDTH_ELEMENTS)
    c = np.empty(BANDWIDTH_ELEMENTS)
    np.add(a, b, out=c)  # touch every page before timing
    seconds = _best_time(lambda: np.add(a, b, out=c), 5)
    return 3 * a.nbytes / seconds


def measure_matmul(dtype: str) -> float:
    """Flop/s of a square matmul through NumPy's BLAS (all cores it uses)."""
    n = MATMUL_SIZE
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, n)).astype(dtype)
    y = rng.standard_normal((n, n)).astype(dtype)
    out = np.empty((n, n), dtype)
    np.matmul(x, y, out=out)  # warm up: BLAS threads start, buffers are touched
    return 2.0 * n**3 / _best_time(lambda: np.matmul(x, y, out=out), 8)


def measure_latency() -> float:
    """Seconds per call of the cheapest compiled step: a ufunc on a one-element array."""
    x = np.ones(1)
    out = np.empty(1)
    calls = 200

    def run():
        for _ in range(calls):
            np.negative(x, out=out)

    return _best_time(run, 10) / calls


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "CPU"


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _memory() -> int:
    """Physical memory in bytes, or the cgroup limit when the process runs under a smaller one."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        total = 0
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="utf-8") as f:
            limit = f.read().strip()
        if limit.isdigit():
            total = min(total, int(limit)) if total else int(limit)
    except OSError:
        pass
    return int(total)


def _blas_name() -> str:
    try:
        config = np.show_config(mode="dicts")
        return str(config["Build Dependencies"]["blas"].get("name", ""))
    except Exception:  # noqa: BLE001 - an informational field only
        return ""
