"""Presets: devices and links that are absent here, from vendor data sheets, so planning can be simulated.

`model("server-cpu-64", "h100")` is a whole simulated machine (the first CPU preset is the host);
`simulated(model, "h100")` adds a device to a real model, linked to its host. Figures are dense peaks
(no sparsity): float32 on GPUs is the CUDA-core rate, since NumPy semantics rule out TF32.
"""

from __future__ import annotations

from dataclasses import replace

from arraystack.backends.hardware import Device, HardwareModel, Link

GB = 1 << 30

DEVICE_PRESETS = {
    "h100": Device(
        kind="cuda",
        name="NVIDIA H100 SXM5 80GB",
        cores=132,
        memory=80 * GB,
        peak_flops=(
            ("float16", 989e12),
            ("bfloat16", 989e12),
            ("float32", 67e12),
            ("float64", 67e12),
        ),
        bandwidth=3.35e12,
        launch_latency=4e-6,
        source="preset",
    ),
    "a100": Device(
        kind="cuda",
        name="NVIDIA A100 SXM4 80GB",
        cores=108,
        memory=80 * GB,
        peak_flops=(
            ("float16", 312e12),
            ("bfloat16", 312e12),
            ("float32", 19.5e12),
            ("float64", 19.5e12),
        ),
        bandwidth=2.04e12,
        launch_latency=5e-6,
        source="preset",
    ),
    "rtx4090": Device(
        kind="cuda",
        name="NVIDIA GeForce RTX 4090",
        cores=128,
        memory=24 * GB,
        peak_flops=(("float16", 165e12), ("float32", 82.6e12), ("float64", 1.29e12)),
        bandwidth=1.01e12,
        launch_latency=5e-6,
        source="preset",
    ),
    # 64 Zen 4 cores at 3.1 GHz: two 256-bit FMA pipes = 16 float64 (32 float32) flops per cycle per core;
    # twelve channels of DDR5-4800.
    "server-cpu-64": Device(
        kind="cpu",
        name="64-core server CPU (AMD EPYC 9554 class)",
        cores=64,
        memory=512 * GB,
        peak_flops=(("float32", 6.35e12), ("float64", 3.17e12)),
        bandwidth=460e9,
        launch_latency=2e-6,
        source="preset",
    ),
    "laptop-cpu-8": Device(
        kind="cpu",
        name="8-core laptop CPU",
        cores=8,
        memory=16 * GB,
        peak_flops=(("float32", 900e9), ("float64", 450e9)),
        bandwidth=60e9,
        launch_latency=2e-6,
        source="preset",
    ),
}

# One-way link figures (achievable, not theoretical); src/dst are filled in when a link is placed.
LINK_PRESETS = {
    "pcie4": Link("", "", bandwidth=25e9, latency=10e-6, name="PCIe 4.0 x16"),
    "pcie5": Link("", "", bandwidth=50e9, latency=8e-6, name="PCIe 5.0 x16"),
    "nvlink-c2c": Link("", "", bandwidth=450e9, latency=5e-6, name="NVLink-C2C (Grace Hopper)"),
}
# How a simulated accelerator reaches its host.
HOST_LINKS = {"h100": "pcie5", "a100": "pcie4", "rtx4090": "pcie4"}


def preset(name: str) -> Device:
    try:
        return DEVICE_PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(DEVICE_PRESETS))
        raise KeyError(f"no device preset {name!r}; presets: {known}") from None


def preset_for_name(product: str) -> Device | None:
    """The preset whose product name matches a detected device's (e.g. 'NVIDIA H100 80GB HBM3')."""
    product = product.lower()
    for key, device in DEVICE_PRESETS.items():
        if device.kind != "cpu" and key in product.replace(" ", ""):
            return device
    return None


def simulated(model: HardwareModel, name: str, link: str | None = None) -> HardwareModel:
    """`model` plus the preset `name` at the next free index of its kind, linked both ways to the host."""
    device = preset(name)
    index = sum(1 for d in model if d.kind == device.kind)
    device = replace(device, index=index)
    if not len(model):
        return HardwareModel((device,), ())
    host = model.default.key
    via = LINK_PRESETS[link or HOST_LINKS.get(name, "pcie4")]
    links = (replace(via, src=host, dst=device.key), replace(via, src=device.key, dst=host))
    return model.with_devices((device,), links)


def model(*names: str, host: str = "server-cpu-64") -> HardwareModel:
    """A simulated machine: the presets `names`; `host` leads unless a CPU preset is named first."""
    names = list(names)
    if not names or preset(names[0]).kind != "cpu":
        names.insert(0, host)
    result = HardwareModel()
    for name in names:
        result = simulated(result, name)
    return result
