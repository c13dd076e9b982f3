"""Beyond one process on Dask: arraystack chunks in dask.array and data-parallel training on a
dask.distributed cluster. Dask (an optional dependency: ``pip install arraystack[distributed]``) does the
scheduling; importing this package registers arraystack's array type with dask.array.
"""

from arraystack.distributed.dask_chunks import register_chunk_type
from arraystack.distributed.training import DataParallel

register_chunk_type()

__all__ = ["DataParallel", "register_chunk_type"]
