"""The accumulating operations of generated reduction loops, as LLVM instructions with their own flags.

A kernel compiles without fast-math, so user arithmetic rounds as NumPy's loops do; only these operations
carry a freedom (reassociation, NaN-blindness), which is what lets LLVM vectorize a reduction loop.
(mathlib.py holds its own intrinsics: numba's disk cache of its functions sees edits to that file only.)
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic


def _reassociable(opname):
    @intrinsic
    def op(typingctx, acc, value):
        """acc <op> value with LLVM's `reassoc` flag on this one instruction: a loop accumulating through it
        vectorizes into partial sums (the reordering NumPy's pairwise sums make too)."""
        if not (isinstance(acc, types.Float) and acc == value):
            return None

        def codegen(context, builder, signature, args):
            return getattr(builder, opname)(args[0], args[1], flags=("reassoc",))

        return acc(acc, value), codegen

    return op


reduce_add = _reassociable("fadd")
reduce_mul = _reassociable("fmul")


def _nan_blind(op):
    @intrinsic
    def pick(typingctx, acc, value):
        """acc if not (value <op> acc) else value, with `nnan nsz` on this compare and select only: the loop
        becomes a vector max/min reduction. A NaN among the values leaves acc unspecified, so the caller
        tracks NaNs itself (`seen |= value != value`) and returns NaN when it saw one."""
        if not (isinstance(acc, types.Float) and acc == value):
            return None

        def codegen(context, builder, signature, args):
            acc_, value_ = args
            flags = ("nnan", "nsz")
            better = builder.fcmp_ordered(op, value_, acc_, flags=flags)
            return builder.select(better, value_, acc_, flags=flags)

        return acc(acc, value), codegen

    return pick


reduce_max = _nan_blind(">")
reduce_min = _nan_blind("<")


@intrinsic
def prefer_wide_vectors(typingctx):
    """Marks the LLVM function this call is compiled into with "prefer-vector-width"="512" (no code).

    LLVM's x86 cost model prefers 256-bit vectors on AVX-512 CPUs (skylake-avx512, cascadelake, ...),
    so a float32 loop runs 8 lanes where the CPU has 16. Kernels whose loops call mathlib's polynomials
    (compute-bound) call this once inside their outermost loop (a parallel loop's body is a function
    of its own). Elementwise results do not change; a float reduction in such a kernel (reassociable,
    see reduce_add) adds in partial sums of 16-lane vectors instead of 8-lane ones: the order stays
    fixed for a given CPU and does not depend on the thread count. On CPUs without 512-bit registers
    it changes nothing."""

    def codegen(context, builder, signature, args):
        # llvmlite's FunctionAttributes accepts only enum attributes; this is a string attribute,
        # written as is into the function's attribute list
        set.add(builder.function.attributes, '"prefer-vector-width"="512"')
        return context.get_dummy_value()

    return types.none(), codegen
