"""Modules: classes whose instances are pytrees (Equinox's model), so a model passes as it is through
jit, grad, vmap, optim and save_tree.

A Module subclass is a dataclass. The fields holding arrays (or modules, or lists, tuples and dicts of
them) are the children of its pytree node; every other field is static: part of the node's structure
(its aux data), so jit's cache key holds it and save_tree writes it as configuration. Instances are
immutable once __init__ returns; `replace` and `train`/`eval` return updated copies.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack.ir import tree as tree_util
from arraystack.ir.avals import kind_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from arraystack.typing import PyTree

_BUILDING = "_Module__building"  # in an instance's __dict__ while its __init__ runs
_AUX = "_Module__aux"  # (names of the fields that are children, ((name, value) of the others))


def field(*, static: bool | None = None, **kwargs: Any) -> Any:
    """Declare a Module field, optionally marking it static.

    Parameters
    ----------
    static : bool or None, optional
        True: always static (part of the tree structure, never a leaf); False: always a child of
        the node, whatever it holds; None (the default): decided by the rule of `Module` (a child
        when the value holds arrays or modules, static otherwise).
    **kwargs : Any
        Passed to dataclasses.field (default, default_factory, repr, metadata, ...).

    Returns
    -------
    dataclasses.Field
        The field declaration, for the class body.

    See Also
    --------
    equinox.field : the function mirrored (``eqx.field(static=True)``).
    dataclasses.field : what it builds on.
    arraystack.nn.static, arraystack.nn.Module

    Examples
    --------
    >>> import arraystack as np
    >>> class Scale(np.nn.Module):
    ...     factor: np.ndarray
    ...     name: str = np.nn.field(static=True, default="scale")
    ...     def __call__(self, x):
    ...         return self.factor * x
    >>> np.tree_util.leaves(Scale(np.ones(2)))
    [array([1., 1.])]
    """
    metadata = dict(kwargs.pop("metadata", None) or {})
    metadata["static"] = static
    return dataclasses.field(metadata=metadata, **kwargs)


def static(**kwargs: Any) -> Any:
    """Declare a static Module field: part of the tree structure, never a leaf.

    Parameters
    ----------
    **kwargs : Any
        Passed to dataclasses.field (default, default_factory, ...).

    Returns
    -------
    dataclasses.Field
        ``field(static=True, **kwargs)``.

    See Also
    --------
    equinox.field : the Equinox spelling, ``eqx.field(static=True)``.
    arraystack.nn.field, arraystack.nn.Module

    Notes
    -----
    A static value must be hashable (it is part of jit's cache key); a change of it retraces.
    """
    return field(static=True, **kwargs)


def is_array(x: Any) -> bool:
    """Tell whether `x` is an array: an arraystack or NumPy array, or a NumPy scalar.

    Parameters
    ----------
    x : Any
        A value (typically a pytree leaf).

    Returns
    -------
    bool
        True for arraystack.ndarray (traced ones too), numpy.ndarray and numpy.generic.

    See Also
    --------
    equinox.is_array : the function mirrored.
    arraystack.nn.is_inexact_array, arraystack.nn.partition
    """
    import arraystack as ast

    return isinstance(x, ast.ndarray | np.ndarray | np.generic)


def is_inexact_array(x: Any) -> bool:
    """Tell whether `x` is an array of a floating or complex dtype (what `grad` differentiates).

    Parameters
    ----------
    x : Any
        A value (typically a pytree leaf).

    Returns
    -------
    bool
        True for arrays whose dtype kind is 'f' or 'c'.

    See Also
    --------
    equinox.is_inexact_array : the function mirrored.
    arraystack.nn.is_array, arraystack.nn.partition
    """
    return is_array(x) and kind_of(np.dtype(x.dtype)) in "fc"  # bfloat16's NumPy kind is "V"


def _is_module(x) -> bool:
    return isinstance(x, Module)


def _holds_arrays(value) -> bool:
    leaves, _ = tree_util.flatten(value, is_leaf=_is_module)
    return any(_is_module(leaf) or is_array(leaf) for leaf in leaves)


def _check_static(cls, name, value):
    if _holds_arrays(value):
        raise TypeError(
            f"{cls.__name__}.{name} is a static field but holds arrays or modules; static fields "
            "are configuration (part of the tree structure), so declare it without static=True"
        )
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"{cls.__name__}.{name} holds an unhashable {type(value).__name__} ({value!r}); a "
            "static field is part of jit's cache key, so it must be hashable (use a tuple for a "
            "list, or hold arrays)"
        ) from None


def _is_dynamic(cls, f, value) -> bool:
    flag = f.metadata.get("static")
    if flag is None:
        flag = not _holds_arrays(value)
    if flag:
        _check_static(cls, f.name, value)
    return not flag


def _field_names(cls) -> tuple:
    return tuple(cls.__dataclass_fields__)


def _new(cls, values: dict, dynamic: tuple):
    """An instance of `cls` with these field values, built without __init__ (as unflatten must)."""
    module = object.__new__(cls)
    module.__dict__.update(values)
    static_items = tuple((n, values[n]) for n in _field_names(cls) if n not in dynamic)
    module.__dict__[_AUX] = (dynamic, static_items)
    return module


def _values(module) -> dict:
    return {name: module.__dict__[name] for name in _field_names(type(module))}


def _dynamic(module) -> tuple:
    return module.__dict__[_AUX][0]


def _flatten(module):
    # Note: the aux data is computed once per instance (instances are immutable), since jit
    # flattens its arguments on every call.
    aux = module.__dict__[_AUX]
    return [module.__dict__[name] for name in aux[0]], aux


_checked_layouts: set = set()  # (class, dynamic names, static names) known to match the class


def _unflatten(cls, aux, children):
    dynamic, static_items = aux
    layout = (cls, dynamic, tuple(name for name, _ in static_items))
    if layout not in _checked_layouts:
        names = [*dynamic, *layout[2]]
        if sorted(names) != sorted(_field_names(cls)) or len(children) != len(dynamic):
            raise ValueError(
                f"a {cls.__name__} node with fields {sorted(names)}; the class has fields "
                f"{sorted(_field_names(cls))} (was it saved from another version of the class?)"
            )
        _checked_layouts.add(layout)
    module = object.__new__(cls)
    module.__dict__.update(zip(dynamic, children))
    module.__dict__.update(static_items)
    module.__dict__[_AUX] = aux
    return module


def _finish(module):
    """After __init__: fill defaults, check every field is set, decide which fields are children."""
    cls = type(module)
    dynamic = []
    for f in dataclasses.fields(cls):
        if f.name not in module.__dict__:
            if f.default is not dataclasses.MISSING:
                object.__setattr__(module, f.name, f.default)
            elif f.default_factory is not dataclasses.MISSING:
                object.__setattr__(module, f.name, f.default_factory())
            else:
                raise TypeError(f"{cls.__name__}.__init__ did not set the field {f.name!r}")
        if _is_dynamic(cls, f, module.__dict__[f.name]):
            dynamic.append(f.name)
    dynamic = tuple(dynamic)
    static_items = tuple((n, module.__dict__[n]) for n in _field_names(cls) if n not in dynamic)
    object.__setattr__(module, _AUX, (dynamic, static_items))


def _building(init):
    """Wrap a subclass's __init__: fields may be assigned while the outermost __init__ runs."""

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        if self.__dict__.get(_BUILDING):  # a super().__init__ inside the outermost one
            init(self, *args, **kwargs)
            return
        object.__setattr__(self, _BUILDING, True)
        try:
            init(self, *args, **kwargs)
        finally:
            object.__delattr__(self, _BUILDING)
        _finish(self)

    return __init__


def _short(value) -> str:
    if is_array(value):
        return f"{np.dtype(value.dtype).name}{list(value.shape)}"
    if _is_module(value):
        return repr(value)
    if isinstance(value, list | tuple) and any(_is_module(v) or is_array(v) for v in value):
        items = [_short(v) for v in value]
        inner = ", ".join(items) + ("," if len(items) == 1 and isinstance(value, tuple) else "")
        if len(inner) > 80 or "\n" in inner:
            inner = "\n  " + ",\n".join(items).replace("\n", "\n  ") + ",\n"
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    if isinstance(value, dict) and _holds_arrays(value):
        return "{" + ", ".join(f"{k!r}: {_short(v)}" for k, v in value.items()) + "}"
    return repr(value)


class Module:
    """The base class of layers and models whose instances are pytrees (an Equinox module).

    Subclasses are dataclasses: annotate fields in the class body, and either let the dataclass
    write ``__init__`` or write one that assigns every field (``self.weight = ...``). A field
    holding arrays, modules, or lists, tuples and dicts of them is a child of the pytree node (its
    arrays are leaves: what jit traces, grad differentiates, vmap maps and optim updates). Any other
    value (an int, a float, a string, a function, None) is static: part of the tree structure.
    `field(static=...)` or `static()` overrides the rule for a field.

    See Also
    --------
    equinox.Module : the design mirrored (fields are leaves, static fields are structure,
        instances are immutable).
    flax.nnx.Module : the Flax relative (mutable objects, split into graph and state).
    torch.nn.Module : the PyTorch relative (mutable; parameters registered by assignment).
    arraystack.nn.field, arraystack.nn.partition, arraystack.save_tree

    Notes
    -----
    Why non-array Python values are static by rule: jit, grad and vmap take whole pytrees, and a
    Python number that is a leaf is traced (so ``int(self.features)`` or a shape built from it
    fails) or differentiated. Equinox needs ``filter_jit``/``filter_grad`` for that reason; here
    the module decides once, in __init__, and the plain transformations work. A float that should
    be trained is stored as an array (``np.asarray(0.5)``); an array that should not be trained
    is split off with `partition`.

    Instances are immutable after __init__ (assigning a field raises
    dataclasses.FrozenInstanceError, an AttributeError); `replace` returns an updated copy.
    `train()`/`eval()` return copies with the ``training`` field of every submodule set: there
    is no global mode. Saving with save_tree writes the static fields into the file, so they must
    be numbers, strings, bytes, None or tuples of them (a function is stored by its name where
    the layer offers one, as `Lambda` does); loading needs the class imported (load_tree imports
    nothing).

    Examples
    --------
    >>> import arraystack as np
    >>> class Affine(np.nn.Module):
    ...     weight: np.ndarray
    ...     bias: np.ndarray
    ...     def __call__(self, x):
    ...         return x * self.weight + self.bias
    >>> model = Affine(np.asarray(2.0), np.asarray(1.0))
    >>> np.grad(lambda m, x: m(x))(model, 3.0)
    Affine(weight=float64[], bias=float64[])
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own_init = "__init__" in cls.__dict__
        custom = own_init or any(
            getattr(base, "_Module__custom_init", False) for base in cls.__mro__[1:]
        )
        cls._Module__custom_init = custom
        dataclasses.dataclass(init=not custom, repr=False, eq=False)(cls)
        if "__init__" in cls.__dict__:
            cls.__init__ = _building(cls.__init__)
        tree_util.register_pytree_node(cls, _flatten, functools.partial(_unflatten, cls))

    def __setattr__(self, name: str, value: Any) -> None:
        cls = type(self)
        if not self.__dict__.get(_BUILDING):
            raise dataclasses.FrozenInstanceError(
                f"cannot assign to {cls.__name__}.{name}: modules are immutable after __init__; "
                f"use .replace({name}=...) for an updated copy"
            )
        if name not in cls.__dataclass_fields__:
            raise AttributeError(
                f"{cls.__name__} has no field {name!r}: declare it with an annotation in the "
                "class body (a module's state is its fields)"
            )
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(
            f"cannot delete {type(self).__name__}.{name}: modules are immutable"
        )

    def __repr__(self) -> str:
        fields = [f for f in dataclasses.fields(self) if f.repr]
        parts = [f"{f.name}={_short(getattr(self, f.name))}" for f in fields]
        text = f"{type(self).__name__}({', '.join(parts)})"
        if len(text) <= 100 and "\n" not in text:
            return text
        body = ",\n".join(parts).replace("\n", "\n  ")
        return f"{type(self).__name__}(\n  {body}\n)"

    def replace(self, **changes: Any) -> Module:
        """Return a copy with some fields replaced (the functional update of an immutable module).

        Parameters
        ----------
        **changes : Any
            New values by field name (TypeError for a name that is not a field).

        Returns
        -------
        Module
            A new instance of the same class; `self` is unchanged. __init__ does not run again.

        See Also
        --------
        dataclasses.replace : the function mirrored (which would run __init__).
        equinox.tree_at : the Equinox way to update a leaf.
        arraystack.nn.Module

        Notes
        -----
        A field that was static and now holds arrays becomes a child (unless declared static); a
        child stays a child whatever it holds, as a pytree leaf replaced by None does.
        """
        cls = type(self)
        fields = cls.__dataclass_fields__
        unknown = sorted(set(changes) - set(fields))
        if unknown:
            raise TypeError(
                f"{cls.__name__} has no fields {unknown}; its fields are {list(fields)}"
            )
        values = {**_values(self), **changes}
        old = _dynamic(self)
        dynamic = tuple(
            name
            for name in fields
            if name in old or (name in changes and _is_dynamic(cls, fields[name], values[name]))
        )
        return _new(cls, values, dynamic)

    def train(self, mode: bool = True) -> Module:
        """Return a copy in training mode (or evaluation mode with ``mode=False``).

        Parameters
        ----------
        mode : bool, optional
            The value given to the ``training`` field of this module and every submodule that has
            one (Dropout, BatchNorm, MultiHeadAttention).

        Returns
        -------
        Module
            The updated copy; `self` is unchanged.

        See Also
        --------
        torch.nn.Module.train : the method mirrored (which mutates the module in place).
        equinox.nn.inference_mode : the Equinox relative.
        arraystack.nn.Module.eval
        """
        return map_modules(lambda m: _with_training(m, bool(mode)), self)

    def eval(self) -> Module:
        """Return a copy in evaluation mode: ``train(False)``.

        Returns
        -------
        Module
            Dropout is the identity and BatchNorm uses its running statistics in the copy.

        See Also
        --------
        torch.nn.Module.eval : the method mirrored (which mutates the module in place).
        arraystack.nn.Module.train
        """
        return self.train(False)


def _with_training(module, mode):
    if "training" not in type(module).__dataclass_fields__ or module.training == mode:
        return module
    return module.replace(training=mode)


def map_modules(fn: Callable[[Module], Any], tree: PyTree) -> PyTree:
    """Rebuild a tree with `fn` applied to every module in it, innermost first.

    Parameters
    ----------
    fn : callable
        ``fn(module) -> module``, called on each module after its submodules were rebuilt.
    tree : pytree
        A module, or any pytree holding modules.

    Returns
    -------
    pytree
        The rebuilt tree; arrays and other leaves are kept as they are.

    See Also
    --------
    torch.nn.Module.apply : the PyTorch relative (which mutates in place).
    arraystack.tree_util.tree_map, arraystack.nn.Module.train
    """

    def visit(x):
        if not _is_module(x):
            return x
        values = _values(x)
        for name in _dynamic(x):
            values[name] = tree_util.tree_map(visit, values[name], is_leaf=_is_module)
        return fn(_new(type(x), values, _dynamic(x)))

    return tree_util.tree_map(visit, tree, is_leaf=_is_module)


__all__ = ["Module", "field", "is_array", "is_inexact_array", "map_modules", "static"]
