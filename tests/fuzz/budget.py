"""How many programs a fuzz run makes: a fast default for CI, and ARRAYSTACK_FUZZ=N programs for a
long run (ARRAYSTACK_FUZZ_SEED=S starts at another structure)."""

from __future__ import annotations

import math
import os

# Each structure runs on this many variants (sizes and values); they reuse its compiled kernels.
VARIANTS_PER_STRUCTURE = 8
FAST_STRUCTURES = 40
FAST_DERIVATIVE_PROGRAMS = 80


def _requested() -> int | None:
    value = os.environ.get("ARRAYSTACK_FUZZ", "").strip()
    return int(value) if value else None


def structure_seeds() -> list:
    first = int(os.environ.get("ARRAYSTACK_FUZZ_SEED", "0") or 0)
    wanted = _requested()
    count = FAST_STRUCTURES if wanted is None else math.ceil(wanted / VARIANTS_PER_STRUCTURE)
    return list(range(first, first + count))


def derivative_seeds() -> list:
    first = int(os.environ.get("ARRAYSTACK_FUZZ_SEED", "0") or 0)
    wanted = _requested()
    count = FAST_DERIVATIVE_PROGRAMS if wanted is None else max(wanted // 4, 1)
    return list(range(first, first + count))
