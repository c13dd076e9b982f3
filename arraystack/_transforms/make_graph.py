"""arraystack.make_graph: the IR graph that tracing a function records (jax.make_jaxpr's counterpart)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from arraystack._transforms.jit import JitFunction
from arraystack.ir import Graph


def make_graph(
    fun: Callable[..., Any], static_argnums: int | Sequence[int] = ()
) -> Callable[..., Graph]:
    """Transform `fun` into a function returning the IR graph that tracing it records.

    Parameters
    ----------
    fun : callable
        Function of pytrees of arrays.
    static_argnums : int or sequence of int, optional
        Positional arguments that are Python values, as in `jit`.

    Returns
    -------
    callable
        ``make_graph(fun)(*args)`` is the `arraystack.ir.Graph` recorded for these arguments, before
        any optimizer pass; it prints as text (``print(graph)``) that parses back.

    See Also
    --------
    jax.make_jaxpr : the function mirrored.
    arraystack.jit : ``jit(f).lower(*args)`` also shows the graph after the passes.

    Examples
    --------
    >>> import arraystack as np
    >>> graph = np.make_graph(lambda x: np.sin(x) * 2.0)(np.ones(3))
    >>> print(graph)  # doctest: +ELLIPSIS
    graph(a:f64[3]) {
      b:f64[3] = sin a ...
      c:f64[3] = mul b 2.0:f64 ...
      return c
    }
    """
    jf = JitFunction(fun, static_argnums)

    @functools.wraps(fun)
    def graph_of(*args, **kwargs):
        return jf._trace(args, kwargs)[0]

    return graph_of


__all__ = ["make_graph"]
