"""`arraystack.ufunc`: what `isinstance(f, arraystack.ufunc)` asks of a ufunc, arraystack's or NumPy's.

arraystack's elementwise functions are plain (or accelerated) functions that carry a ufunc's attributes and
methods (ufunc_methods.py), and NumPy's ufunc type cannot be subclassed, so `isinstance` is answered by
the interface: NumPy's ufuncs, and any callable with `nin`, `nout`, `nargs`, `identity` and the five
methods, which are arraystack's elementwise functions and the objects `frompyfunc` returns.
"""

from __future__ import annotations

import numpy as np

_INTERFACE = ("nin", "nout", "nargs", "identity", "reduce", "accumulate", "reduceat", "outer", "at")


class _UfuncType(type):
    """The metaclass of arraystack.ufunc: `isinstance` by interface."""

    def __instancecheck__(cls, obj) -> bool:
        if isinstance(obj, np.ufunc):
            return True
        if isinstance(obj, type) or not callable(obj):
            return False
        return all(hasattr(obj, name) for name in _INTERFACE)


class ufunc(metaclass=_UfuncType):
    """The type of universal functions: ``isinstance(f, arraystack.ufunc)`` tells a ufunc.

    True for arraystack's elementwise functions (``arraystack.add``, ``arraystack.sin``, ... : every
    function with the methods ``reduce``, ``accumulate``, ``reduceat``, ``outer`` and ``at``), for
    NumPy's own ufuncs (``numpy.add``, ``scipy.special.erf``) and for the objects ``frompyfunc``
    returns; False for other functions (``arraystack.sum``). Calling it raises TypeError: it cannot
    be instantiated, as NumPy's cannot.

    See Also
    --------
    numpy.ufunc : The NumPy type this mirrors.
    frompyfunc : A ufunc from a Python function.

    Notes
    -----
    ``isinstance(arraystack.add, numpy.ufunc)`` is False: NumPy's ufunc type cannot be subclassed, and
    arraystack's elementwise functions trace under ``jit``, which NumPy's ufuncs cannot. ``isinstance``
    by interface is answered here as by ``collections.abc``'s protocols: an object with a ufunc's
    attributes and methods is one.

    Examples
    --------
    >>> import arraystack as np
    >>> isinstance(np.add, np.ufunc), isinstance(np.sum, np.ufunc)
    (True, False)
    """

    __slots__ = ()

    def __init__(self) -> None:
        raise TypeError("cannot create 'arraystack.ufunc' instances")


__all__ = ["ufunc"]
