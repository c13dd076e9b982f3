"""Statements of the elementwise families: exact unary and binary arithmetic (broadcasting, Python
scalars), transcendental functions, comparisons and logic, casts (astype), where and clip. Each
builder takes the generation state (generator.Gen) and returns a Stmt, or None when nothing fits."""

from __future__ import annotations

import math

from tests.fuzz import facts
from tests.fuzz.facts import ScalarFacts
from tests.fuzz.program import Stmt

# exact unary operations: (source template, dtype kinds it is generated for)
UNARY = {
    "negative": ("-{x}", "iuf" + "b"),  # bool: NumPy raises TypeError, so must every tier
    "absolute": ("np.abs({x})", "biuf"),
    "sign": ("np.sign({x})", "iuf"),
    "floor": ("np.floor({x})", "f"),
    "ceil": ("np.ceil({x})", "f"),
    "trunc": ("np.trunc({x})", "f"),
    "rint": ("np.rint({x})", "f"),
    "square": ("np.square({x})", "biuf"),
    "sqrt": ("np.sqrt({x})", "biuf"),
    "reciprocal": ("np.reciprocal({x})", "f"),
    "logical_not": ("np.logical_not({x})", "biuf"),
    "invert": ("~{x}", "biu"),
    "isnan": ("np.isnan({x})", "f"),
    "isinf": ("np.isinf({x})", "f"),
    "isfinite": ("np.isfinite({x})", "if"),
    "signbit": ("np.signbit({x})", "f"),
}
TRANSCENDENTAL = ("sin", "cos", "tan", "exp", "expm1", "log", "log1p", "log2", "log10", "exp2",
                  "tanh", "sinh", "cosh", "arctan", "arcsin", "arccos", "arcsinh", "cbrt")  # fmt: skip
# binary operations: (source template, dtype kinds of the operands)
BINARY = {
    "add": ("{a} + {b}", "biuf"),
    "subtract": ("{a} - {b}", "iuf"),
    "multiply": ("{a} * {b}", "biuf"),
    "true_divide": ("{a} / {b}", "iuf"),
    "floor_divide": ("{a} // {b}", "iuf"),
    "remainder": ("{a} % {b}", "iuf"),
    "maximum": ("np.maximum({a}, {b})", "biuf"),
    "minimum": ("np.minimum({a}, {b})", "biuf"),
    "fmax": ("np.fmax({a}, {b})", "f"),
    "fmin": ("np.fmin({a}, {b})", "f"),
    "copysign": ("np.copysign({a}, {b})", "f"),
    "bitwise_and": ("{a} & {b}", "biu"),
    "bitwise_or": ("{a} | {b}", "biu"),
    "bitwise_xor": ("{a} ^ {b}", "biu"),
    "left_shift": ("{a} << {b}", "iu"),
    "right_shift": ("{a} >> {b}", "iu"),
    "logical_and": ("np.logical_and({a}, {b})", "biuf"),
    "logical_or": ("np.logical_or({a}, {b})", "biuf"),
    "arctan2": ("np.arctan2({a}, {b})", "f"),
    "hypot": ("np.hypot({a}, {b})", "f"),
    "logaddexp": ("np.logaddexp({a}, {b})", "f"),
}
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
# where the sign of a zero operand decides more than the sign of a zero result (1 / ±0 is ±inf)
SIGN_SENSITIVE = {"reciprocal", "signbit", "true_divide", "floor_divide", "remainder",
                  "copysign", "arctan2", "power"}  # fmt: skip


def source(v) -> str:
    return v.name if not isinstance(v, ScalarFacts) else repr(v.value)


def scalar(g, var) -> ScalarFacts:
    """A Python scalar to combine with var: mostly small and in range; now and then one that does
    not fit var's integer dtype (NumPy raises OverflowError), or a float with an integer array."""
    rng = g.rng
    kind = var.dtype.kind
    if kind == "b":
        return ScalarFacts(bool(rng.integers(2)) if rng.random() < 0.5 else int(rng.integers(0, 3)))
    if kind in "iu" and rng.random() < 0.85:
        if rng.random() < 0.06:
            return ScalarFacts(300 if kind == "i" or rng.random() < 0.5 else -1)
        return ScalarFacts(
            int(rng.choice([0, 1, 2, 3, -1, -2, 5])) if kind == "i" else int(rng.integers(0, 6))
        )
    return ScalarFacts(float(rng.choice([0.5, 2.0, -1.0, 3.0, -0.0, 1e-3, 0.25, 1.5])))


def build_unary(g):
    x = g.pick(lambda v: v.ulps == 0)
    if x is None:
        return None
    names = g.allowed(
        [
            n
            for n, (_, kinds) in UNARY.items()
            if x.dtype.kind in kinds and not (x.signless and n in SIGN_SENSITIVE)
        ]
    )
    if not names:
        return None
    op = g.choice(names)
    name = g.name()

    def effect(env):
        value = env[name]
        bound = facts.value_bound(x)
        if op in ("negative", "absolute", "floor", "ceil", "trunc", "rint"):
            kept = {
                "bound": bound if x.is_float else math.inf,
                "special": x.special,
                "unit": x.unit,
            }
            g.define(
                x.derived(
                    name,
                    value,
                    nonneg=op == "absolute" or (x.nonneg and op != "negative"),
                    signless=x.signless and op != "absolute",
                    **kept,
                )
            )
        elif op == "square":
            g.define(
                x.derived(
                    name,
                    value,
                    bound=bound * bound,
                    nonneg=True,
                    unit=False,
                    special=x.special or bound * bound > 1e30,
                    signless=False,
                )
            )
        elif op == "sign":
            g.define(x.derived(name, value, bound=1.0, nonneg=False, unit=False))
        else:
            g.define(
                x.derived(
                    name,
                    value,
                    bound=math.inf,
                    nonneg=op == "sqrt",
                    unit=False,
                    special=x.special or op == "reciprocal" or (op == "sqrt" and not x.nonneg),
                    signless=x.signless and value.dtype.kind == "f",
                )
            )

    return Stmt(f"{name} = {UNARY[op][0].format(x=x.name)}", "unary", op, name, effect=effect)


def build_transcendental(g):
    x = g.pick(lambda v: v.ulps == 0 and v.dtype.kind in "biuf")
    if x is None:
        return None
    names = g.allowed(TRANSCENDENTAL)
    if not names:
        return None
    op = g.choice(names)
    name = g.name()

    def effect(env):
        g.define(
            x.derived(
                name,
                env[name],
                bound=math.inf,
                nonneg=op in ("exp", "exp2", "cosh"),
                unit=False,
                special=True,
                ulps=facts.TRANSCENDENTAL_ULPS,
            )
        )

    return Stmt(f"{name} = np.{op}({x.name})", "transcendental", op, name, effect=effect)


def operands(g, kinds, allow_inexact, allow_signless=True):
    """Two operands: a value and another value it broadcasts with, or a Python scalar (either
    side)."""

    def usable(v):
        return (
            v.dtype.kind in kinds
            and (allow_inexact or v.ulps == 0)
            and (allow_signless or not v.signless)
        )

    a = g.pick(usable)
    if a is None:
        return None
    if g.rng.random() < 0.3:
        b = scalar(g, a)
    else:
        b = g.pick(lambda v: usable(v) and g.broadcasts(a, v))
        if b is None:
            b = scalar(g, a)
    return (a, b) if g.rng.random() < 0.7 else (b, a)


def build_binary(g):
    names = g.allowed(list(BINARY))
    if not names:
        return None
    op = g.choice(names)
    template, kinds = BINARY[op]
    relative = op in ("multiply", "maximum", "minimum", "fmax", "fmin")
    pair = operands(g, kinds, allow_inexact=relative, allow_signless=op not in SIGN_SENSITIVE)
    if pair is None:
        return None
    a, b = pair
    if op == "logaddexp" and not (a.nonneg and b.nonneg):
        return None  # log(e**a + e**b) cancels where it nears 0: no bound relative to the result
    if op in ("left_shift", "right_shift") and g.rng.random() < 0.8:
        a, b = (a, b) if not isinstance(a, ScalarFacts) else (b, a)
        b = ScalarFacts(int(g.rng.integers(0, 8)))
    name = g.name()
    text = f"{name} = {template.format(a=source(a), b=source(b))}"

    def effect(env):
        value = env[name]
        base = a if not isinstance(a, ScalarFacts) else b
        if value.dtype.kind != "f":
            g.define(base.unknown(name, value))
        elif op in ("add", "subtract", "multiply"):
            g.define(base.derived(name, value, **facts.arithmetic(op, a, b, value.dtype)))
        elif op in ("maximum", "minimum", "fmax", "fmin"):
            combined = facts.combine([a, b])
            if op in ("maximum", "fmax"):
                combined["nonneg"] = a.nonneg or b.nonneg
            combined["signless"] = combined["signless"] or op in ("fmax", "fmin")
            g.define(base.derived(name, value, **combined))
        else:
            ulps = {
                "arctan2": facts.BINARY_MATH_ULPS,
                "hypot": facts.BINARY_MATH_ULPS,
                "logaddexp": facts.BINARY_MATH_ULPS,
            }.get(op, 0)
            g.define(
                base.derived(
                    name,
                    value,
                    bound=math.inf,
                    nonneg=op == "hypot",
                    unit=False,
                    special=True,
                    ulps=ulps,
                    signless=a.signless or b.signless,
                )
            )

    return Stmt(text, "binary", op, name, effect=effect)


def build_power(g):
    if not g.allowed(["power"]):
        return None
    x = g.pick(lambda v: v.ulps == 0 and v.dtype.kind in "biuf" and not v.signless)
    if x is None:
        return None
    if g.rng.random() < 0.8:
        exponent = g.choice(
            [2, 2, 3, 0, 1, -1, 0.5, 2.5, -2.0] if x.is_float else [2, 2, 3, 0, 1, -1]
        )
        exponent_text = repr(exponent)
    else:
        e = g.pick(
            lambda v: v.ulps == 0 and v.dtype.kind in "iu" and g.broadcasts(x, v) and v.nonneg
        )
        if e is None:
            return None
        exponent, exponent_text = None, e.name
    name = g.name()

    def effect(env):
        value = env[name]
        if value.dtype.kind != "f":
            g.define(x.derived(name, value, bound=math.inf, special=False, ulps=0))
        elif exponent == 2 and x.is_float:  # NumPy squares: exact
            bound = x.bound * x.bound
            g.define(
                x.derived(
                    name,
                    value,
                    bound=bound,
                    nonneg=True,
                    unit=False,
                    special=x.special or bound > 1e30,
                )
            )
        else:
            g.define(
                x.derived(
                    name,
                    value,
                    bound=math.inf,
                    nonneg=False,
                    unit=False,
                    special=True,
                    ulps=0 if exponent in (0, 1) else facts.POWER_ULPS,
                )
            )

    return Stmt(f"{name} = {x.name} ** {exponent_text}", "binary", "power", name, effect=effect)


def build_compare(g):
    pair = operands(g, "biuf", allow_inexact=False)
    if pair is None:
        return None
    a, b = pair
    op = g.choice(g.allowed(COMPARISONS) or COMPARISONS)
    name = g.name()

    def effect(env):
        base = a if not isinstance(a, ScalarFacts) else b
        g.define(
            base.derived(
                name,
                env[name],
                bound=1.0,
                nonneg=True,
                unit=False,
                special=False,
                ulps=0,
                signless=False,
            )
        )

    return Stmt(f"{name} = {source(a)} {op} {source(b)}", "compare", op, name, effect=effect)


BUILDERS = {
    "unary": (build_unary, 3.0),
    "transcendental": (build_transcendental, 1.0),
    "binary": (build_binary, 4.0),
    "power": (build_power, 0.7),
    "compare": (build_compare, 1.5),
}
