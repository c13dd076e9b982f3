"""NUMBA_FUSION: the FusionPolicy the numba backend hands fuse_elementwise, and the lists behind it.

Regions become loop nests of scalar expressions (lowering.py, codegen.py). Complex values join them only
through COMPLEX_KERNEL's primitives (those the kernels compute with NumPy's bits), and the functions a
generated loop computes slower than NumPy's whole-array loops stay out.
"""

from __future__ import annotations

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.ir import Literal
from arraystack.ir.passes.fusion_policy import FusionPolicy

# Float functions a generated CPU loop can only compute by calling scalar libm routines, which do not
# vectorize: NumPy's own whole-array loops are 2-7x faster (float32 sin(x)*2+1 on 1e6 elements, with libm's
# sin: 9.6 ms fused, 1.9 ms as a NumPy step then a fused *2+1) and their bits are the reference tier's. They stay out of
# regions, so the rest of a chain still fuses. (sin, cos, tan and log1p have vectorized versions: numba's
# mathlib/trig.py and mathlib/log1p.py.)
WHOLE_ARRAY_FLOAT = frozenset(
    prim
    for prim in p.abstract_eval_rules
    if prim.name
    in {
        "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "exp2",
        "atan2", "hypot", "pow",
    }
)  # fmt: skip
# float32 sin, cos and tan join elementwise regions only, never one that reduces: a backend's fast float32
# version holds below 2**20, and an elementwise loop can check each block's arguments and take it (the
# numba backend: 0.6 ns an element, NumPy's loop 0.4 plus a memory pass), where a reducing loop's passes
# would run the full range's version (1.4 ns, with table gathers)
CHECKED_FLOAT32 = frozenset(
    prim for prim in p.abstract_eval_rules if prim.name in {"sin", "cos", "tan"}
)


# the primitives kernels compute on complex values, bit for bit as NumPy (lowering.py,
# mathlib/complex_arith.py); converts join only to complex or bool (complex -> real warns in NumPy)
COMPLEX_KERNEL = frozenset(
    prim
    for prim in p.abstract_eval_rules
    if prim.name
    in {
        "add", "sub", "mul", "div", "neg", "abs", "conj", "real", "imag", "complex", "eq", "ne", "select",
        "convert", "stop_gradient", "exp", "sqrt", "log", "log2", "log10",
    }
)  # fmt: skip


def float32_integer_power(eqn):
    """n for a float32 x ** n with a literal n of 3 or 4, else None. Those fuse: a backend computes them in
    float64 and rounds once, 0.3 ns an element (NumPy's float32 power: 0.95 ns for positive bases, a scalar
    loop of 45-86 ns for negative ones, which split GELU's tanh approximation around it). x ** 2 is x * x
    already (passes/algebra.py). A general float32 pow, exp(y log|x|) in float64, took 3.5 ns: slower than
    NumPy's SIMD loop on positive bases, so other exponents keep NumPy's loop."""
    if eqn.prim is not p.pow_p or eqn.outputs[0].aval.dtype != "float32":
        return None
    x, e = eqn.inputs
    if x.aval.dtype != "float32" or not isinstance(e, Literal):
        return None
    value = float(e.value)
    return int(value) if value in (3.0, 4.0) else None


def _elementwise(eqn) -> bool:
    """Complex operands or results only in COMPLEX_KERNEL's primitives; no WHOLE_ARRAY_FLOAT function
    with a float result, except float32_integer_power's."""
    if any(v.aval.dtype.kind == "c" for v in eqn.inputs + eqn.outputs):
        if eqn.prim is p.convert_p:
            return eqn.outputs[0].aval.dtype.kind in "bc"
        return eqn.prim in COMPLEX_KERNEL
    if eqn.prim in WHOLE_ARRAY_FLOAT and eqn.outputs[0].aval.dtype.kind == "f":
        return float32_integer_power(eqn) is not None
    return True


def _reduction(eqn) -> bool:
    """Every reduction of the region model joins regions: complex sums run as two float sums
    (codegen_widen.py), complex products and extrema as codegen_complex.py says."""
    return eqn.inputs[0].aval.dtype.kind != "c" or eqn.prim in _COMPLEX_REDUCTIONS


_COMPLEX_REDUCTIONS = frozenset({s.reduce_sum_p, s.reduce_prod_p, s.reduce_max_p, s.reduce_min_p})


def _checked(eqn) -> bool:
    return eqn.prim in CHECKED_FLOAT32 and eqn.outputs[0].aval.dtype == "float32"


NUMBA_FUSION = FusionPolicy(
    "numba", elementwise=_elementwise, reduction=_reduction, checked=_checked, reducing_regions=True
)
