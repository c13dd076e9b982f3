"""Arguments a jitted function writes in place, written back into the caller's arrays after each call.

NumPy code may update its arguments (`x += 1`, `x[i] = v`, `np.add(a, b, out=x)`); run eagerly, the caller
sees the change. A traced function cannot write a buffer: the trace records the argument's new value
(arraystack/_transforms/aliasing.py), the graph returns it beside the results, and each call copies it into the
argument's buffer, as torch.compile does with mutated inputs. So a jitted call changes its arguments as
the function run eagerly would.

Before running, a call refuses what NumPy would refuse or what jit cannot reproduce, and changes nothing:
a read-only argument that the function writes (NumPy's ValueError), and a written argument that shares
memory with another argument (eagerly, a write to one is seen through the other; traced, they are
separate values).
"""

from __future__ import annotations

import numpy as np

from arraystack._core.array import ndarray
from arraystack.ir.core import TracerError, device_namespaces, user_line


def written_arguments(leaves, wrapped, tracers) -> list[int]:
    """The positions of the array arguments that the traced function rebound (wrote in place)."""
    written = []
    for k, (leaf, array, tracer) in enumerate(zip(leaves, wrapped, tracers)):
        value = array._value
        if value is tracer or not isinstance(leaf, (ndarray, np.ndarray)):
            continue  # unchanged, or a Python scalar: `s += 1` rebinds the function's own name
        if tuple(value.shape) != tuple(tracer.shape) or value.dtype != tracer.dtype:
            raise TracerError(
                f"jitted argument #{k} changed its shape or dtype in place (at {user_line()}): jit "
                "writes arguments back into the caller's buffers, which keep theirs; reshape a copy "
                "instead (a = a.reshape(...))"
            )
        written.append(k)
    return written


def _buffer(leaf):
    return leaf._value if isinstance(leaf, ndarray) else leaf


def _namespace(buffer):
    """The array module of a buffer that can be written back: NumPy, or a device's (cupy); else None."""
    if isinstance(buffer, np.ndarray):
        return np
    return device_namespaces.get(type(buffer))


def _may_share(xp, a, b) -> bool:
    if xp is np:
        return np.may_share_memory(a, b)
    with a.device:
        return a.device == b.device and xp.may_share_memory(a, b)


def check_writable(written, leaves) -> None:
    """Raise before the call where writing the arguments back would not be what NumPy does."""
    arrays = [(k, _buffer(leaf)) for k, leaf in enumerate(leaves)]
    arrays = [(k, b) for k, b in arrays if _namespace(b) is not None]
    for k in written:
        target = _buffer(leaves[k])
        xp = _namespace(target)
        if xp is None:
            raise TypeError(
                f"jitted argument #{k} is written by the function, but its {type(target).__name__} "
                "buffer cannot be written back"
            )
        if xp is np and not target.flags.writeable:  # device arrays (cupy's) are always writable
            raise ValueError("assignment destination is read-only")
        for j, other in arrays:
            if j != k and type(other) is type(target) and _may_share(xp, target, other):
                raise ValueError(
                    f"jitted arguments #{k} and #{j} share memory, and the function writes #{k}: "
                    "traced, they are separate values, so the write would not be seen through #"
                    f"{j} as it is in NumPy. Pass a copy of one of them"
                )


def write_back(written, leaves, outs):
    """Copy the written arguments' new values (the last len(written) outputs) into their buffers and
    return the function's own outputs."""
    n = len(outs) - len(written)
    for k, value in zip(written, outs[n:]):
        target = _buffer(leaves[k])
        xp = _namespace(target)
        if xp is np:
            np.copyto(target, value, casting="equiv")
            continue
        with target.device:  # a device buffer: written on its device
            xp.copyto(target, value, casting="equiv")
    return outs[:n]
