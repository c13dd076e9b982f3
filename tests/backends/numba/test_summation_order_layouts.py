"""The twin of the kernels' summation order (summation_order.kernel_reduce) adds in the documented order
whatever the memory layout of its input: NumPy adds row after row over the outer axis of a C-ordered
array but pairwise along a contiguous axis, so an input whose reduced axis is the contiguous one (a
transposed argument, an int64 argument converted to float64 in its own layout) must be put in C order
first. (tests/arraystack/statistics/test_integer_means.py shows the difference in the mean of
extreme int64.)"""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.numba.summation_order import kernel_reduce

from tests import oracle
from tests.backends.numba.test_summation_order import _data, _reference

# leading reduced axes of Fortran-ordered inputs: short rows (one accumulator), one group of lanes (the
# rows, viewed, not copied), several groups, a padded group
CASES = [
    ((9, 40), (0,)),
    ((20, 64), (0,)),
    ((9, 64, 5), (0, 1)),
    ((20, 64, 3), (0, 1)),
    ((9, 128, 5), (0, 1)),
    ((9, 100), (0,)),
    ((3, 9, 40), (0, 1)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["sum", "prod"])
@pytest.mark.parametrize("shape, axes", CASES)
def test_fortran_ordered_inputs_add_in_the_documented_order(shape, axes, kind, dtype):
    x = _data(shape[::-1], dtype, kind, seed=3).T
    assert x.flags.f_contiguous and not x.flags.c_contiguous
    oracle.assert_bitwise(kernel_reduce(kind, x, axes), _reference(kind, x, axes))


@pytest.mark.parametrize("shape, axes", CASES)
def test_other_layouts_give_the_bits_of_the_c_ordered_copy(shape, axes):
    x = _data(shape[::-1], np.float64, "sum", seed=4).T
    want = kernel_reduce("sum", np.ascontiguousarray(x), axes)
    oracle.assert_bitwise(kernel_reduce("sum", x, axes), want)
    reversed_rows = np.ascontiguousarray(x[::-1])[::-1]  # negative strides on the reduced axis
    oracle.assert_bitwise(kernel_reduce("sum", reversed_rows, axes), want)
