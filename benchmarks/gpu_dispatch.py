"""Where a cached jitted call on a CUDA device spends its host time: per-call microseconds of arraystack.jit
(step by step, and replaying CUDA graphs) and of cupy for x*2+1 on (8,) float32 and for the digits MLP
step (gpu_workloads.py), each arraystack case followed by the functions that take the most of it under
cProfile. Run on a machine with a GPU (or with --dry-run on
the stand-in for cupy, where the figures mean nothing):

    python benchmarks/gpu_dispatch.py [--calls 2000] [--top 25] [--dry-run]

--host-only measures, on the stand-in, arraystack's own host time per cached call: the stand-in's kernel
launches do nothing and its allocations hand out one array per shape, so what is left is the Python of
the jitted call, the plan and the launches (plus the stand-in's few device queries), beside the same call
on the CPU backend (numba), whose cached dispatch is the floor of a Python-level call:

    python benchmarks/gpu_dispatch.py --host-only [--calls 20000]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def per_call(run, calls: int, synchronize) -> float:
    """Microseconds per call over `calls` calls, the device synchronized before and after."""
    synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        run()
    synchronize()
    return (time.perf_counter() - t0) / calls * 1e6


def profile(run, calls: int, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        run()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--host-only", action="store_true")
    args = parser.parse_args(argv)
    if args.host_only:
        return host_only(args.calls)
    if args.dry_run:
        os.environ["ARRAYSTACK_CUDA_STANDIN"] = "1"
    import gpu_workloads as gw
    import numpy as np
    from arraystack.backends.cupy import arrays

    import arraystack as ast

    xp = arrays.cupy_module()
    if xp is None:
        print(f"no CUDA device: {arrays.missing()}")
        return 1

    def synchronize():
        xp.cuda.Device().synchronize()

    host = np.arange(8, dtype=np.float32)
    f = ast.jit(lambda x: x * 2 + 1)
    x = ast.asarray(host, device="cuda")
    c = xp.asarray(host)
    f(x)
    f.wait_compiled()
    peers = gw.Peers(xp, ast, args.dry_run, skip=("jax.jit", "torch.compile", "cupy.fuse"))
    mlp = gw.mlp_step(peers, 300 if args.dry_run else None)
    step = {s.name: s for s in mlp.systems}
    for system in step.values():
        system.run()
        if system.warm is not None:
            system.warm()
    cases = [  # x*2+1 is one kernel, which CUDA graphs leave as it is
        ("arraystack.jit x*2+1", lambda: f(x)),
        ("arraystack.jit x*2+1 of a cupy array", lambda: f(c)),
        ("cupy x*2+1", lambda: c * 2 + 1),
        ("arraystack.jit MLP step", step["arraystack.jit"].run),
        ("arraystack.jit + graphs MLP step", step["arraystack.jit + graphs"].run),
        ("cupy MLP step", step["cupy"].run),
    ]
    calls = 50 if args.dry_run else args.calls
    for name, run in cases:
        for _ in range(20):
            run()
        print(f"{name}: {per_call(run, calls, synchronize):.1f} us per call")
    for name, run in [c for c in cases if not c[0].startswith("cupy")]:
        print(f"\n== {name} under cProfile ({calls} calls)")
        print(profile(run, calls, args.top))
        synchronize()
    return 0


def host_only(calls: int) -> int:
    os.environ["ARRAYSTACK_CUDA_STANDIN"] = "1"
    import numpy as np
    from arraystack.backends.cupy import arrays, standin_cuda

    import arraystack as ast

    xp = arrays.cupy_module()
    allocate, made = xp.empty, {}

    def empty(shape, dtype=float, order="C"):  # one array per shape and dtype, made once
        key = (tuple(shape) if isinstance(shape, (tuple, list)) else (shape,), np.dtype(dtype))
        if key not in made:
            made[key] = allocate(shape, dtype)
        return made[key]

    xp.empty = empty
    standin_cuda.RawKernel.__call__ = lambda self, *a, **k: None
    host = np.arange(8, dtype=np.float32)
    cases = [
        ("x*2+1 on cuda:0", ast.asarray(host, device="cuda")),
        ("x*2+1 of a cupy array", xp.asarray(host)),
        ("x*2+1 on the CPU", host),
    ]
    for name, x in cases:
        f = ast.jit(lambda x: x * 2 + 1)
        f(x)
        f.wait_compiled()
        timings = [per_call(lambda f=f, x=x: f(x), calls, lambda: None) for _ in range(5)]
        print(f"{name}: {min(timings):.2f} us per call (best of 5 x {calls} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
