"""arraystack.jit: trace a function into the IR, optimize, compile with a backend, cache, and run.

The cache key holds everything that changes the program: the function's code, the pytree structure
of the arguments, each array's shape/dtype/weak type, the values of static arguments and the
backend. What the trace read besides the arguments is guarded (arraystack/_transforms/jit_captures.py): arrays
captured from globals, closures, objects and dicts are inputs of the compiled graph, re-read on every
call; a rebound array with a new shape, a changed Python scalar or a rebound helper retraces.
"""

from __future__ import annotations

import functools
import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from arraystack._core.accelerator import fastpath as _fastpath
from arraystack._core.array import _make, ndarray
from arraystack._core.array import wrap_array as wrap
from arraystack._core.config import config
from arraystack._core.devices import backend_of_arguments
from arraystack._core.devices import buffer_devices as _buffer_devices
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import recording_layout_use
from arraystack._transforms.jit_arguments import (
    IntegerChecks,
    _describe_change,
    _leaf_aval,
    _leaf_buffer,
    adopt,
    donated_leaves,
    is_static_position,
    layout_key,
    split_arguments,
)
from arraystack._transforms.jit_cache import Specializations
from arraystack._transforms.jit_captures import MISSING, find_captures
from arraystack._transforms.jit_entry import _Entry
from arraystack._transforms.jit_entry import finish_outputs as _finish
from arraystack._transforms.jit_lowered import Lowered, Stats
from arraystack._transforms.jit_placement import PlacedExecutable, resolve_placement
from arraystack._transforms.jit_writeback import check_writable, write_back, written_arguments
from arraystack.backends import CompileOptions
from arraystack.backends import get as backend_named
from arraystack.backends.engine import Engine
from arraystack.backends.hardware import host
from arraystack.ir import passes as _passes
from arraystack.ir import tree
from arraystack.ir.core import active, is_tracing
from arraystack.ir.trace import make_graph as trace_graph

log = logging.getLogger("arraystack.jit")
_host_array = np.ndarray
_pipeline_generation = _passes.pipeline.generation


# With the C accelerator, a cached call with positional array arguments runs in C
# (_core/_fastpath_jit.c), which calls `_call` for everything else; without it, `_call` is __call__
# (set after the class)
_JitBase = _fastpath.JitBase if _fastpath is not None else object


_unpickled: dict = {}  # token -> the JitFunction unpickled in this process


def _unpickle(token, cls, fun, arguments):
    found = _unpickled.get(token)
    if found is None:
        found = _unpickled[token] = cls(fun, *arguments)
        found._token = token
    return found


class JitFunction(_JitBase):
    """The object `arraystack.jit(fun)` returns: call it like `fun`; inspect with lower()/stats()."""

    def __init__(
        self, fun, static_argnums=(), static_argnames=(), donate_argnums=(), backend=None, tiered=None,
        passes=None, policy=None, devices=None,
    ):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self._arguments = (
            static_argnums, static_argnames, donate_argnums, backend, tiered, passes, policy, devices
        )
        self._token = None  # set when first pickled
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
        self._stats = Stats()
        self._specs = Specializations(self._stats)  # at most config.jit_cache_size, LRU
        self._cache = self._specs.entries  # key -> entry
        self._fast = self._specs.fast  # (type, shape, dtype) per positional array argument -> entry
        self._fast_c = self._specs.fast_c  # the same, for C-ordered arguments only
        self._plain = not self.static_argnums and not self.static_argnames
        self._lock = threading.Lock()
        self._last_key = None
        if _fastpath is not None and self._plain:
            specs = self._specs
            self._bind_fast_path(
                specs.fast, specs.used, _pipeline_generation, config, _finish, MISSING
            )

    def __reduce__(self):
        # pickled (for another process: a dask worker, multiprocessing) as the function and the
        # options; the other process traces anew, its kernels come from the disk cache, and every
        # copy of one JitFunction unpickled there is one object (one trace per shape, not per task)
        if self._token is None:
            self._token = uuid.uuid4().hex
        return (_unpickle, (self._token, type(self), self.fun, self._arguments))

    def __get__(self, obj, objtype=None):  # jit on methods
        if obj is None:
            return self
        return functools.partial(self, obj)

    def stats(self) -> dict:
        """Counters of this function: ``{'calls', 'traces', 'compiles', 'cache_hits', 'evictions'}``,
        and ``'retrace_reasons'``: why each of the latest traces happened (a new shape, a changed
        captured value, ...)."""
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

    def _tiered(self) -> bool:
        """Whether this function compiles tiered, where its backend has tiers (a default placement)."""
        tiered = config.tiered if self.tiered is None else self.tiered
        return bool(tiered) and self.placement is None

    def _key(self, args, kwargs):
        static, dyn_args, dyn_kwargs = split_arguments(self, args, kwargs)
        leaves, treedef = tree.flatten((dyn_args, dyn_kwargs))
        leaves = [adopt(leaf) for leaf in leaves]  # cupy's arrays as arraystack's, sharing memory
        avals = tuple(_leaf_aval(leaf, f"#{k}") for k, leaf in enumerate(leaves))
        # without a backend named, arrays on a device (cuda) compile with that device's backend
        backend = self.backend or backend_of_arguments(leaves) or config.default_backend
        key = (
            self.fun.__code__ if hasattr(self.fun, "__code__") else None,
            treedef,
            avals,
            static,
            self.passes if self.passes is not None else tuple(_passes.PIPELINE),
            None if self.placement is None else self.placement.key,
            tuple(map(layout_key, leaves)),
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
                        device_of = _buffer_devices.get(type(v))
                        if device_of is None:
                            break
                        key.append(device_of(v))  # a device array: its device is in the key
                elif t is _host_array:  # a NumPy array argument, as NumPy code passes them
                    v = a
                else:
                    device_of = _buffer_devices.get(t)
                    if device_of is None:
                        break
                    v = a  # a device library's array (cupy's): its device is in the key
                    key.append(device_of(v))
                values.append(v)
                key.append(t)
                key.append(v.shape)
                key.append(v.dtype)
            else:
                key = tuple(key)
                entry = self._fast.get(key)
                if entry is None and self._fast_c:
                    entry = self._fast_c.get(key)
                    if entry is not None and not _c_ordered(values):
                        entry = None  # traced for C-ordered arguments: the slow path decides
                if entry is not None and not active.n and not config.disable_jit:
                    guards, consts = entry.bound
                    if guards:
                        consts = entry.current_consts()
                    if consts is not None:
                        self._stats.cache_hits += 1
                        self._specs.touch(entry)
                        outs = entry.run(values + consts if consts else values)
                        if entry.single_output:
                            out = outs[0]
                            t = type(out)
                            if t is _host_array or t in _buffer_devices:  # a device array too
                                return _make(out)
                        return _finish(entry, outs)
        if config.disable_jit or is_tracing():
            return self.fun(*args, **kwargs)
        key, leaves = self._key(args, kwargs)
        entry = self._specs.get(key)
        consts = entry.current_consts() if entry is not None else None
        buffers = [_leaf_buffer(leaf, aval) for leaf, aval in zip(leaves, key[2])]
        snapshot = None
        if consts is None:
            tiers = backend_named(key[-1]).tiers if entry is None and self._tiered() else None
            if tiers is not None:  # for the background compile, made while this call traces
                snapshot = tiers.snapshot(buffers)
            with self._lock:
                entry = self._build(key, args, kwargs)
            consts = entry.current_consts()
            consts = entry.consts if consts is None else consts  # rebound again by another thread
        else:
            self._stats.cache_hits += 1
        if entry.checks is not None:  # NumPy's OverflowError for Python ints out of a dtype's range
            entry.checks(leaves, buffers)
        if entry.written:  # arguments the function writes in place: checked now, written back after
            check_writable(entry.written, leaves)
        elif self._plain and not kwargs:
            # the fast key has no strides: an entry whose result depends on them is served there for
            # C-ordered arguments only, where it was traced for them
            c_only = entry.layout_sensitive
            fast_key = _fast_key(args)
            if fast_key is not None and not (c_only and any(k is not None for k in key[6])):
                self._specs.put_fast(fast_key, entry, c_only)
        outs = entry.executable(*buffers, *consts)
        if entry.pending is not None and not entry.pending.started:
            # the first tier answered; now compile in the background
            entry.pending.start(buffers, consts, snapshot, entry.switch)
        if entry.written:
            outs = write_back(entry.written, leaves, outs)
        return _finish(entry, outs)

    def _trace(self, args, kwargs, weak_int_casts=None, written=None, layout_use=None):
        """Trace with the dynamic leaves abstract; returns (graph, consts, out_tree). The graph's outputs
        are the function's, then the new values of the arguments it wrote in place, whose positions
        among the leaves are appended to `written`."""
        _static, dyn_args, dyn_kwargs = split_arguments(self, args, kwargs)
        leaves, treedef = tree.flatten((dyn_args, dyn_kwargs))
        leaves = [adopt(leaf) for leaf in leaves]
        avals = [_leaf_aval(leaf, f"#{k}") for k, leaf in enumerate(leaves)]
        out_tree = []

        def body(*tracers):
            wrapped = [wrap(t) for t in tracers]
            for w, leaf in zip(wrapped, leaves):  # NumPy's strides of each argument, for its reshapes
                result_layouts.argument(w, leaf)
            rebuilt_args, rebuilt_kwargs = tree.unflatten(treedef, wrapped)
            call_args = [
                args[i] if a is None and is_static_position(self, i, len(args)) else a
                for i, a in enumerate(rebuilt_args)
            ]
            call_kwargs = dict(rebuilt_kwargs)
            for name in self.static_argnames:
                if name in kwargs:
                    call_kwargs[name] = kwargs[name]
            out = self.fun(*call_args, **call_kwargs)
            out_leaves, treedef_out = tree.flatten(out)
            out_tree.append(treedef_out)
            results = [leaf._value if isinstance(leaf, ndarray) else leaf for leaf in out_leaves]
            changed = written_arguments(leaves, wrapped, tracers)
            if written is not None:
                written.extend(changed)
            return results + [wrapped[k]._value for k in changed]

        with recording_layout_use() as use:
            graph, consts = trace_graph(body, avals, weak_int_casts)
        if layout_use is not None:
            layout_use.append(use)
        return graph, consts, out_tree[0]

    def _build(self, key, args, kwargs):
        entry = self._cache.get(key)
        statics = [args[at] if where == "pos" else kwargs[at] for where, at, _ in key[3]]
        if entry is not None and (
            entry.current_consts() is not None or entry.adopt(find_captures(self.fun, statics))
        ):  # nothing changed meanwhile (another thread retraced), or a container rebound to its like
            self._stats.cache_hits += 1
            return entry
        from arraystack.ir.passes import PassReport, run_pipeline

        reason = _describe_change(self._last_key, key) if entry is None else entry.changed
        self._last_key = key
        self._stats.traces += 1
        self._stats.retrace_reasons.append(reason)
        if config.log_compiles:
            log.warning(
                "arraystack.jit: tracing %s (%s)",
                getattr(self.fun, "__qualname__", self.fun),
                reason,
            )
        casts, written, layout_use = [], [], []
        graph, consts, out_tree = self._trace(args, kwargs, casts, written, layout_use)
        backend = key[-1]
        target = backend_named(backend)
        report = PassReport()
        optimized = run_pipeline(graph, self.passes, report=report, fusion=target.fusion)
        options = CompileOptions(config.cache_dir, frozenset(donated_leaves(self, args)))
        pending = None
        if self.placement is not None:  # planned on its devices, run by the engine with reports
            executable = PlacedExecutable(optimized, self.placement, config.cache_dir, self._stats)
        else:  # the trivial placement: every region on the host, run straight through by the engine
            tiered = self._tiered() and (getattr(self.fun, "__qualname__", "function"), self._stats)
            engine = Engine.on_one_device(optimized, host(backend), options, tiered or None)
            executable, pending = engine.executable, engine.pending
        self._stats.compiles += getattr(executable, "new_kernels", 0)
        captures = find_captures(self.fun, statics)  # what the trace read besides the arguments
        checks = IntegerChecks.of(graph, len(key[2]), casts)
        lowered = Lowered(graph, optimized, report, backend)
        entry = _Entry(executable, out_tree, consts, captures, lowered, checks)
        entry.written = tuple(written)
        entry.layout_sensitive = layout_use[0].matters  # a write that a layout's view or copy shows
        if pending is not None:
            entry.tier = 0
            entry.pending = pending
        self._specs.put(key, entry)
        return entry

    def lower(self, *args: Any, **kwargs: Any) -> Lowered:
        """Trace and optimize for these arguments without running: a Lowered, whose ``as_text()``
        shows the IR as traced and after the passes (also ``cost()``, ``plan()``, ``draw()``), as
        ``jax.jit(f).lower(*args)`` does."""
        from arraystack.ir.passes import PassReport, run_pipeline

        graph, consts, out_tree = self._trace(args, kwargs)
        report = PassReport()
        leaves = tree.leaves(split_arguments(self, args, kwargs)[1:])
        backend = self.backend or backend_of_arguments(leaves) or config.default_backend
        fusion = backend_named(backend).fusion
        return Lowered(
            graph,
            run_pipeline(graph, self.passes, report=report, fusion=fusion),
            report,
            backend,
            call=(self, consts, out_tree),  # so plan(...).run(*args) can execute the plan
        )


def _c_ordered(values) -> bool:
    """Whether every NumPy array among `values` is C-contiguous, or has fewer than two axes (the
    layouts a cache key counts as C's: jit_arguments.layout_key)."""
    for v in values:
        if type(v) is _host_array and v.ndim >= 2 and not v.flags.c_contiguous:
            return False
    return True


def _fast_key(args):
    """The key `_call`'s fast path looks these positional arguments up by (the C fast path's, for NumPy
    buffers: per argument its type, shape and dtype; an array on a device, an arraystack array or the device
    library's own (cupy's), adds the device first), or None
    when an argument is of a kind the fast path leaves to the full call."""
    key = [_pipeline_generation[0], config.default_backend]
    for a in args:
        v = a._value if type(a) is ndarray else a
        if type(v) is np.ndarray:
            if not v.dtype.isnative:
                return None
        elif type(v) in _buffer_devices:  # on a device, as an arraystack array or the library's own
            key.append(_buffer_devices[type(v)](v))
        else:
            return None
        key += [type(a), v.shape, v.dtype]
    return tuple(key)


if _fastpath is None:
    JitFunction.__call__ = JitFunction._call


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
        The name of a registered backend (``arraystack.backends.available()``): "numba" (compiled),
        "reference" (NumPy rules), ...; default ``arraystack.config.default_backend``.
    tiered : bool, optional
        Default ``config.tiered``: where the backend has tiers (numba), the first calls run its first
        tier while it compiles in the background; False compiles before the first call returns.
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
    dtype and weak type, the static values and the backend; ``config.jit_cache_size`` bounds the
    specializations kept. Arrays captured from globals, closures, objects and dicts are inputs of the
    graph, re-read on every call; a changed Python scalar or rebound helper the trace read retraces
    (``stats()["retrace_reasons"]`` says why). Python control flow on a traced value raises an
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
