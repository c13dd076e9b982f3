"""`x.at[index]`: JAX's functional indexed updates, on arraystack arrays eager and traced.

`x.at[index].set(v)` is a new array equal to x with `new[index] = v`; `.add(v)`, `.subtract(v)`,
`.multiply(v)`, `.divide(v)`, `.power(v)`, `.min(v)` and `.max(v)` combine instead, as NumPy's `ufunc.at`
does (unbuffered: a repeated index combines every value given for it, as JAX's scatter does); `.apply(f)`
applies f there, and `.get()` is `x[index]`. x itself never changes, so the same code runs eagerly, under
`jit` and under `grad`, as in JAX; arraystack arrays can also be written in place (`x[index] = v`).

The result keeps x's dtype, and values are cast into it as NumPy casts them: `set` as item assignment,
the others as `ufunc.at` (`arange(3).at[0].add(1.5)` is `[1, 1, 2]`, as in NumPy and JAX).

`mode` says what an index outside its axis does: None or "promise_in_bounds" (default): NumPy's
IndexError (when the computation runs, under jit); "clip": it is clamped into the axis; "drop": that
update is left out; "fill" (for `get`): that element is `fill_value` (by default NaN for inexact dtypes,
the most negative value of signed integers, the largest of unsigned ones, True for bool), as jax.numpy's.
Negative indices count from the end first, as in NumPy. `indices_are_sorted` and `unique_indices` are
JAX's performance hints: accepted, and not needed here.
"""

from __future__ import annotations

import numpy as np

from arraystack._creation.basic import asarray, copy
from arraystack._manipulation.padding import pad
from arraystack._math import elementwise as _elementwise
from arraystack._math.elementwise_functions import clip, where
from arraystack.ir.avals import kind_of

_MODES = (None, "promise_in_bounds", "clip", "drop", "fill")
_NAMES = {
    "add": "add",
    "subtract": "subtract",
    "multiply": "multiply",
    "divide": "true_divide",
    "power": "power",
    "min": "minimum",
    "max": "maximum",
}


class IndexUpdates:
    """`x.at`: indexing it (`x.at[index]`) names where an update applies."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index):
        return IndexUpdate(self.array, index)

    def __repr__(self):
        return f"_IndexUpdates({self.array!r})"


class IndexUpdate:
    """`x.at[index]`: its methods return the updated copy of x (x is left as it is)."""

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array, self.index = array, index

    def __repr__(self):
        return f"_IndexUpdate({self.array!r}, {self.index!r})"

    def get(self, *, mode=None, fill_value=None, indices_are_sorted=False, unique_indices=False):
        """`x[index]`, out-of-bounds indices as `mode` says ("fill": `fill_value` there)."""
        x, index = self.array, self.index
        mode = _check_mode(mode)
        if mode in (None, "promise_in_bounds"):
            return x[index]
        if mode == "clip":
            return x[_clipped(index, x.shape)]
        if mode == "drop":
            raise ValueError("mode 'drop' applies to updates; get() takes 'fill' or 'clip'")
        fill = default_fill_value(x.dtype) if fill_value is None else fill_value
        padded, index = _padded(x, index, fill)
        return padded[index]

    def set(self, values, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x with `x[index] = values` (for a repeated index, one of its values is kept)."""

        def write(target, index):
            target[index] = values

        return _update(self.array, self.index, mode, write)

    def apply(self, func, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x with `func` applied at index: a unary ufunc through its `at` (once per occurrence of a
        repeated index, as NumPy's `func.at`), any other function once per element
        (`x[index] = func(x[index])`)."""

        def write(target, index):
            at = getattr(func, "at", None)
            if at is not None and getattr(func, "nin", None) == 1:
                at(target, index)
            else:
                target[index] = func(target[index])

        return _update(self.array, self.index, mode, write)

    def _combine(self, name, values, mode):
        ufunc = getattr(_elementwise, _NAMES[name])

        def write(target, index):
            ufunc.at(target, index, values)

        return _update(self.array, self.index, mode, write)

    def add(self, values, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x with `values` added at index (every value of a repeated index)."""
        return self._combine("add", values, mode)

    def subtract(self, values, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x with `values` subtracted at index."""
        return self._combine("subtract", values, mode)

    def multiply(self, values, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x multiplied by `values` at index."""
        return self._combine("multiply", values, mode)

    mul = multiply

    def divide(self, values, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x divided by `values` at index (true division)."""
        return self._combine("divide", values, mode)

    def power(self, values, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x raised to `values` at index."""
        return self._combine("power", values, mode)

    def min(self, values, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x with the minimum of it and `values` at index."""
        return self._combine("min", values, mode)

    def max(self, values, *, mode=None, indices_are_sorted=False, unique_indices=False):
        """x with the maximum of it and `values` at index."""
        return self._combine("max", values, mode)


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {_MODES[1:]} or None, got {mode!r}")
    return mode


def _update(x, index, mode, write):
    """A copy of x, `write(copy, index)` applied; out-of-bounds indices as `mode` says."""
    mode = _check_mode(mode)
    if mode == "fill":
        raise ValueError("mode 'fill' applies to get(); updates take 'drop' or 'clip'")
    if mode == "clip":
        index = _clipped(index, x.shape)
    elif mode == "drop":
        padded, index = _padded(x, index, 0)
        write(padded, index)
        return padded[tuple(slice(0, n) for n in x.shape)]
    out = copy(x)
    write(out, index)
    return out


def _integer_items(index, ndim):
    """The index as a tuple, and for each of its integer items (ints, integer arrays) the axis it
    indexes; slices, None, Ellipsis and bool masks are left as they are (no bound to enforce)."""
    items = index if type(index) is tuple else (index,)
    consumed = sum(
        0
        if item is None or item is Ellipsis
        else max(asarray(item).ndim, 1)
        if _is_bool(item)
        else 1
        for item in items
    )
    out, axis = [], 0
    for k, item in enumerate(items):
        if item is None:
            continue
        if item is Ellipsis:
            axis += ndim - consumed
            continue
        if _is_bool(item):
            axis += max(asarray(item).ndim, 1)
            continue
        if not isinstance(item, slice):
            out.append((k, axis))
        axis += 1
    return list(items), out


def _is_bool(item) -> bool:
    if isinstance(item, (bool, np.bool_)):
        return True
    dtype = getattr(item, "dtype", None)
    if dtype is None and isinstance(item, list):
        dtype = np.asarray(item).dtype
    return dtype is not None and np.dtype(dtype) == np.bool_


def _as_index(item):
    """An integer item as an arraystack integer array (an int stays a 0-d one)."""
    out = asarray(item)
    if out.dtype.kind not in "iu":
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
            "boolean arrays are valid indices"
        )
    return out


def _clipped(index, shape):
    items, integers = _integer_items(index, len(shape))
    for k, axis in integers:
        n = shape[axis]
        i = _as_index(items[k])
        items[k] = clip(where(i < 0, i + n, i), 0, max(n - 1, 0))
    return tuple(items)


def _padded(x, index, pad_value):
    """x with one more element (pad_value) at the end of each axis an integer item indexes, and the
    index with every out-of-bounds integer (outside [-n, n)) sent there."""
    items, integers = _integer_items(index, x.ndim)
    widths = [(0, 0)] * x.ndim
    for k, axis in integers:
        n = x.shape[axis]
        i = _as_index(items[k])
        inside = (i >= -n) & (i < n)
        items[k] = where(inside, where(i < 0, i + n, i), n)
        widths[axis] = (0, 1)
    padded = pad(x, widths, constant_values=pad_value)
    return padded, tuple(items)


def default_fill_value(dtype):
    """JAX's fill value of an out-of-bounds read: NaN for inexact dtypes, the most negative value of
    signed integers, the largest of unsigned ones, True for bool."""
    dtype = np.dtype(dtype)
    kind = kind_of(dtype)  # bfloat16's is "f"
    if kind in "fc":
        return np.nan
    if kind == "i":
        return np.iinfo(dtype).min
    if kind == "u":
        return np.iinfo(dtype).max
    if kind == "b":
        return True
    raise TypeError(f"get(mode='fill') has no default fill value for dtype {dtype}: give fill_value")


__all__: list[str] = []  # reached as ndarray.at
