"""Running fuzzed programs in bulk: each structure (generator.generate) on several variants
(sizes and values), every failure classified against the known-failure list (known.py), counts
kept by class."""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field

import numpy

import arraystack
from tests.fuzz import known
from tests.fuzz.generator import generate, variants
from tests.fuzz.tiers import TIERS, check


@dataclass
class Finding:
    """A program whose tiers disagree with NumPy on one variant."""

    program: object
    sizes: dict
    argument_seed: int
    failures: list
    known: object = None  # the known.KnownFailure every failure belongs to, or None

    def report(self) -> str:
        arguments = self.program.arguments(self.sizes, self.argument_seed)
        label = f"program_{self.program.seed}_{self.argument_seed}"
        lines = [
            f"fuzz program {self.program.seed}, sizes {self.sizes}, "
            f"argument seed {self.argument_seed}"
            + (f" (known: {self.known.name})" if self.known else ""),
            *(f"  {failure}" for failure in self.failures),
            "reproducer:",
            self.program.reproducer(arguments, label),
        ]
        return "\n".join(lines)


@dataclass
class Tally:
    programs: int = 0
    structures: int = 0
    numpy_raised: int = 0
    seconds: float = 0.0
    by_class: collections.Counter = field(default_factory=collections.Counter)
    examples: dict = field(default_factory=dict)  # class name -> first Finding
    unknown: list = field(default_factory=list)

    def summary(self) -> str:
        lines = [
            (
                f"{self.programs} programs ({self.structures} structures, "
                f"{self.numpy_raised} where NumPy raises) in {self.seconds:.1f} s"
            )
        ]
        for name, count in sorted(self.by_class.items(), key=lambda item: -item[1]):
            lines.append(f"  {count:5d}  {name}")
        return "\n".join(lines)


def run_structure(seed, count, tally=None, tiers=TIERS) -> list:
    """Run the structure of `seed` on `count` variants; returns its findings (known ones
    included)."""
    tally = tally if tally is not None else Tally()
    start = time.perf_counter()
    program = generate(seed)
    f_numpy, f_arraystack = program.function(numpy), program.function(arraystack)
    findings = []
    for sizes, argument_seed in variants(seed, count):
        arguments = program.arguments(sizes, argument_seed)

        def fresh(arguments=arguments):
            return [a.fresh() for a in arguments]

        tolerances = program.tolerances(program.largest(arguments))
        expected, failures = check(
            f_numpy, f_arraystack, fresh, tolerances, program.errstate, tiers
        )
        tally.programs += 1
        tally.numpy_raised += expected.error is not None
        if not failures:
            continue
        finding = Finding(
            program, sizes, argument_seed, failures, known.classify(program, failures, arguments)
        )
        findings.append(finding)
        name = finding.known.name if finding.known else "unclassified"
        tally.by_class[name] += 1
        tally.examples.setdefault(name, finding)
        if finding.known is None:
            tally.unknown.append(finding)
    tally.structures += 1
    tally.seconds += time.perf_counter() - start
    return findings
