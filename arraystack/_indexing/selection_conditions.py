"""Selection by condition: compress, extract, select, piecewise. Compositions of take, where and
boolean indexing; a data-dependent count needs size= (and fill_value=) to trace. Re-exported by
_selection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray
from arraystack._creation.from_data import asarray, astype
from arraystack._creation.filled import full, zeros_like
from arraystack._creation.ranges import arange
from arraystack._core.dtypes import result_type
from arraystack._math.elementwise_functions import where
from arraystack._manipulation.reshaping import broadcast_arrays, ravel, reshape
from arraystack._manipulation.joining import stack
from arraystack._math.reductions import any as any_
from arraystack._math.reductions import sum as sum_
from arraystack._indexing.selection import _concrete, _store, take
from arraystack._core.shapes import normalize_axis
from arraystack.ir.core import ShapeDependsOnDataError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray, ScalarLike


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
    # NumPy keeps Python scalars weak when it promotes (NEP 50); result_type reads arrays as they
    # are, and a traced Python scalar (an ndarray) as weak too
    kept = (int, float, complex, ndarray)
    dtype = result_type(*[c if type(c) in kept else asarray(c) for c in (*choicelist, default)])
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


__all__ = ["compress", "extract", "piecewise", "select"]
