"""Functional programming: apply_along_axis, apply_over_axes and vectorize
(numpy/lib/_shape_base_impl.py, _function_base_impl.py). Concrete calls run as NumPy runs them (vectorize calls the Python function once per
element, so it may branch on values); traced calls (jit, grad, vmap) map the function with arraystack.vmap.
frompyfunc returns NumPy's own object-dtype results: arraystack holds no object arrays, and (as for files of
such dtypes) gives back what NumPy gives rather than approximating it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib._function_base_impl import _parse_gufunc_signature
from numpy.lib.array_utils import normalize_axis_index

import arraystack as anp
from arraystack._core.array import ndarray, wrap
from arraystack._core.devices import host_values
from arraystack._core.overrides import defers_to_numpy
from arraystack._transforms import result_layouts
from arraystack.ir.core import Tracer, device_namespaces

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from arraystack.typing import ArrayLike, AxisLike, NDArray


@defers_to_numpy
def apply_along_axis(
    func1d: Callable[..., Any],
    axis: int,
    arr: ArrayLike,
    *args: Any,
    **kwargs: Any,
) -> NDArray:
    """Apply a function to 1-D slices along the given axis.

    Parameters
    ----------
    func1d : function (M,) -> (Nj...)
        This function should accept 1-D arrays; it is applied to 1-D slices of `arr` along the
        specified axis.
    axis : int
        Axis along which `arr` is sliced.
    arr : ndarray (Ni..., M, Nk...)
        Input array.
    *args : any
        Additional arguments to `func1d`.
    **kwargs : any
        Additional named arguments to `func1d`.

    Returns
    -------
    out : ndarray (Ni..., Nj..., Nk...)
        The output array: the shape of `arr` with the `axis` dimension replaced by the shape of
        `func1d`'s result.

    See Also
    --------
    numpy.apply_along_axis : The NumPy function this mirrors.
    vectorize, vmap

    Notes
    -----
    The first result's shape and dtype fix the output's.
    """
    arr = anp.asarray(arr)
    nd = arr.ndim
    axis = normalize_axis_index(axis, nd)
    dims = list(range(nd))
    view = anp.transpose(arr, dims[:axis] + dims[axis + 1 :] + [axis])
    outer = view.shape[:-1]
    if math.prod(outer) == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    results = [anp.asarray(func1d(view[ind], *args, **kwargs)) for ind in np.ndindex(outer)]
    first = results[0]
    results = [r.astype(first.dtype, copy=False) for r in results]
    buff = anp.reshape(anp.stack(results), outer + first.shape)
    bdims = list(range(buff.ndim))
    k = first.ndim
    return anp.transpose(buff, bdims[:axis] + bdims[buff.ndim - k :] + bdims[axis : buff.ndim - k])


def _traced(value) -> bool:
    return isinstance(value, Tracer) or (
        isinstance(value, ndarray) and isinstance(value._value, Tracer)
    )


class vectorize:
    """Generalized function class: a vectorized function that takes nested sequences of objects or
    arrays as inputs and returns arrays.

    Parameters
    ----------
    pyfunc : callable, optional
        A Python function or method; may be omitted to use vectorize as a decorator with keywords.
    otypes : str or list of dtypes, optional
        The output data type(s).
    doc : str, optional
        The docstring for the function; by default that of `pyfunc`.
    excluded : set, optional
        Set of strings or integers naming arguments that are not vectorized.
    cache : bool, optional
        If True, cache the first function call that determines the number of outputs (when `otypes`
        is not given).
    signature : string, optional
        Generalized universal function signature, e.g. ``(m,n),(n)->(m)``.

    Attributes
    ----------
    pyfunc : callable
        The function being vectorized.

    See Also
    --------
    numpy.vectorize : The NumPy function this mirrors.
    frompyfunc, vmap

    Notes
    -----
    Concrete arguments go through numpy.vectorize itself (results as arraystack arrays); traced
    arguments are mapped with `arraystack.vmap` over the broadcast loop dimensions, so `pyfunc` must
    then be traceable.
    """

    def __init__(
        self,
        pyfunc: Callable[..., Any] = np._NoValue,
        otypes: str | Sequence[Any] | None = None,
        doc: str | None = None,
        excluded: set[Any] | None = None,
        cache: bool = False,
        signature: str | None = None,
    ) -> None:
        if pyfunc is not np._NoValue and not callable(pyfunc):
            raise TypeError("When used as a decorator, only accepts keyword arguments.")
        self._options = {
            "otypes": otypes,
            "doc": doc,
            "excluded": excluded,
            "cache": cache,
            "signature": signature,
        }
        self._numpy = np.vectorize(pyfunc, **self._options)
        self.pyfunc = pyfunc
        self.cache = cache
        self.signature = signature
        self.otypes = self._numpy.otypes
        self.excluded = self._numpy.excluded
        self.__doc__ = self._numpy.__doc__
        if pyfunc is not np._NoValue and hasattr(pyfunc, "__name__"):
            self.__name__ = pyfunc.__name__

    def __call__(self, *args, **kwargs):
        if self.pyfunc is np._NoValue:  # used as @vectorize(...) with keywords only
            return vectorize(args[0], **self._options)
        if any(_traced(v) for v in (*args, *kwargs.values())):
            return self._mapped(args, kwargs)
        out = self._numpy(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})
        # the Python function runs on host values: arrays of a device are read back, results go there
        device = next((a.device for a in (*args, *kwargs.values()) if _on_device(a)), None)

        def result(o):
            o = wrap(np.asarray(o))
            return o if device is None else o.to_device(device)

        return tuple(result(o) for o in out) if isinstance(out, tuple) else result(out)

    def _mapped(self, args, kwargs):
        names = [i for i in range(len(args)) if i not in self.excluded]
        keys = [k for k in kwargs if k not in self.excluded]
        inputs = [anp.asarray(args[i]) for i in names] + [anp.asarray(kwargs[k]) for k in keys]

        def call(*values):
            full = list(args)
            for i, v in zip(names, values):
                full[i] = v
            kw = dict(kwargs)
            kw.update(zip(keys, values[len(names) :]))
            return self.pyfunc(*full, **kw)

        if self.signature is None:
            in_core = [()] * len(inputs)
            out_core = None
        else:
            in_core, out_core = _parse_gufunc_signature(self.signature)
            if len(in_core) != len(inputs):
                raise TypeError(
                    f"wrong number of positional arguments: expected {len(in_core)}, got {len(inputs)}"
                )
        sizes = {}
        loop_shapes, cores = [], []
        for x, dims in zip(inputs, in_core):
            if x.ndim < len(dims):
                raise ValueError(
                    f"input with shape {x.shape!r} does not have enough dimensions for all core "
                    f"dimensions {dims!r}"
                )
            core = x.shape[x.ndim - len(dims) :]
            for name, size in zip(dims, core):
                if sizes.setdefault(name, size) != size:
                    raise ValueError(
                        f"inconsistent size for core dimension {name!r}: {size} vs {sizes[name]}"
                    )
            loop_shapes.append(x.shape[: x.ndim - len(dims)])
            cores.append(core)
        loop = np.broadcast_shapes(*loop_shapes)
        n = math.prod(loop)
        flat = [anp.reshape(anp.broadcast_to(x, loop + c), (n,) + c) for x, c in zip(inputs, cores)]
        out = anp.vmap(call)(*flat)
        outs = out if isinstance(out, tuple) else (out,)
        outs = [anp.asarray(o) for o in outs]
        if self.otypes:
            outs = [o.astype(t) for o, t in zip(outs, self.otypes)]
        outs = [anp.reshape(o, loop + o.shape[1:]) for o in outs]
        if self.signature is None:  # NumPy's loop (frompyfunc's ufunc): its operands' order
            outs = [result_layouts.c_ordered(o) for o in outs]
            result_layouts.elementwise(inputs, outs)
        if (
            out_core is not None
            and len(out_core) != len(outs)
            and not (len(out_core) == 1 and len(outs) == 1)
        ):
            raise ValueError(
                f"wrong number of outputs from pyfunc: expected {len(out_core)}, got {len(outs)}"
            )
        return tuple(outs) if isinstance(out, tuple) else outs[0]


class _PyFunc:
    """numpy.frompyfunc's ufunc, taking arraystack arrays: results are arraystack object arrays (a
    host dtype, computed eagerly by NumPy) or Python objects for 0-d results, as NumPy returns them;
    `at` updates an object array in place."""

    def __init__(self, ufunc):
        self._ufunc = ufunc
        self.__name__ = ufunc.__name__
        self.nin, self.nout, self.nargs = ufunc.nin, ufunc.nout, ufunc.nargs
        self.identity, self.ntypes, self.types = ufunc.identity, ufunc.ntypes, ufunc.types

    def __repr__(self):
        return repr(self._ufunc)

    def _call(self, method, args, kwargs):
        from arraystack._core.interop import call_host

        return call_host(getattr(self._ufunc, method), args, kwargs, f"frompyfunc(...).{method}")

    def __call__(self, *args, **kwargs):
        return self._call("__call__", args, kwargs)

    def reduce(self, *args, **kwargs):
        return self._call("reduce", args, kwargs)

    def accumulate(self, *args, **kwargs):
        return self._call("accumulate", args, kwargs)

    def reduceat(self, *args, **kwargs):
        return self._call("reduceat", args, kwargs)

    def outer(self, *args, **kwargs):
        return self._call("outer", args, kwargs)

    def at(self, *args, **kwargs):
        return self._call("at", args, kwargs)


def _host(value):
    """An arraystack array as its NumPy buffer, a device's read back (tuples of them too); a traced one
    cannot be used."""
    if isinstance(value, tuple):
        return tuple(_host(v) for v in value)
    if isinstance(value, ndarray):
        if isinstance(value._value, Tracer):
            return value._value.concrete("frompyfunc")
        return host_values(value._value)
    return value


def _on_device(value) -> bool:
    return isinstance(value, ndarray) and type(value._value) in device_namespaces


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> Any:
    """Takes an arbitrary Python function and returns a NumPy ufunc-like callable.

    Parameters
    ----------
    func : Python function object
        An arbitrary Python function.
    nin : int
        The number of input arguments.
    nout : int
        The number of objects returned by `func`.
    identity : object, optional
        The value to use for the `identity` attribute of the result.

    Returns
    -------
    out : ufunc-like
        A callable that applies `func` elementwise, with the ufunc's attributes (nin, nout, ...) and
        methods.

    See Also
    --------
    numpy.frompyfunc : The NumPy function this mirrors.
    vectorize

    Notes
    -----
    Its results are object arrays (a host dtype: arraystack arrays holding NumPy's buffer), as NumPy's
    are; it needs concrete (not traced) inputs: under jit, grad or vmap it raises a HostDtypeError.
    """
    kwargs = {} if identity is None else {"identity": identity}
    return _PyFunc(np.frompyfunc(func, nin, nout, **kwargs))


@defers_to_numpy
def apply_over_axes(func: Callable[..., Any], a: ArrayLike, axes: AxisLike) -> NDArray:
    """Apply a function repeatedly over multiple axes.

    `func` is called as `res = func(a, axis)`, where `axis` is the first element of `axes`. The
    result `res` of the function call must have either the same dimensions as `a` or one less
    dimension. If `res` has one less dimension than `a`, a dimension is inserted before `axis`. The
    call to `func` is then repeated for each axis in `axes`, with `res` as the first argument.

    Parameters
    ----------
    func : function
        This function must take two arguments, `func(a, axis)`.
    a : array_like
        Input array (an object with an ``ndim``).
    axes : array_like
        Axes over which `func` is applied; the elements must be integers.

    Returns
    -------
    apply_over_axis : ndarray
        The output array. The number of dimensions is the same as `a`, but the shape can be
        different. This depends on whether `func` changes the shape of its output with respect to
        its input.

    See Also
    --------
    numpy.apply_over_axes : The NumPy function this mirrors.
    apply_along_axis
    """
    val = anp.asarray(a)
    n = a.ndim
    if np.array(axes).ndim == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = anp.expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct shape")
    return val


__all__ = ["apply_along_axis", "apply_over_axes", "frompyfunc", "vectorize"]
