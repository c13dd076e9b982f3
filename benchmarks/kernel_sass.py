"""Machine instructions per element of the GPU benchmark's reduction kernels, without a GPU: each workload's
CUDA kernel is compiled by NVRTC for sm_90, disassembled (cuobjdump + nvdisasm), and every loop (a
backward branch) is listed with its instruction count and mix. The unrolled loops of a rows kernel are
its passes; their counts divided by the elements per trip, summed over the passes, is the kernel's cost
per element. An H200 issues about 128 instructions per clock per SM and copies about 2 float32 elements
per clock per SM, so a kernel above ~64 instructions per element cannot reach the copy's speed.

    pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm   # or a CUDA toolkit on PATH
    python benchmarks/kernel_sass.py [--arch sm_90] [--sass]
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _tool(name: str) -> str | None:
    """`name` on PATH, else in the nvidia-cuda-cuobjdump / -nvdisasm wheels' bin folders."""
    found = shutil.which(name)
    if found:
        return found
    try:
        import nvidia
    except ImportError:
        return None
    for root in nvidia.__path__:
        for sub in ("cu13", "cu12", "cuda_cuobjdump", "cuda_nvdisasm", ""):
            path = os.path.join(root, sub, "bin", name)
            if os.path.isfile(path):
                return path
    return None


def sass(cubin: bytes) -> str:
    cuobjdump, nvdisasm = _tool("cuobjdump"), _tool("nvdisasm")
    if not (cuobjdump and nvdisasm):
        sys.exit(
            "needs cuobjdump and nvdisasm: pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm"
        )
    for path in (cuobjdump, nvdisasm):
        if not os.access(path, os.X_OK):
            os.chmod(path, 0o755)  # wheels unpack without the executable bit
    env = dict(os.environ, PATH=os.path.dirname(nvdisasm) + os.pathsep + os.environ.get("PATH", ""))
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        done = subprocess.run(
            [cuobjdump, "-sass", f.name], capture_output=True, text=True, env=env, check=True
        )
    return done.stdout


def loops(text: str) -> list:
    """(first address, last address, instruction count, mix) of each loop, innermost first."""
    lines = [(int(a, 16), body) for a, body in re.findall(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", text)]
    found = []
    for address, body in lines:
        branch = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", body)
        if branch and int(branch.group(1), 16) <= address:
            start = int(branch.group(1), 16)
            inside = [b for a, b in lines if start <= a <= address]
            ops = [b.split()[1] if b.startswith("@") else b.split()[0] for b in inside]
            mix = collections.Counter(op.split(".")[0] for op in ops)
            found.append((start, address, len(inside), mix))
    return sorted(found, key=lambda loop: loop[1] - loop[0])


def workloads():
    import gpu_workloads
    import numpy as np

    import arraystack as ast

    x = np.zeros((16384, 4096), np.float32)  # never touched: the sizes pick the index width
    flat = np.zeros(10**8, np.float32)
    return [
        ("fused chain 1e8 float32", lambda a, b, c: gpu_workloads.chain(ast, a, b, c), [flat] * 3),
        ("softmax (16384, 4096) float32", lambda a: gpu_workloads.softmax(ast, a), [x]),
        ("layernorm (16384, 4096) float32", lambda a: gpu_workloads.layernorm(ast, a), [x]),
        ("sum of squares 1e8 float32", lambda a: gpu_workloads.sum_of_squares(ast, a), [flat]),
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--sass", action="store_true", help="print the disassembly too")
    args = parser.parse_args(argv)
    import numpy as np
    from arraystack.backends.cupy import cuda_codegen, nvrtc
    from arraystack.ir.control import fusion_p
    from arraystack.ir.passes.pipeline import run_pipeline

    import arraystack as ast

    print(f"NVRTC {'.'.join(map(str, nvrtc.version()))}, {args.arch}")
    for name, fn, arrays in workloads():
        graph = run_pipeline(ast.jit(fn).lower(*arrays).traced)
        for eqn in (e for e in graph.eqns if e.prim is fusion_p):
            ks = cuda_codegen.lower_region(eqn)
            outs = [np.empty(v.aval.shape, v.aval.dtype) for v in eqn.outputs]  # never touched
            inputs = [arrays[graph.inputs.index(v)] for v in eqn.inputs]
            scratch = [np.empty(shape, dtype) for shape, dtype in ks.scratch(inputs)]
            narrow = ks.launches(inputs, outs, scratch)[0].narrow  # the variant these sizes run
            source = cuda_codegen.narrow(ks.source) if narrow else ks.source
            result = nvrtc.compile(source, [], arch=args.arch)
            text = sass(result.cubin)
            width = "32" if narrow else "64"
            print(f"\n{name}: {ks.kind} kernel, {width}-bit indices, {result.resources}")
            for start, end, count, mix in loops(text):
                top = ", ".join(f"{op} {n}" for op, n in mix.most_common(6))
                print(f"  loop {start:#06x}-{end:#06x}: {count:4d} instructions ({top})")
            if args.sass:
                print(text)


if __name__ == "__main__":
    main()
