"""Running a jaxpr with arraystack: each equation through its conversion rule, in order.

Values are raw operands of `bind` (NumPy arrays and scalars eagerly, Tracers under arraystack's `jit`,
`grad` and `vmap`), so a converted program is recorded, differentiated and batched by arraystack's
own transformations. A PRNG key array (`key<fry>[...]`) is held as its uint32 key data, shape
``(*keys, 2)``.

Rule convention: `rules[name](site, *operands, **params) -> value or list of values`, keyed by the
JAX primitive's name (the tables of rules_math, rules_structural, rules_indexing, rules_control,
rules_linalg and rules_lowered, merged by `conversion_rules()`), with `params` the equation's params. `site` is the Site
of the equation: its
output avals (`site.out_avals`), `site.run(closed_jaxpr, args)` for sub-jaxprs, and `site.error()`
naming the primitive and where it sits. A rule may return a value of another dtype than JAX's;
the interpreter converts it to the equation's output dtype (the `out_dtype` params of lax's binary
operations ask for exactly that).
"""

from __future__ import annotations

import numpy

from arraystack.ir.core import bind
from arraystack.ir.primitives import convert_p


def conversion_rules() -> dict:
    """Every conversion rule, by JAX primitive name."""
    if not _RULES:
        from arraystack.jax_import.rules_control import control_rules
        from arraystack.jax_import.rules_indexing import indexing_rules
        from arraystack.jax_import.rules_linalg import linalg_rules
        from arraystack.jax_import.rules_lowered import lowered_rules
        from arraystack.jax_import.rules_math import math_rules
        from arraystack.jax_import.rules_structural import structural_rules

        _RULES.update(
            {
                **math_rules,
                **structural_rules,
                **indexing_rules,
                **control_rules,
                **linalg_rules,
                **lowered_rules,
            }
        )
    return _RULES


_RULES: dict = {}


class UnsupportedPrimitiveError(NotImplementedError):
    """A jaxpr equation whose JAX primitive has no conversion (the message names it and where it is)."""


class JaxConversionError(ValueError):
    """A jaxpr equation whose params or operands a conversion rule cannot express."""


def _describe_site(path, index, eqn) -> str:
    where = " > ".join(path + [f"equation {index}"])
    source = _user_source(eqn)
    return where + (f", traced from {source}" if source else "")


def _user_source(eqn) -> str | None:
    from jax._src import source_info_util

    try:
        return source_info_util.summarize(eqn.source_info)
    except (AttributeError, TypeError):  # pragma: no cover - an equation without source info
        return None


class Site:
    """One equation being converted: where it is in the jaxpr, and how to run its sub-jaxprs."""

    __slots__ = ("eqn", "index", "path")

    def __init__(self, path: list, index: int, eqn):
        self.path = path
        self.index = index
        self.eqn = eqn

    @property
    def name(self) -> str:
        return self.eqn.primitive.name

    @property
    def out_avals(self) -> list:
        return [v.aval for v in self.eqn.outvars]

    def where(self) -> str:
        return _describe_site(self.path, self.index, self.eqn)

    def error(self, message: str, cls=JaxConversionError) -> Exception:
        return cls(f"JAX primitive `{self.name}` ({self.where()}): {message}")

    def run(self, closed_jaxpr, args, label: str) -> list:
        """Run a sub-jaxpr (a ClosedJaxpr, or a Jaxpr without consts) on raw values."""
        jaxpr = getattr(closed_jaxpr, "jaxpr", closed_jaxpr)
        consts = list(getattr(closed_jaxpr, "consts", ()))
        inner = self.path + [f"equation {self.index} {self.name}{label}"]
        return run_jaxpr(jaxpr, [constant(c) for c in consts], list(args), inner)


def constant(value):
    """A jaxpr constant (a jax Array, a NumPy array, a scalar) as a raw NumPy operand."""
    return numpy.asarray(value)


def physical_dtype(aval):
    """The dtype a value of `aval` is held in: uint32 for PRNG keys, the aval's dtype otherwise."""
    dtype = aval.dtype
    return numpy.dtype(numpy.uint32) if is_key(aval) else numpy.dtype(dtype)


def physical_shape(aval) -> tuple:
    if is_key(aval):
        return tuple(aval.shape) + tuple(aval.dtype._impl.key_shape)
    return tuple(aval.shape)


def is_key(aval) -> bool:
    return hasattr(aval.dtype, "_impl")


def _read(env, atom):
    if hasattr(atom, "val"):  # a Literal
        return numpy.asarray(atom.val, dtype=physical_dtype(atom.aval))
    return env[atom]


def _fit(site, value, aval):
    """`value` with the equation's output dtype (see the module docstring)."""
    if is_key(aval):
        return value
    want = numpy.dtype(aval.dtype)
    if numpy.dtype(value.dtype) != want:
        value = bind(convert_p, value, dtype=want)
    if tuple(value.shape) != tuple(aval.shape):
        raise site.error(
            f"the conversion gave shape {tuple(value.shape)}, JAX's is {tuple(aval.shape)}"
        )
    return value


def run_jaxpr(jaxpr, consts: list, args: list, path: list) -> list:
    """Evaluate `jaxpr` on raw values with arraystack; returns its outputs as raw values."""
    env: dict = {}
    if len(consts) != len(jaxpr.constvars) or len(args) != len(jaxpr.invars):
        raise JaxConversionError(
            f"{' > '.join(path) or 'jaxpr'}: {len(args)} arguments and {len(consts)} constants "
            f"for a jaxpr of {len(jaxpr.invars)} and {len(jaxpr.constvars)}"
        )
    for var, value in zip(jaxpr.constvars, consts):
        env[var] = value
    for var, value in zip(jaxpr.invars, args):
        env[var] = value
    rules = conversion_rules()
    for index, eqn in enumerate(jaxpr.eqns):
        site = Site(path, index, eqn)
        rule = rules.get(eqn.primitive.name)
        if any(is_key(v.aval) for v in eqn.invars) and eqn.primitive.name in _KEY_STRUCTURAL:
            rule = _key_rule(site)
        if rule is None:
            raise UnsupportedPrimitiveError(_unsupported_message(site))
        operands = [_read(env, v) for v in eqn.invars]
        out = rule(site, *operands, **eqn.params)
        outs = list(out) if eqn.primitive.multiple_results else [out]
        if len(outs) != len(eqn.outvars):
            raise site.error(f"the conversion gave {len(outs)} results for {len(eqn.outvars)}")
        for var, value in zip(eqn.outvars, outs):
            if type(var).__name__ != "DropVar":
                env[var] = _fit(site, value, var.aval)
    return [_read(env, v) for v in jaxpr.outvars]


# Primitives that move elements: on PRNG key arrays they must carry the key data's trailing axes.
_KEY_STRUCTURAL = frozenset(
    [
        "reshape",
        "squeeze",
        "broadcast_in_dim",
        "transpose",
        "slice",
        "concatenate",
        "rev",
        "select_n",
        "gather",
        "scatter",
        "dynamic_slice",
        "dynamic_update_slice",
        "pad",
        "split",
        "tile",
        "stack",
        "unstack",
        "sort",
    ]
)


def _key_rule(site):
    from arraystack.jax_import.rules_control import key_rules

    rule = key_rules.get(site.name)
    if rule is None:
        raise site.error(
            "on PRNG key arrays it is not converted (reshape, squeeze, broadcast_in_dim, "
            "transpose, slice, concatenate, rev and select_n are); unwrap the keys with "
            "jax.random.key_data first",
            UnsupportedPrimitiveError,
        )
    return rule


def _unsupported_message(site) -> str:
    from arraystack.jax_import.coverage import UNSUPPORTED

    reason = UNSUPPORTED.get(site.name, "it is not in the coverage table (a newer JAX primitive?)")
    return (
        f"JAX primitive `{site.name}` at {site.where()} has no arraystack conversion: {reason}. "
        "See the coverage table in the from_jax guide (docs/guide/from_jax.md)."
    )
