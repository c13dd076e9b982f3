"""arraystack.jit: trace a function into the IR, optimize, compile with a backend, cache, and run.

The cache key holds everything that changes the program: the function's code, the pytree structure
of the arguments, each array's shape/dtype/weak type, the values of static arguments and the
backend. Arrays the function captures from globals or closures are inputs of the compiled graph,
never frozen constants: they are re-read on every call, and a rebound global with a new shape
triggers a retrace.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from arraystack._accelerator import fastpath as _fastpath
from arraystack._array import _make, ndarray, wrap
from arraystack._config import config
from arraystack._jit_arguments import (
    _describe_change,
    _leaf_aval,
    _leaf_buffer,
    _static_key,
)
from arraystack._jit_entry import _Entry, _match_captures
from arraystack._jit_entry import finish_outputs as _finish
from arraystack._jit_lowered import Lowered, Stats
from arraystack._jit_placement import PlacedExecutable, resolve_placement
from arraystack._tiering import ArgumentCopies, Tier
from arraystack.backends import compile_graph
from arraystack.ir import passes as _passes
from arraystack.ir import tree
from arraystack.ir.core import active, is_tracing
from arraystack.ir.trace import make_graph as trace_graph

log = logging.getLogger("arraystack.jit")
_host_array = np.ndarray
_pipeline_generation = _passes.pipeline.generation


# With the C accelerator, a cached call with positional array arguments runs in C (_fastpath_jit.c), which
# calls `_call` for everything else; without it, `_call` is __call__ (set after the class)
_JitBase = _fastpath.JitBase if _fastpath is not None else object


class JitFunction(_JitBase):
    """The object `arraystack.jit(fun)` returns: call it like `fun`; inspect with lower()/stats()."""

    def __init__(
        self, fun, static_argnums=(), static_argnames=(), donate_argnums=(), backend=None, tiered=None,
        passes=None, policy=None, devices=None,
    ):
        functools.update_wrapper(self, fun)
        self.fun = fun
        # passes=None: the global pipeline as it is at trace time; else this fixed list, resolved now
        self.passes = None if passes is None else _passes.resolve_pipeline(passes)
        self.tiered = tiered  # None: config.tiered
        # None: the default placement (the backend's executable); else planned, run by the engine
        self.placement = resolve_placement(policy, devices)
        self.static_argnums = (
            (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
        )
        self.static_argnames = (
            (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
        )
        self.donate_argnums = (
            (donate_argnums,) if isinstance(donate_argnums, int) else tuple(donate_argnums)
        )
        self.backend = backend
        self._cache: dict = {}
        self._fast: dict = {}  # (shape, dtype) per positional array argument -> entry
        self._plain = not self.static_argnums and not self.static_argnames
        self._lock = threading.Lock()
        self._stats = Stats()
        self._last_key = None
        if _fastpath is not None and self._plain:
            self._bind_fast_path(self._fast, _pipeline_generation, config, _finish)

    def __get__(self, obj, objtype=None):  # jit on methods
        if obj is None:
            return self
        return functools.partial(self, obj)

    def stats(self) -> dict:
        """Counters of this function: ``{'calls', 'traces', 'compiles', 'cache_hits'}``."""
        return self._stats.as_dict(served=getattr(self, "_fast_hits", 0))  # + the C path's calls

    def last_run(self):
        """The execution engine's report of the latest call of a placed function (jit(policy=...)):
        transfers performed, peak bytes per device, threads; None before one or for the default placement."""
        runs = [e.executable for e in list(self._cache.values())]
        reports = [x.last_report for x in runs if isinstance(x, PlacedExecutable) and x.last_report]
        return max(reports, key=lambda r: r[0])[1] if reports else None

    def wait_compiled(self, timeout: float | None = None) -> bool:
        """Block until every specialization compiling in the background (tiered compilation) runs compiled
        code; True when all of them do."""
        tiers = [e.pending for e in list(self._cache.values()) if e.pending is not None]
        return all([t.wait(timeout) for t in tiers])  # noqa: C419  (wait for every tier, no short cut)

    def _tiered(self, backend) -> bool:
        tiered = config.tiered if self.tiered is None else self.tiered
        return bool(tiered) and backend == "numba"

    def _split(self, args, kwargs):
        static = []
        dynamic_args = []
        for i, a in enumerate(args):
            if i in self.static_argnums or (i - len(args)) in self.static_argnums:
                static.append(("pos", i, _static_key(a, f"#{i}")))
                dynamic_args.append(None)
            else:
                dynamic_args.append(a)
        dynamic_kwargs = {}
        for name, value in kwargs.items():
            if name in self.static_argnames:
                static.append(("kw", name, _static_key(value, repr(name))))
            else:
                dynamic_kwargs[name] = value
        return tuple(static), dynamic_args, dynamic_kwargs

    def _key(self, args, kwargs):
        static, dyn_args, dyn_kwargs = self._split(args, kwargs)
        leaves, treedef = tree.flatten((dyn_args, dyn_kwargs))
        avals = tuple(_leaf_aval(leaf, f"#{k}") for k, leaf in enumerate(leaves))
        backend = self.backend or config.default_backend
        key = (
            self.fun.__code__ if hasattr(self.fun, "__code__") else None,
            treedef,
            avals,
            static,
            self.passes if self.passes is not None else tuple(_passes.PIPELINE),
            None if self.placement is None else self.placement.key,
            backend,
        )
        return key, leaves

    def _call(self, *args, **kwargs):
        if (
            not kwargs and self._plain
        ):  # the fast path: positional concrete arrays, a cached program
            values = []
            # a changed global pipeline or default backend misses here (then retraces if need be)
            key = [_pipeline_generation[0], config.default_backend]
            for a in args:
                t = type(a)
                if t is ndarray:
                    v = a._value
                    if type(v) is not _host_array:
                        break
                elif t is _host_array:  # a NumPy array argument, as NumPy code passes them
                    v = a
                else:
                    break
                values.append(v)
                key.append(t)
                key.append(v.shape)
                key.append(v.dtype)
            else:
                entry = self._fast.get(tuple(key))
                if entry is not None and not active.n and not config.disable_jit:
                    consts = entry.consts if entry.fixed_consts else entry.current_consts()
                    if consts is not None:
                        self._stats.cache_hits += 1
                        outs = entry.run(values + consts if consts else values)
                        if entry.single_output:
                            value = outs[0]
                            out = _make(value if type(value) is _host_array else np.asarray(value))
                            return out
                        return _finish(entry, outs)
        if config.disable_jit or is_tracing():
            return self.fun(*args, **kwargs)
        key, leaves = self._key(args, kwargs)
        entry = self._cache.get(key)
        consts = entry.current_consts() if entry is not None else None
        buffers = [_leaf_buffer(leaf, aval) for leaf, aval in zip(leaves, key[2])]
        copies = None
        if consts is None:
            if entry is None and self._tiered(key[-1]) and self.placement is None:
                copies = ArgumentCopies(buffers)  # for the background compile, made while this call traces
            with self._lock:
                entry = self._build(key, args, kwargs)
            consts = entry.current_consts() or entry.consts
        else:
            self._stats.cache_hits += 1
        if self._plain and not kwargs:
            host = [a._value if type(a) is ndarray else a for a in args]
            if all(type(v) is np.ndarray for v in host):
                self._fast[
                    (_pipeline_generation[0], config.default_backend)
                    + tuple(p for a, v in zip(args, host) for p in (type(a), v.shape, v.dtype))
                ] = entry
        outs = entry.executable(*buffers, *consts)
        if entry.pending is not None and not entry.pending.started:
            entry.pending.start(buffers, consts, copies)  # tier 0 answered; now compile in the background
        return _finish(entry, outs)

    def _trace(self, args, kwargs):
        """Trace with the dynamic leaves abstract; returns (graph, consts, out_tree)."""
        _static, dyn_args, dyn_kwargs = self._split(args, kwargs)
        leaves, treedef = tree.flatten((dyn_args, dyn_kwargs))
        avals = [_leaf_aval(leaf, f"#{k}") for k, leaf in enumerate(leaves)]
        out_tree = []

        def body(*tracers):
            rebuilt_args, rebuilt_kwargs = tree.unflatten(treedef, [wrap(t) for t in tracers])
            call_args = [
                args[i] if a is None and _is_static_pos(self, i, len(args)) else a
                for i, a in enumerate(rebuilt_args)
            ]
            call_kwargs = dict(rebuilt_kwargs)
            for name in self.static_argnames:
                if name in kwargs:
                    call_kwargs[name] = kwargs[name]
            out = self.fun(*call_args, **call_kwargs)
            out_leaves, treedef_out = tree.flatten(out)
            out_tree.append(treedef_out)
            return [leaf._value if isinstance(leaf, ndarray) else leaf for leaf in out_leaves]

        graph, consts = trace_graph(body, avals)
        return graph, consts, out_tree[0]

    def _build(self, key, args, kwargs):
        entry = self._cache.get(key)
        if entry is not None and entry.current_consts() is not None:
            return entry
        from arraystack.ir.passes import PassReport, run_pipeline

        reason = (
            _describe_change(self._last_key, key) if entry is None else "captured array changed"
        )
        self._last_key = key
        self._stats.traces += 1
        self._stats.retrace_reasons.append(reason)
        if config.log_compiles:
            log.warning(
                "arraystack.jit: tracing %s (%s)",
                getattr(self.fun, "__qualname__", self.fun),
                reason,
            )
        graph, consts, out_tree = self._trace(args, kwargs)
        report = PassReport()
        optimized = run_pipeline(graph, self.passes, report=report)
        backend = key[-1]
        donate = self._donated_leaves(args)
        tiered = self._tiered(backend) and self.placement is None
        if self.placement is not None:
            executable = PlacedExecutable(optimized, self.placement, config.cache_dir, self._stats)
        else:
            executable = compile_graph(
                optimized, backend, cache_dir=config.cache_dir, donate=donate, tier=0 if tiered else 1
            )
        self._stats.compiles += getattr(executable, "new_kernels", 0)
        captures = _match_captures(self.fun, consts)
        entry = _Entry(
            executable, out_tree, consts, captures, Lowered(graph, optimized, report, backend)
        )
        if tiered:
            name = getattr(self.fun, "__qualname__", "function")
            entry.tier = 0
            entry.pending = Tier(entry, optimized, backend, config.cache_dir, donate, self._stats, name)
        self._cache[key] = entry
        return entry

    def _donated_leaves(self, args):
        """Positions among the flattened dynamic leaves of the arguments in donate_argnums."""
        if not self.donate_argnums:
            return frozenset()
        out, position = set(), 0
        for i, a in enumerate(args):
            if _is_static_pos(self, i, len(args)):
                continue
            n = len(tree.leaves(a))
            if i in self.donate_argnums or (i - len(args)) in self.donate_argnums:
                out.update(range(position, position + n))
            position += n
        return frozenset(out)

    def lower(self, *args: Any, **kwargs: Any) -> Lowered:
        """Trace and optimize for these arguments without running: a Lowered, whose ``as_text()``
        shows the IR as traced and after the passes (also ``cost()``, ``plan()``, ``draw()``), as
        ``jax.jit(f).lower(*args)`` does."""
        from arraystack.ir.passes import PassReport, run_pipeline

        graph, consts, out_tree = self._trace(args, kwargs)
        report = PassReport()
        return Lowered(
            graph,
            run_pipeline(graph, self.passes, report=report),
            report,
            self.backend or config.default_backend,
            call=(self, consts, out_tree),  # so plan(...).run(*args) can execute the plan
        )


if _fastpath is None:
    JitFunction.__call__ = JitFunction._call


def _is_static_pos(jf, i, n):
    return i in jf.static_argnums or (i - n) in jf.static_argnums


def jit(
    fun: Callable[..., Any] | None = None,
    *,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
    donate_argnums: int | Sequence[int] = (),
    backend: str | None = None,
    tiered: bool | None = None,
    passes: Sequence[Any] | None = None,
    policy: Any = None,
    devices: Any = None,
) -> JitFunction | Callable[[Callable[..., Any]], JitFunction]:
    """Compile `fun`: trace it into the IR, optimize, compile with a backend, cache and run.

    Usable as ``@jit``, ``@jit(static_argnums=...)`` or ``jit(fun, ...)``.

    Parameters
    ----------
    fun : callable, optional
        Function of pytrees of arrays; without it, `jit` returns a decorator.
    static_argnums : int or sequence of int, optional
        Positional arguments that are Python values (hashable): each new value retraces.
    static_argnames : str or sequence of str, optional
        Keyword arguments treated the same way.
    donate_argnums : int or sequence of int, optional
        Arguments whose buffers the compiled function may reuse for its outputs.
    backend : str, optional
        "numba" (compiled) or "reference" (NumPy rules); default
        ``arraystack.config.default_backend``.
    tiered : bool, optional
        Default ``config.tiered``: the first calls run on the reference path while numba compiles in
        the background; False compiles before the first call returns.
    passes : sequence, optional
        This function's own optimizer pipeline: names of registered passes and/or ``(name, fn)``
        pairs (arraystack.ir.passes); default the global pipeline.
    policy : str or object, optional
        A placement policy ("default", "cost", a registered name, or an object with ``place()``): each
        specialization is planned on `devices` and run by the execution engine (see ``last_run()``).
        Default: every region on the host, run by the backend's executable (tiered).
    devices : HardwareModel, optional
        The devices to plan on, e.g. ``arraystack.devices("h100")`` (a simulated accelerator);
        default ``arraystack.devices()``.

    Returns
    -------
    JitFunction or callable
        A callable with `fun`'s signature, plus ``.lower(*args)`` (the IR before and after the
        passes), ``.stats()``, ``.wait_compiled()`` and ``.last_run()``; a decorator when `fun` is None.

    See Also
    --------
    jax.jit : the function mirrored.
    numba.njit : the compiler of the default backend.
    arraystack.make_graph, arraystack.grad, arraystack.vmap

    Notes
    -----
    The cache key holds the function's code, the arguments' pytree structure, each array's shape,
    dtype and weak type, the static values and the backend. Arrays captured from globals or closures
    are inputs of the graph, re-read on every call. Python control flow on a traced value raises an
    error naming the line: use static_argnums or `cond`/`while_loop`/`fori_loop`/`scan`.

    Examples
    --------
    >>> import arraystack as np
    >>> @np.jit
    ... def f(x):
    ...     return np.sin(x) ** 2 + np.cos(x) ** 2
    >>> f(np.arange(3.0))
    array([1., 1., 1.])
    >>> f.stats()["traces"]
    1
    """
    if fun is None:
        return functools.partial(
            jit,
            static_argnums=static_argnums,
            static_argnames=static_argnames,
            donate_argnums=donate_argnums,
            backend=backend,
            tiered=tiered,
            passes=passes,
            policy=policy,
            devices=devices,
        )
    return JitFunction(
        fun, static_argnums, static_argnames, donate_argnums, backend, tiered, passes, policy, devices
    )


__all__ = ["jit"]
