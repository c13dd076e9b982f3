"""The accumulating operations of generated reduction loops, as LLVM instructions with their own flags.

A kernel compiles without fast-math, so user arithmetic rounds as NumPy's loops do; only the max/min picks
carry a freedom (NaN-blindness), which is what lets LLVM vectorize those reductions. Float sums and
products reassociate nothing: they add into explicit lanes on the stack (stack_lanes), in the fixed order
of summation_order.py.
(mathlib/exp_log.py holds its own intrinsics: numba's disk cache of its functions sees edits to that file only.)
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic


@intrinsic
def stack_lanes(typingctx, like, count):
    """An uninitialized 1-d C array of `count` (a literal int) values of like's float type, on the stack of
    the function this call is compiled into (its entry block: one array per call of that function, so a
    call inside a parallel loop's body gets one per thread's share of the loop). Reused, it must be
    refilled by the caller. LLVM knows it aliases nothing else, so loops over it vectorize and its
    elements may live in registers; it must not outlive the function (do not return or store it)."""
    if not (isinstance(like, types.Float) and isinstance(count, types.IntegerLiteral)):
        return None
    n = count.literal_value
    arrty = types.Array(like, 1, "C")

    def codegen(context, builder, signature, args):
        from numba.core import cgutils
        from numba.np.arrayobj import make_array, populate_array

        data = cgutils.alloca_once(builder, context.get_data_type(like), size=n)
        intp = context.get_value_type(types.intp)
        itemsize = context.get_abi_sizeof(context.get_data_type(like))
        ary = make_array(arrty)(context, builder)
        populate_array(
            ary,
            data=data,
            shape=[intp(n)],
            strides=[intp(itemsize)],
            itemsize=intp(itemsize),
            meminfo=None,
        )
        return ary._getvalue()

    return arrty(like, count), codegen


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
    so a float32 loop runs 8 lanes where the CPU has 16. Compute-bound kernels (those calling mathlib's
    polynomials, and those reducing along rows they keep: codegen.py) call this once inside their
    outermost loop (a parallel loop's body is a function of its own). No result changes: kernels
    reassociate nothing (float sums and products add in explicit lanes, summation_order.py), so the
    vector width decides only how many lanes an instruction handles. On CPUs without 512-bit registers
    it changes nothing."""

    def codegen(context, builder, signature, args):
        # llvmlite's FunctionAttributes accepts only enum attributes; this is a string attribute,
        # written as is into the function's attribute list
        set.add(builder.function.attributes, '"prefer-vector-width"="512"')
        # inlined into a caller (a small parallel loop's body into numba's gufunc wrapper), the body
        # would be vectorized under the caller's attributes, at 256 bits: keep it a function of its own
        builder.function.attributes.add("noinline")
        return context.get_dummy_value()

    return types.none(), codegen


def _prefetch(write):
    @intrinsic
    def prefetch(typingctx, array, index):
        return _prefetch_typing(array, index, write)

    return prefetch


def _prefetch_typing(array, index, write):
    if not isinstance(array, types.Array):
        return None
    if isinstance(index, types.Integer):
        indices = (index,)
    elif isinstance(index, types.BaseTuple) and all(isinstance(t, types.Integer) for t in index):
        indices = tuple(index)
    else:
        return None
    if len(indices) != array.ndim:
        return None

    def codegen(context, builder, signature, args):
        from llvmlite import ir
        from numba.core import cgutils

        arrty, indexty = signature.args
        ary = context.make_array(arrty)(context, builder, args[0])
        values = [args[1]] if isinstance(indexty, types.Integer) else cgutils.unpack_tuple(builder, args[1])
        strides = cgutils.unpack_tuple(builder, ary.strides, arrty.ndim)
        # plain integer arithmetic (no inbounds GEP): the address may lie outside the array
        address = builder.ptrtoint(ary.data, cgutils.intp_t)
        for value, ty, stride in zip(values, indices, strides):
            offset = context.cast(builder, value, ty, types.intp)
            address = builder.add(address, builder.mul(offset, stride))
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0"
        )
        # read (0) or write (1), keep in all cache levels (locality 3), data cache (1)
        builder.call(fn, [builder.inttoptr(address, i8p), i32(int(write)), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(array, index), codegen


prefetch = _prefetch(write=False)
prefetch.__doc__ = """prefetch(array, index): starts loading the cache line that holds array[index] (index: an
integer for a 1-d array, or a tuple of one integer per axis) into every cache level, for a read soon;
returns at once (llvm.prefetch: PREFETCHT0 on x86). Nothing is checked and nothing can fail: a prefetch
of an address outside the array, or unmapped, is dropped by the CPU, and no result depends on it.

Staged kernels call it for the next row of their input while the current row's later passes run from
L1 (softmax: max, then exp and sum, then divide): those passes issue no memory requests of their own, so
without it the CPU's own prefetcher idles there and the next row's first pass waits for memory. One call
per 64-byte line."""

prefetch_for_write = _prefetch(write=True)
prefetch_for_write.__doc__ = """prefetch_for_write(array, index): as prefetch, for a write soon: the line
arrives owned (PREFETCHW where the CPU has it, else an ordinary prefetch), so the store that follows does
not wait for the read-for-ownership. Staged kernels call it for the next row of their outputs."""


# Where exact_quotient is exact: the divisor's and the dividend's magnitudes (besides a zero dividend),
# chosen so that 1 / b, a * (1 / b), the quotient and the residual a - q * b are all normal numbers
_QUOTIENT_RANGES = {
    types.float32: (2.0**-20, 2.0**20, 2.0**-100, 2.0**100),
    types.float64: (2.0**-100, 2.0**100, 2.0**-800, 2.0**800),
}


def _fabs(builder, value):
    from numba.core import cgutils

    fn = cgutils.get_or_insert_function(
        builder.module, _function_type(value.type, [value.type]), f"llvm.fabs.{_suffix(value.type)}"
    )
    return builder.call(fn, [value])


def _suffix(ty):
    return "f32" if str(ty) == "float" else "f64"


def _function_type(ret, args):
    from llvmlite import ir

    return ir.FunctionType(ret, args)


def _magnitude_between(builder, value, lo, hi):
    magnitude = _fabs(builder, value)
    above = builder.fcmp_ordered(">=", magnitude, magnitude.type(lo))
    below = builder.fcmp_ordered("<=", magnitude, magnitude.type(hi))
    return builder.and_(above, below)  # false for NaN


@intrinsic
def exact_quotient(typingctx, a, b):
    """a / b, rounded as the division rounds it, by a reciprocal and two FMAs: y = 1 / b (one division,
    loop-invariant when b is, so LLVM hoists it), q = a * y, then q + (a - q * b) * y with the residual
    a - q * b exact in an FMA. With y correctly rounded this is Markstein's correctly rounded quotient
    (tests/backends/numba/test_exact_quotient.py compares it with a / b over every float32 significand for
    many divisors). Exact only where divisor_in_range(b) and quotient_in_range(a) hold: the caller
    checks both and divides otherwise. A zero dividend gives the signed zero a / b gives.

    A vector division issues one result per ~10 cycles (AVX-512, 16 float32 lanes); this is three FMA
    port operations: softmax's division pass runs ~2.5x faster."""
    if not (isinstance(a, types.Float) and a == b):
        return None

    def codegen(context, builder, signature, args):
        from numba.core import cgutils

        x, d = args
        ty = x.type
        fma = cgutils.get_or_insert_function(
            builder.module, _function_type(ty, [ty] * 3), f"llvm.fma.{_suffix(ty)}"
        )
        y = builder.fdiv(ty(1.0), d)
        q = builder.fmul(x, y)
        residual = builder.call(fma, [builder.fneg(q), d, x])
        refined = builder.call(fma, [residual, y, q])
        return builder.select(builder.fcmp_ordered("==", x, ty(0.0)), q, refined)

    return a(a, b), codegen


@intrinsic
def divisor_in_range(typingctx, b):
    """Whether exact_quotient(a, b) may stand for a / b: |b| in [2**-20, 2**20] (float32; float64:
    [2**-100, 2**100]). False for NaN and infinities."""
    if not (isinstance(b, types.Float) and b in _QUOTIENT_RANGES):
        return None
    lo, hi = _QUOTIENT_RANGES[b][:2]

    def codegen(context, builder, signature, args):
        return _magnitude_between(builder, args[0], lo, hi)

    return types.boolean(b), codegen


@intrinsic
def quotient_in_range(typingctx, a):
    """Whether exact_quotient(a, b) is exact for this dividend (given divisor_in_range(b)): a is zero or
    |a| in [2**-100, 2**100] (float32; float64: [2**-800, 2**800]). False for NaN and infinities.
    The predicate for one value; a loop over many folds magnitude_max and nonzero_magnitude_min instead
    and asks dividends_in_range once (the same answer, at about a fifth of the cost)."""
    if not (isinstance(a, types.Float) and a in _QUOTIENT_RANGES):
        return None
    lo, hi = _QUOTIENT_RANGES[a][2:]

    def codegen(context, builder, signature, args):
        x = args[0]
        zero = builder.fcmp_ordered("==", x, x.type(0.0))
        return builder.or_(zero, _magnitude_between(builder, x, lo, hi))

    return types.boolean(a), codegen


# A row's dividends checked at once. `ok &= quotient_in_range(v)` in a loop costs three float compares
# and two mask operations per vector, and LLVM folds the flag into a scalar after each group of a laned
# pass: softmax's exp pass ran 1.35x slower with it (0.083 ns per element of 0.32, (64, 1024) float32,
# one thread; the folded check below, in a loop of its own over the row, 0.018). The same predicate holds for all values at once when the largest magnitude is at most the
# top of the range and the smallest nonzero one at least its bottom; on the magnitudes' bits (IEEE
# order is integer order for non-negative floats, NaNs above infinity above every finite value) these
# are two unsigned integer max/min reductions, which vectorize into one vector instruction each.
_BITS = {types.float32: types.uint32, types.float64: types.uint64}


def _magnitude_bits(builder, value):
    from llvmlite import ir

    width = 32 if str(value.type) == "float" else 64
    bits = builder.bitcast(value, ir.IntType(width))
    return builder.and_(bits, ir.Constant(ir.IntType(width), (1 << (width - 1)) - 1))


def _unsigned_pick(builder, name, acc, value):
    from numba.core import cgutils

    fn = cgutils.get_or_insert_function(
        builder.module, _function_type(acc.type, [acc.type] * 2), f"llvm.{name}.{acc.type}"
    )
    return builder.call(fn, [acc, value])


@intrinsic
def magnitude_max(typingctx, acc, x):
    """max(acc, bits(|x|)) as unsigned integers: acc uint32 for a float32 x, uint64 for float64. Start
    at 0; a NaN or infinite x leaves the result above every finite magnitude's bits."""
    if not (x in _BITS and acc == _BITS[x]):
        return None

    def codegen(context, builder, signature, args):
        return _unsigned_pick(builder, "umax", args[0], _magnitude_bits(builder, args[1]))

    return acc(acc, x), codegen


@intrinsic
def nonzero_magnitude_min(typingctx, acc, x):
    """min(acc, bits(|x|) - 1) as unsigned integers (acc as in magnitude_max): a zero x wraps to the
    largest value and so never wins. Start at the largest value (all bits set)."""
    if not (x in _BITS and acc == _BITS[x]):
        return None

    def codegen(context, builder, signature, args):
        bits = _magnitude_bits(builder, args[1])
        return _unsigned_pick(builder, "umin", args[0], builder.sub(bits, bits.type(1)))

    return acc(acc, x), codegen


@intrinsic
def dividends_in_range(typingctx, hi, lo):
    """Whether quotient_in_range holds for every value folded into hi (magnitude_max) and lo
    (nonzero_magnitude_min); True for no values at all."""
    floats = [f for f, bits in _BITS.items() if bits == hi]
    if not floats or lo != hi:
        return None
    fty = floats[0]
    bottom, top = _QUOTIENT_RANGES[fty][2:]

    def codegen(context, builder, signature, args):
        import numpy as np

        from llvmlite import ir

        kind = np.float32 if fty == types.float32 else np.float64
        width = 32 if fty == types.float32 else 64
        ity = ir.IntType(width)
        top_bits = int(np.array(top, kind).view(f"u{width // 8}"))
        bottom_bits = int(np.array(bottom, kind).view(f"u{width // 8}"))
        below_top = builder.icmp_unsigned("<=", args[0], ir.Constant(ity, top_bits))
        above_bottom = builder.icmp_unsigned(">=", args[1], ir.Constant(ity, bottom_bits - 1))
        return builder.and_(below_top, above_bottom)

    return types.boolean(hi, lo), codegen
