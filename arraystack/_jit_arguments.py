"""How jit arguments enter the cache key and the compiled call: each leaf's abstract value, its
buffer, a static argument's hashable key part, and the retrace message naming what changed.
Used by _jit's JitFunction.
"""

from __future__ import annotations

import numpy as np

from arraystack._array import ndarray
from arraystack.ir.avals import ShapedArray, aval_of_concrete, is_supported_dtype
from arraystack.ir.core import user_line

_PY_SCALARS = (bool, int, float, complex)


def _leaf_aval(leaf, path):
    if isinstance(leaf, ndarray):
        value = leaf._value
        return ShapedArray(value.shape, value.dtype)
    if isinstance(leaf, np.ndarray):
        if not is_supported_dtype(leaf.dtype):
            raise TypeError(
                f"jit argument {path} has unsupported dtype {leaf.dtype} (at {user_line()}): jit traces "
                "bool, integer, float and complex arrays. Convert it (e.g. .astype(float)), or pass it "
                "with static_argnums="
            )
        return ShapedArray(leaf.shape, leaf.dtype)
    if isinstance(leaf, (_PY_SCALARS, np.generic)):
        return aval_of_concrete(leaf)
    raise TypeError(
        f"jit argument {path} is a {type(leaf).__name__}, which is not an array or a scalar; "
        "mark it static with static_argnums= or static_argnames="
    )


def _leaf_buffer(leaf, aval):
    if isinstance(leaf, ndarray):
        return leaf._value
    if isinstance(leaf, np.ndarray):
        return leaf
    return np.asarray(leaf, aval.dtype)  # scalars: 0-d arrays of their (weak) dtype


def _static_key(value, where):
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"static argument {where} must be hashable (it is part of the cache key), "
            f"got a {type(value).__name__}"
        ) from None
    return (type(value), value)


def _describe_change(old, new) -> str:
    if old is None:
        return "first call"
    parts = ["code", "argument structure", "argument shapes/dtypes", "static arguments"]
    parts += ["optimizer passes", "placement", "backend"]
    changed = [name for name, a, b in zip(parts, old, new) if a != b]
    if "argument shapes/dtypes" in changed:
        pairs = [f"{a.str_short()} -> {b.str_short()}" for a, b in zip(old[2], new[2]) if a != b]
        return "new argument types: " + ", ".join(pairs or ["(different number of arguments)"])
    return "changed: " + ", ".join(changed) if changed else "captured array changed shape or dtype"
