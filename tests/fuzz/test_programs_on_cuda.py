"""The fuzzed programs of test_programs.py on arrays of a CUDA device: eagerly (each primitive's rule with
xp=cupy), under jit (the cupy backend's generated kernels, fusion regions, write-back of arguments) and
under jit with its plans replayed as CUDA graphs, compared with NumPy as the CPU tiers are. Without a
GPU the device is the stand-in for cupy, whose launches run the same CUDA C++ source through the CPU
harness; with one, the GPU itself.

A CUDA device raises no floating-point errors (cupy, jax and torch neither): a program run under NumPy's
errstate(all="raise") is compared with NumPy's results with errors ignored (tiers.check)."""

from __future__ import annotations

import pytest

from tests.fuzz import budget
from tests.fuzz.campaign import run_structure
from tests.fuzz.tiers import CUDA_GRAPHS, CUDA_TIERS

pytestmark = pytest.mark.filterwarnings("ignore")


@pytest.mark.parametrize("seed", budget.cuda_structure_seeds())
def test_program_on_cuda(seed):
    tiers = (*CUDA_TIERS, CUDA_GRAPHS)
    findings = run_structure(seed, budget.CUDA_VARIANTS_PER_STRUCTURE, tiers=tiers)
    unknown = [finding for finding in findings if finding.known is None]
    assert not unknown, "\n\n".join(finding.report() for finding in unknown[:3])
