"""Python-level iteration over arrays: ndindex, ndenumerate and nditer (read-only).

Shapes are static, so the index sequences are plain Python; elements are read by indexing, so iterating
a traced array yields traced 0-d values.
"""

from __future__ import annotations

import itertools
import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._creation.basic import asarray, astype
from arraystack._core.dtypes import result_type
from arraystack._manipulation.reshaping import broadcast_to
from arraystack.ir.core import Tracer

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike


class ndindex:
    """An N-dimensional iterator object to index arrays.

    Iterating over it gives the index tuples of the shape, in C order (the last index varies
    fastest).

    Parameters
    ----------
    *shape : ints, or a single tuple of ints
        The size of each dimension of the array.

    Yields
    ------
    index : tuple of ints
        The next index tuple.

    See Also
    --------
    numpy.ndindex : The NumPy function this mirrors.
    ndenumerate, nditer
    """

    def __init__(self, *shape: int | tuple[int, ...]) -> None:
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        self._it = itertools.product(*(range(operator.index(d)) for d in shape))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


class ndenumerate:
    """Multidimensional index iterator: pairs of array coordinates and values.

    Parameters
    ----------
    arr : ndarray
        Input array.

    Yields
    ------
    (index, value) : tuple
        The index tuple, in C order, and the element as a 0-d arraystack array.

    See Also
    --------
    numpy.ndenumerate : The NumPy function this mirrors.
    ndindex, nditer

    Notes
    -----
    NumPy yields scalars; arraystack yields 0-d arrays.
    """

    def __init__(self, arr: ArrayLike) -> None:
        self._arr = asarray(arr)
        self._it = ndindex(self._arr.shape)

    def __iter__(self):
        return self

    def __next__(self):
        index = next(self._it)
        return index, self._arr[index]


class nditer:
    """Efficient multi-dimensional iterator object to iterate over arrays (for reading).

    Parameters
    ----------
    op : ndarray or sequence of array_like
        The array(s) to iterate over; they broadcast together.
    flags : sequence of str, optional
        Flags to control the behavior of the iterator: multi_index, c_index, f_index, refs_ok,
        zerosize_ok, buffered, common_dtype, grow_inner, delay_bufalloc, reduce_ok and ranged are
        accepted.
    op_flags : list of list of str, optional
        Per-operand flags; only reading ones (readonly, copy, nbo, aligned, contig, no_broadcast).
    op_dtypes : dtype or tuple of dtype(s), optional
        The required data type(s) of the operands.
    order : {'C', 'F', 'A', 'K'}, optional
        The iteration order: C, F, or (for 'K' and 'A') memory order.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        What kind of casting may occur for `op_dtypes`.
    op_axes : list of list of ints, optional
        The axes of each operand mapped to the iterator's axes.
    itershape : tuple of ints, optional
        The desired shape of the iterator.
    buffersize : int, optional
        Accepted for compatibility (arraystack does not buffer).

    Yields
    ------
    value : ndarray or tuple of ndarray
        The current element of each operand, as 0-d arrays.

    See Also
    --------
    numpy.nditer : The NumPy function this mirrors.
    ndindex, ndenumerate

    Notes
    -----
    Writing operands (readwrite/writeonly) are not supported.
    """

    _READ_FLAGS = frozenset({"readonly", "copy", "nbo", "aligned", "contig", "no_broadcast"})
    _FLAGS = frozenset(
        {
            "multi_index",
            "c_index",
            "f_index",
            "refs_ok",
            "zerosize_ok",
            "buffered",
            "common_dtype",
            "grow_inner",
            "delay_bufalloc",
            "reduce_ok",
            "ranged",
        }
    )

    def __init__(
        self,
        op: ArrayLike | Sequence[ArrayLike],
        flags: Sequence[str] | None = None,
        op_flags: Sequence[Any] | None = None,
        op_dtypes: Any = None,
        order: str = "K",
        casting: str = "safe",
        op_axes: Sequence[Any] | None = None,
        itershape: tuple[int, ...] | None = None,
        buffersize: int = 0,
    ) -> None:
        single = not isinstance(op, (list, tuple))
        ops = [asarray(o) for o in ([op] if single else op)]
        flags = set(flags or ())
        unknown = flags - self._FLAGS
        if unknown:
            raise ValueError(
                f"nditer flags {sorted(unknown)} are not supported by arraystack.nditer"
            )
        for f in op_flags or ():
            for name in [f] if isinstance(f, str) else f:
                if name not in self._READ_FLAGS:
                    raise ValueError(
                        f"arraystack.nditer is read-only: op_flags {name!r} is not supported"
                    )
        if op_axes is not None or itershape is not None:
            raise ValueError("arraystack.nditer does not support op_axes or itershape")
        if "common_dtype" in flags or op_dtypes is not None:
            dtypes = op_dtypes if isinstance(op_dtypes, (list, tuple)) else [op_dtypes] * len(ops)
            if "common_dtype" in flags:
                dtypes = [result_type(*ops)] * len(ops)
            ops = [o if d is None else astype(o, d) for o, d in zip(ops, dtypes)]
        shape = np.broadcast_shapes(*(o.shape for o in ops))
        if 0 in shape and "zerosize_ok" not in flags:
            raise ValueError("Iteration of zero-sized operands is not enabled")
        self.operands = tuple(ops)
        self._views = [broadcast_to(o, shape) for o in ops]
        self._single, self._flags, self.shape = single, flags, shape
        self._f_order = order == "F" or (order in ("K", "A") and self._fortran(ops))
        self.reset()

    @staticmethod
    def _fortran(ops):
        values = [o._value for o in ops if o.ndim > 1]
        return bool(values) and all(
            type(v) is not Tracer and v.flags.f_contiguous and not v.flags.c_contiguous
            for v in values
        )

    def reset(self):
        ranges = [range(d) for d in self.shape]
        if self._f_order:
            order = (tuple(reversed(t)) for t in itertools.product(*reversed(ranges)))
        else:
            order = itertools.product(*ranges)
        self._indices = list(order)
        self.iterindex = 0
        self._started = False

    ndim = property(lambda self: len(self.shape))
    itersize = property(lambda self: len(self._indices))
    finished = property(lambda self: self.iterindex >= len(self._indices))

    @property
    def multi_index(self):
        if "multi_index" not in self._flags:
            raise ValueError("Iterator is not tracking a multi-index")
        return self._indices[self.iterindex]

    @property
    def index(self):
        if not {"c_index", "f_index"} & self._flags:
            raise ValueError("Iterator does not have an index")
        order = "F" if "f_index" in self._flags else "C"
        at = self._indices[self.iterindex]
        return int(np.ravel_multi_index(at, self.shape, order=order)) if at else 0

    @property
    def value(self):
        at = self._indices[self.iterindex]
        values = tuple(v[at] for v in self._views)
        return values[0] if self._single else values

    def __getitem__(self, i):
        at = self._indices[self.iterindex]
        return self._views[i][at]

    def iternext(self):
        self.iterindex += 1
        self._started = True
        return not self.finished

    def __iter__(self):
        return self

    def __next__(self):
        # Python iteration visits the current element first; the indices refer to it inside the loop
        if self._started:
            self.iterindex += 1
        self._started = True
        if self.finished:
            raise StopIteration
        return self.value

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass


__all__ = ["ndenumerate", "ndindex", "nditer"]
