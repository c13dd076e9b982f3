"""Type aliases for annotating code that uses arraystack, mirroring numpy.typing.

`ArrayLike` is anything arraystack.asarray accepts, `DTypeLike` anything arraystack.dtype accepts, `NDArray`
the array type itself, and `ShapeLike`/`AxisLike` the shape and axis arguments of NumPy's functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias, Union

import numpy as np
import numpy.typing as npt

from arraystack._core.array import ndarray

NDArray: TypeAlias = ndarray
ArrayLike: TypeAlias = Union[ndarray, npt.ArrayLike]
DTypeLike: TypeAlias = npt.DTypeLike
ShapeLike: TypeAlias = Union[int, Sequence[int]]
AxisLike: TypeAlias = Union[int, Sequence[int], None]
ScalarLike: TypeAlias = Union[bool, int, float, complex, np.generic]
PyTree: TypeAlias = Any

__all__ = ["ArrayLike", "AxisLike", "DTypeLike", "NDArray", "PyTree", "ScalarLike", "ShapeLike"]
