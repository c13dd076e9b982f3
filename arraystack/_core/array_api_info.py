"""The Array API inspection namespace: `arraystack.__array_namespace_info__()`.

Mirrors `numpy.__array_namespace_info__()` (the same capabilities, default dtypes and dtype kinds), with
arraystack's Device values, so devices registered by a GPU backend are listed too.
"""

from __future__ import annotations

import numpy as np

from arraystack._core import devices as _devices

# The dtypes of each kind the Array API names, in the standard's order (float16 is a NumPy extra and
# is not listed, as in NumPy's info namespace).
_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]
_ALL = _KINDS["bool"] + _KINDS["numeric"]


class __array_namespace_info__:
    """Mirrors numpy.__array_namespace_info__: what this namespace supports, per device."""

    __module__ = "arraystack"

    def capabilities(self) -> dict:
        """Optional features: boolean-mask indexing and data-dependent output shapes work eagerly (under
        `jit` the latter raise a TracerError unless a `size=` is given); at most 64 dimensions."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> _devices.Device:
        """The device new arrays are created on when no `device=` is given."""
        return _devices.current_default()

    def devices(self) -> list:
        """The devices arraystack can place arrays on (the CPU plus any registered backend's)."""
        return _devices.available_devices()

    def default_dtypes(self, *, device=None) -> dict:
        """The default dtypes for "real floating", "complex floating", "integral" and "indexing"."""
        _devices.check_device(device)
        return {
            "real floating": np.dtype(np.float64),
            "complex floating": np.dtype(np.complex128),
            "integral": np.dtype(np.intp),
            "indexing": np.dtype(np.intp),
        }

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The supported dtypes {name: dtype}, optionally only those of `kind` (a kind name as in
        `isdtype`, or a tuple of them meaning their union, in the order given)."""
        _devices.check_device(device)
        if kind is None:
            return {name: np.dtype(name) for name in _ALL}
        if isinstance(kind, tuple):
            out = {}
            for k in kind:
                out.update(self.dtypes(device=device, kind=k))
            return out
        if not isinstance(kind, str) or kind not in _KINDS:
            raise ValueError(f"unsupported kind: {kind!r}")
        if kind == "bool":
            # Note: NumPy reports its bool scalar type for kind="bool" and dtype objects elsewhere.
            return {"bool": np.bool_}
        return {name: np.dtype(name) for name in _KINDS[kind]}
