"""Kernels compiled in one process, loaded in another from numba's on-disk cache (tiered compilation).

A compile worker (backends/compile_worker.py) runs a plan and reports, per kernel key, the argument types
numba compiled it for; this process builds the same plan (kernels.load_kernel writes the same file, so the
same cache index) and asks each dispatcher for those types, which numba serves from disk without compiling.
"""

from __future__ import annotations

from arraystack.backends.numba.kernels import _dispatchers


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
    from arraystack.backends.numba.kernels import kernel_key

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
    return {key: list(d.signatures) for key, d in list(_dispatchers.items()) if d.signatures}


def load_signatures(signatures: dict) -> dict:
    """Load each (kernel key, argument types) that a kernel of this process lacks from the disk cache.

    Returns counts: `loaded` from disk, `compiled` (a cache miss: numba compiled here after all; e.g. the
    kernel's file sits in another cache directory), `present` (already compiled or loaded in this process),
    and `unknown` (keys no kernel of this process has: the plans differ)."""
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


__all__ = ["kernel_signatures", "load_signatures", "on_disk", "prepare"]
