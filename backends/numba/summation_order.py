"""The order in which generated numba kernels add (and multiply) floats, and a NumPy twin of it.

A float sum or product in a kernel runs in a fixed order that depends on neither the thread count, nor the
CPU's vector width, nor LLVM (no reassociation is allowed anywhere), so NumPy code can reproduce its
result bit for bit (`kernel_reduce`). For one output element, over the reduced axes in increasing order
(the last one innermost; the region's iteration shape, as the kernel loops):

- lanes: LANES = 64 accumulators, starting at +0.0 (sum) or 1.0 (prod), in float64 (float32 products
  widen each value first) except float32 sums, below. Each row of the last reduced axis is cut into
  groups of LANES elements from its start; element j of a group goes into lane j (`lane = lane + value`),
  the last group of a row may be partial (it touches lanes 0..r-1 only); the rows of the other reduced axes,
  in row-major order, keep adding into the same lanes;
- float32 sums add into float32 lanes; after every BLOCK_GROUPS groups (counted over the rows, a
  partial group counting as one) and at the end, each float32 lane is added into its float64 lane and
  restarts at +0.0. So each float32 lane sums at most 16 values: NumPy-level accuracy;
- the lanes then fold in halves: lane[j] = lane[j] + lane[j + h] for h = 32, 16, ..., 1; lane 0 is
  the result (rounded to the input's dtype);
- short rows: when the last reduced axis is shorter than LANES (for a full reduction of a 1-d array:
  when the chunk is), no lanes: one float64 accumulator adds every value (widened) in row-major order;
- a full reduction (no kept axes) first splits the first reduced axis into nch = min(n, CHUNKS) chunks
  (chunk c covers [c*n//nch, (c+1)*n//nch)), each reduced as above in float64 (lane positions count
  from the chunk's start), then adds the chunk results in order into +0.0 (1.0 for products).

complex128 products (complex64 ones are widened first: codegen_widen.py) run in the same order, with
complex128 lanes and accumulators starting at 1 + 0j and mathlib/complex_arith.complex_mul's product.
Their twin multiplies with np.multiply on arrays, whose loop computes complex_mul's formula (one product
of each part fused), one lane group (or one value) at a time, into new arrays: NumPy's reduce loop
rounds all four products, and it is the one NumPy runs for np.multiply.reduce along a contiguous axis
and for an in-place product of one element (np.multiply(a, b, out=a) with a.size == 1).

Only NumPy here: tier 0 imports this module without numba.
"""

from __future__ import annotations

import math

import numpy as np

LANES = 64  # partial accumulators per reduction pass
# groups of LANES float32 values summed in float32 lanes before joining the float64 lanes
BLOCK_GROUPS = 16
CHUNKS = 64  # parallel chunks of a full reduction
SMALL_TOTAL = 1 << 16  # full reductions up to this size are twinned in one gather, larger chunk by chunk


def kernel_reduce(kind: str, x: np.ndarray, axes: tuple) -> np.ndarray:
    """reduce_sum/reduce_prod of float32/float64 `x` (reduce_prod of complex128 `x`) over `axes`,
    bit for bit as a generated kernel computes it (see the module docstring); `x` is the value
    entering the reduction, of the region's full iteration shape. Result: x.dtype, the reduced axes
    removed. NaN payloads may differ."""
    if kind not in ("sum", "prod"):
        raise ValueError(f"kernel_reduce: kind must be 'sum' or 'prod', not {kind!r}")
    x = np.asarray(x)
    if x.dtype == np.complex128 and kind == "prod":
        return _complex_product(x, axes)
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(
            "kernel_reduce: float32 or float64 input (complex128 for 'prod') expected, "
            f"not {x.dtype}"
        )
    axes = tuple(sorted({int(a) % x.ndim for a in axes})) if x.ndim else ()
    if not axes:
        return x.copy()
    if x.size == 0:  # nothing to add: each result is what the kernel's accumulators start from
        kept_shape = tuple(x.shape[d] for d in range(x.ndim) if d not in axes)
        return np.full(kept_shape, _identity(kind), x.dtype)
    with np.errstate(all="ignore"):  # as the kernels: inf - inf or an overflow is silent
        if len(axes) == x.ndim:
            return np.asarray(_total(kind, x), dtype=x.dtype)
        kept = [d for d in range(x.ndim) if d not in axes]
        kept_shape = tuple(x.shape[d] for d in kept)
        rows = math.prod(x.shape[d] for d in axes[:-1])
        batch = math.prod(kept_shape)
        if axes == tuple(range(len(axes))):  # leading reduced axes (a bias gradient): no transpose
            y = x.reshape(rows, x.shape[axes[-1]], batch)
            return _rows_batch_last(kind, y).astype(x.dtype).reshape(kept_shape)
        y = x.transpose(kept + list(axes)).reshape(batch, rows, x.shape[axes[-1]])
        return _rows(kind, y).astype(x.dtype).reshape(kept_shape)


def _identity(kind):
    return 0.0 if kind == "sum" else 1.0


def _total(kind, x):
    """A full reduction: chunks of the first axis, each laned, their float64 results combined in order."""
    n = x.shape[0]
    nch = min(n, CHUNKS)
    if nch == 0:
        return np.float64(_identity(kind))
    if x.size <= SMALL_TOTAL:  # all chunks at once: one gather, padded at each chunk's end
        c = np.arange(nch)
        lo, hi = c * n // nch, (c + 1) * n // nch
        width = int((hi - lo).max())
        index = lo[:, None] + np.arange(width)[None, :]
        valid = (index < hi[:, None]).reshape((nch, width) + (1,) * (x.ndim - 1))
        # identities at a chunk's end change no lane and no sequential accumulator
        gathered = np.where(valid, x[np.minimum(index, n - 1)], x.dtype.type(_identity(kind)))
        if x.ndim > 1:
            parts = _rows(kind, gathered.reshape(nch, -1, x.shape[-1]))
        else:  # a 1-d chunk is the row: chunks of q and q + 1 values may fall on both sides of LANES
            rows = gathered.reshape(nch, 1, width)
            parts = _sequential(kind, rows)
            if width >= LANES:
                parts = np.where(hi - lo < LANES, parts, _lanes(kind, rows))
    else:  # chunk by chunk: no copy of the whole input
        parts = np.array([
            _rows(kind, chunk.reshape(1, 1, -1) if x.ndim == 1 else chunk.reshape(1, -1, x.shape[-1]))[0]
            for chunk in (x[c * n // nch : (c + 1) * n // nch] for c in range(nch))
        ])
    # in order from +0.0 (1.0), as the kernel adds its chunk results: accumulate is sequential
    if kind == "prod":
        return np.multiply.accumulate(parts)[-1]
    return np.add.accumulate(parts)[-1] + 0.0


def _rows(kind, y):
    """y: (batch, rows, n) -> (batch,) float64, each batch element reduced in the kernels' order."""
    return _sequential(kind, y) if y.shape[2] < LANES else _lanes(kind, y)


def _sequential(kind, y):
    """Rows shorter than LANES: one float64 accumulator, every value in row-major order."""
    batch = y.shape[0]
    seq = np.ascontiguousarray(y.reshape(batch, y.shape[1] * y.shape[2]).astype(np.float64).T)
    if not seq.shape[0]:
        return np.full(batch, _identity(kind))
    return _in_order(kind, seq)


def _in_order(kind, seq):
    """seq: (n, batch) float64, C-contiguous, n >= 1 -> (batch,): each column reduced from its first row
    to its last, from +0.0 (1.0), as a kernel's single accumulator."""
    if seq.shape[1] > 1:
        # over the outer axis of a contiguous array NumPy adds row after row (no pairwise order), starting
        # from the first row: 1.0 * v == v, and 0.0 + v == v but for -0.0, which the + 0.0 maps to +0.0
        # (see _lanes). 3x faster than accumulate, which allocates every partial result
        if kind == "prod":
            return np.multiply.reduce(seq, axis=0)
        return np.add.reduce(seq, axis=0) + 0.0
    # one column: a reduce would run along it, pairwise; accumulate is sequential by definition
    if kind == "prod":
        return np.multiply.accumulate(seq, axis=0)[-1]
    return np.add.accumulate(seq, axis=0)[-1] + 0.0


def _lanes(kind, y):
    """y: (batch, rows, n) -> (batch,) float64: each batch element laned, blocked and folded."""
    batch, rows, n = y.shape
    ident = _identity(kind)
    groups = -(-n // LANES)
    if kind == "prod" or y.dtype == np.float64:
        y = y.astype(np.float64, copy=False)
    if n == groups * LANES:
        padded = np.ascontiguousarray(y)
    else:  # the last group padded with the identity, which changes no lane
        padded = np.full((batch, rows, groups * LANES), ident, dtype=y.dtype)
        padded[:, :, :n] = y
    seq = padded.reshape(batch, rows * groups, LANES)  # C-contiguous: lanes innermost
    if kind == "prod":
        # over a middle axis of a contiguous array NumPy multiplies row after row (no pairwise order);
        # 1.0 * v == v exactly, so starting from the first group matches the kernel's 1.0 start
        lanes = np.multiply.reduce(seq, axis=1) if seq.shape[1] else np.ones((batch, LANES))
        op = np.multiply
    else:
        if y.dtype == np.float32:
            # float32 lanes over blocks of BLOCK_GROUPS groups (the last block may be shorter): each
            # block's sums, in float64, then join the float64 lanes in block order
            full = seq.shape[1] // BLOCK_GROUPS * BLOCK_GROUPS
            parts = []
            if full:
                blocks = seq[:, :full].reshape(batch, full // BLOCK_GROUPS, BLOCK_GROUPS, LANES)
                parts.append(np.add.reduce(blocks, axis=2))
            if full < seq.shape[1]:
                parts.append(np.add.reduce(seq[:, full:], axis=1)[:, None])
            seq = (parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)).astype(np.float64)
        if seq.shape[1] == 1:  # one group (or block): its values are the lanes
            lanes = seq[:, 0]
        else:
            lanes = np.add.reduce(seq, axis=1) if seq.shape[1] else np.zeros((batch, LANES))
        # the kernel starts each lane at +0.0; NumPy starts from the first value. The two differ only
        # when every value is -0.0 (NumPy: -0.0, kernel: +0.0); adding +0.0 maps -0.0 to +0.0 alone
        # (and makes `lanes` a new array, which the fold below overwrites)
        lanes = lanes + 0.0
        op = np.add
    h = LANES // 2
    while h:  # in place: lanes is this function's own array
        op(lanes[:, :h], lanes[:, h : 2 * h], out=lanes[:, :h])
        h //= 2
    return lanes[:, 0]


def _rows_batch_last(kind, y):
    """y: (rows, n, batch) -> (batch,) float64, as _rows on y.transpose(2, 0, 1), without the transpose:
    every sum below runs along an outer axis (sequential in NumPy), vectorized over the contiguous batch."""
    rows, n, batch = y.shape
    ident = _identity(kind)
    if n < LANES:  # one float64 accumulator, every value in row-major order
        # C order: over the outer axis of a contiguous array NumPy adds row after row (_in_order); an
        # input in another layout (a transposed argument) would have it add pairwise along the columns
        seq = np.ascontiguousarray(y.reshape(rows * n, batch), dtype=np.float64)
        if not seq.shape[0]:
            return np.full(batch, ident)
        return _in_order(kind, seq)
    groups = -(-n // LANES)
    if kind == "prod" or y.dtype == np.float64:
        y = y.astype(np.float64, copy=False)
    if n == groups * LANES:  # C order, for the row-after-row sums below (see n < LANES)
        padded = np.ascontiguousarray(y)
    else:  # the last group padded with the identity, which changes no lane
        padded = np.full((rows, groups * LANES, batch), ident, dtype=y.dtype)
        padded[:, :n] = y
    seq = padded.reshape(rows * groups, LANES, batch)
    if kind == "prod":
        lanes = np.multiply.reduce(seq, axis=0)
        op = np.multiply
    else:
        if y.dtype == np.float32:  # float32 lanes over blocks of BLOCK_GROUPS groups, joined in float64
            full = seq.shape[0] // BLOCK_GROUPS * BLOCK_GROUPS
            parts = []
            if full:
                blocks = seq[:full].reshape(full // BLOCK_GROUPS, BLOCK_GROUPS, LANES, batch)
                parts.append(np.add.reduce(blocks, axis=1))
            if full < seq.shape[0]:
                parts.append(np.add.reduce(seq[full:], axis=0)[None])
            if len(parts) == 1:
                joined = parts[0]
            else:
                joined = np.concatenate(parts) if parts else np.zeros((0, LANES, batch), np.float32)
            seq = joined.astype(np.float64)
        # one group (or block): its values are the lanes. +0.0: the kernel's lanes start at +0.0 (see
        # _lanes); it also makes `lanes` a new array, which the fold below overwrites
        lanes = (seq[0] if seq.shape[0] == 1 else np.add.reduce(seq, axis=0)) + 0.0
        op = np.add
    h = LANES // 2
    while h:  # in place: lanes is this function's own array
        op(lanes[:h], lanes[h : 2 * h], out=lanes[:h])
        h //= 2
    return lanes[0]


def _complex_product(x, axes):
    """kernel_reduce's complex128 product: the float product's order from 1 + 0j, by np.multiply."""
    axes = tuple(sorted({int(a) % x.ndim for a in axes})) if x.ndim else ()
    if not axes:
        return x.copy()
    kept = [d for d in range(x.ndim) if d not in axes]
    kept_shape = tuple(x.shape[d] for d in kept)
    if x.size == 0:
        return np.ones(kept_shape, x.dtype)
    with np.errstate(all="ignore"):  # as the kernels: inf * 0 or an overflow is silent
        if len(axes) == x.ndim:
            return _complex_total(x)
        rows = math.prod(x.shape[d] for d in axes[:-1])
        y = x.transpose(kept + list(axes)).reshape(math.prod(kept_shape), rows, x.shape[axes[-1]])
        return _complex_rows(y).reshape(kept_shape)


def _complex_total(x):
    """A full complex product: chunks of the first axis, their results multiplied in order."""
    n = x.shape[0]
    nch = min(n, CHUNKS)
    bounds = [(c * n // nch, (c + 1) * n // nch) for c in range(nch)]
    parts = np.empty(nch, x.dtype)
    for length in sorted({hi - lo for lo, hi in bounds}):  # q or q + 1: two batches at most
        which = [c for c, (lo, hi) in enumerate(bounds) if hi - lo == length]
        starts = np.array([bounds[c][0] for c in which])
        chunks = x[starts[:, None] + np.arange(length)]  # (chunks, length, ...)
        rows = 1 if x.ndim == 1 else length * math.prod(x.shape[1:-1])
        parts[which] = _complex_rows(chunks.reshape(len(which), rows, -1))
    total = np.ones(1, x.dtype)
    for c in range(nch):
        total = np.multiply(total, parts[c : c + 1])
    return total.reshape(())


def _complex_rows(y):
    """y: (batch, rows, n) complex128 -> (batch,): each batch element multiplied in the kernels'
    order (rows shorter than LANES: one accumulator; else lanes, a partial last group touching its
    first lanes only, folded in halves), every accumulator starting at 1 + 0j."""
    batch, rows, n = y.shape
    if n < LANES:
        acc = np.ones(batch, y.dtype)
        for value in y.reshape(batch, rows * n).T:
            acc = np.multiply(acc, value)
        return acc
    lanes = np.ones((batch, LANES), y.dtype)
    for r in range(rows):
        for start in range(0, n, LANES):
            group = y[:, r, start : start + LANES]
            width = group.shape[1]
            lanes[:, :width] = np.multiply(lanes[:, :width], group)
    h = LANES // 2
    while h:
        lanes[:, :h] = np.multiply(lanes[:, :h], lanes[:, h : 2 * h])
        h //= 2
    return lanes[:, 0]
