"""Docstrings and annotations of arraystack.polynomial's public functions, classes and methods
(the criteria of tests/arraystack/test_docstrings_submodules.py): a summary, Parameters naming each
parameter, Returns, a See Also naming NumPy's counterpart, and annotated signatures."""

from __future__ import annotations

import inspect

import pytest

import arraystack.polynomial as P

MODULES = [P.polynomial, P.chebyshev, P.legendre, P.laguerre, P.hermite, P.hermite_e, P.polyutils]
METHODS = [
    "copy",
    "degree",
    "cutdeg",
    "trim",
    "truncate",
    "convert",
    "mapparms",
    "integ",
    "deriv",
    "roots",
    "linspace",
    "fit",
    "fromroots",
    "identity",
    "basis",
    "cast",
]


def _items():
    out = [("set_default_printstyle", P.set_default_printstyle)]
    for module in MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not (inspect.isclass(obj) and issubclass(obj, Warning)):
                out.append((f"{module.__name__.rsplit('.', 1)[1]}.{name}", obj))
    out += [(f"Polynomial.{m}", getattr(P.Polynomial, m)) for m in METHODS]
    out.append(("Chebyshev.interpolate", P.Chebyshev.interpolate))
    return out


ITEMS = _items()


@pytest.mark.parametrize("qualname, obj", ITEMS, ids=[q for q, _ in ITEMS])
def test_docstring(qualname, obj):
    doc = inspect.getdoc(obj) or ""
    assert doc.split("\n\n", 1)[0].strip(), f"{qualname}: no summary line"
    assert "See Also\n--------" in doc and "numpy." in doc, f"{qualname}: no See Also naming NumPy"
    sig = inspect.signature(obj)
    params = [p for p in sig.parameters.values() if p.name not in ("self", "cls")]
    if params:
        assert "Parameters\n----------" in doc, f"{qualname}: no Parameters section"
        for p in params:
            assert p.name in doc, f"{qualname}: parameter {p.name} is not documented"
            assert p.annotation is not inspect.Parameter.empty, f"{qualname}: {p.name} unannotated"
    if not inspect.isclass(obj) and sig.return_annotation not in ("None", None):
        assert "Returns\n-------" in doc, f"{qualname}: no Returns section"
        assert sig.return_annotation is not inspect.Signature.empty, f"{qualname}: no return type"
