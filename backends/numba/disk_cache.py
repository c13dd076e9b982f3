"""numba's on-disk cache of the kernels: checked before numba reads it, and shared between processes.

Each file of a kernel's cache (the .nbi index, the .nbc entries) is written with a checksum of its contents
in front (`CheckedCacheFile`), and read only when the checksum holds: numba unpickles an entry and hands
its machine code to LLVM as it is, so a flipped bit could otherwise crash the process (a segmentation
fault) or fail every later process until the cache is deleted. A file that fails the check is logged,
naming it, and treated as absent: numba compiles the kernel again and writes the file anew. A file in
numba's own format (written before entries were checked) counts as stale, silently.

A compile worker (backends/numba/compile_worker.py) runs a plan and reports, per kernel key, the argument types
numba compiled it for; this process builds the same plan (kernels.load_kernel writes the same file, so the
same cache index) and asks each dispatcher for those types, which numba serves from disk without compiling.
"""

from __future__ import annotations

import hashlib
import io
import logging
import pickle
import threading

# numba itself first: importing a submodule first takes the submodule's import lock and then waits for the
# package's, while another thread importing the package (a kernel's module) waits for the submodule's
import numba  # noqa: F401
from numba.core.caching import IndexDataCacheFile, NullCache

log = logging.getLogger("arraystack.jit")
MAGIC = b"arraystack-checked-cache-1\n"  # then the SHA-256 of the rest, then numba's own bytes
_DIGEST = hashlib.sha256().digest_size
_reported: set[str] = set()
_reported_lock = threading.Lock()


class CorruptCacheFile(OSError):
    """A cache file whose checksum does not hold (numba's loader reads an OSError as a missing entry)."""


def _checked(payload: bytes) -> bytes:
    return MAGIC + hashlib.sha256(payload).digest() + payload


def _verified(path: str, data: bytes) -> bytes | None:
    """The payload of a checked file; None for a file in numba's own format (stale); raises
    CorruptCacheFile for anything else."""
    header = len(MAGIC) + _DIGEST
    if data.startswith(MAGIC) and len(data) > header:
        if hashlib.sha256(data[header:]).digest() == data[len(MAGIC) : header]:
            return data[header:]
        why = "its checksum does not match its contents"
    elif data.startswith(b"\x80"):  # a pickle: numba's own format
        return None
    elif MAGIC.startswith(data[: len(MAGIC)]):
        why = f"it is truncated ({len(data)} bytes)"
    else:
        why = "it is not a cache file arraystack wrote"
    _report(path, why)
    raise CorruptCacheFile(f"{path}: {why}")


def _report(path, why):
    with _reported_lock:
        if path in _reported:
            return
        _reported.add(path)
    log.warning("arraystack: numba cache file %s is corrupt (%s); the kernel compiles again", path, why)


class CheckedCacheFile(IndexDataCacheFile):
    """numba's index and data files, each behind a checksum verified before numba reads it."""

    def _load_index(self):
        try:
            with open(self._index_path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return {}
        try:
            payload = _verified(self._index_path, data)
            if payload is None:
                return {}
            stream = io.BytesIO(payload)
            if pickle.load(stream) != self._version:  # another numba: its pickles may not load here
                return {}
            stamp, overloads = pickle.loads(stream.read())
        except CorruptCacheFile:
            return {}
        except Exception as e:  # noqa: BLE001  (checked, yet unreadable: written by a broken writer)
            _report(self._index_path, f"{type(e).__name__}: {e}")
            return {}
        return overloads if stamp == self._source_stamp else {}

    def _save_index(self, overloads):
        payload = pickle.dumps(self._version, protocol=-1) + self._dump((self._source_stamp, overloads))
        self._write(self._index_path, payload)

    def _load_data(self, name):
        path = self._data_path(name)
        with open(path, "rb") as f:
            payload = _verified(path, f.read())
        if payload is None:
            raise CorruptCacheFile(f"{path}: numba's own format, from before entries were checked")
        return pickle.loads(payload)

    def _save_data(self, name, data):
        self._write(self._data_path(name), self._dump(data))

    def _write(self, path, payload):
        with self._open_for_write(path) as f:  # a new file replaces the old at once (os.replace)
            f.write(_checked(payload))
        with _reported_lock:  # corrupt again later: say so again
            _reported.discard(path)


def check_entries(dispatcher) -> None:
    """Make a dispatcher's disk cache (cache=True) check each file before numba reads it. A dispatcher
    whose cache is not numba's index-and-data files (another numba) keeps no disk cache at all."""
    cache = dispatcher._cache
    if isinstance(cache, NullCache):
        return
    cache_file = getattr(cache, "_cache_file", None)
    if isinstance(cache_file, CheckedCacheFile):
        return
    if type(cache_file) is IndexDataCacheFile:
        cache_file.__class__ = CheckedCacheFile
        return
    log.warning(
        "arraystack: numba's cache of %s cannot be checked (%s); it is not cached on disk",
        getattr(dispatcher, "__name__", dispatcher), type(cache_file).__name__,
    )
    dispatcher._cache = NullCache()


def prepare() -> None:
    """numba's one-time set-up in this process, which its first compile or cache load would do: the target
    context imports numba's implementation modules (and BLAS bindings through scipy), ~1 s of holding the
    GIL. Done while a worker compiles, it is not added to the wait for compiled code. Under numba's compiler
    lock, as numba's own refreshes are: a kernel compiling or loading in another thread meanwhile walks the
    same registry generators ("ValueError: generator already executing" without it)."""
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target

    with global_compiler_lock:
        cpu_target.typing_context.refresh()
        cpu_target.target_context.refresh()


def on_disk(sources) -> bool:
    """Whether each kernel of these sources (loaded in this process by kernels.load_kernel) is compiled in
    memory or has numba's disk cache for this machine: then loading needs no worker. For some argument
    types: the cache index says which, and a kernel cached for other types compiles on its first call."""
    from arraystack.backends.numba.kernels import _dispatchers, kernel_key

    for source in sources:
        dispatcher = _dispatchers.get(kernel_key(source))
        if dispatcher is None:
            return False
        if dispatcher.overloads:
            continue
        try:  # numba's cache internals: any surprise counts as "not cached"
            index = dispatcher._cache._cache_file._load_index()
            magic = dispatcher.targetctx.codegen().magic_tuple()
        except Exception:  # noqa: BLE001
            return False
        if not any(key[1] == magic for key in index):
            return False
    return True


def kernel_signatures() -> dict:
    """kernel key -> the argument-type tuples numba holds compiled code for, over this process's kernels."""
    from arraystack.backends.numba.kernels import _dispatchers

    return {key: list(d.signatures) for key, d in list(_dispatchers.items()) if d.signatures}


def load_signatures(signatures: dict) -> dict:
    """Load each (kernel key, argument types) that a kernel of this process lacks from the disk cache.

    Returns counts: `loaded` from disk, `compiled` (a cache miss: numba compiled here after all; e.g. the
    kernel's file sits in another cache directory), `present` (already compiled or loaded in this process),
    and `unknown` (keys no kernel of this process has: the plans differ)."""
    from arraystack.backends.numba.kernels import _dispatchers
    from numba.core import event

    counts = {"loaded": 0, "compiled": 0, "present": 0, "unknown": 0}
    compiles = []

    class _Counter(event.Listener):  # every compile numba starts meanwhile, callees included
        def on_start(self, ev):
            compiles.append(ev.data["dispatcher"])

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", _Counter()):
        for key, sigs in signatures.items():
            dispatcher = _dispatchers.get(key)
            if dispatcher is None:
                counts["unknown"] += 1
                continue
            for sig in sigs:
                if tuple(sig) in dispatcher.overloads:
                    counts["present"] += 1
                    continue
                hits = sum(dispatcher.stats.cache_hits.values())
                dispatcher.compile(tuple(sig))
                counts["loaded" if sum(dispatcher.stats.cache_hits.values()) > hits else "compiled"] += 1
    counts["numba_compiles"] = len(compiles)
    return counts


__all__ = [
    "CheckedCacheFile", "CorruptCacheFile", "check_entries", "kernel_signatures", "load_signatures",
    "on_disk", "prepare",
]
