"""Griffe extensions for arraystack's NumPy-style docstrings.

`FactoryFunctions`: public functions made by a factory are documented as the functions they are.

Griffe reads the source, where `sin = unary(np.sin, sin_p)` is an assignment: an attribute without a
signature or docstring. For a module-level assignment whose value at run time is callable (a function, or
an object with `__call__` such as arraystack's ufunc-like `Function`) and carries a docstring, this
extension replaces the attribute by a function with the runtime signature and docstring, which is what a
user calls and reads. Classes, modules and plain values stay attributes. Their docstrings are parsed
without griffe's warnings: a factory's signature can be generic (`*args`) where the docstring names the
parameters, and some quote NumPy's own documentation.

`IndentUnit`: numpydoc reads a description as the lines indented under its name, by any amount; NumPy's
own docstrings (those `arraystack.emath` keeps) indent by 3 spaces. Griffe reads them alike but warns
unless the unit is 4, so a docstring whose indented lines all use a unit of 3 is re-indented to 4.
"""

from __future__ import annotations

import importlib
import inspect
import re

from griffe import Docstring, Extension, Function, Parameter, ParameterKind, Parameters

_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: ParameterKind.positional_only,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: ParameterKind.positional_or_keyword,
    inspect.Parameter.VAR_POSITIONAL: ParameterKind.var_positional,
    inspect.Parameter.KEYWORD_ONLY: ParameterKind.keyword_only,
    inspect.Parameter.VAR_KEYWORD: ParameterKind.var_keyword,
}


def _annotation(value) -> str | None:
    if value is inspect.Parameter.empty:
        return None
    return value if isinstance(value, str) else inspect.formatannotation(value)


def _parameters(signature: inspect.Signature) -> Parameters:
    return Parameters(
        *(
            Parameter(
                p.name,
                annotation=_annotation(p.annotation),
                kind=_KINDS[p.kind],
                default=None if p.default is inspect.Parameter.empty else repr(p.default),
            )
            for p in signature.parameters.values()
        )
    )


def _runtime_value(module_path: str, name: str):
    try:
        return getattr(importlib.import_module(module_path), name)
    except (ImportError, AttributeError):
        return None


class FactoryFunctions(Extension):
    def on_attribute_instance(self, *, node, attr, agent, **kwargs) -> None:
        parent = attr.parent
        if parent is None or not parent.is_module or attr.docstring is not None:
            return
        value = _runtime_value(parent.path, attr.name)
        if (
            value is None
            or inspect.isclass(value)
            or inspect.ismodule(value)
            or not callable(value)
        ):
            return
        doc = inspect.getdoc(value)
        if not doc or doc == inspect.getdoc(type(value)):
            return
        try:
            signature = inspect.signature(value)
        except (TypeError, ValueError):
            return
        function = Function(
            attr.name,
            lineno=attr.lineno,
            endlineno=attr.endlineno,
            parameters=_parameters(signature),
            returns=_annotation(signature.return_annotation),
        )
        function.docstring = Docstring(
            reindent(doc),
            parent=function,
            parser=agent.docstring_parser,
            # A factory's signature can be generic (`*args`) and its docstring NumPy's own text, so
            # griffe's checks of names and indentation against the signature do not apply.
            parser_options={**agent.docstring_options, "warnings": False},
        )
        parent.set_member(attr.name, function)


_INDENT = re.compile(r"^( *)\S", re.MULTILINE)


def reindent(text: str, unit: int = 3, target: int = 4) -> str:
    """text with its indentation scaled from `unit` to `target` spaces, if every indent is a multiple
    of `unit` and some is not a multiple of `target`; else text unchanged."""
    indents = {len(m.group(1)) for m in _INDENT.finditer(text)} - {0}
    if not indents or any(k % unit for k in indents) or all(k % target == 0 for k in indents):
        return text
    return _INDENT.sub(
        lambda m: " " * (len(m.group(1)) // unit * target) + m.group(0).lstrip(" "), text
    )


class IndentUnit(Extension):
    def on_instance(self, *, node, obj, agent, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = reindent(obj.docstring.value)
