"""Differential fuzzing of the NumPy API: seeded random programs (generator.py) run under NumPy and
under every arraystack tier (eager, jit with the reference backend, the compiled tier, tier 0;
tiers.py), with results compared bit for bit where NumPy's are exact and within stated ulp bounds
elsewhere.

The default is fast (budget.FAST_STRUCTURES structures, each on budget.VARIANTS_PER_STRUCTURE sizes,
which reuse its compiled kernels); ARRAYSTACK_FUZZ=N runs N programs. A failure prints, for each
failing variant, the seed and a test to paste into test_found.py. Programs whose every failure
belongs to a class of known.py pass; the classes' own tests are in test_found.py."""

from __future__ import annotations

import pytest

from tests.fuzz import budget
from tests.fuzz.campaign import run_structure

pytestmark = [pytest.mark.numba, pytest.mark.filterwarnings("ignore")]


@pytest.mark.parametrize("seed", budget.structure_seeds())
def test_program(seed):
    findings = run_structure(seed, budget.VARIANTS_PER_STRUCTURE)
    unknown = [finding for finding in findings if finding.known is None]
    assert not unknown, "\n\n".join(finding.report() for finding in unknown[:3])
