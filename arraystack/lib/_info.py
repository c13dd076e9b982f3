"""`arraystack.info(obj)`: help on arraystack's objects as numpy.info gives it (a function's or class's
signature and docstring, an array's layout, a name looked up in arraystack's namespace)."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

__all__ = ["info"]


def info(
    object: Any = None, maxwidth: int = 76, output: Any = None, toplevel: str = "arraystack"
) -> None:
    """Get help information for an array, function, class, or module.

    Parameters
    ----------
    object : object or str, optional
        Input object or name to get information about. An arraystack array prints its layout; a
        string is looked up in arraystack's namespace (and its public submodules). None describes
        `info` itself.
    maxwidth : int, optional
        Printing width.
    output : file like object, optional
        File like object that the output is written to, default is ``None``, in which case
        ``sys.stdout`` will be used. The object has to be opened in 'w' or 'a' mode.
    toplevel : str, optional
        Start search at this level; 'arraystack' by default.

    Returns
    -------
    None

    See Also
    --------
    numpy.info : The NumPy function this mirrors.

    Notes
    -----
    The text printed for a function or class is its arraystack docstring. An array must be
    concrete (a traced array raises ConcretizationError).
    """
    import arraystack

    out = sys.stdout if output is None else output
    if object is None:
        object = info
    if isinstance(object, arraystack.ndarray):
        return np.info(object._concrete("info()"), maxwidth, out, toplevel)
    if isinstance(object, str):
        found = _lookup(object, toplevel)
        if not found:
            print(f"Help for {object} not found.", file=out)
            return None
        for where, obj in found:
            if len(found) > 1:
                print(f"\n     *** Found in {where} ***", file=out)
            np.info(obj, maxwidth, out, toplevel)
        if len(found) > 1:
            print(f"\n*** Total of {len(found)} references found. ***", file=out)
        return None
    return np.info(object, maxwidth, out, toplevel)


def _lookup(name: str, toplevel: str) -> list[tuple[str, Any]]:
    """(module name, object) for each public module under `toplevel` that defines `name`, each object
    once; a dotted name is looked up from `toplevel`."""
    import importlib

    root = importlib.import_module(toplevel)
    if "." in name:
        obj: Any = root
        for part in name.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                return []
        return [(toplevel, obj)]
    modules = [(toplevel, root)]
    modules += [
        (f"{toplevel}.{key}", value)
        for key, value in sorted(vars(root).items())
        if type(value) is type(root)
        and value.__name__.startswith(toplevel)
        and not key.startswith("_")
    ]
    found, seen = [], set()
    for where, module in modules:
        obj = getattr(module, name, None)
        if obj is not None and id(obj) not in seen:
            seen.add(id(obj))
            found.append((where, obj))
    return found
