"""The lane operations of generated reduction loops (codegen_staged.py), as LLVM loops written directly.

Float sums and products in kernels add into LANES explicit lanes on the stack (intrinsics.stack_lanes), in
the fixed order of summation_order.py: the lanes start at the identity (lanes_fill), float32 lanes join the
float64 ones every BLOCK_GROUPS groups (lanes_flush), and at the end the lanes fold in halves
(lanes_fold). Written out as Python loops in each kernel they were about a third of a softmax kernel's
source, and numba's typing and lowering of a kernel cost 2.5x LLVM's time on it; as intrinsics they cost
numba nothing to type and are emitted in place, where LLVM unrolls their constant-count loops into a few
vector instructions (as compiled functions LLVM did not always inline them). No fast-math: every addition
and product is one IEEE operation, in the order written.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from arraystack.backends.numba.summation_order import LANES

_WIDE = types.Array(types.float64, 1, "C")
_NARROW = types.Array(types.float32, 1, "C")


def _data(context, builder, arrty, value):
    return context.make_array(arrty)(context, builder, value).data


def _stage(builder, data, start, count, body):
    """for j in range(count): body(pointer to lane start + j)"""
    with cgutils.for_range(builder, ir.Constant(cgutils.intp_t, count)) as loop:
        body(builder.gep(data, [builder.add(loop.index, ir.Constant(cgutils.intp_t, start))]))


@intrinsic
def lanes_fill(typingctx, lanes, value):
    """Every lane = value (the reduction's identity)."""
    if not (lanes in (_WIDE, _NARROW) and value == lanes.dtype):
        return None

    def codegen(context, builder, signature, args):
        data = _data(context, builder, signature.args[0], args[0])
        _stage(builder, data, 0, LANES, lambda lane: builder.store(args[1], lane))
        return context.get_dummy_value()

    return types.none(lanes, value), codegen


@intrinsic
def lanes_flush(typingctx, wide, narrow):
    """Each float32 lane joins its float64 lane (wide[j] + float64(narrow[j])) and restarts at 0."""
    if not (wide == _WIDE and narrow == _NARROW):
        return None

    def codegen(context, builder, signature, args):
        w = _data(context, builder, signature.args[0], args[0])
        n = _data(context, builder, signature.args[1], args[1])
        zero = ir.Constant(ir.FloatType(), 0.0)

        def join(j):
            wide_lane = builder.gep(w, [j])
            narrow_lane = builder.gep(n, [j])
            wider = builder.fpext(builder.load(narrow_lane), ir.DoubleType())
            builder.store(builder.fadd(builder.load(wide_lane), wider), wide_lane)
            builder.store(zero, narrow_lane)

        with cgutils.for_range(builder, ir.Constant(cgutils.intp_t, LANES)) as loop:
            join(loop.index)
        return context.get_dummy_value()

    return types.none(wide, narrow), codegen


@intrinsic
def lanes_fold(typingctx, wide, product):
    """The lanes' sum (product if `product`, a literal bool), folded in halves: lane j joins lane j + h
    for h = LANES/2, ..., 1, in place; returns lane 0."""
    if not (wide == _WIDE and isinstance(product, types.BooleanLiteral)):
        return None
    multiply = product.literal_value

    def codegen(context, builder, signature, args):
        data = _data(context, builder, signature.args[0], args[0])
        h = LANES // 2
        while h:

            def join(lane, h=h):
                other = builder.gep(lane, [ir.Constant(cgutils.intp_t, h)])
                a, b = builder.load(lane), builder.load(other)
                builder.store(builder.fmul(a, b) if multiply else builder.fadd(a, b), lane)

            _stage(builder, data, 0, h, join)
            h //= 2
        return builder.load(data)

    return types.float64(wide, product), codegen
