"""A stand-in for the parts of cupy the cupy backend uses, so the GPU path runs on machines without a GPU.

`module` is a module object used in place of `cupy`: its arrays (standin_array.ndarray) keep their buffer in
host memory, its functions are NumPy's, unwrapping and rewrapping arrays, and its `cuda` (standin_cuda.py)
has devices, streams, the memory pool with its limit and RawModule/RawKernel launching through the CPU
harness. It offers only names real cupy has (`CUPY_NAMES`, read from cupy's `cupy/__init__.py`, 15.0), and
where cupy's own functions have gaps (ufunc methods beyond add and multiply, `lexsort` by axis, `.at` of
multiply) it has the same ones, so code that runs on it does not rely on more than cupy offers.

Activation: `install()` / `uninstall()` (tests use the fixture of tests/backends/cupy/conftest.py), or
`ARRAYSTACK_CUDA_STANDIN=1` (or the number of devices) in the environment before arraystack is imported.
"""

from __future__ import annotations

import math
import os
import types

import numpy as np
from arraystack.backends.cupy import standin_array as arrays
from arraystack.backends.cupy import standin_cuda as cuda
from arraystack.backends.cupy.standin_array import ndarray

ENVIRONMENT = "ARRAYSTACK_CUDA_STANDIN"

# The public names of cupy's top-level namespace (cupy/__init__.py); those NumPy has too are NumPy's here.
CUPY_NAMES = """
AxisError ComplexWarning DataSource ElementwiseKernel Inf Infinity ModuleDeprecationWarning NAN NINF
NZERO NaN PINF PZERO RankWarning RawKernel RawModule ReductionKernel TooHardError
VisibleDeprecationWarning abs absolute acos acosh add all allclose alltrue amax amin angle any
append apply_along_axis apply_over_axes arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh
argmax argmin argpartition argsort argwhere around array array2string array_equal array_equiv
array_repr array_split array_str asanyarray asarray asarray_chkfinite ascontiguousarray asfarray
asfortranarray asin asinh asnumpy astype atan atan2 atanh atleast_1d atleast_2d atleast_3d average
bartlett base_repr binary_repr bincount bitwise_and bitwise_count bitwise_invert bitwise_left_shift
bitwise_not bitwise_or bitwise_right_shift bitwise_xor blackman bool bool_ broadcast
broadcast_arrays broadcast_shapes broadcast_to byte byte_bounds c_ can_cast cbrt cdouble ceil cfloat
choose clear_memo clip column_stack common_type complex128 complex64 complex_ complexfloating
compress concat concatenate conj conjugate convolve copy copysign copyto corrcoef correlate cos cosh
count_nonzero cov cross csingle cuda cumprod cumproduct cumsum cumulative_prod cumulative_sum
deg2rad degrees delete diag diag_indices diag_indices_from diagflat diagonal diff digitize
disable_experimental_feature_warning disp divide divmod dot double dsplit dstack dtype e ediff1d
einsum empty empty_like equal euler_gamma exceptions exp exp2 expand_dims expm1 extract eye fabs fft
fill_diagonal find_common_type finfo fix flatiter flatnonzero flip fliplr flipud float16 float32
float64 float_ float_power floating floor floor_divide fmax fmin fmod format_float_positional
format_float_scientific format_parser frexp fromDlpack from_dlpack frombuffer fromfile fromfunction
fromiter fromstring full full_like fuse gcd generic genfromtxt get_array_module get_array_wrap
get_default_memory_pool get_default_pinned_memory_pool get_printoptions gradient greater
greater_equal half hamming hanning heaviside histogram histogram2d histogramdd hsplit hstack hypot
i0 identity iinfo imag in1d index_exp indices inexact inf infty inner int16 int32 int64 int8 int_
intc integer interp intersect1d intp invert is_available isclose iscomplex iscomplexobj isdtype
isfinite isfortran isin isinf isnan isneginf isposinf isreal isrealobj isscalar issctype issubclass_
issubdtype issubsctype iterable ix_ kaiser kron lcm ldexp left_shift less less_equal lexsort linalg
linspace load loadtxt log log10 log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or
logical_xor logspace long longlong make_aligned_dtype mask_indices matmul matrix_transpose max
maximum may_share_memory mean median memoize meshgrid mgrid min min_scalar_type minimum mintypecode
mod modf moveaxis msort multiply nan nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax
nanmean nanmedian nanmin nanprod nanstd nansum nanvar ndarray ndim ndindex negative newaxis
nextafter nonzero not_equal number obj2sctype ogrid ones ones_like outer packbits pad partition
percentile permute_dims pi piecewise place poly poly1d polyadd polyfit polymul polynomial polysub
polyval positive pow power printoptions prod product promote_types ptp put put_along_axis putmask
quantile r_ rad2deg radians random ravel ravel_multi_index real real_if_close reciprocal remainder
repeat require reshape resize result_type right_shift rint roll rollaxis roots rot90 round round_
row_stack s_ safe_eval save savetxt savez savez_compressed sctype2char searchsorted select
set_printoptions set_string_function setdiff1d setxor1d shape shares_memory short show_config sign
signbit signedinteger sin sinc single singlecomplex sinh size sometrue sort sort_complex split sqrt
square squeeze stack std subtract sum swapaxes take take_along_axis tan tanh tensordot testing tile
trace transpose trapezoid trapz tri tril tril_indices tril_indices_from trim_zeros triu triu_indices
triu_indices_from true_divide trunc typename ubyte ufunc uint uint16 uint32 uint64 uint8 uintc uintp
ulong ulonglong union1d unique unique_all unique_counts unique_inverse unique_values unpackbits
unravel_index unsignedinteger unwrap ushort vander var vdot vectorize vsplit vstack where who zeros
zeros_like
""".split()  # noqa: SIM905 - a list of names, as cupy's source has them
LINALG_NAMES = """
matrix_power cross matmul matrix_transpose cholesky qr svd eigh eig eigvalsh eigvals norm cond det
matrix_rank slogdet solve tensorsolve lstsq inv pinv tensorinv LinAlgError
""".split()  # noqa: SIM905 - a list of names, as cupy's source has them
FFT_NAMES = """
fft fft2 fftfreq fftn fftshift hfft ifft ifft2 ifftn ifftshift ihfft irfft irfft2 irfftn rfft rfft2 rfftfreq
rfftn
""".split()  # noqa: SIM905 - a list of names, as cupy's source has them
# Functions of cupy that take host data (cupy copies it to the device); every other one refuses a NumPy
# array with TypeError.
HOST_INPUT = frozenset(
    [
        "array",
        "asarray",
        "asanyarray",
        "ascontiguousarray",
        "asfortranarray",
        "asarray_chkfinite",
        "copy",
        "frombuffer",
        "fromfile",
        "fromiter",
        "fromstring",
        "fromfunction",
        "loadtxt",
        "genfromtxt",
        "load",
    ]
)
# cupy's ufuncs with a scatter operation (`.at`), and those whose `.reduce`/`.accumulate` cupy implements
SCATTER_UFUNCS = frozenset(
    ["add", "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor"]
)
REDUCING_UFUNCS = frozenset(("add", "multiply"))


class ufunc:
    """cupy.ufunc on the stand-in: NumPy's ufunc on the buffers, with cupy's set of methods."""

    def __init__(self, host: np.ufunc):
        self.host = host
        self.__name__ = host.__name__
        self.nin, self.nout, self.nargs = host.nin, host.nout, host.nargs
        self.identity, self.types = host.identity, host.types

    def __call__(self, *args, **kwargs):
        return arrays._call(self.host, args, kwargs)

    def _unsupported(self, method):
        return NotImplementedError(f"`cupy_{self.__name__}.{method}` is not supported yet")

    def at(self, a, indices, b=None):
        if self.__name__ not in SCATTER_UFUNCS:
            raise self._unsupported("at")
        self.host.at(arrays._unwrap(a), arrays._unwrap(indices, allow_host=True), arrays._unwrap(b))

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False):
        if self.__name__ not in REDUCING_UFUNCS:
            raise self._unsupported("reduce")
        return arrays._call(
            self.host.reduce, (array,), {"axis": axis, "dtype": dtype, "keepdims": keepdims}
        )

    def accumulate(self, array, axis=0, dtype=None, out=None):
        if self.__name__ not in REDUCING_UFUNCS:
            raise self._unsupported("accumulate")
        return arrays._call(self.host.accumulate, (array,), {"axis": axis, "dtype": dtype})

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        if self.__name__ != "add":
            raise self._unsupported("reduceat")
        return arrays._call(self.host.reduceat, (array, indices), {"axis": axis, "dtype": dtype})

    def outer(self, a, b, **kwargs):
        return arrays._call(self.host.outer, (a, b), kwargs)

    def __repr__(self):
        return f"<ufunc 'cupy_{self.__name__}'>"


def _function(host, allow_host=False):
    def function(*args, **kwargs):
        return arrays._call(host, args, kwargs, allow_host)

    function.__name__ = host.__name__
    function.__doc__ = (
        f"cupy.{host.__name__} on the stand-in: numpy.{host.__name__} on the buffers."
    )
    return function


def _namespace(name, host, names, own=()):
    module = types.ModuleType(name)
    for attribute in names:
        value = dict(own).get(attribute, getattr(host, attribute, None))
        if attribute in dict(own) or value is None:
            pass
        elif isinstance(value, np.ufunc):
            value = ufunc(value)
        elif callable(value) and not isinstance(value, type):
            value = _function(value, allow_host=attribute in HOST_INPUT)
        if value is not None:
            setattr(module, attribute, value)
    return module


# -- cupy's own functions ----------------------------------------------------------------------------------------
def asarray(a, dtype=None, order=None, *, blocking=False):
    """cupy.asarray: `a` on the current device (the array itself when it is there with that dtype)."""
    if isinstance(a, ndarray):
        if a._device != cuda.machine.current:
            a = arrays.from_host(a._host)
        return a if dtype is None or np.dtype(dtype) == a.dtype else a.astype(dtype)
    if hasattr(a, "__cuda_array_interface__"):
        out = arrays.from_cuda_array_interface(a)
        return out if dtype is None or np.dtype(dtype) == out.dtype else out.astype(dtype)
    # a copy, as cupy's: device memory is never the caller's host buffer
    return arrays.from_host(np.asarray(a, dtype=dtype, order=order))


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
    """cupy.array: a new device array (a copy unless `copy` is False and none is needed)."""
    if isinstance(obj, ndarray) and obj._device == cuda.machine.current:
        host = np.array(obj._host, dtype=dtype, copy=copy, order=order, ndmin=ndmin)
        return arrays._result(host, (obj,))
    if isinstance(obj, ndarray):
        obj = obj._host
    elif hasattr(obj, "__cuda_array_interface__"):
        obj = arrays.from_cuda_array_interface(obj)._host
    return arrays.from_host(np.array(obj, dtype=dtype, order=order, ndmin=ndmin), copy=False)


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """cupy.asnumpy: a NumPy copy of a device array; host data as NumPy reads it."""
    if isinstance(a, ndarray):
        return a.get(stream, order, out)
    if hasattr(a, "__cuda_array_interface__"):
        return arrays.from_cuda_array_interface(a).get(order=order, out=out)
    host = np.asarray(a, order=order)
    if out is not None:
        np.copyto(out, host)
        return out
    return host


def get_array_module(*args):
    """The stand-in module when an argument is one of its arrays, else numpy."""
    return module if any(isinstance(a, ndarray) for a in args) else np


def lexsort(keys):
    """cupy.lexsort: keys of rank 1 or 2 only, and no axis (cupy's own limitation)."""
    keys = arrays._unwrap(keys)
    if np.ndim(keys) not in (1, 2):
        raise NotImplementedError("Keys with the rank of three or more is not supported in lexsort")
    return arrays._result(np.lexsort(keys), ())


def sort(a, axis=-1, kind=None):
    """cupy.sort: a stably sorted copy (cupy takes no kind but None or "stable")."""
    arrays.check_sort_kind(kind)
    return arrays._call(np.sort, (a,), {"axis": axis, "kind": "stable"})


def argsort(a, axis=-1, kind=None):
    """cupy.argsort: indices of a stable sort (cupy takes no kind but None or "stable")."""
    arrays.check_sort_kind(kind)
    return arrays._call(np.argsort, (a,), {"axis": axis, "kind": "stable"})


def _erf(x):
    host = arrays._unwrap(x)
    out = np.asarray(np.frompyfunc(math.erf, 1, 1)(host)).astype(np.result_type(host, np.float32))
    return arrays._result(out, ())


def _formatting(host):
    """cupy's array_repr/array_str/array2string: NumPy's of a host copy, from any current device."""

    def function(a, *args, **kwargs):
        return host(a.get() if isinstance(a, ndarray) else a, *args, **kwargs)

    function.__name__ = host.__name__
    return function


_OWN = (
    ("ndarray", ndarray),
    *((f.__name__, _formatting(f)) for f in (np.array_repr, np.array_str, np.array2string)),
    ("ufunc", ufunc),
    ("asarray", asarray),
    ("array", array),
    ("asnumpy", asnumpy),
    ("from_dlpack", arrays.from_dlpack),
    ("get_array_module", get_array_module),
    ("get_default_memory_pool", lambda: cuda.default_memory_pool),
    ("lexsort", lexsort),
    ("sort", sort),
    ("argsort", argsort),
    ("is_available", cuda.is_available),
    ("RawModule", cuda.RawModule),
    ("RawKernel", cuda.RawKernel),
)
_cuda = types.ModuleType("cupy.cuda")
for _name in cuda.__all__:
    setattr(_cuda, _name, getattr(cuda, _name))

module = _namespace("cupy", np, CUPY_NAMES, _OWN)
module.cuda = _cuda
module.linalg = _namespace("cupy.linalg", np.linalg, LINALG_NAMES)
module.fft = _namespace("cupy.fft", np.fft, FFT_NAMES)
module.__version__ = "15.0.0a1 (arraystack stand-in)"
# cupyx.scipy.special, as far as the backend uses it
special = types.ModuleType("cupyx.scipy.special")
special.erf = _erf

_installed = [False]


def install(devices: int = 1, memory: int = 16 << 30) -> types.ModuleType:
    """Use the stand-in in place of cupy: `devices` CUDA devices of `memory` bytes each. Returns it."""
    if devices < 1:
        raise ValueError(f"the stand-in needs at least one device, got {devices}")
    cuda.machine.count, cuda.machine.memory = int(devices), int(memory)
    cuda.machine.current = 0
    _installed[0] = True
    _changed()
    return module


def uninstall() -> None:
    """Stop using the stand-in: the cupy backend sees real cupy (or none) again."""
    _installed[0] = False
    for device in range(cuda.machine.count):
        with cuda.Device(device):
            cuda.default_memory_pool.set_limit(None)
            cuda.default_memory_pool.free_all_blocks()
    _changed()


def installed() -> bool:
    """Whether the stand-in is in use (installed, or asked for by ARRAYSTACK_CUDA_STANDIN)."""
    return _installed[0]


def _changed():
    """Devices appeared or went: the hardware model and the frontend's device tables are rebuilt."""
    from arraystack.backends import hardware, registry

    hardware.forget_detected()
    registry.changed()


def _from_environment():
    value = os.environ.get(ENVIRONMENT, "").strip().lower()
    if value and value not in ("0", "false", "no", "off"):
        _installed[0] = True
        cuda.machine.count = int(value) if value.isdigit() else 1


_from_environment()

__all__ = ["CUPY_NAMES", "install", "installed", "module", "special", "uninstall"]
