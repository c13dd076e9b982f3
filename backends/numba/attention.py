"""The numba backend's steps for the attention primitives (arraystack.ir.attention): hand-written kernels,
kept as source text per dtype and compiled and cached like the generated ones (kernels.load_kernel).

Operands arrive with their batch axes merged into one, B: q (B, Lq, D), k (B, Lk, D), v (B, Lk, Dv). A
mask or bias arrives as (Bm, Lq or 1, Lk or 1) with `*_b[b]` its batch index of batch b and row/column
strides of 0 on its broadcast axes. Each kernel runs in parallel over (batch, block) tasks; a task walks
(BLOCK_Q, BLOCK_K) tiles with the key (and value) tile transposed, so the inner loops run along a tile's
keys or along D/Dv, contiguous and vectorized; exp and log are mathlib's vectorizable ones. Under causal
attention a task takes block p and block n - 1 - p, so every task does about the same work.
- forward: per query block, the online softmax (running maximum and sum per row) -> out, lse;
- dq: per query block, the tiles recomputed from lse -> dq;
- dkv: per key block, over the query rows that may see it -> dk, dv.
Rows without an allowed key (lse = -inf, see arraystack.ir.attention) are set around the kernels: out is
the mean of v's rows, and dv receives their dout / Lk.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir.attention import BLOCK_K, BLOCK_Q, split_masks

_HEADER = """\
@numba.njit(parallel=True, fastmath=False, error_model='numpy', nogil=True, cache=True)
"""

# Shared by the three kernels: the task's block pair, and one query row's tile of scores (s[:nk]) turned
# into the unnormalized weights p = exp(s - lse) (0 where masked); `seen` says a key was allowed.
_ROW_SCORES = """
@numba.njit(inline='always')
def scores(q, kt, b, i, j0, nk, D, scale, s, mask, mask_b, mask_r, mask_c, bias, bias_b, bias_r,
           bias_c, has_mask, has_bias, causal):
    for jj in range(nk):
        s[jj] = F(0.0)
    for d in range(D):
        x = q[b, i, d]
        for jj in range(nk):
            s[jj] += x * kt[d, jj]
    for jj in range(nk):
        s[jj] *= scale
    if has_bias:
        bb, br = bias_b[b], i * bias_r
        for jj in range(nk):
            s[jj] += bias[bb, br, (j0 + jj) * bias_c]
    hi = min(nk, max(i - j0 + 1, 0)) if causal else nk  # keys from hi on are after query i
    for jj in range(hi, nk):
        s[jj] = F(-np.inf)
    if not has_mask:
        return hi > 0
    seen = False
    mb, mr = mask_b[b], i * mask_r
    for jj in range(hi):
        if mask[mb, mr, (j0 + jj) * mask_c]:
            seen = True
        else:
            s[jj] = F(-np.inf)
    return seen


@numba.njit(inline='always')
def block_of(t, which, n, causal):
    if not causal:
        return t if which == 0 else -1
    p = n - 1 - t if which == 1 else t
    return -1 if (which == 1 and p <= t) else p


@numba.njit(inline='always')
def tasks(n, causal):
    return (n + 1) // 2 if causal else n


@numba.njit(inline='always')
def transposed(x, b, j0, nk, width, xt):
    for jj in range(nk):
        for d in range(width):
            xt[d, jj] = x[b, j0 + jj, d]
"""

_FORWARD = """
def kernel(q, k, v, mask, mask_b, mask_r, mask_c, bias, bias_b, bias_r, bias_c, flags, scale, out, lse):
    B, Lq, D = q.shape
    Lk, Dv = k.shape[1], v.shape[2]
    has_mask, has_bias, causal = flags[0] != 0, flags[1] != 0, flags[2] != 0
    nqb = (Lq + BQ - 1) // BQ
    per_batch = tasks(nqb, causal)
    for t in numba.prange(B * per_batch):
        b = t // per_batch
        kt = np.empty((D, BK), F)
        s = np.empty(BK, F)
        acc = np.empty((BQ, Dv), F)
        m = np.empty(BQ, F)
        total = np.empty(BQ, F)
        seen = np.empty(BQ, np.bool_)
        for which in range(2):
            p = block_of(t - b * per_batch, which, nqb, causal)
            if p < 0:
                continue
            i0 = p * BQ
            i1 = min(i0 + BQ, Lq)
            acc[:] = F(0.0)
            m[:] = F(-np.inf)
            total[:] = F(0.0)
            seen[:] = False
            stop = min(Lk, i1) if causal else Lk
            for j0 in range(0, stop, BK):
                nk = min(j0 + BK, stop) - j0
                transposed(k, b, j0, nk, D, kt)
                for ii in range(i1 - i0):
                    i = i0 + ii
                    if scores(q, kt, b, i, j0, nk, D, scale, s, mask, mask_b, mask_r, mask_c, bias,
                              bias_b, bias_r, bias_c, has_mask, has_bias, causal):
                        seen[ii] = True
                    top = m[ii]
                    for jj in range(nk):
                        x = s[jj]
                        if x > top or x != x:
                            top = x
                    shift = F(0.0) if top == F(-np.inf) else top
                    alpha = EXP(m[ii] - shift)
                    for jj in range(nk):  # no sum here: a float sum would keep exp from vectorizing
                        s[jj] = EXP(s[jj] - shift)
                    row = F(0.0)
                    for jj in range(nk):
                        row += s[jj]
                    total[ii] = total[ii] * alpha + row
                    m[ii] = top
                    for c in range(Dv):
                        acc[ii, c] *= alpha
                    for jj in range(nk):
                        e = s[jj]
                        for c in range(Dv):
                            acc[ii, c] += e * v[b, j0 + jj, c]
            for ii in range(i1 - i0):
                i = i0 + ii
                if not seen[ii]:
                    lse[b, i] = F(-np.inf)  # out: the mean of v, set by the caller
                elif total[ii] > F(0.0):
                    for c in range(Dv):
                        out[b, i, c] = acc[ii, c] / total[ii]
                    lse[b, i] = m[ii] + LOG(total[ii])
                else:
                    for c in range(Dv):
                        out[b, i, c] = F(np.nan)
                    lse[b, i] = F(np.nan)
"""

# ds = p * (dout . v - delta) for one row, with p = exp(s - lse) in s and dout . v in dp
_ROW_GRAD = """
@numba.njit(inline='always')
def row_grad(s, dp, dout, vt, b, i, nk, Dv, lse_i, delta_i):
    for jj in range(nk):
        s[jj] = EXP(s[jj] - lse_i)
        dp[jj] = F(0.0)
    for c in range(Dv):
        x = dout[b, i, c]
        for jj in range(nk):
            dp[jj] += x * vt[c, jj]
    for jj in range(nk):
        dp[jj] = s[jj] * (dp[jj] - delta_i)
"""

_DQ = """
def kernel(q, k, v, mask, mask_b, mask_r, mask_c, bias, bias_b, bias_r, bias_c, flags, scale, lse,
           delta, dout, dq):
    B, Lq, D = q.shape
    Lk, Dv = k.shape[1], v.shape[2]
    has_mask, has_bias, causal = flags[0] != 0, flags[1] != 0, flags[2] != 0
    nqb = (Lq + BQ - 1) // BQ
    per_batch = tasks(nqb, causal)
    for t in numba.prange(B * per_batch):
        b = t // per_batch
        kt = np.empty((D, BK), F)
        vt = np.empty((Dv, BK), F)
        s = np.empty(BK, F)
        dp = np.empty(BK, F)
        acc = np.empty((BQ, D), F)
        for which in range(2):
            p = block_of(t - b * per_batch, which, nqb, causal)
            if p < 0:
                continue
            i0 = p * BQ
            i1 = min(i0 + BQ, Lq)
            acc[:] = F(0.0)
            stop = min(Lk, i1) if causal else Lk
            for j0 in range(0, stop, BK):
                nk = min(j0 + BK, stop) - j0
                transposed(k, b, j0, nk, D, kt)
                transposed(v, b, j0, nk, Dv, vt)
                for ii in range(i1 - i0):
                    i = i0 + ii
                    if lse[b, i] == F(-np.inf):
                        continue
                    scores(q, kt, b, i, j0, nk, D, scale, s, mask, mask_b, mask_r, mask_c, bias,
                           bias_b, bias_r, bias_c, has_mask, has_bias, causal)
                    row_grad(s, dp, dout, vt, b, i, nk, Dv, lse[b, i], delta[b, i])
                    for jj in range(nk):
                        x = dp[jj]
                        for d in range(D):
                            acc[ii, d] += x * k[b, j0 + jj, d]
            for ii in range(i1 - i0):
                for d in range(D):
                    dq[b, i0 + ii, d] = acc[ii, d] * scale
"""

_DKV = """
def kernel(q, k, v, mask, mask_b, mask_r, mask_c, bias, bias_b, bias_r, bias_c, flags, scale, lse,
           delta, dout, dk, dv):
    B, Lq, D = q.shape
    Lk, Dv = k.shape[1], v.shape[2]
    has_mask, has_bias, causal = flags[0] != 0, flags[1] != 0, flags[2] != 0
    nkb = (Lk + BK - 1) // BK
    per_batch = tasks(nkb, causal)
    for t in numba.prange(B * per_batch):
        b = t // per_batch
        kt = np.empty((D, BK), F)
        vt = np.empty((Dv, BK), F)
        s = np.empty(BK, F)
        dp = np.empty(BK, F)
        dk_acc = np.empty((BK, D), F)
        dv_acc = np.empty((BK, Dv), F)
        for which in range(2):
            p = block_of(t - b * per_batch, which, nkb, causal)
            if p < 0:
                continue
            j0 = p * BK
            nk = min(j0 + BK, Lk) - j0
            transposed(k, b, j0, nk, D, kt)
            transposed(v, b, j0, nk, Dv, vt)
            dk_acc[:] = F(0.0)
            dv_acc[:] = F(0.0)
            for i in range(j0 if causal else 0, Lq):
                if lse[b, i] == F(-np.inf):
                    continue
                scores(q, kt, b, i, j0, nk, D, scale, s, mask, mask_b, mask_r, mask_c, bias, bias_b,
                       bias_r, bias_c, has_mask, has_bias, causal)
                row_grad(s, dp, dout, vt, b, i, nk, Dv, lse[b, i], delta[b, i])
                for jj in range(nk):
                    x = s[jj]
                    for c in range(Dv):
                        dv_acc[jj, c] += x * dout[b, i, c]
                    x = dp[jj]
                    for d in range(D):
                        dk_acc[jj, d] += x * q[b, i, d]
            for jj in range(nk):
                for d in range(D):
                    dk[b, j0 + jj, d] = dk_acc[jj, d] * scale
                for c in range(Dv):
                    dv[b, j0 + jj, c] = dv_acc[jj, c]
"""

_NAMES = {np.dtype(np.float32): ("np.float32", "exp_f32", "log_f32"),
          np.dtype(np.float64): ("np.float64", "exp_f64", "log_f64")}  # fmt: skip


def kernel_source(which: str, dtype) -> str:
    """The source of kernel `which` ("forward", "dq" or "dkv") for `dtype` (float32 or float64)."""
    body = {"forward": _FORWARD, "dq": _ROW_GRAD + _DQ, "dkv": _ROW_GRAD + _DKV}[which]
    f, exp, log = _NAMES[np.dtype(dtype)]
    text = _ROW_SCORES + body.replace("\ndef kernel", "\n" + _HEADER + "def kernel")
    text = text.replace("F(", f"{f}(").replace(", F)", f", {f})").replace("EXP(", f"{exp}(")
    text = text.replace("LOG(", f"{log}(").replace("BQ", str(BLOCK_Q)).replace("BK", str(BLOCK_K))
    return f"# attention kernel: {which}, {np.dtype(dtype).name}\n" + text


# -- operands ---------------------------------------------------------------------------------------------------


def _merged(x):
    """(B, L, width) contiguous from (..., L, width)."""
    return np.ascontiguousarray(x).reshape(-1, *x.shape[-2:])


def _mask_operand(x, batch, dtype):
    """(x as (Bm, rows, cols), batch index per b, row stride, column stride); a 1-element stand-in."""
    if x is None:
        return np.zeros((1, 1, 1), dtype), np.zeros(max(1, int(np.prod(batch))), np.int64), 0, 0
    lead = x.shape[:-2]
    index = np.arange(int(np.prod(lead)), dtype=np.int64).reshape(lead)
    index = np.ascontiguousarray(np.broadcast_to(index, batch)).reshape(-1)
    return _merged(x), index, int(x.shape[-2] != 1), int(x.shape[-1] != 1)


def _operands(q, v, masks, causal):
    """The kernels' mask, bias and flags arguments."""
    mask, bias = split_masks(masks)
    batch = q.shape[:-2]
    flags = np.array([mask is not None, bias is not None, causal], np.int64)
    return (
        *_mask_operand(mask, batch, np.bool_),
        *_mask_operand(bias, batch, q.dtype),
        flags,
    )


def _empty_rows(lse):
    return lse == -np.inf


def attention_step(eqn, cache_dir=None):
    """The step running `eqn` (attention or attention_grad) through the kernels, or None for another
    primitive; returns (step, sources) where step(*operands) -> list of results."""
    from arraystack.backends.numba.kernels import load_kernel

    name = eqn.prim.name
    if name not in ("attention", "attention_grad"):
        return None
    dtype = eqn.inputs[0].aval.dtype
    scale, causal = dtype.type(eqn.params["scale"]), eqn.params["causal"]
    parts = ("forward",) if name == "attention" else ("dq", "dkv")
    sources = [kernel_source(part, dtype) for part in parts]
    kernels = [load_kernel(source, cache_dir=cache_dir)[0] for source in sources]

    def forward(q, k, v, *masks):
        shape = q.shape
        q3, k3, v3 = _merged(q), _merged(k), _merged(v)
        extra = _operands(q, v, masks, causal)
        out = np.empty((*q3.shape[:2], v3.shape[2]), dtype)
        lse = np.empty(q3.shape[:2], dtype)
        kernels[0](q3, k3, v3, *extra, scale, out, lse)
        empty = _empty_rows(lse)
        if empty.any():
            mean = v3.mean(axis=1) if v3.shape[1] else np.zeros((v3.shape[0], v3.shape[2]), dtype)
            out[empty] = np.broadcast_to(mean[:, None, :], out.shape)[empty]
        return [out.reshape(*shape[:-1], v.shape[-1]), lse.reshape(shape[:-1])]

    def backward(q, k, v, *rest):
        masks, (out, lse, dout, dlse) = rest[:-4], rest[-4:]
        q3, k3, v3, dout3 = _merged(q), _merged(k), _merged(v), _merged(dout)
        lse2 = np.ascontiguousarray(lse).reshape(q3.shape[:2])
        delta = (np.sum(dout * out, axis=-1) - dlse).reshape(q3.shape[:2])
        extra = _operands(q, v, masks, causal)
        dq, dk, dv = np.empty_like(q3), np.empty_like(k3), np.empty_like(v3)
        kernels[0](q3, k3, v3, *extra, scale, lse2, delta, dout3, dq)
        kernels[1](q3, k3, v3, *extra, scale, lse2, delta, dout3, dk, dv)
        empty = _empty_rows(lse2)
        if (
            k3.shape[1] and empty.any()
        ):  # an empty row's uniform weights 1 / Lk reach every value row
            spread = np.where(empty[..., None], dout3, dtype.type(0)).sum(axis=1) / dtype.type(
                k3.shape[1]
            )
            dv += spread[:, None, :]
        return [dq.reshape(q.shape), dk.reshape(k.shape), dv.reshape(v.shape)]

    return (forward if name == "attention" else backward), sources


__all__ = ["attention_step", "kernel_source"]
