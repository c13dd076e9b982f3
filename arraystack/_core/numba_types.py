"""arraystack arrays as arguments of the user's own numba functions (`@numba.njit`, `@numba.jit`).

Without this, numba types an arraystack array by its buffer protocol, as a `Buffer`, which indexes but has
no array methods (`a.sum()`, `a.T`, ufuncs). Registered here, an arraystack array is numba's array type of
its NumPy buffer, marked as arraystack's (so numba compiles a separate entry for it): a compiled function
reads and writes the array's own memory (no copy), and what it returns is what numba returns for any
input: NumPy arrays. A traced array has no memory (ConcretizationError), and an array on a device is
refused as NumPy's conversion refuses it (copy it to the CPU first).

numba is not imported by `import arraystack`: `install` registers at once when numba is already imported,
and otherwise when numba's import finishes (a finder on sys.meta_path that steps aside after it).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading

_lock = threading.Lock()
_registered = False


def register() -> None:
    """Teach numba the arraystack array type (once)."""
    global _registered
    with _lock:
        if _registered:
            return
        _registered = True
    import numpy as np
    from numba.core import cgutils, types
    from numba.core.datamodel.models import ArrayModel
    from numba.extending import NativeValue, box, register_model, typeof_impl, unbox

    from arraystack._core.array import ndarray

    class ArraystackArray(types.Array):
        """numba's array type for an arraystack array argument: the array of its NumPy buffer."""

        def __init__(self, dtype, ndim, layout, readonly=False, aligned=True):
            shown = (
                f"arraystack.ndarray({dtype}, {ndim}d, {layout}{', readonly' if readonly else ''})"
            )
            super().__init__(dtype, ndim, layout, readonly=readonly, aligned=aligned, name=shown)

        def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
            # what numba derives from the argument (views, results) is its own array type
            return types.Array(
                self.dtype if dtype is None else dtype,
                self.ndim if ndim is None else ndim,
                self.layout if layout is None else layout,
                readonly=not self.mutable if readonly is None else readonly,
                aligned=self.aligned,
            )

        def plain(self):
            return types.Array(self.dtype, self.ndim, self.layout, readonly=not self.mutable)

    register_model(ArraystackArray)(ArrayModel)

    @typeof_impl.register(ndarray)
    def _typeof(value, context):
        if isinstance(
            value._value, np.generic
        ):  # a scalar result: NumPy's scalar, as numba types it
            return typeof_impl(value._value, context)
        plain = typeof_impl(np.asarray(value), context)
        if not isinstance(plain, types.Array):
            return plain
        return ArraystackArray(plain.dtype, plain.ndim, plain.layout, readonly=not plain.mutable)

    @unbox(ArraystackArray)
    def _unbox(typ, obj, c):
        buffer = c.pyapi.call_method(obj, "__array__", ())
        value = cgutils.alloca_once(c.builder, c.context.get_value_type(typ))
        error = cgutils.alloca_once_value(c.builder, cgutils.true_bit)
        with c.builder.if_then(cgutils.is_not_null(c.builder, buffer), likely=True):
            native = c.unbox(typ.plain(), buffer)
            c.pyapi.decref(buffer)  # numba's array keeps its own reference to the buffer
            c.builder.store(native.value, value)
            c.builder.store(native.is_error, error)
        # a NULL buffer: __array__ raised (its exception is set), an error numba reports
        return NativeValue(c.builder.load(value), is_error=c.builder.load(error))

    @box(ArraystackArray)
    def _box(typ, value, c):
        return c.box(typ.plain(), value)


class _AfterNumba(importlib.abc.MetaPathFinder):
    """Registers once numba's own import has finished, then leaves sys.meta_path."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "numba":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("numba")
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            register()

        spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    """Register now if numba is imported, else when it is."""
    if "numba" in sys.modules:
        register()
    elif not any(isinstance(f, _AfterNumba) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterNumba())


install()  # at import: `import arraystack` imports this module
