"""Loops compiled whole: a while or scan equation (fori_loop traces to a scan) whose sub-graphs lower
(loop_source.py, loop_structure.py) runs as one numba function, with no Python between iterations. The plan
says so ("compiled loop"), or says why the loop runs on the host over compiled bodies instead
(backends/control.py), which is also what runs when the compiled loop meets an index out of range: the host
loop raises NumPy's error and message.
"""

from __future__ import annotations

import numpy as np

from arraystack.backends.numba import loop_structure  # noqa: F401  (registers scan/while/switch/gather)
from arraystack.backends.numba.codegen_widen import is_storage
from arraystack.backends.numba.loop_source import LoopSource, Unsupported

_host_array = np.ndarray


# A loop whose products are all at most this many multiply-adds runs them on one BLAS thread: splitting a
# small product costs more than it gains, once per step (a GRU's 32x128 by 128x384 products: 128 steps
# forward and backward took 119 ms with SciPy's OpenBLAS on 2 threads, 40 ms on one; 2-core machine).
SMALL_PRODUCT = 1 << 23


def loop_source(eqn) -> tuple[str, str, int]:
    """(module source, what the loop runs, multiply-adds of its largest product): raises Unsupported
    when some equation has no lowering."""
    src = LoopSource()
    for v in eqn.inputs:
        if not hasattr(v, "aval"):
            raise Unsupported("a constant operand")
    params = [f"p{k}" for k in range(len(eqn.inputs))]
    outs = src.lower_eqn(eqn, params, 1)
    src.emit(1, f"return ({''.join(o + ', ' for o in outs)})")
    src.uses["nested loop"] -= 1  # the loop itself
    from arraystack.backends.numba import PARALLEL_THRESHOLD

    if src.largest_region >= PARALLEL_THRESHOLD:
        # one serial function would give up the kernels' threads, which such regions use: from a host
        # loop they run in parallel (10 steps of tanh(c * 0.9 + 0.1) on 2**22 float32: 7.7 ms from the
        # host loop, 31 ms compiled whole), and a step's Python costs microseconds against milliseconds
        raise Unsupported(
            f"a kernel of {src.largest_region} elements runs in parallel from a host loop (one compiled "
            f"loop runs its kernels on one thread; it is chosen below {PARALLEL_THRESHOLD} elements)"
        )
    parts = [f"{n} {what}{'s' if n > 1 else ''}" for what, n in sorted(src.uses.items()) if n > 0]
    return src.module_source(len(params)), ", ".join(parts) or "no work", src.largest_product


def compile_loop(eqn, cache_dir, host_step):
    """(step, source, fresh, description) for a while/scan equation, or raises Unsupported. `host_step`
    makes the host loop's step, run when the compiled loop raises for an index out of range."""
    from arraystack.backends.numba.kernels import load_kernel

    source, runs, largest = loop_source(eqn)
    kernel, fresh = load_kernel(source, cache_dir=cache_dir)
    if 0 < largest <= SMALL_PRODUCT:
        runs += ", products on one BLAS thread"
        kernel = _one_blas_thread(kernel)
    in_avals = [v.aval for v in eqn.inputs]
    dtypes = [np.dtype(a.dtype) for a in in_avals]
    scalar_out = [not v.aval.shape for v in eqn.outputs]
    # float16/bfloat16 values cross into the function as their bits (loop_source.dtype_text)
    bits_in = [is_storage(d) for d in dtypes]
    bits_out = [np.dtype(v.aval.dtype) if is_storage(v.aval.dtype) else None for v in eqn.outputs]
    fallback = []

    def step(*operands):
        args = []
        for x, dtype, bits in zip(operands, dtypes, bits_in):
            if type(x) is not _host_array or x.dtype != dtype or not x.flags.c_contiguous:
                x = np.ascontiguousarray(x, dtype)
            if bits:
                x = x.view(np.uint16)
            args.append(x.reshape(1) if x.ndim == 0 else x)
        try:
            outs = kernel(*args)
        except (IndexError, ValueError):
            if not fallback:
                fallback.append(host_step())
            return fallback[0](*operands)
        outs = [o if d is None else o.view(d) for o, d in zip(outs, bits_out)]
        return [o.reshape(()) if s else o for o, s in zip(outs, scalar_out)]

    return step, source, fresh, f"compiled loop (numba): {runs} in one function"


def _one_blas_thread(kernel):
    """`kernel` with SciPy's OpenBLAS (numba's np.dot) on one thread while it runs; the count it had is
    restored after. Unchanged where that BLAS cannot be asked (not OpenBLAS, or not Linux)."""
    from arraystack.backends.numba.blas_threads import scipy_openblas

    blas = scipy_openblas()
    if blas is None:
        return kernel
    get, set_ = blas

    def run(*args):
        before = get()
        if before == 1:
            return kernel(*args)
        set_(1)
        try:
            return kernel(*args)
        finally:
            set_(before)

    return run
