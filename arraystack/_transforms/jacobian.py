"""jacfwd, jacrev and hessian: whole Jacobians by vmapping jvp (over an input basis) or vjp (over an output
basis). A Jacobian block has shape output.shape + input.shape, as in JAX."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack._core.array import ndarray, raw
from arraystack._core.array import wrap_array as wrap
from arraystack._core.devices import runs_beside_arguments
from arraystack._transforms.autodiff import _argnums_tuple, _check_inexact, _differentiable_call
from arraystack.ir import tree
from arraystack.ir.ad import batching, forward, ops, reverse
from arraystack.ir.avals import kind_of

if TYPE_CHECKING:
    from arraystack.typing import PyTree


def _out_leaves(out_info):
    def run_outputs(out):
        leaves, out_info["tree"] = tree.flatten(out)
        return [o._value if isinstance(o, ndarray) else raw(o) for o in leaves]

    return run_outputs


def _basis(avals):
    """Identity rows split per leaf: leaf i gets an array (n, *shape_i) of its dtype."""
    sizes = [a.size for a in avals]
    n = sum(sizes)
    eye = np.eye(n)
    out, start = [], 0
    for a, k in zip(avals, sizes):
        out.append(eye[:, start : start + k].reshape((n,) + tuple(a.shape)).astype(a.dtype))
        start += k
    return n, out


def _blocks(stacked, row_avals, col_avals, rows_first):
    """Split batched results into Jacobian blocks [row leaf][col leaf] of shape row.shape + col.shape.

    `stacked[c]` has shape (n_rows, *col.shape) when the batch ran over rows (jacrev), or
    `stacked[r]` has
    shape (n_cols, *row.shape) when it ran over columns (jacfwd)."""
    blocks = [[None] * len(col_avals) for _ in row_avals]
    if rows_first:  # jacrev: batch axis enumerates the output (row) elements
        for c, (value, ca) in enumerate(zip(stacked, col_avals)):
            start = 0
            for r, ra in enumerate(row_avals):
                part = wrap(value)[start : start + ra.size]
                blocks[r][c] = part.reshape(tuple(ra.shape) + tuple(ca.shape))
                start += ra.size
    else:  # jacfwd: batch axis enumerates the input (column) elements
        for r, (value, ra) in enumerate(zip(stacked, row_avals)):
            v = wrap(value)
            start = 0
            for c, ca in enumerate(col_avals):
                part = v[start : start + ca.size]  # (k, *row.shape)
                part = part.reshape((ca.size, ra.size)).T.reshape(tuple(ra.shape) + tuple(ca.shape))
                blocks[r][c] = part
                start += ca.size
    return blocks


def _assemble(blocks, out_tree, in_treedef, argnums):
    per_out = []
    for row in blocks:
        in_tree = tree.unflatten(in_treedef, row)
        per_out.append(in_tree[0] if isinstance(argnums, int) else tuple(in_tree))
    return tree.unflatten(out_tree, per_out)


def jacfwd(
    fun: Callable[..., PyTree], argnums: int | Sequence[int] = 0, holomorphic: bool = False
) -> Callable[..., PyTree]:
    """Transform `fun` into the function computing its Jacobian, by forward mode.

    Parameters
    ----------
    fun : callable
        Function of pytrees of float (or complex) arrays returning a pytree of arrays.
    argnums : int or sequence of int, optional
        Positional argument(s) to differentiate with respect to.
    holomorphic : bool, optional
        `fun` is holomorphic in complex inputs.

    Returns
    -------
    callable
        Takes `fun`'s arguments; returns, per output, a block of shape ``output.shape +
        input.shape`` (a tuple of blocks when `argnums` is a sequence).

    See Also
    --------
    jax.jacfwd : the function mirrored.
    arraystack.jacrev, arraystack.hessian, arraystack.vmap

    Notes
    -----
    One `jvp` per input element, batched with `vmap`: cheaper than `jacrev` when
    there are fewer inputs than outputs.

    Examples
    --------
    >>> import arraystack as np
    >>> np.jacfwd(lambda x: x ** 2)(np.asarray([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    """

    @functools.wraps(fun)
    @runs_beside_arguments  # the basis and the rules' constants on the arguments' device
    def jac_fun(*args, **kwargs):
        nums = _argnums_tuple(argnums, len(args))
        raws, treedef, flat_fun = _differentiable_call(fun, args, kwargs, nums)
        _check_inexact(raws, "jacfwd", holomorphic=holomorphic)
        in_avals = [ops.aval(r) for r in raws]
        n, basis = _basis(in_avals)
        out_info = {}
        outputs = _out_leaves(out_info)

        primal_outs = []

        def run(*tangents):
            outs, touts = forward.jvp(lambda *xs: outputs(flat_fun(*xs)), raws, list(tangents))
            primal_outs[:] = outs
            return [ops.zeros_like(o) if t is None else t for t, o in zip(touts, outs)]

        stacked = batching.vmap(run, basis, [True] * len(basis), n)
        out_avals = [ops.aval(o) for o in primal_outs]
        blocks = _blocks(stacked, out_avals, in_avals, rows_first=False)
        return _assemble(blocks, out_info["tree"], treedef, argnums)

    return jac_fun


def jacrev(
    fun: Callable[..., PyTree], argnums: int | Sequence[int] = 0, holomorphic: bool = False
) -> Callable[..., PyTree]:
    """Transform `fun` into the function computing its Jacobian, by reverse mode.

    Parameters
    ----------
    fun : callable
        Function of pytrees of float (or complex) arrays returning a pytree of arrays.
    argnums : int or sequence of int, optional
        Positional argument(s) to differentiate with respect to.
    holomorphic : bool, optional
        `fun` is holomorphic in complex inputs.

    Returns
    -------
    callable
        Takes `fun`'s arguments; returns, per output, a block of shape ``output.shape +
        input.shape`` (a tuple of blocks when `argnums` is a sequence).

    See Also
    --------
    jax.jacrev : the function mirrored.
    arraystack.jacfwd, arraystack.hessian, arraystack.vmap

    Notes
    -----
    One `vjp` per output element, batched with `vmap`: cheaper than `jacfwd` when
    there are fewer outputs than inputs.

    Examples
    --------
    >>> import arraystack as np
    >>> np.jacrev(lambda x: x ** 2)(np.asarray([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    """

    @functools.wraps(fun)
    @runs_beside_arguments  # the basis and the rules' constants on the arguments' device
    def jac_fun(*args, **kwargs):
        nums = _argnums_tuple(argnums, len(args))
        raws, treedef, flat_fun = _differentiable_call(fun, args, kwargs, nums)
        _check_inexact(raws, "jacrev", holomorphic=holomorphic)
        in_avals = [ops.aval(r) for r in raws]
        out_info = {}
        outputs = _out_leaves(out_info)
        outs, backward = reverse.vjp(lambda *xs: outputs(flat_fun(*xs)), raws)
        out_avals = [ops.aval(o) for o in outs]
        if any(kind_of(a.dtype) not in "fc" for a in out_avals):
            raise TypeError("jacrev requires floating or complex outputs")
        m, basis = _basis(out_avals)

        def pullback(*cts):
            grads = backward(list(cts))
            return [ops.zeros_like(r) if g is None else g for g, r in zip(grads, raws)]

        stacked = batching.vmap(pullback, basis, [True] * len(basis), m)
        blocks = _blocks(stacked, out_avals, in_avals, rows_first=True)
        return _assemble(blocks, out_info["tree"], treedef, argnums)

    return jac_fun


def hessian(
    fun: Callable[..., Any], argnums: int | Sequence[int] = 0, holomorphic: bool = False
) -> Callable[..., PyTree]:
    """Transform a scalar-valued `fun` into its Hessian function, ``jacfwd(jacrev(fun))``.

    Parameters
    ----------
    fun : callable
        Function returning a real scalar.
    argnums : int or sequence of int, optional
        Positional argument(s) to differentiate with respect to.
    holomorphic : bool, optional
        `fun` is holomorphic in complex inputs.

    Returns
    -------
    callable
        Takes `fun`'s arguments; returns the Hessian, of shape ``x.shape + x.shape`` for one
        argument `x`.

    See Also
    --------
    jax.hessian : the function mirrored.
    arraystack.jacfwd, arraystack.jacrev, arraystack.grad

    Examples
    --------
    >>> import arraystack as np
    >>> np.hessian(lambda x: (x ** 3).sum())(np.asarray([1.0, 2.0]))
    array([[ 6.,  0.],
           [ 0., 12.]])
    """
    return jacfwd(jacrev(fun, argnums, holomorphic), argnums, holomorphic)


__all__ = ["hessian", "jacfwd", "jacrev"]
