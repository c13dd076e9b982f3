"""Good manners with other array libraries: objects that override NumPy (pandas Series and DataFrames,
xarray, dask arrays, numpy.ma, arraystack.ma, astropy quantities: whatever defines `__array_ufunc__` or
`__array_function__` of its own, and NumPy's subclasses with behaviour of their own, but memmap) are
handed to NumPy's function of the same name, which dispatches to them (NEP 13 and NEP 18) exactly as
when the program calls NumPy itself: `arraystack.log(series)` keeps the Series' index. An object whose
`__array_ufunc__` is None opts out of ufuncs: an operator with it returns NotImplemented (Python then
asks the object), as NumPy's operators do.

The ufuncs and operators ask `kind`/`overriding` of their operands. Every function NumPy dispatches
through `__array_function__` is wrapped by `defers_to_numpy` (or `defers_to`) where it is defined: a
call is handed to NumPy's function when an argument that NumPy's dispatcher deems relevant overrides
NumPy. Arraystack arrays, NumPy arrays and Python numbers cost one type test each; the answer for other
types is cached per type. The arrays of a device library arraystack runs on (cupy's) are not deferred:
arraystack computes with them where they live, as with its own arrays on that device.
"""

from __future__ import annotations

import numpy as np

_NDARRAY_UFUNC = np.ndarray.__array_ufunc__
_NDARRAY_FUNCTION = np.ndarray.__array_function__
_PLAIN = {np.ndarray, float, int, bool, complex, list, tuple, type(None), str, slice}
_kinds: dict = {}  # type -> None (plain), "numpy" (defer to NumPy's function), "none" (opted out)


def kind(x):
    """None for an operand arraystack computes with; "numpy" for an object overriding NumPy (hand the
    call to NumPy's function); "none" for one whose __array_ufunc__ is None."""
    t = type(x)
    if t in _PLAIN:
        return None
    found = _kinds.get(t, 0)
    if found == 0:
        found = _kinds[t] = _classify(t)
    return found


def _classify(t):
    from arraystack._core.array import ndarray

    if t.__module__.startswith("dask."):
        # dask defers to chunk types it does not know: teach it ours
        from arraystack.distributed.dask_chunks import register_chunk_type

        register_chunk_type()

    if issubclass(t, (ndarray, np.generic)):
        return None
    if hasattr(t, "__cuda_array_interface__"):
        from arraystack._core.devices import kinds
        from arraystack.ir.core import device_namespaces

        kinds()  # registers the array types of the device libraries arraystack runs on
        if t in device_namespaces:  # a device array arraystack computes with (cupy's)
            return None
    if issubclass(t, np.ndarray) and not issubclass(t, np.memmap):
        # a NumPy subclass (numpy.ma's masked arrays, matrix, ...): NumPy's functions keep it (subok)
        wraps = ("__array_wrap__", "__array_ufunc__", "__array_function__", "__array_finalize__")
        if any(getattr(t, name, None) is not getattr(np.ndarray, name, None) for name in wraps):
            return "numpy"
    ufunc = getattr(t, "__array_ufunc__", _NDARRAY_UFUNC)
    if ufunc is None:
        return "none"
    function = getattr(t, "__array_function__", _NDARRAY_FUNCTION)
    if ufunc is not _NDARRAY_UFUNC or function is not _NDARRAY_FUNCTION:
        return "numpy"
    return None


def numpy_subclass(x) -> bool:
    """Whether `x` is of a subclass of NumPy's ndarray with behaviour of its own (numpy.matrix, numpy.ma's
    masked arrays): NumPy computes with it, arraystack's arrays beside it taking part as NumPy arrays,
    so the result is the subclass's, as among NumPy's own arrays."""
    return isinstance(x, np.ndarray) and type(x) is not np.ndarray and kind(x) == "numpy"


_defers: dict = {}  # type -> whether a forward operator of an array defers to its objects
_NDARRAY_PRIORITY = 0.0  # NumPy's ndarray.__array_priority__


def defers_operator(other) -> bool:
    """Whether `array op other` returns NotImplemented, so that Python asks `other`'s reflected operator,
    as NumPy's array does (binop_should_defer): for an object of a type without `__array_ufunc__`
    whose `__array_priority__` is above NumPy's ndarray's (scipy.sparse's matrices and arrays: `x @ s`
    is `s.__rmatmul__(x)`). Types with `__array_ufunc__` take part through the ufunc protocol instead."""
    t = type(other)
    if t in _PLAIN or t in _FAMILIAR:
        return False
    found = _defers.get(t)
    if found is None:
        found = _defers[t] = (
            not isinstance(other, np.ndarray | np.generic)
            and not hasattr(t, "__array_ufunc__")
            and not hasattr(t, "__array_namespace__")
            and float(getattr(t, "__array_priority__", -1e6)) > _NDARRAY_PRIORITY
        )
    return found


def overriding(values) -> str | None:
    """The strongest kind among `values` (operands, and out= arrays): "none", then "numpy", else None."""
    found = None
    for x in values:
        k = kind(x)
        if k == "none":
            return k
        if k is not None:
            found = k
    return found


# -- functions NumPy dispatches through __array_function__ (NEP 18) ------------------------------------------
#
# A call is scanned for arguments of a type overriding NumPy: the positional and keyword arguments and the
# items of lists and tuples among them, to _DEPTH levels (block's nested lists). Arraystack arrays, NumPy
# arrays, Python numbers, None and strings cost one type test each; a type seen before, one dict lookup.
# Only when such an argument is found does NumPy's dispatcher decide whether it is a relevant one.

_DEPTH = 3
_FAMILIAR = {np.ndarray, float, int, bool, complex, type(None), str}  # never override NumPy
_overriding_types: dict = {}  # type -> whether its objects override NumPy (shared with the C wrapper)


def _classify_argument(x) -> bool:
    """Whether `x`'s type overrides NumPy; the answer is kept in _overriding_types."""
    found = _overriding_types[type(x)] = kind(x) == "numpy"
    return found


def _any_overriding(values, depth=0) -> bool:
    """The C wrapper's scan (_fastpath_function.c), for when the accelerator is absent."""
    for x in values:
        t = type(x)
        if t in _FAMILIAR:
            continue
        if t is list or t is tuple:
            if depth < _DEPTH and _any_overriding(x, depth + 1):
                return True
            continue
        found = _overriding_types.get(t)
        if found is None:
            found = _classify_argument(x)
        if found:
            return True
    return False


class _Named(Exception):
    """Raised by a probe: `types` are the overriding types among the relevant arguments of a call of
    `func` (one that NumPy's implementation makes, where the probed function did not dispatch)."""

    def __init__(self, func, types):
        super().__init__()
        self.func = func
        self.types = types


class _Probe:
    """Stands in for an array argument while NumPy's dispatcher picks the relevant arguments: NumPy calls
    the first relevant probe's __array_function__ with the types of all relevant ones, and it stops the
    call there, before any implementation runs."""

    __slots__ = ()

    def __array_function__(self, func, types, args, kwargs):
        raise _Named(func, types)


class _OverridingProbe(_Probe):
    """Stands in for an argument that overrides NumPy."""

    __slots__ = ()


class _ArrayProbe(_Probe):
    """Stands in for an arraystack or NumPy array (so that no implementation ever sees the real one)."""

    __slots__ = ()


_OVERRIDING, _ARRAY = _OverridingProbe(), _ArrayProbe()


def _stand_in(x, depth):
    t = type(x)
    if t is list or t is tuple:
        return t([_stand_in(v, depth + 1) for v in x]) if depth < _DEPTH else x
    if t not in _FAMILIAR and kind(x) == "numpy":
        return _OVERRIDING
    if isinstance(x, np.ndarray) or _is_array(x):
        return _ARRAY
    return x


def _is_array(x) -> bool:
    from arraystack._core.array import ndarray

    return isinstance(x, ndarray)


def relevant_overriding(numpy_fn, args, kwargs) -> bool:
    """Whether an argument that NumPy's dispatcher for `numpy_fn` deems relevant overrides NumPy: the
    call runs on stand-ins for the arrays, and the first stand-in NumPy asks names them all."""
    args = [_stand_in(x, 0) for x in args]
    kwargs = {k: _stand_in(v, 0) for k, v in kwargs.items()}
    try:
        numpy_fn(*args, **kwargs)
    except _Named as named:
        return named.func is numpy_fn and _OverridingProbe in named.types
    except Exception:  # noqa: BLE001  (no stand-in was relevant: NumPy's implementation failed on them)
        return False
    return False  # no stand-in was relevant: NumPy's implementation ran on stand-ins and scalars


def _route(fn, numpy_fn, *args, **kwargs):
    """A call with an argument overriding NumPy: NumPy's function (which runs the NEP 18 protocol, or
    hands the object to its method) if that argument is a relevant one, else arraystack's."""
    if relevant_overriding(numpy_fn, args, kwargs):
        return numpy_fn(*args, **kwargs)
    return fn(*args, **kwargs)


def deferring(fn, numpy_fn):
    """`fn`, handing a call in which an argument that NumPy's dispatcher deems relevant overrides NumPy
    (a pandas Series, a masked array, any `__array_function__` or `__array_ufunc__` of its own) to
    `numpy_fn`, which dispatches it as NumPy does: to the object's `__array_function__` (NEP 18), or to
    its method for NumPy's functions that delegate (`numpy.sum(series)` is `series.sum()`). When NumPy's
    protocol comes back to arraystack.ndarray.__array_function__, `undeferred` (fn) runs.

    Tracers are arraystack arrays: a traced call never defers."""
    import functools

    from arraystack._core.accelerator import fastpath

    route = functools.partial(_route, fn, numpy_fn)
    if fastpath is not None:  # the C accelerator: the same scan, without a Python frame per call
        out = fastpath.Deferring(fn, route, _overriding_types, _classify_argument)
    else:

        def out(*args, **kwargs):
            if _any_overriding(args) or (kwargs and _any_overriding(kwargs.values())):
                return route(*args, **kwargs)
            return fn(*args, **kwargs)

    functools.update_wrapper(out, fn)
    if numpy_fn.__module__ == "numpy":
        # public there: pickled by reference, as NumPy's functions are
        out.__module__ = "arraystack"
    out.undeferred = fn
    return out


def undeferred(fn):
    """`fn` without the deferral test, where `fn` is a deferring wrapper (arraystack.ndarray's
    `__array_function__` calls it: NumPy has already dispatched)."""
    return getattr(fn, "undeferred", fn)


def defers_to_numpy(fn):
    """Decorator: `deferring(fn, numpy.<fn's name>)`, for functions that NumPy's top-level namespace
    dispatches through `__array_function__` (concatenate, sum, where, ...)."""
    return deferring(fn, getattr(np, fn.__name__))


def defers_to(numpy_fn):
    """Decorator: `deferring(fn, numpy_fn)`, for NumPy's functions of a submodule (numpy.linalg.norm)
    or of another name."""

    def decorate(fn):
        return deferring(fn, numpy_fn)

    return decorate


__all__: list[str] = []  # internal: the families decorate their functions with defers_to_numpy
