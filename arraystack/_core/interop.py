"""NumPy's function protocol (`__array_function__`) and the Array API namespace (`__array_namespace__`).

A NumPy function applied to arraystack arrays runs the arraystack function of the same name, looked up in
the matching submodule (numpy.linalg.norm -> arraystack.linalg.norm), so it traces like any arraystack
call. A NumPy function arraystack does not implement runs NumPy itself on the arrays' buffers in eager mode
(array results come back as arraystack arrays, writes land in the arguments' buffers); on traced values it
raises, since NumPy needs concrete data.
"""

from __future__ import annotations

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.dtypes import is_host, is_supported
from arraystack._core.overrides import _classify as overrides_kind
from arraystack._core.overrides import deferring, undeferred
from arraystack.ir.core import (
    ConcretizationError,
    HostDtypeError,
    Tracer,
    active,
    concretization_message,
    device_namespaces,
    host_dtype_message,
)

# The Array API versions arraystack accepts in __array_namespace__ (the same as NumPy 2's).
API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

_resolved: dict = {}  # NumPy function -> arraystack function, or None where arraystack has none
_UNRESOLVED = object()
_handled_types: dict = {}  # the `types` tuple NumPy passes -> whether arraystack handles all of them
_ndarray_np = np.ndarray
_default_array_function = np.ndarray.__array_function__


def resolve(func):
    """The arraystack function standing for NumPy's `func`, or None."""
    import arraystack

    target = arraystack
    module = getattr(func, "__module__", None) or "numpy"
    parts = module.split(".")
    if parts[0] != "numpy":
        target = None
    for part in parts[1:]:  # numpy.linalg -> arraystack.linalg, numpy.fft -> arraystack.fft
        target = getattr(target, part, None) if not part.startswith("_") else None
        if target is None:
            break
    fn = getattr(target, getattr(func, "__name__", ""), None) if target is not None else None
    if fn is func or isinstance(fn, type) or not callable(fn):
        fn = None  # a NumPy function re-exported as is would dispatch back here forever
    # NumPy has dispatched: a deferring wrapper must not defer again
    _resolved[func] = undeferred(fn)
    return fn


_SUBCLASS = "numpy subclass"


def _handles(types):
    """True where arraystack's function handles a call among `types`; _SUBCLASS where one is a subclass
    of NumPy's ndarray with behaviour of its own (NumPy's function runs on the buffers); else False."""
    found = True
    for t in types:
        if issubclass(t, ndarray):
            continue
        if issubclass(t, _ndarray_np) and t.__array_function__ is _default_array_function:
            if t is not _ndarray_np and overrides_kind(t) == "numpy":
                found = _SUBCLASS
            continue
        return False
    return found


def array_function(func, types, args, kwargs):
    """ndarray.__array_function__: arraystack's function of the same name, else NumPy on the buffers."""
    handled = _handled_types.get(types)
    if handled is None:
        handled = _handled_types[types] = _handles(types)
    if not handled:
        return NotImplemented
    if handled is _SUBCLASS:  # numpy.matrix, a masked array: NumPy's function keeps its type
        return call_numpy(func, args, kwargs)
    fn = _resolved.get(func, _UNRESOLVED)
    if fn is _UNRESOLVED:
        resolve(func)
        fn = _resolved[func]
    if fn is not None:
        return fn(*args, **kwargs)
    return call_numpy(func, args, kwargs)


def call_numpy(func, args, kwargs):
    """Run NumPy's own `func` on the buffers of arraystack arguments (eager only).

    Results that are the buffer of an argument (out=, in-place functions) come back as that argument;
    other NumPy arrays and scalars are wrapped.
    Note: results of a dtype arraystack does not support (longdouble, clongdouble) and NumPy's
    subclasses (recarray, chararray, masked arrays) are returned as NumPy values; arrays of host dtypes
    (datetimes, strings, object, structured) are arraystack arrays holding NumPy's buffer.
    """
    owners: dict[int, ndarray] = {}

    def unwrap(obj):
        t = type(obj)
        if t is ndarray or isinstance(obj, ndarray):
            value = obj._value
            if type(value) is Tracer:
                raise _untraceable(func, value)
            if type(value) in device_namespaces:  # NumPy runs on the host: read a device's back
                from arraystack._core.devices import host_values

                return host_values(value)
            owners[id(value)] = obj
            return value
        if t is list or t is tuple:
            return t(unwrap(o) for o in obj)
        if t is dict:
            return {k: unwrap(v) for k, v in obj.items()}
        if t is Tracer:
            raise _untraceable(func, obj)
        return obj

    args = unwrap(args)
    kwargs = unwrap(kwargs)
    implementation = getattr(func, "_implementation", func)  # skips dispatching a second time
    result = implementation(*args, **kwargs)

    def rewrap(obj):
        if isinstance(obj, _ndarray_np):
            owner = owners.get(id(obj))
            if owner is not None and owner._value is obj:
                return owner
            return wrap(obj) if _supported(obj.dtype) and type(obj) is _ndarray_np else obj
        if isinstance(obj, np.generic):
            return wrap(obj) if _supported(obj.dtype) else obj
        if isinstance(obj, tuple):
            items = [rewrap(o) for o in obj]
            return type(obj)(*items) if hasattr(obj, "_fields") else type(obj)(items)
        if type(obj) is list:
            return [rewrap(o) for o in obj]
        return obj

    return rewrap(result)


def _supported(dtype) -> bool:
    return is_supported(dtype) or is_host(dtype)


def call_host(func, args, kwargs, name=None):
    """call_numpy for a function of host dtypes (datetime64, timedelta64, str_, bytes_: numpy.strings,
    numpy.char, the datetime functions), which have no traced form: inside a trace (jit, grad, vmap)
    a HostDtypeError names the function (`name`, NumPy's qualified name) and the user's line."""
    if active.n:
        name = name or f"numpy.{func.__name__}"
        dtypes = (getattr(a, "dtype", None) for a in args)
        dtype = next((d for d in dtypes if isinstance(d, np.dtype) and is_host(d)), None)
        raise HostDtypeError(host_dtype_message(dtype, name))
    return call_numpy(func, args, kwargs)


def host_forwarder(mirrored: str, module: str, convert=None):
    """The arraystack function forwarding to NumPy's `mirrored` (e.g. "numpy.strings.upper") through
    call_host, public in `module`: NumPy's signature (`__wrapped__`), and a docstring of arraystack's
    summary and See Also before NumPy's own documentation of the parameters. `convert`, if given, maps
    the result (e.g. NumPy's recarray to arraystack.rec.recarray)."""
    namespace, _, name = mirrored.rpartition(".")
    numpy_function = getattr(_namespace(namespace), name)

    def function(*args, **kwargs):
        out = call_host(numpy_function, args, kwargs, mirrored)
        return out if convert is None else convert(out)

    function.__name__ = function.__qualname__ = name
    function.__module__ = module
    function.__doc__ = _forwarder_doc(mirrored, numpy_function)
    function.__wrapped__ = numpy_function  # inspect.signature shows NumPy's parameters
    if isinstance(numpy_function, type(np.concatenate)):  # NumPy dispatches it (NEP 18): so do we
        function = deferring(function, numpy_function)
        function.__wrapped__ = numpy_function
    return function


def _namespace(dotted: str):
    import importlib

    return importlib.import_module(dotted)


def _forwarder_doc(mirrored: str, numpy_function) -> str:
    doc = numpy_function.__doc__ or ""
    body = doc.lstrip("\n")
    indent = body[: len(body) - len(body.lstrip(" "))]
    name = mirrored.rsplit(".", 1)[-1]
    first, _, rest = body.partition("\n\n")
    if first.strip().startswith(f"{name}("):  # the docstrings of ufuncs open with the signature
        first = rest.partition("\n\n")[0]
    summary = " ".join(first.split()) or f"NumPy's `{mirrored}`."
    lines = [
        "",
        "NumPy's own function, applied eagerly to the NumPy buffers of arraystack arrays (and to",
        "Python values and NumPy arrays); array results are arraystack arrays. Strings, datetimes,",
        "records and objects are host dtypes: under jit, grad or vmap it raises",
        "arraystack.errors.HostDtypeError.",
        "",
        "See Also",
        "--------",
        f"{mirrored} : the function mirrored.",
        "",
        f"NumPy's documentation of {mirrored}",
        "-" * len(f"NumPy's documentation of {mirrored}"),
        "",
    ]
    return summary + "\n" + "\n".join(indent + line if line else "" for line in lines) + "\n" + body


def _untraceable(func, tracer) -> ConcretizationError:
    name = f"{getattr(func, '__module__', 'numpy')}.{getattr(func, '__name__', func)}"
    return ConcretizationError(
        concretization_message(
            f"{name}() was called on",
            tracer.aval,
            f"arraystack does not implement {name}, and NumPy's own implementation needs concrete data, "
            "so it is not supported under tracing (jit, grad, vmap). Compute it outside the traced "
            "function, or write it with arraystack functions.",
        )
    )


def array_namespace(api_version=None):
    """ndarray.__array_namespace__: the arraystack module."""
    if api_version is not None and api_version not in API_VERSIONS:
        raise ValueError(f'Version "{api_version}" of the Array API Standard is not supported.')
    import arraystack

    return arraystack
