"""Linear-algebra factorizations as primitives: declared with their shape rules and NumPy reference rules.

They have no useful decomposition into the core primitives, so each one is evaluated by numpy.linalg (or
cupy.linalg: the `xp` argument), batched over leading axes as numpy.linalg batches. Operands are already
float32/float64/complex64/complex128 with NumPy's shapes (the frontend, arraystack/linalg/, converts and
checks them); NumPy computes in double precision and rounds back, and so do these rules. A singular or
non-positive-definite operand raises numpy.linalg.LinAlgError from the reference rule, as NumPy does.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir.avals import ShapedArray
from arraystack.ir.core import Primitive
from arraystack.ir.primitives import abstract_eval_rules
from arraystack.ir.reference import reference_rules

_INEXACT = frozenset(np.dtype(d) for d in ("f4", "f8", "c8", "c16"))


def _real(dtype):
    return np.dtype(np.float32) if dtype in (np.float32, np.complex64) else np.dtype(np.float64)


def _complex(dtype):
    return (
        np.dtype(np.complex64) if dtype in (np.float32, np.complex64) else np.dtype(np.complex128)
    )


def _check(prim, *avals, square=True):
    for a in avals:
        if a.dtype not in _INEXACT:
            raise TypeError(
                f"{prim.name} does not accept dtype {a.dtype.name} (operand {a.str_short()})"
            )
        if a.ndim < 2:
            raise ValueError(f"{prim.name} needs operands of rank >= 2, got {a.str_short()}")
    if square and avals[0].shape[-1] != avals[0].shape[-2]:
        raise ValueError(f"{prim.name} needs square matrices, got {avals[0].str_short()}")
    return avals[0]


def _aval(shape, dtype):
    return ShapedArray(tuple(shape), np.dtype(dtype))


cholesky_p = Primitive("cholesky")  # cholesky[upper] a -> L (lower) or U = L^H (upper)
abstract_eval_rules[cholesky_p] = lambda a, *, upper: _aval(_check(cholesky_p, a).shape, a.dtype)
reference_rules[cholesky_p] = lambda xp, a, *, upper: xp.linalg.cholesky(a, upper=upper)

solve_p = Primitive("solve")  # solve a b: a (..., n, n), b (..., n, k) with the same leading axes


def _solve_rule(a, b):
    _check(solve_p, a, b, square=True)
    if a.dtype != b.dtype or a.shape[:-2] != b.shape[:-2] or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: operands {a.str_short()} and {b.str_short()} do not match")
    return b


abstract_eval_rules[solve_p] = _solve_rule
reference_rules[solve_p] = lambda xp, a, b: xp.linalg.solve(a, b)

det_p = Primitive("det")
abstract_eval_rules[det_p] = lambda a: _aval(_check(det_p, a).shape[:-2], a.dtype)
reference_rules[det_p] = lambda xp, a: xp.asarray(xp.linalg.det(a))

slogdet_p = Primitive("slogdet", multiple_results=True)  # slogdet a -> sign, log|det|


def _slogdet_rule(a):
    batch = _check(slogdet_p, a).shape[:-2]
    return (_aval(batch, a.dtype), _aval(batch, _real(a.dtype)))


abstract_eval_rules[slogdet_p] = _slogdet_rule
reference_rules[slogdet_p] = lambda xp, a: tuple(xp.asarray(r) for r in xp.linalg.slogdet(a))

eigh_p = Primitive("eigh", multiple_results=True)  # eigh[lower] a -> w (ascending, real), v
eigvalsh_p = Primitive("eigvalsh")  # eigvalsh[lower] a -> w


def _eigh_rule(a, *, lower):
    _check(eigh_p, a)
    return (_aval(a.shape[:-1], _real(a.dtype)), a)


abstract_eval_rules[eigh_p] = _eigh_rule
abstract_eval_rules[eigvalsh_p] = lambda a, *, lower: _eigh_rule(a, lower=lower)[0]
reference_rules[eigh_p] = lambda xp, a, *, lower: tuple(xp.linalg.eigh(a, "L" if lower else "U"))
reference_rules[eigvalsh_p] = lambda xp, a, *, lower: xp.linalg.eigvalsh(a, "L" if lower else "U")

# eig/eigvals always give complex results here: NumPy's real-if-all-real result type depends on the values,
# which the frontend decides after evaluation (eagerly only).
eig_p = Primitive("eig", multiple_results=True)
eigvals_p = Primitive("eigvals")


def _eig_rule(a):
    _check(eig_p, a)
    return (_aval(a.shape[:-1], _complex(a.dtype)), _aval(a.shape, _complex(a.dtype)))


def _eig(xp, a):
    w, v = xp.linalg.eig(a)
    dtype = _complex(a.dtype)
    return w.astype(dtype, copy=False), v.astype(dtype, copy=False)


abstract_eval_rules[eig_p] = _eig_rule
abstract_eval_rules[eigvals_p] = lambda a: _eig_rule(a)[0]
reference_rules[eig_p] = _eig
reference_rules[eigvals_p] = lambda xp, a: xp.linalg.eigvals(a).astype(
    _complex(a.dtype), copy=False
)

svd_p = Primitive("svd", multiple_results=True)  # svd[full_matrices, hermitian] a -> u, s, vh
svdvals_p = Primitive("svdvals")  # svdvals[hermitian] a -> s (descending)


def _svd_rule(a, *, full_matrices, hermitian):
    _check(svd_p, a, square=hermitian)
    *batch, m, n = a.shape
    k = min(m, n)
    u = (m, m) if full_matrices else (m, k)
    vh = (n, n) if full_matrices else (k, n)
    return (
        _aval((*batch, *u), a.dtype),
        _aval((*batch, k), _real(a.dtype)),
        _aval((*batch, *vh), a.dtype),
    )


def _svd(xp, a, *, full_matrices, hermitian):
    return tuple(xp.linalg.svd(a, full_matrices=full_matrices, hermitian=hermitian))


def _svdvals_rule(a, *, hermitian):
    return _svd_rule(a, full_matrices=False, hermitian=hermitian)[1]


abstract_eval_rules[svd_p] = _svd_rule
abstract_eval_rules[svdvals_p] = _svdvals_rule
reference_rules[svd_p] = _svd
reference_rules[svdvals_p] = lambda xp, a, *, hermitian: xp.linalg.svd(
    a, compute_uv=False, hermitian=hermitian
)

qr_p = Primitive("qr", multiple_results=True)
# qr[mode] a: mode "reduced" or "complete" -> q, r; "raw" -> h (the transposed Householder array), tau


def _qr_rule(a, *, mode):
    _check(qr_p, a, square=False)
    *batch, m, n = a.shape
    k = min(m, n)
    if mode == "raw":
        return (_aval((*batch, n, m), a.dtype), _aval((*batch, k), a.dtype))
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: unknown mode {mode!r}")
    mc = m if mode == "complete" else k
    return (_aval((*batch, m, mc), a.dtype), _aval((*batch, mc, n), a.dtype))


abstract_eval_rules[qr_p] = _qr_rule
reference_rules[qr_p] = lambda xp, a, *, mode: tuple(xp.linalg.qr(a, mode=mode))

lstsq_p = Primitive("lstsq", multiple_results=True)
# lstsq[rcond] a b: a (m, n), b (m, k) -> x (n, k), residuals (k,), rank (i4), s (min(m, n),).
# `residuals` is NaN where NumPy returns an empty array (rank < n or m <= n); the frontend decides.


def _lstsq_rule(a, b, *, rcond):
    _check(lstsq_p, a, b, square=False)
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[0] or a.dtype != b.dtype:
        raise ValueError(f"lstsq: operands {a.str_short()} and {b.str_short()} do not match")
    m, n = a.shape
    real = _real(a.dtype)
    k = b.shape[1]
    return (
        _aval((n, k), a.dtype),
        _aval((k,), real),
        _aval((), np.int32),
        _aval((min(m, n),), real),
    )


def _lstsq(xp, a, b, *, rcond):
    x, resids, rank, s = xp.linalg.lstsq(a, b, rcond=rcond)
    if resids.shape != (b.shape[1],):
        resids = xp.full((b.shape[1],), xp.nan, dtype=_real(a.dtype))
    return x, resids, xp.asarray(rank, dtype=xp.int32), s


abstract_eval_rules[lstsq_p] = _lstsq_rule
reference_rules[lstsq_p] = _lstsq
