"""The long fuzz run in one process, with a summary by failure class: `python -m tests.fuzz N
[FIRST_SEED]` runs N programs (structures of VARIANTS_PER_STRUCTURE variants each) and N // 4
differentiable programs, and prints each group of unclassified findings with a reproducer."""

from __future__ import annotations

import re
import sys
import time

import arraystack
from tests.fuzz import known
from tests.fuzz.budget import VARIANTS_PER_STRUCTURE, tiers
from tests.fuzz.campaign import Tally, run_structure
from tests.fuzz.derivatives import derivative_reproducer, run_derivatives
from tests.fuzz.tiers import TIERS


def signature(failures) -> str:
    """What failed, without the numbers: groups findings of one cause."""
    parts = sorted(
        {re.sub(r"0x[0-9a-f.p+-]+|[-+]?[0-9][0-9.e+-]*", "#", str(f))[:140] for f in failures}
    )
    return " | ".join(parts)


def main(argv) -> int:
    count = int(argv[1]) if len(argv) > 1 else 1000
    first = int(argv[2]) if len(argv) > 2 else 0
    arraystack.config.tiered = False  # as in the test suite; tier 0 is asked for explicitly
    tally = Tally()
    groups: dict = {}
    seed = first
    while tally.programs < count:
        try:
            findings = run_structure(seed, VARIANTS_PER_STRUCTURE, tally, tiers())
        except Exception as e:  # noqa: BLE001  (a generator bug: report it, go on)
            findings = []
            groups.setdefault(f"generator: {type(e).__name__}: {e}", []).append(f"seed {seed}")
        for finding in findings:
            if finding.known is None:
                groups.setdefault(signature(finding.failures), []).append(finding.report())
        seed += 1
        if (seed - first) % 50 == 0:
            print(
                f"... {tally.programs} programs, {len(groups)} unclassified groups, seed {seed}",
                flush=True,
            )
    # differentiable programs run on the CPU tiers: not when the run names its tiers
    derivative_count = max(count // 4, 1) if tiers() == TIERS else 0
    start, derivative_failures = time.perf_counter(), 0
    for seed in range(first, first + derivative_count):
        program, arguments, problems = run_derivatives(seed, compiled=seed % 4 == 0)
        if not problems:
            continue
        derivative_failures += 1
        match = known.classify(program, problems, arguments)
        tally.by_class[f"derivatives: {match.name if match else 'unclassified'}"] += 1
        if match is None:
            report = (
                "\n".join(str(p) for p in problems)
                + "\n"
                + derivative_reproducer(program, arguments, seed % 4 == 0)
            )
            groups.setdefault("derivatives: " + signature(problems), []).append(report)
    print(
        f"{derivative_count} differentiable programs in {time.perf_counter() - start:.1f} s, "
        f"{derivative_failures} failing"
    )
    print(tally.summary())
    for key, reports in sorted(groups.items(), key=lambda item: -len(item[1])):
        print(f"\n=== {len(reports)} x {key}")
        print(reports[0])
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
