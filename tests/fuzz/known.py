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

JIT_TIERS = ("reference", "compiled", "tier0")
DERIVATIVE_CHECKS = ("grad", "grad under jit", "vmap", "jvp/vjp")


@dataclass(frozen=True)
class KnownFailure:
    name: str
    reason: str  # the issue item, or the documented behaviour
    tiers: tuple  # the tiers it shows in
    message: str = ""  # a regular expression the failure's message matches ("" matches all)
    program: object = None  # a predicate on the program, or None

    def matches(self, program, failure) -> bool:
        if failure.tier not in self.tiers or not re.search(self.message, failure.message):
            return False
        return self.program is None or self.program(program)


def _numpy_scalar_written(program) -> bool:
    """The program writes in place into a value NumPy holds as a scalar (an operation on 0-d
    arrays): NumPy's `+=` then rebinds to a new scalar of the promoted dtype, arraystack writes into
    its 0-d array."""
    from tests.fuzz.generator import GENERIC, replay

    written = {name for stmt in program.stmts for name in stmt.writes}
    if not written:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = replay(
                program,
                [s for s in program.stmts if not s.raises],
                program.arguments(GENERIC, program.seed),
            )
    except Exception:  # noqa: BLE001
        return False
    return any(isinstance(env.get(name), numpy.generic) for name in written)


def _reshape_after_layout(program) -> bool:
    """A reshape, a write, and an argument in another layout than C order."""
    reshapes = any(stmt.op in ("reshape", "setitem_reshape") for stmt in program.stmts)
    layouts = any(spec.layout != "C" for spec in program.inputs)
    return reshapes and layouts and _writes(program)


def _unused_value_raises(program) -> bool:
    """NumPy raises in a statement whose value the program does not return: the program's last
    (an error program without a return), or any under errstate(all="raise")."""
    if program.errstate == "raise":
        return True
    last = program.stmts[-1] if program.stmts else None
    return last is not None and last.raises and last.target not in program.outputs


def _writes(program) -> bool:
    return any(stmt.family == "write" for stmt in program.stmts)


SHARP_EDGES = [
    KnownFailure(
        "write into an argument under a transformation",
        "documented (arraystack/_aliasing.py): a traced function (jit, grad, vmap) that writes "
        "into an array it did not create (an argument, or a view of one) raises "
        "WriteOutsideTraceError and changes nothing",
        JIT_TIERS + DERIVATIVE_CHECKS,
        r"raised WriteOutsideTraceError",
        _writes,
    ),
]

KNOWN = [
    KnownFailure(
        "reshape of a value NumPy holds in another order, under tracing",
        "not in issue 21 (item 2's view semantics): NumPy's elementwise results keep the memory "
        "order of their operands (a transposed argument gives a Fortran-ordered result), so "
        "reshape(-1) of them copies; traced code takes every array to be C-ordered and views, so "
        "a later write reaches the reshaped value",
        JIT_TIERS + DERIVATIVE_CHECKS,
        "",
        _reshape_after_layout,
    ),
    KnownFailure(
        "NumPy scalars are immutable",
        "not in issue 21: an operation on 0-d arrays gives NumPy a scalar, arraystack a 0-d array; "
        "`s += 1` rebinds NumPy's scalar (to the promoted dtype, leaving other names of it alone) "
        "and writes into arraystack's array (keeping its dtype, or raising UFuncTypeError)",
        ("eager", *JIT_TIERS, *DERIVATIVE_CHECKS),
        "",
        _numpy_scalar_written,
    ),
    KnownFailure(
        "signed zero of clip under jit",
        "not in issue 21 (item 5's signed zeros): np.clip(-0.0, -1, 0) is -0.0 in NumPy and eager "
        "mode, 0.0 under jit",
        JIT_TIERS,
        r"bits differ.*0\.0",
        lambda program: "clip" in program.ops(),
    ),
    KnownFailure(
        "errors of unused values under jit",
        "issue 21 items 3 and 5: NumPy raises for a value the function computes and never uses (an "
        "out-of-bounds traced index, int ** -1 of an array, a floating-point error under "
        "errstate(all='raise')); jit drops unused values (dead code) and their checks with them",
        JIT_TIERS,
        r"^returned a result where NumPy raises",
        _unused_value_raises,
    ),
    KnownFailure(
        "a traced index error comes after the trace's shape errors",
        "not in issue 21 (item 3 checks traced indices when the kernel runs): where NumPy raises "
        "IndexError for an out-of-bounds index and a later line has a shape error, jit raises the "
        "shape error (found while tracing, before anything runs)",
        JIT_TIERS,
        r"^raised ValueError.*NumPy raises IndexError",
    ),
]


def classify(program, failures):
    """The class (from SHARP_EDGES or KNOWN) of the first failure when every failure belongs to one
    of them; else None."""
    classes = []
    for failure in failures:
        match = next((k for k in SHARP_EDGES + KNOWN if k.matches(program, failure)), None)
        if match is None:
            return None
        classes.append(match)
    return classes[0] if classes else None
