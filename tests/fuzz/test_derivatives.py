"""Differential fuzzing of the transformations: random differentiable programs (derivatives.py)
whose grad matches central finite differences (eager, and under jit against eager), whose vmap
matches a loop over the batch, and whose jvp and vjp agree (<vjp(u), v> == <u, jvp(v)>). Every
fourth program also runs its gradient through the compiled tier. ARRAYSTACK_FUZZ=N runs N // 4."""

from __future__ import annotations

import pytest

from tests.fuzz import budget, known
from tests.fuzz.derivatives import derivative_reproducer, run_derivatives

pytestmark = [pytest.mark.numba, pytest.mark.filterwarnings("ignore")]


@pytest.mark.parametrize("seed", budget.derivative_seeds())
def test_derivatives(seed):
    program, arguments, problems = run_derivatives(seed, compiled=seed % 4 == 0)
    if problems and known.classify(program, problems, arguments) is None:
        details = "\n".join(str(problem) for problem in problems)
        pytest.fail(
            f"differentiable program {seed}:\n{details}\n"
            + derivative_reproducer(program, arguments, seed % 4 == 0)
        )
