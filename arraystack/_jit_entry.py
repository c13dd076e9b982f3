"""One compiled specialization of a jitted function, and the captured arrays it re-reads on every call.

Arrays a function reaches through globals or closure cells are inputs of its graph, never constants: each
call reads them again, and one that was rebound with a new shape or dtype asks for a retrace.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from arraystack._array import ndarray, wrap
from arraystack.ir import tree


class _Capture:
    """Where a captured array came from (a global name or a closure cell), so each call re-reads it."""

    __slots__ = ("read", "traced")

    def __init__(self, read, traced):
        self.read = read
        self.traced = traced


def _capture_sources(fun, depth=4, seen=None):
    """name -> reader for the globals and closure cells `fun` can reach directly, and those of the functions
    it wraps (transformations such as grad(f) keep f in a closure cell or `__wrapped__`)."""
    readers = {}
    seen = set() if seen is None else seen
    if id(fun) in seen or depth < 0:
        return readers
    seen.add(id(fun))
    code = getattr(fun, "__code__", None)
    inner = [getattr(fun, "__wrapped__", None)]
    inner += [getattr(fun, name, None) for name in ("fun", "fwd", "bwd", "jvp")]  # custom_vjp/custom_jvp
    if code is not None:
        names = set(code.co_names)
        for const in code.co_consts:
            if inspect.iscode(const):
                names.update(const.co_names)
        globs = getattr(fun, "__globals__", {})
        for name in names:
            if name in globs:
                readers[(id(globs), "global", name)] = functools.partial(globs.get, name)
        for name, cell in zip(code.co_freevars, fun.__closure__ or ()):
            readers[(id(cell), "cell", name)] = lambda cell=cell: cell.cell_contents
            try:
                inner.append(cell.cell_contents)
            except ValueError:  # an empty cell
                pass
    for f in inner:
        if f is not None and callable(f) and not isinstance(f, type):
            readers.update(_capture_sources(f, depth - 1, seen))
    return readers


def _buffer_of(value):
    if isinstance(value, ndarray):
        return value._value
    if isinstance(value, np.ndarray):
        return value
    return None


class _Entry:
    """One compiled specialization: the executable, output structure and captured inputs."""

    def __init__(self, executable, out_tree, consts, captures, lowered):
        self.executable = executable
        self.out_tree = out_tree
        self.consts = consts
        self.captures = captures  # per const: a _Capture or None
        self.lowered = lowered
        self.single_output = out_tree.node is None
        self.fixed_consts = all(c is None for c in captures)
        self.run = executable.runner
        self.tier = 1  # 0 while tiered compilation runs the reference path (arraystack/_tiering.py)
        self.pending = None  # the Tier compiling this entry in the background, if any

    def current_consts(self):
        """Captured inputs as they are now, or None if one changed shape/dtype (a retrace is needed)."""
        out = self.consts
        for k, cap in enumerate(self.captures):
            if cap is None:
                continue
            now = _buffer_of(cap.read())
            if now is cap.traced:
                continue
            if now is None or now.shape != cap.traced.shape or now.dtype != cap.traced.dtype:
                return None
            if out is self.consts:
                out = list(self.consts)
            out[k] = now
        return out


def _match_captures(fun, consts):
    by_id = {}
    for reader in _capture_sources(fun).values():
        try:
            buffer = _buffer_of(reader())
        except (NameError, ValueError):
            continue
        if buffer is not None:
            by_id[id(buffer)] = reader
    return [_Capture(by_id[id(c)], c) if id(c) in by_id else None for c in consts]


def finish_outputs(entry, outs):
    """A call's result from its entry's output buffers: the output pytree of arrays (the C fast path of
    cached calls hands calls of several outputs here)."""
    return tree.unflatten(entry.out_tree, [wrap(o) for o in outs])
