"""Compiled kernels kept in memory and on disk: NVRTC's cubins, and the CPU harness's shared libraries.

An entry is keyed by the SHA-256 of what determines it (the source, the target architecture, the
compiler's version and options). On disk an entry is a file plus a `.sha256` beside it holding the file's
digest; an entry whose digest does not match (a truncated write, a damaged disk) is built again and
replaced. Writes go to a temporary file renamed into place, so concurrent processes never read half a
file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Callable

from arraystack.backends.cupy import nvrtc


def default_cache_dir() -> str:
    """ARRAYSTACK_CACHE_DIR, else arraystack's folder in the user's cache directory."""
    env = os.environ.get("ARRAYSTACK_CACHE_DIR")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "arraystack")


def key_of(*parts: str) -> str:
    """The cache key of an entry determined by `parts` (source, architecture, compiler version, ...)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_atomic(path: str, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class KernelCache:
    """Entries of one kind (`"cubin"`, `"cpu"`) under `cache_dir/cuda-<kind>/`, plus an in-memory map.

    `stats` counts memory hits, disk hits, builds and corrupt entries rebuilt.
    """

    def __init__(self, kind: str, cache_dir: str | None = None, suffix: str = ".bin"):
        self.directory = os.path.join(cache_dir or default_cache_dir(), f"cuda-{kind}")
        self.suffix = suffix
        self.memory: dict[str, bytes] = {}
        self.stats = {"memory": 0, "disk": 0, "builds": 0, "corrupt": 0}
        self._lock = threading.Lock()

    def path(self, key: str) -> str:
        """Where the entry of `key` lives on disk."""
        return os.path.join(self.directory, key + self.suffix)

    def _read_verified(self, key: str) -> bytes | None:
        path = self.path(key)
        try:
            with open(path, "rb") as f:
                data = f.read()
            with open(path + ".sha256") as f:
                expected = f.read().strip()
        except OSError:
            return None
        if _digest(data) != expected:
            self.stats["corrupt"] += 1
            return None
        return data

    def store(self, key: str, data: bytes) -> str:
        """Write an entry (file, then its digest); returns its path."""
        os.makedirs(self.directory, exist_ok=True)
        path = self.path(key)
        _write_atomic(path, data)
        _write_atomic(path + ".sha256", _digest(data).encode())
        return path

    def get(self, key: str, build: Callable[[], bytes]) -> bytes:
        """The entry of `key`: from memory, else from disk when its digest checks, else build()'s result
        (stored in both)."""
        with self._lock:
            data = self.memory.get(key)
            if data is not None:
                self.stats["memory"] += 1
                return data
            data = self._read_verified(key)
            if data is not None:
                self.stats["disk"] += 1
            else:
                data = build()
                self.stats["builds"] += 1
                try:
                    self.store(key, data)
                except OSError:
                    pass  # an unwritable cache directory costs a rebuild next time, nothing else
            self.memory[key] = data
            return data

    def file(self, key: str, build: Callable[[], bytes]) -> str:
        """The path of a verified on-disk copy of the entry (for loaders that need a file)."""
        data = self.get(key, build)
        with self._lock:
            path = self.path(key)
            if self._read_verified(key) != data:
                path = self.store(key, data)
        return path


_cubins: dict[str | None, KernelCache] = {}


def cubin_cache(cache_dir: str | None = None) -> KernelCache:
    """The process's cache of NVRTC results under `cache_dir` (None: default_cache_dir())."""
    if cache_dir not in _cubins:
        _cubins[cache_dir] = KernelCache("cubin", cache_dir, ".cubin")
    return _cubins[cache_dir]


def compile_cached(
    source: str,
    name_expressions=(),
    arch: str = "sm_80",
    cache_dir: str | None = None,
    options=(),
) -> nvrtc.CompileResult:
    """nvrtc.compile through the cache: keyed by source, names, architecture, NVRTC version and options
    (BASE_OPTIONS and `options`, which are added after them)."""
    names = tuple(name_expressions)
    major, minor = nvrtc.version()
    key = key_of(
        source,
        "\n".join(names),
        arch,
        f"nvrtc-{major}.{minor}",
        " ".join((*nvrtc.BASE_OPTIONS, *options)),
    )

    def build() -> bytes:
        result = nvrtc.compile(source, names, arch=arch, options=tuple(options))
        header = json.dumps(
            {"log": result.log, "lowered": result.lowered_names, "resources": result.resources}
        ).encode()
        return len(header).to_bytes(8, "little") + header + result.cubin

    data = cubin_cache(cache_dir).get(key, build)
    size = int.from_bytes(data[:8], "little")
    meta = json.loads(data[8 : 8 + size])
    return nvrtc.CompileResult(
        data[8 + size :], meta["log"], arch, meta["lowered"], meta["resources"]
    )
