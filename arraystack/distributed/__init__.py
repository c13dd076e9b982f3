"""Beyond one process on Dask: arraystack chunks in dask.array (`register_chunk_type`) and data-parallel
training on a dask.distributed cluster (`DataParallel`). Dask is an optional dependency
(``pip install arraystack[distributed]``) and is imported only when used: arraystack registers its array
type with dask.array the first time an arraystack function meets a dask collection, or when
`register_chunk_type` is called.
"""

from arraystack.distributed.dask_chunks import register_chunk_type
from arraystack.distributed.training import DataParallel

__all__ = ["DataParallel", "register_chunk_type"]
