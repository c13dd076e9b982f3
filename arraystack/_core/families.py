"""The family modules that ndarray's methods, properties and operators call, each imported at its first use.

Every family imports ndarray (array.py), so the array type cannot import them while it is being defined.
It reaches them through `families` instead: an attribute of `families` is the module MODULES names,
imported when the attribute is first read and then kept as a plain attribute (a later read costs one
attribute lookup). So ndarray is complete when array.py has run, and the package's modules can be
imported in any order.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# attribute of `families` -> the module it is
MODULES = {
    "array": "arraystack._core.array",
    "at": "arraystack._indexing.at",
    "basic": "arraystack._creation.basic",
    "comparison": "arraystack._math.comparison",
    "cumulative": "arraystack._math.cumulative",
    "device_put": "arraystack._transforms.device_put",
    "dlpack": "arraystack._core.dlpack",
    "elementwise": "arraystack._math.elementwise",
    "elementwise_functions": "arraystack._math.elementwise_functions",
    "elementwise_math": "arraystack._math.elementwise_math",
    "index_tricks": "arraystack._indexing.index_tricks",
    "interop": "arraystack._core.interop",
    "matmul": "arraystack.linalg._matmul",
    "npyio": "arraystack._io.npyio",
    "rearranging": "arraystack._manipulation.rearranging",
    "reductions": "arraystack._math.reductions",
    "reshaping": "arraystack._manipulation.reshaping",
    "selection": "arraystack._indexing.selection",
    "sorting": "arraystack._sorting.sorting",
    "averages": "arraystack._statistics.averages",
    "subscripts": "arraystack._indexing.subscripts",
    "traced_flags": "arraystack._transforms.traced_flags",
    "ufunc": "arraystack._math.ufunc",
    "ufunc_dispatch": "arraystack._math.ufunc_dispatch",
}


class Families:
    """The modules of MODULES as attributes, each imported when it is first read."""

    def __getattr__(self, name: str) -> ModuleType:
        if name not in MODULES:
            raise AttributeError(f"no family module {name!r} (arraystack/_core/families.py)")
        module = importlib.import_module(MODULES[name])
        setattr(self, name, module)  # found as an instance attribute from now on
        return module


families = Families()

__all__: list[str] = []  # internal: the array type's modules use `families`
