"""NumPy parity of _manipulation/deprecated_aliases.py: row_stack warns as NumPy does and stacks as
vstack."""

from __future__ import annotations

import numpy
import pytest

import arraystack


@pytest.mark.filterwarnings("ignore:`row_stack` alias is deprecated:DeprecationWarning")
@pytest.mark.parametrize("dtype", [None, "float32", "int8"])
def test_row_stack(parity, dtype):
    a = numpy.arange(6.0).reshape(2, 3)
    b = numpy.arange(3, dtype="int16")[::-1]
    parity(lambda xp, a, b: xp.row_stack([a, b], dtype=dtype, casting="unsafe"), a, b)
    parity(lambda xp, a, b: xp.row_stack((b, b)), a, b)
    parity(lambda xp, a, b: xp.row_stack([a, b], dtype=dtype), a, b)  # same_kind may refuse
    parity(lambda xp, a, b: xp.row_stack([a, a[:, :2]]), a, b)  # ValueError
    parity(lambda xp, a, b: xp.row_stack([b[0], b[1]]), a, b)  # 0-d rows


def test_row_stack_warns():
    with pytest.warns(DeprecationWarning, match="row_stack") as record:
        arraystack.row_stack([[1], [2]])
    assert record[0].filename == __file__  # points at the caller, as NumPy's does
