"""How a series prints (NumPy's text): coefficients formatted as NumPy's print options say, terms
in unicode (``1.0 + 2.0·x²``) or ascii (``1.0 + 2.0 x**2``), lines wrapped at the line width."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

import arraystack as anp

if TYPE_CHECKING:
    from typing import Any

SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def format_float(x: Any, parens: bool = False) -> str:
    """Format a coefficient as NumPy's polynomial printing does.

    Parameters
    ----------
    x : scalar
        The coefficient.
    parens : bool, optional
        Wrap a number printed in scientific notation in parentheses.

    Returns
    -------
    text : str
        Positional notation, or scientific for very large or small magnitudes, under the current
        print options (precision, floatmode, sign, nanstr, infstr).

    See Also
    --------
    numpy.polynomial.polyutils.format_float : The NumPy function this mirrors.
    """
    if not numpy.issubdtype(type(x), numpy.floating):
        return str(x)
    opts = anp.get_printoptions()
    if numpy.isnan(x):
        return opts["nanstr"]
    if numpy.isinf(x):
        return opts["infstr"]
    exp_format = False
    if x != 0:
        a = numpy.abs(x)
        if a >= 1.0e8 or a < 10 ** min(0, -(opts["precision"] - 1) // 2):
            exp_format = True
    trim, unique = ("k", False) if opts["floatmode"] == "fixed" else ("0", True)
    sign = opts["sign"] == "+"
    if exp_format:
        s = numpy.format_float_scientific(
            x, precision=opts["precision"], unique=unique, trim=trim, sign=sign
        )
        return "(" + s + ")" if parens else s
    return numpy.format_float_positional(
        x, precision=opts["precision"], fractional=True, unique=unique, trim=trim, sign=sign
    )


def set_default_printstyle(style: str) -> None:
    """Set the default format for the string representation of polynomials.

    Parameters
    ----------
    style : str
        ``'unicode'`` (``1.0 + 2.0·x¹``) or ``'ascii'`` (``1.0 + 2.0 x**1``).

    See Also
    --------
    numpy.polynomial.set_default_printstyle : The NumPy function this mirrors.
    """
    if style not in ("unicode", "ascii"):
        raise ValueError(
            f"Unsupported format string '{style}'. Valid options are 'ascii' and 'unicode'"
        )
    from arraystack.polynomial._convenience import ABCPolyBase

    ABCPolyBase._use_unicode = style == "unicode"


def format_series(series, fmt: str) -> str:
    """`format(series, fmt)`: '' is str(series), else 'ascii' or 'unicode'."""
    if fmt == "":
        return str(series)
    if fmt not in ("ascii", "unicode"):
        raise ValueError(
            f"Unsupported format string '{fmt}' passed to {series.__class__}.__format__. "
            "Valid options are 'ascii' and 'unicode'"
        )
    return series_text(series, fmt == "unicode")


def _scaled_symbol(series) -> str:
    off, scale = (numpy.asarray(p)[()] for p in series.mapparms())
    if off == 0 and scale == 1:
        return series.symbol
    if scale == 1:
        term = f"{format_float(off)} + {series.symbol}"
    elif off == 0:
        term = f"{format_float(scale)}{series.symbol}"
    else:
        term = f"{format_float(off)} + {format_float(scale)}{series.symbol}"
    return "(" + term + ")"


def series_text(series, unicode: bool) -> str:
    """The series' terms joined with their signs, wrapped before the line width."""
    term = series._str_term_unicode if unicode else series._str_term_ascii
    linewidth = max(anp.get_printoptions().get("linewidth", 75), 1)
    coef = numpy.asarray(series.coef)
    out = format_float(coef[0])
    symbol = _scaled_symbol(series)
    for i, c in enumerate(coef[1:]):
        out += " "
        try:
            if c >= 0:
                next_term = "+ " + format_float(c, parens=True)
            else:
                next_term = "- " + format_float(-c, parens=True)
        except TypeError:
            next_term = f"+ {c}"
        next_term += term(str(i + 1), symbol)
        line_len = len(out.split("\n")[-1]) + len(next_term)
        if i < len(coef) - 2:
            line_len += 2  # the next term's sign and space
        if line_len >= linewidth:
            next_term = next_term.replace(" ", "\n", 1)
        out += next_term
    return out


def basis_term_unicode(basis_name: str, i: str, arg: str) -> str:
    return f"·{basis_name}{i.translate(SUBSCRIPTS)}({arg})"


def basis_term_ascii(basis_name: str, i: str, arg: str) -> str:
    return f" {basis_name}_{i}({arg})"


def power_term_unicode(i: str, arg: str) -> str:
    return f"·{arg}" if i == "1" else f"·{arg}{i.translate(SUPERSCRIPTS)}"


def power_term_ascii(i: str, arg: str) -> str:
    return f" {arg}" if i == "1" else f" {arg}**{i}"


def series_repr(series) -> str:
    """``Name(coef, domain=..., window=..., symbol='x')`` with NumPy's array text."""

    def body(a):
        return repr(numpy.asarray(a))[6:-1]

    return (
        f"{series.__class__.__name__}({body(series.coef)}, domain={body(series.domain)}, "
        f"window={body(series.window)}, symbol='{series.symbol}')"
    )
