"""ndarray's methods that mirror functions: `a.sum(axis=0)` is `arraystack.sum(a, axis=0)`, `a.reshape(...)`
is `arraystack.reshape(a, ...)`, with NumPy's own method where an eager array allows it (the same views and
errors). A base class of ndarray (array.py), which keeps the type's state, protocols and indexing. The
family modules these methods call import ndarray themselves: the methods reach them through `families`
(families.py), which imports each at its first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arraystack._core import dtypes as _dtypes
from arraystack._core.families import families

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack._core.array import ndarray
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray, ScalarLike, ShapeLike


class ArrayMethods:
    """ndarray's methods that call arraystack's functions on the array."""

    __slots__ = ()

    def astype(
        self,
        dtype: DTypeLike,
        order: str = "K",
        casting: str = "unsafe",
        subok: bool = True,
        copy: bool = True,
    ) -> ndarray:
        value = families.array.eager_buffer(self)
        if value is not None and _dtypes.fast_dtype(dtype) is not None:  # NumPy's own method
            result = value.astype(dtype, order, casting, subok, copy)
            return self if result is value else families.array._make(result)
        return families.basic.astype(self, dtype, order=order, casting=casting, copy=copy)

    def copy(self, order: str = "C") -> ndarray:
        return families.basic.copy(self, order=order)

    def fill(self, value: ScalarLike) -> None:
        families.subscripts.setitem(self, Ellipsis, value)

    def reshape(
        self,
        *shape: int | ShapeLike,
        order: str = "C",
        copy: bool | None = None,
    ) -> ndarray:
        value = families.array.eager_buffer(self)
        if value is not None and copy is None:  # NumPy's own method: the same views and errors
            # (NumPy parses a keyword argument slowly: pass order only when it is not the default)
            reshaped = value.reshape(*shape) if order == "C" else value.reshape(*shape, order=order)
            return families.array._make(reshaped)
        if len(shape) == 1 and not isinstance(shape[0], int) and shape[0] is not None:
            shape = shape[0]
        return families.reshaping.reshape(self, shape, order=order, copy=copy)

    def transpose(self, *axes: int | ShapeLike | None) -> ndarray:
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        return families.reshaping.transpose(self, axes or None)

    def swapaxes(self, axis1: int, axis2: int) -> ndarray:
        return families.reshaping.swapaxes(self, axis1, axis2)

    def ravel(self, order: str = "C") -> ndarray:
        return families.reshaping.ravel(self, order)

    def flatten(self, order: str = "C") -> ndarray:
        return families.basic.copy(families.reshaping.ravel(self, order))

    def squeeze(self, axis: AxisLike = None) -> ndarray:
        return families.reshaping.squeeze(self, axis)

    def repeat(self, repeats: ArrayLike, axis: int | None = None) -> ndarray:
        return families.rearranging.repeat(self, repeats, axis)

    def sum(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.reductions.sum(self, *args, **kwargs)

    def prod(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.reductions.prod(self, *args, **kwargs)

    def mean(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.averages.mean(self, *args, **kwargs)

    def var(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.averages.var(self, *args, **kwargs)

    def std(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.averages.std(self, *args, **kwargs)

    def min(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.reductions.min(self, *args, **kwargs)

    def max(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.reductions.max(self, *args, **kwargs)

    def argmin(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.reductions.argmin(self, *args, **kwargs)

    def argmax(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.reductions.argmax(self, *args, **kwargs)

    def any(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.reductions.any(self, *args, **kwargs)

    def all(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.reductions.all(self, *args, **kwargs)

    def cumsum(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.cumulative.cumsum(self, *args, **kwargs)

    def cumprod(self, *args: Any, **kwargs: Any) -> ndarray:
        return families.cumulative.cumprod(self, *args, **kwargs)

    def nonzero(self) -> tuple[ndarray, ...]:
        return families.subscripts.nonzero(self)

    def clip(
        self,
        min: ArrayLike | None = None,
        max: ArrayLike | None = None,
        out: ndarray | None = None,
        **kwargs: Any,
    ) -> ndarray:
        return families.elementwise_functions.clip(self, min, max, out=out, **kwargs)

    def round(self, decimals: int = 0, out: ndarray | None = None) -> ndarray:
        return families.elementwise_functions.round(self, decimals, out)

    def conj(self) -> ndarray:
        return families.elementwise.conjugate(self)

    def conjugate(self) -> ndarray:
        return families.elementwise.conjugate(self)

    def dot(self, b: ArrayLike, out: ndarray | None = None) -> ndarray:
        return families.matmul.dot(self, b, out=out)

    def sort(
        self,
        axis: int | None = -1,
        kind: str | None = None,
        order: str | list[str] | None = None,
        *,
        stable: bool | None = None,
    ) -> None:
        """Sort an array in place.

        Refer to `arraystack.sort` for full documentation.

        Parameters
        ----------
        axis : int, optional
            Axis along which to sort; the last by default.
        kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
            Sorting algorithm; ties come out in NumPy's order for that kind (introsort, heapsort or stable).
        order : str or list of str, optional
            Field order for structured arrays; arraystack has none, so only None is accepted.
        stable : bool, optional
            If True, use a stable sort (Array API keyword).

        Returns
        -------
        None
            The array is sorted in place (functionalized when traced).

        See Also
        --------
        numpy.ndarray.sort : The NumPy method this mirrors.
        arraystack.sort : The equivalent function.

        Notes
        -----
        Like NumPy's method, it has no `descending` keyword.
        """
        self[...] = families.sorting.sort(self, axis, kind, order, stable=stable)

    def partition(
        self,
        kth: int | Sequence[int],
        axis: int | None = -1,
        kind: str = "introselect",
        order: str | list[str] | None = None,
    ) -> None:
        """Partially sort the array in place, so the k-th element is in its sorted position.

        Refer to `arraystack.partition` for full documentation.

        Parameters
        ----------
        kth : int or sequence of ints
            Element index (or indices) to partition by.
        axis : int, optional
            Axis along which to sort; the last by default.
        kind : {'introselect'}, optional
            Selection algorithm.
        order : str or list of str, optional
            Field order for structured arrays; arraystack has none, so only None is accepted.

        Returns
        -------
        None
            The array is partitioned in place.

        See Also
        --------
        numpy.ndarray.partition : The NumPy method this mirrors.
        arraystack.partition : The equivalent function.
        """
        self[...] = families.sorting.partition(self, kth, axis, kind, order)

    def argsort(
        self,
        axis: int | None = -1,
        kind: str | None = None,
        order: str | list[str] | None = None,
        *,
        stable: bool | None = None,
    ) -> NDArray:
        """Returns the indices that would sort this array.

        Refer to `arraystack.argsort` for full documentation.

        Parameters
        ----------
        axis : int, optional
            Axis along which to sort; the last by default.
        kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
            Sorting algorithm; ties come out in NumPy's order for that kind (introsort, heapsort or stable).
        order : str or list of str, optional
            Field order for structured arrays; arraystack has none, so only None is accepted.
        stable : bool, optional
            If True, use a stable sort (Array API keyword).

        Returns
        -------
        index_array : ndarray
            Indices that sort the array along the axis.

        See Also
        --------
        numpy.ndarray.argsort : The NumPy method this mirrors.
        arraystack.argsort : The equivalent function.
        """
        return families.sorting.argsort(self, axis, kind, order, stable=stable)

    def argpartition(
        self,
        kth: int | Sequence[int],
        axis: int | None = -1,
        kind: str = "introselect",
        order: str | list[str] | None = None,
    ) -> NDArray:
        """Returns the indices that would partition this array.

        Refer to `arraystack.argpartition` for full documentation.

        Parameters
        ----------
        kth : int or sequence of ints
            Element index (or indices) to partition by.
        axis : int, optional
            Axis along which to sort; the last by default.
        kind : {'introselect'}, optional
            Selection algorithm.
        order : str or list of str, optional
            Field order for structured arrays; arraystack has none, so only None is accepted.

        Returns
        -------
        index_array : ndarray
            Indices that partition the array along the axis.

        See Also
        --------
        numpy.ndarray.argpartition : The NumPy method this mirrors.
        arraystack.argpartition : The equivalent function.
        """
        return families.sorting.argpartition(self, kth, axis, kind, order)

    def searchsorted(
        self,
        v: ArrayLike,
        side: str = "left",
        sorter: ArrayLike | None = None,
    ) -> NDArray:
        """Find indices where elements of v should be inserted in the array to maintain order.

        Refer to `arraystack.searchsorted` for full documentation.

        Parameters
        ----------
        v : array_like
            Values to insert.
        side : {'left', 'right'}, optional
            Whether to return the first ('left') or last ('right') suitable index.
        sorter : array_like of int, optional
            Indices that sort `a` into ascending order.

        Returns
        -------
        indices : ndarray
            Insertion points, the shape of `v`.

        See Also
        --------
        numpy.ndarray.searchsorted : The NumPy method this mirrors.
        arraystack.searchsorted : The equivalent function.
        """
        return families.sorting.searchsorted(self, v, side, sorter)

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> NDArray:
        """Return specified diagonals.

        Refer to `arraystack.diagonal` for full documentation.

        Parameters
        ----------
        offset : int, optional
            Offset of the diagonal from the main diagonal.
        axis1 : int, optional
            First axis of the 2-D sub-arrays.
        axis2 : int, optional
            Second axis of the 2-D sub-arrays.

        Returns
        -------
        array_of_diagonals : ndarray
            The diagonals, along a new last axis.

        See Also
        --------
        numpy.ndarray.diagonal : The NumPy method this mirrors.
        arraystack.diagonal : The equivalent function.
        """
        return families.index_tricks.diagonal(self, offset, axis1, axis2)

    def trace(
        self,
        offset: int = 0,
        axis1: int = 0,
        axis2: int = 1,
        dtype: DTypeLike = None,
        out: NDArray | None = None,
    ) -> NDArray:
        """Return the sum along diagonals of the array.

        Refer to `arraystack.trace` for full documentation.

        Parameters
        ----------
        offset : int, optional
            Offset of the diagonal from the main diagonal.
        axis1 : int, optional
            First axis of the 2-D sub-arrays.
        axis2 : int, optional
            Second axis of the 2-D sub-arrays.
        dtype : data-type, optional
            The desired data-type of the result. By default it is inferred from the input, as in NumPy.
        out : ndarray, optional
            Alternative output array in which to place the result; it must have the expected shape. Eagerly
            it is written in place; traced, the update is functionalized.

        Returns
        -------
        sum_along_diagonals : ndarray
            The sum of the diagonals.

        See Also
        --------
        numpy.ndarray.trace : The NumPy method this mirrors.
        arraystack.trace : The equivalent function.
        """
        return families.index_tricks.trace(self, offset, axis1, axis2, dtype, out)

    def take(
        self,
        indices: ArrayLike,
        axis: int | None = None,
        out: NDArray | None = None,
        mode: str = "raise",
    ) -> NDArray:
        """Return an array formed from the elements of this array at the given indices.

        Refer to `arraystack.take` for full documentation.

        Parameters
        ----------
        indices : array_like
            Indices of the values to take.
        axis : int, optional
            The axis over which to select; by default the flattened array.
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
            The selected elements.

        See Also
        --------
        numpy.ndarray.take : The NumPy method this mirrors.
        arraystack.take : The equivalent function.
        """
        return families.selection.take(self, indices, axis, out, mode)

    def put(self, indices: ArrayLike, values: ArrayLike, mode: str = "raise") -> None:
        """Set ``a.flat[n] = values[n]`` for all n in indices (in place).

        Refer to `arraystack.put` for full documentation.

        Parameters
        ----------
        indices : array_like
            Target indices into the flattened array.
        values : array_like
            Values to place.
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
            The array is modified in place.

        See Also
        --------
        numpy.ndarray.put : The NumPy method this mirrors.
        arraystack.put : The equivalent function.
        """
        return families.selection.put(self, indices, values, mode)

    def compress(
        self,
        condition: ArrayLike,
        axis: int | None = None,
        out: NDArray | None = None,
    ) -> NDArray:
        """Return selected slices of this array along the given axis.

        Refer to `arraystack.compress` for full documentation.

        Parameters
        ----------
        condition : 1-D array of bools
            Which entries to keep.
        axis : int, optional
            Axis along which to take slices; by default the flattened array.
        out : ndarray, optional
            Alternative output array in which to place the result; it must have the expected shape. Eagerly
            it is written in place; traced, the update is functionalized.

        Returns
        -------
        compressed_array : ndarray
            The selected slices.

        See Also
        --------
        numpy.ndarray.compress : The NumPy method this mirrors.
        arraystack.compress : The equivalent function.
        """
        return families.selection.compress(condition, self, axis, out)

    def choose(
        self,
        choices: Sequence[ArrayLike] | ArrayLike,
        out: NDArray | None = None,
        mode: str = "raise",
    ) -> NDArray:
        """Use this array as an index array to construct a new array from a set of choices.

        Refer to `arraystack.choose` for full documentation.

        Parameters
        ----------
        choices : sequence of arrays
            Choice arrays.
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
        numpy.ndarray.choose : The NumPy method this mirrors.
        arraystack.choose : The equivalent function.
        """
        return families.selection.choose(self, choices, out, mode)

    def tofile(self, fid: Any, sep: str = "", format: str = "%s") -> None:
        """Write the array to a file as text or binary (default).

        Refer to `arraystack.fromfile` for full documentation.

        Parameters
        ----------
        fid : file or str or Path
            An open file object, or a string containing a filename.
        sep : str
            Separator between array items for text output; '' means binary.
        format : str
            Format string for text file output.

        Returns
        -------
        None

        See Also
        --------
        numpy.ndarray.tofile : The NumPy method this mirrors.
        arraystack.fromfile : The equivalent function.

        Notes
        -----
        The array is read to the host (a traced array raises ConcretizationError).
        """
        self._scalar(".tofile()").tofile(fid, sep=sep, format=format)
