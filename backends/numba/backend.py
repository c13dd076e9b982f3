"""The numba backend as the registry sees it (backends/interface.py): fused CPU kernels generated as Python
source and compiled by numba, BLAS for products, loops over compiled bodies, reference rules for the rest.

Its own business, behind the interface: the NumPy twin and tiered compilation (twin.py, tiering.py), the
compile worker process (compile_worker.py, compile_process.py), the BLAS threads (blas_threads.py), the
fusion policy (fusion_policy.py) and the kernel caches (kernels.py, disk_cache.py). Nothing here imports
numba itself: it loads when the first kernel compiles.
"""

from __future__ import annotations

import functools
import importlib.util
import threading

import numpy as np
from arraystack.backends import profiler
from arraystack.backends.interface import Backend, CompileOptions

# Parallel numba kernels take every core, and numba's workqueue threading layer must not be entered from two
# threads at once: the execution engine runs them (and loops, whose bodies may hold them) one at a time.
_parallel_lock = threading.Lock()


class NumbaBackend(Backend):
    name = "numba"
    device_kinds = ("cpu",)
    priority = 10

    def __init__(self):
        from arraystack.backends.numba.tiering import NumbaTiers

        self.tiers = NumbaTiers(self)
        self.tier_compile = (
            "process"  # where tiering's background compile runs: "process" or "thread"
        )

    @property
    def fusion(self):
        from arraystack.backends.numba.fusion_policy import NUMBA_FUSION

        return NUMBA_FUSION

    def unavailable_reason(self) -> str | None:
        if importlib.util.find_spec("numba") is None:
            return "numba is not installed (pip install numba)"
        return None

    def describe(self) -> str:
        from importlib.metadata import version

        return f"numba {version('numba')}: compiled, fused CPU kernels"

    def unsupported(self, eqn) -> str | None:
        from arraystack.backends.numba import _region_problem
        from arraystack.ir.control import fusion_p

        if eqn.prim is fusion_p:
            return _region_problem(eqn.params["graph"])
        if eqn.prim.name in ("while", "scan", "switch"):
            return None  # a host loop or branch over compiled bodies
        if eqn.prim.name == "dot_general":
            return None  # NumPy's BLAS
        if eqn.prim.name in ("attention", "attention_grad"):
            return None  # hand-written kernels (attention.py)
        from arraystack.backends.numba.scatter import runs_scatter_add

        if runs_scatter_add(eqn):
            return None  # a scatter-add kernel (scatter.py)
        return "a NumPy call, its reference rule (numba compiles fusion regions, loops and products)"

    def compile(self, graph, options: CompileOptions):
        """The plan of `graph`: tier 0's NumPy twin, or the kernels (numba compiles each on its first call,
        or loads it from its disk cache). While profiling, a compile event covers the plan's making."""
        start = profiler.clock() if profiler.recording else None
        executable = self._compile(graph, options)
        if start is not None:
            profiler.listen_numba()  # numba is loaded now: its compiles in the first call are recorded
            args = {"backend": "numba", "tier": options.tier, "eqns": len(graph.eqns)}
            args["new kernels"] = getattr(executable, "new_kernels", 0)
            name = "compile tier 0 (numba twin)" if options.tier == 0 else "compile (numba)"
            profiler.record(name, "compile", start, profiler.clock(), args)
        return executable

    def _compile(self, graph, options: CompileOptions):
        # NumPy's error state asking to raise, call, print or log: the reference rules (eager's errors)
        from arraystack.backends.floating_point_errors import honour_error_state

        if options.tier == 0:
            from arraystack.backends.numba.twin import compile_numba_twin

            return honour_error_state(compile_numba_twin(graph))
        from arraystack.backends.numba import compile_numba

        return honour_error_state(
            compile_numba(graph, options.cache_dir, frozenset(options.donate))
        )

    def step(self, eqn, graph, options: CompileOptions):
        """What compile_numba runs for `eqn`, a region of `graph`, without donation: a fused kernel, a loop
        over compiled bodies, BLAS or a reference rule; as a function returning the list of its outputs."""
        step = _host_step(eqn, graph, options.cache_dir)
        return step if eqn.prim.multiple_results else _listed(step)

    def runtime(self, device, cache_dir: str | None = None):
        """The host runtime, its pool the host buffer pool the kernels allocate from (host_pool.py)."""
        from arraystack.backends.device_runtime import HostRuntime
        from arraystack.backends.numba.host_pool import host_pool

        if device.kind != "cpu":
            raise NotImplementedError(
                f"the numba backend runs on CPUs, not on {device.kind} devices"
            )
        return HostRuntime(device, self, cache_dir, pool=host_pool)

    def configure(self, **settings) -> None:
        """kernel_cache_size: kernels kept loaded in memory; tier_compile: "process" or "thread" (checked
        when a background compile starts)."""
        if "tier_compile" in settings:
            self.tier_compile = settings["tier_compile"]
        if "kernel_cache_size" in settings:
            from arraystack.backends.numba import kernels

            kernels.set_size(settings["kernel_cache_size"])

    def compiled_kernels(self) -> int:
        from arraystack.backends.numba.kernels import compile_counts

        return compile_counts()["numba_compiles"]

    def cache_entry(self, name: str) -> str | None:
        if name.startswith("kernels-v"):  # kernels.py: kernels-v<format>-numba<version>
            version = name.partition("-numba")[2]
            return f"compiled kernels (numba {version})" if version else "compiled kernels"
        return None

    def cache_fallback(self, cache_dir: str) -> dict | None:
        import os

        from arraystack.backends.numba import kernels

        why = None
        if self.unavailable_reason() is None:  # no numba, no kernels and no fallback
            try:
                why = kernels.unwritable_as_is(os.path.join(cache_dir, kernels.kernel_dir_name()))
            except Exception:  # noqa: BLE001 - numba fails to import: no kernels are compiled either
                why = None
        root = kernels.fallback_root()
        if why is None and not os.path.lexists(root):
            return None
        return {"root": root, "why": why, "private": kernels.is_private(root)}


def _host_step(eqn, graph, cache_dir=None):
    from arraystack.backends import numba as nb
    from arraystack.backends.control import control_step
    from arraystack.backends.reference import reference_step
    from arraystack.ir.control import fusion_p

    blas = nb._calls_blas(graph)
    threshold = nb.PARALLEL_THRESHOLD_WITH_BLAS if blas else nb.PARALLEL_THRESHOLD
    if eqn.prim is fusion_p:
        sub = eqn.params["graph"]
        if nb._region_problem(sub) is not None:
            return nb._reference_region_step(eqn)
        step, _, _ = nb._kernel_step(eqn, cache_dir, (), False, threshold)
        sizes = [int(np.prod(v.aval.shape, dtype=np.int64)) for v in sub.inputs + sub.outputs]
        return _exclusive(step) if max(sizes + [1]) >= threshold else step
    compile_body = functools.partial(nb.compile_numba, cache_dir=cache_dir, blas=blas)
    loop = nb._loop_step(eqn, cache_dir, compile_body)  # a compiled loop, else a host loop
    step = loop[0] if loop is not None else control_step(eqn, compile_body)
    if step is not None:
        return _exclusive(step)
    attention = nb.attention_step(eqn, cache_dir)
    if attention is not None:
        return _exclusive(attention[0])
    scatter = nb.scatter_add_step(eqn, cache_dir)
    if scatter is not None:
        return scatter[0]
    return reference_step(eqn)


def _listed(step):
    @functools.wraps(step)
    def run(*inputs):
        return [step(*inputs)]

    return run


def _exclusive(step):
    @functools.wraps(step)
    def run(*inputs):
        with _parallel_lock:
            return step(*inputs)

    return run


backend = NumbaBackend()
