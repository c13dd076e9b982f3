"""arraystack arrays as the chunks of a dask.array: dask's registry of chunk types learns arraystack's.

dask defers an operation to any operand whose type defines `__array_ufunc__` and is not a chunk type it
knows (so that `dask_array + xarray_object` is the xarray's to compute); an arraystack ndarray would be
deferred to in the same way, and `dask_array + arraystack_array` would have no one to compute it.
Registering `arraystack.ndarray` as a chunk type (as dask registers cupy's) puts arraystack arrays below
dask arrays in the order of types: dask wraps them as a single chunk, as it wraps NumPy arrays.

The registration runs once: from arraystack's override dispatch the first time it meets a dask
collection (arraystack/_core/overrides.py), or from a call of `register_chunk_type`; `import arraystack`
alone never imports dask.
"""

from __future__ import annotations

_registered = False


def register_chunk_type() -> bool:
    """Register `arraystack.ndarray` with dask as a chunk type of dask arrays (once).

    Returns
    -------
    bool
        True when `arraystack.ndarray` is a chunk type of dask.array on return; False when dask is
        not installed.

    Notes
    -----
    Mirrors what dask does for CuPy (``dask.array.chunk_types.register_chunk_type``): a dask array
    combined with an arraystack array wraps the arraystack array as one chunk, and the arraystack
    array's operators defer to the dask array. Calling it again does nothing.

    See Also
    --------
    arraystack.distributed.DataParallel : training on a dask.distributed cluster.

    Examples
    --------
    >>> from arraystack.distributed import register_chunk_type
    >>> register_chunk_type()
    True
    """
    global _registered
    if _registered:
        return True
    try:
        from dask.array.chunk_types import register_chunk_type as register
    except ImportError:
        return False
    from arraystack._core.array import ndarray

    register(ndarray)
    _registered = True
    return True
