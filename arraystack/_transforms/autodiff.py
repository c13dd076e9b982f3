"""grad, value_and_grad, vjp, jvp and linearize: the user-facing differentiation API over pytrees.

The machinery lives in arraystack.ir.ad (traces and rule tables); this module converts between the
user's pytrees of arrays and the raw values the traces carry, and checks what JAX users expect it to
check.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack._core.array import ndarray, raw
from arraystack._core.array import wrap_array as wrap
from arraystack._core.devices import beside_arguments, runs_beside_arguments
from arraystack._transforms import result_layouts
from arraystack.ir import tree
from arraystack.ir.ad import forward, ops, reverse
from arraystack.ir.ad.partial import linearize_flat
from arraystack.ir.avals import kind_of
from arraystack.ir.core import user_line

if TYPE_CHECKING:
    from arraystack.typing import PyTree


def _as_raw(x, what):
    if isinstance(x, ndarray):
        return x._value
    if isinstance(x, (np.ndarray, np.generic, bool, int, float, complex)):
        return np.asarray(x)
    try:
        return raw(x)
    except Exception:
        raise TypeError(f"{what} must be arrays or scalars, got {type(x).__name__}") from None


def _leaf_out(x):
    return x._value if isinstance(x, ndarray) else raw(x)


def _wrap_tree(treedef, leaves):
    return tree.unflatten(treedef, [wrap(v) for v in leaves])


def _argnums_tuple(argnums, nargs):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for n in nums:
        if not -nargs <= n < nargs:
            raise ValueError(
                f"argnums {argnums} out of range for a function called with {nargs} positional arguments"
            )
    return tuple(n % nargs for n in nums)


def _check_inexact(leaves, what, allow_int=False, holomorphic=False):
    for v in leaves:
        dt = ops.dtype(v)
        if holomorphic and dt.kind != "c":
            raise TypeError(
                f"{what} with holomorphic=True requires complex-valued inputs, got {dt.name}"
            )
        if kind_of(dt) not in "fc" and not allow_int:
            raise TypeError(
                f"{what} requires real- or complex-valued inputs (a floating or complex dtype), got {dt.name}"
                f" (at {user_line()}). "
                "Convert the input with .astype(float), or mark it non-differentiated by leaving it out of argnums."
            )


def _differentiable_call(fun, args, kwargs, argnums):
    """Split args into differentiated leaves and a function of those leaves that calls `fun`."""
    diff_trees = [args[i] for i in argnums]
    leaves, treedef = tree.flatten(diff_trees)
    raws = [_as_raw(x, "differentiated arguments") for x in leaves]

    def flat_fun(*tracers):
        wrapped = [wrap(t) for t in tracers]
        for w, leaf in zip(wrapped, leaves):  # NumPy's strides of each argument, for its reshapes
            result_layouts.argument(w, leaf)
        rebuilt = tree.unflatten(treedef, wrapped)
        call_args = list(args)
        for i, value in zip(argnums, rebuilt):
            call_args[i] = value
        return fun(*call_args, **kwargs)

    return raws, treedef, flat_fun


def vjp(fun: Callable[..., PyTree], *primals: PyTree, has_aux: bool = False) -> tuple:
    """Evaluate `fun` at `primals` and return its vector-Jacobian product function (reverse mode).

    Parameters
    ----------
    fun : callable
        Function of the primals' pytrees (arrays, scalars, tuples, lists, dicts) returning a pytree
        of arrays.
    *primals : pytree
        The point to differentiate at, one entry per positional argument of `fun`.
    has_aux : bool, optional
        `fun` returns ``(output, aux)``; `aux` is returned as it is, not differentiated.

    Returns
    -------
    tuple
        ``(outputs, vjp_fn)``, or ``(outputs, vjp_fn, aux)`` with `has_aux`. ``vjp_fn(cotangents)``
        takes cotangents shaped like `outputs` and returns a tuple with one cotangent per primal.

    See Also
    --------
    jax.vjp : the function mirrored.
    arraystack.grad, arraystack.jvp, arraystack.jacrev

    Notes
    -----
    The forward pass is recorded once into a tape; `vjp_fn` can be called many times.

    Examples
    --------
    >>> import arraystack as np
    >>> y, vjp_fn = np.vjp(lambda x: x ** 2, np.asarray([1.0, 2.0]))
    >>> vjp_fn(np.asarray([1.0, 1.0]))
    (array([2., 4.]),)
    """
    argnums = tuple(range(len(primals)))
    raws, treedef, flat_fun = _differentiable_call(fun, primals, {}, argnums)
    out_info = {}

    run = _runner(flat_fun, has_aux, out_info)
    with beside_arguments(primals):
        outs, backward = reverse.vjp(run, raws)
    outs, aux = _take_aux(outs, out_info)
    out_tree = out_info["tree"]

    def vjp_fn(cotangents):
        with beside_arguments(primals):
            return _pull(cotangents)

    def _pull(cotangents):
        ct_leaves = _flatten_like(out_tree, cotangents, "cotangent")
        ct_raws = []
        for c, o in zip(ct_leaves, outs):
            c = _as_raw(c, "cotangents")
            if ops.shape(c) != ops.shape(o):
                raise ValueError(
                    f"cotangent of shape {ops.shape(c)} for an output of shape {ops.shape(o)}"
                )
            ct_raws.append(ops.convert(c, ops.dtype(o)))
        grads = backward(ct_raws + [None] * len(aux))
        return tuple(
            _wrap_tree(
                treedef, [g if g is not None else ops.zeros_like(r) for g, r in zip(grads, raws)]
            )
        )

    result = (_wrap_tree(out_tree, outs), vjp_fn)
    return result + (_aux_tree(aux, out_info),) if has_aux else result


def _split_aux(out):
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(
            "a function differentiated with has_aux=True must return a pair (output, aux)"
        )
    return out[0], out[1]


def _runner(flat_fun, has_aux, out_info):
    """fun -> a function returning raw output leaves followed by raw aux leaves (so the transformation
    strips its tracers from the aux values too)."""

    def run(*tracers):
        out = flat_fun(*tracers)
        aux_leaves = []
        if has_aux:
            out, aux = _split_aux(out)
            aux_leaves, out_info["aux_tree"] = tree.flatten(aux)
        leaves, out_info["tree"] = tree.flatten(out)
        out_info["n_out"] = len(leaves)
        return [_leaf_out(x) for x in leaves] + [
            _leaf_out(a) if isinstance(a, ndarray) else a for a in aux_leaves
        ]

    return run


def _take_aux(values, out_info):
    n = out_info["n_out"]
    return list(values[:n]), list(values[n:])


def _aux_tree(aux, out_info):
    return tree.unflatten(
        out_info["aux_tree"], [wrap(a) if hasattr(a, "shape") else a for a in aux]
    )


def _flatten_like(treedef, value, what):
    leaves, got = tree.flatten(value)
    if got != treedef:
        raise TypeError(
            f"{what} structure {got} does not match the function's output structure {treedef} "
            f"(at {user_line()}). Pass one {what} per output, in the same structure (tuple, list, dict) "
            "and with each output's shape and dtype."
        )
    return leaves


def value_and_grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., tuple]:
    """Transform a scalar-valued `fun` into one returning ``(value, gradient)``.

    Parameters
    ----------
    fun : callable
        Function returning a real scalar (or ``(scalar, aux)`` with `has_aux`).
    argnums : int or sequence of int, optional
        Positional argument(s) to differentiate with respect to (pytrees of float or complex
        arrays).
    has_aux : bool, optional
        `fun` returns ``(value, aux)``; the result is then ``((value, aux), gradient)``.
    holomorphic : bool, optional
        `fun` is complex-valued and holomorphic in complex inputs.
    allow_int : bool, optional
        Accept integer inputs (their gradient is zero) instead of raising TypeError.

    Returns
    -------
    callable
        Takes `fun`'s arguments; returns ``(value, gradient)`` where `gradient` has the structure of
        ``args[argnums]`` (a tuple of them when `argnums` is a sequence).

    See Also
    --------
    jax.value_and_grad : the function mirrored.
    arraystack.grad, arraystack.vjp

    Notes
    -----
    Evaluates `fun` once, then one reverse sweep. Works eagerly and inside `arraystack.jit`.

    Examples
    --------
    >>> import arraystack as np
    >>> np.value_and_grad(lambda x: (x ** 2).sum())(np.asarray([1.0, 2.0]))
    (array(5.), array([2., 4.]))
    """

    @functools.wraps(fun)
    @runs_beside_arguments  # the rules' constants on the arguments' device
    def value_and_grad_fun(*args, **kwargs):
        nums = _argnums_tuple(argnums, len(args))
        raws, treedef, flat_fun = _differentiable_call(fun, args, kwargs, nums)
        _check_inexact(raws, "grad", allow_int, holomorphic)
        out_info = {}
        run = _runner(flat_fun, has_aux, out_info)
        outs, backward = reverse.vjp(run, raws)
        outs, aux = _take_aux(outs, out_info)
        if out_info["tree"].node is not None:
            raise TypeError(
                f"grad requires a scalar-valued function; it returned a {out_info['tree']} (at {user_line()})."
                " Return one scalar loss, with has_aux=True to return (loss, extras); or use jacrev or vjp."
            )
        (value,) = outs
        a = ops.aval(value)
        if a.shape != ():
            raise TypeError(
                f"grad requires a scalar-valued function; its output has shape {a.shape} (at {user_line()})."
                " Reduce it to a scalar (e.g. return loss.sum() or loss.mean()), or use arraystack.jacrev"
                " for the Jacobian or arraystack.vjp for a vector-Jacobian product."
            )
        if a.dtype.kind == "c" and not holomorphic:
            raise TypeError(
                f"grad requires real-valued outputs, got {a.dtype.name}. For holomorphic functions pass holomorphic=True."
            )
        if kind_of(a.dtype) not in "fc":
            raise TypeError(f"grad requires a real- or complex-valued output, got {a.dtype.name}")
        grads = backward([ops.ones_like(value)] + [None] * len(aux))  # on the output's device
        grads = [g if g is not None else ops.zeros_like(r) for g, r in zip(grads, raws)]
        for i, (g, r) in enumerate(zip(grads, raws)):
            # allow_int: no derivative with respect to integers
            if kind_of(ops.dtype(r)) not in "fc":
                grads[i] = ops.zeros_like(r)
        g_tree = tree.unflatten(treedef, [wrap(g) for g in grads])
        g_out = g_tree[0] if isinstance(argnums, int) else tuple(g_tree)
        value = wrap(value)
        return ((value, _aux_tree(aux, out_info)), g_out) if has_aux else (value, g_out)

    return value_and_grad_fun


def grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., Any]:
    """Transform a scalar-valued `fun` into the function computing its gradient.

    Parameters
    ----------
    fun : callable
        Function returning a real scalar (or ``(scalar, aux)`` with `has_aux`).
    argnums : int or sequence of int, optional
        Positional argument(s) to differentiate with respect to (pytrees of float or complex
        arrays).
    has_aux : bool, optional
        `fun` returns ``(value, aux)``; the result is then ``(gradient, aux)``.
    holomorphic : bool, optional
        `fun` is complex-valued and holomorphic in complex inputs.
    allow_int : bool, optional
        Accept integer inputs (their gradient is zero) instead of raising TypeError.

    Returns
    -------
    callable
        Takes `fun`'s arguments and returns the gradient, with the structure of ``args[argnums]``.

    See Also
    --------
    jax.grad : the function mirrored.
    arraystack.value_and_grad, arraystack.vjp, arraystack.jacrev, arraystack.hessian

    Notes
    -----
    A non-scalar output raises TypeError naming jacrev and vjp. Composes with itself
    (``grad(grad(f))``), `vmap` and `jit`.

    Examples
    --------
    >>> import arraystack as np
    >>> np.grad(lambda x: (x ** 3).sum())(np.asarray([1.0, 2.0]))
    array([ 3., 12.])
    >>> np.grad(np.grad(lambda x: x ** 3))(2.0)
    array(12.)
    """
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def grad_fun(*args, **kwargs):
        (value_aux, g) = vg(*args, **kwargs)
        return (g, value_aux[1]) if has_aux else g

    return grad_fun


# -- forward mode: jvp, linearize ------------------------------------------------------------------


def jvp(
    fun: Callable[..., PyTree],
    primals: Sequence[PyTree],
    tangents: Sequence[PyTree],
    has_aux: bool = False,
) -> tuple:
    """Evaluate `fun` and its Jacobian-vector product at `primals` along `tangents` (forward mode).

    Parameters
    ----------
    fun : callable
        Function of ``len(primals)`` positional pytree arguments.
    primals : tuple or list
        The point, one pytree per positional argument.
    tangents : tuple or list
        Directions, matching `primals` in structure, shape and dtype.
    has_aux : bool, optional
        `fun` returns ``(output, aux)``; `aux` is appended to the result.

    Returns
    -------
    tuple
        ``(outputs, output_tangents)``, or ``(outputs, output_tangents, aux)`` with `has_aux`.

    See Also
    --------
    jax.jvp : the function mirrored.
    arraystack.linearize, arraystack.jacfwd, arraystack.vjp

    Examples
    --------
    >>> import arraystack as np
    >>> np.jvp(np.sin, (np.asarray(0.0),), (np.asarray(2.0),))
    (array(0.), array(2.))
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(
            "jvp expects primals and tangents as tuples (one entry per positional argument)"
        )
    if len(primals) != len(tangents):
        raise TypeError(
            f"jvp got {len(primals)} primals but {len(tangents)} tangents (at {user_line()}). "
            "Pass one tangent per primal: jvp(f, (x, y), (tx, ty)), each tangent with its primal's shape."
        )
    raws, treedef, flat_fun = _differentiable_call(
        fun, tuple(primals), {}, tuple(range(len(primals)))
    )
    t_raws = _tangent_leaves(treedef, tangents, raws)
    out_info = {}
    with beside_arguments(primals):
        outs, touts = forward.jvp(_runner(flat_fun, has_aux, out_info), raws, t_raws)
        outs, aux = _take_aux(outs, out_info)
        touts = [t if t is not None else ops.zeros_like(o) for t, o in zip(touts, outs)]
    out_tree = out_info["tree"]
    result = (_wrap_tree(out_tree, outs), _wrap_tree(out_tree, touts))
    return result + (_aux_tree(aux, out_info),) if has_aux else result


def _tangent_leaves(treedef, tangents, raws):
    leaves, got = tree.flatten(list(tangents))
    if got != treedef:
        raise TypeError(
            f"tangent structure {got} does not match the primal structure {treedef} (at {user_line()}). "
            "Give each tangent the same structure (tuple, list, dict) as its primal."
        )
    out = []
    for t, r in zip(leaves, raws):
        t = _as_raw(t, "tangents")
        if ops.shape(t) != ops.shape(r):
            raise ValueError(
                f"tangent of shape {ops.shape(t)} for a primal of shape {ops.shape(r)} "
                f"(at {user_line()}). Each tangent must have its primal's shape (and dtype)."
            )
        if kind_of(ops.dtype(r)) not in "fc":
            out.append(None)
            continue
        if ops.dtype(t) != ops.dtype(r):
            raise TypeError(
                f"tangent dtype {ops.dtype(t).name} does not match the primal dtype {ops.dtype(r).name}"
            )
        out.append(t)
    return out


def linearize(fun: Callable[..., PyTree], *primals: PyTree) -> tuple[PyTree, Callable[..., PyTree]]:
    """Evaluate `fun` at `primals` and return its linear tangent map there.

    Parameters
    ----------
    fun : callable
        Function of ``len(primals)`` positional pytree arguments.
    *primals : pytree
        The point to linearize at.

    Returns
    -------
    tuple
        ``(outputs, f_jvp)``: ``f_jvp(*tangents)`` equals ``jvp(fun, primals, tangents)[1]`` without
        re-evaluating `fun`'s non-linear part.

    See Also
    --------
    jax.linearize : the function mirrored.
    arraystack.jvp

    Examples
    --------
    >>> import arraystack as np
    >>> y, f_jvp = np.linearize(lambda x: x ** 2, np.asarray(3.0))
    >>> f_jvp(np.asarray(1.0))
    array(6.)
    """
    raws, treedef, flat_fun = _differentiable_call(fun, primals, {}, tuple(range(len(primals))))
    out_info = {}

    def run(*tracers):
        leaves, out_info["tree"] = tree.flatten(flat_fun(*tracers))
        return [_leaf_out(x) for x in leaves]

    with beside_arguments(primals):
        outs, linear = linearize_flat(run, raws)
    out_tree = out_info["tree"]

    def f_jvp(*tangents):
        t_raws = _tangent_leaves(treedef, tangents, raws)
        with beside_arguments(primals):
            t_raws = [ops.zeros_like(r) if t is None else t for t, r in zip(t_raws, raws)]
            return _wrap_tree(out_tree, linear(t_raws))

    return _wrap_tree(out_tree, outs), f_jvp


__all__ = ["grad", "jvp", "linearize", "value_and_grad", "vjp"]
