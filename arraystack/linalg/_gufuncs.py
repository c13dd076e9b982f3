"""NumPy's generalized ufuncs (matmul, matvec, vecmat, vecdot) as arraystack's functions present them:
the attributes NumPy's gufunc objects have, and the methods they refuse, refusing alike."""

from __future__ import annotations

_ATTRIBUTES = ("nin", "nout", "nargs", "signature", "identity", "ntypes", "types")


def as_gufunc(function, gufunc):
    """`function` with `gufunc`'s attributes (nin, nout, nargs, signature, identity, ntypes, types) and
    its methods: reduce, accumulate and reduceat raise RuntimeError, outer and at TypeError, with
    NumPy's messages (a gufunc has a core signature, so none of them is defined)."""
    for name in _ATTRIBUTES:
        setattr(function, name, getattr(gufunc, name))

    def reduction(*args, **kwargs):
        raise RuntimeError("Reduction not defined on ufunc with signature")

    def outer(*args, **kwargs):
        raise TypeError("method outer is not allowed in ufunc with non-trivial signature")

    def at(*args, **kwargs):
        name = gufunc.__name__
        raise TypeError(
            f"{name}.at does not support ufunc with non-trivial signature: {name} has signature "
            f"{gufunc.signature}."
        )

    for name, method in (
        ("reduce", reduction), ("accumulate", reduction), ("reduceat", reduction), ("outer", outer),
        ("at", at),
    ):  # fmt: skip

        def refused(*args, _method=method, **kwargs):
            return _method(*args, **kwargs)

        refused.__name__ = refused.__qualname__ = name
        setattr(function, name, refused)
    return function
