"""Complex reductions in generated kernels (codegen_staged.py, codegen_columns.py): products in
complex128 lanes, max and min by NumPy's lexicographic rule.

- reduce_prod: summation_order.py's product order, unchanged: lanes, short rows and chunk results
  start at 1 + 0j (NumPy's complex prod starts from its identity too: np.prod([inf + 0j]) is
  inf + nan j) and multiply as mathlib/complex_arith.complex_mul (NumPy's array loop: one product of
  each part fused). complex64 products arrive widened to complex128 (codegen_widen.py) and are
  rounded once. Staged kernels keep the lanes' real and imaginary parts in two float64 stack arrays
  (intrinsics.stack_lanes holds floats only); column kernels, (LANES, width) complex128 matrices.
- reduce_max / reduce_min: the left fold of NumPy's complex maximum (minimum) in the kernel's loop
  order, row-major over the reduced axes. NumPy's rule keeps the accumulator if it holds a NaN (in
  either part) or is not beaten, so the result is one of the elements, bit for bit: the first
  holding a NaN, else the first of the largest (smallest) in lexicographic order (real, then
  imaginary part; 0.0 equals -0.0). That is NumPy's element for every reduction over one axis,
  whatever the operand's layout (NumPy walks an axis in index order, negative strides included), and
  for reductions over several axes of a C-ordered value; over several axes of another layout NumPy
  walks memory order (see combine's Note). The fold starts from -inf - inf j (max; inf + inf j for
  min), which NumPy's rule replaces by the first element unless that element is that very value.
"""

from __future__ import annotations

import numpy as np

from arraystack.backends.numba.lowering import literal
from arraystack.backends.numba.summation_order import LANES

WIDE = np.dtype(np.complex128)


def is_complex_product(kind, dtype) -> bool:
    return kind == "prod" and np.dtype(dtype).kind == "c"


def identity(kind, dtype) -> str:
    """The accumulator's start for a complex reduction of `kind` ('prod', 'max', 'min')."""
    if kind == "prod":
        return literal(1, dtype)
    bound = -np.inf if kind == "max" else np.inf
    return literal(complex(bound, bound), dtype)


def combine(kind, acc, value, columns=False) -> str:
    """The expression for acc after `value`: complex_mul(acc, value), or NumPy's complex maximum
    (minimum): acc if acc holds a NaN or beats or equals value (in the real part with neither
    imaginary part NaN, or an equal real part and an imaginary part at least as large), else value.

    columns=True (one accumulator per column, updated along a row: codegen_columns.py): the
    comparisons joined by & and |, without a branch, so the loop over the columns vectorizes
    (complex128 (1000, 1000) over axis 0, one thread: 3.2 -> 0.5 ms, NumPy 1.4). A single
    accumulator keeps `or` and `and`: its branches are predicted (most values do not beat it),
    where a select makes every step wait for the comparisons (a 1e6-element max: 1.1 ms, 5.1 as a
    select)."""
    if kind == "prod":
        return f"complex_mul({acc}, {value})"
    beats = ">" if kind == "max" else "<"
    a, v = acc, value
    either, both = (" | ", " & ") if columns else (" or ", " and ")
    keep = either.join(
        [
            f"({a}.real != {a}.real)",
            f"({a}.imag != {a}.imag)",
            f"(({a}.real {beats} {v}.real){both}({a}.imag == {a}.imag)"
            f"{both}({v}.imag == {v}.imag))",
            f"(({a}.real == {v}.real){both}({a}.imag {beats}= {v}.imag))",
        ]
    )
    # Note: over several axes NumPy walks the value in memory order (axes by decreasing |stride|);
    # the kernel and its twin walk row-major whatever the layout, so for another layout (x.T reduced
    # whole) NumPy may return another of several NaNs or of equal values with other signed zeros
    return f"({a} if {keep} else {v})"


# -- products in the lanes of staged kernels: {acc}_r and {acc}_i hold the lanes' real and imaginary
# parts


def emit_stack_lanes(code, acc):
    code.line(f"{acc}_r = stack_lanes(np.float64(0.0), {LANES})")
    code.line(f"{acc}_i = stack_lanes(np.float64(0.0), {LANES})")


def emit_fill(code, acc):
    """Every lane = 1 + 0j."""
    code.line(f"lanes_fill({acc}_r, np.float64(1.0))")
    code.line(f"lanes_fill({acc}_i, np.float64(0.0))")


def emit_lane_update(code, acc, lane, value):
    """lane = lane * value."""
    code.line(f"{acc}_t = complex_mul(complex_of({acc}_r[{lane}], {acc}_i[{lane}]), {value})")
    code.line(f"{acc}_r[{lane}] = {acc}_t.real")
    code.line(f"{acc}_i[{lane}] = {acc}_t.imag")


def emit_fold(code, acc, result):
    """result = the lanes' product, folded in halves: lane j times lane j + h, h = LANES/2 ... 1."""
    h = LANES // 2
    while h:
        with code.block(f"for j in range({h}):"):
            lane = f"complex_of({acc}_r[j], {acc}_i[j])"
            other = f"complex_of({acc}_r[j + {h}], {acc}_i[j + {h}])"
            code.line(f"{acc}_t = complex_mul({lane}, {other})")
            code.line(f"{acc}_r[j] = {acc}_t.real")
            code.line(f"{acc}_i[j] = {acc}_t.imag")
        h //= 2
    code.line(f"{result} = complex_of({acc}_r[0], {acc}_i[0])")
