"""The dtype a SciPy ufunc computes and returns in, for the functions of arraystack.scipy.special."""

from __future__ import annotations

import numpy as np

import arraystack as ast


def loop_dtype(*xs, single_first: bool = False) -> np.dtype:
    """The dtype SciPy's loops compute in: complex for complex operands; float32 when every operand
    is float32, or, for a ufunc whose float32 loop comes first (single_first), when every operand casts
    safely to float32 (bool, float16, 8- and 16-bit integers); float64 otherwise. Python numbers count
    as float64 (ints as int64), as SciPy's type resolution takes them."""
    kinds = []
    for x in xs:
        if isinstance(x, float):
            dt = np.dtype(np.float64)
        elif isinstance(x, (bool, int, complex)):
            dt = np.dtype(type(x))
        else:
            dt = ast.asarray(x).dtype
        kinds.append(dt)
    if any(dt.kind == "c" for dt in kinds):
        return np.result_type(np.complex64, *kinds)

    def single(dt):
        return dt == np.float32 or (single_first and np.can_cast(dt, np.float32))

    return np.dtype(np.float32) if all(single(dt) for dt in kinds) else np.dtype(np.float64)


def as_dtype(x, dtype):
    return ast.asarray(x).astype(dtype, copy=False)


def real_float64(x, name: str):
    """x as float64 for a function computed in float64, which takes real input only."""
    x = ast.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(
            f"arraystack.scipy.special.{name} takes real input; complex {name} is not implemented"
        )
    return x.astype(np.float64, copy=False)
