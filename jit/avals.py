"""Abstract values: what the IR knows about an array (shape, dtype, weak type), never its contents."""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

# bfloat16 (ml_dtypes' NumPy dtype, as JAX uses): a floating type whose NumPy kind is "V", so code
# that asks a dtype's kind asks `kind_of` (which answers "f" for it)
bfloat16 = np.dtype(ml_dtypes.bfloat16)

_SHORT = {
    "bool": "bool",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "complex64": "c64",
    "complex128": "c128",
}
_LONG = {short: np.dtype(long) for long, short in _SHORT.items()}


def slot_setters(cls, *names):
    """The setters of a slotted class's fields, by name: how the written-out __init__ of a frozen
    dataclass made for every traced equation stores its fields (a slot's own setter is the cheapest
    way past the frozen __setattr__). One name gives one setter, several a tuple of them."""
    setters = tuple(cls.__dict__[name].__set__ for name in names)
    return setters[0] if len(names) == 1 else setters


def dtype_short_name(dtype) -> str:
    """`float32` -> `f32`, the spelling the printer uses. A dtype the IR does not hold (object, str,
    datetime64, a byte-swapped one) keeps NumPy's spelling, `object` or `>f4`, so that an error naming
    it reads well."""
    dtype = np.dtype(dtype)
    short = _SHORT.get(dtype.name)
    return short if short is not None and dtype.isnative else str(dtype)


def dtype_from_short_name(name: str) -> np.dtype:
    try:
        return _LONG[name]
    except KeyError:
        raise ValueError(f"unknown dtype {name!r} in IR text") from None


def kind_of(dtype) -> str:
    """NumPy's `dtype.kind`, but "f" for bfloat16 (whose NumPy kind is "V", the kind of structured
    dtypes): the kind to test when asking whether a dtype is floating."""
    kind = dtype.kind
    # == rather than `is`: NumPy may hand out another instance of the dtype (ufunc.resolve_dtypes does)
    return "f" if kind == "V" and dtype == bfloat16 else kind


def is_supported_dtype(dtype) -> bool:
    return np.dtype(dtype).name in _SHORT


@dataclass(frozen=True, slots=True)
class ShapedArray:
    """shape + dtype of a value. `weak_type` marks values born from Python scalars (NEP 50)."""

    shape: tuple
    dtype: np.dtype
    weak_type: bool = False

    def __init__(self, shape: tuple, dtype: np.dtype, weak_type: bool = False):
        # written out (every traced equation makes avals): see slot_setters
        _set_shape(self, shape)
        _set_dtype(self, dtype)
        _set_weak_type(self, weak_type)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def str_short(self) -> str:
        weak = "~" if self.weak_type else ""
        return f"{weak}{dtype_short_name(self.dtype)}[{','.join(map(str, self.shape))}]"

    def update(self, shape=None, dtype=None, weak_type=None) -> ShapedArray:
        return ShapedArray(
            self.shape if shape is None else tuple(shape),
            self.dtype if dtype is None else np.dtype(dtype),
            self.weak_type if weak_type is None else weak_type,
        )

    def __repr__(self):
        return f"ShapedArray({self.str_short()})"


_set_shape, _set_dtype, _set_weak_type = slot_setters(ShapedArray, "shape", "dtype", "weak_type")


def aval_of_concrete(value) -> ShapedArray:
    """The aval of a concrete value: a NumPy array or scalar, or a Python scalar (weakly typed, a
    bool too: Python's operators compute with it as the int 0 or 1, True + True is 2)."""
    if isinstance(value, np.generic):  # NumPy scalars are strongly typed (np.float64 subclasses float)
        return ShapedArray((), value.dtype, False)
    if isinstance(value, bool):
        return ShapedArray((), np.dtype(bool), True)
    if isinstance(value, int):
        return ShapedArray((), np.dtype(np.int64), True)
    if isinstance(value, float):
        return ShapedArray((), np.dtype(np.float64), True)
    if isinstance(value, complex):
        return ShapedArray((), np.dtype(np.complex128), True)
    return ShapedArray(tuple(value.shape), np.dtype(value.dtype), False)
