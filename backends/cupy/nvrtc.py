"""NVRTC through ctypes: CUDA C++ source -> cubin, with the compiler's log and its spill figures.

The library comes from the PyPI wheel nvidia-cuda-nvrtc-cu12 (site-packages/nvidia/cuda_nvrtc/lib), else
cupy's wheel, else the system's (ldconfig, CUDA_HOME, /usr/local/cuda). Nothing here needs a GPU: NVRTC
compiles for any architecture on any machine. Every compile asks ptxas for its resource report
(--ptxas-options=-v), so `CompileResult.spills` says whether a kernel spilled registers to local memory.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import importlib.util
import os
import re
import sys
import threading
from dataclasses import dataclass, field

# Options every kernel is compiled with. -fmad=false: a*b+c rounds twice, as NumPy's loops do; division
# and sqrt stay IEEE-rounded and denormals are kept (NVRTC's defaults, spelled out so they cannot drift).
BASE_OPTIONS = (
    "-std=c++17",
    "-fmad=false",
    "-prec-div=true",
    "-prec-sqrt=true",
    "-ftz=false",
    "--ptxas-options=-v",
)

_lock = threading.Lock()
_library = None


class NvrtcUnavailable(RuntimeError):
    """No NVRTC library could be loaded."""


class NvrtcError(RuntimeError):
    """A compile failed; the message holds NVRTC's log and the offending source lines."""

    def __init__(self, message, log=""):
        super().__init__(message)
        self.log = log


def _candidates():
    for root in sys.path:
        yield from sorted(
            glob.glob(os.path.join(root, "nvidia", "cuda_nvrtc", "lib", "libnvrtc.so.*"))
        )
        yield from sorted(glob.glob(os.path.join(root, "nvidia", "cu1*", "lib", "libnvrtc.so.*")))
    spec = importlib.util.find_spec("cupy")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            yield from sorted(
                glob.glob(os.path.join(loc, "..", "cupy_backends", "**", "libnvrtc*.so*"))
            )
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            yield from sorted(glob.glob(os.path.join(home, "lib64", "libnvrtc.so*")))
    found = ctypes.util.find_library("nvrtc")
    if found:
        yield found


def library_path() -> str | None:
    """The path of the NVRTC library this module loads, or None when there is none."""
    for path in _candidates():
        if os.path.basename(path).startswith("libnvrtc.so") or "/" not in path:
            return path
    return None


def _lib():
    global _library
    with _lock:
        if _library is not None:
            return _library
        path = library_path()
        if path is None:
            raise NvrtcUnavailable(
                "NVRTC is not installed: pip install nvidia-cuda-nvrtc-cu12 (or cupy-cuda12x)"
            )
        lib = ctypes.CDLL(path)
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        lib.nvrtcCreateProgram.argtypes = [
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_void_p,
            ctypes.c_void_p,
        ]
        for fn in ("nvrtcGetProgramLogSize", "nvrtcGetCUBINSize"):
            getattr(lib, fn).argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
        for fn in ("nvrtcGetProgramLog", "nvrtcGetCUBIN"):
            getattr(lib, fn).argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.nvrtcCompileProgram.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
        lib.nvrtcDestroyProgram.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        lib.nvrtcAddNameExpression.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.nvrtcGetLoweredName.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_char_p),
        ]
        _library = lib
        return lib


def available() -> bool:
    """Whether NVRTC can be loaded here."""
    try:
        _lib()
    except (NvrtcUnavailable, OSError):
        return False
    return True


def version() -> tuple[int, int]:
    """NVRTC's (major, minor) version."""
    major, minor = ctypes.c_int(), ctypes.c_int()
    _check(_lib().nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
    return major.value, minor.value


def _check(code, what):
    if code != 0:
        message = _lib().nvrtcGetErrorString(code).decode()
        raise NvrtcError(f"{what} failed: {message}")


@dataclass(frozen=True)
class CompileResult:
    """A compiled module: its cubin, NVRTC's log, each name expression's lowered (mangled) name, and the
    register and spill figures ptxas reported per kernel."""

    cubin: bytes
    log: str
    arch: str
    lowered_names: dict = field(default_factory=dict)
    resources: dict = field(default_factory=dict)  # kernel -> {"registers", "spill_stores", ...}

    @property
    def spills(self) -> int:
        """Bytes spilled to local memory (stores plus loads), over all kernels of the module."""
        return sum(r["spill_stores"] + r["spill_loads"] for r in self.resources.values())


_FUNCTION = re.compile(r"ptxas info\s*: Compiling entry function '(\w+)'")
_SPILLS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")


def resources(log: str) -> dict:
    """Per kernel of a ptxas -v log: registers, stack frame and spill bytes."""
    out, current = {}, None
    for line in log.splitlines():
        if m := _FUNCTION.search(line):
            current = out.setdefault(m.group(1), {"registers": 0, "stack": 0})
            current.update(spill_stores=0, spill_loads=0)
        elif current is not None and (m := _SPILLS.search(line)):
            current["stack"], current["spill_stores"], current["spill_loads"] = map(int, m.groups())
        elif current is not None and (m := _USED.search(line)):
            current["registers"] = int(m.group(1))
    return out


def spills(result: CompileResult) -> int:
    """Bytes spilled to local memory by a compiled module (0: every kernel fits its registers)."""
    return result.spills


def _source_context(source: str, log: str) -> str:
    """The source lines NVRTC's error messages point at ("name(LINE): error: ...")."""
    lines = source.splitlines()
    shown = []
    for m in re.finditer(r"\((\d+)\): (?:error|catastrophic error)", log):
        k = int(m.group(1))
        if 1 <= k <= len(lines):
            shown.append(f"  {k:5d} | {lines[k - 1]}")
    return "\n".join(dict.fromkeys(shown))


def compile(
    source: str,
    name_expressions=(),
    arch: str = "sm_80",
    options=(),
    name: str = "kernel.cu",
) -> CompileResult:
    """Compile CUDA C++ `source` to a cubin for `arch` (sm_80, sm_90, ...).

    Parameters
    ----------
    source : str
        The whole translation unit; it includes nothing NVRTC does not ship itself.
    name_expressions : sequence of str
        Kernel names (or C++ name expressions such as ``"f<float>"``) whose lowered names to report.
    arch : str
        The real architecture the cubin targets.
    options : sequence of str
        Options added after BASE_OPTIONS.
    name : str
        The file name NVRTC's messages use.

    Returns
    -------
    CompileResult
        The cubin bytes, the log, lowered names and ptxas's per-kernel resource figures.

    Raises
    ------
    NvrtcError
        The compile failed; the message holds the log and the source lines it points at.
    """
    lib = _lib()
    prog = ctypes.c_void_p()
    _check(
        lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None),
        "nvrtcCreateProgram",
    )
    try:
        for expr in name_expressions:
            _check(lib.nvrtcAddNameExpression(prog, expr.encode()), "nvrtcAddNameExpression")
        opts = [*BASE_OPTIONS, f"--gpu-architecture={arch}", *options]
        array = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
        code = lib.nvrtcCompileProgram(prog, len(opts), array)
        size = ctypes.c_size_t()
        _check(lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size)), "nvrtcGetProgramLogSize")
        buf = ctypes.create_string_buffer(size.value)
        _check(lib.nvrtcGetProgramLog(prog, buf), "nvrtcGetProgramLog")
        log = buf.value.decode(errors="replace")
        if code != 0:
            message = lib.nvrtcGetErrorString(code).decode()
            context = _source_context(source, log)
            raise NvrtcError(
                f"NVRTC compile of {name} for {arch} failed ({message}):\n{log}"
                + (f"\nsource:\n{context}" if context else ""),
                log,
            )
        _check(lib.nvrtcGetCUBINSize(prog, ctypes.byref(size)), "nvrtcGetCUBINSize")
        cubin = ctypes.create_string_buffer(size.value)
        _check(lib.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
        lowered = {}
        for expr in name_expressions:
            out = ctypes.c_char_p()
            _check(lib.nvrtcGetLoweredName(prog, expr.encode(), ctypes.byref(out)), "lowered name")
            lowered[expr] = out.value.decode()
        return CompileResult(cubin.raw, log, arch, lowered, resources(log))
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
