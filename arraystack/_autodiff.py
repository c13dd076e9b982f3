"""grad, value_and_grad, vjp, jvp and linearize: the user-facing differentiation API over pytrees.

The machinery lives in arraystack.ir.ad (traces and rule tables); this module converts between the user's
pytrees of arrays and the raw values the traces carry, and checks what JAX users expect it to check.
"""

from __future__ import annotations

import functools

import numpy as np

from arraystack._array import ndarray, raw, wrap
from arraystack.ir import tree
from arraystack.ir.ad import forward, ops, reverse
from arraystack.ir.ad.partial import linearize_flat
from arraystack.ir.core import user_line


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
            raise ValueError(f"argnums {argnums} out of range for a function called with {nargs} positional arguments")
    return tuple(n % nargs for n in nums)


def _check_inexact(leaves, what, allow_int=False, holomorphic=False):
    for v in leaves:
        dt = ops.dtype(v)
        if holomorphic and dt.kind != "c":
            raise TypeError(f"{what} with holomorphic=True requires complex-valued inputs, got {dt.name}")
        if dt.kind not in "fc" and not allow_int:
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
        rebuilt = tree.unflatten(treedef, [wrap(t) for t in tracers])
        call_args = list(args)
        for i, value in zip(argnums, rebuilt):
            call_args[i] = value
        return fun(*call_args, **kwargs)

    return raws, treedef, flat_fun


def vjp(fun, *primals, has_aux=False):
    """(outputs, vjp_fn) or (outputs, vjp_fn, aux): vjp_fn(cotangents) gives a tuple, one cotangent per primal."""
    argnums = tuple(range(len(primals)))
    raws, treedef, flat_fun = _differentiable_call(fun, primals, {}, argnums)
    out_info = {}

    run = _runner(flat_fun, has_aux, out_info)
    outs, backward = reverse.vjp(run, raws)
    outs, aux = _take_aux(outs, out_info)
    out_tree = out_info["tree"]

    def vjp_fn(cotangents):
        ct_leaves = _flatten_like(out_tree, cotangents, "cotangent")
        ct_raws = []
        for c, o in zip(ct_leaves, outs):
            c = _as_raw(c, "cotangents")
            if ops.shape(c) != ops.shape(o):
                raise ValueError(f"cotangent of shape {ops.shape(c)} for an output of shape {ops.shape(o)}")
            ct_raws.append(ops.convert(c, ops.dtype(o)))
        grads = backward(ct_raws + [None] * len(aux))
        return tuple(_wrap_tree(treedef, [g if g is not None else ops.zeros_like(r) for g, r in zip(grads, raws)]))

    result = (_wrap_tree(out_tree, outs), vjp_fn)
    return result + (_aux_tree(aux, out_info),) if has_aux else result


def _split_aux(out):
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError("a function differentiated with has_aux=True must return a pair (output, aux)")
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
    return tree.unflatten(out_info["aux_tree"], [wrap(a) if hasattr(a, "shape") else a for a in aux])


def _flatten_like(treedef, value, what):
    leaves, got = tree.flatten(value)
    if got != treedef:
        raise TypeError(
            f"{what} structure {got} does not match the function's output structure {treedef} "
            f"(at {user_line()}). Pass one {what} per output, in the same structure (tuple, list, dict) "
            "and with each output's shape and dtype."
        )
    return leaves


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """f -> (value, gradient) of a scalar-valued f with respect to positional argument(s) `argnums`."""

    @functools.wraps(fun)
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
        if a.dtype.kind not in "fc":
            raise TypeError(f"grad requires a real- or complex-valued output, got {a.dtype.name}")
        grads = backward([ops.full((), a.dtype, 1)] + [None] * len(aux))
        grads = [g if g is not None else ops.zeros_like(r) for g, r in zip(grads, raws)]
        for i, (g, r) in enumerate(zip(grads, raws)):
            if ops.dtype(r).kind not in "fc":  # allow_int: no derivative with respect to integers
                grads[i] = ops.zeros_like(r)
        g_tree = tree.unflatten(treedef, [wrap(g) for g in grads])
        g_out = g_tree[0] if isinstance(argnums, int) else tuple(g_tree)
        value = wrap(value)
        return ((value, _aux_tree(aux, out_info)), g_out) if has_aux else (value, g_out)

    return value_and_grad_fun


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """f -> the gradient of a scalar-valued f with respect to positional argument(s) `argnums`."""
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def grad_fun(*args, **kwargs):
        (value_aux, g) = vg(*args, **kwargs)
        return (g, value_aux[1]) if has_aux else g

    return grad_fun


def jvp(fun, primals, tangents, has_aux=False):
    """(outputs, output tangents) of fun at `primals` along `tangents` (tuples of matching pytrees)."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("jvp expects primals and tangents as tuples (one entry per positional argument)")
    if len(primals) != len(tangents):
        raise TypeError(
            f"jvp got {len(primals)} primals but {len(tangents)} tangents (at {user_line()}). "
            "Pass one tangent per primal: jvp(f, (x, y), (tx, ty)), each tangent with its primal's shape."
        )
    raws, treedef, flat_fun = _differentiable_call(fun, tuple(primals), {}, tuple(range(len(primals))))
    t_raws = _tangent_leaves(treedef, tangents, raws)
    out_info = {}
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
        if ops.dtype(r).kind not in "fc":
            out.append(None)
            continue
        if ops.dtype(t) != ops.dtype(r):
            raise TypeError(f"tangent dtype {ops.dtype(t).name} does not match the primal dtype {ops.dtype(r).name}")
        out.append(t)
    return out


def linearize(fun, *primals):
    """(outputs, f_jvp): f_jvp(*tangents) evaluates the tangent map at `primals` without recomputing fun."""
    raws, treedef, flat_fun = _differentiable_call(fun, primals, {}, tuple(range(len(primals))))
    out_info = {}

    def run(*tracers):
        leaves, out_info["tree"] = tree.flatten(flat_fun(*tracers))
        return [_leaf_out(x) for x in leaves]

    outs, linear = linearize_flat(run, raws)
    out_tree = out_info["tree"]

    def f_jvp(*tangents):
        t_raws = _tangent_leaves(treedef, tangents, raws)
        t_raws = [ops.zeros_like(r) if t is None else t for t, r in zip(t_raws, raws)]
        return _wrap_tree(out_tree, linear(t_raws))

    return _wrap_tree(out_tree, outs), f_jvp


__all__ = ["grad", "value_and_grad", "vjp", "jvp", "linearize"]
