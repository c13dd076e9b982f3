"""ndarray's methods that mirror functions: `a.sum(axis=0)` is `arraystack.sum(a, axis=0)`, `a.reshape(...)`
is `arraystack.reshape(a, ...)`, with NumPy's own method where an eager array allows it (the same views and
errors). A base class of ndarray (array.py), which keeps the type's state, protocols and indexing. The
family modules these methods call import ndarray themselves: the methods reach them through `families`
(families.py), which imports each at its first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arraystack._core import dtypes as _dtypes
from arraystack._core.array_memory import MemoryMethods
from arraystack._core.families import families
from arraystack._transforms import traced_scalars as _traced_scalars

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack._core.array import ndarray
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray, ScalarLike, ShapeLike


class ArrayMethods(MemoryMethods):
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
        """Copy of the array, cast to a specified type.

        Refer to `arraystack.astype` for full documentation.

        Parameters
        ----------
        dtype : str or dtype
            Typecode or data-type to which the array is cast.
        order : {'C', 'F', 'A', 'K'}, optional
            Memory layout of the result; 'K' (default) keeps the array's.
        casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
            Controls what kind of data casting may occur; 'unsafe' by default.
        subok : bool, optional
            Accepted for compatibility (arraystack has no subclasses).
        copy : bool, optional
            If False and the dtype already matches, the array itself is returned.

        Returns
        -------
        arr_t : ndarray
            The array cast to `dtype`.

        See Also
        --------
        numpy.ndarray.astype : The NumPy method this mirrors.
        arraystack.astype : The equivalent function.
        """
        value = families.array.eager_buffer(self)
        if value is not None and _dtypes.fast_dtype(dtype) is not None:  # NumPy's own method
            result = value.astype(dtype, order, casting, subok, copy)
            return self if result is value else families.array._make(result)
        result = families.basic.astype(self, dtype, order=order, casting=casting, copy=copy)
        if result is not self and _traced_scalars.holds_scalar(self):
            return families.array.scalar_result(result)  # a NumPy scalar's astype is a scalar
        return result

    def copy(self, order: str = "C") -> ndarray:
        """Return a copy of the array.

        Refer to `arraystack.copy` for full documentation.

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            Controls the memory layout of the copy; 'C' by default.

        Returns
        -------
        arr : ndarray
            A copy of the array.

        See Also
        --------
        numpy.ndarray.copy : The NumPy method this mirrors.
        arraystack.copy : The equivalent function.
        """
        result = families.basic.copy(self, order=order)
        if _traced_scalars.holds_scalar(self):
            return families.array.scalar_result(result)  # a NumPy scalar's copy is a scalar
        return result

    def fill(self, value: ScalarLike) -> None:
        """Fill the array with a scalar value (in place).

        Parameters
        ----------
        value : scalar
            All elements of the array are assigned this value.

        Returns
        -------
        None

        See Also
        --------
        numpy.ndarray.fill : The NumPy method this mirrors.

        Notes
        -----
        Traced, the array is rebound to the filled value (functionalized).
        """
        families.subscripts.setitem(self, Ellipsis, value)

    def reshape(
        self,
        *shape: int | ShapeLike,
        order: str = "C",
        copy: bool | None = None,
    ) -> ndarray:
        """Returns an array containing the same data with a new shape.

        Refer to `arraystack.reshape` for full documentation.

        Parameters
        ----------
        *shape : int or tuple of ints
            The new shape, given as one tuple or as separate integers.
        order : {'C', 'F', 'A'}, optional
            Read and place the elements in this index order.
        copy : bool, optional
            If True, copy; if False, a needed copy raises ValueError; if None, copy only when
            needed.

        Returns
        -------
        reshaped_array : ndarray
            A view when possible (eagerly), else a copy.

        See Also
        --------
        numpy.ndarray.reshape : The NumPy method this mirrors.
        arraystack.reshape : The equivalent function.
        """
        value = families.array.eager_buffer(self)
        if value is not None and copy is None:  # NumPy's own method: the same views and errors
            # (NumPy parses a keyword argument slowly: pass order only when it is not the default)
            reshaped = value.reshape(*shape) if order == "C" else value.reshape(*shape, order=order)
            return families.array._make(reshaped)
        if len(shape) == 1 and not isinstance(shape[0], int) and shape[0] is not None:
            shape = shape[0]
        return families.reshaping.reshape(self, shape, order=order, copy=copy)

    def transpose(self, *axes: int | ShapeLike | None) -> ndarray:
        """Returns a view of the array with axes transposed.

        Refer to `arraystack.transpose` for full documentation.

        Parameters
        ----------
        *axes : None, tuple of ints, or n ints
            The permutation of the axes, as one tuple or separate integers; by default reversed.

        Returns
        -------
        p : ndarray
            The array with its axes permuted.

        See Also
        --------
        numpy.ndarray.transpose : The NumPy method this mirrors.
        arraystack.transpose : The equivalent function.
        """
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        return families.reshaping.transpose(self, axes or None)

    def swapaxes(self, axis1: int, axis2: int) -> ndarray:
        """Return a view of the array with `axis1` and `axis2` interchanged.

        Refer to `arraystack.swapaxes` for full documentation.

        Parameters
        ----------
        axis1, axis2 : int
            The axes to interchange.

        Returns
        -------
        a_swapped : ndarray
            The array with the two axes interchanged.

        See Also
        --------
        numpy.ndarray.swapaxes : The NumPy method this mirrors.
        arraystack.swapaxes : The equivalent function.
        """
        return families.reshaping.swapaxes(self, axis1, axis2)

    def ravel(self, order: str = "C") -> ndarray:
        """Return a flattened array.

        Refer to `arraystack.ravel` for full documentation.

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            The order in which to read the elements; 'C' by default.

        Returns
        -------
        y : ndarray
            A 1-D view when possible (eagerly), else a copy.

        See Also
        --------
        numpy.ndarray.ravel : The NumPy method this mirrors.
        arraystack.ravel : The equivalent function.
        """
        return families.reshaping.ravel(self, order)

    def flatten(self, order: str = "C") -> ndarray:
        """Return a copy of the array collapsed into one dimension.

        Refer to `arraystack.ravel` for full documentation.

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            The order in which to read the elements; 'C' by default.

        Returns
        -------
        y : ndarray
            A 1-D copy of the array.

        See Also
        --------
        numpy.ndarray.flatten : The NumPy method this mirrors.
        arraystack.ravel : The equivalent function.
        """
        return families.basic.copy(families.reshaping.ravel(self, order))

    def squeeze(self, axis: AxisLike = None) -> ndarray:
        """Remove axes of length one.

        Refer to `arraystack.squeeze` for full documentation.

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            Selects a subset of the length-one axes.

        Returns
        -------
        squeezed : ndarray
            The array without the length-one dimensions.

        See Also
        --------
        numpy.ndarray.squeeze : The NumPy method this mirrors.
        arraystack.squeeze : The equivalent function.
        """
        return families.reshaping.squeeze(self, axis)

    def repeat(self, repeats: ArrayLike, axis: int | None = None) -> ndarray:
        """Repeat elements of an array.

        Refer to `arraystack.repeat` for full documentation.

        Parameters
        ----------
        repeats : int or array of ints
            The number of repetitions for each element.
        axis : int, optional
            The axis along which to repeat values; by default the flattened array.

        Returns
        -------
        repeated_array : ndarray
            The repeated elements.

        See Also
        --------
        numpy.ndarray.repeat : The NumPy method this mirrors.
        arraystack.repeat : The equivalent function.
        """
        return families.rearranging.repeat(self, repeats, axis)

    def sum(self, *args: Any, **kwargs: Any) -> ndarray:
        """Return the sum of the array elements over the given axis.

        Refer to `arraystack.sum` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.sum` after the array:
            axis, dtype, out, keepdims, initial, where.

        Returns
        -------
        sum_along_axis : ndarray
            The sum.

        See Also
        --------
        numpy.ndarray.sum : The NumPy method this mirrors.
        arraystack.sum : The equivalent function.
        """
        return families.reductions.sum(self, *args, **kwargs)

    def prod(self, *args: Any, **kwargs: Any) -> ndarray:
        """Return the product of the array elements over the given axis.

        Refer to `arraystack.prod` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.prod` after the array:
            axis, dtype, out, keepdims, initial, where.

        Returns
        -------
        product : ndarray
            The product.

        See Also
        --------
        numpy.ndarray.prod : The NumPy method this mirrors.
        arraystack.prod : The equivalent function.
        """
        return families.reductions.prod(self, *args, **kwargs)

    def mean(self, *args: Any, **kwargs: Any) -> ndarray:
        """Returns the average of the array elements along given axis.

        Refer to `arraystack.mean` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.mean` after the array:
            axis, dtype, out, keepdims, where.

        Returns
        -------
        m : ndarray
            The mean.

        See Also
        --------
        numpy.ndarray.mean : The NumPy method this mirrors.
        arraystack.mean : The equivalent function.
        """
        return families.averages.mean(self, *args, **kwargs)

    def var(self, *args: Any, **kwargs: Any) -> ndarray:
        """Returns the variance of the array elements, along given axis.

        Refer to `arraystack.var` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.var` after the array:
            axis, dtype, out, ddof, keepdims, where, mean, correction.

        Returns
        -------
        variance : ndarray
            The variance.

        See Also
        --------
        numpy.ndarray.var : The NumPy method this mirrors.
        arraystack.var : The equivalent function.
        """
        return families.averages.var(self, *args, **kwargs)

    def std(self, *args: Any, **kwargs: Any) -> ndarray:
        """Returns the standard deviation of the array elements along given axis.

        Refer to `arraystack.std` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.std` after the array:
            axis, dtype, out, ddof, keepdims, where, mean, correction.

        Returns
        -------
        standard_deviation : ndarray
            The standard deviation.

        See Also
        --------
        numpy.ndarray.std : The NumPy method this mirrors.
        arraystack.std : The equivalent function.
        """
        return families.averages.std(self, *args, **kwargs)

    def min(self, *args: Any, **kwargs: Any) -> ndarray:
        """Return the minimum along a given axis.

        Refer to `arraystack.min` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.min` after the array:
            axis, out, keepdims, initial, where.

        Returns
        -------
        min : ndarray
            The minimum.

        See Also
        --------
        numpy.ndarray.min : The NumPy method this mirrors.
        arraystack.min : The equivalent function.
        """
        return families.reductions.min(self, *args, **kwargs)

    def max(self, *args: Any, **kwargs: Any) -> ndarray:
        """Return the maximum along a given axis.

        Refer to `arraystack.max` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.max` after the array:
            axis, out, keepdims, initial, where.

        Returns
        -------
        max : ndarray
            The maximum.

        See Also
        --------
        numpy.ndarray.max : The NumPy method this mirrors.
        arraystack.max : The equivalent function.
        """
        return families.reductions.max(self, *args, **kwargs)

    def argmin(self, *args: Any, **kwargs: Any) -> ndarray:
        """Return indices of the minimum values along the given axis.

        Refer to `arraystack.argmin` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.argmin` after the array:
            axis, out, keepdims.

        Returns
        -------
        index_array : ndarray
            Indices of the minima.

        See Also
        --------
        numpy.ndarray.argmin : The NumPy method this mirrors.
        arraystack.argmin : The equivalent function.
        """
        return families.reductions.argmin(self, *args, **kwargs)

    def argmax(self, *args: Any, **kwargs: Any) -> ndarray:
        """Return indices of the maximum values along the given axis.

        Refer to `arraystack.argmax` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.argmax` after the array:
            axis, out, keepdims.

        Returns
        -------
        index_array : ndarray
            Indices of the maxima.

        See Also
        --------
        numpy.ndarray.argmax : The NumPy method this mirrors.
        arraystack.argmax : The equivalent function.
        """
        return families.reductions.argmax(self, *args, **kwargs)

    def any(self, *args: Any, **kwargs: Any) -> ndarray:
        """Returns True if any of the elements evaluate to True.

        Refer to `arraystack.any` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.any` after the array:
            axis, out, keepdims, where.

        Returns
        -------
        any : ndarray
            Boolean result.

        See Also
        --------
        numpy.ndarray.any : The NumPy method this mirrors.
        arraystack.any : The equivalent function.
        """
        return families.reductions.any(self, *args, **kwargs)

    def all(self, *args: Any, **kwargs: Any) -> ndarray:
        """Returns True if all elements evaluate to True.

        Refer to `arraystack.all` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.all` after the array:
            axis, out, keepdims, where.

        Returns
        -------
        all : ndarray
            Boolean result.

        See Also
        --------
        numpy.ndarray.all : The NumPy method this mirrors.
        arraystack.all : The equivalent function.
        """
        return families.reductions.all(self, *args, **kwargs)

    def cumsum(self, *args: Any, **kwargs: Any) -> ndarray:
        """Return the cumulative sum of the elements along the given axis.

        Refer to `arraystack.cumsum` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.cumsum` after the array:
            axis, dtype, out.

        Returns
        -------
        cumsum : ndarray
            The cumulative sums.

        See Also
        --------
        numpy.ndarray.cumsum : The NumPy method this mirrors.
        arraystack.cumsum : The equivalent function.
        """
        return families.cumulative.cumsum(self, *args, **kwargs)

    def cumprod(self, *args: Any, **kwargs: Any) -> ndarray:
        """Return the cumulative product of the elements along the given axis.

        Refer to `arraystack.cumprod` for full documentation.

        Parameters
        ----------
        *args, **kwargs
            The arguments of `arraystack.cumprod` after the array:
            axis, dtype, out.

        Returns
        -------
        cumprod : ndarray
            The cumulative products.

        See Also
        --------
        numpy.ndarray.cumprod : The NumPy method this mirrors.
        arraystack.cumprod : The equivalent function.
        """
        return families.cumulative.cumprod(self, *args, **kwargs)

    def nonzero(self) -> tuple[ndarray, ...]:
        """Return the indices of the elements that are non-zero.

        Refer to `arraystack.nonzero` for full documentation.

        Returns
        -------
        tuple_of_arrays : tuple
            One index array per dimension.

        See Also
        --------
        numpy.ndarray.nonzero : The NumPy method this mirrors.
        arraystack.nonzero : The equivalent function.

        Notes
        -----
        Under `jit` the number of nonzero elements is data: use `arraystack.nonzero` with `size=`.
        """
        return families.subscripts.nonzero(self)

    def clip(
        self,
        min: ArrayLike | None = None,
        max: ArrayLike | None = None,
        out: ndarray | None = None,
        **kwargs: Any,
    ) -> ndarray:
        """Return an array whose values are limited to ``[min, max]``.

        Refer to `arraystack.clip` for full documentation.

        Parameters
        ----------
        min, max : array_like, optional
            The bounds; None means no bound on that side.
        out : ndarray, optional
            The results are placed in this array.
        **kwargs
            The ufunc keywords of `arraystack.clip`.

        Returns
        -------
        clipped_array : ndarray
            The clipped values.

        See Also
        --------
        numpy.ndarray.clip : The NumPy method this mirrors.
        arraystack.clip : The equivalent function.
        """
        return families.elementwise_functions.clip(self, min, max, out=out, **kwargs)

    def round(self, decimals: int = 0, out: ndarray | None = None) -> ndarray:
        """Return the array with each element rounded to the given number of decimals.

        Refer to `arraystack.round` for full documentation.

        Parameters
        ----------
        decimals : int, optional
            Number of decimal places to round to.
        out : ndarray, optional
            Alternative output array.

        Returns
        -------
        rounded_array : ndarray
            The rounded values.

        See Also
        --------
        numpy.ndarray.round : The NumPy method this mirrors.
        arraystack.round : The equivalent function.
        """
        return families.elementwise_functions.round(self, decimals, out)

    def conj(self, out: ndarray | None = None) -> ndarray:
        """Complex-conjugate all elements.

        Refer to `arraystack.conjugate` for full documentation.

        Parameters
        ----------
        out : ndarray, optional
            Where to write the result.

        Returns
        -------
        out : ndarray
            The complex conjugate.

        See Also
        --------
        numpy.ndarray.conj : The NumPy method this mirrors.
        arraystack.conjugate : The equivalent function.

        Notes
        -----
        As NumPy's method, an array of a real dtype (bools included) is returned itself, and `out`
        is accepted by position.
        """
        if out is not None:
            return families.elementwise.conjugate(self, out=out)
        if self.dtype.kind != "c":
            return self
        return families.elementwise.conjugate(self)

    def conjugate(self, out: ndarray | None = None) -> ndarray:
        """Return the complex conjugate, element-wise.

        Refer to `arraystack.conjugate` for full documentation.

        Parameters
        ----------
        out : ndarray, optional
            Where to write the result.

        Returns
        -------
        out : ndarray
            The complex conjugate.

        See Also
        --------
        numpy.ndarray.conjugate : The NumPy method this mirrors.
        arraystack.conjugate : The equivalent function.
        ndarray.conj : The same method.
        """
        return self.conj(out)

    def dot(self, b: ArrayLike, out: ndarray | None = None) -> ndarray:
        """Dot product of the array with `b`.

        Refer to `arraystack.dot` for full documentation.

        Parameters
        ----------
        b : array_like
            The second operand.
        out : ndarray, optional
            Output argument.

        Returns
        -------
        output : ndarray
            The dot product.

        See Also
        --------
        numpy.ndarray.dot : The NumPy method this mirrors.
        arraystack.dot : The equivalent function.
        """
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
            For structured arrays, the fields to compare first, then the others in order (NumPy sorts them).
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
            For structured arrays, the fields to compare first, then the others in order (NumPy sorts them).

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
            For structured arrays, the fields to compare first, then the others in order (NumPy sorts them).
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
            For structured arrays, the fields to compare first, then the others in order (NumPy sorts them).

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
        *choices: Sequence[ArrayLike] | ArrayLike,
        out: NDArray | None = None,
        mode: str = "raise",
    ) -> NDArray:
        """Use this array as an index array to construct a new array from a set of choices.

        Refer to `arraystack.choose` for full documentation.

        Parameters
        ----------
        *choices : sequence of arrays, or arrays
            Choice arrays: one argument is the sequence of them; several are the choices themselves
            (`x.choose(a, b)` is `x.choose((a, b))`), as NumPy's method reads them.
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
        if not choices:
            raise TypeError("choose() takes exactly 1 argument (0 given)")
        return families.selection.choose(self, choices[0] if len(choices) == 1 else choices, out, mode)

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
        from arraystack._core.devices import host_values

        host_values(self._scalar(".tofile()")).tofile(fid, sep=sep, format=format)

    def dump(self, file: Any) -> None:
        """Dump a pickle of the array to the specified file.

        The array can be read back with pickle.load or arraystack.load (with ``allow_pickle=True``).

        Parameters
        ----------
        file : str or Path or file
            A file object open for writing bytes, or the name of the file.

        Returns
        -------
        None

        See Also
        --------
        numpy.ndarray.dump : The NumPy method this mirrors.
        dumps, arraystack.load
        """
        import os
        import pickle

        if isinstance(file, (str, os.PathLike)):
            with open(file, "wb") as f:
                pickle.dump(self, f, protocol=2)
        else:
            pickle.dump(self, file, protocol=2)

    def dumps(self) -> bytes:
        """Return the pickle of the array as bytes; pickle.loads converts them back to an array.

        Returns
        -------
        out : bytes
            The pickle (protocol 2, as NumPy's).

        See Also
        --------
        numpy.ndarray.dumps : The NumPy method this mirrors.
        dump
        """
        import pickle

        return pickle.dumps(self, protocol=2)
