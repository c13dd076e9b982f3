"""Seeded random programs over the NumPy API. `generate(seed)` draws arguments (symbolic shapes,
dtypes, value profiles, layouts) and statements from the grammars, keeping a statement when NumPy
runs it on the generic sizes (or, now and then, ending the program with one NumPy rejects: then
every tier must raise the same exception). `VARIANTS` size the symbols: one structure runs on many
sizes, and since kernels take their sizes at run time, its compiled kernels are reused."""

from __future__ import annotations

import types
import warnings
from dataclasses import dataclass

import numpy

from tests.fuzz import (
    facts,
    grammar_casts,
    grammar_elementwise,
    grammar_reductions,
    grammar_shapes,
    grammar_writes,
)
from tests.fuzz.inputs import SMALL_BOUND, InputSpec, layouts_for
from tests.fuzz.program import Program, Var, evaluate

SYMBOLS = ("n", "m", "k")
GENERIC = {"n": 5, "m": 3, "k": 4}  # distinct and > 1: a size-1 axis is one in every variant
VARIANTS = (
    GENERIC,
    {"n": 3, "m": 3, "k": 3},  # equal sizes: a reduction broadcast back along another axis
    {"n": 7, "m": 2, "k": 7},
    {"n": 4, "m": 4, "k": 1},
    {"n": 17, "m": 9, "k": 33},  # odd sizes past a vector's width
    {"n": 1, "m": 3, "k": 1},
    {"n": 0, "m": 3, "k": 2},  # empty
    {"n": 2, "m": 0, "k": 0},
    {"n": 33, "m": 33, "k": 2},
    {"n": 6, "m": 5, "k": 6},
)
FAMILIES = {
    **grammar_elementwise.BUILDERS,
    **grammar_casts.BUILDERS,
    **grammar_shapes.BUILDERS,
    **grammar_reductions.BUILDERS,
    **grammar_writes.BUILDERS,
}
DTYPE_WEIGHTS = {
    "bool": 0.07,
    "int8": 0.1,
    "uint8": 0.07,
    "int32": 0.1,
    "int64": 0.14,
    "float32": 0.22,
    "float64": 0.3,
}
FLOAT_PROFILE_WEIGHTS = {
    "small": 0.35,
    "moderate": 0.2,
    "positive": 0.12,
    "unit": 0.1,
    "special": 0.23,
}
ERROR_RATE = 0.05  # of rejected statements kept as the program's last (an error program)
ERRSTATE_RATE = 0.05  # of programs run under errstate(all="raise")
MAX_GENERIC_SIZE = 200


def _weighted(rng, weights: dict):
    keys = list(weights)
    p = numpy.array([weights[k] for k in keys], dtype=float)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


class Gen:
    """The state of one generation: the facts of each value defined so far, and its values."""

    def __init__(self, rng, ops=None):
        self.rng = rng
        self.ops = ops  # the op names the grammar allows (None: all)
        self.vars: dict[str, Var] = {}
        self.env: dict = {}
        self.copies: set = set()
        self.index_args: set = set()
        self._names = 0
        self._groups = 0

    def name(self) -> str:
        self._names += 1
        return f"v{self._names - 1}"

    def allowed(self, names) -> list:
        return [n for n in names if self.ops is None or n in self.ops]

    def choice(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def pick(self, predicate=None):
        """A value satisfying predicate; recent values are likelier (chains of operations, not only
        operations on the arguments)."""
        candidates = [v for v in self.vars.values() if predicate is None or predicate(v)]
        if not candidates:
            return None
        weights = numpy.arange(1, len(candidates) + 1, dtype=float) ** 1.5
        return candidates[int(self.rng.choice(len(candidates), p=weights / weights.sum()))]

    def define(self, var, group=None):
        if group is None:
            self._groups += 1
            group = self._groups
        var.group = group
        self.vars[var.name] = var

    def group_size(self, group) -> int:
        return sum(v.group == group for v in self.vars.values())

    def write_group(self, group, written):
        """Merge the facts of written elements into every value of the group."""
        if not written:
            return
        new = types.SimpleNamespace(is_float=True, **written)
        for var in self.vars.values():
            if var.group == group and var.is_float:
                merged = facts.combine([var, new])
                for key, value in merged.items():
                    setattr(var, key, value)

    def broadcasts(self, a, b, to=False) -> bool:
        return grammar_shapes.broadcastable(a.shape, b.shape, to)

    def contracts(self, a, b) -> bool:
        try:
            numpy.matmul(numpy.empty(a.shape, bool), numpy.empty(b.shape, bool))
        except ValueError:
            return False
        return True

    def result_dtype(self, a, b):
        return numpy.result_type(a.dtype, b.dtype)


def template(rng) -> list:
    """The arguments of a structure: shapes over the symbols (all one symbol: square), dtypes,
    profiles, layouts, and now and then an index argument (positions along a symbol's axis)."""
    count = int(rng.choice([1, 1, 2, 2, 2, 3]))
    first = _weighted(rng, DTYPE_WEIGHTS)
    square = rng.random() < 0.35
    specs = []
    for i in range(count):
        dtype = first if i == 0 or rng.random() < 0.6 else _weighted(rng, DTYPE_WEIGHTS)
        ndim = int(rng.choice([0, 1, 1, 2, 2, 2, 3]))
        dims = tuple(
            1 if rng.random() < 0.12 else ("n" if square else SYMBOLS[int(rng.integers(3))])
            for _ in range(ndim)
        )
        if numpy.dtype(dtype).kind == "f":
            profile = _weighted(rng, FLOAT_PROFILE_WEIGHTS)
        else:
            profile = (
                "extreme" if numpy.dtype(dtype).kind in "iu" and rng.random() < 0.3 else "small"
            )
        layout = "C" if rng.random() < 0.5 else str(rng.choice(layouts_for(ndim)))
        specs.append(InputSpec(f"a{i}", dims, dtype, profile, layout))
    used = sorted({d for s in specs for d in s.dims if isinstance(d, str)})
    if used and rng.random() < 0.15:
        dims = (str(rng.choice(["k", "m"])),) * int(rng.choice([1, 1, 2]))
        specs.append(InputSpec(f"a{count}", dims, "int64", ("index", str(rng.choice(used)))))
    return specs


def _input_var(spec, value) -> Var:
    var = Var(spec.name, value.dtype, value.shape, nonneg=value.dtype.kind in "bu")
    if value.dtype.kind == "f":
        var.bound = SMALL_BOUND if spec.profile == "small" else var.bound
        var.nonneg = spec.profile == "positive"
        var.unit = spec.profile == "unit"
        var.special = spec.profile == "special"
    return var


def replay(program, stmts, arguments):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return evaluate(stmts, [a.fresh() for a in arguments], [s.name for s in program.inputs])


def _acceptable(value) -> bool:
    if not isinstance(value, (numpy.ndarray, numpy.generic)):
        return False
    value = numpy.asarray(value)
    return (
        value.dtype.kind in "biuf"
        and value.ndim <= 4
        and value.size <= MAX_GENERIC_SIZE
        and value.dtype.itemsize <= 8
    )


@dataclass(frozen=True)
class Grammar:
    """What a generation draws from: families by weight, the op names allowed (None: all), the
    arguments' template, how often a program ends in an error, how often it runs under
    errstate(all="raise")."""

    families: dict
    ops: frozenset | None = None
    template: object = template
    error_rate: float = ERROR_RATE
    errstate_rate: float = ERRSTATE_RATE


VALUES = Grammar({name: weight for name, (_, weight) in FAMILIES.items()})


def generate(seed: int, grammar: Grammar = VALUES) -> Program:
    """The program of this seed (the same on every machine and run)."""
    rng = numpy.random.default_rng(seed)
    program = Program(seed, grammar.template(rng))
    g = Gen(rng, grammar.ops)
    arguments = program.arguments(GENERIC, seed)
    for spec, argument in zip(program.inputs, arguments):
        g.define(_input_var(spec, argument.fresh()))
        if isinstance(spec.profile, tuple):
            g.index_args.add(spec.name)
    g.env = replay(program, [], arguments)
    wanted = int(rng.integers(3, 10))
    stmts = []
    for _attempt in range(100):
        if len(stmts) >= wanted:
            break
        family = _weighted(rng, grammar.families)
        stmt = FAMILIES[family][0](g)
        if stmt is None:
            continue
        try:
            env = replay(program, stmts + [stmt], arguments)
        except Exception:  # noqa: BLE001  (NumPy rejects it: an error program, now and then)
            if rng.random() < grammar.error_rate:
                stmt.raises = True
                stmts.append(stmt)
                break
            continue
        if stmt.target is not None and not _acceptable(env[stmt.target]):
            continue
        stmts.append(stmt)
        g.env = env
        stmt.effect(env)
    program.stmts = stmts
    if stmts and stmts[-1].raises:  # NumPy raises there; returned or not (dead code under jit)
        raising = stmts[-1].target
        program.outputs = [raising] if raising and rng.random() < 0.5 else []
    else:
        program.outputs = _outputs(g, stmts)
    program.ulps = [g.vars[name].ulps if name in g.vars else 0 for name in program.outputs]
    program.signless = [name in g.vars and g.vars[name].signless for name in program.outputs]
    program.argument_ulps = [g.vars[spec.name].ulps for spec in program.inputs]
    program.argument_signless = [g.vars[spec.name].signless for spec in program.inputs]
    program.errstate = "raise" if rng.random() < grammar.errstate_rate else None
    return program


def _outputs(g, stmts) -> list:
    """The last value defined, and up to two more (values written into first: they show lost
    writes)."""
    defined = [s.target for s in stmts if s.target in g.vars]
    written = {g.vars[n].group for s in stmts for n in s.writes if n in g.vars}
    pool = [n for n in g.vars if g.vars[n].group in written] or list(g.vars)
    outputs = [defined[-1]] if defined else []
    for _ in range(int(g.rng.integers(0, 3)) + (0 if outputs else 1)):
        name = g.choice(pool if g.rng.random() < 0.7 else list(g.vars))
        if name not in outputs:
            outputs.append(name)
    return outputs


def variants(seed: int, count: int) -> list:
    """`count` (sizes, argument seed) pairs for the structure of `seed`: the generic sizes first."""
    rng = numpy.random.default_rng([seed, 1])
    order = [0] + [int(i) + 1 for i in rng.permutation(len(VARIANTS) - 1)]
    return [(VARIANTS[order[j % len(order)]], seed * 1000 + j) for j in range(count)]
