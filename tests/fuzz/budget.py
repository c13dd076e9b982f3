"""How many programs a fuzz run makes: a fast default for CI, and ARRAYSTACK_FUZZ=N programs for a
long run (ARRAYSTACK_FUZZ_SEED=S starts at another structure)."""

from __future__ import annotations

import math
import os

# Each structure runs on this many variants (sizes and values); they reuse its compiled kernels.
VARIANTS_PER_STRUCTURE = 8
FAST_STRUCTURES = 40
FAST_DERIVATIVE_PROGRAMS = 80
# on a CUDA device (the stand-in for cupy without a GPU: each new kernel is a C++ build)
FAST_CUDA_STRUCTURES = 16
CUDA_VARIANTS_PER_STRUCTURE = 4
FAST_CUDA_DERIVATIVE_PROGRAMS = 40


def _requested() -> int | None:
    value = os.environ.get("ARRAYSTACK_FUZZ", "").strip()
    return int(value) if value else None


def tiers() -> tuple:
    """The tiers a run compares with NumPy: ARRAYSTACK_FUZZ_TIERS (comma-separated names of
    tiers.TIERS and tiers.CUDA_TIERS), by default tiers.TIERS."""
    from tests.fuzz.tiers import CUDA_GRAPHS, CUDA_TIERS, TIERS

    value = os.environ.get("ARRAYSTACK_FUZZ_TIERS", "").strip()
    if not value:
        return TIERS
    names = tuple(name.strip() for name in value.split(","))
    known = (*TIERS, *CUDA_TIERS, CUDA_GRAPHS)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"ARRAYSTACK_FUZZ_TIERS names no tier {unknown}: {known}")
    return names


def structure_seeds() -> list:
    """The structures a run makes: FAST_STRUCTURES, or enough for ARRAYSTACK_FUZZ programs."""
    first = int(os.environ.get("ARRAYSTACK_FUZZ_SEED", "0") or 0)
    wanted = _requested()
    count = FAST_STRUCTURES if wanted is None else math.ceil(wanted / VARIANTS_PER_STRUCTURE)
    return list(range(first, first + count))


def cuda_structure_seeds() -> list:
    """The structures run on a CUDA device: FAST_CUDA_STRUCTURES, or as structure_seeds() when
    ARRAYSTACK_FUZZ asks for a number."""
    seeds = structure_seeds()
    return seeds if _requested() is not None else seeds[:FAST_CUDA_STRUCTURES]


def derivative_seeds() -> list:
    first = int(os.environ.get("ARRAYSTACK_FUZZ_SEED", "0") or 0)
    wanted = _requested()
    count = FAST_DERIVATIVE_PROGRAMS if wanted is None else max(wanted // 4, 1)
    return list(range(first, first + count))
