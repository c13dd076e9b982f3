"""Python-level iteration over arrays: ndindex, ndenumerate and nditer.

Shapes are static, so the index sequences are plain Python; elements are read by indexing, so iterating
a traced array yields traced 0-d values.
"""

from __future__ import annotations

import itertools
import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.dtypes import result_type
from arraystack._creation.basic import asarray, astype
from arraystack._creation.filled import empty
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
    """Efficient multi-dimensional iterator object to iterate over arrays.

    Parameters
    ----------
    op : ndarray or sequence of array_like
        The array(s) to iterate over; they broadcast together. None, with the "allocate" op flag, is an
        output the iterator makes (of the broadcast shape; dtype from `op_dtypes`, else the inputs'
        result type), found in `operands` afterwards.
    flags : sequence of str, optional
        Flags to control the behavior of the iterator: external_loop (yield 1-d chunks: each the
        innermost axes that every operand can walk with one stride), multi_index, c_index, f_index,
        refs_ok, zerosize_ok, buffered, common_dtype, grow_inner, delay_bufalloc, reduce_ok and
        ranged.
    op_flags : list of list of str, optional
        Per-operand flags: readonly (the default), readwrite, writeonly, allocate, and copy, nbo,
        aligned, contig, no_broadcast, updateifcopy, no_subtype.
    op_dtypes : dtype or tuple of dtype(s), optional
        The required data type(s) of the operands.
    order : {'C', 'F', 'A', 'K'}, optional
        The iteration order: C, F, or (for 'K' and 'A') memory order.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        What kind of casting may occur for `op_dtypes`.
    op_axes : list of list of ints, optional
        Not supported (ValueError).
    itershape : tuple of ints, optional
        Not supported (ValueError).
    buffersize : int, optional
        Accepted for compatibility (arraystack does not buffer).

    Yields
    ------
    value : ndarray or tuple of ndarray
        The current element of each operand, as a 0-d view of it (so `x[...] = v` writes a
        readwrite operand), or with external_loop a 1-d view.

    See Also
    --------
    numpy.nditer : The NumPy function this mirrors.
    ndindex, ndenumerate

    Notes
    -----
    A written operand must have the broadcast shape and cannot be cast by `op_dtypes` (both raise, as
    NumPy's do without buffering); the views write it directly, so closing the iterator has nothing to
    write back.
    """

    _OP_FLAGS = frozenset(
        {
            "readonly",
            "readwrite",
            "writeonly",
            "allocate",
            "copy",
            "nbo",
            "aligned",
            "contig",
            "no_broadcast",
            "updateifcopy",
            "no_subtype",
        }
    )
    _FLAGS = frozenset(
        {
            "external_loop",
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
        given = [op] if single else list(op)
        flags = set(flags or ())
        unknown = flags - self._FLAGS
        if unknown:
            raise ValueError(
                f"nditer flags {sorted(unknown)} are not supported by arraystack.nditer"
            )
        if op_axes is not None or itershape is not None:
            raise ValueError("arraystack.nditer does not support op_axes or itershape")
        per_op = self._op_flags(op_flags, len(given))
        if op_flags is None:  # NumPy's default: an output to make for each None operand
            per_op = [{"writeonly", "allocate"} if o is None else f for o, f in zip(given, per_op)]
        if "multi_index" in flags and "external_loop" in flags:
            raise ValueError(
                "Iterator flag EXTERNAL_LOOP cannot be used if an index or multi-index is being tracked"
            )
        dtypes = op_dtypes if isinstance(op_dtypes, (list, tuple)) else [op_dtypes] * len(given)
        ops = [None if o is None else asarray(o) for o in given]
        inputs = [o for o in ops if o is not None]
        if "common_dtype" in flags:
            dtypes = [result_type(*inputs)] * len(ops)
        for k, (o, d) in enumerate(zip(ops, dtypes)):
            if o is None:
                continue
            if d is not None and np.dtype(d) != o.dtype:
                if "readwrite" in per_op[k] or "writeonly" in per_op[k]:
                    raise TypeError(
                        f"arraystack.nditer cannot cast written operand {k} from {o.dtype} to "
                        f"{np.dtype(d)} (it writes the operand in place, without a buffer)"
                    )
                if not np.can_cast(o.dtype, d, casting):
                    raise TypeError(
                        f"Iterator operand {k} dtype could not be cast from {o.dtype!r} to "
                        f"{np.dtype(d)!r} according to the rule {casting!r}"
                    )
                ops[k] = astype(o, d)
        shape = np.broadcast_shapes(*(o.shape for o in ops if o is not None))
        for k, o in enumerate(ops):
            if o is None:
                if "allocate" not in per_op[k]:
                    raise ValueError(
                        "Iterator operand 0 is null, but the allocate flag is not set".replace(
                            "0", str(k)
                        )
                    )
                dtype = dtypes[k] if dtypes[k] is not None else result_type(*inputs)
                ops[k] = empty(shape, dtype=dtype)
            elif ("readwrite" in per_op[k] or "writeonly" in per_op[k]) and o.shape != shape:
                raise ValueError(
                    f"non-broadcastable output operand with shape {o.shape} doesn't match the "
                    f"broadcast shape {shape}"
                )
        if 0 in shape and "zerosize_ok" not in flags:
            raise ValueError("Iteration of zero-sized operands is not enabled")
        self.operands = tuple(ops)
        self._views = [o if o.shape == shape else broadcast_to(o, shape) for o in ops]
        self._single, self._flags, self.shape = single, flags, shape
        self._f_order = order == "F" or (order in ("K", "A") and self._fortran(ops))
        self._chunk = self._chunk_axes() if "external_loop" in flags else 0
        # order 'K' element by element: the axes in the operands' memory order, as NumPy's
        self._walk = self._memory_walk() if order == "K" and not self._chunk else None
        self.reset()

    def _memory_walk(self):
        """(axes from the slowest to the fastest, the axes walked backwards): nditer's order 'K'
        (its axis sort over every operand, and the axes whose strides are all negative flipped)."""
        from arraystack._transforms.result_layouts import k_order_strides

        layouts = [_layout(v) for v in self._views]
        ndim = len(self.shape)
        pairs = [(lay.shape, lay.strides) for lay in layouts if lay.ndim]
        flips = set()
        for axis in range(ndim):
            steps = [lay.strides[axis] for lay in layouts if lay.ndim and lay.shape[axis] > 1]
            if steps and all(st <= 0 for st in steps) and any(st < 0 for st in steps):
                flips.add(axis)
        full = k_order_strides(pairs, self.shape, 1)
        return sorted(range(ndim), key=lambda a: -full[a]), flips

    @classmethod
    def _op_flags(cls, op_flags, n):
        """Each operand's set of flags (one list for all operands, or a list per operand)."""
        if op_flags is None:
            return [set() for _ in range(n)]
        if all(isinstance(f, str) for f in op_flags):
            op_flags = [op_flags] * n
        if len(op_flags) != n:
            raise ValueError(f"op_flags must be a tuple/list matching the number of ops ({n})")
        per_op = [{f} if isinstance(f, str) else set(f) for f in op_flags]
        for flags in per_op:
            unknown = flags - cls._OP_FLAGS
            if unknown:
                raise ValueError(
                    f"nditer op_flags {sorted(unknown)} are not supported by arraystack.nditer"
                )
            if len(flags & {"readonly", "readwrite", "writeonly"}) > 1:
                raise ValueError(
                    "Only one of the iterator flags READWRITE, READONLY, and WRITEONLY may be specified for an operand"
                )
        return per_op

    @staticmethod
    def _fortran(ops):
        layouts = [_layout(o) for o in ops if o.ndim > 1]
        return bool(layouts) and all(
            lay.flags.f_contiguous and not lay.flags.c_contiguous for lay in layouts
        )

    def _chunk_axes(self) -> int:
        """How many innermost axes (in iteration order) an external loop takes as one 1-d chunk: the
        innermost one, and each next one that every operand walks on with the stride that continues
        it (its elements one chunk apart), as NumPy's iterator coalesces them."""
        axes = list(range(len(self.shape)))
        if not self._f_order:
            axes.reverse()
        if not axes:
            return 0
        strides = [self._strides(v) for v in self._views]
        taken, span = 1, [s[axes[0]] * self.shape[axes[0]] if s else None for s in strides]
        for axis in axes[1:]:
            if any(s is None or s[axis] != w for s, w in zip(strides, span)):
                break
            taken += 1
            span = [s[axis] * self.shape[axis] for s in strides]
        return taken

    @staticmethod
    def _strides(view):
        return _layout(view).strides

    def reset(self):
        chunked = self._chunk
        ndim = len(self.shape)
        outer = range(ndim - chunked) if not self._f_order else range(chunked, ndim)
        ranges = [range(self.shape[a]) for a in outer]
        if self._walk is not None:
            axes, flips = self._walk
            walked = [range(self.shape[a])[::-1] if a in flips else range(self.shape[a]) for a in axes]
            back = sorted(range(ndim), key=axes.__getitem__)
            order = (tuple(t[k] for k in back) for t in itertools.product(*walked))
        elif self._f_order:
            order = (tuple(reversed(t)) for t in itertools.product(*reversed(ranges)))
        else:
            order = itertools.product(*ranges)
        self._indices = list(order) if 0 not in self.shape else []
        self.iterindex = 0
        self._started = False

    def _at(self, view, at):
        """The current element of `view` (a 0-d view), or with external_loop its current 1-d chunk."""
        if not self._chunk:
            return view[at + (Ellipsis,)]
        if self._f_order:
            block = view[(Ellipsis,) + at]
            return block.reshape(-1, order="F")
        return view[at + (Ellipsis,)].reshape(-1)

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
        values = tuple(self._at(v, at) for v in self._views)
        return values[0] if self._single else values

    def __getitem__(self, i):
        return self._at(self._views[i], self._indices[self.iterindex])

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


def _layout(array):
    """The array's memory layout as NumPy has it (a traced value's recorded one, whose order the
    iteration then depends on)."""
    from arraystack._transforms.aliasing import layout_of, note_layout_read

    if type(array._value) is Tracer:
        note_layout_read()
    return layout_of(array)
