"""Scatter-add along the first axis in a numba kernel: `out = x.copy(); numpy.add.at(out, index, updates)`
for one integer index array (an embedding's gradient, a histogram of rows, `x.at[ids].add(g)`).

The kernel adds each update row into its target row in the order of the indices, as NumPy's add.at does,
so every element receives the same additions in the same order: the same bits. An index out of range
stops the kernel, and the reference rule runs instead and raises NumPy's error (x itself is never
written). Other scatters (set, mul, min, max, several index arrays, other axes) run the reference rule.
"""

from __future__ import annotations

import numpy as np

SOURCE = """
@numba.njit(error_model='numpy', nogil=True, cache=True)
def kernel(out, updates, index, clip):
    n, m = out.shape
    for k in range(index.shape[0]):
        i = index[k]
        if i < 0:
            i += n
        if clip:
            i = min(max(i, 0), n - 1)
        elif i < 0 or i >= n:
            return k
        for j in range(m):
            out[i, j] += updates[k, j]
    return -1
"""


def runs_scatter_add(eqn) -> bool:
    """Whether the kernel runs `eqn`: a scatter-add of ints or float32/float64 along the first axis of
    a non-empty operand (no axis of size 0: its rows would have no length), at one signed (or narrow unsigned) index array, in mode raise or clip."""
    if eqn.prim.name != "scatter" or eqn.params.get("update") != "add" or len(eqn.inputs) != 3:
        return False
    x, _, index = (v.aval for v in eqn.inputs)
    axes, mode = eqn.params.get("axes"), eqn.params["mode"]
    if axes not in (None, (0,)) or mode not in ("raise", "clip") or not x.shape or 0 in x.shape:
        return False
    if x.dtype.kind not in "fiu" or (x.dtype.kind == "f" and x.dtype.itemsize < 4):
        return False
    return index.dtype.kind in "iu" and index.dtype != np.uint64


def scatter_add_step(eqn, cache_dir=None):
    """(step, source) for a scatter-add `eqn` the kernel runs, or None (another primitive or form)."""
    if not runs_scatter_add(eqn):
        return None
    x, updates, index = (v.aval for v in eqn.inputs)
    mode = eqn.params["mode"]
    from arraystack.backends.numba.kernels import load_kernel
    from arraystack.backends.reference import reference_step

    kernel, _ = load_kernel(SOURCE, cache_dir=cache_dir)
    reference = reference_step(eqn)
    clip = mode == "clip"
    rows = int(np.prod(x.shape[1:], dtype=np.int64))
    count = int(np.prod(index.shape, dtype=np.int64))

    def step(target, values, where):
        out = np.array(target, copy=True, order="C")
        flat = np.ascontiguousarray(where, dtype=np.int64).reshape(count)
        values = np.ascontiguousarray(values).reshape(count, rows)
        if kernel(out.reshape(-1, rows), values, flat, clip) >= 0:
            return reference(target, values.reshape(updates.shape), where)  # raises NumPy's error
        return out

    return step, SOURCE
