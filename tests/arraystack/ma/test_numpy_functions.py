"""Top-level functions applied to masked arrays, against NumPy's on numpy.ma's: the functions that move
elements move the mask, those computing element by element mask where an input is masked, and results
NumPy gives as masked arrays come back masked with the same data and mask."""

import numpy
import pytest

import arraystack

DATA = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]
MASK = [[0, 1, 0], [0, 0, 1]]

CALLS = {
    "flip": lambda xp, m: xp.flip(m),
    "flip_axis": lambda xp, m: xp.flip(m, axis=1),
    "fliplr": lambda xp, m: xp.fliplr(m),
    "flipud": lambda xp, m: xp.flipud(m),
    "roll": lambda xp, m: xp.roll(m, 1),
    "roll_axis": lambda xp, m: xp.roll(m, -1, axis=1),
    "rot90": lambda xp, m: xp.rot90(m),
    "tile": lambda xp, m: xp.tile(m, (2, 1)),
    "moveaxis": lambda xp, m: xp.moveaxis(m, 0, 1),
    "split": lambda xp, m: xp.split(m, 2),
    "array_split": lambda xp, m: xp.array_split(m, 3, axis=1),
    "real": lambda xp, m: xp.real(m),
    "imag": lambda xp, m: xp.imag(m),
    "nan_to_num": lambda xp, m: xp.nan_to_num(m),
    "isclose": lambda xp, m: xp.isclose(m, m),
    "full_like": lambda xp, m: xp.full_like(m, 7.0),
    "argsort": lambda xp, m: xp.argsort(m),
    "flatnonzero": lambda xp, m: xp.flatnonzero(m),
    "square": lambda xp, m: xp.square(m),
    "less": lambda xp, m: xp.less(m, 2.0),
    "positive": lambda xp, m: xp.positive(m),
}


def _seen(value, ma):
    if isinstance(value, (list, tuple)):
        return [_seen(v, ma) for v in value]
    if isinstance(value, ma.MaskedArray):
        return ("masked", value.filled(0).tolist(), ma.getmaskarray(value).tolist())
    return ("array", numpy.asarray(value).tolist())


@pytest.mark.parametrize("name", sorted(CALLS))
def test_as_numpys_functions_on_its_masked_arrays(name):
    call = CALLS[name]
    expected = _seen(call(numpy, numpy.ma.array(DATA, mask=MASK)), numpy.ma)
    got = _seen(call(arraystack, arraystack.ma.array(DATA, mask=MASK)), arraystack.ma)
    assert got == expected


def test_delete_and_insert_move_the_mask_with_the_data():
    m = arraystack.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 1])
    deleted = arraystack.delete(m, 0)
    assert deleted.mask.tolist() == [True, False, True]
    inserted = arraystack.insert(m, 1, 9.0)
    assert inserted.filled(0).tolist() == [1.0, 9.0, 0.0, 3.0, 0.0]
    assert inserted.mask.tolist() == [False, False, True, False, True]


@pytest.mark.parametrize(
    "call",
    [
        lambda ma, m: ma.sort(m, kind="bogus"),
        lambda ma, m: m.argsort(axis=-1, kind="bogus"),
        lambda ma, m: ma.sort(m, order="f"),
    ],
    ids=["sort kind", "argsort kind", "order without fields"],
)
def test_sorts_refuse_what_numpys_refuse(call):
    for ma in (numpy.ma, arraystack.ma):
        with pytest.raises(ValueError):
            call(ma, ma.array(DATA, mask=MASK))
