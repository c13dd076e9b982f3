"""arraystack.ma's row, column and run functions (_mask_rows.py) against numpy.ma."""

import numpy
import pytest

from arraystack import ma
from tests.arraystack.ma.test_ma import same

D = [[1.0, 2.0, 4.0, 7.0], [2.0, 1.0, 0.0, -1.0], [3.0, 5.0, 5.0, 9.0]]
INPUTS = {
    "masked": lambda m: m.array(D, mask=[[0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]]),
    "nomask": lambda m: m.array(D),
    "all_masked": lambda m: m.array(D, mask=True),
    "edges_masked": lambda m: m.array(D, mask=[[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 1]]),
}

ARRAYS = {
    "mask_rowcols": lambda m, x: m.mask_rowcols(x),
    "mask_rowcols0": lambda m, x: m.mask_rowcols(x, 0),
    "mask_rows": lambda m, x: m.mask_rows(x),
    "mask_cols": lambda m, x: m.mask_cols(x),
    "compress_rowcols": lambda m, x: m.compress_rowcols(x),
    "compress_rows": lambda m, x: m.compress_rows(x),
    "compress_cols": lambda m, x: m.compress_cols(x),
    "compress_nd": lambda m, x: m.compress_nd(x, axis=1),
    "count_masked": lambda m, x: m.count_masked(x),
    "count_masked0": lambda m, x: m.count_masked(x, 0),
    "flatnotmasked_edges": lambda m, x: m.flatnotmasked_edges(x),
}
LISTS = {
    "clump_masked": lambda m, x: m.clump_masked(m.ravel(x)),
    "clump_unmasked": lambda m, x: m.clump_unmasked(m.ravel(x)),
    "notmasked_contiguous": lambda m, x: m.notmasked_contiguous(x),
    "notmasked_contiguous0": lambda m, x: m.notmasked_contiguous(x, 0),
    "notmasked_contiguous1": lambda m, x: m.notmasked_contiguous(x, 1),
    "flatnotmasked_contiguous": lambda m, x: m.flatnotmasked_contiguous(x),
    "notmasked_edges": lambda m, x: m.notmasked_edges(x),
    "notmasked_edges1": lambda m, x: m.notmasked_edges(x, 1),
}


@pytest.mark.parametrize("kind", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_arrays_match_numpy_ma(name, kind):
    expected = ARRAYS[name](numpy.ma, INPUTS[kind](numpy.ma))
    got = ARRAYS[name](ma, INPUTS[kind](ma))
    if expected is None:
        assert got is None
        return
    same(expected, got)


def _plain(value):
    """Slices and arrays as plain Python values, to compare nested results."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, slice):
        return (int(value.start), int(value.stop), value.step)
    return numpy.asarray(value).tolist()


@pytest.mark.parametrize("kind", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(LISTS))
def test_runs_match_numpy_ma(name, kind):
    expected = LISTS[name](numpy.ma, INPUTS[kind](numpy.ma))
    got = LISTS[name](ma, INPUTS[kind](ma))
    assert _plain(expected) == _plain(got)


def test_two_dimensional_only():
    for name in ("mask_rowcols", "compress_rowcols", "compress_rows", "compress_cols"):
        with pytest.raises(NotImplementedError):
            getattr(ma, name)(ma.ones(3))
    with pytest.raises(NotImplementedError):
        ma.notmasked_contiguous(ma.ones((2, 2, 2)), axis=0)
