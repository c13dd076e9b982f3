"""DLPack: exchanging buffers with other array libraries without copying (`__dlpack__`, `from_dlpack`).

Only concrete arrays have a buffer to share; a traced value raises ConcretizationError. The exporter is the
buffer's own `__dlpack__` (NumPy's on the CPU, a device library's on a GPU: kDLCUDA for cupy's), so device
and stream handling are that library's. A producer on a device with a backend of its own (a CUDA tensor)
is imported by that backend's arrays (Backend.arrays.from_dlpack), sharing its memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.devices import CPU, check_device, kinds, to_device
from arraystack.ir.core import ConcretizationError, Tracer, concretization_message

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import NDArray

_HOST_DLPACK_TYPES = (1, 3)  # kDLCPU, kDLCUDAHost: memory NumPy can read


def _buffer(x: ndarray, what: str):
    value = x._value
    if type(value) is Tracer:
        raise ConcretizationError(
            concretization_message(
                f"{what} was called on",
                value.aval,
                "DLPack exchanges concrete buffers; export the array outside the traced function.",
            )
        )
    return value


def dlpack(x: ndarray, stream=None, max_version=None, dl_device=None, copy=None):
    """ndarray.__dlpack__: the buffer's own DLPack capsule."""
    value = _buffer(x, "__dlpack__")
    kwargs = {"stream": stream}
    if max_version is not None:
        kwargs["max_version"] = max_version
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    if copy is not None:
        kwargs["copy"] = copy
    return value.__dlpack__(**kwargs)


def dlpack_device(x: ndarray):
    """ndarray.__dlpack_device__: (DLPack device type, index) of the buffer."""
    return _buffer(x, "__dlpack_device__").__dlpack_device__()


def from_dlpack(x: Any, /, *, device: object | None = None, copy: bool | None = None) -> NDArray:
    """Create an arraystack array from an object implementing the ``__dlpack__`` protocol.

    Parameters
    ----------
    x : object
        A Python object that implements ``__dlpack__`` and ``__dlpack_device__``.
    device : device, optional
        Device on which to place the created array: None keeps the producer's device (a CUDA producer
        gives a cuda array when a CUDA device is usable here, else a host copy), "cpu", or a device of
        ``arraystack.devices()``.
    copy : bool, optional
        If True, always copy; if False, never copy (raise BufferError if needed); if None, copy only
        when needed.

    Returns
    -------
    out : ndarray
        An arraystack array sharing `x`'s memory (unless copied).

    See Also
    --------
    numpy.from_dlpack : The NumPy function this mirrors.
    asarray, ndarray.__dlpack__
    """
    if isinstance(x, ndarray):
        x = _buffer(x, "from_dlpack")
    target = check_device(device)
    if hasattr(x, "__dlpack_device__"):
        kind, index = x.__dlpack_device__()
        arrays = _device_arrays(int(kind))
        if arrays is not None and (target is None or target.kind == arrays.kind):
            # memory of a device of its own (kDLCUDA): an array there, sharing it
            return wrap(arrays.from_dlpack(x, None if target is None else target.index, copy))
        if arrays is not None and target == CPU:
            if copy is False:
                raise BufferError(f"from_dlpack: memory on {arrays.kind}:{index} needs a copy to the CPU")
            return wrap(arrays.to_host(arrays.from_dlpack(x)))
        if int(kind) not in _HOST_DLPACK_TYPES and target in (None, CPU):
            if copy is False:
                raise BufferError(
                    f"from_dlpack: the producer's memory is on DLPack device type {int(kind)} "
                    f"(index {index}), which the CPU cannot use without a copy (copy=False was given)"
                )
            target = CPU  # asks the producer for a copy in host memory
    value = np.from_dlpack(x, device=None if target is None else "cpu", copy=copy)
    from arraystack._core.dtypes import check_supported

    check_supported(value.dtype)
    if target is not None and target != CPU:
        if copy is False:
            raise BufferError(f"from_dlpack: host memory cannot be on {target.name} without a copy")
        return wrap(to_device(value, target))
    return wrap(value)


def _device_arrays(dlpack_type: int):
    """The DeviceArrays of the device kind with this DLPack device type, when one is usable here."""
    for arrays in kinds().values():
        if arrays.dlpack_device_type == dlpack_type:
            return arrays
    return None


__all__ = ["from_dlpack"]
