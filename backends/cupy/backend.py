"""The cupy backend as the registry sees it (backends/interface.py): CUDA devices through cupy, or through its
stand-in (standin.py) where there is no GPU.

Each equation runs its GPU rule (arrays.gpu_rule: the reference rule with xp = cupy, or the entry that says
what cupy lacks) on the device, except fusion regions that the CUDA code generator lowers to a kernel of
their own (`_lowered`, the one place that asks it). The devices of kind "cuda" are registered with the
hardware model here (detect_cuda). Nothing here imports cupy at discovery: `unavailable_reason()` asks the
CUDA driver through ctypes.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from dataclasses import replace

import numpy as np
from arraystack.backends import profiler
from arraystack.backends.control import control_step
from arraystack.backends.cupy import arrays, graph_copies, graphs, interpreter
from arraystack.backends.executable import (
    Executable,
    alias_safe,
    consumers,
    last_uses,
    unshare_donated,
)
from arraystack.backends.hardware import Device, register_device_kind
from arraystack.backends.interface import Backend, CompileOptions
from arraystack.backends.memory import limits
from arraystack.backends.updates import FRESH_PRIMS, WRITES, overwritable, write_step
from arraystack.backends.updates import describe as describe_update
from arraystack.ir.control import scan_p, switch_p, while_p
from arraystack.ir.core import device_namespaces, register_array_namespace

CODEGEN = "arraystack.backends.cupy.cuda_codegen"


class CupyBackend(Backend):
    """NVIDIA GPUs through cupy: each equation's rule with xp = cupy on the device, fused kernels where the
    CUDA code generator lowers a region."""

    name = "cupy"
    device_kinds = ("cuda",)
    priority = -1  # below the host backends: never the default for host arrays
    arrays = arrays.CupyArrays()

    def unavailable_reason(self) -> str | None:
        return arrays.missing()

    def describe(self) -> str:
        xp = arrays.cupy_module()
        count = xp.cuda.runtime.getDeviceCount()
        return (
            f"cupy {xp.__version__}: {count} CUDA device{'s' if count != 1 else ''}, each primitive's rule "
            "with xp = cupy, fused kernels where the CUDA code generator lowers a region"
        )

    def unsupported(self, eqn) -> str | None:
        """None for what runs compiled on the device (a CUDA kernel, or a loop over compiled bodies);
        else "cupy rule (why)": the equation's rule runs with xp = cupy."""
        if _lowered(eqn, None) is not None:
            return None
        if importlib.util.find_spec(CODEGEN) is None:
            return "cupy rule (the CUDA code generator is not installed)"
        return f"cupy rule ({importlib.import_module(CODEGEN).why_not(eqn)})"

    cuda_graphs = False  # arraystack.config.cuda_graphs (graphs.py)

    def configure(self, **settings) -> None:
        """cuda_graphs: replay compiled plans as CUDA graphs (graphs.py)."""
        if "cuda_graphs" in settings:
            self.cuda_graphs = bool(settings["cuda_graphs"])

    def runs_as(self, eqn, graph) -> str | None:
        """How eqn runs: "cuda kernel (kind)", a host loop over compiled bodies, or None (its rule)."""
        lowered = _lowered(eqn, graph)
        return None if lowered is None else _described(lowered)

    def compile(self, graph, options: CompileOptions | None = None):
        """The whole graph on one CUDA device: the device of its first cuda argument (cuda:0 when none
        is); arguments in host memory are copied there first. Outputs stay on the device."""
        xp = _namespace(self)
        start = profiler.clock()
        steps = [self.step(eqn, graph, options) for eqn in graph.eqns]
        lowered = [_lowered(e, graph) for e in graph.eqns]
        how = [
            self.unsupported(e) if kernel is None else _described(kernel)
            for e, kernel in zip(graph.eqns, lowered)
        ]
        donate = tuple(sorted(options.donate)) if options is not None else ()
        _write_in_place(graph, lowered, steps, how, donate, xp)
        interpreted = interpreter.interpret(graph, steps, xp, how)
        runner = alias_safe(graph, interpreted)
        # a plan of one step launches once either way: a graph would only add the copies in and out
        replays = None
        if len(graph.eqns) > 1:
            replays = graphs.Replays(xp, interpreted.lean, _copier(xp))
        if profiler.recording:
            args = {"backend": "cupy", "eqns": len(graph.eqns)}
            profiler.record("compile (cupy)", "compile", start, profiler.clock(), args)

        device_array, get_device, asarray = xp.ndarray, xp.cuda.runtime.getDevice, xp.asarray

        def run(buffers):
            index = 0
            for b in buffers:
                if isinstance(b, device_array):
                    index = b.device.id
                    break
            if get_device() != index:  # the arguments' device current for the run
                with xp.cuda.Device(index):
                    return run(buffers)
            for b in buffers:
                if isinstance(b, np.ndarray):  # host arguments are copied to the device first
                    buffers = [asarray(b) if isinstance(b, np.ndarray) else b for b in buffers]
                    break
            if donate:
                buffers = unshare_donated(buffers, donate)
            graphed = self.cuda_graphs and replays is not None and not profiler.recording
            if graphed and limits.of(f"cuda:{index}") is None:
                outs = replays(buffers)
                if outs is not None:
                    return outs
            outs = runner(buffers)
            for o in outs:
                if not isinstance(o, device_array):  # a constant output (a literal of the graph)
                    return [o if isinstance(o, device_array) else asarray(o) for o in outs]
            return outs

        return Executable(graph, [(e.prim.name, h) for e, h in zip(graph.eqns, how)], run)

    def step(self, eqn, graph, options: CompileOptions | None = None):
        """Equation `eqn` as a function of its values on the current device, returning its outputs."""
        xp = _namespace(self)
        lowered = _lowered(eqn, graph, xp, options)
        if lowered is not None:
            return lowered
        rule = arrays.gpu_rule(eqn.prim)
        run = functools.partial(rule, xp, **eqn.params)
        if eqn.prim.multiple_results:
            return lambda *inputs: list(run(*inputs))
        return lambda *inputs: [run(*inputs)]

    def runtime(self, device, cache_dir: str | None = None):
        from arraystack.backends.cupy.runtime import CupyRuntime

        if device.kind != "cuda":
            return super().runtime(device, cache_dir)
        return CupyRuntime(device, self, _namespace(self), cache_dir)


def _write_in_place(graph, lowered, steps, how, donate, xp) -> None:
    """Let each update_slice and scatter whose operand dies there, in a buffer the plan owns, write into
    that buffer (updates.py): the plan owns the outputs of its kernels (`lowered`: _lowered of each
    equation) and of the rules that make fresh arrays, and its donated arguments. steps and how change
    in place."""
    owning = {
        k
        for k, (e, kernel) in enumerate(zip(graph.eqns, lowered))
        if e.prim.name in FRESH_PRIMS or (kernel is not None and not isinstance(kernel, _HostLoop))
    }
    owned = {v for k in owning for v in graph.eqns[k].outputs}
    owned.update(graph.inputs[i] for i in donate)
    last, readers = last_uses(graph), consumers(graph)
    for k, eqn in enumerate(graph.eqns):
        writes = eqn.prim.name in WRITES and lowered[k] is None
        if writes and overwritable(graph, k, owned, owning, last, readers):
            rule = functools.partial(arrays.gpu_rule(eqn.prim), xp, **eqn.params)
            write = write_step(eqn, True, xp, run=rule)
            steps[k] = lambda *values, write=write: [write(*values)]
            how[k] = describe_update(True)


def _namespace(backend):
    """cupy (or the stand-in), with its arrays registered for eager evaluation (what fusion regions and
    loop bodies bind); BackendUnavailable's reason when there is none."""
    xp = arrays.cupy_module()
    if xp is None:
        from arraystack.backends.registry import BackendUnavailable

        raise BackendUnavailable(f"backend 'cupy' is not available: {arrays.missing()}")
    if xp.ndarray not in device_namespaces:
        register_array_namespace(xp.ndarray, xp, backend.arrays.evaluate)
    return xp


_CONTROL = (switch_p, while_p, scan_p)  # host loops over compiled bodies


class _HostLoop:
    """What _lowered says of a switch, while or scan: a loop on the host over compiled bodies."""

    kind = "host loop over compiled bodies"


def _described(lowered) -> str:
    return lowered.kind if isinstance(lowered, _HostLoop) else f"cuda kernel ({lowered.kind})"


def _lowered(eqn, graph, xp=None, options=None):
    """What runs `eqn` compiled on the device, or None (its rule runs with xp = cupy). Without `xp`: a
    KernelSource (cuda_codegen.lower_region: a fusion region, argmax/argmin or a cumulative equation as
    CUDA kernels) or a _HostLoop (switch, while, scan: backends/control.py, on device arrays); with `xp`,
    the step running it: kernels launched through xp.RawModule, a loop over bodies compiled by this
    backend (a carry the body writes is donated to it: written in place, updates.py). This is the one
    place the backend asks for kernels."""
    if importlib.util.find_spec(CODEGEN) is None:
        return None
    if eqn.prim in _CONTROL:
        if xp is None:
            return _HostLoop()
        options = options or CompileOptions()

        def compile_body(g, donate=frozenset()):
            return backend.compile(g, replace(options, donate=donate))

        return control_step(eqn, compile_body, xp)
    kernels = importlib.import_module(CODEGEN).lower_region(eqn, graph)
    if kernels is None or xp is None:
        return kernels
    return interpreter.kernel_step(kernels, eqn, xp, CODEGEN, load_module)


_copiers: dict = {}  # cupy (or the stand-in) -> its graph_copies.Copier


def _copier(xp):
    copier = _copiers.get(xp)
    if copier is None:
        copier = _copiers[xp] = graph_copies.Copier(xp, load_module)
    return copier


def load_module(xp, source: str, names, options=()) -> object:
    """The kernels `names` of CUDA C++ `source` for the current device: `.get_function(name)` gives a
    kernel called as `kernel(grid, block, args, shared_mem=...)`.

    On a real device the source is compiled by this package's NVRTC (nvrtc.py) with its options into a
    cubin for the device's architecture, cached in memory and on disk (kernel_cache.py), and loaded as a
    module: cupy's own compile path (RawModule(code=...)) always adds -ftz=true, which flushes float32
    denormals to zero where NumPy keeps them. The stand-in for cupy builds the source with the CPU harness.
    `options`: NVRTC options added to the backend's own (an include path).
    """
    from arraystack.backends.cupy import kernel_cache, nvrtc

    standin = arrays._standin()
    if standin is not None and xp is standin.module:
        base = tuple(o for o in nvrtc.BASE_OPTIONS if not o.startswith("--ptxas"))
        return xp.RawModule(code=source, options=(*base, *options))
    if not nvrtc.available():
        raise RuntimeError(
            "the cupy backend compiles its kernels with NVRTC, which is not installed: pip install "
            "nvidia-cuda-nvrtc-cu12 (CUDA 12) or nvidia-cuda-nvrtc (CUDA 13)"
        )
    arch = f"sm_{xp.cuda.Device().compute_capability}"
    result = kernel_cache.compile_cached(source, tuple(names), arch=arch, options=tuple(options))
    module = xp.cuda.function.Module()
    module.load(bytes(result.cubin))
    return module


# -- the hardware model's CUDA devices ------------------------------------------------------------------------
def detect_cuda(cache_dir=None, recalibrate=False) -> list:
    """The CUDA devices of cupy (or the stand-in) with their links to the host: bandwidth, launch latency
    and the links measured on first use and cached under cache_dir (calibration.py); peak flops from the
    matching preset or estimated from SMs and clock. The stand-in's figures are estimated from its device
    properties (memory bandwidth from clock and bus width). None without cupy, a driver or a device."""
    from arraystack.backends.cupy.calibration import calibrated

    xp = arrays.cupy_module()
    if xp is None:
        return []
    from arraystack.backends.presets import LINK_PRESETS, preset_for_name

    records = []
    for index in range(xp.cuda.runtime.getDeviceCount()):
        props = xp.cuda.runtime.getDeviceProperties(index)
        name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
        like = preset_for_name(name)
        f32 = props["clockRate"] * 1e3 * props["multiProcessorCount"] * 128 * 2
        peak = like.peak_flops if like else (("float32", f32), ("float64", f32 / 32))
        device = Device(
            kind="cuda",
            index=index,
            name=name,
            cores=props["multiProcessorCount"],
            memory=props["totalGlobalMem"],
            peak_flops=peak,
            bandwidth=2.0 * props["memoryClockRate"] * 1e3 * props["memoryBusWidth"] / 8,
            launch_latency=like.launch_latency if like else 5e-6,
            source="estimated",
        )
        pcie = LINK_PRESETS["pcie4"]
        links = [replace(pcie, src="cpu", dst=device.key), replace(pcie, src=device.key, dst="cpu")]
        if arrays._standin() is not None:
            records += [device, *links]
        else:
            records += calibrated(xp, device, links, cache_dir, recalibrate)
    return records


register_device_kind("cuda", detect_cuda, backend="cupy")

backend = CupyBackend()
