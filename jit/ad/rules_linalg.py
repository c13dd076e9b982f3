"""JVP, VJP and batching rules of the linear-algebra primitives (jit/linalg.py).

Conventions of forward.py, reverse.py and batching.py. Every primitive works on stacks of matrices, so
batching moves the batch axis to the front and binds the primitive again. VJPs are the transposes of the
JVPs for the pairing Re(sum(u * v)) (JAX's convention): transposes appear where a complex-conjugate
transpose appears in the JVP only if the JVP itself conjugates. Matrices given to eigh and cholesky are
taken as Hermitian: their tangents are symmetrized, (dA + dA^H) / 2, as JAX does.
"""

from __future__ import annotations

from arraystack.ir import linalg as la
from arraystack.ir.ad import matrices as mx
from arraystack.ir.ad import ops
from arraystack.ir.ad.batching import batch_rules, move_to_front
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import NotDifferentiableError, vjp_rules
from arraystack.ir.core import bind

# -- solve (inv is solve against the identity) ---------------------------------------------------------------


def _solve_jvp(primals, tangents, out, **_):
    a, b = primals
    ta, tb = tangents
    rhs = mx.or_zeros(tb, b)
    if ta is not None:
        rhs = ops.sub(rhs, mx.mm(ta, out))
    return mx.solve(a, rhs)


def _solve_vjp(ct, out, needs, a, b):
    b_bar = mx.solve(mx.mT(a), ct)
    a_bar = ops.neg(mx.mm(b_bar, mx.mT(out))) if needs[0] else None
    return a_bar, b_bar


jvp_rules[la.solve_p] = _solve_jvp
vjp_rules[la.solve_p] = _solve_vjp

# -- det, slogdet: d log det A = tr(A^-1 dA) --------------------------------------------------------------------


def _det_jvp(primals, tangents, out, **_):
    return ops.mul(out, mx.trace(mx.solve(primals[0], tangents[0])))


def _det_vjp(ct, out, needs, a):
    return (ops.mul(mx.expand2(ops.mul(ct, out), a), mx.mT(mx.inv(a))),)


def _slogdet_jvp(primals, tangents, out, **_):
    sign, _ = out
    z = mx.trace(mx.solve(primals[0], tangents[0]))
    d_sign = ops.mul(sign, mx.imag_part(z)) if ops.dtype(z).kind == "c" else None
    return [d_sign, ops.real(z)]


def _slogdet_vjp(ct, out, needs, a):
    ct_sign, ct_log = ct
    coef = ops.convert(ct_log, ops.dtype(a))
    if ops.dtype(a).kind == "c":
        coef = ops.add(coef, mx.imag_part(ops.mul(ct_sign, out[0])))
    return (ops.mul(mx.expand2(coef, a), mx.mT(mx.inv(a))),)


jvp_rules[la.det_p] = _det_jvp
vjp_rules[la.det_p] = _det_vjp
jvp_rules[la.slogdet_p] = _slogdet_jvp
vjp_rules[la.slogdet_p] = _slogdet_vjp

# -- cholesky: dL = L Phi(L^-1 dA L^-H), Phi = lower triangle with the diagonal halved ------------------------


def _phi(x):
    half = ops.mul(mx.diag_embed(mx.diag(x), x), ops.const(x, 0.5))
    return ops.sub(mx.tril(x), half)


def _cholesky_jvp(primals, tangents, out, *, upper):
    low = mx.mH(out) if upper else out
    tmp = mx.solve(low, mx.sym(tangents[0]))
    d_low = mx.mm(low, _phi(mx.mH(mx.solve(low, mx.mH(tmp)))))
    return mx.mH(d_low) if upper else d_low


def _cholesky_vjp(ct, out, needs, a, *, upper):
    low, ct = (mx.mH(out), mx.mH(ct)) if upper else (out, ct)
    y = _phi(mx.mm(mx.mT(low), ct))
    z = mx.solve(mx.mT(low), y)
    w = mx.mT(mx.solve(mx.mH(low), mx.mT(z)))
    return (mx.sym(w),)


jvp_rules[la.cholesky_p] = _cholesky_jvp
vjp_rules[la.cholesky_p] = _cholesky_vjp

# -- eigh: with M = V^H dA V, dw = Re diag(M), dV = V (F * M), F_ij = 1 / (w_j - w_i) off the diagonal ------


def _gaps(w, like):
    """F_ij = 1 / (w_j - w_i) for i != j and 0 on the diagonal, of like's dtype."""
    w_j = mx.row(w, mx.diag_embed(w, w))
    diff = ops.sub(w_j, mx.mT(w_j))
    eye = mx.eye_like(diff)
    inv = ops.div(ops.sub(ops.full(ops.shape(diff), ops.dtype(diff), 1), eye), ops.add(diff, eye))
    return ops.convert(inv, ops.dtype(like))


def _eigh_jvp(primals, tangents, out, *, lower):
    w, v = out
    m = mx.mm(mx.mm(mx.mH(v), mx.sym(tangents[0])), v)
    return [ops.real(mx.diag(m)), mx.mm(v, ops.mul(_gaps(w, v), m))]


def _eigh_vjp(ct, out, needs, a, *, lower):
    (w_bar, v_bar), (w, v) = ct, out
    m_bar = ops.add(ops.mul(_gaps(w, v), mx.mm(mx.mT(v), v_bar)), mx.diag_embed(w_bar, v))
    return (mx.sym(mx.mm(mx.mm(ops.conj(v), m_bar), mx.mT(v))),)


def _eigvalsh_jvp(primals, tangents, out, *, lower):
    _, v = bind(la.eigh_p, primals[0], lower=lower)
    return ops.real(mx.diag(mx.mm(mx.mm(mx.mH(v), mx.sym(tangents[0])), v)))


def _eigvalsh_vjp(ct, out, needs, a, *, lower):
    _, v = bind(la.eigh_p, a, lower=lower)
    return (mx.sym(mx.mm(mx.mm(ops.conj(v), mx.diag_embed(ct, v)), mx.mT(v))),)


jvp_rules[la.eigh_p] = _eigh_jvp
vjp_rules[la.eigh_p] = _eigh_vjp
jvp_rules[la.eigvalsh_p] = _eigvalsh_jvp
vjp_rules[la.eigvalsh_p] = _eigvalsh_vjp

# -- svd (reduced; full_matrices only for square matrices, where it is the same) ---------------------------------


def _check_svd(a, full_matrices):
    m, n = ops.shape(a)[-2:]
    if full_matrices and m != n:
        raise NotDifferentiableError(
            f"the derivative of svd with full_matrices=True is defined only for square matrices, got "
            f"{ops.aval(a).str_short()}; use full_matrices=False"
        )


def _svd_factors(s, like):
    """F_ij = 1 / (s_j^2 - s_i^2) off the diagonal (0 on it) and 1 / s, of like's dtype."""
    s_sq = ops.mul(s, s)
    return _gaps(s_sq, like), ops.div(ops.full(ops.shape(s), ops.dtype(s), 1), s)


def _svd_jvp(primals, tangents, out, *, full_matrices, hermitian):
    (a,), (da,) = primals, tangents
    _check_svd(a, full_matrices)
    u, s, vh = out
    v = mx.mH(vh)
    ds_mat = mx.mm(mx.mm(mx.mH(u), da), v)
    f, s_inv = _svd_factors(s, u)
    dss = ops.mul(ds_mat, mx.row(s, ds_mat))
    sds = ops.mul(mx.col(s, ds_mat), ds_mat)
    du_inner = ops.add(
        ops.mul(f, ops.add(dss, mx.mH(dss))),
        mx.diag_embed(ops.mul(mx.imag_part(mx.diag(ds_mat)), ops.convert(s_inv, ops.dtype(u))), u),
    )
    du = mx.mm(u, du_inner)
    dv = mx.mm(v, ops.mul(f, ops.add(sds, mx.mH(sds))))
    m, n = ops.shape(a)[-2:]
    if m > n:
        dav = mx.mm(da, v)
        du = ops.add(du, ops.mul(ops.sub(dav, mx.mm(u, mx.mm(mx.mH(u), dav))), mx.row(s_inv, dav)))
    if n > m:
        dahu = mx.mm(mx.mH(da), u)
        dv = ops.add(dv, ops.mul(ops.sub(dahu, mx.mm(v, mx.mm(vh, dahu))), mx.row(s_inv, dahu)))
    return [du, ops.real(mx.diag(ds_mat)), mx.mH(dv)]


def _svd_vjp(ct, out, needs, a, *, full_matrices, hermitian):
    _check_svd(a, full_matrices)
    (u_bar, s_bar, vh_bar), (u, s, vh) = ct, out
    v, v_bar = mx.mH(vh), mx.mH(vh_bar)
    f, s_inv = _svd_factors(s, u)
    s_inv_c = ops.convert(s_inv, ops.dtype(u))
    ui_bar, vi_bar = mx.mm(mx.mT(u), u_bar), mx.mm(mx.mT(v), v_bar)
    g = ops.mul(f, ui_bar)
    h = ops.mul(f, vi_bar)
    ds_bar = ops.add(mx.diag_embed(s_bar, u), ops.mul(ops.add(g, mx.mH(g)), mx.row(s, g)))
    ds_bar = ops.add(ds_bar, ops.mul(mx.col(s, h), ops.add(h, mx.mH(h))))
    ds_bar = ops.add(ds_bar, mx.diag_embed(ops.mul(mx.imag_part(mx.diag(ui_bar)), s_inv_c), u))
    a_bar = mx.mm(mx.mm(ops.conj(u), ds_bar), mx.mT(v))
    m, n = ops.shape(a)[-2:]
    if m > n:
        uu = mx.mm(u, mx.mH(u))
        proj = ops.sub(mx.eye_like(uu), uu)
        a_bar = ops.add(
            a_bar, mx.mm(mx.mm(ops.conj(proj), ops.mul(u_bar, mx.row(s_inv, u_bar))), mx.mT(v))
        )
    if n > m:
        vv = mx.mm(v, vh)
        proj = ops.sub(mx.eye_like(vv), vv)
        w_bar = mx.mm(mx.mm(ops.conj(proj), ops.mul(v_bar, mx.row(s_inv, v_bar))), mx.mT(u))
        a_bar = ops.add(a_bar, mx.mH(w_bar))
    return (a_bar,)


def _svdvals_jvp(primals, tangents, out, *, hermitian):
    u, _, vh = bind(la.svd_p, primals[0], full_matrices=False, hermitian=hermitian)
    return ops.real(mx.diag(mx.mm(mx.mm(mx.mH(u), tangents[0]), mx.mH(vh))))


def _svdvals_vjp(ct, out, needs, a, *, hermitian):
    u, _, vh = bind(la.svd_p, a, full_matrices=False, hermitian=hermitian)
    return (mx.mm(mx.mm(ops.conj(u), mx.diag_embed(ct, u)), ops.conj(vh)),)


jvp_rules[la.svd_p] = _svd_jvp
vjp_rules[la.svd_p] = _svd_vjp
jvp_rules[la.svdvals_p] = _svdvals_jvp
vjp_rules[la.svdvals_p] = _svdvals_vjp

# -- qr (JAX's rule): with X1 = dA R^-1, Y = Q^H X1, L = tril(Y, -1), D = L - L^H + i Im diag(Y):
#    dQ = Q (D - Y) + X1, dR = (Y - D) R -------------------------------------------------------------------------


def _check_qr(a, mode):
    m, n = ops.shape(a)[-2:]
    if mode == "raw" or m < n or (mode == "complete" and m != n):
        raise NotDifferentiableError(
            f"the derivative of qr is defined for mode='reduced' with m >= n (or 'complete' with m == n); "
            f"got mode={mode!r} on {ops.aval(a).str_short()}"
        )


def _qr_jvp(primals, tangents, out, *, mode):
    (a,), (da,) = primals, tangents
    _check_qr(a, mode)
    q, r = out
    x1 = mx.mT(mx.solve(mx.mT(r), mx.mT(da)))
    y = mx.mm(mx.mH(q), x1)
    low = mx.tril(y, -1)
    d = ops.add(ops.sub(low, mx.mH(low)), mx.diag_embed(mx.imag_part(mx.diag(y)), y))
    return [ops.add(mx.mm(q, ops.sub(d, y)), x1), mx.mm(ops.sub(y, d), r)]


def _qr_vjp(ct, out, needs, a, *, mode):
    _check_qr(a, mode)
    (q_bar, r_bar), (q, r) = ct, out
    d_bar = ops.sub(mx.mm(mx.mT(q), q_bar), mx.mm(r_bar, mx.mT(r)))
    low_bar = ops.sub(d_bar, mx.mH(d_bar))
    y_bar = ops.add(ops.neg(d_bar), mx.diag_embed(mx.imag_part(mx.diag(d_bar)), d_bar))
    y_bar = ops.add(y_bar, mx.tril(low_bar, -1))
    x1_bar = ops.add(q_bar, mx.mm(ops.conj(q), y_bar))
    return (mx.mT(mx.solve(r, mx.mT(x1_bar))),)


jvp_rules[la.qr_p] = _qr_jvp
vjp_rules[la.qr_p] = _qr_vjp

# -- lstsq: x = P b with P = A+ (the pseudo-inverse of the same cut-off) and r = b - A x. Where the rank
#    does not change (as pinv's derivative assumes):
#      dx = P (db - dA x) + P P^H dA^H r + (I - P A) dA^H P^H x,
#    the residuals |r|^2 of a full column rank (A^H r = 0) change by 2 Re(conj(r) (db - dA x)), and the
#    singular values as svdvals'. The rank has no derivative. ----------------------------------------------------


def _pinv(a, rcond):
    rows = ops.shape(a)[-2]
    eye = mx.eye_like(ops.full((rows, rows), ops.dtype(a), 0))
    return bind(la.lstsq_p, a, eye, rcond=rcond)[0]


def _lstsq_jvp(primals, tangents, out, *, rcond):
    (a, b), (da, db) = primals, tangents
    x, _, _, s = out
    pinv = _pinv(a, rcond)
    r = ops.sub(b, mx.mm(a, x))
    change = mx.or_zeros(db, b)  # db - dA x
    if da is not None:
        change = ops.sub(change, mx.mm(da, x))
    dx = mx.mm(pinv, change)
    d_res = ops.reduce_sum(ops.real(ops.mul(ops.conj(r), change)), (0,))
    d_res = ops.mul(d_res, ops.const(d_res, 2))
    ds = None
    if da is not None:
        da_h = mx.mH(da)
        dx = ops.add(dx, mx.mm(pinv, mx.mm(mx.mH(pinv), mx.mm(da_h, r))))
        null = ops.sub(mx.eye_like(mx.mm(pinv, a)), mx.mm(pinv, a))
        dx = ops.add(dx, mx.mm(null, mx.mm(da_h, mx.mm(mx.mH(pinv), x))))
        ds = _svdvals_jvp((a,), (da,), s, hermitian=False)
    return [dx, d_res, None, ds]


def _lstsq_vjp(ct, out, needs, a, b, *, rcond):
    (x_bar, res_bar, _, s_bar), (x, _, _, _) = ct, out
    pinv = _pinv(a, rcond)
    r = ops.sub(b, mx.mm(a, x))
    # the cotangent of `change` = db - dA x: from x (P^T x_bar) and from the residuals (2 conj(r) res_bar)
    change_bar = ops.add(
        mx.mm(mx.mT(pinv), x_bar),
        ops.mul(ops.conj(r), mx.row(ops.mul(res_bar, ops.const(res_bar, 2)), r)),
    )
    b_bar = change_bar if needs[1] else None
    a_bar = None
    if needs[0]:
        a_bar = ops.neg(mx.mm(change_bar, mx.mT(x)))
        pinv_h = mx.mH(pinv)
        a_bar = ops.add(a_bar, ops.conj(mx.mm(mx.mm(r, mx.mT(x_bar)), mx.mm(pinv, pinv_h))))
        null = ops.sub(mx.eye_like(mx.mm(pinv, a)), mx.mm(pinv, a))
        a_bar = ops.add(a_bar, ops.conj(mx.mm(mx.mm(mx.mm(pinv_h, x), mx.mT(x_bar)), null)))
        a_bar = ops.add(a_bar, _svdvals_vjp(s_bar, None, None, a, hermitian=False)[0])
    return a_bar, b_bar


jvp_rules[la.lstsq_p] = _lstsq_jvp
vjp_rules[la.lstsq_p] = _lstsq_vjp

not_differentiable = {
    la.eig_p: "eigenvectors of a general matrix have no unique normalization to differentiate",
    la.eigvals_p: "eig/eigvals are not differentiable here; use eigh/eigvalsh for Hermitian matrices",
}

# -- batching: the batch axis becomes one more leading stack axis ------------------------------------------------


def _stacked(prim):
    def rule(size, args, batched, **params):
        return bind(prim, *[move_to_front(x, b, size) for x, b in zip(args, batched)], **params)

    return rule


for _prim in (
    la.cholesky_p,
    la.solve_p,
    la.det_p,
    la.slogdet_p,
    la.eigh_p,
    la.eigvalsh_p,
    la.eig_p,
    la.eigvals_p,
    la.svd_p,
    la.svdvals_p,
    la.qr_p,
):
    batch_rules[_prim] = _stacked(_prim)


def _lstsq_batch(size, args, batched, *, rcond):
    """numpy.linalg.lstsq takes single matrices: one call per example, results stacked."""
    from arraystack.ir import structural as s

    rows = []
    for i in range(size):
        ops_i = []
        for x, b in zip(args, batched):
            if b:
                shape = ops.shape(x)
                start, limit = (i,) + (0,) * (len(shape) - 1), (i + 1,) + shape[1:]
                x = bind(
                    s.slice_p,
                    x,
                    start_indices=start,
                    limit_indices=limit,
                    strides=(1,) * len(shape),
                )
                x = ops.reshape(x, shape[1:])
            ops_i.append(x)
        rows.append(bind(la.lstsq_p, *ops_i, rcond=rcond))
    outs = []
    for k in range(4):
        parts = [ops.reshape(r[k], (1,) + ops.shape(r[k])) for r in rows]
        outs.append(bind(s.concatenate_p, *parts, dimension=0))
    return tuple(outs)


batch_rules[la.lstsq_p] = _lstsq_batch
