"""What a jitted function reads besides its arguments, found when it is traced, as guards that each call of
the compiled specialization checks (in C on the fast path of cached calls, _core/_fastpath_jit.c).

A trace bakes in what it reads from outside: a captured array becomes an input of the graph (so changes to
its contents are seen), a Python scalar becomes a literal, Python control flow takes one branch. After the
trace, a walk starts at the function (and its static arguments) and follows what code can name: the
globals and closure cells of the function and of every user function reachable from it (helpers,
methods, the functions it wraps), the attributes of objects, classes and user modules named in that code,
the items of dicts under keys that are constants in that code, and the items of lists and tuples. Each
value read on the way becomes a guard `(kind, source, key, expected, buffer)`:

- a captured array (one the graph takes as an input) is read again where it was found, and a new array of
  the same shape and dtype is passed in its stead; another shape or dtype retraces;
- an array that did not enter the graph (its shape or values were read in Python) retraces when rebound;
- a Python or NumPy scalar, str, None, dtype, or tuple of them retraces when its value changes;
- anything else on the way (a dict, a list and its length, an object, a helper function) retraces when
  rebound; a name that was absent (an attribute found on the class, not the instance) retraces when set.

Not guarded (what the trace saw is kept):
- values reached through a computed key or name (`d[name]` with `name` a variable, `getattr(o, name)`,
  iteration over a dict), items beyond the first 64 of a list or tuple, and values nested more than 12
  levels deep (`d["k"].w` is three levels below a global `d`);
- values computed by properties, `__getattr__` and descriptors other than `__slots__` (the code of a
  property is walked, so the attributes it reads are guarded);
- what library code holds (arraystack, NumPy, the standard library and installed packages): attributes of
  their modules (`numpy.pi`) and objects (a library object bound to a global is guarded, its attributes
  are not) and what their functions read (only the user functions they wrap are followed: jit, grad,
  custom_vjp, functools.partial and wraps);
- default argument values (walked, but not read again: `def f(x, w=W)` keeps the W it was defined with);
- the contents of an array that did not enter the graph (`float(W[0])` or NumPy's `W.max()` during the
  trace read W's values into Python): writing into W in place is not seen, rebinding W is.
"""

from __future__ import annotations

import functools
import inspect
import math
import sys
import types

import numpy as np

from arraystack._core.array import ndarray

# Guard kinds; _core/_fastpath_jit.c checks ITEM, CELL, INDEX, CLASS and LENGTH itself and leaves
# the others to `read` (Python)
ITEM, CELL, INDEX, CLASS, LENGTH, SLOT = range(6)
VALUE, IDENTITY = -2, -1  # a guard's role when it is no captured array (those hold the const's index)


class _Missing:
    def __repr__(self):
        return "(absent)"


MISSING = _Missing()  # expected where a name was absent; read where a name or item is gone

_MAX_DEPTH = 12
_MAX_VALUES = 4096
_MAX_ITEMS = 64
_WRAPPER_ATTRS = ("__wrapped__", "fun", "fwd", "bwd", "jvp")  # jit, custom_vjp/custom_jvp, wraps
_LIBRARIES = frozenset(sys.stdlib_module_names) | {
    "arraystack", "numpy", "numba", "llvmlite", "scipy", "jax", "jaxlib", "cupy", "_pytest", "pytest",
}  # fmt: skip
_SIMPLE = (type(None), bool, int, float, complex, str, bytes, np.generic, np.dtype)


def buffer_of(value):
    """The array buffer a captured value stands for, or None when it is no array."""
    if isinstance(value, ndarray):
        return value._value
    if isinstance(value, np.ndarray):
        return value
    return None


def _simple(value, nesting=0):
    if isinstance(value, _SIMPLE):
        return True
    if type(value) is not tuple or nesting > 4 or len(value) > _MAX_ITEMS:
        return False
    return all(_simple(v, nesting + 1) for v in value)


def is_container(value) -> bool:
    """Dicts, lists, tuples and user objects: what the walk sees through (their contents are guarded)."""
    if isinstance(value, (dict, list, tuple)):
        return True
    if isinstance(value, (type, types.FunctionType, types.MethodType, types.ModuleType, np.ndarray)):
        return False
    return hasattr(value, "__dict__") and not _is_library(type(value).__module__)


def same_value(a, b) -> bool:
    """Whether two simple values would trace the same: equal, of one type, with the same float signs
    (0.0 and -0.0 differ) and NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if type(a) is float:
        return _same_float(a, b)
    if type(a) is complex:
        return _same_float(a.real, b.real) and _same_float(a.imag, b.imag)
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    if type(a) is tuple:
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _same_float(a, b):
    if math.isnan(a):
        return math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def read(kind, source, key):
    """The value a guard looks at now (MISSING if it is gone)."""
    if kind == ITEM:
        return source.get(key, MISSING)
    if kind == CELL:
        try:
            return source.cell_contents
        except ValueError:  # an emptied cell
            return MISSING
    if kind == INDEX:
        return source[key] if key < len(source) else MISSING
    if kind == CLASS:
        return source.__dict__.get(key, MISSING)
    if kind == LENGTH:
        return len(source)
    return getattr(source, key, MISSING)  # SLOT


@functools.lru_cache(maxsize=4096)
def _is_library(module_name) -> bool:
    """Library code is not walked: arraystack, NumPy, the standard library and installed packages."""
    if not isinstance(module_name, str):
        return False
    root = module_name.partition(".")[0]
    if root in _LIBRARIES:
        return True
    path = getattr(sys.modules.get(root), "__file__", None) or ""
    return "site-packages" in path or "dist-packages" in path


def _library_module(value) -> bool:
    """Library modules are not guarded where a global names them, nor walked."""
    return isinstance(value, types.ModuleType) and _is_library(value.__name__)


@functools.lru_cache(maxsize=4096)
def _code_names(code):
    """(names, keys): the global/attribute names a code object (and those nested in it) uses, and its
    constants that can be dict keys."""
    names = set(code.co_names)
    keys = set()
    for const in code.co_consts:
        if inspect.iscode(const):
            inner_names, inner_keys = _code_names(const)
            names |= inner_names
            keys |= inner_keys
        elif type(const) in (str, int, bytes) or (type(const) is tuple and _simple(const)):
            keys.add(const)
    return frozenset(names), frozenset(keys)


class Captures:
    """The guards of one trace: `guards` (tuples the C fast path reads), `paths` (how a user would spell
    each value, for retrace messages)."""

    def __init__(self, names, keys):
        self.names = names  # attribute names and dict keys the walk may follow
        self.keys = keys
        self.found_names: set = set()
        self.found_keys: set = set()
        self.guards: list = []
        self.paths: list = []
        self._seen: set = set()
        self._members: dict = {}

    def read(self, kind, source, key, value, path, depth):
        """Guard `value`, read at (kind, source, key), and walk on from it."""
        self.guards.append((kind, source, key, value, buffer_of(value)))
        self.paths.append(path)
        self.visit(value, path, depth + 1)

    def visit(self, value, path, depth):
        if depth > _MAX_DEPTH or len(self._seen) >= _MAX_VALUES or value is MISSING:
            return
        if _simple(value) or buffer_of(value) is not None or id(value) in self._seen:
            return
        self._seen.add(id(value))
        inner = depth + 1  # the depth of what `value` holds
        if isinstance(value, types.FunctionType):
            self._function(value, path, depth)
        elif isinstance(value, types.MethodType):
            self.visit(value.__func__, path, inner)
            self.visit(value.__self__, path, inner)
        elif isinstance(value, functools.partial):
            for held in (value.func, *value.args, *value.keywords.values()):
                self.visit(held, path, inner)
        elif isinstance(value, types.ModuleType):
            if not _is_library(value.__name__):
                self._names_in(ITEM, vars(value), vars(value), path, depth)
        elif isinstance(value, type):
            self._class(value, path, depth)
        elif isinstance(value, dict) and type(value).__getitem__ is dict.__getitem__:
            for key in self.keys:
                if key in value:
                    self.read(ITEM, value, key, value[key], f"{path}[{key!r}]", depth)
        elif type(value) is list:
            self.guards.append((LENGTH, value, None, len(value), None))
            self.paths.append(f"len({path})")
            for i, item in enumerate(value[:_MAX_ITEMS]):
                self.read(INDEX, value, i, item, f"{path}[{i}]", depth)
        elif isinstance(value, tuple):
            for i, item in enumerate(value[:_MAX_ITEMS]):
                self.visit(item, f"{path}[{i}]", inner)
        else:
            self._object(value, path, depth)

    def _function(self, fun, path, depth):
        code = fun.__code__
        user = not _is_library(getattr(fun, "__module__", None))
        if user:
            names, keys = _code_names(code)
            self.found_names |= names
            self.found_keys |= keys
            globs = fun.__globals__
            for name in sorted(names):
                value = globs.get(name, MISSING)
                if value is not MISSING and not _library_module(value):
                    self.read(ITEM, globs, name, value, name, depth)
            for default in (*(fun.__defaults__ or ()), *(fun.__kwdefaults__ or {}).values()):
                self.visit(default, f"{fun.__name__}'s default", depth + 1)
        for name, cell in zip(code.co_freevars, fun.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # not assigned yet
                continue
            if user:
                self.read(CELL, cell, None, value, name, depth)
            else:
                self.visit(value, name, depth + 1)
        self.visit(getattr(fun, "__wrapped__", None), path, depth + 1)

    def _names_in(self, kind, namespace, source, path, depth):
        for name in self.names:
            if name in namespace:
                self.read(kind, source, name, namespace[name], f"{path}.{name}", depth)

    def _class(self, cls, path, depth):
        if _is_library(cls.__module__):
            return
        namespace = cls.__dict__
        self._names_in(CLASS, namespace, cls, cls.__qualname__, depth)
        for name, member in namespace.items():  # what calls, operators and properties run
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if isinstance(member, property):
                for accessor in (member.fget, member.fset):
                    self.visit(accessor, f"{cls.__qualname__}.{name}", depth + 1)
            elif name.startswith("__") and isinstance(member, types.FunctionType):
                self.visit(member, f"{cls.__qualname__}.{name}", depth + 1)
        for base in cls.__bases__:
            self.visit(base, base.__qualname__, depth + 1)

    def _object(self, obj, path, depth):
        cls = type(obj)
        if _is_library(cls.__module__):  # wrappers: jit functions, custom_vjp, ...
            attributes = getattr(obj, "__dict__", None)
            if type(attributes) is dict:
                for name in _WRAPPER_ATTRS:
                    self.visit(attributes.get(name), path, depth + 1)
            return
        self.visit(cls, path, depth + 1)
        try:
            attributes = object.__getattribute__(obj, "__dict__")
        except AttributeError:
            attributes = None
        own = attributes if type(attributes) is dict else {}
        for name in sorted(own.keys() & self.names):
            self.read(ITEM, own, name, own[name], f"{path}.{name}", depth)
        for name, member in self._class_members(cls).items():
            if name in own:
                continue
            if isinstance(member, types.MemberDescriptorType):  # a __slots__ attribute
                self.read(SLOT, obj, name, getattr(obj, name, MISSING), f"{path}.{name}", depth)
            elif own is attributes:  # found on the class: setting it on the object retraces
                self.read(ITEM, own, name, MISSING, f"{path}.{name}", depth)

    def _class_members(self, cls):
        """name -> what the class (its user-defined classes in MRO order) holds, for the names in use."""
        members = self._members.get(cls)
        if members is None:
            members = {}
            for klass in reversed(cls.__mro__):
                if not _is_library(klass.__module__):
                    members.update((n, m) for n, m in vars(klass).items() if n in self.names)
            self._members[cls] = members
        return members


def find_captures(fun, static_values=()) -> Captures:
    """The guards of what `fun` can read, called with these static arguments.

    A static argument compared by identity (an object without __eq__ of its own: a jitted method's
    `self`) is walked like a captured object, since the cache key holds that very object; one compared by
    value (a frozen dataclass, a tuple) is trusted to describe the program by its value, as the key does.
    Objects are walked by the attribute names and keys used in the code found so far; the walk is repeated
    until those stop growing (a method found on an object can name further attributes)."""
    names, keys = frozenset(), frozenset()
    for _ in range(4):
        captures = Captures(names, keys)
        captures.visit(fun, getattr(fun, "__name__", "function"), 0)
        for k, value in enumerate(static_values):
            if type(value).__eq__ is object.__eq__:
                captures.visit(value, f"static argument {k}", 0)
        if captures.found_names <= names and captures.found_keys <= keys:
            break
        names |= captures.found_names
        keys |= captures.found_keys
    return captures


def roles_of(guards, consts) -> list:
    """Per guard: the index of the captured constant it reads (an array that entered the graph), or VALUE
    (compared by value) or IDENTITY (compared by identity)."""
    position = {}
    for k, c in enumerate(consts):
        b = buffer_of(c)
        if b is not None:
            position.setdefault(id(b), k)
    roles = []
    for kind, _source, _key, expected, buffer in guards:
        if buffer is not None:
            roles.append(position.get(id(buffer), IDENTITY))
        elif kind == LENGTH or _simple(expected):
            roles.append(VALUE)
        else:
            roles.append(IDENTITY)
    return roles
