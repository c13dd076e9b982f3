"""Comparing a tier's result with NumPy's: shape and dtype always; values bit for bit where NumPy's
result is exact (NaN matching NaN whatever its payload, zeros by their sign), else within a
tolerance in units in the last place (NaN positions still exact; ±0 equal); exceptions by their
builtin type."""

from __future__ import annotations

import numpy


def ulp_distance(a: numpy.ndarray, b: numpy.ndarray) -> numpy.ndarray:
    """How many floats of their dtype lie between a and b (elementwise; ±0 are one value, inf is one
    past the largest finite float; NaNs are compared separately)."""
    bits = numpy.dtype(f"u{a.dtype.itemsize}")
    sign = numpy.array(1, bits) << numpy.array(8 * a.dtype.itemsize - 1, bits)
    ua = numpy.ascontiguousarray(a).view(bits).astype(numpy.uint64)
    ub = numpy.ascontiguousarray(b).view(bits).astype(numpy.uint64)
    sign = numpy.uint64(sign)
    ma, mb = ua & ~sign, ub & ~sign
    same_sign = (ua & sign) == (ub & sign)
    apart = numpy.where(ma > mb, ma - mb, mb - ma)
    return numpy.where(same_sign, apart, ma + mb)


def _at(index, shape) -> str:
    return str(tuple(int(i) for i in numpy.unravel_index(index, shape))) if shape else "()"


def _show(x) -> str:
    x = x.item() if hasattr(x, "item") else x
    return repr(x) if not isinstance(x, float) else f"{x!r} ({x.hex()})"


def compare(expected, actual, ulps: int = 0, signed_zeros: bool = True) -> str | None:
    """None when `actual` matches NumPy's `expected`; else what differs. ulps == 0 and signed_zeros:
    bit for bit; else within ulps units in the last place, zeros equal whatever their signs."""
    e = numpy.asarray(expected)
    a = numpy.asarray(actual)
    if a.shape != e.shape:
        return f"shape {a.shape}, NumPy {e.shape}"
    if a.dtype != e.dtype:
        return f"dtype {a.dtype}, NumPy {e.dtype}"
    flat_e, flat_a = e.reshape(-1), a.reshape(-1)
    if e.dtype.kind == "c":  # by value, part by part, a NaN part equal to a NaN part
        part = numpy.dtype(f"f{e.dtype.itemsize // 2}")
        parts_e = numpy.ascontiguousarray(flat_e).view(part).reshape(-1, 2)
        parts_a = numpy.ascontiguousarray(flat_a).view(part).reshape(-1, 2)
        differ = (parts_e != parts_a) & ~(numpy.isnan(parts_e) & numpy.isnan(parts_a))
        bad = numpy.flatnonzero(differ.any(axis=1))
        what = "values differ"
    elif e.dtype.kind != "f":
        bad = numpy.flatnonzero(flat_e != flat_a)
        what = "values differ"
    else:
        nan_e, nan_a = numpy.isnan(flat_e), numpy.isnan(flat_a)
        bad = numpy.flatnonzero(nan_e != nan_a)
        what = "NaN positions differ"
        if not bad.size:
            if ulps == 0 and signed_zeros:
                bits = numpy.dtype(f"u{e.dtype.itemsize}")
                differ = flat_e.view(bits) != flat_a.view(bits)
                bad = numpy.flatnonzero(differ & ~nan_e)
                what = "bits differ"
            else:
                distance = ulp_distance(flat_e, flat_a)
                bad = numpy.flatnonzero((distance > ulps) & ~nan_e)
                what = f"more than {ulps} ulp apart" if ulps else "values differ"
    if not bad.size:
        return None
    i = bad[0]
    return (
        f"{what} at {bad.size} of {e.size} elements; first at {_at(i, e.shape)}: "
        f"{_show(flat_a[i])}, NumPy {_show(flat_e[i])}"
    )


def builtin_types(error: BaseException) -> tuple:
    """The builtin exception types NumPy's exception is an instance of, most derived ones only
    (numpy.exceptions.AxisError: ValueError and IndexError; UFuncTypeError: TypeError)."""
    builtins = [t for t in type(error).__mro__ if t.__module__ == "builtins" and t is not object]
    return tuple(t for t in builtins if not any(o is not t and issubclass(o, t) for o in builtins))


def same_error(expected: BaseException, actual: BaseException) -> bool:
    return all(isinstance(actual, t) for t in builtin_types(expected))
