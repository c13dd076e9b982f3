"""The one list of known failure classes the fuzz run lets pass, each with its reason; and the few
places where arraystack under jit differs from NumPy by design (SHARP_EDGES), which are no failures.

A program is let pass when every failure it shows belongs to one class here. Each class has a
reproducer in test_found.py (marked xfail, strict): when a fix lands, that test passes, pytest
reports it, and the class goes from this list and the mark from the test, so the fuzz run guards the
fix from then on."""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy

JIT_TIERS = ("reference", "compiled", "tier0", "cuda jit", "cuda graphs")
EAGER_TIERS = ("eager", "cuda eager")
DERIVATIVE_CHECKS = ("grad", "grad under jit", "vmap", "jvp/vjp", "grad on cuda", "vmap on cuda")


@dataclass(frozen=True)
class KnownFailure:
    name: str
    reason: str  # what differs, and where it is documented or tracked
    tiers: tuple  # the tiers it shows in
    message: str = ""  # a regular expression the failure's message matches ("" matches all)
    program: object = None  # a predicate on (program, its arguments or None), or None

    def matches(self, program, failure, arguments=None) -> bool:
        if failure.tier not in self.tiers or not re.search(self.message, failure.message):
            return False
        return self.program is None or self.program(program, arguments)


def _namespace(program, arguments):
    """NumPy's values of the program's statements (up to the first that raises) on arguments (the
    generic ones when None), and the index of the statement that raised (None: none did)."""
    from tests.fuzz.generator import GENERIC, replay

    arguments = arguments if arguments is not None else program.arguments(GENERIC, program.seed)
    env = replay(program, [], arguments)
    for k in range(len(program.stmts)):
        try:
            env = replay(program, program.stmts[: k + 1], arguments)
        except Exception:  # noqa: BLE001  (where NumPy raises)
            return env, k
    return env, None


def _mean_of_nothing(program, arguments) -> bool:
    """A mean (var, std) in the program and a value of no elements in NumPy's run of it."""
    if not {"mean", "var", "std", "nanmean", "nanvar", "nanstd", "average"} & set(program.ops()):
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env, _ = _namespace(program, arguments)
    return any(getattr(value, "size", 1) == 0 for value in env.values())


def _live(program) -> set:
    """Names whose values reach the outputs (or a write): backwards over the statements. A name
    read only for its shape, ndim, size or dtype is not live: those are known while tracing."""
    live = set(program.outputs)
    for stmt in reversed(program.stmts):
        if stmt.target is None or stmt.target in live:
            text = re.sub(r"\b([av]\d+)\.(shape|ndim|size|dtype)\b", "", stmt.text)
            live |= set(re.findall(r"\b[av]\d+\b", text))
    return live


def _unused_value_raises(program, arguments) -> bool:
    """NumPy raises in a statement whose value the program never uses (under errstate(all="raise"):
    in any statement, since a floating-point error may come from an unused value)."""
    if program.errstate == "raise":
        return True
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        _, raised = _namespace(program, arguments)
    if raised is None:
        return False
    target = program.stmts[raised].target
    return target is not None and target not in _live(program)


def _writes(program, arguments=None) -> bool:
    return any(stmt.family == "write" for stmt in program.stmts)


SHARP_EDGES = [
    KnownFailure(
        "signed zeros of max/min reductions on a CUDA device",
        "documented (docs/guide/sharp-edges.md): NumPy's max/min keep the last of equal values in "
        "index order, so the sign of a zero result follows the last zero; a CUDA kernel's threads "
        "combine strided partial results, and may keep another zero (the same one on every run)",
        ("cuda jit", "cuda graphs"),
        r"bits differ .*: -?0\.0 \(-?0x0\.0p\+0\), NumPy -?0\.0 \(-?0x0\.0p\+0\)$",
        lambda program, arguments: bool({"max", "min"} & program.ops()),
    ),
    KnownFailure(
        "write into an argument under a transformation",
        "documented (docs/guide/sharp-edges.md): a transformed function (grad, vmap, jit of grad) that "
        "writes into an array the transformation did not make (an argument it does not "
        "differentiate or map, or a view of one) raises WriteOutsideTraceError and changes nothing",
        JIT_TIERS + DERIVATIVE_CHECKS,
        r"raised WriteOutsideTraceError",
        _writes,
    ),
]

KNOWN = [
    KnownFailure(
        "the tangent of a mean of no elements is NaN",
        "a mean over an axis of length 0 is NaN (0/0) and so is its tangent, as in JAX "
        "(jax.jvp(jnp.mean) of an empty array is nan); its cotangent spreads over no elements, so "
        "<u, jvp(v)> is NaN while <vjp(u), v> is 0",
        ("jvp/vjp",),
        r"^<u, jvp\(v\)> = nan",
        _mean_of_nothing,
    ),
    KnownFailure(
        "errors of unused values under jit",
        "by design (docs/guide/sharp-edges.md): NumPy raises for a value the function computes and never uses (an "
        "out-of-bounds traced index, int ** -1 of an array, a floating-point error under "
        "errstate(all='raise')); jit drops unused values (dead code) and their checks with them",
        JIT_TIERS,
        r"^returned a result where NumPy raises",
        _unused_value_raises,
    ),
    KnownFailure(
        "errors found while tracing come before run-time errors of earlier lines",
        "where NumPy raises at run time (an out-of-bounds traced index, a "
        "floating-point error under errstate(all='raise')) and a later line has an error jit finds "
        "while tracing (a shape error, a constant index out of bounds), jit raises the later one",
        JIT_TIERS,
        r"^raised \w+: .*; NumPy raises (IndexError|FloatingPointError|ValueError)",
    ),
]


def classify(program, failures, arguments=None):
    """The class (from SHARP_EDGES or KNOWN) of the first failure when every failure belongs to
    one of them; else None. arguments: the program's (generator Arguments), when known."""
    classes = []
    for failure in failures:
        known = SHARP_EDGES + KNOWN
        match = next((k for k in known if k.matches(program, failure, arguments)), None)
        if match is None:
            return None
        classes.append(match)
    return classes[0] if classes else None
