"""A CUDA device's figures for the planner, measured on first use (well under a second on a GPU): memory
bandwidth from a device-to-device copy timed with CUDA events, launch latency from launches of an empty
kernel, and the host<->device links' bandwidth and latency from copies of a large and a one-element array.

They are cached like the CPU's (backends/calibration.py): <cache_dir>/hardware/cuda-<index>.json, keyed by
the device, the driver, the CUDA runtime and cupy, so a new driver or another GPU is measured again.
detect_cuda (backend.py) calls `calibrated`; the stand-in's devices are not measured (their memory is the
host's), so their figures stay the estimated ones and say so (Device.source "estimated").
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import replace

import numpy as np
from arraystack.backends.calibration import load_records, save_records
from arraystack.backends.hardware import log

COPY_BYTES = 256 << 20  # the copy's source; large against the L2 cache (50-60 MB on an H100/H200)
TRANSFER_BYTES = 64 << 20
LAUNCHES = 200
NOOP = 'extern "C" __global__ void arraystack_noop(int n) {}'


def cache_path(cache_dir: str, index: int) -> str:
    return os.path.join(cache_dir, "hardware", f"cuda-{index}.json")


def fingerprint(xp, index: int) -> dict:
    """What must match for cached figures to describe device `index` as it runs now."""
    props = xp.cuda.runtime.getDeviceProperties(index)
    name = props["name"]
    return {
        "host": platform.node(),
        "gpu": name.decode() if isinstance(name, bytes) else str(name),
        "pci bus": props.get("pciBusID"),
        "memory": props.get("totalGlobalMem"),
        "driver": xp.cuda.runtime.driverGetVersion(),
        "runtime": xp.cuda.runtime.runtimeGetVersion(),
        "cupy": xp.__version__,
    }


def calibrated(xp, device, links, cache_dir=None, recalibrate=False) -> list:
    """[device, *links] with measured figures: read from the cache when it matches this device, else
    measured (and cached when cache_dir is given). A measurement that fails keeps the estimated figures
    and logs why."""
    machine = fingerprint(xp, device.index)
    path = cache_path(cache_dir, device.index) if cache_dir else None
    if path and not recalibrate:
        cached = load_records(path, machine)
        if cached is not None:
            return cached
    try:
        records = measure(xp, device, links)
    except Exception as e:  # noqa: BLE001 - the estimated figures still plan
        log.warning("arraystack: measuring %s failed (%s); using estimated figures", device.key, e)
        return [device, *links]
    if path:
        save_records(path, machine, records[0], records[1:])
    return records


def measure(xp, device, links) -> list:
    """The device's record and its links to and from the host, with the figures measured now."""
    started = time.perf_counter()
    with xp.cuda.Device(device.index):
        bandwidth = copy_bandwidth(xp, _copy_bytes(device))
        latency = launch_latency(xp)
        transfers = {"to": host_to_device(xp), "from": device_to_host(xp)}
        xp.get_default_memory_pool().free_all_blocks()
    measured = replace(device, bandwidth=bandwidth, launch_latency=latency, source="measured")
    out = []
    for link in links:
        way = "to" if link.dst == device.key else "from"
        seconds_small, seconds_large = transfers[way]
        speed = TRANSFER_BYTES / max(seconds_large - seconds_small, 1e-9)
        out.append(replace(link, bandwidth=speed, latency=seconds_small, name="measured copies"))
    log.info("arraystack: calibrated %s in %.2f s", device.key, time.perf_counter() - started)
    return [measured, *out]


def _copy_bytes(device) -> int:
    return min(COPY_BYTES, max(1 << 20, device.memory // 16)) if device.memory else COPY_BYTES


def _events_best(xp, run, repeats: int) -> float:
    """The shortest of `repeats` runs of run(), timed with CUDA events on the current stream."""
    best = float("inf")
    for _ in range(repeats):
        start, stop = xp.cuda.Event(), xp.cuda.Event()
        start.record()
        run()
        stop.record()
        stop.synchronize()
        best = min(best, xp.cuda.get_elapsed_time(start, stop) / 1e3)
    return max(best, 1e-9)


def copy_bandwidth(xp, nbytes: int) -> float:
    """Bytes/s read plus written by a device-to-device copy (cupy.copyto of contiguous arrays: a memcpy)."""
    src = xp.ones(nbytes // 4, xp.float32)
    dst = xp.empty_like(src)
    xp.copyto(dst, src)  # the first touch
    return 2 * src.nbytes / _events_best(xp, lambda: xp.copyto(dst, src), 5)


def launch_latency(xp) -> float:
    """Seconds per launch of an empty kernel, launched back to back: the fixed cost of one region."""
    kernel = xp.RawKernel(NOOP, "arraystack_noop")
    arg = np.int32(0)
    kernel((1,), (1,), (arg,))  # compiles
    device = xp.cuda.Device()
    best = float("inf")
    for _ in range(3):
        device.synchronize()
        t0 = time.perf_counter()
        for _ in range(LAUNCHES):
            kernel((1,), (1,), (arg,))
        device.synchronize()
        best = min(best, (time.perf_counter() - t0) / LAUNCHES)
    return best


def _host_best(xp, run, repeats: int) -> float:
    device = xp.cuda.Device()
    best = float("inf")
    for _ in range(repeats):
        device.synchronize()
        t0 = time.perf_counter()
        run()
        device.synchronize()
        best = min(best, time.perf_counter() - t0)
    return best


def host_to_device(xp) -> tuple:
    """Seconds to copy one element and TRANSFER_BYTES from (pageable) host memory to the device."""
    small, large = np.ones(1, np.float32), np.ones(TRANSFER_BYTES // 4, np.float32)
    d_small, d_large = xp.empty(1, xp.float32), xp.empty(large.size, xp.float32)
    d_large.set(large)
    return _host_best(xp, lambda: d_small.set(small), 20), _host_best(
        xp, lambda: d_large.set(large), 3
    )


def device_to_host(xp) -> tuple:
    """Seconds to copy one element and TRANSFER_BYTES from the device to (pageable) host memory."""
    small, large = np.empty(1, np.float32), np.empty(TRANSFER_BYTES // 4, np.float32)
    d_small, d_large = xp.ones(1, xp.float32), xp.ones(large.size, xp.float32)
    d_large.get(out=large)
    return _host_best(xp, lambda: d_small.get(out=small), 20), _host_best(
        xp, lambda: d_large.get(out=large), 3
    )
