"""ndarray's methods that mirror functions: `a.sum(axis=0)` is `arraystack.sum(a, axis=0)`, `a.reshape(...)`
is `arraystack.reshape(a, ...)`, with NumPy's own method where an eager array allows it (the same views and
errors). A base class of ndarray (arraystack/_core/array.py), which keeps the type's state, protocols and
indexing. The family modules these methods call import ndarray themselves, so they cannot be imported
here before ndarray exists: array.py binds them in (`bind`) once it has imported them.
"""

from __future__ import annotations

from types import ModuleType
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arraystack._core.array import ndarray
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, ScalarLike, ShapeLike

# bound by array.py (see bind) once the family modules are imported
_creation: ModuleType
_cumulative: ModuleType
_dtypes: ModuleType
_elementwise: ModuleType
_elementwise_functions: ModuleType
_indexing: ModuleType
_linalg: ModuleType
_manipulation: ModuleType
_rearranging: ModuleType
_reductions: ModuleType
_statistics: ModuleType
eager_buffer: Callable
_make: Callable


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
        value = eager_buffer(self)
        if value is not None and _dtypes.fast_dtype(dtype) is not None:  # NumPy's own method
            result = value.astype(dtype, order, casting, subok, copy)
            return self if result is value else _make(result)
        return _creation.astype(self, dtype, order=order, casting=casting, copy=copy)

    def copy(self, order: str = "C") -> ndarray:
        return _creation.copy(self, order=order)

    def fill(self, value: ScalarLike) -> None:
        _indexing.setitem(self, Ellipsis, value)

    def reshape(
        self,
        *shape: int | ShapeLike,
        order: str = "C",
        copy: bool | None = None,
    ) -> ndarray:
        value = eager_buffer(self)
        if value is not None and copy is None:  # NumPy's own method: the same views and errors
            # (NumPy parses a keyword argument slowly: pass order only when it is not the default)
            return _make(value.reshape(*shape) if order == "C" else value.reshape(*shape, order=order))
        if len(shape) == 1 and not isinstance(shape[0], int) and shape[0] is not None:
            shape = shape[0]
        return _manipulation.reshape(self, shape, order=order, copy=copy)

    def transpose(self, *axes: int | ShapeLike | None) -> ndarray:
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        return _manipulation.transpose(self, axes or None)

    def swapaxes(self, axis1: int, axis2: int) -> ndarray:
        return _manipulation.swapaxes(self, axis1, axis2)

    def ravel(self, order: str = "C") -> ndarray:
        return _manipulation.ravel(self, order)

    def flatten(self, order: str = "C") -> ndarray:
        return _creation.copy(_manipulation.ravel(self, order))

    def squeeze(self, axis: AxisLike = None) -> ndarray:
        return _manipulation.squeeze(self, axis)

    def repeat(self, repeats: ArrayLike, axis: int | None = None) -> ndarray:
        return _rearranging.repeat(self, repeats, axis)

    def sum(self, *args: Any, **kwargs: Any) -> ndarray:
        return _reductions.sum(self, *args, **kwargs)

    def prod(self, *args: Any, **kwargs: Any) -> ndarray:
        return _reductions.prod(self, *args, **kwargs)

    def mean(self, *args: Any, **kwargs: Any) -> ndarray:
        return _statistics.mean(self, *args, **kwargs)

    def var(self, *args: Any, **kwargs: Any) -> ndarray:
        return _statistics.var(self, *args, **kwargs)

    def std(self, *args: Any, **kwargs: Any) -> ndarray:
        return _statistics.std(self, *args, **kwargs)

    def min(self, *args: Any, **kwargs: Any) -> ndarray:
        return _reductions.min(self, *args, **kwargs)

    def max(self, *args: Any, **kwargs: Any) -> ndarray:
        return _reductions.max(self, *args, **kwargs)

    def argmin(self, *args: Any, **kwargs: Any) -> ndarray:
        return _reductions.argmin(self, *args, **kwargs)

    def argmax(self, *args: Any, **kwargs: Any) -> ndarray:
        return _reductions.argmax(self, *args, **kwargs)

    def any(self, *args: Any, **kwargs: Any) -> ndarray:
        return _reductions.any(self, *args, **kwargs)

    def all(self, *args: Any, **kwargs: Any) -> ndarray:
        return _reductions.all(self, *args, **kwargs)

    def cumsum(self, *args: Any, **kwargs: Any) -> ndarray:
        return _cumulative.cumsum(self, *args, **kwargs)

    def cumprod(self, *args: Any, **kwargs: Any) -> ndarray:
        return _cumulative.cumprod(self, *args, **kwargs)

    def nonzero(self) -> tuple[ndarray, ...]:
        return _indexing.nonzero(self)

    def clip(
        self,
        min: ArrayLike | None = None,
        max: ArrayLike | None = None,
        out: ndarray | None = None,
        **kwargs: Any,
    ) -> ndarray:
        return _elementwise_functions.clip(self, min, max, out=out, **kwargs)

    def round(self, decimals: int = 0, out: ndarray | None = None) -> ndarray:
        return _elementwise_functions.round(self, decimals, out)

    def conj(self) -> ndarray:
        return _elementwise.conjugate(self)

    def conjugate(self) -> ndarray:
        return _elementwise.conjugate(self)

    def dot(self, b: ArrayLike, out: ndarray | None = None) -> ndarray:
        return _linalg.dot(self, b, out=out)


def bind(families: dict, eager_buffer_fn, make) -> None:
    """Called once by array.py after the family modules are imported: the names the methods above
    call."""
    global _creation, _cumulative, _dtypes, _elementwise, _elementwise_functions, _indexing, _linalg
    global _manipulation, _rearranging, _reductions, _statistics, eager_buffer, _make
    _creation, _cumulative, _dtypes = families["_creation"], families["_cumulative"], families["_dtypes"]
    _elementwise, _elementwise_functions = families["_elementwise"], families["_elementwise_functions"]
    _indexing, _linalg, _manipulation = families["_indexing"], families["_linalg"], families["_manipulation"]
    _rearranging, _reductions = families["_rearranging"], families["_reductions"]
    _statistics = families["_statistics"]
    eager_buffer, _make = eager_buffer_fn, make
