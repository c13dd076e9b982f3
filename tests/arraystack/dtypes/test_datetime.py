"""datetime64 and timedelta64 arrays (host dtypes): eager results are NumPy's, for operators, functions,
indexing, assignment, conversion, printing and the datetime support functions."""

from __future__ import annotations

import numpy
import pytest

import arraystack

DATES = numpy.array(
    ["2020-01-01", "2020-03-05", "2019-12-31", "NaT", "2021-02-28"], "datetime64[D]"
)
STAMPS = numpy.array(["2020-01-01T10:00", "2020-01-01T09:30", "2020-01-02T00:00"], "datetime64[m]")
SPANS = numpy.array([1, -3, 0, 7], "timedelta64[h]")


def test_asarray_of_numpy_datetimes_is_an_arraystack_array():
    # the reproducer: it raised "arraystack does not support dtype datetime64[D]"
    x = arraystack.asarray(numpy.array(["2020-01-01"], "datetime64[D]"))
    assert isinstance(x, arraystack.ndarray)
    assert x.dtype == numpy.dtype("datetime64[D]")
    assert repr(x) == "array(['2020-01-01'], dtype='datetime64[D]')"


OPERATIONS = {
    "add_timedelta": lambda xp, d: d + numpy.timedelta64(1, "D"),
    "radd_timedelta": lambda xp, d: numpy.timedelta64(36, "h") + d,
    "subtract_dates": lambda xp, d: d - d[0],
    "compare": lambda xp, d: d < d[::-1],
    "equal_nat": lambda xp, d: d == d.copy(),
    "compare_string": lambda xp, d: d >= numpy.datetime64("2020-01-01"),
    "diff": lambda xp, d: xp.diff(d),
    "sort": lambda xp, d: xp.sort(d),
    "argsort": lambda xp, d: xp.argsort(d, kind="stable"),
    "unique": lambda xp, d: xp.unique(d),
    "where": lambda xp, d: xp.where(d > d[0], d, d[0]),
    "concatenate": lambda xp, d: xp.concatenate([d, d[:2]]),
    "stack": lambda xp, d: xp.stack([d, d]),
    "index": lambda xp, d: d[1],
    "slice": lambda xp, d: d[1:4:2],
    "fancy": lambda xp, d: d[[0, 2]],
    "mask": lambda xp, d: d[d > d[0]],
    "reshape_transpose": lambda xp, d: d.reshape(5, 1).T,
    "astype_seconds": lambda xp, d: d.astype("datetime64[s]"),
    "astype_int": lambda xp, d: d.astype(xp.int64),
    "astype_str": lambda xp, d: d.astype(str),
    "min": lambda xp, d: xp.min(d),
    "max": lambda xp, d: d.max(),
    "isnat": lambda xp, d: xp.isnat(d),
    "maximum": lambda xp, d: xp.maximum(d, d[0]),
    "searchsorted": lambda xp, d: xp.searchsorted(xp.sort(d), d[:3]),
    "flip": lambda xp, d: xp.flip(d),
    "take": lambda xp, d: xp.take(d, [0, 1]),
    "copy": lambda xp, d: d.copy(),
    "empty_like": lambda xp, d: xp.zeros_like(d),
    "full_like": lambda xp, d: xp.full_like(d, numpy.datetime64("2000-01-01")),
    "ones_like": lambda xp, d: xp.ones_like(d),
    "sum_refused": lambda xp, d: xp.sum(d),
    "multiply_refused": lambda xp, d: d * 2,
    "datetime_as_string": lambda xp, d: xp.datetime_as_string(d),
    "datetime_as_string_unit": lambda xp, d: xp.datetime_as_string(d, unit="s"),
    "tolist": lambda xp, d: d.tolist(),
    "fmin_skips_nat": lambda xp, d: xp.fmin(d, d[0]),
    "fmax_skips_nat": lambda xp, d: xp.fmax(d[0], d),
    "nanmin_skips_nat": lambda xp, d: xp.nanmin(d),
    "nanmax_skips_nat": lambda xp, d: xp.nanmax(d),
    "ptp": lambda xp, d: xp.ptp(d[[0, 1, 4]]),
    "gradient": lambda xp, d: xp.gradient(d),
    "isnan": lambda xp, d: xp.isnan(d),
    "minimum_where": lambda xp, d: xp.minimum(d, d[0], where=d > d[2], out=d.copy()),
}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_operations_on_dates_match_numpy(parity, name):
    parity(OPERATIONS[name], DATES, traced=False)


TIMEDELTA_OPERATIONS = {
    "sum": lambda xp, t: xp.sum(t),
    "mean": lambda xp, t: xp.mean(t),
    "abs": lambda xp, t: xp.abs(t),
    "negative": lambda xp, t: -t,
    "divide_by_timedelta": lambda xp, t: t / numpy.timedelta64(30, "m"),
    "floor_divide": lambda xp, t: t // numpy.timedelta64(2, "h"),
    "multiply": lambda xp, t: t * 3,
    "cumsum": lambda xp, t: xp.cumsum(t),
    "nonzero": lambda xp, t: xp.nonzero(t),
    "divmod": lambda xp, t: xp.divmod(t, numpy.timedelta64(2, "h")),
    "gradient": lambda xp, t: xp.gradient(t),
    "max": lambda xp, t: xp.max(t),
    "astype_float_refused": lambda xp, t: t.astype("timedelta64[D]") + numpy.datetime64("2020"),
}


@pytest.mark.parametrize("name", sorted(TIMEDELTA_OPERATIONS))
def test_operations_on_timedeltas_match_numpy(parity, name):
    parity(TIMEDELTA_OPERATIONS[name], SPANS, traced=False)


def test_minutes_sort_and_difference(parity):
    parity(lambda xp, s: xp.diff(xp.sort(s)).astype("timedelta64[s]"), STAMPS, traced=False)


def test_assignment(parity):
    def assign(xp, d):
        d[0] = numpy.datetime64("2000-01-01")
        d[1:3] = "1999-06-30"
        d[d > numpy.datetime64("2021-01-01")] = numpy.datetime64("NaT")
        return d

    parity(assign, DATES, traced=False)


def test_assigning_a_number_raises_as_numpy(parity):
    def assign(xp, d):
        d[0] = 1.5
        return d

    parity(assign, DATES, traced=False)


@pytest.mark.parametrize(
    "make",
    [
        lambda xp: xp.arange("2020-01", "2020-06", dtype="datetime64[M]"),
        lambda xp: xp.arange(numpy.datetime64("2020-01-01"), numpy.datetime64("2020-01-10"), 3),
        lambda xp: xp.arange(0, 10, 2, dtype="timedelta64[s]"),
        lambda xp: xp.asarray(["2020-01-01", "NaT"], dtype="datetime64[D]"),
        lambda xp: xp.array(["2020-01-01T12"], dtype="datetime64"),
        lambda xp: xp.zeros(3, "datetime64[D]"),
        lambda xp: xp.ones((2, 2), "timedelta64[s]"),
        lambda xp: (
            xp.empty(2, "datetime64[s]") if xp is arraystack else xp.zeros(2, "datetime64[s]")
        ),
        lambda xp: xp.full(3, numpy.datetime64("2020-02-29")),
        lambda xp: xp.full(2, "2020-02-29", dtype="datetime64[D]"),
        lambda xp: xp.asarray([1, 2]).astype("timedelta64[D]"),
    ],
)
def test_creation(parity, make):
    parity(make, traced=False)


def test_printing_is_numpy_s():
    x = arraystack.asarray(DATES)
    assert repr(x) == repr(DATES)
    assert str(x) == str(DATES)
    assert repr(x[0]) == repr(DATES[0])
    assert repr(arraystack.asarray(SPANS)) == repr(SPANS)


BUSINESS_DAYS = {
    "busday_count": lambda xp, d: xp.busday_count(d[0], d[1]),
    "busday_count_arrays": lambda xp, d: xp.busday_count(d[:2], d[4]),
    "busday_count_holidays": lambda xp, d: xp.busday_count(d[2], d[1], holidays=d[:1]),
    "is_busday": lambda xp, d: xp.is_busday(d[[0, 1, 2, 4]]),
    "is_busday_weekmask": lambda xp, d: xp.is_busday(d[[0, 1, 2, 4]], weekmask="1111111"),
    "busday_offset": lambda xp, d: xp.busday_offset(d[[0, 1, 2, 4]], 1, roll="forward"),
    "busday_offset_raise": lambda xp, d: xp.busday_offset(d[[0, 1, 2, 4]], 1),
    "busday_offset_nat": lambda xp, d: xp.busday_offset(d, 2, roll="forward"),
    "busdaycalendar": lambda xp, d: xp.is_busday(
        d[[0, 1]], busdaycal=xp.busdaycalendar(holidays=["2020-01-01"])
    ),
}


@pytest.mark.parametrize("name", sorted(BUSINESS_DAYS))
def test_business_days(parity, name):
    parity(BUSINESS_DAYS[name], DATES, traced=False)


def test_datetime_data_and_scalar_types():
    assert arraystack.datetime_data(arraystack.asarray(STAMPS).dtype) == ("m", 1)
    assert arraystack.datetime64 is numpy.datetime64
    assert arraystack.timedelta64 is numpy.timedelta64
    assert arraystack.issubdtype(arraystack.asarray(DATES).dtype, arraystack.datetime64)


def test_isnat_of_numbers_raises_as_numpy(parity):
    parity(lambda xp, x: xp.isnat(x), numpy.arange(3.0), traced=False)


def test_numpy_functions_accept_arraystack_dates():
    x = arraystack.asarray(DATES)
    out = numpy.datetime_as_string(x, unit="D")
    assert isinstance(out, arraystack.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.datetime_as_string(DATES, unit="D"))
    assert isinstance(numpy.sort(x), arraystack.ndarray)


@pytest.mark.parametrize("name", ["dot", "inner", "vdot", "matmul"])
def test_products_of_datetimes_raise_numpys_error(parity, name):
    dates = numpy.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]")
    parity(lambda xp, d: getattr(xp, name)(d, d), dates, traced=False)
