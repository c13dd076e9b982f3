"""arraystack.backends: where and how a graph runs (backend interface and registry, hardware model, planner,
execution engine, and the backends themselves: numba in backends/numba/, the reference rules in reference.py).

Reads arraystack.ir; a backend imports its compiler (numba, cupy) lazily, so a machine without it still works.
Backends are found by the registry (registry.py); `available()` lists them, with the reason an unavailable one
is unavailable.
"""

if (
    __name__ != "arraystack.backends"
):  # pragma: no cover - guards a second copy loaded as `backends`
    raise ImportError(
        f"the folder backends/ must be imported as arraystack.backends, not as {__name__!r}; "
        "install the project (pip install -e .) and import arraystack"
    )

from arraystack.backends.interface import Backend, CompileOptions  # noqa: E402
from arraystack.backends.registry import (  # noqa: E402
    BackendInfo,
    BackendUnavailable,
    available,
    default_name,
    for_device,
    get,
    names,
    register,
    unregister,
)


def compile_graph(
    graph, backend: str | None = None, cache_dir: str | None = None, donate=frozenset(), tier: int = 1
):
    """Compile an optimized graph into an Executable with the registered backend `backend` (default: the
    available one of highest priority, registry.default_name()); kernels persist under cache_dir.

    donate: positions of graph inputs whose buffers the executable may overwrite with outputs.
    tier=0: the backend's first tier, where it has one (what tiered compilation runs while the kernels
    compile: it computes what the kernels compute, without compiling anything)."""
    return get(backend or default_name()).compile(graph, CompileOptions(cache_dir, frozenset(donate), tier))


__all__ = [
    "Backend",
    "BackendInfo",
    "BackendUnavailable",
    "CompileOptions",
    "available",
    "compile_graph",
    "default_name",
    "for_device",
    "get",
    "names",
    "register",
    "unregister",
]
