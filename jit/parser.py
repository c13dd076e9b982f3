"""IR text -> Graph: reads exactly what printer.py writes (round-trip tests, hand-written test graphs).

The parser re-derives nothing: output avals come from the text, and typecheck() verifies them against the
shape rules. Primitives are looked up by name among those that have a shape rule. Grammar:

    graph   := 'graph' '(' [binder (',' binder)*] ')' '{' eqn* 'return' [atom (',' atom)*] '}'
    eqn     := binder+ '=' NAME ['[' param (',' param)* ']'] atom* ['# source']   (one line)
    binder  := NAME ':' aval          aval := ['~'] DTYPE '[' [INT (',' INT)*] ']'
    atom    := NAME | literal         literal := (number | 'true' | 'false') ':' ['~'] DTYPE
    param   := NAME '=' value         value := graph | tuple | number | STRING | True | False | None | DTYPE
"""

from __future__ import annotations

import ast
import re

import numpy as np

from arraystack.ir.avals import ShapedArray, dtype_from_short_name, kind_of
from arraystack.ir.ir import Eqn, Graph, Literal, Var
from arraystack.ir.primitives import abstract_eval_rules
from arraystack.ir.printer import RESERVED_NAMES


class IRParseError(ValueError):
    """IR text that does not follow the grammar; the message gives line and column."""


_REAL = r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|nan)"
_TOKEN = re.compile(
    rf"""(?P<newline>\n)
    |(?P<space>[ \t\r]+)
    |(?P<comment>\#[^\n]*)
    |(?P<complex>\((?P<re>{_REAL})(?P<im>[+-](?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|nan))j\))
    |(?P<number>{_REAL})(?![A-Za-z0-9_])
    |(?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    |(?P<name>[A-Za-z_][A-Za-z0-9_]*)
    |(?P<punct>[()\[\]{{}},:=~])
    """,
    re.VERBOSE,
)


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens, pos = [], 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise IRParseError(f"{_where(text, pos)}: unexpected character {text[pos]!r}")
        kind = "complex" if match.group("complex") is not None else match.lastgroup
        if kind != "space":
            tokens.append((kind, match.group(kind), pos))
        pos = match.end()
    tokens.append(("end", "", pos))
    return tokens


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {column}"


def primitives_by_name() -> dict:
    """name -> Primitive, for every primitive that has a shape rule."""
    return {prim.name: prim for prim in abstract_eval_rules}


def parse_graph(text: str) -> Graph:
    """Parse IR text as printed by print_graph. Call typecheck() on the result to verify it."""
    parser = _Parser(text, primitives_by_name())
    graph = parser.graph()
    parser.skip_newlines()
    parser.expect("end")
    return graph


class _Parser:
    def __init__(self, text, prims):
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0
        self.prims = prims

    # -- token stream ---------------------------------------------------------------------------------------
    def peek(self, offset=0):
        return self.tokens[min(self.i + offset, len(self.tokens) - 1)]

    def error(self, message, token=None):
        kind, value, pos = token or self.peek()
        found = "end of text" if kind == "end" else repr(value)
        return IRParseError(f"{_where(self.text, pos)}: {message}, found {found}")

    def take(self):
        token = self.peek()
        self.i += 1
        return token

    def at(self, kind, value=None):
        k, v, _ = self.peek()
        return k == kind and (value is None or v == value)

    def accept(self, kind, value=None):
        if self.at(kind, value):
            return self.take()
        return None

    def expect(self, kind, value=None):
        if not self.at(kind, value):
            raise self.error(f"expected {value or kind}")
        return self.take()

    def skip_newlines(self):
        """Blank lines and comments that stand on their own line carry no meaning."""
        while self.at("newline") or self.at("comment"):
            self.take()

    # -- grammar --------------------------------------------------------------------------------------------
    def graph(self) -> Graph:
        self.skip_newlines()
        self.expect("name", "graph")
        self.expect("punct", "(")
        scope: dict[str, Var] = {}
        inputs = []
        while not self.at("punct", ")"):
            if inputs:
                self.expect("punct", ",")
            inputs.append(self.binder(scope))
        self.expect("punct", ")")
        self.expect("punct", "{")
        eqns = []
        while True:
            self.skip_newlines()
            if self.at("name", "return") and not self.at_binder():
                break
            eqns.append(self.eqn(scope))
        self.take()
        outputs = []
        while not (self.at("newline") or self.at("punct", "}")):
            if outputs:
                self.expect("punct", ",")
            outputs.append(self.atom(scope))
        self.skip_newlines()
        self.expect("punct", "}")
        return Graph(tuple(inputs), tuple(eqns), tuple(outputs))

    def at_binder(self):
        return self.peek(1)[0:2] == ("punct", ":")

    def binder(self, scope) -> Var:
        token = self.expect("name")
        name = token[1]
        if name in RESERVED_NAMES:
            raise self.error("expected a variable name", token)
        if name in scope:
            raise self.error(f"{name} is assigned twice", token)
        self.expect("punct", ":")
        var = Var(self.aval())
        scope[name] = var
        return var

    def aval(self) -> ShapedArray:
        weak = self.accept("punct", "~") is not None
        dtype = self.dtype()
        self.expect("punct", "[")
        shape = []
        while not self.at("punct", "]"):
            if shape:
                self.expect("punct", ",")
            token = self.expect("number")
            if not token[1].isdigit():
                raise self.error("expected a non-negative integer dimension", token)
            shape.append(int(token[1]))
        self.expect("punct", "]")
        return ShapedArray(tuple(shape), dtype, weak)

    def dtype(self) -> np.dtype:
        token = self.expect("name")
        try:
            return dtype_from_short_name(token[1])
        except ValueError:
            raise self.error("expected a dtype such as f32, i64, bool, c128", token) from None

    def eqn(self, scope) -> Eqn:
        outputs = [self.binder(scope)]
        while not self.at("punct", "="):
            outputs.append(self.binder(scope))
        self.expect("punct", "=")
        token = self.expect("name")
        prim = self.prims.get(token[1])
        if prim is None:
            raise self.error("unknown primitive", token)
        params = {}
        if self.accept("punct", "["):
            while not self.at("punct", "]"):
                if params:
                    self.expect("punct", ",")
                self.skip_newlines()
                key = self.expect("name")[1]
                self.expect("punct", "=")
                params[key] = self.value()
            self.expect("punct", "]")
        inputs = []
        while not (self.at("newline") or self.at("comment") or self.at("end")):
            inputs.append(self.atom(scope))
        source = None
        comment = self.accept("comment")
        if comment is not None:
            source = comment[1][1:].strip() or None
        return Eqn(prim, tuple(inputs), tuple(outputs), params, source)

    def atom(self, scope):
        kind, value, _ = self.peek()
        if kind == "name" and value not in ("true", "false"):
            self.take()
            if value not in scope:
                raise self.error(f"{value} is used before it is defined", self.tokens[self.i - 1])
            return scope[value]
        return self.literal()

    def literal(self) -> Literal:
        token = self.take()
        kind, text, _ = token
        if not (kind in ("number", "complex") or (kind == "name" and text in ("true", "false"))):
            raise self.error("expected a variable or a literal", token)
        self.expect("punct", ":")
        weak = self.accept("punct", "~") is not None
        dtype = self.dtype()
        value = _scalar(text, kind, dtype, weak)
        if value is None:
            raise self.error(f"{text} is not a valid {dtype.name} literal", token)
        return Literal(value, ShapedArray((), dtype, weak))

    def value(self):
        self.skip_newlines()
        kind, text, _ = self.peek()
        if kind == "name" and text == "graph":
            return self.graph()
        self.take()
        if kind == "punct" and text == "(":
            items = []
            while not self.at("punct", ")"):
                items.append(self.value())
                self.skip_newlines()
                if not self.accept("punct", ","):
                    break
                self.skip_newlines()
            self.expect("punct", ")")
            return tuple(items)
        if kind == "number":
            return float(text) if _is_float_text(text) else int(text)
        if kind == "complex":
            return _complex(text)
        if kind == "string":
            return ast.literal_eval(text)
        if kind == "name":
            constants = {"True": True, "False": False, "None": None}
            if text in constants:
                return constants[text]
            try:
                return dtype_from_short_name(text)
            except ValueError:
                pass
        raise self.error("expected a param value", self.tokens[self.i - 1])


def _is_float_text(text: str) -> bool:
    return any(c in text for c in ".eEn") or "inf" in text


def _complex(text: str) -> complex:
    match = _TOKEN.match(text)
    return complex(float(match.group("re")), float(match.group("im")))


def _scalar(text, kind, dtype, weak):
    """The literal's value: a Python scalar when weakly typed (as tracing makes it), else a NumPy scalar."""
    if dtype.kind == "b":
        if text not in ("true", "false"):
            return None
        value = text == "true"
        return value if weak else np.bool_(value)
    if kind == "name":
        return None
    if dtype.kind in "iu":
        if kind != "number" or _is_float_text(text):
            return None
        value = int(text)
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            return None
    elif kind_of(dtype) == "f":
        if kind != "number":
            return None
        value = float(text)
    else:
        value = _complex(text) if kind == "complex" else complex(float(text))
    return value if weak else dtype.type(value)
