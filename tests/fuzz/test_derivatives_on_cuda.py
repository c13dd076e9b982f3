"""The differentiable fuzzed programs of test_derivatives.py on arrays of a CUDA device (the stand-in for
cupy without a GPU): grad and vmap, eager and under jit, stay on the device and equal the CPU's (the
rules' constants, zeros of unused arguments and constant outputs are made on the device)."""

from __future__ import annotations

import pytest

from tests.fuzz import budget, known
from tests.fuzz.derivatives import derivative_reproducer, run_derivatives

pytestmark = pytest.mark.filterwarnings("ignore")


@pytest.mark.parametrize("seed", budget.derivative_seeds()[: budget.FAST_CUDA_DERIVATIVE_PROGRAMS])
def test_derivatives_on_cuda(seed):
    program, arguments, problems = run_derivatives(seed, on_cuda=True)
    if problems and known.classify(program, problems, arguments) is None:
        details = "\n".join(str(problem) for problem in problems)
        pytest.fail(
            f"differentiable program {seed} on cuda:\n{details}\n"
            + derivative_reproducer(program, arguments)
        )
