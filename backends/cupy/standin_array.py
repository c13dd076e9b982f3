"""The stand-in's `cupy.ndarray`: a device array whose buffer is a NumPy array in host memory.

It is its own type (not a NumPy subclass) and behaves where it matters as cupy's does: `numpy.asarray` on it
raises TypeError (copy explicitly with `.get()` or `cupy.asnumpy`), NumPy arrays are refused as operands of
its operators and of the namespace's functions (cupy never copies host data implicitly), results live on the
current device and take their bytes from the memory pool, and it exports `__cuda_array_interface__` and
DLPack with device type kDLCUDA.
"""

from __future__ import annotations

import ctypes
import weakref

import numpy as np
from arraystack.backends.cupy import standin_cuda as cuda
from arraystack.backends.cupy.standin_dlpack import (
    KDLCPU,
    KDLCUDA,
    HostCapsule,
    set_capsule_device,
)

IMPLICIT_CONVERSION = (
    "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy array "
    "explicitly."
)


class ndarray:
    """cupy.ndarray on the stand-in: `_host` is the buffer (a NumPy array in host memory), `_block` the pool
    block it accounts to (shared by views), `_device` the ordinal of its device."""

    __slots__ = ("__weakref__", "_base", "_block", "_device", "_host")
    __array_priority__ = 100

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C"):
        host = np.empty(shape, dtype, order=order)
        _adopt(self, host, _allocate(host.nbytes), None)

    # -- attributes ------------------------------------------------------------------------------------------
    shape = property(lambda self: self._host.shape)
    dtype = property(lambda self: self._host.dtype)
    ndim = property(lambda self: self._host.ndim)
    size = property(lambda self: self._host.size)
    nbytes = property(lambda self: self._host.nbytes)
    itemsize = property(lambda self: self._host.itemsize)
    strides = property(lambda self: self._host.strides)
    flags = property(lambda self: self._host.flags)
    base = property(lambda self: self._base)
    T = property(lambda self: _view_of(self, self._host.T))
    mT = property(lambda self: _view_of(self, self._host.mT))

    @property
    def device(self):
        return cuda.Device(self._device)

    @property
    def data(self):
        return _Pointer(self._host.ctypes.data if self._host.size else 0, self._device, self._host)

    @property
    def real(self):
        return _view_of(self, self._host.real)

    @real.setter
    def real(self, value):
        self._host.real = host_buffer(value)

    @property
    def imag(self):
        return (
            _view_of(self, self._host.imag) if self.dtype.kind == "c" else _call(np.imag, (self,))
        )

    @imag.setter
    def imag(self, value):
        self._host.imag = host_buffer(value)

    @property
    def __cuda_array_interface__(self):
        host = self._host
        return {
            "shape": host.shape,
            "typestr": host.dtype.str,
            "descr": host.dtype.descr,
            "stream": cuda.get_current_stream().ptr or 1,  # CAI v3: 1 is the legacy default stream
            "version": 3,
            "strides": None if host.flags.c_contiguous else host.strides,
            "data": (host.ctypes.data if host.size else 0, False),
        }

    # -- conversions -----------------------------------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        raise TypeError(IMPLICIT_CONVERSION)

    def get(self, stream=None, order="C", out=None, blocking=True):
        """A NumPy copy of the array in host memory (into `out` when given)."""
        cuda.refuse_while_capturing("a copy to the host")
        if out is not None:
            np.copyto(out, self._host)
            return out
        return np.array(self._host, order=order, copy=True)

    def set(self, arr, stream=None):
        """Copy the NumPy array `arr` into this array."""
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"Only numpy.ndarray can be set to cupy.ndarray, got {type(arr)}")
        cuda.refuse_while_capturing("a copy from the host")
        if arr.shape != self.shape:
            raise ValueError(f"Shape mismatch. Old shape: {self.shape}, new shape: {arr.shape}")
        np.copyto(self._host, arr, casting="unsafe")

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule of the buffer (kDLCUDA), made visible on the consumer's `stream` (the Array API's
        integers: None or 1 the legacy default stream, 2 the per-thread one, -1 no synchronization, else a
        stream pointer; 0 is ambiguous and refused). The stand-in runs work at once, so synchronizing is
        recording the request in `dlpack_syncs`. `dl_device=(kDLCPU, 0)` exports a host copy."""
        if stream == 0 or (stream is not None and not isinstance(stream, int)):
            raise ValueError(f"__dlpack__: stream={stream!r} is not a CUDA stream (0 is ambiguous)")
        to_host = dl_device is not None and tuple(dl_device) != (KDLCUDA, self._device)
        if to_host and tuple(dl_device) != (KDLCPU, 0):
            raise BufferError(
                f"__dlpack__: cannot export device {self._device} memory to {dl_device}"
            )
        if to_host and copy is False:
            raise BufferError(
                "__dlpack__: memory on a CUDA device needs a copy to the CPU (copy=False)"
            )
        if stream != -1:
            dlpack_syncs.append((1 if stream is None else stream, cuda.get_current_stream().ptr))
        host = self._host.copy() if copy or to_host else self._host
        capsule = host.__dlpack__(max_version=max_version) if max_version else host.__dlpack__()
        if not to_host:
            set_capsule_device(capsule, KDLCUDA, self._device)
        return capsule

    def __dlpack_device__(self):
        return (KDLCUDA, self._device)

    def tolist(self):
        cuda.refuse_while_capturing("a value read on the host")
        return self._host.tolist()

    def item(self, *args):
        cuda.refuse_while_capturing("a value read on the host")
        return self._host.item(*args)

    def __bool__(self):
        cuda.refuse_while_capturing("a value read on the host")
        return bool(self._host)

    def __int__(self):
        cuda.refuse_while_capturing("a value read on the host")
        return int(self._host)

    def __float__(self):
        cuda.refuse_while_capturing("a value read on the host")
        return float(self._host)

    def __complex__(self):
        cuda.refuse_while_capturing("a value read on the host")
        return complex(self._host)

    def __index__(self):
        cuda.refuse_while_capturing("a value read on the host")
        return self._host.__index__()

    def __len__(self):
        return len(self._host)

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self)))

    def __repr__(self):
        return repr(self._host)

    def __str__(self):
        return str(self._host)

    def __copy__(self):
        return self.copy()

    def __reduce__(self):
        from arraystack.backends.cupy.standin import module

        return (module.array, (self.get(),))

    # -- indexing --------------------------------------------------------------------------------------------
    def __getitem__(self, key):
        result = _result(self._host[_unwrap(key, allow_host=True)], (self,))
        cuda.record(lambda: _write(result, self._host[_unwrap(key, allow_host=True)]))
        return result

    def __setitem__(self, key, value):
        def assign():
            with cuda.Device(self._device):
                self._host[_unwrap(key, allow_host=True)] = _unwrap(value, allow_host=True)

        assign()
        cuda.record(assign)

    # -- methods (cupy.ndarray's, computed by NumPy's on the buffer) -----------------------------------------
    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        if not copy and np.dtype(dtype) == self.dtype:
            return self
        return _call(self._host.astype, (dtype,), {"order": order}, owner=self)

    def view(self, dtype=None):
        return _view_of(self, self._host.view() if dtype is None else self._host.view(dtype))

    def fill(self, value):
        self._host.fill(_unwrap(value))
        cuda.record(lambda: self._host.fill(_unwrap(value)))

    def sort(self, axis=-1, kind=None):
        check_sort_kind(kind)
        self._host.sort(axis=axis, kind="stable")
        cuda.record(lambda: self._host.sort(axis=axis, kind="stable"))

    def argsort(self, axis=-1, kind=None):
        check_sort_kind(kind)
        return _call(self._host.argsort, (), {"axis": axis, "kind": "stable"}, owner=self)

    def partition(self, kth, axis=-1):
        self._host.partition(kth, axis=axis)
        cuda.record(lambda: self._host.partition(kth, axis=axis))

    def put(self, indices, values, mode="wrap"):
        self._host.put(_unwrap(indices), _unwrap(values), mode=mode)
        cuda.record(lambda: self._host.put(_unwrap(indices), _unwrap(values), mode=mode))

    def reshape(self, *shape, order="C"):
        return _call(self._host.reshape, shape, {"order": order}, owner=self)

    def transpose(self, *axes):
        return _call(self._host.transpose, axes, owner=self)

    all = lambda self, *a, **k: _call(self._host.all, a, k, owner=self)
    any = lambda self, *a, **k: _call(self._host.any, a, k, owner=self)
    argmax = lambda self, *a, **k: _call(self._host.argmax, a, k, owner=self)
    argmin = lambda self, *a, **k: _call(self._host.argmin, a, k, owner=self)
    argpartition = lambda self, *a, **k: _call(self._host.argpartition, a, k, owner=self)
    choose = lambda self, *a, **k: _call(self._host.choose, a, k, owner=self)
    clip = lambda self, *a, **k: _call(self._host.clip, a, k, owner=self)
    compress = lambda self, *a, **k: _call(self._host.compress, a, k, owner=self)
    conj = lambda self, *a, **k: _call(self._host.conj, a, k, owner=self)
    conjugate = lambda self, *a, **k: _call(self._host.conjugate, a, k, owner=self)
    copy = lambda self, *a, **k: _call(self._host.copy, a, k, owner=self)
    cumprod = lambda self, *a, **k: _call(self._host.cumprod, a, k, owner=self)
    cumsum = lambda self, *a, **k: _call(self._host.cumsum, a, k, owner=self)
    diagonal = lambda self, *a, **k: _call(self._host.diagonal, a, k, owner=self)
    dot = lambda self, *a, **k: _call(self._host.dot, a, k, owner=self)
    flatten = lambda self, *a, **k: _call(self._host.flatten, a, k, owner=self)
    max = lambda self, *a, **k: _call(self._host.max, a, k, owner=self)
    mean = lambda self, *a, **k: _call(self._host.mean, a, k, owner=self)
    min = lambda self, *a, **k: _call(self._host.min, a, k, owner=self)
    nonzero = lambda self, *a, **k: _call(self._host.nonzero, a, k, owner=self)
    prod = lambda self, *a, **k: _call(self._host.prod, a, k, owner=self)
    ptp = lambda self, *a, **k: _call(np.ptp, (self, *a), k)
    ravel = lambda self, *a, **k: _call(self._host.ravel, a, k, owner=self)
    repeat = lambda self, *a, **k: _call(self._host.repeat, a, k, owner=self)
    round = lambda self, *a, **k: _call(self._host.round, a, k, owner=self)
    searchsorted = lambda self, *a, **k: _call(self._host.searchsorted, a, k, owner=self)
    squeeze = lambda self, *a, **k: _call(self._host.squeeze, a, k, owner=self)
    std = lambda self, *a, **k: _call(self._host.std, a, k, owner=self)
    sum = lambda self, *a, **k: _call(self._host.sum, a, k, owner=self)
    swapaxes = lambda self, *a, **k: _call(self._host.swapaxes, a, k, owner=self)
    take = lambda self, *a, **k: _call(self._host.take, a, k, owner=self)
    trace = lambda self, *a, **k: _call(self._host.trace, a, k, owner=self)
    var = lambda self, *a, **k: _call(self._host.var, a, k, owner=self)

    # -- operators: the namespace's ufuncs ------------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from arraystack.backends.cupy.standin import module

        function = getattr(module, ufunc.__name__, None)
        if function is None:
            return NotImplemented
        return (function if method == "__call__" else getattr(function, method))(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from arraystack.backends.cupy.standin import module

        namespace = module
        for part in func.__module__.split(".")[1:]:
            if part.startswith("_"):
                continue
            namespace = getattr(namespace, part, None)
        function = getattr(namespace, func.__name__, None)
        return NotImplemented if function is None else function(*args, **kwargs)


def _defers(x, y) -> bool:
    """cupy's `_should_use_rop`: whether x's operator returns NotImplemented for y (NEP 13: y's
    __array_ufunc__ is None; without one, a higher __array_priority__)."""
    try:
        y_ufunc = y.__array_ufunc__
    except AttributeError:
        return getattr(x, "__array_priority__", 0) < getattr(y, "__array_priority__", 0)
    return y_ufunc is None


def _operand(x):
    """An operand of a stand-in operator as cupy's ufuncs take it: an object exporting
    `__cuda_array_interface__` (an arraystack array on the device) as an array sharing its memory;
    anything else that is not an array or a scalar raises TypeError, as cupy does."""
    if _is_operand(x):
        return x
    if hasattr(x, "__cuda_array_interface__"):
        return from_cuda_array_interface(x)
    raise TypeError(f"Unsupported type {type(x)}")


def _operator(name, reflected=False, inplace=False):
    def operator(self, *other):
        if other and not _is_operand(other[0]):
            if _defers(self, other[0]):
                return NotImplemented
            other = (_operand(other[0]),)
        operands = (other[0], self) if reflected else (self, *other)
        if inplace:
            with cuda.Device(self._device):
                getattr(np, name)(*(_unwrap(o) for o in operands), out=self._host)
            return self
        return _call(getattr(np, name), operands)

    operator.__name__ = name
    return operator


for _name, _ufunc in (
    ("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
    ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"), ("matmul", "matmul"),
    ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"), ("lshift", "left_shift"),
    ("rshift", "right_shift"), ("divmod", "divmod"),
):  # fmt: skip
    setattr(ndarray, f"__{_name}__", _operator(_ufunc))
    setattr(ndarray, f"__r{_name}__", _operator(_ufunc, reflected=True))
    if _name != "divmod":
        setattr(ndarray, f"__i{_name}__", _operator(_ufunc, inplace=True))
for _name, _ufunc in (
    ("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal"),
    ("eq", "equal"), ("ne", "not_equal"), ("neg", "negative"), ("pos", "positive"),
    ("abs", "absolute"), ("invert", "invert"),
):  # fmt: skip
    setattr(ndarray, f"__{_name}__", _operator(_ufunc))
ndarray.__hash__ = None


# -- wrapping NumPy's results ------------------------------------------------------------------------------------
class _Pointer:
    """cupy.cuda.MemoryPointer as far as its readers go: the address and the device; like cupy's, it
    keeps the memory it points into alive."""

    __slots__ = ("_owner", "device_id", "ptr")

    def __init__(self, ptr, device_id, owner=None):
        self.ptr, self.device_id, self._owner = ptr, device_id, owner

    def copy_from_device_async(self, src, size, stream=None):
        """`size` bytes from `src` (any device: the stand-in's memory is the host's), at once."""
        if size:
            ctypes.memmove(self.ptr, src.ptr, size)
            cuda.record(lambda: ctypes.memmove(self.ptr, src.ptr, size))


def _allocate(nbytes):
    return cuda.allocate(nbytes)


def _write(result, value) -> None:
    """A recorded operation run again: its new value into the arrays its first run returned."""
    if isinstance(result, ndarray):
        host = np.asarray(value)
        if not np.shares_memory(result._host, host):
            np.copyto(result._host, host, casting="unsafe")
    elif isinstance(result, (tuple, list)):
        for r, v in zip(result, value):
            _write(r, v)


def _adopt(out, host, block, base):
    out._host, out._block, out._base = host, block, base
    out._device = block.device if block is not None else cuda.machine.current
    if block is not None and base is None:
        weakref.finalize(out, block.free)
    return out


def _new(host, block=None, base=None):
    return _adopt(object.__new__(ndarray), host, block, base)


def _root(array):
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _view_of(owner, host):
    return _new(host, owner._block, owner._base if owner._base is not None else owner)


def _result(value, inputs):
    """NumPy's result as the stand-in's: a view of an input shares its block, anything else is a new
    array on the current device, taking its bytes from the pool; tuples and lists recursively; NumPy
    scalars become 0-d arrays (cupy's reductions return arrays)."""
    if isinstance(value, np.generic):
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        root = _root(value)
        for x in inputs:
            if isinstance(x, ndarray) and _root(x._host) is root:
                return _view_of(x, value)
        if value.dtype.kind in "OUSVMm":
            raise TypeError(f"cupy does not support arrays of dtype {value.dtype}")
        return _new(value, _allocate(value.nbytes))
    if isinstance(value, (tuple, list)):
        items = [_result(v, inputs) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return value


def _is_operand(x):
    return isinstance(x, (ndarray, bool, int, float, complex, np.generic)) or x is None


def _unwrap(x, allow_host=False):
    """Arguments as NumPy sees them; a NumPy array raises TypeError as cupy does unless `allow_host`."""
    if isinstance(x, ndarray):
        if x._device != cuda.machine.current:
            raise ValueError(
                f"The device where the array resides ({x._device}) is different from the current "
                f"device ({cuda.machine.current}). Peer access is unavailable between these devices."
            )
        return x._host
    if isinstance(x, np.ndarray) and not allow_host:
        raise TypeError(f"Unsupported type {type(x)}")
    if isinstance(x, (tuple, list)):
        return type(x)(_unwrap(v, allow_host) for v in x)
    if isinstance(x, dict):
        return {k: _unwrap(v, allow_host) for k, v in x.items()}
    return x


def _call(function, args, kwargs=None, allow_host=False, owner=None):
    """`function` (NumPy's) on the buffers of the arguments; its result as the stand-in's. `owner`: the array
    whose bound method `function` is (its views share its block)."""
    kwargs = kwargs or {}
    inputs = [a for a in (owner, *args, *kwargs.values()) if isinstance(a, ndarray)]
    if owner is not None:
        _unwrap(owner)  # on the current device
    out = kwargs.get("out")
    # cupy computes on the device: NumPy's error state never applies
    with np.errstate(all="ignore"):
        value = function(*_unwrap(args, allow_host), **_unwrap(kwargs, allow_host))
    result = out if isinstance(out, ndarray) else _result(value, inputs)

    def again():
        with np.errstate(all="ignore"):
            _write(result, function(*_unwrap(args, allow_host), **_unwrap(kwargs, allow_host)))

    cuda.record(again)
    return result


def check_sort_kind(kind):
    """cupy sorts stably and takes no other kind."""
    if kind is not None and kind != "stable":
        raise ValueError("kind can only be None or 'stable'")


def host_buffer(x):
    """What a CPU launch receives for a kernel argument: a stand-in array's buffer, scalars as they are."""
    return x._host if isinstance(x, ndarray) else x


def from_host(host, copy=True):
    """A NumPy array (or anything NumPy converts) as a new array on the current device."""
    cuda.refuse_while_capturing("a copy from the host")
    host = np.array(host, copy=True) if copy else np.asarray(host)
    if host.dtype.kind in "OUSVMm":
        raise ValueError(f"Unsupported dtype {host.dtype}")
    return _new(host, _allocate(host.nbytes))


# (consumer stream, producer's current stream) of each `__dlpack__` asked to synchronize, oldest first
dlpack_syncs: list[tuple[int, int]] = []


def from_dlpack(x, *, device=None, copy=None):
    """cupy.from_dlpack: an array sharing the memory of a producer whose memory is on a CUDA device (on the
    stand-in: host memory exported as kDLCUDA)."""
    if isinstance(x, ndarray):
        return x.copy() if copy else x
    kind, index = x.__dlpack_device__()
    if int(kind) != KDLCUDA:
        raise BufferError(
            f"cupy.from_dlpack takes memory on a CUDA device (kDLCUDA), not DLPack device type {kind}; "
            "copy host memory with cupy.asarray"
        )
    # the consumer's stream; 1: the legacy default stream
    stream = cuda.get_current_stream().ptr or 1
    try:
        capsule = x.__dlpack__(stream=stream, max_version=(1, 0))
    except TypeError:
        capsule = x.__dlpack__(stream=stream)
    set_capsule_device(capsule, KDLCPU, 0)
    host = np.from_dlpack(HostCapsule(capsule))
    with cuda.Device(int(index)):
        out = _new(host, None)
    return out.copy() if copy else out


def from_cuda_array_interface(obj):
    """An array sharing the memory `obj.__cuda_array_interface__` describes (on the stand-in: host memory)."""
    interface = dict(obj.__cuda_array_interface__)
    interface.pop("stream", None)
    interface["version"] = 3

    class Interface:
        __array_interface__ = interface
        source = obj  # keeps the producer alive as long as the view

    host = np.asarray(Interface())
    return _new(host, None)
