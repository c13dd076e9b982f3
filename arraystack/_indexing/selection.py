"""Picking and placing elements: take, take_along_axis, put, put_along_axis, place, putmask, choose, compress,
extract, select, piecewise, and the ndarray methods take/put/compress/choose (diagonal and trace are in
index_tricks.py).

All are compositions of indexing (x[key], x[key] = v), where, and the shape functions, so they run eagerly,
trace, differentiate and vmap like those. In-place functions write the buffer eagerly (views see it) and
rebind the array when traced, as x[key] = v does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.devices import constants_on_operand_device, host_values
from arraystack._core.dtypes import values_result_type
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import normalize_axis
from arraystack._creation.basic import asarray, astype, copy
from arraystack._creation.filled import full, zeros, zeros_like
from arraystack._creation.ranges import arange
from arraystack._indexing.subscripts import getitem
from arraystack._manipulation.joining import concatenate, stack
from arraystack._manipulation.reshaping import broadcast_arrays, ravel, reshape
from arraystack._math.elementwise_functions import clip, where
from arraystack._math.reductions import any as any_
from arraystack._math.reductions import sum as sum_
from arraystack._transforms import result_layouts
from arraystack.ir.core import ShapeDependsOnDataError, Tracer, is_tracing

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray, ScalarLike

_MODES = ("raise", "wrap", "clip")


def _mode(mode, drop=False):
    """A NumPy clipmode; with `drop`, also 'drop' (an extension for put and put_along_axis)."""
    if mode not in _MODES and not (drop and mode == "drop"):
        names = "'clip', 'raise', 'wrap', or 'drop'" if drop else "'clip', 'raise', or 'wrap'"
        raise ValueError(f"clipmode must be one of {names} (got {mode!r})")
    return mode


def _index_array(indices):
    """Indices as an integer array: NumPy casts arrays 'same_kind' to intp, and sequences unsafely."""
    is_array = isinstance(indices, (ndarray, np.ndarray, np.generic))
    indices = asarray(indices)
    if indices.dtype.kind == "b":
        return astype(indices, np.int64)
    if indices.dtype.kind not in "iu":
        if is_array or indices.dtype.kind != "f":
            raise TypeError(
                f"Cannot cast array data from dtype('{indices.dtype}') to dtype('int64') according "
                "to the rule 'same_kind'"
            )
        return astype(indices, np.int64)
    return indices


def _concrete(x):
    return not is_tracing() and type(x._value) is not Tracer


def _apply_mode(indices, n, mode, axis=0):
    """Indices of an axis of size n under NumPy's take/put/choose modes. 'raise' checks concrete
    indices here; a traced one is checked when its gather or scatter runs."""
    if mode == "wrap":
        return indices % n if n else indices
    if mode == "clip":
        return clip(indices, 0, max(n - 1, 0))
    if _concrete(indices) and indices.size:
        bad = host_values(indices._value)
        bad = bad[(bad < -n) | (bad >= n)]
        if bad.size:
            raise IndexError(f"index {int(bad[0])} is out of bounds for axis {axis} with size {n}")
    return indices


def _dropping(target, indices, axis):
    """The 'drop' mode of put and put_along_axis: `target` widened by one slot at the end of `axis`,
    and `indices` (negatives wrapped once) with those outside [-n, n) sent to that slot, which the
    caller cuts off after writing."""
    n = target.shape[axis]
    inside = (indices >= -n) & (indices < n)
    indices = where(inside, where(indices < 0, indices + n, indices), n)
    shape = list(target.shape)
    shape[axis] = 1
    return concatenate([target, zeros(tuple(shape), target.dtype)], axis=axis), indices


def _store(out, result):
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if out.shape != result.shape:
        raise ValueError(f"output array has shape {out.shape}, expected {result.shape}")
    out[...] = result
    return out


@defers_to_numpy
def take(
    a: ArrayLike,
    indices: ArrayLike,
    axis: int | None = None,
    out: NDArray | None = None,
    mode: str = "raise",
) -> NDArray:
    """Take elements from an array along an axis.

    Parameters
    ----------
    a : array_like
        The source array.
    indices : array_like of int
        The indices of the values to extract.
    axis : int, optional
        The axis over which to select values; by default, the flattened input array is used.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-bounds indices behave. 'raise' (the default): an index outside [-n, n) raises
        IndexError, naming the index, the axis and its size; negative indices count from the end. Under
        `jit`, `grad` and `vmap` a traced index is checked when the computation runs and raises the same
        error. 'wrap': indices wrap around (modulo n). 'clip': indices are clamped to [0, n - 1]
        (a negative index becomes 0), the explicit way to ask for clamping.

    Returns
    -------
    out : ndarray
        The returned array has the same type as `a`.

    See Also
    --------
    numpy.take : The NumPy function this mirrors.
    take_along_axis, compress, choose, ndarray.take
    """
    a = asarray(a)
    mode = _mode(mode)
    indices = _index_array(indices)
    if axis is None:
        a, axis = ravel(a), 0
    axis = normalize_axis(axis, a.ndim)
    n = a.shape[axis]
    if n == 0 and indices.size and mode != "raise":
        raise IndexError("cannot do a non-empty take from an empty axes.")
    indices = _apply_mode(indices, n, mode, axis)
    # a[:, ..., :, indices]: the index axes replace `axis`, and a traced index out of bounds raises
    # NumPy's IndexError naming `axis` when the gather runs
    return _store(out, result_layouts.c_ordered(a[(slice(None),) * axis + (indices,)]))


def _along_axis_key(arr_shape, indices, axis):
    """NumPy's fancy-index tuple of take/put_along_axis: `indices` on `axis`, broadcast aranges elsewhere."""
    key = []
    for i, d in enumerate(arr_shape):
        if i == axis:
            key.append(indices)
        else:
            shape = [1] * len(arr_shape)
            shape[i] = d
            key.append(reshape(arange(d), tuple(shape)))
    return tuple(key)


def _along_axis_args(arr, indices, axis):
    arr, indices = asarray(arr), asarray(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return ravel(arr), indices, 0
    axis = normalize_axis(axis, arr.ndim)
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    return arr, indices, axis


@defers_to_numpy
@constants_on_operand_device
def take_along_axis(
    arr: ArrayLike, indices: ArrayLike, axis: int | None = -1, *, mode: str = "raise"
) -> NDArray:
    """Take values from the input array by matching 1d index and data slices.

    Parameters
    ----------
    arr : ndarray
        Source array.
    indices : ndarray
        Indices to take along each 1d slice of `arr`, as returned by argsort or argpartition.
    axis : int or None, optional
        The axis to take 1d slices along; None means the flattened array.
    mode : {'raise', 'wrap', 'clip'}, optional
        An arraystack extension (NumPy's take_along_axis always raises): how out-of-bounds indices
        behave. 'raise' (the default): an index outside [-n, n) raises IndexError, naming the index,
        the axis and its size; under `jit`, `grad` and `vmap` a traced index is checked when the
        computation runs. 'wrap': modulo n. 'clip': clamped to [0, n - 1].

    Returns
    -------
    out : ndarray
        The indexed result.

    See Also
    --------
    numpy.take_along_axis : The NumPy function this mirrors.
    take, put_along_axis, argsort
    """
    arr, indices, axis = _along_axis_args(arr, indices, axis)
    # Note: `mode` is an arraystack extension (NumPy's take_along_axis always raises)
    indices = _apply_mode(indices, arr.shape[axis], _mode(mode), axis)
    return arr[_along_axis_key(arr.shape, indices, axis)]


@defers_to_numpy
def put_along_axis(
    arr: NDArray, indices: ArrayLike, values: ArrayLike, axis: int | None, *, mode: str = "raise"
) -> None:
    """Put values into the destination array by matching 1d index and data slices (in place).

    Parameters
    ----------
    arr : ndarray
        Destination array.
    indices : ndarray
        Indices to change along each 1d slice of `arr`; they broadcast against `arr`.
    values : array_like
        Values to insert at the indices, broadcast against `indices`.
    axis : int
        The axis to take 1d slices along.
    mode : {'raise', 'wrap', 'clip', 'drop'}, optional
        An arraystack extension (NumPy's put_along_axis always raises): how out-of-bounds indices
        behave. 'raise' (the default): an index outside [-n, n) raises IndexError, naming the index,
        the axis and its size, and `arr` is left unchanged; under `jit`, `grad` and `vmap` a traced
        index is checked when the computation runs. 'wrap': modulo n. 'clip': clamped to [0, n - 1].
        'drop' (JAX's scatter mode): values at indices outside [-n, n) are skipped.

    Returns
    -------
    None
        `arr` is modified in place (functionalized when traced).

    See Also
    --------
    numpy.put_along_axis : The NumPy function this mirrors.
    take_along_axis, put
    """
    if not isinstance(arr, ndarray):
        raise TypeError("put_along_axis needs an arraystack.ndarray to write into")
    target, indices, axis = _along_axis_args(arr, indices, axis)
    # Note: `mode` is an arraystack extension (NumPy's put_along_axis always raises)
    if _mode(mode, drop=True) == "drop":
        n = target.shape[axis]
        widened, indices = _dropping(target, indices, axis)
        widened[_along_axis_key(widened.shape, indices, axis)] = values
        arr[...] = reshape(widened[(slice(None),) * axis + (slice(0, n),)], arr.shape)
        return
    indices = _apply_mode(indices, target.shape[axis], mode, axis)
    if target is arr:
        arr[_along_axis_key(arr.shape, indices, axis)] = values
    else:  # axis=None: write through the flattened array
        flat = ravel(arr)
        flat[_along_axis_key(flat.shape, indices, 0)] = values
        arr[...] = reshape(flat, arr.shape)


def _cycled(values, n, dtype):
    """`values` flattened and repeated (or cut) to n elements, as NumPy's put/putmask/place read them."""
    v = ravel(asarray(values))
    if v.size == 0 or n == 0:
        return v
    reps = -(-n // v.size)
    if reps > 1:
        v = ravel(stack([v] * reps))
    return astype(v[:n], dtype) if v.dtype != dtype else v[:n]


@defers_to_numpy
def put(a: NDArray, ind: ArrayLike, v: ArrayLike, mode: str = "raise") -> None:
    """Replaces specified elements of an array with given values (in place).

    The same as ``a.flat[ind] = v``, with `v` repeated as needed; of duplicate indices the later one
    wins.

    Parameters
    ----------
    a : ndarray
        Target array.
    ind : array_like
        Target indices, interpreted as integers into the flattened array.
    v : array_like
        Values to place in `a` at the target indices.
    mode : {'raise', 'wrap', 'clip', 'drop'}, optional
        How out-of-bounds indices behave. 'raise' (the default): an index outside [-n, n) raises
        IndexError, naming the index, the axis and its size, and nothing is written; negative indices
        count from the end. Under `jit`, `grad` and `vmap` a traced index is checked when the
        computation runs and raises the same error. 'wrap': indices wrap around (modulo n). 'clip':
        indices are clamped to [0, n - 1]. 'drop' (an arraystack extension, JAX's scatter mode): values
        at indices outside [-n, n) are skipped.

    Returns
    -------
    None
        `a` is modified in place (functionalized when traced).

    See Also
    --------
    numpy.put : The NumPy function this mirrors.
    putmask, place, put_along_axis, take
    """
    if not isinstance(a, ndarray):
        raise TypeError(f"argument a of put must be an arraystack.ndarray, got {type(a).__name__}")
    # Note: mode 'drop' is an arraystack extension (out-of-bounds updates are skipped)
    mode = _mode(mode, drop=True)
    ind = ravel(_index_array(ind))
    values = _cycled(v, ind.size, a.dtype)
    if ind.size == 0 or values.size == 0:
        return
    if mode == "drop":
        flat, ind = _dropping(ravel(a), ind, 0)
    else:
        ind = _apply_mode(ind, a.size, mode)
        flat = copy(ravel(a))
    flat[ind] = values
    a[...] = reshape(flat[: a.size], a.shape)


def _same_size_mask(name, a, mask):
    mask = asarray(mask)
    if mask.size != a.size:
        raise ValueError(f"{name}: mask and data must be the same size")
    return reshape(astype(mask, bool) if mask.dtype != bool else mask, a.shape)


@defers_to_numpy
@constants_on_operand_device
def putmask(a: NDArray, mask: ArrayLike, values: ArrayLike) -> None:
    """Changes elements of an array based on conditional and input values (in place).

    Sets ``a.flat[n] = values[n % len(values)]`` for each n where ``mask.flat[n]`` is True.

    Parameters
    ----------
    a : ndarray
        Target array.
    mask : array_like
        Boolean mask array; it must have the same shape as `a`.
    values : array_like
        Values to put into `a` where `mask` is True, repeated as needed.

    Returns
    -------
    None
        `a` is modified in place (functionalized when traced).

    See Also
    --------
    numpy.putmask : The NumPy function this mirrors.
    place, put, where
    """
    if not isinstance(a, ndarray):
        raise TypeError("argument a of putmask must be an arraystack.ndarray")
    mask = _same_size_mask("putmask", a, mask)
    values = _cycled(values, a.size, a.dtype)
    if values.size == 0:
        return
    a[...] = where(mask, reshape(values, a.shape), a)


@defers_to_numpy
@constants_on_operand_device(checked=1)
def place(arr: NDArray, mask: ArrayLike, vals: ArrayLike) -> None:
    """Change elements of an array based on conditional and input values (in place).

    Parameters
    ----------
    arr : ndarray
        Array to put data into.
    mask : array_like
        Boolean mask array, the same size as `arr`.
    vals : 1-D sequence
        Values to put into `arr`: the i-th True of `mask` gets ``vals[i % len(vals)]``.

    Returns
    -------
    None
        `arr` is modified in place (functionalized when traced).

    See Also
    --------
    numpy.place : The NumPy function this mirrors.
    putmask, put, extract
    """
    if not isinstance(arr, ndarray):
        raise TypeError(f"argument 1 must be arraystack.ndarray, not {type(arr).__name__}")
    mask = _same_size_mask("place", arr, mask)
    vals = ravel(asarray(vals))
    if vals.size == 0:
        if _concrete(mask) and not np.any(host_values(mask._value)):
            return
        raise ValueError("Cannot insert from an empty array!")
    vals = astype(vals, arr.dtype) if vals.dtype != arr.dtype else vals
    flat_mask = ravel(mask)
    # the k-th True takes vals[k % n]: k is the running count of Trues before it
    slot = (flat_mask.cumsum() - 1) % vals.size
    picked = reshape(vals[where(flat_mask, slot, 0)], arr.shape)
    arr[...] = where(mask, picked, arr)


@defers_to_numpy
def choose(
    a: ArrayLike,
    choices: Sequence[ArrayLike] | ArrayLike,
    out: NDArray | None = None,
    mode: str = "raise",
) -> NDArray:
    """Construct an array from an index array and a list of arrays to choose from.

    Parameters
    ----------
    a : int array
        Index array: which of `choices` each element comes from; it broadcasts with the choices.
    choices : sequence of arrays
        Choice arrays; `a` and all of them must broadcast to the same shape.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-bounds indices behave. 'raise' (the default): an entry outside [0, n) raises
        ValueError, also under `jit`, `grad` and `vmap`, where a traced index is checked when the
        computation runs. 'wrap': entries wrap around (modulo n). 'clip': entries are clamped to
        [0, n - 1].

    Returns
    -------
    merged_array : ndarray
        The merged result.

    See Also
    --------
    numpy.choose : The NumPy function this mirrors.
    select, where, take
    """
    mode = _mode(mode)
    a = _index_array(a)
    if isinstance(choices, (ndarray, np.ndarray)):
        choices = [choices[i] for i in range(len(choices))]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    dtype = values_result_type(*choices)
    arrays = broadcast_arrays(a, *[asarray(c) for c in choices])
    index, options = arrays[0], [astype(c, dtype) if c.dtype != dtype else c for c in arrays[1:]]
    if mode == "raise":
        if _concrete(index) and index.size:
            raw = host_values(index._value)
            if np.any((raw < 0) | (raw >= n)):
                raise ValueError("invalid entry in choice array")
    else:
        index = _apply_mode(index, n, mode)
    stacked = stack(options)
    key = _along_axis_key(stacked.shape, reshape(index, (1,) + index.shape), 0)
    # a traced index is checked as numpy.choose checks it (ValueError outside [0, n)) by the gather
    picked = getitem(stacked, key, "choose" if mode == "raise" else "raise")
    return _store(out, result_layouts.c_ordered(reshape(picked, index.shape)))


# -- selection by condition: compress, extract, select, piecewise ----------------------------------


def _selected(name, condition, size, fill_value):
    """The positions of the true entries of a 1-d condition (padded to `size` with a validity mask)."""
    from arraystack._indexing.subscripts import nonzero

    try:
        (index,) = nonzero(condition, size=size)
    except ShapeDependsOnDataError as e:
        raise ShapeDependsOnDataError(
            f"{name} selects a number of elements that depends on the data, so it cannot be traced "
            f"with a fixed shape. Pass size=n (and fill_value=) to get exactly n elements, use "
            f"arraystack.where(condition, x, fill) to keep the shape, or call {name} outside jit."
        ) from e
    if size is None:
        return index, None
    return index, arange(size) < sum_(condition != 0)


def _padded(result, valid, axis, fill_value):
    if valid is None:
        return result
    shape = [1] * result.ndim
    shape[axis] = valid.shape[0]
    return where(reshape(valid, tuple(shape)), result, astype(asarray(fill_value), result.dtype))


@defers_to_numpy
@constants_on_operand_device
def compress(
    condition: ArrayLike,
    a: ArrayLike,
    axis: int | None = None,
    out: NDArray | None = None,
    *,
    size: int | None = None,
    fill_value: ScalarLike = 0,
) -> NDArray:
    """Return selected slices of an array along given axis.

    Parameters
    ----------
    condition : 1-D array of bools
        Which entries to return along `axis`; shorter than the axis means False for the rest.
    a : array_like
        Array from which to extract a part.
    axis : int, optional
        Axis along which to take slices; by default the flattened array.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    size : int, optional
        An arraystack extension (as in jax.numpy): exactly `size` entries are returned, cut or padded
        with `fill_value`. Required inside `jit`, where the number of selected entries must be static.
    fill_value : scalar, optional
        The padding value when `size` exceeds the number of selected entries.

    Returns
    -------
    compressed_array : ndarray
        A copy of `a` without the slices along `axis` for which `condition` is false.

    See Also
    --------
    numpy.compress : The NumPy function this mirrors.
    take, extract, choose, nonzero
    """
    condition = ravel(asarray(condition))
    a = asarray(a)
    index, valid = _selected("compress", condition, size, fill_value)
    if valid is None:
        return take(a, index, axis=axis, out=out)
    result = take(a, index, axis=axis)
    axis = 0 if axis is None else normalize_axis(axis, a.ndim)
    return _store(out, _padded(result, valid, axis, fill_value))


@defers_to_numpy
@constants_on_operand_device
def extract(
    condition: ArrayLike,
    arr: ArrayLike,
    *,
    size: int | None = None,
    fill_value: ScalarLike = 0,
) -> NDArray:
    """Return the elements of an array that satisfy some condition.

    Parameters
    ----------
    condition : array_like
        An array whose nonzero or True entries indicate the elements of `arr` to extract.
    arr : array_like
        Input array of the same size as `condition`.
    size : int, optional
        An arraystack extension (as in jax.numpy): exactly `size` entries are returned, cut or padded
        with `fill_value`. Required inside `jit`, where the number of selected entries must be static.
    fill_value : scalar, optional
        The padding value when `size` exceeds the number of selected entries.

    Returns
    -------
    extract : ndarray
        Rank 1 array of the values of `arr` where `condition` is True.

    See Also
    --------
    numpy.extract : The NumPy function this mirrors.
    compress, take, place
    """
    index, valid = _selected("extract", ravel(asarray(condition)), size, fill_value)
    return _padded(take(ravel(asarray(arr)), index), valid, 0, fill_value)


@defers_to_numpy
@constants_on_operand_device
def select(
    condlist: Sequence[ArrayLike],
    choicelist: Sequence[ArrayLike],
    default: ArrayLike = 0,
) -> NDArray:
    """Return an array drawn from elements in choicelist, depending on conditions.

    Parameters
    ----------
    condlist : list of bool ndarrays
        The conditions; where several hold, the first one in the list wins.
    choicelist : list of ndarrays
        The arrays from which the output elements are taken; the same length as `condlist`.
    default : scalar, optional
        The element inserted where all conditions are False.

    Returns
    -------
    output : ndarray
        The element of the first choice whose condition holds, else `default`.

    See Also
    --------
    numpy.select : The NumPy function this mirrors.
    where, choose, piecewise
    """
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    dtype = values_result_type(*choicelist, default)  # a traced Python scalar is weak too
    choices = [asarray(c) for c in choicelist]
    conds = [asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != bool:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    arrays = broadcast_arrays(*conds, *choices, asarray(default))
    conds, choices = arrays[: len(conds)], arrays[len(conds) :]
    result = astype(choices[-1], dtype)
    for cond, choice in zip(reversed(conds), reversed(choices[:-1])):
        result = where(cond, choice, result)
    return astype(result, dtype) if result.dtype != dtype else result


@defers_to_numpy
def piecewise(
    x: ArrayLike,
    condlist: Sequence[ArrayLike] | ArrayLike,
    funclist: Sequence[Any],
    *args: Any,
    **kw: Any,
) -> NDArray:
    """Evaluate a piecewise-defined function.

    Parameters
    ----------
    x : array_like
        The input domain.
    condlist : list of bool arrays or bool scalars
        Each condition selects where the corresponding function applies.
    funclist : list of callables, f(x,*args,**kw), or scalars
        Functions (or constant values) per condition; one extra entry is the default where no condition
        holds.
    *args : tuple, optional
        Extra positional arguments passed to each function.
    **kw : dict, optional
        Extra keyword arguments passed to each function.

    Returns
    -------
    out : ndarray
        The output, the same shape and type as `x`.

    See Also
    --------
    numpy.piecewise : The NumPy function this mirrors.
    select, where, choose

    Notes
    -----
    When traced, each function is called on the whole of `x` and its results are kept where its
    condition holds (NumPy calls it on ``x[cond]`` only), so the functions must work elementwise.
    """
    x = asarray(x)
    n2 = len(funclist)
    if np.isscalar(condlist) or (
        not isinstance(condlist[0], (list, ndarray, np.ndarray)) and x.ndim != 0
    ):
        condlist = [condlist]
    conds = [astype(asarray(c), bool) for c in condlist]
    n = len(conds)
    if n == n2 - 1:
        conds.append(~any_(stack(conds), axis=0)) if n else conds.append(full(x.shape, True))
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    traced = not _concrete(x) or not all(_concrete(c) for c in conds)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        elif traced:
            y = where(cond, astype(asarray(func(x, *args, **kw)), x.dtype), y)
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


__all__ = [
    "choose",
    "compress",
    "extract",
    "piecewise",
    "place",
    "put",
    "put_along_axis",
    "putmask",
    "select",
    "take",
    "take_along_axis",
]
