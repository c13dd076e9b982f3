"""In-place writes, through views as NumPy code makes them: `v = y[::2]; v *= 3`, `y.reshape(-1)[1]
= c`, `np.add(a, b, out=y[:-1])`, item assignment with slices, integer arrays and masks, overlapping
reads and writes (`y += y.T`, `y[1:] += y[:-1]`), writes into an argument, and copies to write into.

A write changes every value of the target's alias group (program.Var.group); their facts merge with
the facts of what was written."""

from __future__ import annotations

from tests.fuzz import facts
from tests.fuzz.facts import ScalarFacts
from tests.fuzz.grammar_elementwise import scalar
from tests.fuzz.grammar_shapes import slice_key
from tests.fuzz.program import Stmt

AUGMENTED = {"+": "add", "-": "subtract", "*": "multiply"}


def _source(v) -> str:
    return v.name if not isinstance(v, ScalarFacts) else repr(v.value)


def _write(g, target, text, op, written):
    """A statement writing into target's memory; `written` is the facts of the new elements (a
    dict)."""

    def effect(env):
        g.write_group(target.group, written)

    return Stmt(text, "write", op, None, writes=(target.name,), effect=effect)


def _target(g):
    """Prefer values that are views or copies made to be written into; arguments now and then."""
    target = g.pick(lambda v: g.group_size(v.group) > 1 or v.name in g.copies)
    if target is None or g.rng.random() < 0.2:
        target = g.pick(lambda v: v.dtype.kind in "biuf")
    return target


def build_copy(g):
    x = g.pick()
    if x is None:
        return None
    name = g.name()
    text = g.choice(
        [f"{name} = {x.name}.copy()", f"{name} = np.array({x.name})", f"{name} = np.copy({x.name})"]
    )

    def effect(env):
        g.define(x.derived(name, env[name]))
        g.copies.add(name)

    return Stmt(text, "copy", "copy", name, effect=effect)


def build_augmented(g):
    target = _target(g)
    if target is None:
        return None
    symbol = g.choice(list(AUGMENTED))
    op = AUGMENTED[symbol]
    if g.rng.random() < 0.35:
        operand = scalar(g, target)
    else:
        operand = g.pick(lambda v: g.broadcasts(v, target, to=True)) or scalar(g, target)
    if op != "multiply" and (target.ulps or operand.ulps):
        return None  # a sum of inexact values is not within a relative bound
    written = facts.arithmetic(op, target, operand, target.dtype) if target.is_float else {}
    return _write(
        g, target, f"{target.name} {symbol}= {_source(operand)}", f"augmented_{op}", written
    )


def build_setitem(g):
    target = _target(g)
    if target is None or not target.shape:
        return None
    value = scalar(g, target) if g.rng.random() < 0.6 else g.pick()
    if value is None:
        return None
    salt = int(g.rng.integers(1000))
    r = g.rng.random()
    if r < 0.5:
        key, op = slice_key(g, len(target.shape)), "setitem_slice"
        text = f"{target.name}[{key}] = {_source(value)}"
    elif r < 0.65:
        op = "setitem_reshape"
        text = f"{target.name}.reshape(-1)[{g.choice([0, 1, -1])}] = {_source(value)}"
    elif r < 0.85:
        op = "setitem_indices"
        text = f"{target.name}[indices({target.name}.shape[0], 3, {salt})] = {_source(value)}"
    else:
        op = "setitem_mask"
        text = f"{target.name}[mask({target.name}.shape, {salt})] = {_source(value)}"
    return _write(g, target, text, op, facts.combine([value]) if target.is_float else {})


def build_out(g):
    """A ufunc writing into a view with out=, often of its own operands (overlapping)."""
    target = _target(g)
    if target is None or not target.shape:
        return None
    ufunc = g.choice(["add", "multiply", "subtract", "maximum"])
    t = target.name
    forms = [
        (f"np.{ufunc}({t}[1:], {t}[:-1], out={t}[:-1])", target, target),
        (f"np.{ufunc}({t}[::-1], {t}, out={t})", target, target),
    ]
    other = g.pick(lambda v: g.broadcasts(v, target, to=True))
    if other is not None:
        forms.append((f"np.{ufunc}({t}, {other.name}, out={t})", target, other))
        forms.append((f"np.{ufunc}({other.name}, {t}[::2], out={t}[::2])", other, target))
    text, a, b = forms[int(g.rng.integers(len(forms)))]
    if ufunc in ("add", "subtract") and (a.ulps or b.ulps):
        return None
    if not target.is_float:
        written = {}
    elif ufunc == "maximum":
        written = facts.combine([a, b])
    else:
        written = facts.arithmetic(ufunc, a, b, target.dtype)
    return _write(g, target, text, f"out_{ufunc}", written)


def build_overlap(g):
    """Reads and writes of the same memory in one statement: NumPy computes as if from a copy."""
    target = _target(g)
    if target is None or not target.shape or target.ulps:
        return None
    t = target.name
    symbol = g.choice(list(AUGMENTED))
    text = g.choice(
        [
            f"{t} {symbol}= {t}.T",
            f"{t}[1:] {symbol}= {t}[:-1]",
            f"{t}[::2] {symbol}= {t}[1::2]",
            f"{t}[...] = {t}[::-1]",
        ]
    )
    op = "assign" if "[...] =" in text else AUGMENTED[symbol]
    written = {}
    if target.is_float:
        written = (
            facts.combine([target])
            if op == "assign"
            else facts.arithmetic(op, target, target, target.dtype)
        )
    return _write(g, target, text, f"overlap_{op}", written)


BUILDERS = {
    "copy": (build_copy, 1.0),
    "augmented": (build_augmented, 1.2),
    "setitem": (build_setitem, 1.0),
    "out": (build_out, 0.6),
    "overlap": (build_overlap, 0.4),
}
