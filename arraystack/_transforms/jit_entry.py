"""One compiled specialization of a jitted function, and the guards on what its trace read besides the
arguments (arraystack/_transforms/jit_captures.py says what is guarded and what is not).

Arrays a function reaches through globals, closure cells, objects and dicts are inputs of its graph, never
constants: each call reads them again where they were found, and one rebound with a new shape or dtype
asks for a retrace, as does a changed Python scalar or any other value on the way to them.
"""

from __future__ import annotations

from arraystack._core.array import wrap_array as wrap
from arraystack._transforms.jit_captures import (
    IDENTITY,
    VALUE,
    buffer_of,
    is_container,
    read,
    roles_of,
    same_value,
)
from arraystack.ir import tree


class _Entry:
    """One compiled specialization: the executable, output structure, captured inputs and their guards.

    `bound` is (guards, consts), replaced as a whole: the C fast path of cached calls reads it, runs the
    entry when every guard still sees its expected object, and leaves the other calls to
    `current_consts`."""

    def __init__(self, executable, out_tree, consts, captures, lowered, checks=None):
        self.executable = executable
        self.out_tree = out_tree
        guards = tuple(captures.guards) if captures is not None else ()
        self.bound = (guards, list(consts))
        self.roles = roles_of(guards, consts)
        self.paths = captures.paths if captures is not None else []
        self.checks = checks  # IntegerChecks of Python int arguments, or None
        self.lowered = lowered
        self.single_output = out_tree.node is None
        self.run = executable.runner
        self.tier = 1  # 0 while tiered compilation runs the reference path (backends/numba/tiering.py)
        self.pending = None  # the Tier compiling this entry in the background, if any
        self.key = None  # its key in the function's cache
        self.fast_keys: list = []  # and those of the C fast path it is stored under
        self.changed = ""  # what made current_consts() ask for a retrace
        self.written = ()  # the argument leaves the function writes in place (jit_writeback.py)
        self.layout_sensitive = False  # its result depends on its arguments' strides (jit._build)

    def switch(self, executable):
        """Run `executable` from now on (a backend's compiled tier replacing its first one)."""
        self.executable = executable
        self.run = executable.runner
        self.tier = 1

    @property
    def consts(self):
        return self.bound[1]

    def current_consts(self):
        """The captured inputs for a call now, or None if a guarded value changed (a retrace is needed).

        A captured array rebound to one of the same shape and dtype, or a scalar rebound to an equal
        value, is taken in: the guards expect it from now on (so the C fast path serves the next call)."""
        guards, consts = self.bound
        if not guards:
            return consts
        updated = None
        for i, guard in enumerate(guards):
            kind, source, key, expected, buffer = guard
            now = read(kind, source, key)
            if now is expected and (buffer is None or buffer is expected or now._value is buffer):
                continue
            role = self.roles[i]
            if role == IDENTITY or (role == VALUE and not same_value(now, expected)):
                self._explain(i, expected, now)
                return None
            if role >= 0:
                new = buffer_of(now)
                old = consts[role]
                if new is None or new.shape != old.shape or new.dtype != old.dtype:
                    self._explain(i, expected, now)
                    return None
                if consts is self.bound[1]:
                    consts = list(consts)
                consts[role] = new
            updated = list(guards) if updated is None else updated
            updated[i] = (kind, source, key, now, buffer_of(now))
        if updated is None:
            return consts
        if not self._aliases_agree(updated, consts):
            return None
        self.bound = (tuple(updated), consts)
        return consts

    def adopt(self, captures) -> bool:
        """Take in a walk made after a guard failed, when the trace cannot tell it from the walk made at
        the trace: the same paths, equal scalars, the same functions and objects, arrays of the same
        shapes and dtypes where the graph takes arrays, and containers (dicts, lists, objects) anywhere on
        the way rebound to others of their type (`self.params = new_params`). Its guards hold from now
        on; True when it was taken in (no retrace is needed)."""
        old, new = self.bound[0], tuple(captures.guards)
        if len(new) != len(old) or captures.paths != self.paths:
            return False
        consts = list(self.bound[1])
        taken = {}
        for role, (kind, _, key, expected, buffer), (kind_now, _, key_now, now, buffer_now) in zip(
            self.roles, old, new
        ):
            if kind != kind_now or key != key_now:
                return False
            if role >= 0:  # an array the graph takes: the same shape and dtype, one per input
                if buffer_now is None or taken.setdefault(role, buffer_now) is not buffer_now:
                    return False
                if buffer_now.shape != consts[role].shape or buffer_now.dtype != consts[role].dtype:
                    return False
                consts[role] = buffer_now
            elif role == VALUE:
                if not same_value(now, expected):
                    return False
            elif buffer is not None:  # an array read in Python: the same one
                if buffer_now is not buffer:
                    return False
            elif now is not expected and not (is_container(expected) and type(now) is type(expected)):
                return False
        self.bound = (new, consts)
        return True

    def _aliases_agree(self, guards, consts):
        """Whether every path to one captured array still reaches the same array (else the trace cannot
        tell which one the code reads)."""
        for i, (kind, source, key, _expected, _buffer) in enumerate(guards):
            role = self.roles[i]
            if role >= 0 and buffer_of(read(kind, source, key)) is not consts[role]:
                self.changed = f"{self.paths[i]} and another name for the same array now differ"
                return False
        return True

    def _explain(self, i, expected, now):
        if self.roles[i] == VALUE:
            self.changed = f"{self.paths[i]} changed: {expected!r} -> {now!r}"
        elif buffer_of(now) is not None and buffer_of(expected) is not None:
            old, new = buffer_of(expected), buffer_of(now)
            before, after = f"{old.dtype}{list(old.shape)}", f"{new.dtype}{list(new.shape)}"
            self.changed = f"{self.paths[i]} changed: {before} -> {after}"
        else:
            self.changed = f"{self.paths[i]} was rebound"


def finish_outputs(entry, outs):
    """A call's result from its entry's output buffers: the output pytree of arrays (the C fast path of
    cached calls hands calls of several outputs here)."""
    return tree.unflatten(entry.out_tree, [wrap(o) for o in outs])
