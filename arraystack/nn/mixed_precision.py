"""Mixed precision: a dtype policy for parameters, computation and outputs, and loss scaling for
float16 (DeepMind's jmp, PyTorch's autocast and GradScaler), over any pytree (modules included).

Everything here is composed of public arraystack functions and decides with `where`, never with a
Python branch on a traced value, so a training step that uses it jits whole.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack.ir import tree as tree_util
from arraystack.ir.avals import kind_of
from arraystack.nn.module import Module, is_array

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray, PyTree


def _is_floating(x) -> bool:
    return is_array(x) and kind_of(np.dtype(x.dtype)) == "f"


def cast_floating(tree: PyTree, dtype: DTypeLike) -> PyTree:
    """Cast the floating-point arrays of a pytree to `dtype`, leaving every other leaf as it is.

    Parameters
    ----------
    tree : pytree
        Arrays, modules, and containers of them.
    dtype : dtype
        The floating dtype to cast to (float16, bfloat16, float32, float64).

    Returns
    -------
    pytree
        `tree` with each floating array (float16, bfloat16, float32, float64) as `dtype`; integer,
        boolean and complex arrays and non-array leaves unchanged.

    See Also
    --------
    jmp.cast_to_full, jmp.cast_to_half : the jmp relatives.
    Policy
    """
    import arraystack as ast

    dtype = ast.dtype(dtype)
    if kind_of(dtype) != "f":
        raise TypeError(f"cast_floating casts to a floating dtype, got {dtype}")
    return tree_util.tree_map(
        lambda x: ast.asarray(x).astype(dtype) if _is_floating(x) else x, tree
    )


@dataclasses.dataclass(frozen=True)
class Policy:
    """The dtypes of a mixed-precision computation: where parameters are kept, where the model
    computes, and what it returns (jmp.Policy).

    Parameters
    ----------
    param_dtype : dtype, optional
        The dtype parameters are stored and updated in (float32).
    compute_dtype : dtype, optional
        The dtype the model computes in: bfloat16 or float16 for mixed precision (float32).
    output_dtype : dtype, optional
        The dtype of the model's outputs, where the loss is computed (float32).

    See Also
    --------
    jmp.Policy : the design mirrored.
    torch.autocast : PyTorch's relative (per-operation casts, chosen by a table).
    DynamicLossScale, cast_floating

    Notes
    -----
    Gradients come back in the dtype each parameter had when the function being differentiated
    received it: differentiate with respect to float32 parameters and cast them to the compute
    dtype inside the function, and the gradients are float32 (their cotangents flow through the
    cast). With float16 compute, scale the loss (`DynamicLossScale`) so small gradients do not
    flush to zero; bfloat16 has float32's exponent range and needs no scaling.

    Examples
    --------
    >>> import arraystack as np
    >>> policy = np.nn.mixed_precision.Policy(compute_dtype=np.bfloat16)
    >>> policy.cast_to_compute({"w": np.ones(2), "step": np.asarray(3)})["w"].dtype
    dtype(bfloat16)
    """

    param_dtype: Any = np.float32
    compute_dtype: Any = np.float32
    output_dtype: Any = np.float32

    def __post_init__(self):
        import arraystack as ast

        for name in ("param_dtype", "compute_dtype", "output_dtype"):
            dtype = ast.dtype(getattr(self, name))
            if kind_of(dtype) != "f":
                raise TypeError(f"Policy.{name} must be a floating dtype, got {dtype}")
            object.__setattr__(self, name, dtype)

    def cast_to_compute(self, tree: PyTree) -> PyTree:
        """The floating arrays of `tree` as `compute_dtype` (see cast_floating)."""
        return cast_floating(tree, self.compute_dtype)

    def cast_to_param(self, tree: PyTree) -> PyTree:
        """The floating arrays of `tree` as `param_dtype` (see cast_floating)."""
        return cast_floating(tree, self.param_dtype)

    def cast_to_output(self, tree: PyTree) -> PyTree:
        """The floating arrays of `tree` as `output_dtype` (see cast_floating)."""
        return cast_floating(tree, self.output_dtype)


def all_finite(tree: PyTree) -> NDArray:
    """Whether every element of every floating array in a pytree is finite.

    Parameters
    ----------
    tree : pytree
        Typically gradients.

    Returns
    -------
    ndarray
        A 0-d boolean array (traced under jit: decide with `where` or `select_tree`).

    See Also
    --------
    jmp.all_finite : the function mirrored.
    DynamicLossScale, select_tree
    """
    import arraystack as ast

    leaves = [ast.all(ast.isfinite(x)) for x in tree_util.leaves(tree) if _is_floating(x)]
    return ast.all(ast.stack(leaves)) if leaves else ast.asarray(True)


def select_tree(pred: ArrayLike, on_true: PyTree, on_false: PyTree) -> PyTree:
    """Choose between two pytrees of one structure by a scalar boolean, leaf by leaf with `where`.

    Parameters
    ----------
    pred : array_like of bool, 0-d
        The choice (traced under jit).
    on_true, on_false : pytree
        Trees of the same structure and leaf dtypes.

    Returns
    -------
    pytree
        ``where(pred, a, b)`` for each pair of leaves, in the leaf's own dtype.

    See Also
    --------
    jmp.select_tree : the function mirrored.
    all_finite
    """
    import arraystack as ast

    pred = ast.asarray(pred)
    if pred.shape != ():
        raise ValueError(f"select_tree expects a 0-d predicate, got shape {pred.shape}")
    return tree_util.tree_map(
        lambda a, b: ast.where(pred, a, b).astype(ast.asarray(a).dtype), on_true, on_false
    )


class NoOpLossScale(Module):
    """A loss scale that does nothing: the stand-in for `DynamicLossScale` with float32 or bfloat16
    compute, so one training step serves every policy (jmp.NoOpLossScale).

    See Also
    --------
    DynamicLossScale
    """

    def scale(self, tree: PyTree) -> PyTree:
        """`tree` unchanged."""
        return tree

    def unscale(self, tree: PyTree) -> PyTree:
        """`tree` unchanged."""
        return tree

    def adjust(self, grads_finite: ArrayLike) -> NoOpLossScale:
        """This loss scale, unchanged."""
        return self


class DynamicLossScale(Module):
    """Dynamic loss scaling for float16 training (jmp.DynamicLossScale, torch.amp.GradScaler).

    Multiply the loss by `loss_scale` before differentiating, so that small gradients survive
    float16's narrow range; divide the gradients by it; when a gradient is not finite, skip the
    update and divide the scale by `factor`; after `period` finite steps in a row, multiply it by
    `factor`. A module (a pytree): it passes through jit and is carried in the training state.

    Parameters
    ----------
    loss_scale : array_like
        The current scale (a 0-d float32 array; 2**15 is a common start).
    counter : array_like, optional
        Finite steps since the scale last changed (0-d int32; 0).
    period : int, optional
        Finite steps after which the scale grows (2000). Static.
    factor : float, optional
        The growth and shrink factor (2.0). Static.
    min_loss_scale : float, optional
        The scale never drops below this (1.0). Static.

    See Also
    --------
    jmp.DynamicLossScale : the design mirrored.
    torch.amp.GradScaler : PyTorch's relative.
    Policy, all_finite, select_tree, NoOpLossScale

    Examples
    --------
    >>> import arraystack as np
    >>> mp = np.nn.mixed_precision
    >>> scale = mp.DynamicLossScale(np.asarray(2.0**15, dtype=np.float32))
    >>> grads = scale.unscale({"w": np.asarray([np.inf], dtype=np.float32)})
    >>> scale.adjust(mp.all_finite(grads)).loss_scale
    array(16384., dtype=float32)
    """

    loss_scale: Any
    counter: Any = None
    period: int = 2000
    factor: float = 2.0
    min_loss_scale: float = 1.0

    def __init__(self, loss_scale, counter=None, period=2000, factor=2.0, min_loss_scale=1.0):
        import arraystack as ast

        self.loss_scale = ast.asarray(loss_scale, dtype=ast.float32)
        self.counter = ast.asarray(0 if counter is None else counter, dtype=ast.int32)
        self.period = int(period)
        self.factor = float(factor)
        self.min_loss_scale = float(min_loss_scale)

    def scale(self, tree: PyTree) -> PyTree:
        """Each floating leaf of `tree` (the loss) multiplied by the loss scale, in its own dtype."""
        return tree_util.tree_map(
            lambda x: x * self.loss_scale.astype(x.dtype) if _is_floating(x) else x, tree
        )

    def unscale(self, tree: PyTree) -> PyTree:
        """Each floating leaf of `tree` (the gradients) divided by the loss scale, in its own dtype.

        The division is by the reciprocal in the leaf's dtype, as jmp does; a float16 gradient that
        overflowed stays infinite, for `all_finite` to see."""
        return tree_util.tree_map(
            lambda x: x * (1.0 / self.loss_scale).astype(x.dtype) if _is_floating(x) else x, tree
        )

    def adjust(self, grads_finite: ArrayLike) -> DynamicLossScale:
        """The loss scale for the next step.

        Parameters
        ----------
        grads_finite : array_like of bool, 0-d
            Whether this step's gradients were all finite (see all_finite).

        Returns
        -------
        DynamicLossScale
            Finite: the counter advanced, and at `period` the scale multiplied by `factor` (kept
            if that overflows float32) and the counter reset. Not finite: the scale divided by
            `factor` (not below `min_loss_scale`) and the counter reset.
        """
        import arraystack as ast

        finite = ast.asarray(grads_finite)
        grown = self.loss_scale * np.float32(self.factor)
        grow = self.counter == self.period - 1
        raised = ast.where(grow & ast.isfinite(grown), grown, self.loss_scale)
        lowered = ast.maximum(
            self.loss_scale / np.float32(self.factor), np.float32(self.min_loss_scale)
        )
        loss_scale = ast.where(finite, raised, lowered)
        counter = ast.where(finite & ~grow, self.counter + 1, ast.zeros_like(self.counter))
        return self.replace(loss_scale=loss_scale, counter=counter)


__all__ = [
    "DynamicLossScale",
    "NoOpLossScale",
    "Policy",
    "all_finite",
    "cast_floating",
    "select_tree",
]
