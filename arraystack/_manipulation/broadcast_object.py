"""The broadcast object (numpy/_core/multiarray): the shape of several arrays broadcast together
and a joint iterator over their elements.

Its shape and errors come from NumPy's own broadcast of stand-ins (no memory of their own); the
elements are read from arraystack.broadcast_to views, so iterating traced arrays yields traced 0-d
arrays.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.stride_tricks import as_strided

import arraystack as anp

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray

__all__ = ["broadcast"]


class _BroadcastIterator:
    """A flat iterator over one broadcast argument; it moves with its broadcast object."""

    def __init__(self, view):
        self._view = view
        self.index = 0

    def _read(self):
        size = self._view.size
        return self._view[np.unravel_index(self.index % size, self._view.shape)]

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self._view.size:
            raise StopIteration
        value = self._read()
        self.index += 1
        return value

    def __len__(self):
        return self._view.size


class broadcast:  # NumPy's class name (lower case)
    """Produce an object that mimics broadcasting.

    Parameters
    ----------
    *args : array_like
        Input parameters (arrays, scalars or other broadcast objects, whose arguments join).

    Returns
    -------
    b : broadcast object
        Broadcast the input parameters against one another, and return an object that encapsulates
        the result. Amongst others, it has ``shape`` and ``nd`` properties, and may be used as an
        iterator.

    Attributes
    ----------
    index : int
        Current index in the broadcasted result.
    iters : tuple of iterators
        The iterators along the arguments, broadcast to the result's shape.
    nd, ndim : int
        Number of dimensions of the broadcasted result.
    numiter : int
        Number of iterators possessed by the broadcasted result.
    shape : tuple
        Shape of the broadcasted result.
    size : int
        Total size of the broadcasted result.

    See Also
    --------
    numpy.broadcast : The NumPy class this mirrors.
    broadcast_arrays, broadcast_to, broadcast_shapes
    """

    def __init__(self, *args: ArrayLike) -> None:
        arrays = []
        for arg in args:
            if isinstance(arg, broadcast):
                arrays.extend(it._view for it in arg._iters)
            else:
                arrays.append(anp.asarray(arg))
        stand_ins = [as_strided(np.zeros(1, np.uint8), a.shape, (0,) * a.ndim) for a in arrays]
        self.shape = np.broadcast(*stand_ins).shape  # NumPy's checks and messages
        self._iters = tuple(_BroadcastIterator(anp.broadcast_to(a, self.shape)) for a in arrays)
        self.index = 0

    @property
    def nd(self) -> int:
        return len(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def numiter(self) -> int:
        return len(self._iters)

    @property
    def iters(self) -> tuple[_BroadcastIterator, ...]:
        return self._iters

    def reset(self) -> None:
        """Reset the broadcasted result's iterator(s).

        Returns
        -------
        None

        See Also
        --------
        numpy.broadcast.reset : The NumPy method this mirrors.
        """
        self.index = 0
        for it in self._iters:
            it.index = 0

    def __iter__(self) -> broadcast:
        return self

    def __next__(self) -> tuple[NDArray, ...]:
        if self.index >= self.size:
            raise StopIteration
        values = tuple(it._read() for it in self._iters)
        for it in self._iters:
            it.index += 1
        self.index += 1
        return values
