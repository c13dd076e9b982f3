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
from arraystack.backends.cupy import arrays, graphs
from arraystack.backends.executable import Executable, alias_safe
from arraystack.backends.hardware import Device, register_device_kind
from arraystack.backends.interface import Backend, CompileOptions
from arraystack.backends.memory import (
    RunLedger,
    active_ledger,
    buffer_owner,
    limits,
    out_of_memory,
)
from arraystack.ir.core import device_namespaces, register_array_namespace
from arraystack.ir.ir import Literal

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
        how = [self.unsupported(e) or _described(_lowered(e, graph)) for e in graph.eqns]
        interpreted = _interpret(graph, steps, xp, how)
        runner = alias_safe(graph, interpreted)
        # a plan of one step launches once either way: a graph would only add the copies in and out
        replays = graphs.Replays(xp, interpreted.lean) if len(graph.eqns) > 1 else None
        if profiler.recording:
            args = {"backend": "cupy", "eqns": len(graph.eqns)}
            profiler.record("compile (cupy)", "compile", start, profiler.clock(), args)

        def run(buffers):
            index = next((b.device.id for b in buffers if isinstance(b, xp.ndarray)), 0)
            with xp.cuda.Device(index):
                buffers = [xp.asarray(b) if isinstance(b, np.ndarray) else b for b in buffers]
                if (
                    self.cuda_graphs
                    and replays is not None
                    and not profiler.recording
                    and limits.of(f"cuda:{index}") is None
                ):
                    outs = replays(buffers)
                    if outs is not None:
                        return outs
                outs = runner(buffers)
                # a constant output (a literal of the graph) is made on the device too
                return [o if isinstance(o, xp.ndarray) else xp.asarray(o) for o in outs]

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


class _HostLoop:
    """What _lowered says of a switch, while or scan: a loop on the host over compiled bodies."""

    kind = "host loop over compiled bodies"


def _described(lowered) -> str:
    return lowered.kind if isinstance(lowered, _HostLoop) else f"cuda kernel ({lowered.kind})"


def _lowered(eqn, graph, xp=None, options=None):
    """What runs `eqn` compiled on the device, or None (its rule runs with xp = cupy). Without `xp`: a
    KernelSource (cuda_codegen.lower_region: a fusion region, argmax/argmin or a cumulative equation as
    CUDA kernels) or a _HostLoop (switch, while, scan: cuda_control.py); with `xp`, the step running it:
    kernels launched through xp.RawModule, a loop over bodies compiled by this backend. This is the one
    place the backend asks for kernels."""
    if importlib.util.find_spec(CODEGEN) is None:
        return None
    from arraystack.backends.cupy import cuda_control

    if eqn.prim in cuda_control.CONTROL:
        if xp is None:
            return _HostLoop()
        options = options or CompileOptions()
        return cuda_control.control_step(eqn, lambda g: backend.compile(g, options), xp)
    kernels = importlib.import_module(CODEGEN).lower_region(eqn, graph)
    if kernels is None or xp is None:
        return kernels
    return _kernel_step(kernels, eqn, xp)


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


def _kernel_step(kernels, eqn, xp):
    """A step launching a KernelSource's kernels: its outputs and scratch buffers are new arrays of the
    current device; the module is loaded on the first launch (load_module), and each kernel's function
    is looked up once."""
    outputs = [(tuple(v.aval.shape), v.aval.dtype) for v in eqn.outputs]
    loaded: dict = {}  # (device id, narrow variant) -> {kernel name: function}
    scratch_of: dict = {}  # the inputs' shapes -> the scratch buffers' (shape, dtype)
    codegen = importlib.import_module(CODEGEN)

    def functions_of(device, narrow):
        source = codegen.narrow(kernels.source) if narrow else kernels.source
        module = load_module(xp, source, kernels.kernels)
        functions = {n: module.get_function(n) for n in kernels.kernels}
        loaded[device, narrow] = functions
        return functions

    def step(*inputs):
        device = xp.cuda.runtime.getDevice()
        outs = [xp.empty(shape, dtype) for shape, dtype in outputs]
        shapes = tuple(a.shape for a in inputs)
        needed = scratch_of.get(shapes)
        if needed is None:
            if len(scratch_of) > 64:
                scratch_of.clear()
            needed = scratch_of[shapes] = kernels.scratch(inputs)
        scratch = [xp.empty(shape, dtype) for shape, dtype in needed] if needed else []
        for launch in kernels.launches(inputs, outs, scratch):
            functions = loaded.get((device, launch.narrow)) or functions_of(device, launch.narrow)
            functions[launch.kernel](
                launch.grid, launch.block, launch.args, shared_mem=launch.shared_mem
            )
        return outs

    return step


def _interpret(graph, steps, xp, how=None):
    """A runner of the steps in graph order, each value dropped after its last use, checking the memory
    limit of the device (arraystack.config.memory_limit for "cuda:N") before each step; running out of
    device memory inside a step is OutOfMemory naming the step. While profiling, each step is timed by
    CUDA events around it (the stand-in's events read the host clock), read once the run synchronized."""
    oom = xp.cuda.memory.OutOfMemoryError
    last = {}
    for k, eqn in enumerate(graph.eqns):
        for x in eqn.inputs:
            if not isinstance(x, Literal):
                last[x] = k
    for x in graph.outputs:
        last[x] = len(graph.eqns)
    output_bytes = [sum(_nbytes(v.aval) for v in eqn.outputs) for eqn in graph.eqns]
    # the values each step uses for the last time (dropped after it)
    drops = [
        {x for x in eqn.inputs if not isinstance(x, Literal) and last.get(x) == k}
        for k, eqn in enumerate(graph.eqns)
    ]

    def refused(e, device, k, in_use):
        """The OutOfMemory of step k, whose allocation the device's allocator refused (error e)."""
        eqn = graph.eqns[k]
        what, source, requested = f"`{eqn.prim.name}`", eqn.source, output_bytes[k]
        args = (device, k, eqn.prim.name, what, source, requested, in_use, None, "allocator")
        return out_of_memory(*args)

    def lean(buffers, device=None):
        """Without a memory limit or the profiler: no accounting until a step runs out of memory."""
        device = device or f"cuda:{xp.cuda.runtime.getDevice()}"
        env = dict(zip(graph.inputs, buffers))
        for k, (eqn, step) in enumerate(zip(graph.eqns, steps)):
            ins = [x.value if isinstance(x, Literal) else env[x] for x in eqn.inputs]
            try:
                outs = step(*ins)
            except oom as e:
                live = {id(o): o for o in map(buffer_owner, env.values())}.values()
                raise refused(e, device, k, sum(getattr(o, "nbytes", 0) for o in live)) from e
            for v, value in zip(eqn.outputs, outs):
                env[v] = value
            for x in drops[k]:
                del env[x]
        return [x.value if isinstance(x, Literal) else env[x] for x in graph.outputs]

    def run(buffers):
        device = f"cuda:{xp.cuda.runtime.getDevice()}"
        limit = limits.of(device)
        timed = [] if profiler.recording else None
        if limit is None and timed is None and active_ledger() is None:
            return lean(buffers, device)
        env = dict(zip(graph.inputs, buffers))
        with RunLedger(limit if limit is not None else 1 << 62, device) as ledger:
            for b in buffers:
                ledger.hold(buffer_owner(b))
            for k, (eqn, step) in enumerate(zip(graph.eqns, steps)):
                requested = output_bytes[k]
                ledger.reserve(requested, k, eqn.prim.name, eqn.source)
                ins = [x.value if isinstance(x, Literal) else env[x] for x in eqn.inputs]
                try:
                    if timed is None:
                        outs = step(*ins)
                    else:
                        from arraystack.backends.cupy.runtime import EventClock

                        with EventClock(xp, xp.cuda.Device().id) as clock:
                            outs = step(*ins)
                        timed.append((k, clock))
                except oom as e:
                    raise refused(e, device, k, ledger.in_use()) from e
                for v, value in zip(eqn.outputs, outs):
                    env[v] = value
                    ledger.hold(value)
                for x in drops[k]:
                    ledger.release(env.pop(x))
            if timed:
                _record_steps(graph, how, timed, device)
            return [x.value if isinstance(x, Literal) else env[x] for x in graph.outputs]

    run.lean = lean
    return run


def _record_steps(graph, how, timed, device):
    """The profiler's events of one run's steps: each lasts what its CUDA events measured, placed at the
    host time its launch began."""
    for k, clock in timed:
        seconds = clock.seconds()  # waits for the step's work
        name, category, args = profiler.step_info(graph.eqns[k], how[k] if how else "cupy rule")
        args = dict(args, device=device)
        profiler.record(name, category, clock.host_start, clock.host_start + seconds, args)


def _nbytes(aval) -> int:
    return int(np.prod(aval.shape, dtype=np.int64)) * aval.dtype.itemsize


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
