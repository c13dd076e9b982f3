"""The twins' entry points: for each function of the kernels' mathlib, the same bits over NumPy arrays,
from the C extension (_twin, built from _twin.c and the _<family>_twin.h headers by setup.py) when it is
built and current, else from the NumPy code (<family>_numpy.py). backends/numba/twin.py (tier 0 of tiered
jit) asks `numpy_twin` for them. Nothing here imports numba: tier 0 must not wait for it.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
from arraystack.backends.native_build import built_from_sources
from arraystack.backends.numba.mathlib import erf_numpy, exp_log_numpy, log1p_numpy, trig_numpy
from arraystack.backends.numba.mathlib.trig_constants import TRIG_TABLE, TRIG_TABLE_F

CHUNK = 16384  # elements per pass: a function makes 100-600 passes, over arrays that stay in cache
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)

# name -> its family: the kernels' `<name>_<f32|f64>` is in <family>.py, its C twin in _<family>_twin.h
# and its NumPy twin, `_<name>_<f32|f64>`, in <family>_numpy.py
FAMILY = {
    "exp": "exp_log",
    "expm1": "exp_log",
    "log": "exp_log",
    "tanh": "exp_log",
    "logistic": "exp_log",
    "erf": "erf",
    "log1p": "log1p",
    "sin": "trig",
    "cos": "trig",
    "tan": "trig",
}
# every function of the mathlib, (name, dtype) -> its NumPy twin
_TWINS = {
    ("exp", F64): exp_log_numpy._exp_f64,
    ("expm1", F64): exp_log_numpy._expm1_f64,
    ("log", F64): exp_log_numpy._log_f64,
    ("tanh", F64): exp_log_numpy._tanh_f64,
    ("logistic", F64): exp_log_numpy._logistic_f64,
    ("exp", F32): exp_log_numpy._exp_f32,
    ("expm1", F32): exp_log_numpy._expm1_f32,
    ("log", F32): exp_log_numpy._log_f32,
    ("tanh", F32): exp_log_numpy._tanh_f32,
    ("logistic", F32): exp_log_numpy._logistic_f32,
    ("erf", F64): erf_numpy._erf_f64,
    ("erf", F32): erf_numpy._erf_f32,
    ("log1p", F64): log1p_numpy._log1p_f64,
    ("log1p", F32): log1p_numpy._log1p_f32,
    ("sin", F64): trig_numpy._sin_f64,
    ("cos", F64): trig_numpy._cos_f64,
    ("tan", F64): trig_numpy._tan_f64,
    ("sin", F32): trig_numpy._sin_f32,
    ("cos", F32): trig_numpy._cos_f32,
    ("tan", F32): trig_numpy._tan_f32,
}
FUNCTIONS = tuple(_TWINS)  # (name, dtype) of every function, in the table's order


def _elementwise(fn, dtype):
    def twin(x):
        if x.dtype != dtype:
            raise TypeError(f"mathlib's NumPy {fn.__name__[1:]} takes {dtype}, got {x.dtype}")
        flat = np.ascontiguousarray(x).reshape(-1)
        out = np.empty(flat.shape, dtype)
        with np.errstate(all="ignore"):
            for start in range(0, flat.size, CHUNK):
                out[start : start + CHUNK] = fn(flat[start : start + CHUNK])
        return out.reshape(x.shape)

    twin.__name__ = fn.__name__[1:]
    twin.__doc__ = f"mathlib.{twin.__name__} over a {dtype} ndarray, bit for bit (a new array)."
    return twin


_ENTRY_POINTS = {key: _elementwise(fn, key[1]) for key, fn in _TWINS.items()}


# in the order setup.py hashes them
C_TWIN_SOURCES = (
    "_twin.c",
    "_exp_log_twin.h",
    "_trig_twin.h",
    "_erf_twin.h",
    "_log1p_twin.h",
)


def _is_current(module) -> bool:
    """Whether the built C twin matches its sources next to this file (setup.py compiles their CRC in):
    an editable install does not rebuild it when they change, and a stale build is not used."""
    if built_from_sources(module, os.path.dirname(os.path.abspath(__file__)), C_TWIN_SOURCES):
        return True
    warnings.warn(
        "arraystack: the C twin of mathlib was built from older mathlib/_twin.c/.h; tier 0 uses the "
        "slower NumPy twin until it is rebuilt (`pip install -e .`)",
        RuntimeWarning,
        stacklevel=2,
    )
    return False


def _load_c_twin():
    try:
        from arraystack.backends.numba.mathlib import _twin
    except ImportError:  # built without a C compiler
        return None
    if not _is_current(_twin):
        return None
    _twin.set_trig_tables(TRIG_TABLE, TRIG_TABLE_F)  # before sin or cos can run
    return _twin


C_TWIN = _load_c_twin()  # the extension module, or None


def _c_elementwise(name, dtype):
    kernel = getattr(C_TWIN, f"{name}_{'f32' if dtype == np.float32 else 'f64'}")

    def twin(x):
        if x.dtype != dtype:
            raise TypeError(f"mathlib's C {name} takes {dtype}, got {x.dtype}")
        # the C loop reads whole aligned elements: a misaligned operand (np.frombuffer at an odd
        # offset) is copied first, as a strided one is
        flat = np.require(x, requirements=("C", "A")).reshape(-1)
        out = np.empty(flat.shape, dtype)
        kernel(flat, out)  # releases the GIL
        return out.reshape(x.shape)

    twin.__name__ = name
    twin.__doc__ = f"mathlib.{name} over a {dtype} ndarray, bit for bit (a new array), in C."
    return twin


_C_ENTRY_POINTS = {key: _c_elementwise(*key) for key in _TWINS} if C_TWIN is not None else {}


def _install_reference_erf():
    """erf's reference rule (jit/reference.py: libm's erf through np.frompyfunc, ~150 ns an element, which
    eager calls run) becomes the C twin's loop over the same libm erf (libm_erf_f64; its erf_f64 is the
    kernels' erf.py one) for float32 and float64 host arrays: the same bits, ~10x faster. Other inputs
    keep the rule it replaces."""
    from arraystack.ir import primitives as prims
    from arraystack.ir.reference import reference_rules

    general = reference_rules[prims.erf_p]
    loop = C_TWIN.libm_erf_f64

    def erf(xp, x):
        dtype = getattr(x, "dtype", None)
        if xp is not np or dtype not in _ERF_DTYPES:
            return general(xp, x)
        wide = np.array(x, np.float64, order="C")  # a copy: the loop writes in place
        flat = wide.reshape(-1)
        loop(flat, flat)
        return wide.astype(dtype, copy=False)

    erf.general = general  # the rule replaced (tests compare the two)
    reference_rules[prims.erf_p] = erf


_ERF_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
if C_TWIN is not None:
    _install_reference_erf()


def numpy_twin(name: str, dtype, implementation: str | None = None):
    """The function computing on NumPy arrays exactly what the kernels' mathlib `<name>_<f32|f64>`
    computes (name: one of FAMILY's), or None for other names and dtypes.
    It takes an ndarray of that dtype (any shape and strides) and returns a new ndarray of the same shape.
    implementation: "c" (the extension; ValueError when it is not available), "numpy", or None for the C
    one when available, else the NumPy one."""
    if implementation not in (None, "c", "numpy"):
        raise ValueError(f"implementation must be 'c', 'numpy' or None, not {implementation!r}")
    if implementation == "c" and C_TWIN is None:
        raise ValueError("mathlib's C twin is not built (or stale): `pip install -e .` builds it")
    try:
        key = (name, np.dtype(dtype))
    except TypeError:  # not a dtype
        return None
    if implementation != "numpy" and C_TWIN is not None:
        return _C_ENTRY_POINTS.get(key)
    return _ENTRY_POINTS.get(key)
