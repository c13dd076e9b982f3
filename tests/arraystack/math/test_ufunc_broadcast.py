"""Broadcasting of traced elementwise operands (arraystack/_math/ufunc.py broadcast_operands): NumPy's rule, and
NumPy's message when shapes do not broadcast."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import arraystack as ast
from arraystack._math.ufunc import _broadcast_shapes

shapes = st.lists(st.integers(0, 3), max_size=3).map(tuple)


@given(st.lists(shapes, min_size=1, max_size=3))
def test_broadcast_shapes_is_numpys(operand_shapes):
    try:
        expected = np.broadcast_shapes(*operand_shapes)
    except ValueError:
        with pytest.raises(ValueError):
            _broadcast_shapes(operand_shapes)
    else:
        assert _broadcast_shapes(operand_shapes) == expected


@pytest.mark.parametrize(
    "a, b", [((2, 1), (4,)), ((3, 1, 5), (1, 4, 1)), ((0, 1), (1, 3)), ((), (2,))]
)
def test_traced_operands_broadcast_as_in_numpy(a, b):
    x, y = np.arange(np.prod(a)).reshape(a) + 1.0, np.arange(np.prod(b)).reshape(b) - 2.0
    out = ast.jit(lambda u, v: u * v + u)(x, y)
    np.testing.assert_array_equal(np.asarray(out), x * y + x)


def test_traced_operands_that_do_not_broadcast_raise_numpys_message():
    with pytest.raises(
        ValueError, match=r"operands could not be broadcast together with shapes \(2,3\) \(4,\)"
    ):
        ast.jit(lambda u, v: u + v)(np.ones((2, 3)), np.ones(4))
