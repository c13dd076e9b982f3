"""Data types: NumPy's dtype objects and scalar types, NEP 50 promotion, finfo/iinfo.

arraystack uses NumPy's dtype objects themselves (`arraystack.float32 is numpy.float32`), so dtypes compare,
hash and print exactly as in NumPy, and NumPy 2's promotion rules (weak Python scalars) apply unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np

from arraystack.ir.avals import bfloat16 as _BFLOAT16
from arraystack.ir.core import (
    HostDtypeError,
    Tracer,
    active,
    device_namespaces,
    host_dtype_message,
    is_host_dtype,
)

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

bool_ = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
# ml_dtypes' scalar type, as in JAX: a NumPy dtype of kind "V" (see the Notes of result_type)
bfloat16 = ml_dtypes.bfloat16
complex64, complex128 = np.complex64, np.complex128
intp, uintp = np.intp, np.uintp
byte, ubyte, short, ushort = np.byte, np.ubyte, np.short, np.ushort
intc, uintc, int_, uint = np.intc, np.uintc, np.int_, np.uint
longlong, ulonglong = np.longlong, np.ulonglong
long, ulong = np.long, np.ulong
half, single, double = np.half, np.single, np.double
csingle, cdouble = np.csingle, np.cdouble
dtype = np.dtype
generic, number, integer = np.generic, np.number, np.integer
signedinteger, unsignedinteger = np.signedinteger, np.unsignedinteger
inexact, floating, complexfloating = np.inexact, np.floating, np.complexfloating
# the scalar types of the host dtypes, NumPy's own (see host_dtype)
datetime64, timedelta64, str_, bytes_ = np.datetime64, np.timedelta64, np.str_, np.bytes_
object_, void = np.object_, np.void
flexible, character = np.flexible, np.character

SUPPORTED = tuple(
    np.dtype(t)
    for t in (
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    )
)
_SUPPORTED_SET = frozenset(SUPPORTED)
_NUMERIC_NAMES = frozenset(str(d) for d in SUPPORTED) | {"float", "int", "complex", "bool"}
_WEAK_SAMPLE = {"i": 0, "u": 0, "f": 0.0, "c": 0j, "b": False}


def _dtype_of_argument(dt) -> np.dtype:
    """numpy.dtype(dt), refusing an array as NumPy does (numpy.dtype would read an arraystack array's
    `.dtype`, taking a misplaced array argument for a dtype)."""
    if not isinstance(dt, (type, str, np.dtype, np.generic)) and hasattr(dt, "__array_namespace__"):
        raise TypeError(f"Cannot interpret '{dt!r}' as a data type")
    return np.dtype(dt)


def check_supported(dt) -> np.dtype:
    """The NumPy dtype for `dt`, or a TypeError naming it if arraystack does not support it."""
    d = _dtype_of_argument(dt)
    if d not in _SUPPORTED_SET:
        if other_byte_order(d) is not None:
            raise TypeError(
                f"dtype {d.str!r} (the other byte order) is not supported here: arraystack computes "
                f"in the machine's byte order ({d.newbyteorder('=')}); astype, array and asarray of "
                "host data give an array in that byte order (NumPy's buffer, for tobytes and "
                "tofile), and readers (frombuffer, fromfile, load) convert such data as it enters"
            )
        raise TypeError(
            f"arraystack does not support dtype {d} (supported: bool, int8-int64, uint8-uint64, "
            "float16/32/64, bfloat16, complex64/128)"
        )
    return d


def other_byte_order(dt) -> np.dtype | None:
    """`dt` as a dtype when it is a supported one in the other byte order ('>i4' on a little-endian
    machine), else None."""
    d = np.dtype(dt)
    if d.isnative or d.byteorder == "|" or d.newbyteorder("=") not in _SUPPORTED_SET:
        return None
    return d


def read_dtype(dt) -> np.dtype:
    """The dtype a reader of bytes (frombuffer, fromfile, ...) reads with: a supported one in either byte
    order (native_order converts what was read), else check_supported's TypeError."""
    d = np.dtype(dt)
    return d if other_byte_order(d) is not None else check_supported(d)


def host_dtype(dt, operation: str):
    """The NumPy dtype of `dt` when it is a host dtype (datetime64, timedelta64, str_, bytes_,
    StringDType, object, structured), else None.

    Arrays of host dtypes hold a NumPy buffer and are computed eagerly by NumPy; inside a trace,
    creating one raises a HostDtypeError naming `operation` and the user's line."""
    if dt is None or type(dt) is str and dt in _NUMERIC_NAMES:
        return None
    try:
        d = np.dtype(dt)
    except TypeError:
        return None
    if not is_host_dtype(d):
        return None
    if active.n:
        raise HostDtypeError(host_dtype_message(d, operation, "would make"))
    return d


def is_host(dt) -> bool:
    """Whether `dt` (a dtype object) is a host dtype: datetime64, timedelta64, str_, bytes_,
    StringDType, object or structured."""
    return is_host_dtype(dt)


def holds_host(x) -> bool:
    """Whether arraystack array `x` holds a host dtype: its functions are NumPy's (see host_dtype)."""
    return is_host(x._value.dtype)


def check_array_dtype(dt, operation: str) -> np.dtype:
    """check_supported for the dtype of a new array, which may also be a host dtype (see host_dtype)."""
    d = _dtype_of_argument(dt)
    if d in _SUPPORTED_SET:
        return d
    if is_host_dtype(d):
        return host_dtype(d, operation)
    return check_supported(d)


def native_order(value):
    """NumPy array `value` in the machine's byte order: a big-endian array (read from a file or a
    network buffer) is converted once where it enters arraystack, whose arrays and kernels hold native
    values only; NumPy itself accepts either order."""
    if value.dtype.isnative:
        return value
    return value.astype(value.dtype.newbyteorder("="))


def is_supported(dt) -> bool:
    """Whether arraystack arrays can have dtype `dt` (a dtype object)."""
    return dt in _SUPPORTED_SET


def _array_dtype(value):
    """The dtype of an arraystack array or traced value, or None for anything else."""
    from arraystack._core.array import ndarray

    if isinstance(value, ndarray):
        value = value._value
    if type(value) is Tracer:
        return value.aval.dtype
    if isinstance(value, np.ndarray):
        return value.dtype
    return None


def promotion_operand(value):
    """What to hand to numpy.result_type for one operand: a dtype, or a Python scalar stand-in if weak.

    arraystack arrays give their dtype (NEP 50: arrays, 0-d included, are strongly typed); Python scalars
    stay weak; everything else (dtypes, scalar types, strings, NumPy values) is NumPy's to interpret.
    """
    from arraystack._core.array import ndarray

    if isinstance(value, ndarray):
        value = value._value
    if type(value) is Tracer:
        aval = value.aval
        return _WEAK_SAMPLE[aval.dtype.kind] if aval.weak_type else aval.dtype
    if type(value) in device_namespaces:  # a device array: its dtype (NumPy cannot read it)
        return value.dtype
    return value


_PROMOTED_AS_THEY_ARE = (np.ndarray, np.generic, int, float, complex, Tracer)


def values_result_type(*values) -> np.dtype:
    """The result type of array-like `values` as NumPy's functions promote their arguments: a sequence
    (or other array-like) is read as an array, a Python scalar stays weak (NEP 50). numpy.result_type
    itself would read a list as a dtype specification."""
    from arraystack._core.array import ndarray
    from arraystack._core.families import families

    return result_type(
        *[
            v if isinstance(v, (ndarray, *_PROMOTED_AS_THEY_ARE)) else families.basic.asarray(v)
            for v in values
        ]
    )


def result_type(*arrays_and_dtypes: ArrayLike | DTypeLike) -> np.dtype:
    """Returns the type that results from applying the NumPy type promotion rules to the arguments.

    Parameters
    ----------
    *arrays_and_dtypes : list of arrays and dtypes
        The operands of some operation whose result type is needed; arraystack arrays are accepted.

    Returns
    -------
    out : dtype
        The result type.

    See Also
    --------
    numpy.result_type : The NumPy function this mirrors.
    promote_types, can_cast

    Notes
    -----
    NumPy 2 promotion (NEP 50): Python scalars are weak. bfloat16 takes float16's place in NumPy's
    lattice (bool, int8 and uint8 give bfloat16, int16 and uint16 float32, wider integers float64; a
    Python bool, int or float keeps bfloat16), except that bfloat16 with float16 gives float32, as in
    JAX. NumPy with ml_dtypes agrees where it answers; it refuses bfloat16 with float16 or with
    integers wider than 8 bits, and gives float64 for bfloat16 with a Python float.
    """
    operands = [promotion_operand(a) for a in arrays_and_dtypes]
    if any(_operand_dtype(o) is _BFLOAT16 for o in operands):
        return _promote_bfloat16(operands, np.result_type)
    return np.result_type(*operands)


def _operand_dtype(value):
    """The dtype a promotion operand names (a dtype, a scalar type, a dtype's name, an array or a NumPy
    scalar), or None for a Python scalar and anything else that names no dtype."""
    if isinstance(value, (bool, int, float, complex)) and not isinstance(value, np.generic):
        return None
    dt = getattr(value, "dtype", None)
    if isinstance(dt, np.dtype):
        return dt
    try:
        return np.dtype(value)
    except (TypeError, ValueError):
        return None


def _promote_bfloat16(operands, promote):
    """`promote(*operands)` with bfloat16 among them: bfloat16 in float16's place in NumPy's lattice (so
    NumPy's rules for integers and weak Python scalars apply), and bfloat16 with float16 is float32."""
    float16_given = False
    stand_ins = []
    for o in operands:
        dt = _operand_dtype(o)
        float16_given = float16_given or dt == np.float16
        stand_ins.append(np.dtype(np.float16) if dt is _BFLOAT16 else o)
    out = promote(*stand_ins)
    if out == np.float16:
        return np.dtype(np.float32) if float16_given else _BFLOAT16
    return out


def bfloat16_loop_operands(operands: tuple) -> tuple:
    """ufunc.resolve_dtypes operands (dtypes, or Python types for weak scalars) with a Python float met
    by bfloat16 given as bfloat16: NEP 50 keeps the array's dtype, where NumPy with ml_dtypes picks a
    float32 loop."""
    if _BFLOAT16 not in operands or float not in operands:
        return operands
    return tuple(_BFLOAT16 if o is float else o for o in operands)


def promote_types(type1: DTypeLike, type2: DTypeLike) -> np.dtype:
    """Returns the data type with the smallest size and smallest scalar kind to which both types may be
    safely cast.

    Parameters
    ----------
    type1 : dtype or dtype specifier
        First data type.
    type2 : dtype or dtype specifier
        Second data type.

    Returns
    -------
    out : dtype
        The promoted data type.

    See Also
    --------
    numpy.promote_types : The NumPy function this mirrors.
    result_type, can_cast
    """
    for t in (type1, type2):
        if _array_dtype(t) is not None:
            raise TypeError("Cannot construct a dtype from an array")
    if _operand_dtype(type1) is _BFLOAT16 or _operand_dtype(type2) is _BFLOAT16:
        # Note: NumPy with ml_dtypes refuses bfloat16 with float16 or wider integers (see result_type)
        return _promote_bfloat16((np.dtype(type1), np.dtype(type2)), np.promote_types)
    return np.promote_types(type1, type2)


def can_cast(from_: DTypeLike | NDArray, to: DTypeLike, casting: str = "safe") -> bool:
    """Returns True if a cast between data types can occur according to the casting rule.

    Parameters
    ----------
    from_ : dtype, dtype specifier or array
        Data type, or array (standing for its dtype), to cast from.
    to : dtype or dtype specifier
        Data type to cast to.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Controls what kind of data casting may occur.

    Returns
    -------
    out : bool
        True if the cast can occur according to the casting rule.

    See Also
    --------
    numpy.can_cast : The NumPy function this mirrors.
    promote_types, result_type

    Notes
    -----
    Python scalars are refused, as in NumPy 2.
    """
    dt = _array_dtype(from_)
    return np.can_cast(from_ if dt is None else dt, to, casting)


def issubdtype(arg1: DTypeLike, arg2: DTypeLike) -> bool:
    """Returns True if first argument is a typecode lower/equal in type hierarchy.

    Parameters
    ----------
    arg1 : dtype_like
        dtype or object coercible to one.
    arg2 : dtype_like
        dtype or object coercible to one.

    Returns
    -------
    out : bool

    See Also
    --------
    numpy.issubdtype : The NumPy function this mirrors.
    isdtype

    Notes
    -----
    An array argument is a TypeError, as in NumPy. bfloat16 is a floating type: it is a subtype of
    `floating`, `inexact`, `number` and `generic`, as in JAX (NumPy with ml_dtypes places its scalar
    type directly under `generic`).
    """
    for a in (arg1, arg2):
        if _array_dtype(a) is not None:
            raise TypeError("Cannot construct a dtype from an array")
    if _operand_dtype(arg1) is _BFLOAT16 and not isinstance(arg2, str):
        # Note: NumPy answers False for bfloat16 and floating
        if _operand_dtype(arg2) is _BFLOAT16:
            return True
        return isinstance(arg2, type) and issubclass(np.floating, arg2)
    return np.issubdtype(arg1, arg2)


def isdtype(dtype: DTypeLike, kind: DTypeLike | str | tuple[Any, ...]) -> bool:
    """Determine if a provided dtype is of a specified data type kind.

    Parameters
    ----------
    dtype : dtype
        The input dtype.
    kind : dtype or str or tuple of dtypes/strs
        A dtype or a kind name: 'bool', 'signed integer', 'unsigned integer', 'integral', 'real
        floating', 'complex floating', 'numeric'; or a tuple of them.

    Returns
    -------
    out : bool
        True if `dtype` is of the kind.

    See Also
    --------
    numpy.isdtype : The NumPy function this mirrors.
    issubdtype
    """
    if _array_dtype(dtype) is not None:
        raise TypeError(f"dtype argument must be a NumPy dtype, but it is a {type(dtype)}.")
    kinds = kind if type(kind) is tuple else (kind,)
    if _BFLOAT16 in [_kind_dtype(k) for k in (dtype, *kinds)]:
        # Note: NumPy refuses bfloat16; here it is a real floating dtype, as in JAX
        return any(_isdtype_bfloat16(_kind_dtype(dtype), k) for k in kinds)
    return np.isdtype(dtype, kind)


def _kind_dtype(kind):
    return None if isinstance(kind, str) else _operand_dtype(kind)


def _isdtype_bfloat16(dtype, kind) -> bool:
    if not isinstance(kind, str):
        return dtype is _kind_dtype(kind)
    np.isdtype(np.float32, kind)  # NumPy's error for an unknown kind name
    return dtype is _BFLOAT16 and kind in ("real floating", "numeric")


def _dtype_argument(x):
    dt = _array_dtype(x)
    # Note: NumPy's finfo/iinfo refuse arrays; the Array API (and arraystack) accept one for its dtype.
    return x if dt is None else dt


def finfo(x: DTypeLike | NDArray) -> np.finfo:
    """Machine limits for floating point types.

    Parameters
    ----------
    x : float, dtype, instance or ndarray
        Kind of floating point or complex data type (or an array of one) about which to get
        information.

    Returns
    -------
    info : numpy.finfo
        NumPy's finfo object (eps, max, min, tiny, resolution, ...).

    See Also
    --------
    numpy.finfo : The NumPy function this mirrors.
    iinfo

    Notes
    -----
    Also accepts an arraystack array, as the Array API requires. For bfloat16 it is
    `ml_dtypes.finfo(bfloat16)` (NumPy's finfo refuses it).
    """
    x = _dtype_argument(x)
    if _operand_dtype(x) is _BFLOAT16:
        return ml_dtypes.finfo(_BFLOAT16)
    return np.finfo(x)


def iinfo(x: DTypeLike | NDArray) -> np.iinfo:
    """Machine limits for integer types.

    Parameters
    ----------
    x : int, dtype, instance or ndarray
        The kind of integer data type (or an array of one) to get information about.

    Returns
    -------
    info : numpy.iinfo
        NumPy's iinfo object (min, max, bits).

    See Also
    --------
    numpy.iinfo : The NumPy function this mirrors.
    finfo

    Notes
    -----
    Also accepts an arraystack array, as the Array API requires.
    """
    return np.iinfo(_dtype_argument(x))


__all__ = [
    "bool_",
    "byte",
    "bytes_",
    "can_cast",
    "cdouble",
    "character",
    "complex64",
    "complex128",
    "complexfloating",
    "csingle",
    "datetime64",
    "double",
    "dtype",
    "finfo",
    "flexible",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "floating",
    "generic",
    "half",
    "iinfo",
    "inexact",
    "int8",
    "int16",
    "int32",
    "int64",
    "int_",
    "intc",
    "integer",
    "intp",
    "isdtype",
    "issubdtype",
    "long",
    "longlong",
    "number",
    "promote_types",
    "result_type",
    "short",
    "signedinteger",
    "single",
    "str_",
    "timedelta64",
    "ubyte",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintc",
    "uintp",
    "ulong",
    "ulonglong",
    "unsignedinteger",
    "ushort",
]


# dtype arguments seen often (types, dtype objects, names), mapped to their supported NumPy dtype
_FAST_DTYPES: dict = {float: np.dtype(np.float64), int: np.dtype(np.int64), bool: np.dtype(np.bool_),
                      complex: np.dtype(np.complex128)}  # fmt: skip
for _name in SUPPORTED:
    _FAST_DTYPES.update({np.dtype(_name): np.dtype(_name), np.dtype(_name).type: np.dtype(_name),
                         str(_name): np.dtype(_name)})  # fmt: skip


def fast_dtype(dtype) -> np.dtype | None:
    """The supported dtype a common spelling names (np.float32, "float32", float, a dtype object), or None
    for anything else (to be resolved the slow way)."""
    try:
        return _FAST_DTYPES.get(dtype)
    except TypeError:  # unhashable
        return None
