"""from_jax: a JAX function traced once per signature with jax.make_jaxpr, its jaxpr run with
arraystack's primitives (interpreter.py and the rules_*.py tables).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy

from arraystack.jax_import.interpreter import constant, physical_dtype, run_jaxpr


def _import_jax():
    try:
        import jax
    except ImportError as e:  # pragma: no cover - jax is optional
        raise ImportError(
            "arraystack.from_jax needs JAX to trace the function: pip install jax jaxlib"
        ) from e
    return jax


class _Signature:
    """The abstract signature of one call: each dynamic leaf's (shape, dtype) as JAX sees it,
    Python scalars by type (weakly typed in JAX), and the static arguments."""

    __slots__ = ("key", "specs")

    def __init__(self, jax, leaves, treedef, static):
        specs, key = [], [treedef, static]
        for leaf in leaves:
            if isinstance(leaf, (bool, int, float, complex)):
                specs.append(leaf)
                key.append(type(leaf))
                continue
            dtype = numpy.dtype(getattr(leaf, "dtype", None) or numpy.asarray(leaf).dtype)
            shape = tuple(numpy.shape(leaf)) if not hasattr(leaf, "shape") else tuple(leaf.shape)
            dtype = jax.dtypes.canonicalize_dtype(dtype)
            specs.append(jax.ShapeDtypeStruct(shape, dtype))
            key.append((shape, dtype.str))
        self.specs = specs
        self.key = tuple(key)


def from_jax(
    fn: Callable[..., Any], *, static_argnums: int | Sequence[int] = ()
) -> Callable[..., Any]:
    """Run a JAX function with arraystack: its jaxpr converted to arraystack's primitives.

    Parameters
    ----------
    fn : callable
        A function written with JAX (``jax.numpy``, ``jax.lax``, ``jax.nn``, ``jax.random``)
        taking and returning pytrees of arrays.
    static_argnums : int or sequence of int, optional
        Positions of arguments that are Python values fixed at trace time (hashable), as in
        ``jax.jit``.

    Returns
    -------
    callable
        A function of the same arguments (arraystack arrays, NumPy arrays or scalars) returning
        the same pytree with arraystack arrays as leaves. On each new signature (shapes, dtypes,
        tree structure, static values) it traces `fn` with ``jax.make_jaxpr``; the jaxpr is
        cached and each call runs it with arraystack's primitives, so the result composes with
        `arraystack.jit`, `arraystack.grad` (arraystack's own autodiff, not JAX's) and
        `arraystack.vmap`.

    Raises
    ------
    ImportError
        JAX is not installed.
    arraystack.jax_import.UnsupportedPrimitiveError
        The jaxpr holds a primitive without a conversion; the message names it, where it is in
        the jaxpr and the line of `fn` that made it.

    See Also
    --------
    jax.make_jaxpr : what traces `fn`.
    arraystack.onnx.load : the other way graphs of another framework come in.

    Notes
    -----
    Arguments are converted to the dtypes JAX traces them at: with JAX's default 32-bit mode a
    float64 array runs as float32 and an int64 one as int32, as under ``jax.jit``. Closed-over
    JAX arrays become constants. The coverage table of lax primitives is in the guide (from_jax).

    Examples
    --------
    >>> import arraystack as np
    >>> import jax.numpy as jnp
    >>> f = np.from_jax(lambda x: jnp.sum(jnp.tanh(x) ** 2))
    >>> x = np.asarray([0.5, -1.0], dtype=np.float32)
    >>> bool(np.allclose(f(x), np.sum(np.tanh(x) ** 2)))
    True
    >>> g = np.grad(f)(x)
    >>> g.dtype
    dtype('float32')
    """
    jax = _import_jax()
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    cache: dict = {}

    @functools.wraps(fn)
    def converted(*args):
        positions = {a % len(args) for a in static} if args else set()
        dynamic = [a for k, a in enumerate(args) if k not in positions]
        fixed = tuple((k, args[k]) for k in sorted(positions))
        leaves, treedef = jax.tree_util.tree_flatten(dynamic, is_leaf=_is_array)
        signature = _Signature(jax, leaves, treedef, fixed)
        entry = cache.get(signature.key)
        if entry is None:
            entry = cache[signature.key] = _trace(jax, fn, args, positions, signature, treedef)
        closed, out_tree = entry
        inputs = [_argument(leaf, var.aval) for leaf, var in zip(leaves, closed.jaxpr.invars)]
        consts = [constant(c) for c in closed.consts]
        name = getattr(fn, "__name__", "fn")
        with numpy.errstate(all="ignore"):  # XLA's arithmetic raises no floating-point warnings
            outs = run_jaxpr(closed.jaxpr, consts, inputs, [f"from_jax({name})"])
        from arraystack._core.array import wrap_array

        return jax.tree_util.tree_unflatten(out_tree, [wrap_array(o) for o in outs])

    converted.cache = cache  # signature -> (ClosedJaxpr, output tree): one entry per trace
    return converted


def _is_array(x) -> bool:
    from arraystack._core.array import ndarray

    return isinstance(x, ndarray)


def _trace(jax, fn, args, positions, signature, treedef):
    specs = iter(jax.tree_util.tree_unflatten(treedef, signature.specs))
    call_args = [args[k] if k in positions else next(specs) for k in range(len(args))]
    closed, shapes = jax.make_jaxpr(fn, static_argnums=tuple(sorted(positions)), return_shape=True)(
        *call_args
    )
    return closed, jax.tree_util.tree_structure(shapes)


def _argument(leaf, aval):
    """A leaf as the raw operand the jaxpr's input `aval` wants (converted to JAX's dtype)."""
    from arraystack._core.array import ndarray, raw
    from arraystack.ir.core import bind
    from arraystack.ir.primitives import convert_p

    value = raw(leaf) if isinstance(leaf, ndarray) else leaf
    if not hasattr(value, "dtype") or type(value).__module__.startswith("jax"):
        value = numpy.asarray(value)  # Python scalars, lists, JAX arrays
    dtype = physical_dtype(aval)
    if numpy.dtype(value.dtype) != dtype:
        value = bind(convert_p, value, dtype=dtype)
    return value
