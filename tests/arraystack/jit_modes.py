"""One program against NumPy, eagerly and in each jit mode: tier 0 (jit's first call), the compiled tier
and the reference backend. For tests written once against `xp`."""

from __future__ import annotations

import warnings

import numpy

import arraystack as ast

MODES = {
    "tier 0": {"tiered": True},
    "compiled": {"tiered": False},
    "reference": {"backend": "reference"},
}


def outcome(fn, *args, messages=True):
    """('ok', dtype, values), or the exception's type name (with its message when `messages`)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            result = numpy.asarray(fn(*args))
    except (OverflowError, TypeError, ValueError) as error:
        return (type(error).__name__, str(error)) if messages else type(error).__name__
    return "ok", str(result.dtype), result.tolist()


def check(fn, *args, modes=tuple(MODES), messages=True):
    """fn(xp, *args) gives NumPy's dtype and values (or NumPy's exception, and its message when
    `messages`) eagerly and in each jit mode named; array arguments enter eagerly as arraystack arrays,
    Python scalars as they are."""
    expected = outcome(lambda *a: fn(numpy, *a), *args, messages=messages)
    eager_args = [ast.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args]
    assert outcome(lambda *a: fn(ast, *a), *eager_args, messages=messages) == expected, "eager"
    for mode in modes:
        jitted = ast.jit(lambda *a: fn(ast, *a), **MODES[mode])
        assert outcome(jitted, *args, messages=messages) == expected, mode
    return expected
