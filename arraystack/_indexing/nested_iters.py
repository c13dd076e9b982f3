"""nested_iters: nditer objects over groups of an array's axes, nested as loops are.

Each iterator walks its own axes; the elements it gives are those at its position and its outer
iterators' (an inner iterator's axes at their first index while the outer one is read). Advancing an
iterator (its next element, `iternext`, `reset`) restarts every iterator inside it, so that
`for x in i: for y in j: ...` visits each element once, as NumPy's linked iterators do. Elements are 0-d
views of the operands, so `y[...] = v` writes a readwrite operand.
"""

from __future__ import annotations

import itertools
import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._indexing.iterators import nditer

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike

_FLAGS = frozenset({"multi_index", "c_index", "f_index", "refs_ok", "zerosize_ok", "buffered"})
_FLAGS |= {"common_dtype", "grow_inner", "delay_bufalloc", "reduce_ok", "ranged"}


class _Level:
    """One iterator of nested_iters: its axes of the shared operands, its position among them."""

    def __init__(self, nest, level, axes, flags):
        self._nest, self._level, self._axes, self._flags = nest, level, tuple(axes), flags
        self.shape = tuple(nest.shape[a] for a in axes)
        ranges = [range(n) for n in self.shape]
        if nest.f_order:
            self._indices = [tuple(reversed(t)) for t in itertools.product(*reversed(ranges))]
        else:
            self._indices = list(itertools.product(*ranges))
        self.iterindex, self._started = 0, False

    operands = property(lambda self: self._nest.operands)
    ndim = property(lambda self: len(self._axes))
    itersize = property(lambda self: len(self._indices))
    finished = property(lambda self: self.iterindex >= len(self._indices))

    def _position(self):
        if self.finished:
            raise ValueError("Iterator is past the end")
        return self._indices[self.iterindex]

    @property
    def multi_index(self):
        if "multi_index" not in self._flags:
            raise ValueError("Iterator is not tracking a multi-index")
        return self._position()

    @property
    def index(self):
        if not {"c_index", "f_index"} & self._flags:
            raise ValueError("Iterator does not have an index")
        at = self._position()
        order = "F" if "f_index" in self._flags else "C"
        return int(np.ravel_multi_index(at, self.shape, order=order)) if at else 0

    @property
    def value(self):
        values = self._nest.values(self._level)
        return values[0] if self._nest.single else values

    def __getitem__(self, i):
        return self._nest.values(self._level)[i]

    def _moved(self):
        self._started = True
        self._nest.restart_inside(self._level)

    def iternext(self) -> bool:
        self.iterindex += 1
        self._moved()
        return not self.finished

    def __iter__(self):
        return self

    def __next__(self):
        if self._started:  # Python's loop reads the current element first
            self.iterindex += 1
            self._nest.restart_inside(self._level)
        self._started = True
        if self.finished:
            raise StopIteration
        return self.value

    def reset(self):
        self.iterindex, self._started = 0, False
        self._nest.restart_inside(self._level)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass


class _Nest:
    """The operands and the levels that share them."""

    def __init__(self, iterator, axes, flags):
        self.operands, self.shape = iterator.operands, iterator.shape
        self.views = iterator._views  # the operands broadcast to the iteration shape
        self.single = len(self.operands) == 1
        self.f_order = iterator._f_order
        self.levels = [_Level(self, k, a, flags) for k, a in enumerate(axes)]

    def restart_inside(self, level):
        for inner in self.levels[level + 1 :]:
            inner.iterindex, inner._started = 0, False

    def values(self, level):
        at = [0] * len(self.shape)
        for outer in self.levels[: level + 1]:
            for axis, i in zip(outer._axes, outer._position()):
                at[axis] = i
        return tuple(v[tuple(at) + (Ellipsis,)] for v in self.views)


def nested_iters(
    op: ArrayLike | Sequence[ArrayLike],
    axes: Sequence[Sequence[int]],
    flags: Sequence[str] | None = None,
    op_flags: Sequence[Any] | None = None,
    op_dtypes: Any = None,
    order: str = "K",
    casting: str = "safe",
    buffersize: int = 0,
) -> tuple:
    """Create nditers for use in nested loops.

    Parameters
    ----------
    op : ndarray or sequence of array_like
        The array(s) to iterate over, all of the same number of dimensions (size-1 axes broadcast).
    axes : list of list of int
        The axes of each iterator, outermost first; an axis in no list stays at index 0.
    flags : sequence of str, optional
        Flags of every iterator, as for `nditer`: multi_index, c_index, f_index (per iterator, over
        its own axes), refs_ok, zerosize_ok, buffered, common_dtype, grow_inner, delay_bufalloc,
        reduce_ok, ranged. external_loop is not supported (ValueError).
    op_flags : list of list of str, optional
        Per-operand flags, as for `nditer`; an output to allocate (None operand) is not supported.
    op_dtypes : dtype or tuple of dtype(s), optional
        The required data type(s) of the operands.
    order : {'C', 'F', 'A', 'K'}, optional
        The order of each iterator's axes: C (its last axis fastest), F (its first), or for 'K' and
        'A' the operands' memory order.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        What kind of casting may occur for `op_dtypes`.
    buffersize : int, optional
        Accepted for compatibility (arraystack does not buffer).

    Returns
    -------
    iters : tuple of nditer
        One iterator per entry of `axes`; advancing one restarts the ones after it.

    Raises
    ------
    ValueError
        For fewer than two entries of `axes`, an axis used twice or out of range, operands of
        different ranks, or an unsupported flag.

    See Also
    --------
    numpy.nested_iters : The NumPy function this mirrors.
    nditer
    """
    axes = [[operator.index(a) for a in level] for level in axes]
    if len(axes) < 2:
        raise ValueError("axes must have at least 2 entries for nested iteration")
    given = set(flags or ())
    unknown = given - _FLAGS
    if unknown:
        raise ValueError(f"nested_iters flags {sorted(unknown)} are not supported by arraystack")
    operands = [op] if not isinstance(op, (list, tuple)) else list(op)
    if any(o is None for o in operands):
        raise ValueError(
            "arraystack.nested_iters does not allocate outputs: pass an array (e.g. np.empty(shape))"
        )
    iterator = nditer(
        op, [f for f in given if f == "zerosize_ok"], op_flags, op_dtypes, order, casting
    )
    ndims = {o.ndim for o in iterator.operands}
    shapes = " ".join(str(tuple(o.shape)) for o in iterator.operands)
    if len(ndims) > 1:
        raise ValueError(f"operands could not be broadcast together with shapes {shapes}")
    (ndim,) = ndims
    seen = set()
    for level in axes:
        for axis in level:
            if not 0 <= axis < ndim:
                raise ValueError(
                    f"Iterator input op_axes[0][0] (=={axis}) is not a valid axis of op[0], which "
                    f"has {ndim} dimensions"
                )
            if axis in seen:
                raise ValueError("An axis is used more than once")
            seen.add(axis)
    return tuple(_Nest(iterator, axes, given).levels)


__all__ = ["nested_iters"]
