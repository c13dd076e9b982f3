"""Statements that combine elements along axes: reductions (sum, prod, max, min, mean, any, all,
argmax, argmin, with axis and keepdims), cumulative sums and products, matmul/dot, sort/argsort.

Float sums, products and matmuls differ with the summation order, so they are generated only where
the result stays comparable: exactly (integer-valued operands whose sums stay below 2**24 or 2**53;
products of values in {-1, 0, 1}), or within facts.order_ulps (operands of one sign for sums,
magnitudes in [0.5, 2] for products)."""

from __future__ import annotations

import math

import numpy

from tests.fuzz import facts
from tests.fuzz.program import Stmt

REDUCTIONS = ("sum", "prod", "max", "min", "mean", "any", "all", "argmax", "argmin")


def _axis(g, ndim, allow_tuple=True):
    r = g.rng.random()
    if ndim == 0 or r < 0.25:
        return None
    if allow_tuple and ndim >= 2 and r < 0.4:
        first, second = (int(a) for a in g.rng.choice(ndim, size=2, replace=False))
        return (first, second - ndim if g.rng.random() < 0.5 else second)
    return int(g.rng.integers(-ndim, ndim))


def order_facts(op, x, length):
    """Facts of a float sum/mean (op "sum") or product (op "prod") of `length` terms of x, or None
    when its result is not comparable between summation orders."""
    if op == "sum":
        terms = facts.most_terms(length)
        if x.exact_int and x.ulps == 0 and x.bound * terms <= facts.exact_limit(x.dtype):
            return {"bound": x.bound * terms, "nonneg": x.nonneg, "unit": False, "ulps": 0}
        if x.nonneg:
            return {
                "bound": math.inf,
                "nonneg": True,
                "unit": False,
                "ulps": x.ulps + facts.order_ulps(length),
            }
        return None
    if x.exact_int and x.ulps == 0 and x.bound <= 1:
        return {"bound": 1.0, "nonneg": x.nonneg, "unit": False, "ulps": 0}
    if x.unit and not x.special:
        ulps = length * x.ulps * 2 + facts.order_ulps(length)
        return {"bound": math.inf, "nonneg": x.nonneg, "unit": False, "ulps": ulps}
    return None


def build_reduce(g):
    names = g.allowed(REDUCTIONS)
    if not names:
        return None
    op = g.choice(names)
    x = g.pick(lambda v: op in ("max", "min") or v.ulps == 0 or op in ("sum", "mean", "prod"))
    if x is None:
        return None
    ndim = len(x.shape)
    axis = _axis(g, ndim, allow_tuple=op not in ("argmax", "argmin"))
    length = facts.reduced_length(x.shape, axis)
    result = None
    if x.is_float and op in ("sum", "mean", "prod"):
        result = order_facts("prod" if op == "prod" else "sum", x, length)
        if result is None:
            return None
        if op == "mean":  # the exact sum divided by the count: correctly rounded, but no integer
            result.update(bound=math.inf, ulps=result["ulps"] + (1 if result["ulps"] else 0))
    # NumPy's mean of integers adds them as float64: exact in any order only below 2**53 in all
    float_sum = facts.value_bound(x) * facts.LONGEST_REDUCTION
    if op == "mean" and x.dtype.kind in "iu" and float_sum > facts.exact_limit(numpy.float64):
        return None
    keepdims = g.rng.random() < 0.35
    options = "" if axis is None and g.rng.random() < 0.5 else f"axis={axis}"
    if keepdims:
        options += (", " if options else "") + "keepdims=True"
    name = g.name()
    if g.rng.random() < 0.5 and op not in ("argmax", "argmin"):
        text = f"{name} = {x.name}.{op}({options})"
    else:
        text = f"{name} = np.{op}({x.name}{', ' if options else ''}{options})"

    def effect(env):
        value = env[name]
        if value.dtype.kind != "f":
            g.define(x.unknown(name, value))
        elif result is not None:
            g.define(x.derived(name, value, special=x.special, **result))
        elif op in ("max", "min"):
            g.define(x.derived(name, value))
        else:  # mean of integers or bools: an exact sum (int64) over the count, correctly rounded
            g.define(x.unknown(name, value))

    return Stmt(text, "reduce", op, name, effect=effect)


def build_cumulative(g):
    names = g.allowed(["cumsum", "cumprod"])
    if not names:
        return None
    op = g.choice(names)
    x = g.pick()
    if x is None:
        return None
    ndim = len(x.shape)
    axis = None if ndim == 0 or g.rng.random() < 0.3 else int(g.rng.integers(-ndim, ndim))
    result = None
    if x.is_float:
        length = facts.reduced_length(x.shape, axis)
        result = order_facts("sum" if op == "cumsum" else "prod", x, length)
        if result is None:
            return None
    name = g.name()
    options = "" if axis is None else f", axis={axis}"
    text = g.choice(
        [f"{name} = np.{op}({x.name}{options})", f"{name} = {x.name}.{op}({options[2:]})"]
    )

    def effect(env):
        value = env[name]
        if result is None:
            g.define(
                x.derived(
                    name,
                    value,
                    bound=math.inf,
                    nonneg=False,
                    unit=False,
                    special=False,
                    signless=False,
                )
            )
        else:
            g.define(x.derived(name, value, special=x.special, **result))

    return Stmt(text, "cumulative", op, name, effect=effect)


def _matmul_facts(a, b, out_dtype):
    if out_dtype.kind != "f":
        return {
            "bound": math.inf,
            "nonneg": False,
            "unit": False,
            "special": False,
            "ulps": 0,
            "signless": False,
        }
    signless = a.signless or b.signless
    length = facts.N  # the contracted axis has at most N elements
    terms = facts.LONGEST_REDUCTION
    ba, bb = facts.value_bound(a), facts.value_bound(b)
    if a.ulps == 0 and b.ulps == 0 and ba * bb * terms <= facts.exact_limit(out_dtype):
        return {
            "bound": ba * bb * terms,
            "nonneg": a.nonneg and b.nonneg,
            "unit": False,
            "special": a.special or b.special,
            "ulps": 0,
            "signless": signless,
        }
    if a.nonneg and b.nonneg:
        ulps = 2 * (a.ulps + b.ulps) + 1 + facts.order_ulps(length)
        return {
            "bound": math.inf,
            "nonneg": True,
            "unit": False,
            "special": a.special or b.special,
            "ulps": ulps,
            "signless": signless,
        }
    return None


def build_matmul(g):
    a = g.pick(lambda v: len(v.shape) >= 1)
    if a is None:
        return None
    b = g.pick(lambda v: len(v.shape) >= 1 and g.contracts(a, v))
    if b is None:
        return None
    out_dtype = g.result_dtype(a, b)
    result = _matmul_facts(a, b, out_dtype)
    if result is None:
        return None
    name = g.name()
    form = g.choice(["{a} @ {b}", "np.matmul({a}, {b})", "np.dot({a}, {b})"])
    if form.startswith("np.dot") and len(b.shape) > 2:
        form = "{a} @ {b}"

    def effect(env):
        g.define(a.derived(name, env[name], **result))

    return Stmt(
        f"{name} = " + form.format(a=a.name, b=b.name), "matmul", "matmul", name, effect=effect
    )


def build_sort(g):
    """np.sort / np.argsort (stable: NumPy's default sort may order equal elements, ±0 among them,
    either way), or the in-place method x.sort()."""
    names = g.allowed(["sort", "sort", "argsort", "sort_inplace"])
    if not names:
        return None
    op = g.choice(names)
    x = g.pick(lambda v: len(v.shape) >= 1 and (op != "argsort" or v.ulps == 0))
    if x is None:
        return None
    ndim = len(x.shape)
    axis = g.choice([-1, 0, None]) if op != "sort_inplace" else g.choice([-1, 0])
    if axis is not None and ndim >= 1:
        axis = axis % ndim
    if op == "sort_inplace":
        return Stmt(
            f"{x.name}.sort(axis={axis}, kind='stable')",
            "write",
            op,
            None,
            writes=(x.name,),
            effect=lambda env: None,
        )
    name = g.name()
    text = f"{name} = np.{op}({x.name}, axis={axis}, kind='stable')"

    def effect(env):
        value = env[name]
        if op == "argsort":
            g.define(
                x.derived(
                    name,
                    value,
                    bound=math.inf,
                    nonneg=True,
                    unit=False,
                    special=False,
                    signless=False,
                )
            )
        else:
            g.define(x.derived(name, value))

    return Stmt(text, "sort", op, name, effect=effect)


BUILDERS = {
    "reduce": (build_reduce, 3.0),
    "cumulative": (build_cumulative, 0.8),
    "matmul": (build_matmul, 1.0),
    "sort": (build_sort, 0.7),
}
