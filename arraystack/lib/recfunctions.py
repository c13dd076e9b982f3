"""arraystack.lib.recfunctions: NumPy's functions of structured arrays (`numpy.lib.recfunctions`),
applied eagerly to the NumPy buffers of arraystack arrays.

Array results are arraystack arrays (a structured result of a function asked for a record array,
`asrecarray=True`, is an `arraystack.rec.recarray`); a result NumPy gives as a masked array
(`usemask=True`, the default of several of these functions) is NumPy's `numpy.ma.MaskedArray`, whose
mask has a flag per field, which arraystack.ma's masks (one per element) do not express; arraystack's
functions hand such arrays to NumPy. Structured dtypes are host dtypes: under jit, grad or vmap these
functions raise arraystack.errors.HostDtypeError.
"""

from __future__ import annotations

import numpy as np

from arraystack._core.interop import host_forwarder
from arraystack.rec import as_recarray

__all__ = [
    "append_fields", "apply_along_fields", "assign_fields_by_name", "drop_fields", "find_duplicates",
    "flatten_descr", "get_fieldstructure", "get_names", "get_names_flat", "join_by", "merge_arrays",
    "rec_append_fields", "rec_drop_fields", "rec_join", "recursive_fill_fields", "rename_fields",
    "repack_fields", "require_fields", "stack_arrays", "structured_to_unstructured",
    "unstructured_to_structured",
]  # fmt: skip


def _records(out):
    """NumPy's recarray results as arraystack.rec.recarray; the rest as call_host gave them."""
    if isinstance(out, np.recarray):
        return as_recarray(out)
    if type(out) is tuple:
        return tuple(_records(o) for o in out)
    return out


_MODULE = "arraystack.lib.recfunctions"
(
    append_fields, apply_along_fields, assign_fields_by_name, drop_fields, find_duplicates,
    flatten_descr, get_fieldstructure, get_names, get_names_flat, join_by, merge_arrays,
    rec_append_fields, rec_drop_fields, rec_join, recursive_fill_fields, rename_fields,
    repack_fields, require_fields, stack_arrays, structured_to_unstructured,
    unstructured_to_structured,
) = (
    host_forwarder(f"numpy.lib.recfunctions.{name}", _MODULE, _records) for name in __all__
)  # fmt: skip
