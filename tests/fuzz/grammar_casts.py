"""Statements that convert and choose: casts (astype, asarray with a dtype), np.where with a boolean
condition, np.clip. Each builder takes the generation state (generator.Gen) and returns a Stmt, or
None when nothing fits."""

from __future__ import annotations

import math

import numpy

from tests.fuzz import facts
from tests.fuzz.facts import ScalarFacts
from tests.fuzz.grammar_elementwise import operands, source
from tests.fuzz.program import Stmt


def build_cast(g):
    x = g.pick() if g.allowed(["astype"]) else None
    if x is None:
        return None
    target = numpy.dtype(
        g.choice(["bool", "int8", "uint8", "int32", "int64", "float32", "float64"])
    )
    # float -> int of NaN, inf or an out-of-range value is undefined in C (NumPy warns): never
    # compared
    out_of_range = x.ulps or x.special or x.bound > facts.int_bound(target)
    if target.kind in "iu" and x.is_float and out_of_range:
        return None
    if target.kind in "biu" and x.ulps:
        return None
    name = g.name()

    def effect(env):
        value = env[name]
        if target.kind == "f":
            ulps = facts.cast_ulps(x.ulps, x.dtype, target) if x.is_float else 0
            bound = facts.value_bound(x)
            special = x.special or bound > float(numpy.finfo(target).max)
            g.define(x.derived(name, value, bound=bound, ulps=ulps, special=special))
        else:
            g.define(
                x.derived(
                    name,
                    value,
                    bound=math.inf,
                    nonneg=target.kind in "bu",
                    unit=False,
                    special=False,
                    ulps=0,
                    signless=False,
                )
            )

    form = g.choice(
        [f"{x.name}.astype(np.{target.name})", f"np.asarray({x.name}, dtype=np.{target.name})"]
    )
    if target.kind == "b":
        form = f"{x.name}.astype(bool)"
    return Stmt(f"{name} = {form}", "cast", f"astype_{target.name}", name, effect=effect)


def build_select(g):
    """np.where(condition, x, y) with a boolean condition value, or np.clip."""
    if not g.allowed(["clip"]) or (g.allowed(["where"]) and g.rng.random() < 0.6):
        condition = g.pick(lambda v: v.dtype.kind == "b")
        pair = operands(g, "biuf", allow_inexact=True)
        if condition is None or pair is None:
            return None
        a, b = pair
        if not isinstance(a, ScalarFacts) and not g.broadcasts(condition, a):
            return None
        name = g.name()
        text = f"{name} = np.where({condition.name}, {source(a)}, {source(b)})"
        op = "where"

        def effect(env):
            base = a if not isinstance(a, ScalarFacts) else b
            g.define(base.derived(name, env[name], **facts.combine([a, b])))
    else:
        x = g.pick(lambda v: v.dtype.kind in "iuf")
        if x is None:
            return None
        low, high = sorted(g.rng.choice([-3, -1, 0, 1, 2, 5], size=2, replace=False).tolist())
        if x.is_float and g.rng.random() < 0.5:
            low, high = low - 0.5, high + 0.25
        low_text = "None" if g.rng.random() < 0.15 else repr(low)
        name = g.name()
        text = f"{name} = np.clip({x.name}, {low_text}, {high!r})"
        op = "clip"

        def effect(env):
            value = env[name]
            bounds = ScalarFacts(low), ScalarFacts(high)
            g.define(x.derived(name, value, **facts.combine([x, *bounds])))

    return Stmt(text, "select", op, name, effect=effect)


BUILDERS = {
    "cast": (build_cast, 1.2),
    "select": (build_select, 1.5),
}
