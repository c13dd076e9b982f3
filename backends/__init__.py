"""arraystack.backends: where and how a graph runs (hardware model, planner, codegen, cache, executor).

Reads arraystack.ir; imports numba and cupy lazily, so a machine without them still works.
"""

if (
    __name__ != "arraystack.backends"
):  # pragma: no cover - guards a second copy loaded as `backends`
    raise ImportError(
        f"the folder backends/ must be imported as arraystack.backends, not as {__name__!r}; "
        "install the project (pip install -e .) and import arraystack"
    )

BACKENDS = ("numba", "reference")


def compile_graph(
    graph, backend: str = "numba", cache_dir: str | None = None, donate=frozenset(), tier: int = 1
):
    """Compile an optimized graph into an Executable for `backend` (kernels persist under cache_dir).

    donate: positions of graph inputs whose buffers the executable may overwrite with outputs.
    tier=0: the executable tiered compilation runs while the kernels compile: it computes what the
    backend's kernels compute, with NumPy and without compiling anything (backends/numba/twin.py)."""
    if backend == "reference":
        from arraystack.backends.reference import compile_reference

        return compile_reference(graph)
    if backend == "numba":  # NumPy's error state asking to raise: the reference path (eager's errors)
        from arraystack.backends.floating_point_errors import honour_error_state

        if tier == 0:
            from arraystack.backends.numba.twin import compile_numba_twin

            return honour_error_state(compile_numba_twin(graph))
        from arraystack.backends.numba import compile_numba

        return honour_error_state(compile_numba(graph, cache_dir, frozenset(donate)))
    raise ValueError(f"unknown backend {backend!r}; available: {', '.join(BACKENDS)}")
