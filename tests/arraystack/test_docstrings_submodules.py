"""Docstrings and type hints of the submodules' public API and of the transformation API (STYLE rule 20).

Every public function and class of arraystack.linalg, fft, random, nn, optim, prng, testing, tree_util,
datasets and lib, and the transformations of the top-level namespace (jit, grad, vmap, ...), has a NumPy-style
docstring that names what it mirrors (a See Also section), and a fully annotated signature.

Three kinds of object are checked differently, each stated where it is decided:
- re-exports of NumPy's own objects (numpy.linalg.LinAlgError, numpy.random.SeedSequence): NumPy's documents;
- forwarders (`__wrapped__` is a NumPy function: arraystack.testing's assertions, arraystack.random's
  module-level functions): the signature must be NumPy's own, and the docstring must open with arraystack's
  own summary and See Also naming the NumPy function, before NumPy's documentation of the parameters;
- everything else: summary line, Parameters (when it takes any), Returns (unless annotated `-> None`),
  See Also, and an annotation on every parameter and on the return.
"""

from __future__ import annotations

import importlib
import inspect

import pytest

import arraystack

SUBMODULES = [
    "linalg", "fft", "random", "nn", "nn.initializers", "optim", "prng", "testing", "tree_util", "checkpoint_policies",
    "datasets", "lib", "lib.format", "lib.stride_tricks", "lib.array_utils", "lib.mixins", "strings", "char", "onnx", "distributed",
]
TRANSFORMATIONS = [
    "jit", "make_graph", "grad", "value_and_grad", "vjp", "jvp", "linearize", "jacfwd", "jacrev",
    "hessian", "vmap", "custom_vjp", "custom_jvp", "checkpoint", "stop_gradient", "cond", "switch",
    "while_loop", "fori_loop", "scan",
]

TOP_LEVEL_FAMILIES = {"arraystack._manipulation.reshaping", "arraystack.linalg._matmul", "arraystack.linalg._contractions"}


def _module(name):
    if name == "tree_util":
        return arraystack.tree_util
    return importlib.import_module(f"arraystack.{name}")


def _public(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == module.__name__]
    return names


def _items():
    out = []
    for mod in SUBMODULES:
        module = _module(mod)
        for name in _public(module):
            obj = getattr(module, name)
            if getattr(obj, "__module__", "") in TOP_LEVEL_FAMILIES:
                continue  # a top-level function re-exported (linalg.matrix_transpose): documented there
            if callable(obj):
                out.append((f"{mod}.{name}", obj))
    out.extend((name, getattr(arraystack, name)) for name in TRANSFORMATIONS)
    return out


ITEMS = _items()


def _kind(obj):
    if not (getattr(obj, "__module__", "") or "").startswith("arraystack"):
        # another library's object re-exported: NumPy's, or the standard library's (numpy.testing.TestCase
        # is unittest's); NumPy's context managers carry a __wrapped__ of NumPy's and are NumPy's too
        return "numpy"
    wrapped = getattr(obj, "__wrapped__", None)
    if wrapped is not None and getattr(wrapped, "__module__", "").startswith("numpy"):
        return "forwarder"
    module = getattr(obj, "__module__", "") or ""
    if module.startswith("numpy"):
        return "numpy"
    return "own"


def _signature(obj):
    return inspect.signature(obj)  # a class's: its constructor's, without self


def test_scope_is_not_empty():
    assert len(ITEMS) > 250


@pytest.mark.parametrize("qualname, obj", ITEMS, ids=[q for q, _ in ITEMS])
def test_docstring_sections(qualname, obj):
    doc = inspect.getdoc(obj) or ""
    kind = _kind(obj)
    if kind == "numpy":
        # Note: NumPy's own object (an exception or SeedSequence) re-exported as it is, with NumPy's docs.
        assert obj.__doc__, qualname
        return
    summary = doc.split("\n\n", 1)[0]
    assert summary.strip(), f"{qualname}: no summary line"
    assert "See Also\n--------" in doc, f"{qualname}: no See Also section"
    if kind == "forwarder":
        head = doc.split("NumPy's documentation", 1)[0]
        assert "See Also" in head and "numpy." in head, f"{qualname}: See Also must name NumPy's function"
        return
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return  # an exception's constructor takes its message, as every exception's does
    params = [p for p in _signature(obj).parameters.values() if p.name != "self"]
    if params:
        # a named tuple's constructor takes its fields, documented as Attributes
        section = "Attributes" if hasattr(obj, "_fields") else "Parameters"
        assert f"{section}\n{'-' * len(section)}" in doc, f"{qualname}: no {section} section"
        for p in params:
            shown = f"*{p.name}" if p.kind is p.VAR_POSITIONAL else p.name
            shown = f"**{p.name}" if p.kind is p.VAR_KEYWORD else shown
            assert shown in doc, f"{qualname}: parameter {shown} is not documented"
    if not inspect.isclass(obj) and _signature(obj).return_annotation not in ("None", None):
        assert "Returns\n-------" in doc, f"{qualname}: no Returns section"


@pytest.mark.parametrize("qualname, obj", ITEMS, ids=[q for q, _ in ITEMS])
def test_signature_annotated(qualname, obj):
    kind = _kind(obj)
    if kind == "numpy":
        return
    if kind == "forwarder":
        # Note: a forwarder takes exactly NumPy's arguments, so its signature is NumPy's (typed by NumPy's stubs)
        assert _signature(obj) == inspect.signature(obj.__wrapped__), qualname
        return
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return
    sig = _signature(obj)
    missing = [p.name for p in sig.parameters.values()
               if p.name != "self" and p.annotation is inspect.Parameter.empty]
    assert not missing, f"{qualname}: unannotated parameters {missing}"
    if not inspect.isclass(obj):
        assert sig.return_annotation is not inspect.Signature.empty, f"{qualname}: no return annotation"
