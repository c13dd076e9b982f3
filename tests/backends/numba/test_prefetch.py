"""The prefetch intrinsic: a PREFETCH at the element's address; no effect on results, no faults."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from arraystack.backends.numba.intrinsics import prefetch, prefetch_for_write

pytestmark = pytest.mark.numba


@numba.njit
def _row_sums_prefetching(x, ahead):
    out = np.zeros(x.shape[0], x.dtype)
    for i in range(x.shape[0]):
        for j in range(0, x.shape[1], 16):
            prefetch(x, (i + ahead, j))
        for j in range(x.shape[1]):
            out[i] += x[i, j]
    return out


@numba.njit
def _prefetch_1d(x, i):
    prefetch(x, i)
    return x[0]


def test_prefetch_compiles_to_a_prefetch_instruction():
    x = np.arange(64.0).reshape(4, 16)
    _row_sums_prefetching(x, 1)
    asm = _row_sums_prefetching.inspect_asm(_row_sums_prefetching.signatures[0])
    assert "prefetcht0" in asm


@pytest.mark.parametrize("ahead", [0, 1, 2, 1 << 40, -(1 << 40)])
def test_prefetch_changes_no_result_and_never_faults(ahead):
    # far outside the array (unmapped addresses, negative offsets) included: a prefetch is only a hint
    x = np.random.default_rng(0).standard_normal((5, 33))
    expected = np.array([sum(row.tolist()) for row in x])
    np.testing.assert_array_equal(_row_sums_prefetching(x, ahead), expected)
    strided = np.asfortranarray(x)[:, ::2]
    np.testing.assert_array_equal(
        _row_sums_prefetching(strided, ahead), np.array([sum(r.tolist()) for r in strided])
    )


def test_prefetch_takes_an_integer_for_1d_arrays():
    x = np.arange(10, dtype=np.float32)
    assert _prefetch_1d(x, 1 << 50) == 0.0
    assert "prefetcht0" in _prefetch_1d.inspect_asm(_prefetch_1d.signatures[0])


def test_prefetch_rejects_an_index_of_the_wrong_rank():
    @numba.njit
    def bad(x):
        prefetch(x, 1)

    with pytest.raises(numba.core.errors.TypingError):
        bad(np.zeros((2, 2)))


@numba.njit
def _fill_prefetching_for_write(out, ahead):
    for i in range(out.shape[0]):
        for j in range(0, out.shape[1], 16):
            prefetch_for_write(out, (i + ahead, j))
        for j in range(out.shape[1]):
            out[i, j] = i + j


@pytest.mark.parametrize("ahead", [1, 1 << 40])
def test_prefetch_for_write_asks_for_ownership_and_changes_nothing(ahead):
    out = np.zeros((6, 40))
    _fill_prefetching_for_write(out, ahead)
    np.testing.assert_array_equal(out, np.add.outer(np.arange(6.0), np.arange(40.0)))
    asm = _fill_prefetching_for_write.inspect_asm(_fill_prefetching_for_write.signatures[0])
    # PREFETCHW where the CPU has it (x86 "prfchw"/3dnowprefetch), else a read prefetch
    assert "prefetchw" in asm or "prefetcht0" in asm
