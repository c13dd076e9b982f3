"""Graph -> readable let-language text (parser.py reads it back), and fingerprint() = a hash of the text.

    graph(a:f32[3,4], b:f32[3,4]) {
      c:f32[3,4] = mul a b                                     # model.py:12
      d:f32[3] = reduce_sum[axes=(1,)] c                       # model.py:13
      e:f32[3] = mul d 2.0:~f64                                # model.py:14
      return e
    }

Vars are named a, b, ..., z, ba, bb, ... in order of definition, skipping the words the parser reserves; each
sub-graph (a param such as `body=graph(...) {...}`) names its own Vars, since sub-graphs are closed.
Literals print as `value:dtype` (`~` marks a weak type): `2:~i64`, `true:bool`, `nan:f32`, `-inf:f64`,
`(1.0-2.5j):c128`. Params print as `name=value`: ints, floats, True/False/None, 'strings', tuples,
dtypes by short name (`dtype=f32`) and sub-graphs. `# file:line` ends an equation that knows its source.
"""

from __future__ import annotations

import hashlib

import numpy as np

from arraystack.ir.avals import dtype_short_name, kind_of
from arraystack.ir.ir import Graph, Literal

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# words with a meaning of their own in IR text, never used as Var names
RESERVED_NAMES = frozenset({"nan", "inf", "true", "false", "graph", "return"})


def _name(n: int) -> str:
    s = ""
    while True:
        s = _LETTERS[n % 26] + s
        n //= 26
        if n == 0:
            return s


class _Names:
    def __init__(self):
        self.names = {}
        self.counter = 0

    def define(self, var):
        name = _name(self.counter)
        self.counter += 1
        while name in RESERVED_NAMES:
            name = _name(self.counter)
            self.counter += 1
        self.names[var] = name
        return name

    def atom(self, x):
        if isinstance(x, Literal):
            return format_literal(x)
        return self.names.get(x, "?")


def format_float(x: float) -> str:
    """repr() of a Python float: shortest round-trip text; also `nan`, `inf`, `-inf`."""
    return repr(float(x))


def format_complex(c: complex) -> str:
    """`(re+imj)` with both parts always written, so the parser reads one token: `(1.0-0.0j)`, `(nan+infj)`."""
    c = complex(c)
    imag = format_float(c.imag)
    sign = "" if imag.startswith("-") else "+"
    return f"({format_float(c.real)}{sign}{imag}j)"


def format_literal(lit: Literal) -> str:
    value = lit.value
    kind = kind_of(lit.aval.dtype)
    if kind == "b":
        text = "true" if value else "false"
    elif kind in "iu":
        text = str(int(value))
    elif kind == "f":
        text = format_float(value)
    else:
        text = format_complex(value)
    weak = "~" if lit.aval.weak_type else ""
    return f"{text}:{weak}{dtype_short_name(lit.aval.dtype)}"


def format_param(value, indent: str = "") -> str:
    if isinstance(value, Graph):
        return _print(value, indent + "  ").lstrip()
    if isinstance(value, np.dtype):
        return dtype_short_name(value)
    if isinstance(value, type) and issubclass(value, np.generic):
        return dtype_short_name(np.dtype(value))
    if isinstance(value, (tuple, list)):
        inner = ", ".join(format_param(v, indent) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_float(value)
    if isinstance(value, complex):
        return format_complex(value)
    raise TypeError(f"cannot print param value {value!r} of type {type(value).__name__}")


def _print(graph: Graph, indent: str, sources: bool = True) -> str:
    names = _Names()
    args = ", ".join(f"{names.define(v)}:{v.aval.str_short()}" for v in graph.inputs)
    lines = [f"{indent}graph({args}) {{"]
    for eqn in graph.eqns:
        params = ""
        if eqn.params:
            items = ", ".join(
                f"{k}={format_param(v, indent + '  ')}" for k, v in sorted(eqn.params.items())
            )
            params = f"[{items}]"
        outs = " ".join(f"{names.define(v)}:{v.aval.str_short()}" for v in eqn.outputs)
        ins = "".join(" " + names.atom(x) for x in eqn.inputs)
        line = f"{indent}  {outs} = {eqn.prim.name}{params}{ins}"
        if sources and eqn.source:
            line = f"{line:<60} # {eqn.source}"
        lines.append(line)
    lines.append(f"{indent}  return {', '.join(names.atom(x) for x in graph.outputs)}".rstrip())
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def print_graph(graph: Graph, sources: bool = True) -> str:
    """The graph as IR text; `sources=False` leaves out the `# file:line` comments."""
    return _print(graph, "", sources=sources)


def fingerprint(graph: Graph) -> str:
    """A structural hash: equal for graphs that differ only in Var identity and source lines."""
    return hashlib.sha256(_print(graph, "", sources=False).encode()).hexdigest()[:32]
