"""Import rules of ONNX's string operators (convention: interpreter.py): StringConcat, StringSplit,
StringNormalizer and RegexFullMatch. Strings are a host dtype in arraystack (NumPy's object or str
arrays), so these rules run eagerly, on NumPy, as the string Cast does; a model that uses them runs
without jit. RegexFullMatch compiles its pattern with Python's `re`, whose syntax covers RE2's.
"""

from __future__ import annotations

import re

import numpy

string_rules: dict = {}


def _strings(node, x, what="input"):
    """x as a NumPy array of Python strings (object dtype), or ModelError when it holds no strings."""
    array = numpy.asarray(x)
    if array.dtype.kind not in "OUT":
        raise node.error(f"its {what} must hold strings, got {array.dtype}")
    return array.astype(object)


def _string_concat(xp, node, x, y):
    a, b = numpy.broadcast_arrays(
        _strings(node, x, "first input"), _strings(node, y, "second input")
    )
    out = numpy.empty(a.shape, object)
    out.reshape(-1)[:] = [str(p) + str(q) for p, q in zip(a.reshape(-1), b.reshape(-1))]
    return out


def _string_split(xp, node, x):
    strings = _strings(node, x)
    delimiter = node.attr("delimiter") or None  # "" or unset: runs of whitespace
    maxsplit = node.attr("maxsplit")
    parts = [s.split(delimiter, -1 if maxsplit is None else maxsplit) for s in strings.reshape(-1)]
    counts = numpy.array([len(p) for p in parts], numpy.int64).reshape(strings.shape)
    width = max((len(p) for p in parts), default=0)
    out = numpy.full((len(parts), width), "", object)
    for row, p in zip(out, parts):
        row[: len(p)] = p
    return out.reshape((*strings.shape, width)), counts


def _string_normalizer(xp, node, x):
    strings = _strings(node, x)
    if strings.ndim not in (1, 2) or (strings.ndim == 2 and strings.shape[0] != 1):
        raise node.error(f"takes a [C] or [1, C] tensor, got shape {strings.shape}")
    action = node.attr("case_change_action", "NONE")
    if action not in ("NONE", "LOWER", "UPPER"):
        raise node.error(f"case_change_action {action!r} is not one of NONE, LOWER, UPPER")
    sensitive = node.attr("is_case_sensitive", 0)
    stops = set(node.attr("stopwords", []) or [])
    if not sensitive:
        stops = {w.lower() for w in stops}
    kept = [s for s in strings.reshape(-1) if (s if sensitive else s.lower()) not in stops]
    if action == "LOWER":
        kept = [s.lower() for s in kept]
    elif action == "UPPER":
        kept = [s.upper() for s in kept]
    out = numpy.array(kept or [""], object)
    return out if strings.ndim == 1 else out.reshape(1, -1)


def _regex_full_match(xp, node, x):
    strings = _strings(node, x)
    pattern = node.attr("pattern")
    try:
        regex = re.compile(pattern)
    except (re.error, TypeError) as e:
        raise node.error(f"pattern {pattern!r} does not compile: {e}") from None
    matched = [regex.fullmatch(s) is not None for s in strings.reshape(-1)]
    return numpy.array(matched, bool).reshape(strings.shape)


string_rules.update(
    {
        "StringConcat": _string_concat,
        "StringSplit": _string_split,
        "StringNormalizer": _string_normalizer,
        "RegexFullMatch": _regex_full_match,
    }
)

__all__ = ["string_rules"]
