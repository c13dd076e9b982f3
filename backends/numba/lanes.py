"""The lane operations of generated reduction loops (codegen_staged.py), as LLVM loops written directly.

Float sums and products in kernels add into LANES explicit lanes on the stack (intrinsics.stack_lanes), in
the fixed order of summation_order.py: the lanes start at the identity (lanes_fill), float32 lanes join the
float64 ones every BLOCK_GROUPS groups (lanes_flush), and at the end the lanes fold in halves
(lanes_fold). Written out as Python loops in each kernel they were about a third of a softmax kernel's
source, and numba's typing and lowering of a kernel cost 2.5x LLVM's time on it; as intrinsics they cost
numba nothing to type and are emitted in place (as compiled functions LLVM did not always inline them).
They are written as whole-vector loads and stores (VECTOR lanes each): while the group loop keeps the
lanes in registers, LLVM promotes such accesses to registers too, where element-by-element loops made it
split the lanes into 64-bit pieces and rebuild them with a hundred extract/insert instructions at each
flush (a sum of squares over 1e7 float32 in a parallel kernel ran 25% slower than its serial twin).
No fast-math: every addition and product is one IEEE operation, in the order written, lane by lane.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from arraystack.backends.numba.summation_order import LANES

_WIDE = types.Array(types.float64, 1, "C")
_NARROW = types.Array(types.float32, 1, "C")


VECTOR = 8  # float64 lanes per vector access (float32: twice as many); LANES is a multiple of 16


def _data(context, builder, arrty, value):
    return context.make_array(arrty)(context, builder, value).data


def _vector_at(builder, data, start, count):
    """A pointer to `count` lanes from lane `start`, as one LLVM vector."""
    element = data.type.pointee
    lane = builder.gep(data, [ir.Constant(cgutils.intp_t, start)])
    return builder.bitcast(lane, ir.VectorType(element, count).as_pointer())


def _align(data):
    return 8 if isinstance(data.type.pointee, ir.DoubleType) else 4


def _load(builder, data, start, count):
    return builder.load(_vector_at(builder, data, start, count), align=_align(data))


def _store(builder, value, data, start):
    builder.store(value, _vector_at(builder, data, start, value.type.count), align=_align(data))


def _splat(value, count):
    return ir.Constant(ir.VectorType(value.type, count), [value] * count)


@intrinsic
def lanes_fill(typingctx, lanes, value):
    """Every lane = value (the reduction's identity, a constant)."""
    if not (lanes in (_WIDE, _NARROW) and value == lanes.dtype):
        return None

    def codegen(context, builder, signature, args):
        data = _data(context, builder, signature.args[0], args[0])
        count = VECTOR if signature.args[0] == _WIDE else 2 * VECTOR
        vector = ir.Constant(ir.VectorType(args[1].type, count), ir.Undefined)
        for k in range(count):
            vector = builder.insert_element(vector, args[1], ir.Constant(ir.IntType(32), k))
        for start in range(0, LANES, count):
            _store(builder, vector, data, start)
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
        i32 = ir.IntType(32)
        for start in range(0, LANES, 2 * VECTOR):
            narrow_lanes = _load(builder, n, start, 2 * VECTOR)
            for half in (0, VECTOR):
                picks = ir.Constant(ir.VectorType(i32, VECTOR), [half + k for k in range(VECTOR)])
                part = builder.shuffle_vector(narrow_lanes, narrow_lanes, picks)
                wider = builder.fpext(part, ir.VectorType(ir.DoubleType(), VECTOR))
                joined = builder.fadd(_load(builder, w, start + half, VECTOR), wider)
                _store(builder, joined, w, start + half)
            _store(builder, _splat(ir.Constant(ir.FloatType(), 0.0), 2 * VECTOR), n, start)
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
            count = min(h, VECTOR)  # whole vectors while the halves are that long, then single lanes
            for start in range(0, h, count):
                a = _load(builder, data, start, count)
                b = _load(builder, data, start + h, count)
                _store(builder, builder.fmul(a, b) if multiply else builder.fadd(a, b), data, start)
            h //= 2
        return builder.load(data)

    return types.float64(wide, product), codegen
