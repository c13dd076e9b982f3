"""`a.flat`: NumPy's flat iterator over an arraystack array, in C order whatever the memory layout.

Eagerly, reads and writes go through NumPy's own `flatiter` of the buffer, so results, errors and the
cyclic repetition of too few values in `a.flat[idx] = v` are NumPy's, and writes change the buffer.
While tracing, a read is `a.reshape(-1)[key]` and a write is recorded as a new value of the whole array
(functionalized like `a[...] = v`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack._core.array_memory import host_buffer
from arraystack._core.families import families
from arraystack.ir.core import Tracer, active

if TYPE_CHECKING:
    from arraystack._core.array import ndarray

_TOO_MANY = (
    "too many indices for flat iterator: flat iterator is 1-dimensional, but {} were indexed"
)


class flatiter:
    """Flat iterator object to iterate over arrays: ``a.flat``.

    It iterates over the elements of `base` in C order (the last index varying fastest) whatever the
    memory layout, and can be indexed like a 1-d array: an integer gives one element, slices, integer
    arrays and boolean arrays give 1-d copies, and assigning through an index writes `base`.

    Parameters
    ----------
    base : ndarray
        The array iterated over (made by ``a.flat``, not by calling this class).

    Attributes
    ----------
    base : ndarray
        The array being iterated over (the very object ``a`` of ``a.flat``).
    index : int
        The flat index of the next element iteration gives.
    coords : tuple of ints
        The N-dimensional index of the next element iteration gives.

    See Also
    --------
    numpy.flatiter : The NumPy type this mirrors.
    ndarray.flat : The attribute that makes one.

    Notes
    -----
    While tracing (`jit`, `grad`, `vmap`), reads are ``a.reshape(-1)[key]`` and writes rebind `a` to a
    new value (functionalized). Assigning fewer values than selected elements repeats them cyclically,
    as in NumPy.
    """

    __slots__ = ("_base", "_index")

    def __init__(self, base: ndarray) -> None:
        self._base = base
        self._index = 0

    @property
    def base(self) -> ndarray:
        """The array being iterated over.

        See Also
        --------
        numpy.flatiter.base : The NumPy attribute this mirrors.
        """
        return self._base

    @property
    def index(self) -> int:
        """The flat index of the next element that iteration gives.

        See Also
        --------
        numpy.flatiter.index : The NumPy attribute this mirrors.
        """
        return self._index

    @property
    def coords(self) -> tuple[int, ...]:
        """The N-dimensional index of the next element that iteration gives.

        See Also
        --------
        numpy.flatiter.coords : The NumPy attribute this mirrors.
        """
        shape = self._base.shape
        if self._index >= max(_size(shape), 1):
            return tuple(shape)  # NumPy's coords past the end
        return tuple(int(i) for i in np.unravel_index(self._index, shape))

    def __len__(self) -> int:
        return _size(self._base.shape)

    def __iter__(self) -> flatiter:
        return self

    def __next__(self) -> Any:
        shape = self._base.shape
        if self._index >= _size(shape):
            raise StopIteration
        coords = tuple(int(i) for i in np.unravel_index(self._index, shape))
        self._index += 1
        return self._base[coords]

    def __getitem__(self, key: Any) -> Any:
        value = None if active.n else host_buffer(self._base)
        if value is not None:
            return families.array.wrap(value.flat[_host_key(key)])
        return families.reshaping.reshape(self._base, (-1,))[_traced_key(key)]

    def __setitem__(self, key: Any, values: Any) -> None:
        base = self._base
        value = None if active.n else host_buffer(base)
        if value is not None:
            value.flat[_host_key(key)] = _host_key(values)
            return
        flat = families.reshaping.reshape(base, (-1,))
        key = _traced_key(key)
        selected = flat[key]
        values = families.basic.asarray(values, dtype=base.dtype)
        if values.size != selected.size and values.size != 1:
            # NumPy repeats the values cyclically over the selected elements
            values = families.reshaping.reshape(values, (-1,))
            positions = np.arange(selected.size) % max(values.size, 1)
            values = families.reshaping.reshape(values[positions], selected.shape)
        elif values.size == selected.size and selected.size:
            values = families.reshaping.reshape(values, selected.shape)
        else:
            values = families.reshaping.reshape(values, ())
        flat[key] = values
        families.subscripts.setitem(base, Ellipsis, families.reshaping.reshape(flat, base.shape))

    def copy(self) -> ndarray:
        """Get a copy of the iterator as a 1-D array.

        Returns
        -------
        out : ndarray
            The elements of `base` in C order, as a new 1-d array.

        See Also
        --------
        numpy.flatiter.copy : The NumPy method this mirrors.
        """
        return families.basic.copy(families.reshaping.reshape(self._base, (-1,)))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = np.asarray(self._base).reshape(-1)
        return out if dtype is None else out.astype(dtype)

    def __repr__(self) -> str:
        return f"<arraystack.flatiter of {self._base!r}>"


def _size(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _host_key(key):
    """A key (or values) for NumPy's flatiter: arraystack arrays as their buffers."""
    ndarray = families.array.ndarray
    if isinstance(key, ndarray):
        return np.asarray(key)
    if type(key) is tuple:
        return tuple(_host_key(k) for k in key)
    return key


def _traced_key(key):
    """NumPy's flatiter rules for a key of the 1-d flat value: one item at most."""
    if type(key) is tuple:
        if len(key) > 1:
            raise IndexError(_TOO_MANY.format(len(key)))
        key = key[0] if key else Ellipsis
    if key is None:
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are valid "
            "indices"
        )
    value = getattr(key, "_value", key)
    is_array = type(value) is Tracer or isinstance(value, np.ndarray)
    if is_array and value.dtype.kind == "b" and value.ndim > 1:
        raise IndexError(_TOO_MANY.format(value.ndim))
    return key
