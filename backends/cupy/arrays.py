"""The cupy backend's arrays as the frontend sees them (Backend.arrays, interface.DeviceArrays): which cupy is
in use (the stand-in, or real cupy), the devices present, copies, DLPack, and the eager evaluation of a
primitive on cuda arrays: its reference rule with xp = cupy, or its GPU entry (`gpu_rules`) where cupy lacks
what the reference rule uses.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys

import numpy as np
from arraystack.backends.interface import DeviceArrays
from arraystack.ir import linalg as la
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.reference import reference_rules
from arraystack.ir.sorting import sort_p

STANDIN = "arraystack.backends.cupy.standin"
INSTALL = "pip install cupy-cuda12x (CUDA 12) or cupy-cuda13x (CUDA 13)"
KDLCUDA = 2


def _standin():
    """The stand-in module when it is in use (installed, or asked for by ARRAYSTACK_CUDA_STANDIN)."""
    module = sys.modules.get(STANDIN)
    if module is None and os.environ.get("ARRAYSTACK_CUDA_STANDIN", "").strip() not in ("", "0"):
        module = importlib.import_module(STANDIN)
    return module if module is not None and module.installed() else None


def missing() -> str | None:
    """Why cupy cannot run here (cupy missing, the driver missing, no device), with how to get it; None
    when it can."""
    if _standin() is not None:
        return None
    return _real_missing()


_found: dict = {}  # what the checks of real cupy found, once per process


def _real_missing() -> str | None:
    if "reason" not in _found:
        if importlib.util.find_spec("cupy") is None:
            _found["reason"] = f"cupy is not installed: {INSTALL}"
        else:
            count = _driver_device_count()
            if isinstance(count, str):
                _found["reason"] = f"cupy is installed, but {count}"
            elif count == 0:
                _found["reason"] = (
                    "cupy is installed, but the CUDA driver reports no device (is CUDA_VISIBLE_DEVICES "
                    "set to none?)"
                )
            else:
                _found["reason"] = None
    return _found["reason"]


def _driver_device_count():
    """The number of CUDA devices the driver reports, asked through libcuda without importing cupy; a
    sentence when there is no driver."""
    names = ("nvcuda.dll",) if os.name == "nt" else ("libcuda.so.1", "libcuda.so")
    for name in names:
        try:
            driver = ctypes.CDLL(name)
            break
        except OSError:
            continue
    else:
        return (
            "no NVIDIA driver was found (libcuda could not be loaded): a CUDA device needs the NVIDIA "
            "driver and a GPU"
        )
    if driver.cuInit(0) != 0:
        return "the CUDA driver failed to initialize (no usable GPU, or a driver/GPU mismatch)"
    count = ctypes.c_int(0)
    if driver.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return "the CUDA driver could not count its devices"
    return count.value


def cupy_module():
    """The cupy in use: the stand-in when it is installed, else real cupy when it can run here, else None."""
    standin = _standin()
    if standin is not None:
        return standin.module
    if _real_missing() is not None:
        return None
    import cupy

    return cupy


def cupyx_special(xp):
    """cupyx.scipy.special for `xp` (the stand-in's own for the stand-in)."""
    standin = _standin()
    if standin is not None and xp is standin.module:
        return standin.special
    return importlib.import_module("cupyx.scipy.special")


# -- GPU entries of reference rules ------------------------------------------------------------------------------
class UnsupportedOnGPU(NotImplementedError):
    """A primitive whose eager evaluation cupy cannot do on a cuda array (the message names it and why)."""


def _unsupported(name, reason):
    def rule(xp, *args, **params):
        raise UnsupportedOnGPU(
            f"`{name}` on a cuda array is not supported: {reason}. Copy the operand to the CPU explicitly "
            "(x.to_device('cpu')) for this operation; arraystack never copies between devices silently."
        )

    rule.__name__ = f"gpu_{name}"
    return rule


def _erf(xp, x):
    return cupyx_special(xp).erf(x).astype(x.dtype, copy=False)  # the reference rule's dtype


def _scatter(xp, x, updates, *indices, mode, update, axes=None):
    if (
        update == "mul"
    ):  # the reference rule's multiply.at: cupy's multiply has no scatter operation
        _unsupported("scatter", "cupy's multiply.at is not implemented (update='mul')")(xp)
    return reference_rules[s.scatter_p](
        xp, x, updates, *indices, mode=mode, update=update, axes=axes
    )


def _sort(xp, *operands, dimension, num_keys, kind):
    # Note: cupy sorts stably whatever the kind (it accepts only None or "stable"); ties of a quicksort
    # may be ordered differently from NumPy's, as on any other stable sort.
    if len(operands) == 1:
        return (xp.sort(operands[0], axis=dimension),)
    # lexsort by stable argsorts, least significant key first (cupy's lexsort takes no axis)
    order = None
    for key in operands[num_keys - 1 :: -1]:  # operands[0] is the primary key
        ranked = key if order is None else xp.take_along_axis(key, order, axis=dimension)
        step = xp.argsort(ranked, axis=dimension)
        order = step if order is None else xp.take_along_axis(order, step, axis=dimension)
    return tuple(xp.take_along_axis(x, order, axis=dimension) for x in operands)


_scan_steps: dict = {}  # (primitive, shape, dtype, axis) -> the step launching its CUDA scan kernel


def _by_scan_kernel(prim):
    """cummax/cummin: cupy has no maximum.accumulate, so the CUDA scan kernel this backend generates for
    jit (cuda_codegen_axis.lower_scan: NumPy's NaN and tie semantics) runs them, built once per
    operand shape, dtype and axis. An operand the generator does not take (complex) is refused."""

    def rule(xp, x, *, axis, reverse=False):
        from arraystack.backends.cupy import cuda_codegen
        from arraystack.backends.cupy.backend import backend
        from arraystack.ir.avals import ShapedArray
        from arraystack.ir.ir import Eqn, Var

        x = xp.asarray(x)
        key = (prim, x.shape, x.dtype, axis)
        step = _scan_steps.get(key)
        if step is None:
            aval = ShapedArray(x.shape, x.dtype)
            eqn = Eqn(prim, (Var(aval),), (Var(aval),), {"axis": axis, "reverse": False})
            if cuda_codegen.lower_region(eqn) is None:
                name = "maximum" if prim is s.cummax_p else "minimum"
                reason = f"cupy's {name}.accumulate is not implemented and "
                _unsupported(prim.name, reason + cuda_codegen.why_not(eqn))(xp)
            if len(_scan_steps) > 64:
                _scan_steps.clear()
            step = _scan_steps[key] = backend.step(eqn, None)
        if reverse:
            return xp.flip(step(xp.flip(x, axis))[0], axis)
        return step(x)[0]

    rule.__name__ = f"gpu_{prim.name}"
    return rule


def _needs_linalg(prim, name):
    """The reference rule of `prim`, which calls cupy.linalg.`name`: present from cupy 14 on, refused
    with the reason on an older cupy."""

    def rule(xp, *operands, **params):
        if not hasattr(xp.linalg, name):
            version = getattr(xp, "__version__", "?")
            _unsupported(prim.name, f"cupy {version} has no linalg.{name} (cupy 14 added it)")(xp)
        return reference_rules[prim](xp, *operands, **params)

    rule.__name__ = f"gpu_{prim.name}"
    return rule


# primitive -> rule(xp, *operands, **params) used in place of its reference rule on cuda arrays
gpu_rules: dict = {
    p.erf_p: _erf,
    s.scatter_p: _scatter,
    sort_p: _sort,
    s.cummax_p: _by_scan_kernel(s.cummax_p),
    s.cummin_p: _by_scan_kernel(s.cummin_p),
    la.eig_p: _needs_linalg(la.eig_p, "eig"),
    la.eigvals_p: _needs_linalg(la.eigvals_p, "eigvals"),
}


def gpu_rule(prim):
    """The rule evaluating `prim` on cuda arrays: its GPU entry, else its reference rule."""
    return gpu_rules.get(prim) or reference_rules[prim]


# -- the arrays of cuda devices ---------------------------------------------------------------------------------
class CupyArrays(DeviceArrays):
    """cupy arrays on "cuda" devices: through the stand-in when it is installed, else real cupy."""

    kind = "cuda"
    dlpack_device_type = KDLCUDA

    def types(self) -> tuple:
        xp = cupy_module()
        return () if xp is None else (xp.ndarray,)

    def count(self) -> int:
        xp = cupy_module()
        return 0 if xp is None else xp.cuda.runtime.getDeviceCount()

    def missing(self) -> str:
        return missing() or "no CUDA device is present"

    def namespace(self):
        return cupy_module()

    def device_of(self, array) -> int:
        return array.device.id

    def evaluate(self, prim, args, params, device=None):
        xp = cupy_module()
        if device is not None and not isinstance(device, int):  # an array: its device
            device = self.device_of(device)
        index = _device_of_operands(xp, prim, args, device)
        if any(
            type(a) is np.ndarray for a in args
        ):  # 0-d host arrays: their scalar, as cupy takes it
            args = [a[()] if type(a) is np.ndarray else a for a in args]
        with xp.cuda.Device(index):
            return gpu_rule(prim)(xp, *args, **params)

    def from_host(self, array, device):
        xp = cupy_module()
        with xp.cuda.Device(device):
            return xp.asarray(array)

    def to_host(self, array):
        return cupy_module().asnumpy(array)

    def move(self, array, device):
        """A C-ordered copy of `array` on cuda:device by the driver's peer copy (device to device where
        the two have peer access; the driver stages it otherwise), never through a NumPy array. It runs
        on the source device's current stream, after the work that wrote the source, and is waited for,
        so the destination's later work reads it complete."""
        xp = cupy_module()
        source = array.device.id
        with xp.cuda.Device(source):
            src = xp.ascontiguousarray(array)
        with xp.cuda.Device(device):
            out = xp.empty(src.shape, src.dtype)
        if src.nbytes:
            with xp.cuda.Device(source):
                stream = xp.cuda.get_current_stream()
                out.data.copy_from_device_async(src.data, src.nbytes, stream)
                stream.synchronize()
        return out

    def adopt(self, obj):
        xp = cupy_module()
        if xp is None:
            return None
        if isinstance(obj, xp.ndarray):
            return obj
        if hasattr(obj, "__cuda_array_interface__"):
            return xp.asarray(obj)  # shares the producer's memory
        return None

    def from_dlpack(self, obj, device=None, copy=None):
        xp = cupy_module()
        out = xp.from_dlpack(obj)
        if device is not None and out.device.id != device:
            if copy is False:
                raise BufferError(
                    f"from_dlpack: the producer's memory is on cuda:{out.device.id}, not cuda:{device}, "
                    "which needs a copy (copy=False was given)"
                )
            return self.move(out, device)
        if copy:
            with xp.cuda.Device(out.device.id):
                return out.copy()
        return out


def _device_of_operands(xp, prim, args, device):
    """The index of the cuda device the operands live on; ValueError when they live on two devices (a
    host array among them included). Python and NumPy scalars live nowhere in particular, and neither
    does a 0-d host array (NumPy's other spelling of a scalar); cupy takes it as a scalar."""
    array_type = xp.ndarray
    found, host = None, False
    for a in args:
        if isinstance(a, array_type):
            index = a.device.id
            if found is None:
                found = index
            elif index != found:
                _mixed(prim, f"cuda:{found}", f"cuda:{index}")
        elif isinstance(a, np.ndarray) and a.ndim:
            host = True
    found = found if found is not None else (device or 0)
    if host:
        _mixed(prim, f"cuda:{found}", "cpu")
    return found


def _mixed(prim, first, second):
    raise ValueError(
        f"`{prim.name}` got operands on two devices, {first} and {second}; arraystack does not copy between "
        f"devices implicitly. Move one of them first: x.to_device('{first}') or "
        f"arraystack.asarray(x, device='{first}') (or to '{second}')."
    )


__all__ = ["CupyArrays", "UnsupportedOnGPU", "cupy_module", "gpu_rule", "gpu_rules", "missing"]
