"""CUDA kernels run on the CPU: the same CUDA C++ source, built by the system C++ compiler with
harness/cuda_on_cpu.h, which emulates CUDA's execution model (blocks in turn, a block's threads as fibers
meeting at __syncthreads and warp exchanges).

`load(source, kernel_name)` returns a `CpuKernel`, called as cupy's RawKernel is:

    kernel(grid, block, args, shared_mem=0)

- `grid`, `block`: an int or a tuple of up to three ints;
- `args`: one entry per kernel parameter, in order. A pointer parameter takes an array: a NumPy array, or
  any object with `__cuda_array_interface__` or `__array_interface__` (the stand-in's device arrays); its
  data address is passed. A scalar parameter takes a NumPy scalar (or a Python int/float/bool) and is
  passed by value as the parameter's C type; a NumPy scalar of another type raises TypeError, as the GPU
  would read garbage;
- `shared_mem`: the bytes of dynamic shared memory each block gets (NP_DYNAMIC_SHARED in the source),
  at most 48 KiB as on a GPU without the opt-in attribute.

A launch that misuses the execution model (a divergent __syncthreads, a shuffle some lanes skip, more
than 1024 threads per block) raises RuntimeError instead of returning numbers. Built libraries are cached
by source hash (kernel_cache.py) in memory and on disk.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np
from arraystack.backends.cupy.kernel_cache import KernelCache, default_cache_dir, key_of

HARNESS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness")
HEADER = os.path.join(HARNESS_DIR, "cuda_on_cpu.h")
# no FMA contraction and no fast math: each operation rounds once, as on the GPU with -fmad=false
FLAGS = ("-O1", "-std=c++17", "-shared", "-fPIC", "-fwrapv", "-ffp-contract=off", "-fno-fast-math")

# C parameter types -> NumPy dtypes (the typedefs of the generated kernels' prelude included)
_SCALARS = {
    "bool": np.bool_,
    "signed char": np.int8,
    "char": np.int8,
    "unsigned char": np.uint8,
    "short": np.int16,
    "unsigned short": np.uint16,
    "int": np.int32,
    "unsigned": np.uint32,
    "unsigned int": np.uint32,
    "long long": np.int64,
    "long long int": np.int64,
    "unsigned long long": np.uint64,
    "float": np.float32,
    "double": np.float64,
    "size_t": np.uint64,
    "i8": np.int8,
    "u8": np.uint8,
    "i16": np.int16,
    "u16": np.uint16,
    "i32": np.int32,
    "u32": np.uint32,
    "i64": np.int64,
    "u64": np.uint64,
    "f32": np.float32,
    "f64": np.float64,
}

_cache: dict[str | None, KernelCache] = {}


def compiler() -> str | None:
    """The C++ compiler used (CXX, else g++, else clang++), or None."""
    for name in (os.environ.get("CXX"), "g++", "clang++", "c++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _signature(source: str, name: str):
    m = re.search(
        r'extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?' + name + r"\s*\(",
        source,
    )
    if m is None:
        raise ValueError(f'no extern "C" __global__ kernel named {name!r} in the source')
    depth, k = 1, m.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(source[k], 0)
        k += 1
    text = source[m.end() : k - 1].strip()
    # the index type `ix` of generated kernels: a typedef of int (their narrow variant) or long long
    index = re.search(r"typedef\s+(int|long long)\s+ix\s*;", source)
    scalars = dict(_SCALARS, ix=np.int32 if index and index.group(1) == "int" else np.int64)
    params = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        words = part.replace("*", " * ").split()
        ctype = " ".join(w for w in words[:-1] if w not in ("const", "__restrict__", "volatile"))
        if "*" in ctype:
            params.append(("pointer", " ".join(words[:-1]).replace("__restrict__", "")))
        elif ctype in scalars:
            params.append((np.dtype(scalars[ctype]), ctype))
        else:
            raise ValueError(
                f"kernel {name}: parameter type {ctype!r} is not a pointer or a known scalar"
            )
    return params


def _launcher(name, params) -> str:
    unpacked = []
    for k, (kind, ctype) in enumerate(params):
        if kind == "pointer":
            unpacked.append(f"({ctype})(*(void**)args[{k}])")
        else:
            unpacked.append(f"*({ctype}*)args[{k}]")
    call = f"{name}({', '.join(unpacked)});"
    return f"""
extern "C" int cuda_on_cpu_launch_{name}(const unsigned* dims, void** args, char* error, int size) {{
    dim3 grid, block;
    grid.x = dims[0]; grid.y = dims[1]; grid.z = dims[2];
    block.x = dims[3]; block.y = dims[4]; block.z = dims[5];
    std::string e = cuda_on_cpu::launch(grid, block, [&]() {{ {call} }}, dims[6]);
    if (e.empty()) return 0;
    snprintf(error, size, "%s", e.c_str());
    return 1;
}}
"""


_pch_dirs: dict = {}  # (compiler, cache directory) -> the folder of the precompiled header, or None


def _precompiled(cxx: str, root: str) -> str | None:
    """The folder holding `cuda_on_cpu.h.gch`, g++'s precompiled form of the harness header, built once
    per compiler, options and header text under the cache directory `root`; None for another compiler
    or where it cannot be built. The standard headers the harness includes take about half of a small
    kernel's build; g++ reads the .gch in place of the header when the folder is searched first and the
    options match, and reads the header itself otherwise, so a missing or stale one costs only time."""
    if (cxx, root) in _pch_dirs:
        return _pch_dirs[cxx, root]
    found = None
    try:
        version = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=False)
        if "Free Software Foundation" in version.stdout and "clang" not in version.stdout:
            with open(HEADER) as f:
                key = key_of(f.read(), " ".join(FLAGS), version.stdout)
            folder = os.path.join(root, "cuda-cpu-pch", key[:32])
            target = os.path.join(folder, "cuda_on_cpu.h.gch")
            if not os.path.exists(target):
                os.makedirs(folder, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=folder, suffix=".gch")
                os.close(fd)
                header_flags = [f for f in FLAGS if f != "-shared"]
                built = subprocess.run(
                    [cxx, *header_flags, "-w", "-x", "c++-header", HEADER, "-o", tmp],
                    capture_output=True,
                    check=False,
                )
                if built.returncode == 0:
                    os.replace(tmp, target)
                elif os.path.exists(tmp):
                    os.unlink(tmp)
            found = folder if os.path.exists(target) else None
    except OSError:
        found = None
    _pch_dirs[cxx, root] = found
    return found


def _build(text: str, cache_root: str | None = None) -> bytes:
    cxx = compiler()
    if cxx is None:
        raise RuntimeError("the CPU harness needs a C++ compiler (g++ or clang++; or set CXX)")
    root = cache_root or default_cache_dir()
    pch = _precompiled(cxx, root)
    with tempfile.TemporaryDirectory() as tmp:
        src, lib = os.path.join(tmp, "kernel.cpp"), os.path.join(tmp, "kernel.so")
        with open(src, "w") as f:
            f.write(text)
        command = [cxx, *FLAGS, "-I", HARNESS_DIR, src, "-o", lib]
        done = subprocess.run(
            command[:1] + ["-I", pch] + command[1:] if pch else command,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 and pch:  # a damaged .gch fails the build: without it, and gone
            _pch_dirs[cxx, root] = None
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(pch, "cuda_on_cpu.h.gch"))
            done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"the C++ compiler rejected the kernel:\n{done.stderr[-6000:]}")
        with open(lib, "rb") as f:
            return f.read()


def _address(array) -> int:
    if isinstance(array, np.ndarray):
        return array.ctypes.data
    for attr in ("__cuda_array_interface__", "__array_interface__"):
        iface = getattr(array, attr, None)
        if iface is not None:
            return int(iface["data"][0])
    if isinstance(array, (int, np.integer)):
        return int(array)
    raise TypeError(f"a pointer argument takes an array, not {type(array).__name__}")


def _dims(value) -> tuple:
    dims = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"a grid or block has 1 to 3 dimensions, not {dims!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


class CpuKernel:
    """A kernel built for the CPU harness; call it as cupy's RawKernel: kernel(grid, block, args)."""

    def __init__(self, library, name, params, path):
        self.name = name
        self.params = params
        self.path = path
        self._library = library
        self._launch = getattr(library, f"cuda_on_cpu_launch_{name}")
        self._launch.restype = ctypes.c_int

    def __call__(self, grid, block, args, shared_mem=0):
        args = tuple(args)
        if len(args) != len(self.params):
            raise TypeError(
                f"kernel {self.name} takes {len(self.params)} arguments, got {len(args)}"
            )
        holders = []
        for k, (arg, (kind, ctype)) in enumerate(zip(args, self.params)):
            if kind == "pointer":
                holders.append(np.array(_address(arg), dtype=np.uint64))
                continue
            given = getattr(arg, "dtype", None)
            if isinstance(arg, np.generic) and given != kind:
                raise TypeError(
                    f"kernel {self.name}: argument {k} is {ctype} ({kind}), got a NumPy {given} scalar"
                )
            if isinstance(arg, np.ndarray):
                raise TypeError(
                    f"kernel {self.name}: argument {k} is the scalar {ctype}, got an array"
                )
            holders.append(np.array(arg, dtype=kind))
        pointers = (ctypes.c_void_p * max(len(holders), 1))(*[h.ctypes.data for h in holders])
        dims = (ctypes.c_uint * 7)(*_dims(grid), *_dims(block), int(shared_mem))
        error = ctypes.create_string_buffer(1024)
        if self._launch(dims, pointers, error, len(error)):
            raise RuntimeError(f"launch of kernel {self.name} failed: {error.value.decode()}")


_KERNEL = re.compile(
    r'extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)\s*\('
)
_libraries: dict = {}  # path -> (library, parameters per kernel)


def kernel_names(source: str) -> list:
    """The names of the `extern "C" __global__` kernels of a source, in order."""
    return list(dict.fromkeys(_KERNEL.findall(source)))


def load(source: str, kernel_name: str, cache_dir: str | None = None) -> CpuKernel:
    """Build `source` with the CUDA emulation header and return its kernel `kernel_name`.

    Every kernel of the source gets a launcher, so one build serves all of them.

    Parameters
    ----------
    source : str
        CUDA C++ source holding ``extern "C" __global__ void kernel_name(...)``.
    kernel_name : str
        The kernel to return.
    cache_dir : str, optional
        Where built libraries persist (default: kernel_cache.default_cache_dir()).

    Returns
    -------
    CpuKernel
        Called as ``kernel(grid, block, args, shared_mem=0)``, as cupy's RawKernel.
    """
    names = kernel_names(source)
    if kernel_name not in names:
        raise ValueError(f'no extern "C" __global__ kernel named {kernel_name!r} in the source')
    params = {name: _signature(source, name) for name in names}
    with open(HEADER) as f:
        header = f.read()
    launchers = "".join(_launcher(name, params[name]) for name in names)
    text = f'#include "cuda_on_cpu.h"\n{source}\n{launchers}'
    key = key_of(text, header, " ".join(FLAGS), compiler() or "")
    if cache_dir not in _cache:
        _cache[cache_dir] = KernelCache("cpu", cache_dir, ".so")
    cache = _cache[cache_dir]
    path = cache.file(key, lambda: _build(text, cache_dir))
    library = _libraries.get(path)
    if library is None:
        try:
            library = ctypes.CDLL(path)
        except OSError:  # a file that passes its digest but does not load: build it again
            cache.memory.pop(key, None)
            path = cache.store(key, _build(text, cache_dir))
            library = ctypes.CDLL(path)
        _libraries[path] = library
    return CpuKernel(library, kernel_name, params[kernel_name], path)
