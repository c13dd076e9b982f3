"""custom_vjp, custom_jvp, checkpoint and stop_gradient: user control over how a function is differentiated.

A custom rule applies where the innermost transformation is the one it customizes (reverse mode for
custom_vjp, forward mode for custom_jvp); everywhere else the function's own body runs and is
transformed like any other code (so vmap and jit see through it, and forward mode of a custom_vjp
function differentiates its body, where JAX would raise).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from arraystack._core.array import ndarray, raw, wrap_array as wrap
from arraystack import checkpoint_policies
from arraystack._transforms import remat_policies
from arraystack.ir import primitives as p
from arraystack.ir.control import barrier_p
from arraystack.ir import tree
from arraystack.ir.ad import forward, ops, reverse
from arraystack.ir.core import Tracer, active, below, bind, trace_state

if TYPE_CHECKING:
    from arraystack.typing import PyTree


def _top():
    return trace_state.top if active.n else None


def _raw_leaves(args):
    leaves, treedef = tree.flatten(list(args))
    return [x._value if isinstance(x, ndarray) else x for x in leaves], treedef


def _tracked(values, trace):
    return any(type(v) is Tracer and v.trace is trace for v in values)


def _unwrap(values, trace, index=None):
    out = []
    for v in values:
        if type(v) is Tracer and v.trace is trace:
            v = v.data if index is None else v.data[index]
        out.append(v)
    return out


def _rewrap(treedef, values):
    return tree.unflatten(treedef, [wrap(v) if _is_array(v) else v for v in values])


def _is_array(v):
    return type(v) is Tracer or hasattr(v, "shape")


class custom_vjp:  # noqa: N801  (JAX's name)
    """A function with a user-defined reverse-mode derivative, set by ``f.defvjp(fwd, bwd)``.

    Parameters
    ----------
    fun : callable
        The function; called as it is wherever reverse mode is not the innermost transformation.
    nondiff_argnums : tuple of int, optional
        Not supported (raises NotImplementedError): close over non-differentiated values instead.

    See Also
    --------
    jax.custom_vjp : the class mirrored.
    arraystack.custom_jvp, arraystack.vjp

    Notes
    -----
    ``fwd(*args)`` returns ``(out, residuals)``; ``bwd(residuals, ct)`` returns a tuple with one
    cotangent (pytree, or None for zero) per positional argument. Unlike JAX, forward mode (`jvp`,
    `jacfwd`) of a custom_vjp function differentiates `fun`'s body instead of raising; `vmap` and
    `jit` see through it.

    Examples
    --------
    >>> import arraystack as np
    >>> @np.custom_vjp
    ... def clip_grad(x):
    ...     return x
    >>> def fwd(x):
    ...     return x, None
    >>> def bwd(res, ct):
    ...     return (np.clip(ct, -1.0, 1.0),)
    >>> _ = clip_grad.defvjp(fwd, bwd)
    >>> np.grad(lambda x: 5.0 * clip_grad(x))(np.asarray(2.0))
    array(1.)
    """

    def __init__(self, fun: Callable[..., Any], nondiff_argnums: tuple[int, ...] = ()) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.fwd = None
        self.bwd = None
        if nondiff_argnums:
            raise NotImplementedError("custom_vjp(nondiff_argnums=...) is not supported; close over the values")

    def defvjp(self, fwd: Callable[..., tuple], bwd: Callable[..., tuple]) -> custom_vjp:
        """Set the forward rule ``fwd(*args) -> (out, residuals)`` and backward rule
        ``bwd(residuals, ct) -> cotangents``; returns this function."""
        self.fwd, self.bwd = fwd, bwd
        return self

    def __call__(self, *args: Any) -> Any:
        if self.fwd is None:
            raise TypeError(f"custom_vjp function {self.fun.__name__} has no rule: call .defvjp(fwd, bwd)")
        top = _top()
        leaves, treedef = _raw_leaves(args)
        if not isinstance(top, reverse.TapeTrace) or not _tracked(leaves, top):
            return self.fun(*args)
        with below(top):
            out, residuals = self.fwd(*_rewrap(treedef, _unwrap(leaves, top)))
        out_leaves, out_tree = tree.flatten(out)
        out_raw = [o._value if isinstance(o, ndarray) else raw(o) for o in out_leaves]
        arg_avals = [ops.aval(v) if _is_array(v) else None for v in leaves]
        bwd, nargs = self.bwd, len(args)

        def rule(ct, out_, needs, *primals):
            cts = bwd(residuals, _rewrap(out_tree, ct))
            if not isinstance(cts, (tuple, list)) or len(cts) != nargs:
                raise TypeError(f"custom_vjp bwd must return a tuple of {nargs} cotangents, got {type(cts).__name__}")
            ct_leaves = _flatten_cotangents(treedef, list(cts))
            result = []
            for c, a, need in zip(ct_leaves, arg_avals, needs):
                if c is None or not need:
                    result.append(None)
                    continue
                c = c._value if isinstance(c, ndarray) else raw(c)
                if ops.shape(c) != a.shape:
                    raise ValueError(f"custom_vjp bwd returned a cotangent of shape {ops.shape(c)} for {a.str_short()}")
                result.append(ops.convert(c, a.dtype))
            return result

        wrapped = top.record(rule, leaves, {}, tuple(out_raw), True)
        return _rewrap(out_tree, list(wrapped))


def _flatten_cotangents(treedef, cts):
    """Leaves of the cotangent tuple, with a None standing for a whole zero argument."""
    leaves = []
    for sub_def, c in zip(treedef.children, cts):
        n = sub_def.num_leaves
        if c is None:
            leaves.extend([None] * n)
        else:
            got = tree.leaves(c)
            if len(got) != n:
                raise TypeError("custom_vjp bwd returned cotangents whose structure does not match the arguments")
            leaves.extend(got)
    return leaves


class custom_jvp:  # noqa: N801  (JAX's name)
    """A function with a user-defined forward-mode derivative, set by ``@f.defjvp``.

    Parameters
    ----------
    fun : callable
        The function; called as it is wherever no differentiation applies.

    See Also
    --------
    jax.custom_jvp : the class mirrored.
    arraystack.custom_vjp, arraystack.jvp

    Notes
    -----
    The rule ``f_jvp(primals, tangents)`` returns ``(out, tangent_out)``. Reverse mode uses the same
    rule: the VJP of a linear map is its transpose, obtained by differentiating the rule's tangent
    output with respect to the tangents.

    Examples
    --------
    >>> import arraystack as np
    >>> @np.custom_jvp
    ... def f(x):
    ...     return np.sin(x)
    >>> @f.defjvp
    ... def f_jvp(primals, tangents):
    ...     (x,), (t,) = primals, tangents
    ...     return f(x), 2.0 * t
    >>> np.grad(f)(np.asarray(0.5))
    array(2.)
    """

    def __init__(self, fun: Callable[..., Any]) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.jvp = None

    def defjvp(self, jvp: Callable[..., tuple]) -> Callable[..., tuple]:
        """Set the rule ``jvp(primals, tangents) -> (out, tangent_out)``; returns the rule."""
        self.jvp = jvp
        return jvp

    def __call__(self, *args: Any) -> Any:
        if self.jvp is None:
            raise TypeError(f"custom_jvp function {self.fun.__name__} has no rule: use @f.defjvp")
        top = _top()
        leaves, treedef = _raw_leaves(args)
        if isinstance(top, forward.JVPTrace) and _tracked(leaves, top):
            return self._forward(top, leaves, treedef)
        if isinstance(top, reverse.TapeTrace) and _tracked(leaves, top):
            return self._reverse(top, leaves, treedef)
        return self.fun(*args)

    def _call_rule(self, treedef, primals, tangents):
        out, t_out = self.jvp(tuple(_rewrap(treedef, primals)), tuple(_rewrap(treedef, tangents)))
        out_leaves, out_tree = tree.flatten(out)
        t_leaves = tree.leaves(t_out)
        return [raw(o) for o in out_leaves], [raw(t) for t in t_leaves], out_tree

    def _forward(self, top, leaves, treedef):
        primals = _unwrap(leaves, top, 0)
        tangents = [
            (v.data[1] if v.data[1] is not None else ops.zeros_like(v.data[0]))
            if type(v) is Tracer and v.trace is top
            else (ops.zeros_like(v) if _is_array(v) else v)
            for v in leaves
        ]
        with below(top):
            outs, touts, out_tree = self._call_rule(treedef, primals, tangents)
        return _rewrap(out_tree, [top._wrap(o, t) for o, t in zip(outs, touts)])

    def _reverse(self, top, leaves, treedef):
        primals = _unwrap(leaves, top)
        with below(top):
            zeros = [ops.zeros_like(v) if _is_array(v) else v for v in primals]
            outs, _, out_tree = self._call_rule(treedef, primals, zeros)
        is_arr = [_is_array(v) for v in primals]

        def rule(ct, out_, needs, *primals_):
            def tangent_map(*ts):
                return self._call_rule(treedef, list(primals_), list(ts))[1]

            t0 = [ops.zeros_like(v) if a else v for v, a in zip(primals_, is_arr)]
            _, back = reverse.vjp(tangent_map, t0)
            return back(list(ct))

        wrapped = top.record(rule, leaves, {}, tuple(outs), True)
        return _rewrap(out_tree, list(wrapped))


def checkpoint(
    fun: Callable[..., PyTree],
    *,
    prevent_cse: bool = True,
    policy: Callable[..., bool] | None = None,
    static_argnums: int | Sequence[int] = (),
) -> Callable[..., PyTree]:
    """Rematerialize `fun` under reverse mode: keep its inputs, recompute its intermediates.

    Parameters
    ----------
    fun : callable
        The function whose intermediate values are recomputed in the backward pass instead of
        stored.
    prevent_cse : bool, optional
        Under `jit`, keep the optimizer from merging the recomputation with the forward pass (which
        would keep the forward values alive instead of recomputing them). False lets it merge, as
        JAX's does, for a checkpoint inside a `scan` or `fori_loop` body, whose iterations keep
        nothing alive across the loop anyway.
    policy : callable, optional
        Which intermediates the forward pass saves for the backward pass, as JAX's:
        ``policy(prim, *input_avals, **params) -> bool`` per operation, for example
        ``checkpoint_policies.dots_saveable`` (keep matrix products, recompute the elementwise work
        between them). None (``nothing_saveable``): save nothing, recompute every intermediate.
    static_argnums : int or sequence of int, optional
        Positional arguments passed through as they are (Python values the function branches on),
        neither differentiated nor traced.

    Returns
    -------
    callable
        `fun` with the same values and derivatives, trading compute for memory under `grad`/`vjp`.

    See Also
    --------
    jax.checkpoint : the function mirrored.
    arraystack.grad, arraystack.vjp

    Notes
    -----
    Also available as ``arraystack.remat``.

    Examples
    --------
    >>> import arraystack as np
    >>> f = np.checkpoint(lambda x: np.sin(np.sin(x)))
    >>> bool(np.allclose(np.grad(f)(1.0), np.cos(np.sin(1.0)) * np.cos(1.0)))
    True
    """
    if policy is not None and not callable(policy):
        raise TypeError(f"checkpoint policy must be callable (checkpoint_policies), got {policy!r}")
    if policy is checkpoint_policies.nothing_saveable:
        policy = None  # the rule below: every intermediate recomputed
    statics = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def remat_fun(*args):
        fixed = {}
        for i in statics:
            if not -len(args) <= i < len(args):
                raise ValueError(
                    f"checkpoint static_argnums {i} is out of range for {len(args)} arguments"
                )
            fixed[i % len(args)] = args[i]
        dynamic = [a for k, a in enumerate(args) if k not in fixed]

        def call(*values):
            it = iter(values)
            return fun(*[fixed[k] if k in fixed else next(it) for k in range(len(args))])

        top = _top()
        leaves, treedef = _raw_leaves(dynamic)
        if not isinstance(top, reverse.TapeTrace) or not _tracked(leaves, top):
            return call(*dynamic)
        if policy is checkpoint_policies.everything_saveable:
            return call(*dynamic)  # nothing to recompute: the function as it is
        if policy is not None:
            return _remat_with_policy(call, policy, prevent_cse, top, leaves, treedef)
        with below(top):
            out = call(*_rewrap(treedef, _unwrap(leaves, top)))
        out_leaves, out_tree = tree.flatten(out)
        out_raw = [o._value if isinstance(o, ndarray) else raw(o) for o in out_leaves]

        def rule(ct, out_, needs, *primals):
            def replay(*xs):
                res = call(*_rewrap(treedef, list(xs)))
                return [o._value if isinstance(o, ndarray) else raw(o) for o in tree.leaves(res)]

            # the barrier keeps jit's passes from merging the replay with the forward pass (which would keep
            # the forward values alive instead of recomputing them)
            _, back = reverse.vjp(replay, _fenced(primals, prevent_cse))
            return back(list(ct))

        wrapped = top.record(rule, leaves, {}, tuple(out_raw), True)
        return _rewrap(out_tree, list(wrapped))

    return remat_fun


def _fenced(values, prevent_cse):
    """`values` with their arrays passed through one optimization barrier (when `prevent_cse`), so that
    jit's passes do not merge what the backward pass computes from them with the forward pass."""
    values = list(values)
    arrays = [k for k, v in enumerate(values) if _is_array(v)] if prevent_cse else []
    for k, v in zip(arrays, bind(barrier_p, *[values[k] for k in arrays]) if arrays else ()):
        values[k] = v
    return values


def _remat_with_policy(call, policy, prevent_cse, top, leaves, treedef):
    """checkpoint's recording under reverse mode with a policy: the forward pass keeps the outputs of the
    equations `policy` saves, the backward pass recomputes the others from them (remat_policies.py)."""
    from arraystack._transforms.control import _aval, _trace

    primals = _unwrap(leaves, top)
    with below(top):
        avals = [_aval(v, "checkpoint argument") for v in primals]
        graph, consts, out_tree = _trace(call, treedef, avals, what="checkpoint function")
        saves = remat_policies.saved_equations(graph, policy)
        outs, kept = remat_policies.run(graph, list(primals) + list(consts), saves)

    sizes = [len(outs_) for outs_ in kept]

    def rule(ct, out_, needs, *values):
        # the barrier fences the saved values too, so that jit's passes do not merge what the backward
        # pass recomputes from them with the forward pass's own computation
        flat = _fenced(list(values) + [v for outs_ in kept for v in outs_], prevent_cse)
        fenced, rest, saved = flat[: len(values)], iter(flat[len(values) :]), []
        for n in sizes:
            saved.append([next(rest) for _ in range(n)])

        def replay(*xs):
            return remat_policies.run(graph, list(xs) + list(consts), saves, saved)[0]

        _, back = reverse.vjp(replay, fenced)
        return back(list(ct))

    wrapped = top.record(rule, leaves, {}, tuple(outs), True)
    return _rewrap(out_tree, list(wrapped))


remat = checkpoint


def stop_gradient(x: PyTree) -> PyTree:
    """Return `x` unchanged, as a value with zero derivative (a constant to transformations).

    Parameters
    ----------
    x : pytree of arrays
        Value(s) to block; non-array leaves pass through.

    Returns
    -------
    pytree
        The same values, with zero derivative under `grad`, `jvp` and the Jacobians.

    See Also
    --------
    jax.lax.stop_gradient : the function mirrored.
    arraystack.custom_vjp

    Examples
    --------
    >>> import arraystack as np
    >>> np.grad(lambda x: x * np.stop_gradient(x))(np.asarray(3.0))
    array(3.)
    """

    def stop(leaf):
        v = leaf._value if isinstance(leaf, ndarray) else leaf
        if not _is_array(v):
            return leaf
        return wrap(bind(p.stop_gradient_p, v))

    return tree.tree_map(stop, x)


__all__ = ["custom_vjp", "custom_jvp", "checkpoint", "remat", "stop_gradient"]
