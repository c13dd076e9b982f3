"""DLPack capsules of the stand-in for cupy (standin_array.py): NumPy's own capsules, whose device field is
rewritten (the stand-in's device memory is host memory), so a "cuda" array exports kDLCUDA and a kDLCUDA
capsule of the stand-in imports into NumPy."""

from __future__ import annotations

import ctypes

KDLCUDA = 2
KDLCPU = 1

# -- reading and writing the device field -------------------------------------------------
_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype, _capsule_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
# DLManagedTensorVersioned: {DLPackVersion (2 x uint32), manager_ctx, deleter, uint64 flags} before dl_tensor;
# DLManagedTensor starts with dl_tensor. In DLTensor the device follows the data pointer.
_TENSOR_OFFSET = {b"dltensor": 0, b"dltensor_versioned": 32}
_DEVICE_OFFSET = 8


def capsule_device(capsule) -> tuple[int, int]:
    """(DLPack device type, device id) written in a DLPack capsule."""
    name = _capsule_name(capsule)
    device = _capsule_pointer(capsule, name) + _TENSOR_OFFSET[name] + _DEVICE_OFFSET
    pair = (ctypes.c_int32 * 2).from_address(device)
    return (pair[0], pair[1])


def set_capsule_device(capsule, device_type: int, device_id: int) -> None:
    """Rewrite the device of an unconsumed DLPack capsule (the stand-in's device memory is host memory)."""
    name = _capsule_name(capsule)
    device = _capsule_pointer(capsule, name) + _TENSOR_OFFSET[name] + _DEVICE_OFFSET
    pair = (ctypes.c_int32 * 2).from_address(device)
    pair[0], pair[1] = device_type, device_id


class HostCapsule:
    """A kDLCUDA capsule of the stand-in, rewritten to kDLCPU, for NumPy to import."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (KDLCPU, 0)
