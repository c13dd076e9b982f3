"""Every differentiable elementwise primitive against central finite differences (float64, forward and
reverse, second order), through the primitive itself and through the public function that produces it;
complex inputs for the holomorphic ones; rank-0 operands broadcast against arrays."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from arraystack.ir import bind
from arraystack.ir import primitives as p
from arraystack.ir.ad import jvp_rules, vjp_rules

RNG = numpy.random.default_rng(7)
UNIT = RNG.uniform(-0.9, 0.9, 6)  # inside every domain below
POS = RNG.uniform(0.3, 2.0, 6)
BIG = RNG.uniform(1.2, 3.0, 6)
AWAY = numpy.array([-1.7, -0.6, 0.4, 0.9, 1.3, 2.2])  # away from integers and zero: kinks stay far


def prim_fn(prim):
    return lambda *xs: ast.asarray(bind(prim, *[x._value for x in xs]))


UNARY = {  # primitive: (input, public function or None, holomorphic?)
    p.neg_p: (UNIT, ast.negative, True),
    p.abs_p: (AWAY, ast.abs, False),
    p.exp_p: (UNIT, ast.exp, True),
    p.exp2_p: (UNIT, ast.exp2, True),
    p.expm1_p: (UNIT, ast.expm1, True),
    p.log_p: (POS, ast.log, True),
    p.log2_p: (POS, ast.log2, True),
    p.log10_p: (POS, ast.log10, True),
    p.log1p_p: (UNIT, ast.log1p, True),
    p.sqrt_p: (POS, ast.sqrt, True),
    p.cbrt_p: (POS, ast.cbrt, False),
    p.sin_p: (UNIT, ast.sin, True),
    p.cos_p: (UNIT, ast.cos, True),
    p.tan_p: (UNIT, ast.tan, True),
    p.asin_p: (UNIT, ast.arcsin, True),
    p.acos_p: (UNIT, ast.arccos, True),
    p.atan_p: (UNIT, ast.arctan, True),
    p.sinh_p: (UNIT, ast.sinh, True),
    p.cosh_p: (UNIT, ast.cosh, True),
    p.tanh_p: (UNIT, ast.tanh, True),
    p.asinh_p: (UNIT, ast.arcsinh, True),
    p.acosh_p: (BIG, ast.arccosh, True),
    p.atanh_p: (UNIT, ast.arctanh, True),
    p.erf_p: (UNIT, None, False),
    p.logistic_p: (UNIT, None, True),
    p.copy_p: (UNIT, ast.copy, True),
    p.conj_p: (UNIT, ast.conj, False),
    p.real_p: (UNIT, ast.real, False),
    p.imag_p: (UNIT, ast.imag, False),
    p.floor_p: (AWAY, ast.floor, False),
    p.ceil_p: (AWAY, ast.ceil, False),
    p.trunc_p: (AWAY, ast.trunc, False),
    p.rint_p: (AWAY, ast.rint, False),
    p.sign_p: (AWAY, ast.sign, False),
}
BINARY = {  # primitive: (x, y, public function or None)
    p.add_p: (UNIT, POS, ast.add),
    p.sub_p: (UNIT, POS, ast.subtract),
    p.mul_p: (UNIT, POS, ast.multiply),
    p.div_p: (UNIT, POS, ast.divide),
    p.max_p: (UNIT, UNIT[::-1], ast.maximum),
    p.min_p: (UNIT, UNIT[::-1], ast.minimum),
    p.atan2_p: (UNIT, POS, ast.arctan2),
    p.hypot_p: (UNIT, POS, ast.hypot),
    p.pow_p: (POS, UNIT, ast.power),
    p.copysign_p: (AWAY, UNIT, ast.copysign),
    p.fmod_p: (BIG * 2, POS, ast.fmod),
    p.rem_p: (BIG * 2, POS, ast.remainder),
    p.floordiv_p: (BIG * 2 + 0.05, POS, ast.floor_divide),
    p.nextafter_p: (UNIT, POS, ast.nextafter),
    p.complex_p: (UNIT, POS, None),
}


@pytest.mark.parametrize("prim", list(UNARY), ids=lambda q: q.name)
def test_unary(prim, check_grads):
    x, public, holomorphic = UNARY[prim]
    check_grads(prim_fn(prim), [x], order=2)
    if public is not None:
        check_grads(public, [x])
    if holomorphic:
        z = x + 0.25j
        check_grads(prim_fn(prim), [z])


@pytest.mark.parametrize("prim", list(BINARY), ids=lambda q: q.name)
def test_binary(prim, check_grads):
    x, y, public = BINARY[prim]
    check_grads(prim_fn(prim), [x, y], order=2 if prim is not p.complex_p else 1)
    if public is not None:
        check_grads(public, [x, y])
        check_grads(lambda a: public(a, ast.asarray(y[2])), [x])  # a rank-0 operand broadcasts
        check_grads(lambda b: public(ast.asarray(x), b), [numpy.asarray(y[3])])
    if prim in (p.add_p, p.sub_p, p.mul_p, p.div_p, p.pow_p):
        check_grads(prim_fn(prim), [x + 0.5j, y - 0.25j])


def test_select_ldexp_frexp_convert_stop_gradient(check_grads):
    mask = UNIT > 0
    check_grads(lambda a, b: ast.where(mask, a, b), [UNIT, POS], order=2)
    check_grads(lambda a: ast.ldexp(a, numpy.array([1, -2, 3, 0, 1, 2])), [UNIT], order=2)
    check_grads(lambda a: ast.frexp(a)[0], [AWAY])
    check_grads(lambda a: a.astype(numpy.float32).astype(numpy.float64) * 0 + a, [UNIT])
    check_grads(lambda a: (a + 0j).astype(numpy.complex128) * (1 + 2j), [UNIT])
    # stop_gradient differs from finite differences by design: d/da sum(stop(a) * a) = a
    g = ast.grad(lambda a: ast.sum(ast.stop_gradient(a) * a))(UNIT)
    numpy.testing.assert_array_equal(numpy.asarray(g), UNIT)
    assert float(ast.jvp(lambda a: ast.sum(ast.stop_gradient(a) * 2.0), (UNIT,), (UNIT,))[1]) == 0.0
    # checkpoint_name is the identity, derivatives included
    check_grads(lambda a: ast.sin(ast.checkpoint_name(a * a, "s")), [UNIT], order=2)


def test_every_elementwise_primitive_is_covered_here_or_not_differentiable():
    from arraystack.ir.ad.rules_elementwise import ELEMENTWISE, not_differentiable

    tested = set(UNARY) | set(BINARY)
    tested |= {p.select_p, p.ldexp_p, p.frexp_p, p.convert_p, p.stop_gradient_p, p.checkpoint_name_p}
    for prim in ELEMENTWISE:
        if prim in not_differentiable:
            continue
        assert prim in jvp_rules and prim in vjp_rules, prim
        assert prim in tested, f"{prim} has rules but no finite-difference test"
