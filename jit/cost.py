"""Cost model: flops and bytes of each equation and fused region, from avals alone (`cost_rules`).

Calling convention: `cost_rules[p](eqn) -> (flops, bytes)`, either None when unknown (a while loop's trip
count depends on data). Flops count arithmetic, a transcendental function as TRANSCENDENTAL flops; bytes count
memory traffic, each input and output once (Literals are free). Views (reshape, transpose, ...) cost nothing:
their consumers read the bytes. A fused region's bytes are its inputs and outputs only, since its
intermediates never reach memory. arraystack.ir.cost_report.graph_cost() gives a CostReport: one row per top-level equation (a kernel
launch) and, per device, a predicted time. Devices are read as data: key, peak(dtype), bandwidth,
launch_latency (arraystack.backends.hardware.Device).
"""

from __future__ import annotations

import math

from arraystack.ir import attention as at
from arraystack.ir import control as c
from arraystack.ir import fft as f
from arraystack.ir import linalg as la
from arraystack.ir import primitives as p
from arraystack.ir import sorting as so
from arraystack.ir import structural as s
from arraystack.ir.ir import Literal, Var

TRANSCENDENTAL = 10  # flops per exp, log, tanh, sin, ...: a polynomial approximation's operations
COMPLEX_FACTOR = 4  # real flops per complex operation (a multiply-add is 8 real flops, an add 2)

cost_rules: dict = {}


def nbytes(atom) -> int:
    """Memory one operand occupies; a Literal is an immediate and occupies none."""
    if isinstance(atom, Literal):
        return 0
    return atom.aval.size * atom.aval.dtype.itemsize


def io_bytes(eqn) -> int:
    """Bytes an equation moves: each distinct input Var and each output once."""
    distinct = {id(x): x for x in eqn.inputs if isinstance(x, Var)}
    return sum(nbytes(x) for x in distinct.values()) + sum(nbytes(y) for y in eqn.outputs)


def _complex(eqn) -> int:
    avals = [x.aval for x in eqn.inputs] + [y.aval for y in eqn.outputs]
    return COMPLEX_FACTOR if any(a.dtype.kind == "c" for a in avals) else 1


# -- elementwise: flops per output element ---------------------------------------------------------------


def _elementwise(weight):
    def rule(eqn):
        return weight * eqn.outputs[0].aval.size * _complex(eqn), io_bytes(eqn)

    return rule


ONE_FLOP = (
    p.neg_p, p.abs_p, p.sign_p, p.floor_p, p.ceil_p, p.trunc_p, p.rint_p, p.isnan_p, p.isinf_p,
    p.isfinite_p, p.signbit_p, p.not_p, p.conj_p, p.real_p, p.imag_p, p.popcount_p, p.add_p, p.sub_p,
    p.mul_p, p.max_p, p.min_p, p.copysign_p, p.nextafter_p, p.and_p, p.or_p, p.xor_p, p.shift_left_p,
    p.shift_right_p, p.eq_p, p.ne_p, p.lt_p, p.le_p, p.gt_p, p.ge_p, p.select_p, p.convert_p,
    p.ldexp_p, p.frexp_p, p.complex_p,
)  # fmt: skip
SEVERAL_FLOPS = (p.div_p, p.sqrt_p, p.floordiv_p, p.rem_p, p.fmod_p, p.hypot_p)  # fmt: skip
TRANSCENDENTALS = (
    p.exp_p, p.exp2_p, p.expm1_p, p.log_p, p.log2_p, p.log10_p, p.log1p_p, p.cbrt_p, p.sin_p,
    p.cos_p, p.tan_p, p.asin_p, p.acos_p, p.atan_p, p.atan2_p, p.sinh_p, p.cosh_p, p.tanh_p,
    p.asinh_p, p.acosh_p, p.atanh_p, p.erf_p, p.logistic_p,
)  # fmt: skip
for _prim in ONE_FLOP:
    cost_rules[_prim] = _elementwise(1)
for _prim in SEVERAL_FLOPS:
    cost_rules[_prim] = _elementwise(4)
for _prim in TRANSCENDENTALS:
    cost_rules[_prim] = _elementwise(TRANSCENDENTAL)
cost_rules[p.pow_p] = _elementwise(2 * TRANSCENDENTAL)  # exp(y * log(x))
cost_rules[p.gcd_p] = _elementwise(2 * TRANSCENDENTAL)  # a loop of remainders


# -- data movement: no flops -----------------------------------------------------------------------------


def _free(eqn):
    return 0, 0


def _moves(eqn):
    return 0, io_bytes(eqn)


for _prim in (s.reshape_p, s.broadcast_in_dim_p, s.transpose_p, s.slice_p, s.rev_p, s.bitcast_p):
    cost_rules[_prim] = _free  # views of their operand
cost_rules[p.stop_gradient_p] = _free  # the identity
cost_rules[p.checkpoint_name_p] = _free  # the identity
cost_rules[c.barrier_p] = _free  # the identity on its operands
for _prim in (p.copy_p, p.iota_p, s.full_p, s.concatenate_p, s.pad_p, s.gather_p, s.update_slice_p):
    cost_rules[_prim] = _moves


def _scatter(eqn):
    updates = eqn.inputs[1]
    flops = 0 if eqn.params["update"] == "set" else updates.aval.size * _complex(eqn)
    return flops, io_bytes(eqn)


cost_rules[s.scatter_p] = _scatter


# -- reductions, scans, sorting: a flop per element read ------------------------------------------------


def _per_input_element(eqn):
    return eqn.inputs[0].aval.size * _complex(eqn), io_bytes(eqn)


for _prim in (
    s.reduce_sum_p, s.reduce_prod_p, s.reduce_max_p, s.reduce_min_p, s.reduce_and_p, s.reduce_or_p,
    s.argmax_p, s.argmin_p, s.cumsum_p, s.cumprod_p, s.cummax_p, s.cummin_p, s.nonzero_p,
    so.partition_p, so.argpartition_p,
):  # fmt: skip
    cost_rules[_prim] = _per_input_element


def _sort(eqn):
    x = eqn.inputs[0].aval
    length = x.shape[eqn.params["dimension"]] if x.ndim else 1
    compares = x.size * math.log2(max(length, 2)) * eqn.params["num_keys"]
    return compares, io_bytes(eqn)


def _searchsorted(eqn):
    a, v = eqn.inputs
    return v.aval.size * math.log2(max(a.aval.size, 2)), io_bytes(eqn)


cost_rules[so.sort_p] = _sort
cost_rules[so.searchsorted_p] = _searchsorted


# -- contraction and library calls ----------------------------------------------------------------------


def _dot_general(eqn):
    x = eqn.inputs[0].aval
    (contract, _), _ = eqn.params["dimension_numbers"]
    k = math.prod(x.shape[a] for a in contract)
    return 2 * eqn.outputs[0].aval.size * k * _complex(eqn), io_bytes(eqn)


cost_rules[s.dot_general_p] = _dot_general


def _matrix(formula):
    """A linear-algebra routine: formula(m, n, k) flops per matrix of the batch (k: right-hand sides)."""

    def rule(eqn):
        a = eqn.inputs[0].aval
        m, n = a.shape[-2:]
        k = 1
        if len(eqn.inputs) > 1:
            b = eqn.inputs[1].aval
            k = b.shape[-1] if b.ndim == a.ndim else 1
        batch = math.prod(a.shape[:-2])
        return batch * formula(m, n, k) * _complex(eqn), io_bytes(eqn)

    return rule


# Golub & Van Loan operation counts (LAPACK's routines for each).
cost_rules[la.cholesky_p] = _matrix(lambda m, n, k: n**3 / 3)
cost_rules[la.solve_p] = _matrix(lambda m, n, k: 2 * n**3 / 3 + 2 * n * n * k)
cost_rules[la.det_p] = _matrix(lambda m, n, k: 2 * n**3 / 3)
cost_rules[la.slogdet_p] = _matrix(lambda m, n, k: 2 * n**3 / 3)
cost_rules[la.eigh_p] = _matrix(lambda m, n, k: 9 * n**3)
cost_rules[la.eigvalsh_p] = _matrix(lambda m, n, k: 4 * n**3 / 3)
cost_rules[la.eig_p] = _matrix(lambda m, n, k: 25 * n**3)
cost_rules[la.eigvals_p] = _matrix(lambda m, n, k: 10 * n**3)
cost_rules[la.svd_p] = _matrix(lambda m, n, k: 4 * m * n * min(m, n) + 8 * min(m, n) ** 3)
cost_rules[la.svdvals_p] = _matrix(lambda m, n, k: 4 * m * n * min(m, n))
cost_rules[la.qr_p] = _matrix(lambda m, n, k: 2 * m * n * min(m, n) - 2 * min(m, n) ** 3 / 3)
cost_rules[la.lstsq_p] = _matrix(lambda m, n, k: 4 * m * n * min(m, n) + 2 * m * n * k)


def _fft(eqn):
    """5 N log2 N per complex transform of length N (half for the real transforms), per axis."""
    x, y = eqn.inputs[0].aval, eqn.outputs[0].aval
    size = max(x.size, y.size)
    flops = sum(5 * size * math.log2(max(n, 2)) for n in eqn.params["lengths"])
    if eqn.params["fft_type"] in ("rfft", "irfft"):
        flops /= 2
    return flops, io_bytes(eqn)


cost_rules[f.fft_p] = _fft


def _attention(over_d, over_dv):
    """Per score pair: a multiply-add per element of `over_d` products over D and `over_dv` over Dv, and an
    exp; bytes are the operands and results only: the scores stay in tiles (causal: the lower triangle)."""

    def rule(eqn):
        q, k = eqn.inputs[0].aval, eqn.inputs[1].aval
        lq, lk, d, dv = q.shape[-2], k.shape[-2], q.shape[-1], eqn.inputs[2].aval.shape[-1]
        pairs = sum(min(i + 1, lk) for i in range(lq)) if eqn.params["causal"] else lq * lk
        pairs *= math.prod(q.shape[:-2])
        return pairs * (2 * over_d * d + 2 * over_dv * dv + TRANSCENDENTAL), io_bytes(eqn)

    return rule


cost_rules[at.attention_p] = _attention(1, 1)  # q k^T, p v
cost_rules[at.attention_grad_p] = _attention(3, 2)  # q k^T, ds k, ds^T q; p^T dout, dout v^T


# -- regions and control flow ---------------------------------------------------------------------------


def graph_totals(graph) -> tuple:
    """(flops, bytes, kernels) of a graph run equation by equation; None where unknown."""
    flops, nbytes_, kernels = 0, 0, 0
    for eqn in graph.eqns:
        ef, eb = eqn_cost(eqn)
        flops = _add(flops, ef)
        nbytes_ = _add(nbytes_, eb)
        kernels = _add(kernels, eqn_kernels(eqn, ef, eb))
    return flops, nbytes_, kernels


def _add(a, b):
    return None if a is None or b is None else a + b


def _fusion(eqn):
    flops = 0
    for inner in eqn.params["graph"].eqns:
        flops = _add(flops, eqn_cost(inner)[0])
    return flops, io_bytes(eqn)


def _switch(eqn):
    totals = [graph_totals(g) for g in eqn.params["branches"]]
    return _max(t[0] for t in totals), _max(t[1] for t in totals)


def _max(values):
    values = list(values)
    return None if any(v is None for v in values) else max(values, default=0)


def _scan(eqn):
    flops, nbytes_, _ = graph_totals(eqn.params["body"])
    return _times(eqn.params["length"], flops), _times(eqn.params["length"], nbytes_)


def _times(n, value):
    return None if value is None else n * value


def _while(eqn):
    return None, None  # the trip count depends on data


cost_rules[c.fusion_p] = _fusion
cost_rules[c.switch_p] = _switch
cost_rules[c.scan_p] = _scan
cost_rules[c.while_p] = _while


def eqn_cost(eqn) -> tuple:
    rule = cost_rules.get(eqn.prim)
    if rule is None:
        raise NotImplementedError(
            f"cost model: primitive `{eqn.prim.name}` has no entry in cost_rules (jit/cost.py)"
        )
    return rule(eqn)


def eqn_kernels(eqn, flops, nbytes_):
    """Kernel launches an equation costs: one, none for a free one, a loop's body per iteration."""
    if eqn.prim is c.scan_p:
        return _times(eqn.params["length"], graph_totals(eqn.params["body"])[2])
    if eqn.prim is c.switch_p:
        return _max(graph_totals(g)[2] for g in eqn.params["branches"])
    if eqn.prim is c.while_p:
        return None
    return 0 if flops == 0 and nbytes_ == 0 else 1


__all__ = ["TRANSCENDENTAL", "cost_rules", "eqn_cost", "eqn_kernels", "graph_totals", "io_bytes", "nbytes"]
