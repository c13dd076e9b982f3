"""The array type. An ndarray holds either a concrete buffer (a NumPy array; a CuPy array on a GPU) or a
Tracer of the graph being built, in `_value`; the same methods and operators serve both.

Operators and methods delegate to the family modules (elementwise, reductions, ...), which call bind();
they import ndarray, so the type reaches them through `families` (families.py), at call time. The
operators are bound (array_operators.install) as soon as the class is defined: ndarray is complete when
this module has run, whatever is imported first. Each attribute and method carries its NumPy-style
docstring beside its code.
"""

from __future__ import annotations

import copy as _copy
import math
import operator
from types import GenericAlias
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core import accelerator as _accelerator
from arraystack._core import devices as _devices
from arraystack._core.array_methods import ArrayMethods
from arraystack._core.array_operators import install as install_operators
from arraystack._core.families import families
from arraystack._transforms import aliasing as _aliasing
from arraystack._transforms import traced_scalars as _traced_scalars
from arraystack.ir.avals import bfloat16 as _bfloat16
from arraystack.ir.core import (
    ConcretizationError,
    Tracer,
    concretization_message,
    current_trace,
    device_namespaces,
    trace_state,
)
from arraystack.ir.core import active as _active

if TYPE_CHECKING:
    from typing import Any

    from arraystack._core.devices import Device
    from arraystack.typing import DTypeLike, ShapeLike

_ndarray_np = np.ndarray


# attributes of NumPy's scalars (float64's from Python's float) that NumPy's arrays do not have
_SCALAR_ONLY = frozenset(
    ("as_integer_ratio", "bit_count", "denominator", "fromhex", "hex", "is_integer", "numerator")
)


def _scalar_only(name: str) -> property:
    """The attribute `name` of NumPy's scalars: a scalar result's is its NumPy scalar's; any other array
    has none, as NumPy's arrays (AttributeError)."""

    def get(self):
        value = self._value
        if isinstance(value, np.generic):
            return getattr(value, name)
        raise AttributeError(f"'ndarray' object has no attribute '{name}'")

    return property(get, doc=f"NumPy's scalar's `{name}`, for a scalar result (see `wrap`).")


def _number_protocol(dtype, name: str, refused: str) -> None:
    """NumPy's TypeError for a scalar of `dtype` without the method `name` (for dtypes of kinds in
    `refused`)."""
    dtype = np.dtype(dtype)
    if dtype.kind in refused:
        raise TypeError(f"type numpy.{dtype.type.__name__} doesn't define {name} method")


if TYPE_CHECKING:  # static checkers see ndarray's operators declared (they are bound at import)
    from arraystack._core.array_operator_types import ArrayOperators as _ArrayBase
else:
    _ArrayBase = _accelerator.ArrayBase
_fastpath = _accelerator.fastpath  # the C accelerator, or None


class ndarray(_ArrayBase, ArrayMethods):
    """An array object represents a multidimensional, homogeneous array of fixed-size items.

    Eager arrays wrap a NumPy buffer: basic indexing gives views that alias it, and in-place
    operators write it. Inside a traced function (`jit`, `grad`, `vmap`, ...) the same type wraps a
    traced value, and in-place updates are recorded as new values (functionalized). Arrays are
    usually made with `array`, `asarray`, `zeros` or `empty`, not with this constructor.

    Parameters
    ----------
    shape : tuple of ints
        Shape of the created array.
    dtype : data-type, optional
        Any object that can be interpreted as a NumPy data type; float64 by default.
    buffer : object exposing buffer interface, optional
        Used to fill the array with data.
    offset : int, optional
        Offset of array data in buffer.
    strides : tuple of ints, optional
        Strides of data in memory.
    order : {'C', 'F'}, optional
        Row-major (C-style) or column-major (Fortran-style) order.

    Attributes
    ----------
    T, mT, base, device, dtype, flags, imag, itemsize, nbytes, ndim, real, shape, size, strides
        As in NumPy; see each attribute's documentation.

    See Also
    --------
    numpy.ndarray : The NumPy type this mirrors.
    array, asarray, zeros, empty

    Notes
    -----
    Without `buffer`, NumPy's constructor leaves the contents uninitialized; arraystack zero-fills
    them so they are deterministic.
    """

    __slots__ = ()
    __array_priority__ = 100

    def __init__(
        self,
        shape: ShapeLike,
        dtype: DTypeLike = float,
        buffer: Any = None,
        offset: int = 0,
        strides: ShapeLike | None = None,
        order: str | None = None,
    ) -> None:
        # Note: like numpy.ndarray(shape, dtype), this makes an uninitialized-looking array; arraystack
        # zero-fills it so its contents are deterministic.
        if buffer is not None:
            self._value = np.ndarray(shape, dtype, buffer, offset, strides, order)
        else:
            self._value = np.zeros(shape, dtype, order=order or "C")

    # -- attributes -------------------------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        """Tuple of array dimensions.

        See Also
        --------
        numpy.ndarray.shape : The NumPy attribute this mirrors.

        Notes
        -----
        Assigning to it reshapes the array in place where NumPy can without a copy (else
        AttributeError); a traced array is rebound to the reshaped value.
        """
        return self._value.shape

    @shape.setter
    def shape(self, value):
        current = self._value
        if type(current) is Tracer:
            if _aliasing.has_aliases(self):
                _aliasing.reshape_in_place(self, value)
            else:
                self._value = families.reshaping.reshape(self, value)._value
            return
        view = current.view()
        view.shape = value  # NumPy's in-place rule: AttributeError where a copy would be needed
        self._value = view

    @property
    def dtype(self) -> np.dtype:
        """Data-type of the array's elements.

        See Also
        --------
        numpy.ndarray.dtype : The NumPy attribute this mirrors.

        Notes
        -----
        arraystack uses NumPy's dtype objects themselves. Assigning to it reinterprets the array's
        memory in place, as `view(dtype)` does (a traced array only keeps its own dtype).
        """
        return self._value.dtype

    @dtype.setter
    def dtype(self, value):
        self._value = self.view(value)._value

    @property
    def ndim(self) -> int:
        """Number of array dimensions.

        See Also
        --------
        numpy.ndarray.ndim : The NumPy attribute this mirrors.
        """
        return self._value.ndim

    @property
    def size(self) -> int:
        """Number of elements in the array.

        See Also
        --------
        numpy.ndarray.size : The NumPy attribute this mirrors.
        """
        return self._value.size

    @property
    def itemsize(self) -> int:
        """Length of one array element in bytes.

        See Also
        --------
        numpy.ndarray.itemsize : The NumPy attribute this mirrors.
        """
        return self._value.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """Total bytes consumed by the elements of the array.

        See Also
        --------
        numpy.ndarray.nbytes : The NumPy attribute this mirrors.
        """
        return self._value.size * self._value.dtype.itemsize

    @property
    def T(self) -> ndarray:
        """View of the transposed array (``self.transpose()``).

        See Also
        --------
        numpy.ndarray.T : The NumPy attribute this mirrors.
        """
        return families.reshaping.transpose(self)

    def block_until_ready(self) -> ndarray:
        """Wait until this array is computed (a device's queued work done) and return it.

        Returns
        -------
        ndarray
            The array itself.

        See Also
        --------
        jax.numpy.ndarray.block_until_ready : The JAX method this mirrors.
        arraystack.block_until_ready : the function, for a pytree.
        """
        return families.device_put.block_until_ready(self)

    @property
    def at(self):
        """JAX's functional indexed updates: ``x.at[i].set(v)``, ``.add(v)``, ``.multiply(v)``,
        ``.min(v)``, ``.max(v)``, ``.apply(f)``, ``.get()`` ... return an updated copy and leave x as it is
        (see arraystack._indexing.at).

        See Also
        --------
        jax.numpy.ndarray.at : The JAX attribute this mirrors.
        """
        return families.at.IndexUpdates(self)

    @property
    def mT(self) -> ndarray:
        """View of the matrix transposed array: the last two axes swapped.

        See Also
        --------
        numpy.ndarray.mT : The NumPy attribute this mirrors.

        Notes
        -----
        Raises ValueError for arrays of fewer than two dimensions.
        """
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return families.reshaping.swapaxes(self, -1, -2)

    @property
    def strides(self) -> tuple[int, ...]:
        """Tuple of bytes to step in each dimension when traversing an array.

        See Also
        --------
        numpy.ndarray.strides : The NumPy attribute this mirrors.

        Notes
        -----
        A traced value's are those of the memory layout NumPy would give it (a jitted function
        that reads them is then keyed by its arguments' layouts).
        """
        if type(self._value) is Tracer:
            return families.traced_flags.traced_strides(self)
        return self._concrete("strides").strides

    @property
    def flags(self) -> Any:
        """Information about the memory layout of the array.

        See Also
        --------
        numpy.ndarray.flags : The NumPy attribute this mirrors.

        Notes
        -----
        A traced value's, to read, are those of the memory layout NumPy would give it (a jitted
        function that reads them is then keyed by its arguments' layouts).
        """
        if type(self._value) is Tracer:
            return families.traced_flags.traced_flags(self)
        return self._concrete("flags").flags

    @property
    def base(self) -> ndarray | None:
        # Note: a view's base is a new arraystack array on the same buffer, not the very object it
        # came from (`b.base is not None` holds as in NumPy, `b.base is a` does not); traced values
        # have none.
        """Base object if memory is from some other object.

        See Also
        --------
        numpy.ndarray.base : The NumPy attribute this mirrors.

        Notes
        -----
        A view's base is a new arraystack array on the same buffer, not the very object it came from
        (``b.base is not None`` holds as in NumPy, ``b.base is a`` does not); traced values have
        none.
        """
        value = self._value
        base = None if type(value) is Tracer else value.base
        return wrap(base) if type(base) is _ndarray_np else base

    @property
    def device(self) -> Device:
        """The device the array's buffer lives on (Array API).

        See Also
        --------
        numpy.ndarray.device : The NumPy attribute this mirrors.

        Notes
        -----
        Traced values report the default device, where the trace will run unless the planner places
        it elsewhere.
        """
        return _devices.device_of_buffer(self._value)

    @property
    def real(self) -> ndarray:
        """The real part of the array.

        See Also
        --------
        numpy.ndarray.real : The NumPy attribute this mirrors.

        Notes
        -----
        Assigning to it writes the real part in place (functionalized when traced).
        """
        return families.elementwise_functions.real(self)

    @real.setter
    def real(self, value):
        families.subscripts.set_part(self, "real", value)

    @property
    def imag(self) -> ndarray:
        """The imaginary part of the array.

        See Also
        --------
        numpy.ndarray.imag : The NumPy attribute this mirrors.

        Notes
        -----
        Assigning to it writes the imaginary part in place (functionalized when traced).
        """
        return families.elementwise_functions.imag(self)

    @imag.setter
    def imag(self, value):
        families.subscripts.set_part(self, "imag", value)

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
        if type(value) is not _ndarray_np:  # a NumPy scalar (a scalar result): as a 0-d array
            value = np.asarray(value)
        out = value if dtype is None else value.astype(dtype, copy=False)
        return out.copy() if copy else out

    @property
    def data(self) -> memoryview:
        """Python buffer object pointing to the start of the array's data.

        Mirrors numpy.ndarray.data: a memoryview of the host buffer, shared. An array on a device has
        none (its memory is not the host's: AttributeError); a traced value raises ConcretizationError.
        """
        value = self._scalar(".data")
        if isinstance(value, (_ndarray_np, np.generic)):
            return value.data
        raise AttributeError("only an array in host memory has .data; read it back with to_device('cpu')")

    @property
    def __array_interface__(self) -> dict:
        """NumPy's array interface of an array in host memory (its buffer's, shared: PIL's
        `Image.fromarray` and other consumers of the protocol read it); an array on a device, a traced
        value and a dtype NumPy does not define itself (bfloat16) have none, and `__array__` serves
        them."""
        value = self._value
        if isinstance(value, (_ndarray_np, np.generic)) and value.dtype.isbuiltin == 1:
            return value.__array_interface__
        raise AttributeError("only an array in host memory of a NumPy dtype has __array_interface__")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return families.ufunc_dispatch.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return families.interop.array_function(func, types, args, kwargs)

    def __array_namespace__(self, *, api_version=None):
        return families.interop.array_namespace(api_version)

    @property
    def __cuda_array_interface__(self) -> dict:
        """The CUDA Array Interface of an array on a CUDA device (its buffer's: cupy's), for zero-copy
        exchange with numba, cupy, torch; AttributeError for any other array, as the protocol expects."""
        value = self._value
        interface = None
        if type(value) in device_namespaces:
            interface = getattr(value, "__cuda_array_interface__", None)
        if interface is None:
            raise AttributeError("only an array on a CUDA device has __cuda_array_interface__")
        return interface

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return families.dlpack.dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        return families.dlpack.dlpack_device(self)

    def to_device(self, device: object, /, *, stream: object | None = None) -> ndarray:
        """Copy the array to a device (Array API).

        Parameters
        ----------
        device : str or Device
            The target device, e.g. 'cpu' or a key of `arraystack.devices()`.
        stream : object, optional
            Accepted for the Array API; unused.

        Returns
        -------
        out : ndarray
            The array on `device`; the array itself if it is there already.

        See Also
        --------
        numpy.ndarray.to_device : The NumPy method this mirrors.
        """
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
        return operator.index(self._scalar("__index__"))  # TypeError for non-integers, as NumPy

    def __round__(self, ndigits=None):
        # round() of a scalar result is its NumPy scalar's (`round(np.mean(a), 3)`); a NumPy array has no
        # __round__, and neither has a host 0-d array here; a 0-d array on a device or under a trace is
        # where NumPy would hold a scalar, so it rounds as that scalar would
        value = self._value
        if isinstance(value, np.generic):
            return round(value) if ndigits is None else _make(round(value, ndigits))
        if type(value) is _ndarray_np or value.ndim:
            raise TypeError("type ndarray doesn't define __round__ method")
        _number_protocol(value.dtype, "__round__", "bc")
        if ndigits is None:
            return round(self._scalar("round()").item())
        return self.round(ndigits)

    def __trunc__(self):
        # math.trunc(): NumPy's float64 scalars have it (a Python float subclass), its other scalars and
        # its arrays do not
        value = self._value
        if isinstance(value, np.generic):
            return math.trunc(value)
        if type(value) is _ndarray_np or value.ndim:
            raise TypeError("type ndarray doesn't define __trunc__ method")
        if value.dtype != np.float64:
            _number_protocol(value.dtype, "__trunc__", np.dtype(value.dtype).kind)
        return math.trunc(self._scalar("math.trunc()").item())

    def _scalar(self, what):
        value = self._value
        if type(value) is Tracer:
            return value.concrete(what)  # grad/jvp of concrete values answer; jit raises ConcretizationError
        return value

    def item(self, *args: int | tuple[int, ...]) -> Any:
        """Copy an element of an array to a standard Python scalar and return it.

        Parameters
        ----------
        *args : Arguments (variable number and type)
            None: the array must have one element; an int: a flat index; a tuple of ints:
            an index per axis.

        Returns
        -------
        z : Standard Python scalar object
            A copy of the specified element as a Python scalar.

        See Also
        --------
        numpy.ndarray.item : The NumPy method this mirrors.

        Notes
        -----
        Under `jit` the value is not known while tracing (ConcretizationError); under `grad`/`jvp`
        of concrete values it is.
        """
        return self._scalar(".item()").item(*args)

    def tolist(self) -> Any:
        """Return the array as an ``a.ndim``-levels deep nested list of Python scalars.

        Returns
        -------
        y : object, or list of object, or list of list of object, or ...
            The possibly nested list of array elements.

        See Also
        --------
        numpy.ndarray.tolist : The NumPy method this mirrors.

        Notes
        -----
        Concrete values only: under `jit` it raises ConcretizationError.
        """
        return self._scalar(".tolist()").tolist()

    def tobytes(self, order: str = "C") -> bytes:
        """Construct Python bytes containing the raw data bytes in the array.

        Parameters
        ----------
        order : {'C', 'F', 'A'}, optional
            Controls the memory layout of the bytes object; 'C' by default.

        Returns
        -------
        s : bytes
            Python bytes exhibiting a copy of the array's raw data.

        See Also
        --------
        numpy.ndarray.tobytes : The NumPy method this mirrors.

        Notes
        -----
        Concrete values only: under `jit` it raises ConcretizationError. An array on a device is
        read back (an explicit copy, as the result is host memory).
        """
        return _devices.host_values(self._scalar(".tobytes()")).tobytes(order)


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
            # views of the rows, as NumPy's iteration gives, or (1-d) its scalars, wrapped as scalar
            # results; a constant iterated inside a trace goes through wrap (it notes what it made).
            # An object or StringDType array's elements are Python objects, given as they are.
            if value.dtype.kind in "OT" and value.ndim == 1:
                return iter(value)
            return map(_make if not _active.n else wrap, value)
        return (self[i] for i in range(value.shape[0]))

    def __contains__(self, item):
        value = self._value
        if isinstance(value, (_ndarray_np, np.generic)) and not isinstance(item, ndarray):
            # NumPy's own test (incomparable types: False, as NumPy's); a scalar result as a 0-d array
            return item in (value if type(value) is _ndarray_np else np.asarray(value))
        return bool(families.reductions.any(families.elementwise.equal(self, item)))

    def __hash__(self):
        """A scalar result (an array holding a NumPy scalar, see `wrap`) hashes as that scalar, so it
        can key a dict or join a set as NumPy's scalars do; any other array is unhashable."""
        value = self._value
        if isinstance(value, np.generic):
            return hash(value)
        raise TypeError("unhashable type: 'arraystack.ndarray'")

    def __repr__(self):
        value = self._value
        if type(value) is Tracer:
            return f"ndarray(traced {value.aval.str_short()})"
        if isinstance(value, np.generic):
            return repr(value)
        if type(value) in device_namespaces:  # on a device: said, as PyTorch's tensors say it
            return f"{np.array_repr(value)[:-1]}, device='{_devices.device_of_buffer(value)}')"
        return np.array_repr(value)

    def __str__(self):
        value = self._value
        if type(value) is Tracer:
            return f"traced {value.aval.str_short()}"
        if isinstance(value, np.generic):
            return str(value)
        return np.array_str(value)

    def __format__(self, spec):
        value = self._value
        if type(value) is Tracer:
            return format(str(self), spec)
        if type(value) in device_namespaces:  # formatted from a host copy, as float(x) reads one
            value = _devices.host_values(value)
        return format(value, spec)

    def __copy__(self):
        out = families.basic.copy(self)  # NumPy's copy keeps the memory order ('K')
        return scalar_result(out) if _traced_scalars.holds_scalar(self) else out

    def __deepcopy__(self, memo):
        value = self._value
        if type(value) is _ndarray_np and value.dtype.hasobject:
            out = _make(_copy.deepcopy(value, memo))  # NumPy's: the elements are deep-copied too
        else:
            out = self.__copy__()
        memo[id(self)] = out
        return out

    def __reduce__(self):
        return (wrap, (self._scalar("pickling"),))

    __class_getitem__ = classmethod(GenericAlias)  # ndarray[shape, dtype] in annotations, as NumPy

    # -- indexing ---------------------------------------------------------------------------------------------
    def __getitem__(self, key):
        return families.subscripts.getitem(self, key)

    def __setitem__(self, key, value):
        families.subscripts.setitem(self, key, value)

    # operators (arithmetic, comparisons, equality, in-place forms): the C accelerator's slots serve them,
    # or array_operators.py binds them; array_operator_types.py declares them for type checkers


def _python_make(value):
    out = object.__new__(ndarray)
    out._value = value
    return out


# a new ndarray holding a raw value as it is
_make = _fastpath.new_array if _fastpath is not None else _python_make


def wrap(value) -> ndarray:
    """Wrap a raw value (NumPy array, NumPy scalar, Tracer, a device buffer) as an ndarray.

    A NumPy scalar stays one inside the array: a *scalar result*. Eager arraystack computes with NumPy,
    so its results are NumPy scalars exactly where NumPy's are (full reductions, integer indexing,
    iteration over a 1-d array, ufuncs of 0-d operands), and wrapped they print, hash and compute as
    NumPy's scalars do, while staying arraystack arrays of shape () (the Array API standard's 0-d arrays;
    `isinstance(x, arraystack.ndarray)` holds, `x.device` and the other methods work). Python numbers and
    everything else become arrays."""
    t = type(value)
    if (
        t is not _ndarray_np
        and t is not Tracer
        and t not in device_namespaces
        and not isinstance(value, np.generic)
    ):
        value = np.asarray(value)
    out = _make(value)
    if _active.n and (t is not Tracer or value.trace is not trace_state.top):
        _aliasing.note_made(out)  # a constant made while tracing: the traced function may write it
    return out


def scalar_result(x):
    """`x`, an eager 0-d result of a function NumPy returns a scalar from (its results go through
    PyArray_Return: dot, matmul, einsum, det, ...), as that scalar result (see `wrap`); a traced 0-d
    result or a device's 0-d array marked as one (see arraystack._transforms.traced_scalars); anything
    else (arrays of any other rank, non-arrays) as it is."""
    if type(x) is ndarray:
        value = x._value
        if type(value) is _ndarray_np:
            if not value.shape:
                item = value[()]  # an object array's element is the Python object itself, as NumPy's
                return _make(item) if isinstance(item, np.generic) else item
        elif not value.shape:  # a Tracer, or a device's 0-d array
            return _traced_scalars.mark(x)
    return x


def wrap_scalar(value) -> ndarray:
    """`wrap` for the result of an operation NumPy returns a scalar from when it is 0-d (a ufunc, a
    reduction): an eager 0-d array becomes that scalar result; a traced one, or a device's 0-d array
    (cupy has no scalars), is marked as one (see arraystack._transforms.traced_scalars)."""
    t = type(value)
    if t is _ndarray_np:
        if value.shape:
            return wrap(value)
        value = value[()]
    out = wrap(value)
    if t is Tracer or t in device_namespaces:
        _traced_scalars.mark(out)
    return out


def wrap_array(value) -> ndarray:
    """`wrap`, but a NumPy scalar becomes a 0-d array: what transformations (jit, grad, vmap, ...) return,
    as JAX's do, whatever their backend produced."""
    if isinstance(value, np.generic):
        value = np.asarray(value)
    return wrap(value)


def raw(x):
    """The raw operand for bind(): an ndarray's buffer or Tracer; scalars pass through; sequences convert."""
    t = type(x)
    if t is ndarray:
        return x._value
    if t is _ndarray_np:  # a big-endian array enters in native order (as in asarray)
        return x if x.dtype.isnative else x.astype(x.dtype.newbyteorder("="))
    if t is Tracer or t is float or t is int or t is bool or t is complex:
        return x
    if isinstance(x, np.generic):
        return x
    if isinstance(x, ndarray):
        return x._value
    if t in device_namespaces:  # a device buffer (e.g. cupy) stays where it is
        return x
    return families.basic.asarray(x)._value


def _is_array_operand(x) -> bool:
    return isinstance(x, (ndarray, np.ndarray, np.generic, bool, int, float, complex, Tracer))


def eager_buffer(x):
    """x's NumPy buffer when x is an arraystack array and no trace is active: a call on it may run NumPy's
    own function (what the composition of reference rules computes, without its Python steps); else None.
    A bfloat16 buffer gives None: its reference rules differ from NumPy with ml_dtypes (float32
    accumulation, bfloat16 matmul results)."""
    if type(x) is ndarray and not _active.n:
        value = x._value
        if type(value) is _ndarray_np and value.dtype is not _bfloat16:
            return value
    return None


def is_tracing() -> bool:
    return current_trace() is not None


install_operators(ndarray)
for _name in _SCALAR_ONLY:
    setattr(ndarray, _name, _scalar_only(_name))
