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
