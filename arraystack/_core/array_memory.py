"""ndarray's methods about its memory: views by dtype or type, the flat iterator, resizing and byte
swapping in place, flags, ctypes and the buffer protocol. A base class of ArrayMethods (array_methods.py).

Eager arrays hold NumPy buffers, so each method is NumPy's own on the buffer: the same aliasing and the
same errors. A traced value has no memory; what can be said as an operation of the graph is (a view of
the same dtype, reads and writes of `flat`); the rest raises a TracerError naming the method and line.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack._core.families import families
from arraystack._transforms.traced_scalars import mark, marked_scalar
from arraystack.ir.core import (
    ConcretizationError,
    Tracer,
    concretization_message,
    user_line,
)

if TYPE_CHECKING:
    from arraystack._core.array import ndarray
    from arraystack._core.flatiter import flatiter
    from arraystack.typing import DTypeLike


class MemoryMethods:
    """ndarray's methods on its buffer: view, flat, resize, byteswap, setflags, ctypes."""

    __slots__ = ()

    def view(self, dtype: DTypeLike | type | None = None, type: type | None = None) -> Any:
        """New view of array with the same data.

        Parameters
        ----------
        dtype : data-type or ndarray sub-class, optional
            Data-type descriptor of the returned view, e.g. float32 or int16; the array's own by
            default. A subclass of ndarray here is taken as `type`.
        type : Python type, optional
            Type of the returned view: arraystack.ndarray (default) or a subclass of it, or a
            subclass of numpy.ndarray (a NumPy view of the same buffer).

        Returns
        -------
        out : ndarray
            A view of the array's memory: writing through it changes the array.

        See Also
        --------
        numpy.ndarray.view : The NumPy method this mirrors.

        Notes
        -----
        While tracing, a view of the same dtype aliases the array as basic indexing does; a view as
        another dtype reads its bits (the bitcast primitive), and writes through it reach the array.
        Bits have no derivative: grad sees a constant through such a view, as JAX's
        bitcast_convert_type.
        """
        if type is None and _is_array_type(dtype):
            dtype, type = None, dtype
        if type is not None and not _is_array_type(type):
            raise ValueError("Type must be a sub-type of ndarray type")
        value = self._value
        if isinstance(value, np.generic):
            value = host_buffer(self)
        array = families.array
        if isinstance(value, Tracer):
            if dtype is not None and np.dtype(dtype) != value.dtype:
                from arraystack._transforms.bitcast_views import traced_view

                out = traced_view(self, dtype)
            else:
                out = self[...]
        else:
            raw = value.view() if dtype is None else value.view(dtype)
            if type is not None and issubclass(type, np.ndarray):
                return raw.view(type)  # a NumPy subclass (matrix, recarray, ...) on the same buffer
            out = array.wrap(raw)
            if marked_scalar(self):  # a device's scalar result: NumPy's scalar view is a new scalar
                out = mark(array.wrap(raw.copy()))
        if type is None or type is array.ndarray:
            return out
        view = type.__new__(type)
        view._value = out._value
        finalize = getattr(view, "__array_finalize__", None)
        if finalize is not None:
            finalize(self)
        return view

    @property
    def flat(self) -> flatiter:
        """A 1-D iterator over the array, in C order.

        Indexing it reads elements (``a.flat[3]``, ``a.flat[1:5]``, ``a.flat[[0, -1]]``) and
        assigning through it writes the array (``a.flat[idx] = v``; ``a.flat = v`` sets every
        element, repeating `v` cyclically).

        See Also
        --------
        numpy.ndarray.flat : The NumPy attribute this mirrors.
        flatiter : The iterator's type.
        """
        from arraystack._core.flatiter import flatiter  # it imports host_buffer from here

        return flatiter(self)

    @flat.setter
    def flat(self, values):
        self.flat[...] = values

    def resize(self, *new_shape: Any, refcheck: bool = True) -> None:
        """Change shape and size of array in-place.

        Parameters
        ----------
        new_shape : tuple of ints, or `n` ints
            Shape of resized array; missing elements are filled with zeros.
        refcheck : bool, optional
            If False, reference count will not be checked; True by default.

        Returns
        -------
        None

        Raises
        ------
        ValueError
            If the array does not own its own data, or references or is referenced by another array
            and `refcheck` is true.

        See Also
        --------
        numpy.ndarray.resize : The NumPy method this mirrors.
        arraystack.resize : Return a new array of the given shape, repeating the data.

        Notes
        -----
        Concrete arrays only: a traced value has no buffer to resize (ConcretizationError).
        """
        self._memory("resize()", "Use arraystack.resize(a, new_shape), which returns a new array.")
        # the buffer is read from the slot without a local name, so that NumPy's reference check
        # counts this array's own reference (and its views') as it would for a NumPy array
        self._value.resize(*new_shape, refcheck=refcheck)

    def byteswap(self, inplace: bool = False) -> ndarray:
        """Swap the bytes of the array elements.

        Parameters
        ----------
        inplace : bool, optional
            If True, swap bytes in-place; False by default.

        Returns
        -------
        out : ndarray
            The byteswapped array; the array itself when `inplace`.

        See Also
        --------
        numpy.ndarray.byteswap : The NumPy method this mirrors.

        Notes
        -----
        Concrete arrays only (a traced value raises ConcretizationError): swapping bytes reinterprets
        bits, and arraystack's IR has no bitcast primitive.
        """
        value = self._memory("byteswap()")
        if inplace:
            value.byteswap(inplace=True)
            return self
        return families.array.wrap(value.byteswap())

    def getfield(self, dtype: DTypeLike, offset: int = 0) -> ndarray:
        """Returns a field of the given array as a certain type.

        Parameters
        ----------
        dtype : str or dtype
            The data type of the view; its size must fit in the array's items.
        offset : int
            Number of bytes to skip before beginning the element view.

        Returns
        -------
        out : ndarray
            A view of the array's memory (writes go through).

        See Also
        --------
        numpy.ndarray.getfield : The NumPy method this mirrors.
        view, setfield

        Notes
        -----
        Concrete arrays only (a traced value raises ConcretizationError): it reinterprets bits.
        """
        return families.array.wrap(self._memory("getfield()").getfield(dtype, offset))

    def setfield(self, val: Any, dtype: DTypeLike, offset: int = 0) -> None:
        """Put a value into a specified place in a field defined by a data-type.

        Parameters
        ----------
        val : object
            Value to be placed in field.
        dtype : dtype object
            Data-type of the field in which to place `val`.
        offset : int, optional
            The number of bytes into the field at which to place `val`.

        Returns
        -------
        None

        See Also
        --------
        numpy.ndarray.setfield : The NumPy method this mirrors.
        getfield

        Notes
        -----
        Concrete arrays only (a traced value raises ConcretizationError): it writes bits.
        """
        value = getattr(val, "_value", val)
        self._memory("setfield()").setfield(value, dtype, offset)

    def setflags(
        self, write: bool | None = None, align: bool | None = None, uic: bool | None = None
    ) -> None:
        """Set array flags WRITEABLE, ALIGNED and WRITEBACKIFCOPY.

        Parameters
        ----------
        write : bool, optional
            Whether the array can be written to; a read-only array raises ValueError on writes.
        align : bool, optional
            Describes whether the array is aligned for its type.
        uic : bool, optional
            Sets WRITEBACKIFCOPY (only False is allowed, as in NumPy).

        Returns
        -------
        None

        See Also
        --------
        numpy.ndarray.setflags : The NumPy method this mirrors.

        Notes
        -----
        Concrete arrays only: a traced value has no flags (ConcretizationError).
        """
        self._memory("setflags()").setflags(write=write, align=align, uic=uic)

    @property
    def ctypes(self) -> Any:
        """An object to simplify the interaction of the array with the ctypes module.

        See Also
        --------
        numpy.ndarray.ctypes : The NumPy attribute this mirrors.

        Notes
        -----
        NumPy's own ``_ctypes`` object of the buffer; concrete arrays only (ConcretizationError).
        """
        return self._memory("ctypes").ctypes

    def _memory(self, what: str, fix: str | None = None) -> np.ndarray:
        """The NumPy buffer, or ConcretizationError naming `what` for a traced (or device) value."""
        buffer = host_buffer(self)
        if buffer is not None:
            return buffer
        value = self._value
        if isinstance(value, Tracer):
            fix = fix or "It exists only for concrete arrays: call it outside jit/grad/vmap."
            raise ConcretizationError(
                concretization_message(f"{what} was requested", value.aval, fix)
            )
        raise TypeError(f"{what} needs an array in host memory; this one lives on {self.device}")

    if sys.version_info >= (3, 12):  # Python classes may offer the buffer protocol (PEP 688)

        def __buffer__(self, flags: int) -> memoryview:
            buffer = host_buffer(self)
            if buffer is None:
                raise BufferError(_buffer_message(self._value))
            return memoryview(buffer)


def host_buffer(x) -> np.ndarray | None:
    """x's NumPy buffer, or None for a traced value or a device buffer. A NumPy scalar that a 0-d
    array holds becomes a 0-d buffer first, so that views, `flat` writes and in-place changes have
    memory to alias, as a NumPy 0-d array does."""
    value = x._value
    if type(value) is np.ndarray:
        return value
    if isinstance(value, np.generic):
        x._value = value = np.array(value)
        return value
    return None


def _is_array_type(obj) -> bool:
    return isinstance(obj, type) and issubclass(obj, (np.ndarray, families.array.ndarray))


def _buffer_message(value) -> str:
    if isinstance(value, Tracer):
        return (
            f"a traced value {value.aval.str_short()} has no buffer (memoryview, bytes, struct) at "
            f"{user_line()}: it exists only for concrete arrays"
        )
    return "arraystack: this array's buffer is not in host memory (copy it with to_device('cpu'))"
