"""Datetime support functions (NumPy's chapter of that name): NumPy's own, applied to the buffers of
arraystack arrays, with results as arraystack arrays (datetime64 and timedelta64 arrays are host dtypes,
computed eagerly by NumPy; inside jit, grad or vmap these functions raise a HostDtypeError).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.interop import call_host
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

# NumPy's calendar of valid days: a NumPy object (its holidays a NumPy datetime64[D] array)
busdaycalendar = np.busdaycalendar


def isnat(
    x: ArrayLike,
    /,
    out: NDArray | None = None,
    *,
    where: ArrayLike = True,
    casting: str = "same_kind",
    order: str = "K",
    dtype: DTypeLike = None,
    subok: bool = True,
    signature: Any = None,
) -> NDArray:
    """Test element-wise for NaT (not a time) and return result as a boolean array.

    Parameters
    ----------
    x : array_like
        Input array with datetime or timedelta data type.
    out : ndarray, optional
        A location into which the result is stored.
    where, casting, order, dtype, subok, signature
        NumPy's ufunc keyword arguments.

    Returns
    -------
    y : ndarray or bool
        True where ``x`` is NaT, false where not.

    See Also
    --------
    numpy.isnat : The NumPy function this mirrors.
    isnan, isfinite
    """
    options = {"where": where, "casting": casting, "order": order, "dtype": dtype, "subok": subok}
    if signature is not None:
        options["signature"] = signature
    return call_host(np.isnat, (x, out), options)


@defers_to_numpy
def datetime_as_string(
    arr: ArrayLike, unit: str | None = None, timezone: Any = "naive", casting: str = "same_kind"
) -> NDArray:
    """Convert an array of datetimes into an array of strings.

    Parameters
    ----------
    arr : array_like of datetime64
        The array of UTC timestamps to format.
    unit : str, optional
        One of None, 'auto', or a datetime unit.
    timezone : {'naive', 'UTC', 'local'} or tzinfo
        Timezone information to use when displaying the datetime.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}
        Casting to allow when changing between datetime units.

    Returns
    -------
    str_arr : ndarray
        An array of strings the same shape as `arr`.

    See Also
    --------
    numpy.datetime_as_string : The NumPy function this mirrors.
    datetime_data
    """
    return call_host(np.datetime_as_string, (arr, unit, timezone, casting), {})


def datetime_data(dtype: DTypeLike, /) -> tuple[str, int]:
    """Get information about the step size of a date or time type.

    Parameters
    ----------
    dtype : dtype
        The dtype object, which must be a `datetime64` or `timedelta64` type.

    Returns
    -------
    unit : str
        The datetime unit on which this dtype is based.
    count : int
        The number of base units in a step.

    See Also
    --------
    numpy.datetime_data : The NumPy function this mirrors.
    datetime_as_string
    """
    return np.datetime_data(dtype)


@defers_to_numpy
def busday_count(begindates: ArrayLike, enddates: ArrayLike, *args: Any, **kwargs: Any) -> NDArray:
    """Counts the number of valid days between `begindates` and `enddates`, not including the day of
    `enddates`.

    Parameters
    ----------
    begindates : array_like of datetime64[D]
        The array of the first dates for counting.
    enddates : array_like of datetime64[D]
        The array of the end dates for counting, which are excluded from the count themselves.
    *args, **kwargs
        NumPy's further parameters, passed on as given (NumPy refuses weekmask or holidays
        together with busdaycal, even at their default values):
        weekmask (str or seven bools: the valid days from Monday to Sunday, default '1111100'),
        holidays (an array of datetime64[D] dates that are not valid days), busdaycal (a
        `busdaycalendar` giving both) and out (an array to fill with the result).

    Returns
    -------
    out : ndarray of int
        An array with a shape from broadcasting `begindates` and `enddates` together, containing
        the number of valid days between the begin and end dates.

    See Also
    --------
    numpy.busday_count : The NumPy function this mirrors.
    busdaycalendar, is_busday, busday_offset
    """
    return call_host(np.busday_count, (begindates, enddates, *args), kwargs)


@defers_to_numpy
def busday_offset(dates: ArrayLike, offsets: ArrayLike, *args: Any, **kwargs: Any) -> NDArray:
    """First adjusts the date to fall on a valid day according to the `roll` rule, then applies
    offsets to the given dates counted in valid days.

    Parameters
    ----------
    dates : array_like of datetime64[D]
        The array of dates to process.
    offsets : array_like of int
        The array of offsets, which is broadcast with `dates`.
    *args, **kwargs
        NumPy's further parameters, passed on as given: roll (how to treat a date that is not a
        valid day: 'raise', 'nat', 'forward', 'following', 'backward', 'preceding',
        'modifiedfollowing' or 'modifiedpreceding'),
        weekmask (str or seven bools: the valid days from Monday to Sunday, default '1111100'),
        holidays (an array of datetime64[D] dates that are not valid days), busdaycal (a
        `busdaycalendar` giving both) and out (an array to fill with the result).

    Returns
    -------
    out : ndarray of datetime64[D]
        An array with a shape from broadcasting `dates` and `offsets` together, containing the dates
        with offsets applied.

    See Also
    --------
    numpy.busday_offset : The NumPy function this mirrors.
    busdaycalendar, is_busday, busday_count
    """
    return call_host(np.busday_offset, (dates, offsets, *args), kwargs)


@defers_to_numpy
def is_busday(dates: ArrayLike, *args: Any, **kwargs: Any) -> NDArray:
    """Calculates which of the given dates are valid days, and which are not.

    Parameters
    ----------
    dates : array_like of datetime64[D]
        The array of dates to process.
    *args, **kwargs
        NumPy's further parameters, passed on as given:
        weekmask (str or seven bools: the valid days from Monday to Sunday, default '1111100'),
        holidays (an array of datetime64[D] dates that are not valid days), busdaycal (a
        `busdaycalendar` giving both) and out (an array to fill with the result).

    Returns
    -------
    out : ndarray of bool
        An array with the same shape as ``dates``, containing True for each valid day, and False
        for each invalid day.

    See Also
    --------
    numpy.is_busday : The NumPy function this mirrors.
    busdaycalendar, busday_offset, busday_count
    """
    return call_host(np.is_busday, (dates, *args), kwargs)


__all__ = [
    "busday_count",
    "busday_offset",
    "busdaycalendar",
    "datetime_as_string",
    "datetime_data",
    "is_busday",
    "isnat",
]
