"""What the six series families share, as arraystack operations: coefficient rows, sums and
differences, division and powers by a family's product, the derivative and integral drivers a
family's recurrence plugs into, Vandermonde matrices, least-squares fits, grids and roots."""

from __future__ import annotations

import functools
import operator
import warnings

import numpy
from numpy.lib.array_utils import normalize_axis_index

import arraystack as anp
from arraystack._core.array import ndarray
from arraystack.ir.core import ShapeDependsOnDataError, Tracer


def traced(x) -> bool:
    return isinstance(getattr(x, "_value", None), Tracer)


def require_concrete(x, what: str) -> None:
    """Trimming and data-dependent branches need values: a traced `x` raises, naming `what`."""
    if traced(x):
        raise ShapeDependsOnDataError(
            f"{what} depends on the values of traced coefficients (it trims trailing zeros or "
            "branches on them), so its result's shape is unknown while tracing. Call it outside "
            "jit, on concrete coefficients."
        )


def is_series(x) -> bool:
    """A convenience-class instance: it opts out of ufuncs, as NumPy's do."""
    return getattr(type(x), "__array_ufunc__", 0) is None and hasattr(x, "coef")


def as_int(x, desc: str) -> int:
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {x}") from e


def float_array(c) -> ndarray:
    """`c` as an array of at least one dimension, integers and bools as float64."""
    c = anp.atleast_1d(anp.asarray(c))
    return c.astype(anp.float64) if c.dtype.kind in "biu" else c


def rows(c, x=None) -> list:
    """The leading-axis entries of `c`; NumPy scalars when `x` is a series (composition)."""
    if x is not None and is_series(x):
        return list(numpy.asarray(c))
    return [c[i] for i in range(c.shape[0])]


def stack(entries, dtype) -> ndarray:
    return anp.stack([anp.asarray(e) for e in entries]).astype(dtype)


def evaluation_args(x, c, tensor):
    """NumPy's argument handling of the *val functions: c's shape gets x's axes when tensor."""
    c = float_array(c)
    if isinstance(x, (tuple, list, numpy.ndarray)):
        x = anp.asarray(x)
    if isinstance(x, ndarray) and tensor:
        c = anp.reshape(c, c.shape + (1,) * x.ndim)
    return x, c


def concat(*parts) -> ndarray:
    return anp.concatenate([anp.atleast_1d(p) for p in parts])


def line(*coefficients) -> ndarray:
    """The coefficients of a line, its last one dropped when zero (NumPy's *line functions)."""
    if coefficients[-1] == 0:
        coefficients = coefficients[:1]
    return anp.stack([anp.asarray(c) for c in coefficients])


# -- arithmetic ----------------------------------------------------------------------------------


def add(c1, c2) -> ndarray:
    from arraystack.polynomial.polyutils import as_series, trimseq

    c1, c2 = as_series([c1, c2])
    n1, n2 = c1.shape[0], c2.shape[0]
    if n1 > n2:
        return trimseq(concat(c1[:n2] + c2, c1[n2:]))
    return trimseq(concat(c2[:n1] + c1, c2[n1:]))


def sub(c1, c2) -> ndarray:
    from arraystack.polynomial.polyutils import as_series, trimseq

    c1, c2 = as_series([c1, c2])
    n1, n2 = c1.shape[0], c2.shape[0]
    if n1 > n2:
        return trimseq(concat(c1[:n2] - c2, c1[n2:]))
    return trimseq(concat(c1 - c2[:n1], -c2[n1:]))


def div(mul, c1, c2) -> tuple[ndarray, ndarray]:
    """Long division by a family's product: each step removes the leading term of the rest."""
    from arraystack.polynomial.polyutils import as_series, trimseq

    c1, c2 = as_series([c1, c2])
    require_concrete(c2, "division")
    if numpy.asarray(c2)[-1] == 0:
        raise ZeroDivisionError("division by a zero series")
    n1, n2 = c1.shape[0], c2.shape[0]
    if n1 < n2:
        return c1[:1] * 0, c1
    if n2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    quo = [None] * (n1 - n2 + 1)
    rem = c1
    for i in range(n1 - n2, -1, -1):
        p = mul([0] * i + [1], c2)
        q = rem[-1] / p[-1]
        rem = rem[:-1] - q * p[:-1]
        quo[i] = q
    return stack(quo, c1.dtype), trimseq(rem)


def power(mul, c, pow, maxpower) -> ndarray:
    from arraystack.polynomial.polyutils import as_series

    [c] = as_series([c])
    n = int(pow)
    if n != pow or n < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and n > maxpower:
        raise ValueError("Power is too large")
    if n == 0:
        return anp.asarray([1], dtype=c.dtype)
    prd = c
    for _ in range(2, n + 1):
        prd = mul(prd, c)
    return prd


def fromroots(line, mul, roots) -> ndarray:
    """The product of the linear factors, multiplied pairwise (a balanced tree, as NumPy does)."""
    from arraystack.polynomial.polyutils import as_series

    if len(roots) == 0:
        return anp.ones(1)
    [roots] = as_series([roots], trim=False)
    roots = anp.sort(roots)
    p = [line(-r, 1) for r in roots]
    n = len(p)
    while n > 1:
        m, r = divmod(n, 2)
        tmp = [mul(p[i], p[i + m]) for i in range(m)]
        if r:
            tmp[0] = mul(tmp[0], p[-1])
        p = tmp
        n = m
    return p[0]


# -- calculus ------------------------------------------------------------------------------------


def derivative(c, m, scl, axis, step) -> ndarray:
    """`m` derivatives along `axis`; step(rows, n) gives the n rows of one derivative."""
    c = float_array(c)
    dtype = c.dtype
    cnt = as_int(m, "the order of derivation")
    iaxis = as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    iaxis = normalize_axis_index(iaxis, c.ndim)
    if cnt == 0:
        return c
    c = anp.moveaxis(c, iaxis, 0)
    n = c.shape[0]
    if cnt >= n:
        c = c[:1] * 0
    else:
        for _ in range(cnt):
            n -= 1
            c = (c * scl).astype(dtype)
            c = stack(step(rows(c), n), dtype)
    return anp.moveaxis(c, 0, iaxis)


def integral(c, m, k, lbnd, scl, axis, step, val) -> ndarray:
    """`m` integrals along `axis`; step(rows) gives the n + 1 rows of one antiderivative, and the
    constant term is then set so its value at `lbnd` is the integration constant."""
    c = float_array(c)
    dtype = c.dtype
    if not numpy.iterable(k):
        k = [k]
    cnt = as_int(m, "the order of integration")
    iaxis = as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if anp.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if anp.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    iaxis = normalize_axis_index(iaxis, c.ndim)
    if cnt == 0:
        return c
    k = list(k) + [0] * (cnt - len(k))
    c = anp.moveaxis(c, iaxis, 0)
    for i in range(cnt):
        c = (c * scl).astype(dtype)
        if c.shape[0] == 1:
            require_concrete(c, "integration of a constant")
        if c.shape[0] == 1 and numpy.all(numpy.asarray(c[0]) == 0):
            c = (c + k[i]).astype(dtype)
            continue
        tmp = step(rows(c))
        tmp[0] = tmp[0] + (k[i] - val(lbnd, stack(tmp, dtype)))
        c = stack(tmp, dtype)
    return anp.moveaxis(c, 0, iaxis)


# -- Vandermonde matrices, fits, grids -----------------------------------------------------------


def vander(x, deg, first, step) -> ndarray:
    """Columns V[..., i] = P_i(x): first(x) is P_1, step(v, x, i) is P_i from the earlier ones."""
    ideg = as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = anp.atleast_1d(anp.asarray(x)) + 0.0
    v = [x * 0 + 1]
    if ideg > 0:
        v.append(first(x))
        for i in range(2, ideg + 1):
            v.append(step(v, x, i))
    return anp.stack(v, axis=-1)


def _nth_slice(i, ndim):
    return tuple(slice(None) if j == i else None for j in range(ndim))


def vander_nd_flat(vander_fs, points, degrees) -> ndarray:
    """The product of 1-d Vandermonde matrices, one per coordinate, its last axes flattened."""
    n = len(vander_fs)
    if n != len(points):
        raise ValueError(f"Expected {n} dimensions of sample points, got {len(points)}")
    if n != len(degrees):
        raise ValueError(f"Expected {n} dimensions of degrees, got {len(degrees)}")
    points = [anp.asarray(p) + 0.0 for p in points]
    dtype = anp.result_type(*points)
    points = [p.astype(dtype) for p in points]
    arrays = [vander_fs[i](points[i], degrees[i])[(...,) + _nth_slice(i, n)] for i in range(n)]
    v = functools.reduce(operator.mul, arrays)
    return anp.reshape(v, v.shape[: -len(degrees)] + (-1,))


def valnd(val, c, *args):
    args = [anp.asarray(a) for a in args]
    if not all(a.shape == args[0].shape for a in args[1:]):
        names = {3: "x, y, z", 2: "x, y"}
        raise ValueError(f"{names.get(len(args), 'ordinates')} are incompatible")
    c = val(args[0], c)
    for xi in args[1:]:
        c = val(xi, c, tensor=False)
    return c


def gridnd(val, c, *args):
    for xi in args:
        c = val(anp.asarray(xi), c)
    return c


def fit(vander_f, x, y, deg, rcond=None, full=False, w=None):
    """Weighted least squares on the column-scaled Vandermonde matrix, as NumPy solves it."""
    from arraystack.polynomial.polyutils import RankWarning

    x = anp.asarray(x) + 0.0
    y = anp.asarray(y) + 0.0
    degs = numpy.asarray(deg)
    if degs.ndim > 1 or degs.dtype.kind not in "iu" or degs.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if degs.min() < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if degs.ndim == 0:
        lmax = int(degs)
        order = lmax + 1
        van = vander_f(x, lmax)
    else:
        degs = numpy.sort(degs)
        lmax = int(degs[-1])
        order = len(degs)
        van = anp.take(vander_f(x, lmax), anp.asarray(degs), axis=1)
    lhs = van.T
    rhs = y.T
    if w is not None:
        w = anp.asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if w.shape[0] != x.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs = lhs * w
        rhs = rhs * w
    if rcond is None:
        rcond = x.shape[0] * numpy.finfo(x.dtype).eps
    if lhs.dtype.kind == "c":
        scl = anp.sqrt(anp.sum(anp.square(lhs.real) + anp.square(lhs.imag), axis=1))
    else:
        scl = anp.sqrt(anp.sum(anp.square(lhs), axis=1))
    scl = anp.where(scl == 0, anp.ones_like(scl), scl)
    a = lhs.T / scl
    if full or not (traced(a) or traced(rhs)):
        c, resids, rank, s = anp.linalg.lstsq(a, rhs.T, rcond)
    else:
        # Note: traced data solve through the pseudo-inverse (lstsq's SVD cutoff rcond): lstsq's
        # residuals have a data-dependent shape, and the rank check below needs values
        c = anp.linalg.pinv(a, rcond=rcond) @ rhs.T
        rank = None
    c = (c.T / scl).T
    if degs.ndim > 0:
        cc = anp.zeros((lmax + 1,) + c.shape[1:], dtype=c.dtype)
        c = _scatter_rows(cc, degs, c)
    if rank is not None and int(rank) != order and not full:
        warnings.warn("The fit may be poorly conditioned", RankWarning, stacklevel=3)
    if full:
        return c, [resids, rank, s, rcond]
    return c


def _scatter_rows(zeros, index, values):
    out = [zeros[i] for i in range(zeros.shape[0])]
    for j, i in enumerate(index):
        out[int(i)] = values[j]
    return stack(out, zeros.dtype)


# -- roots ---------------------------------------------------------------------------------------


def roots(companion, c, linear_root) -> ndarray:
    """Eigenvalues of the rotated companion matrix, sorted; a line's root directly."""
    from arraystack.polynomial.polyutils import as_series

    [c] = as_series([c])
    if c.shape[0] < 2:
        return anp.asarray(numpy.array([], dtype=numpy.dtype(c.dtype)))
    if c.shape[0] == 2:
        return anp.reshape(linear_root(c), (1,))
    m = companion(c)[::-1, ::-1]
    return anp.sort(anp.linalg.eigvals(m))


def companion_matrix(diagonals, last_column) -> ndarray:
    """A companion matrix: `diagonals` maps an offset (0, 1, -1) to that diagonal's entries, and
    `last_column` is subtracted from the last column."""
    n = last_column.shape[0]
    mat = anp.zeros((n, n), dtype=last_column.dtype)
    for k, values in diagonals.items():
        mat = mat + anp.diag(anp.asarray(values, dtype=last_column.dtype), k)
    return anp.concatenate([mat[:, :-1], (mat[:, -1] - last_column)[:, None]], axis=1)
