"""vmap: map a function over an axis of its arguments, with batching rules instead of a Python loop."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack._core.array import ndarray, raw
from arraystack._core.array import wrap_array as wrap
from arraystack._core.devices import runs_beside_arguments
from arraystack._creation.basic import asarray
from arraystack._transforms import result_layouts
from arraystack.ir import tree
from arraystack.ir.ad import batching, ops
from arraystack.ir.core import (
    HOST_DTYPES_COMPUTED,
    HostDtypeError,
    host_array_phrase,
    is_host_dtype,
    user_line,
)

if TYPE_CHECKING:
    from arraystack.typing import PyTree


def _axis_leaves(spec, value, what):
    """One axis (int or None) per leaf of `value`: `spec` is an int/None for a whole subtree, or a container
    matching `value`'s (tuple/list/dict) down to int/None entries, as JAX's in_axes/out_axes prefixes."""
    if spec is None or isinstance(spec, int):
        return [spec] * len(tree.leaves(value))
    if (
        isinstance(spec, (tuple, list))
        and isinstance(value, (tuple, list))
        and len(spec) == len(value)
    ):
        return [a for sp, v in zip(spec, value) for a in _axis_leaves(sp, v, what)]
    if isinstance(spec, dict) and isinstance(value, dict) and set(spec) == set(value):
        return [a for k in sorted(value) for a in _axis_leaves(spec[k], value[k], what)]
    raise ValueError(f"vmap {what} {spec!r} does not match the structure of {type(value).__name__}")


def _unmapped(leaf):
    """An argument leaf with in_axes None as `fun` sees it: a numeric NumPy array or scalar as an
    arraystack array (as jit passes it; asarray's errors for dtypes it does not support); a Python
    scalar stays one (weakly typed, NEP 50); anything else as it is."""
    if isinstance(leaf, (np.ndarray, np.generic)) and leaf.dtype.kind in "biufc":
        return asarray(leaf)
    return leaf


def _move_axis_raw(v, src, dst):
    nd = ops.aval(v).ndim
    src = src % nd if nd else 0
    perm = [d for d in range(nd) if d != src]
    perm.insert(dst % nd if dst < 0 else dst, src)
    return ops.transpose(v, perm)


def vmap(
    fun: Callable[..., PyTree],
    in_axes: int | None | Sequence[Any] | dict = 0,
    out_axes: int | Sequence[Any] | dict = 0,
    axis_size: int | None = None,
) -> Callable[..., PyTree]:
    """Vectorize `fun` over an axis of its positional arguments, with batching rules, not a loop.

    Parameters
    ----------
    fun : callable
        Function of positional pytree arguments, written for one element of the batch.
    in_axes : int, None or pytree, optional
        The mapped axis of each argument: an int, None (not mapped, shared by every element), or a
        tuple with one entry per argument (itself an int, None or a container matching that
        argument).
    out_axes : int or pytree, optional
        Where the mapped axis goes in each output.
    axis_size : int, optional
        The batch size, needed only when no argument is mapped.

    Returns
    -------
    callable
        The batched function, taking and returning pytrees like `fun`.

    See Also
    --------
    jax.vmap : the function mirrored.
    numpy.vectorize : the NumPy relative (a Python loop over elements).
    arraystack.jacfwd, arraystack.jacrev

    Notes
    -----
    `fun` is traced once and each primitive is batched by its rule (a matmul stays one matmul).
    Unmapped arguments (in_axes None) that are NumPy arrays or scalars reach `fun` as arraystack
    arrays, as jit's arguments do; Python scalars stay Python scalars (weakly typed).
    The batched function takes positional arguments only (bind keywords with functools.partial).
    Composes with `grad` and `jit`; JAX's `spmd_axis_name` and `axis_name` are not offered.

    Examples
    --------
    >>> import arraystack as np
    >>> np.vmap(lambda row: row.sum())(np.ones((3, 2)))
    array([2., 2., 2.])
    >>> np.vmap(np.dot, in_axes=(0, None))(np.eye(2), np.asarray([1.0, 2.0]))
    array([1., 2.])
    """
    if not callable(fun):
        raise TypeError(f"vmap expects a function, got {type(fun).__name__}")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)

    @functools.wraps(fun)
    @runs_beside_arguments  # the rules' constants on the arguments' device
    def batched_fun(*args):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(
                f"vmap in_axes has {len(in_axes)} entries but the function got {len(args)} arguments"
            )
        leaves, treedef = tree.flatten(list(args))
        axes = _axis_leaves(
            list(in_axes) if isinstance(in_axes, tuple) else in_axes, list(args), "in_axes"
        )
        leaves = [x if ax is not None else _unmapped(x) for x, ax in zip(leaves, axes)]
        raws = [
            raw(x) if isinstance(x, ndarray) else (np.asarray(x) if ax is not None else x)
            for x, ax in zip(leaves, axes)
        ]
        size = _batch_size(raws, axes, axis_size)
        moved = []
        for v, ax in zip(raws, axes):
            if ax is None:
                moved.append(v)
                continue
            if is_host_dtype(v.dtype):  # mapped over: traced, which host dtypes cannot be
                raise HostDtypeError(
                    f"vmap was asked to map over {host_array_phrase(v.dtype)} (at {user_line()}), "
                    f"which has no traced form: {HOST_DTYPES_COMPUTED}. "
                    "Pass it with in_axes=None, or convert it to numbers first "
                    "(e.g. .astype('int64'))"
                )
            nd = ops.aval(v).ndim
            if not -nd <= ax < nd:
                raise ValueError(f"vmap in_axes {ax} is out of range for an argument of rank {nd}")
            moved.append(_move_axis_raw(v, ax, 0))
        batched = [ax is not None for ax in axes]
        out_info = {}

        def run(*operands):
            call_leaves = [wrap(o) if b else orig for o, b, orig in zip(operands, batched, leaves)]
            for w, b, orig, ax in zip(call_leaves, batched, leaves, axes):
                if b:  # an example's strides in NumPy (orig[i]), for its reshapes
                    result_layouts.argument(w, orig, ax)
            out = fun(*tree.unflatten(treedef, call_leaves))
            out_leaves, out_info["tree"] = tree.flatten(out)
            return [o._value if isinstance(o, ndarray) else raw(o) for o in out_leaves]

        outs = batching.vmap(run, moved, batched, size)
        out_tree = out_info["tree"]
        o_axes = _axis_leaves(out_axes, tree.unflatten(out_tree, outs), "out_axes")
        results = []
        for v, ax in zip(outs, o_axes):
            if ax is None:
                raise ValueError(
                    "vmap out_axes=None needs an output that does not depend on the mapped axis"
                )
            results.append(wrap(_move_axis_raw(v, 0, ax) if ax != 0 else v))
        return tree.unflatten(out_tree, results)

    return batched_fun


def _batch_size(raws, axes, axis_size):
    sizes = {
        ops.aval(v).shape[ax] for v, ax in zip(raws, axes) if ax is not None and ops.aval(v).ndim
    }
    for v, ax in zip(raws, axes):
        if ax is not None and ops.aval(v).ndim == 0:
            raise ValueError(
                "vmap was asked to map over an axis of a 0-d argument; use in_axes=None for it"
            )
    if axis_size is not None:
        sizes.add(axis_size)
    if not sizes:
        raise ValueError("vmap needs at least one mapped argument, or axis_size")
    if len(sizes) > 1:
        raise ValueError(
            f"vmap got inconsistent sizes for the mapped axis: {sorted(sizes)} (at {user_line()}). "
            "Every mapped argument needs the same size along its in_axes axis; "
            "use in_axes=None for arguments that are shared rather than mapped."
        )
    return sizes.pop()


__all__ = ["vmap"]
