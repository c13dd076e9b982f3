"""Every public function and class of `arraystack` and every public ndarray method has a NumPy-style
docstring (Parameters, Returns, See Also naming the NumPy function mirrored) and annotations that
evaluate against the aliases of arraystack.typing (STYLE.md rule 20)."""

from __future__ import annotations

import ast
import collections.abc
import importlib
import inspect
import re
import sys
import typing

import numpy as np
import pytest

import arraystack
import arraystack.typing


def _public_callables():
    found = []
    for name in sorted(dir(arraystack)):
        obj = getattr(arraystack, name)
        if name.startswith("_") or inspect.ismodule(obj) or not callable(obj):
            continue
        module = getattr(obj, "__module__", None) or ""
        if module != "arraystack" and not module.startswith("arraystack."):
            continue  # NumPy's own objects re-exported (dtypes, errstate, printoptions...)
        if isinstance(obj, type) and issubclass(obj, BaseException):
            continue  # exceptions carry a message, not parameters
        found.append(name)
    return found


PUBLIC = _public_callables()
# the attributes of NumPy's scalars that scalar results have (array.py `_SCALAR_ONLY`): not NumPy's
# arrays', checked by test_scalar_only_attributes_name_numpys_scalars
SCALAR_ONLY = {"as_integer_ratio", "bit_count", "denominator", "fromhex", "hex", "is_integer", "numerator"}
# public methods and properties of ndarray
METHODS = sorted(
    n
    for n in dir(arraystack.ndarray)
    if not n.startswith("_") and n not in {"mro"} and n not in SCALAR_ONLY
)


def _sections(doc):
    """The NumPy-docstring section titles in `doc` (a title line underlined by dashes)."""
    lines = inspect.cleandoc(doc).splitlines()
    return {
        lines[i].strip()
        for i in range(len(lines) - 1)
        if lines[i].strip() and re.fullmatch(r"-{3,}", lines[i + 1].strip())
    }


def _section_text(doc, title):
    text = inspect.cleandoc(doc)
    match = re.search(
        rf"^{title}\n-+\n(.*?)(?=^\S[^\n]*\n-{{3,}}\n|\Z)", text, re.DOTALL | re.MULTILINE
    )
    return match.group(1) if match else ""


def _resolves(ref):
    """A See Also entry names an arraystack object (`sort`, `linalg.solve`, `ndarray.T`) or an
    object of another library (numpy., jax., numba.)."""
    if ref.split(".")[0] in ("numpy", "jax", "numba"):
        return True
    obj = arraystack
    for part in ref.removeprefix("arraystack.").split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _has_parameters(obj):
    target = obj.__init__ if isinstance(obj, type) else obj
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return True
    return any(p.name != "self" for p in params)


def test_the_scope_is_the_whole_namespace():
    assert len(PUBLIC) > 300 and "sin" in PUBLIC and "ndarray" in PUBLIC and "jit" in PUBLIC


@pytest.mark.parametrize("name", PUBLIC)
def test_public_callable_has_numpy_style_docstring(name):
    obj = getattr(arraystack, name)
    doc = obj.__doc__ or ""
    sections = _sections(doc)
    assert doc.strip().splitlines()[0].strip(), f"{name}: no summary line"
    if _has_parameters(obj):
        assert "Parameters" in sections, f"{name}: no Parameters section"
    if not isinstance(obj, type):  # numpydoc gives a class Attributes/Methods, not Returns
        assert sections & {"Returns", "Yields"}, f"{name}: no Returns/Yields section"
    assert "See Also" in sections, f"{name}: no See Also section"
    also = _section_text(doc, "See Also")
    for entry in re.findall(r"^(\S[^\n]*?)(?: : |$)", also, re.MULTILINE):
        for ref in entry.split(","):
            assert _resolves(ref.strip()), (
                f"{name}: See Also names {ref.strip()!r}, which is not found"
            )
    mirrored = {n for n in (name, getattr(obj, "__name__", name)) if hasattr(np, n)}
    if mirrored:
        assert any(f"numpy.{n}" in also for n in mirrored), f"{name}: See Also lacks numpy.{name}"


def _type_checking_names(module):
    """The names a module imports under `if TYPE_CHECKING:` (its annotations may use them)."""
    tree = ast.parse(inspect.getsource(module))
    namespace = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom), ast.unparse(stmt)
                source = importlib.import_module(stmt.module)
                for alias in stmt.names:
                    namespace[alias.asname or alias.name] = getattr(source, alias.name)
    return namespace


def _annotated(fn, name):
    signature = inspect.signature(fn)
    globals_ = getattr(inspect.unwrap(fn), "__globals__", {})
    module = sys.modules[globals_.get("__name__", "arraystack")]
    namespace = {
        **vars(typing),
        **vars(collections.abc),
        **vars(arraystack.typing),  # the vocabulary of the annotations
        **globals_,
        **_type_checking_names(module),
    }
    annotations = []
    for param in signature.parameters.values():
        if param.name in ("self", "cls"):
            continue
        assert param.annotation is not inspect.Parameter.empty, f"{name}: {param.name} unannotated"
        annotations.append(param.annotation)
    if not (isinstance(fn, type) or fn.__name__ == "__init__"):
        returns = signature.return_annotation
        assert returns is not inspect.Signature.empty, f"{name}: no return annotation"
        annotations.append(returns)
    for annotation in annotations:
        if isinstance(annotation, str):
            eval(annotation, namespace)  # every name resolves: typing aliases, module, builtins


@pytest.mark.parametrize("name", PUBLIC)
def test_public_callable_is_annotated(name):
    obj = getattr(arraystack, name)
    _annotated(obj.__init__ if isinstance(obj, type) else obj, name)


@pytest.mark.parametrize("name", METHODS)
def test_ndarray_member_has_numpy_style_docstring(name):
    member = inspect.getattr_static(arraystack.ndarray, name)
    doc = member.__doc__ or ""
    assert f"numpy.ndarray.{name}" in doc, f"ndarray.{name}: does not name numpy.ndarray.{name}"
    if isinstance(member, property):
        return
    sections = _sections(doc)
    if _has_parameters(member):
        assert "Parameters" in sections, f"ndarray.{name}: no Parameters section"
    assert sections & {"Returns", "Yields"}, f"ndarray.{name}: no Returns section"
    assert "See Also" in sections, f"ndarray.{name}: no See Also section"
    _annotated(member, f"ndarray.{name}")


def test_scalar_only_attributes_name_numpys_scalars():
    from arraystack._core.array import _SCALAR_ONLY

    assert set(_SCALAR_ONLY) == SCALAR_ONLY
    for name in SCALAR_ONLY:
        member = inspect.getattr_static(arraystack.ndarray, name)
        assert isinstance(member, property) and "NumPy's scalar" in member.__doc__


def test_ufunc_docstrings_come_from_the_table():
    from arraystack._math.ufunc_docs import SUMMARIES

    assert arraystack.sin.__doc__.startswith(SUMMARIES["sin"][0])
    assert "numpy.absolute" in arraystack.abs.__doc__ and "numpy.abs " in arraystack.abs.__doc__
    assert "Returns\n-------\nquotient : ndarray\nremainder : ndarray" in arraystack.divmod.__doc__
