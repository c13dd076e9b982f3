"""The array type. An ndarray holds either a concrete buffer (a NumPy array; a CuPy array on a GPU) or a
Tracer of the graph being built, in `_value`; the same methods and operators serve both.

Operators and methods delegate to the family modules (_elementwise, _reductions, ...), which call bind().
"""

from __future__ import annotations

from types import GenericAlias

import numpy as np

from arraystack.ir.core import (
    ConcretizationError,
    Tracer,
    concretization_message,
    current_trace,
    device_namespaces,
)

_new = object.__new__
_ndarray_np = np.ndarray


class ndarray:
    """An N-dimensional array, mirroring numpy.ndarray.

    Eager arrays wrap a NumPy buffer: basic indexing gives views that alias it, in-place operators write it.
    Inside a traced function the same type wraps a traced value and in-place updates are recorded as new
    values (functionalized).
    """

    __slots__ = ("__weakref__", "_value")
    __array_priority__ = 100

    def __init__(self, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        # Note: like numpy.ndarray(shape, dtype), this makes an uninitialized-looking array; arraystack
        # zero-fills it so its contents are deterministic.
        if buffer is not None:
            self._value = np.ndarray(shape, dtype, buffer, offset, strides, order)
        else:
            self._value = np.zeros(shape, dtype, order=order or "C")

    # -- attributes -------------------------------------------------------------------------------------------
    @property
    def shape(self):
        return self._value.shape

    @shape.setter
    def shape(self, value):
        current = self._value
        if type(current) is Tracer:
            self._value = _manipulation.reshape(self, value)._value
            return
        view = current.view()
        view.shape = (
            value  # NumPy's in-place rule: raises AttributeError where a copy would be needed
        )
        self._value = view

    @property
    def dtype(self):
        return self._value.dtype

    @property
    def ndim(self):
        return self._value.ndim

    @property
    def size(self):
        return self._value.size

    @property
    def itemsize(self):
        return self._value.dtype.itemsize

    @property
    def nbytes(self):
        return self._value.size * self._value.dtype.itemsize

    @property
    def T(self):
        return _manipulation.transpose(self)

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return _manipulation.swapaxes(self, -1, -2)

    @property
    def strides(self):
        return self._concrete("strides").strides

    @property
    def flags(self):
        return self._concrete("flags").flags

    @property
    def base(self):
        # Note: a view's base is a new arraystack array on the same buffer, not the very object it
        # came from (`b.base is not None` holds as in NumPy, `b.base is a` does not); traced values
        # have none.
        value = self._value
        base = None if type(value) is Tracer else value.base
        return wrap(base) if type(base) is _ndarray_np else base

    @property
    def device(self):
        return _devices.device_of_buffer(self._value)

    @property
    def real(self):
        return _elementwise.real(self)

    @real.setter
    def real(self, value):
        _indexing.set_part(self, "real", value)

    @property
    def imag(self):
        return _elementwise.imag(self)

    @imag.setter
    def imag(self, value):
        _indexing.set_part(self, "imag", value)

    def _concrete(self, what):
        value = self._value
        if type(value) is Tracer:
            raise ConcretizationError(
                concretization_message(
                    f"{what} was requested", value.aval, "It exists only for concrete arrays."
                )
            )
        return value

    # -- conversions ------------------------------------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        value = self._value
        if type(value) is Tracer:
            return value.__array__(dtype, copy)
        if copy is False and dtype is not None and np.dtype(dtype) != value.dtype:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        out = value if dtype is None else value.astype(dtype, copy=False)
        return out.copy() if copy else out

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _ufunc_dispatch.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _interop.array_function(func, types, args, kwargs)

    def __array_namespace__(self, *, api_version=None):
        return _interop.array_namespace(api_version)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return _dlpack.dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        return _dlpack.dlpack_device(self)

    def to_device(self, device, /, *, stream=None):
        value = _devices.to_device(self._value, device)
        return self if value is self._value else wrap(value)

    def __bool__(self):
        return bool(self._scalar("bool()"))

    def __int__(self):
        return int(self._scalar("int()"))

    def __float__(self):
        return float(self._scalar("float()"))

    def __complex__(self):
        return complex(self._scalar("complex()"))

    def __index__(self):
        return self._scalar("__index__").__index__()

    def _scalar(self, what):
        value = self._value
        if type(value) is Tracer:
            return value.concrete(what)  # grad/jvp of concrete values answer; jit raises ConcretizationError
        return value

    def item(self, *args):
        return self._scalar(".item()").item(*args)

    def tolist(self):
        return self._scalar(".tolist()").tolist()

    def tobytes(self, order="C"):
        return self._scalar(".tobytes()").tobytes(order)

    def __len__(self):
        shape = self._value.shape
        if not shape:
            raise TypeError("len() of unsized object")
        return shape[0]

    def __iter__(self):
        value = self._value
        if not value.shape:
            raise TypeError("iteration over a 0-d array")
        if type(value) is _ndarray_np:
            return map(wrap, value)  # views of the rows, as NumPy's iteration gives
        return (self[i] for i in range(value.shape[0]))

    def __contains__(self, item):
        return bool(_reductions.any(_elementwise.equal(self, item)))

    __hash__ = None

    def __repr__(self):
        value = self._value
        if type(value) is Tracer:
            return f"ndarray(traced {value.aval.str_short()})"
        return np.array_repr(value)

    def __str__(self):
        value = self._value
        if type(value) is Tracer:
            return f"traced {value.aval.str_short()}"
        return np.array_str(value)

    def __format__(self, spec):
        value = self._value
        if type(value) is Tracer:
            return format(str(self), spec)
        return format(value, spec)

    def __copy__(self):
        return _creation.copy(self)

    def __deepcopy__(self, memo):
        out = _creation.copy(self)
        memo[id(self)] = out
        return out

    def __reduce__(self):
        return (wrap, (self._scalar("pickling"),))

    __class_getitem__ = classmethod(
        GenericAlias
    )  # ndarray[shape, dtype] in annotations, as NumPy allows

    # -- methods that mirror functions ------------------------------------------------------------------------
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        return _creation.astype(self, dtype, order=order, casting=casting, copy=copy)

    def copy(self, order="C"):
        return _creation.copy(self, order=order)

    def fill(self, value):
        _indexing.setitem(self, Ellipsis, value)

    def reshape(self, *shape, order="C", copy=None):
        if len(shape) == 1 and not isinstance(shape[0], int) and shape[0] is not None:
            shape = shape[0]
        return _manipulation.reshape(self, shape, order=order, copy=copy)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        return _manipulation.transpose(self, axes or None)

    def swapaxes(self, axis1, axis2):
        return _manipulation.swapaxes(self, axis1, axis2)

    def ravel(self, order="C"):
        return _manipulation.ravel(self, order)

    def flatten(self, order="C"):
        return _creation.copy(_manipulation.ravel(self, order))

    def squeeze(self, axis=None):
        return _manipulation.squeeze(self, axis)

    def repeat(self, repeats, axis=None):
        return _manipulation.repeat(self, repeats, axis)

    def sum(self, *args, **kwargs):
        return _reductions.sum(self, *args, **kwargs)

    def prod(self, *args, **kwargs):
        return _reductions.prod(self, *args, **kwargs)

    def mean(self, *args, **kwargs):
        return _reductions.mean(self, *args, **kwargs)

    def var(self, *args, **kwargs):
        return _reductions.var(self, *args, **kwargs)

    def std(self, *args, **kwargs):
        return _reductions.std(self, *args, **kwargs)

    def min(self, *args, **kwargs):
        return _reductions.min(self, *args, **kwargs)

    def max(self, *args, **kwargs):
        return _reductions.max(self, *args, **kwargs)

    def argmin(self, *args, **kwargs):
        return _reductions.argmin(self, *args, **kwargs)

    def argmax(self, *args, **kwargs):
        return _reductions.argmax(self, *args, **kwargs)

    def any(self, *args, **kwargs):
        return _reductions.any(self, *args, **kwargs)

    def all(self, *args, **kwargs):
        return _reductions.all(self, *args, **kwargs)

    def cumsum(self, *args, **kwargs):
        return _reductions.cumsum(self, *args, **kwargs)

    def cumprod(self, *args, **kwargs):
        return _reductions.cumprod(self, *args, **kwargs)

    def nonzero(self):
        return _indexing.nonzero(self)

    def clip(self, min=None, max=None, out=None, **kwargs):
        return _elementwise.clip(self, min, max, out=out, **kwargs)

    def round(self, decimals=0, out=None):
        return _elementwise.round(self, decimals, out)

    def conj(self):
        return _elementwise.conjugate(self)

    def conjugate(self):
        return _elementwise.conjugate(self)

    def dot(self, b, out=None):
        return _linalg.dot(self, b, out=out)

    # -- indexing ---------------------------------------------------------------------------------------------
    def __getitem__(self, key):
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value):
        _indexing.setitem(self, key, value)

    # operators (arithmetic, comparisons, equality, in-place forms): _array_operators.py binds them


def wrap(value) -> ndarray:
    """Wrap a raw value (NumPy array, NumPy scalar, Tracer, a device buffer) as an ndarray.
    NumPy scalars become 0-d arrays."""
    t = type(value)
    if t is not _ndarray_np and t is not Tracer and t not in device_namespaces:
        value = np.asarray(value)
    out = _new(ndarray)
    out._value = value
    return out


def raw(x):
    """The raw operand for bind(): an ndarray's buffer or Tracer; scalars pass through; sequences convert."""
    t = type(x)
    if t is ndarray:
        return x._value
    if t is _ndarray_np or t is Tracer or t is float or t is int or t is bool or t is complex:
        return x
    if isinstance(x, np.generic):
        return x
    if isinstance(x, ndarray):
        return x._value
    if t in device_namespaces:  # a device buffer (e.g. cupy) stays where it is
        return x
    return _creation.asarray(x)._value


def _is_array_operand(x) -> bool:
    return isinstance(x, (ndarray, np.ndarray, np.generic, bool, int, float, complex, Tracer))


def is_tracing() -> bool:
    return current_trace() is not None


from arraystack import (
    _creation,
    _devices,
    _dlpack,
    _elementwise,
    _indexing,
    _interop,
    _linalg,
    _manipulation,
    _reductions,
    _ufunc_dispatch,
)

from arraystack import _array_operators  # noqa: E402,F401  (binds the operators onto ndarray)
