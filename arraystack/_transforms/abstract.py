"""Abstract values: `ShapeDtypeStruct` (an array's shape and dtype without its data) and `eval_shape`,
which traces a function on such values (or on arrays, whose data it does not read) and returns the shapes
and dtypes of its results, as jax.eval_shape does. `make_graph` and `jit(f).lower` take them too."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack.ir import tree

if TYPE_CHECKING:
    from arraystack.typing import DTypeLike


class ShapeDtypeStruct:
    """An array's shape and dtype, without data: an argument of `eval_shape`, `make_graph` and
    `jit(f).lower(...)`, and what `eval_shape` returns for each array result.

    Parameters
    ----------
    shape : tuple of int
        The array's shape.
    dtype : data-type
        The array's dtype.

    See Also
    --------
    jax.ShapeDtypeStruct : the class mirrored.
    eval_shape
    """

    __slots__ = ("dtype", "shape")

    def __init__(self, shape: tuple[int, ...], dtype: DTypeLike) -> None:
        self.shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in self.shape):
            raise ValueError(f"a shape has no negative sizes, got {self.shape}")
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def __repr__(self):
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name})"

    def __eq__(self, other):
        if not isinstance(other, ShapeDtypeStruct):
            return NotImplemented
        return self.shape == other.shape and self.dtype == other.dtype

    def __hash__(self):
        return hash((self.shape, self.dtype))


def eval_shape(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The shapes and dtypes of `fun`'s results, traced without computing anything.

    Parameters
    ----------
    fun : callable
        A function of pytrees of arrays (as `jit` takes it).
    *args, **kwargs
        Its arguments: arrays, scalars, or `ShapeDtypeStruct` where only the shape and dtype are known.

    Returns
    -------
    pytree
        `fun`'s result with each array replaced by a `ShapeDtypeStruct` (Python scalars it returns
        are described as 0-d values of their dtype).

    See Also
    --------
    jax.eval_shape : the function mirrored.
    make_graph : the whole graph of the traced computation.

    Examples
    --------
    >>> import arraystack as np
    >>> np.eval_shape(lambda x: x.sum(0), np.ShapeDtypeStruct((3, 4), "float32"))
    ShapeDtypeStruct(shape=(4,), dtype=float32)
    """
    from arraystack._transforms.jit import JitFunction

    graph, _, out_tree = JitFunction(fun)._trace(args, kwargs)
    outputs = graph.outputs[
        : out_tree.num_leaves
    ]  # then the arguments it wrote, which are not results
    return tree.unflatten(out_tree, [ShapeDtypeStruct(o.aval.shape, o.aval.dtype) for o in outputs])
