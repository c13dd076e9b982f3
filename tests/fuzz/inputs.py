"""Arguments of fuzzed programs: dtypes, value profiles (small integers, special values, ...),
memory layouts (transposed, strided, reversed, broadcast), and the constants programs build from
static shapes (`mask`, `indices`). Every argument can be rebuilt fresh for each tier and printed as
Python source."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy

DTYPES = ("bool", "int8", "uint8", "int32", "int64", "float32", "float64")
FLOATS = ("float32", "float64")
INTEGERS = ("int8", "uint8", "int32", "int64")

# Profiles of argument values. Floats: "small" holds integers in [-8, 8] (with -0.0), so sums,
# products and matmuls of them are exact in any summation order; "moderate" mixed-sign values over
# four decades; "positive" their magnitudes; "unit" magnitudes in [0.5, 2) (products of up to 100 of
# them stay finite and normal); "special" mixes ±0, ±inf, NaN, denormals, the extremes and ordinary
# values. Integers: "small", or "extreme" (the dtype's limits among small values). ("index", size)
# draws positions in [-size, size).
FLOAT_PROFILES = ("small", "moderate", "positive", "unit", "special")
INTEGER_PROFILES = ("small", "extreme")
SMALL_BOUND = 8


def special_values(dtype) -> list:
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return [True, False]
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        values = [0, 1, 2, 7, info.max, info.max - 1, info.min, info.min + 1]
        return values + ([-1, -2] if dtype.kind == "i" else [128, 127])
    info = numpy.finfo(dtype)
    tiny = float(info.smallest_normal)
    return [
        0.0,
        -0.0,
        math.inf,
        -math.inf,
        math.nan,
        tiny / 8,
        -tiny / 8,
        tiny,
        -tiny,
        float(info.max),
        -float(info.max),
        1.0,
        -1.0,
        0.5,
        float(info.eps),
        3.0,
        -2.5,
        1e-3,
    ]


def draw(rng, dtype, profile, shape) -> numpy.ndarray:
    """A C-contiguous array of this dtype and shape with values of the profile."""
    dtype = numpy.dtype(dtype)
    size = math.prod(shape)
    if isinstance(profile, tuple):  # ("index", size): positions along an axis of that size
        bound = profile[1]
        if bound == 0:
            return numpy.zeros(shape, dtype)
        return rng.integers(-bound, bound, size=shape).astype(dtype)
    if dtype.kind == "b":
        return numpy.asarray(rng.random(shape) < 0.5)  # an array when 0-d too
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -5
        values = rng.integers(low, 10 if dtype.kind == "u" else 6, size=size)
        if profile == "extreme":
            specials = numpy.array(special_values(dtype), dtype=dtype).astype(numpy.int64)
            pick = rng.random(size) < 0.5
            values = numpy.where(pick, rng.choice(specials, size=size), values)
        return values.astype(dtype).reshape(shape)
    if profile == "small":
        values = rng.integers(-SMALL_BOUND, SMALL_BOUND + 1, size=size).astype(numpy.float64)
        values[rng.random(size) < 0.1] = -0.0
    elif profile in ("moderate", "positive"):
        values = rng.standard_normal(size) * 10.0 ** rng.uniform(-2, 2, size)
        values[rng.random(size) < 0.08] = 0.0
        values[rng.random(size) < 0.05] = -0.0
        values = numpy.abs(values) if profile == "positive" else values
    elif profile == "unit":
        values = rng.uniform(0.5, 2.0, size) * rng.choice([-1.0, 1.0], size=size)
    else:
        values = rng.standard_normal(size) * 10.0 ** rng.uniform(-3, 3, size)
        pick = rng.random(size) < 0.6
        values = numpy.where(pick, rng.choice(special_values(dtype), size=size), values)
    with numpy.errstate(over="ignore"):
        return values.astype(dtype).reshape(shape)


# Layouts: "C" contiguous; "T" the transpose of a contiguous array; "strided" every other element of
# the last axis; "reversed" the first axis reversed (negative strides); "broadcast"
# numpy.broadcast_to of an array whose first axis has size 1 (zero strides, read-only).
LAYOUTS = ("C", "T", "strided", "reversed", "broadcast")


def layouts_for(ndim) -> tuple:
    if ndim == 0:
        return ("C",)
    if ndim == 1:
        return ("C", "strided", "reversed", "broadcast")
    return LAYOUTS


@dataclass(frozen=True)
class InputSpec:
    """One argument of a program: dims are symbols ("n", "m", "k", sized per variant) or ints."""

    name: str
    dims: tuple
    dtype: str
    profile: object
    layout: str = "C"

    def shape(self, sizes) -> tuple:
        return tuple(d if isinstance(d, int) else sizes[d] for d in self.dims)


@dataclass
class Argument:
    """A concrete argument: its contiguous base values and the layout built on them."""

    spec: InputSpec
    base: numpy.ndarray
    shape: tuple

    def fresh(self) -> numpy.ndarray:
        """A new array (own memory) with the values and layout of this argument."""
        return _apply_layout(self.base.copy(), self.spec.layout, self.shape)

    def source(self) -> str:
        return _layout_source(array_source(self.base), self.spec.layout, self.shape)


def make_argument(spec: InputSpec, sizes, rng) -> Argument:
    shape = spec.shape(sizes)
    profile = spec.profile
    if isinstance(profile, tuple):  # positions along an axis of the symbol's size
        profile = ("index", sizes[profile[1]] if isinstance(profile[1], str) else profile[1])
    base = draw(rng, spec.dtype, profile, _base_shape(shape, spec.layout))
    if isinstance(profile, tuple) and base.size and rng.random() < 0.05:
        base.reshape(-1)[rng.integers(base.size)] = profile[1]  # one position past the end
    return Argument(spec, base, shape)


def _base_shape(shape, layout):
    if layout == "T":
        return shape[::-1]
    if layout == "strided":
        return shape[:-1] + (2 * shape[-1],)
    if layout == "broadcast":
        return (1,) + shape[1:]
    return shape


def _apply_layout(base, layout, shape):
    if layout == "T":
        return base.T
    if layout == "strided":
        return base[..., ::2]
    if layout == "reversed":
        return base[::-1]
    if layout == "broadcast":
        return numpy.broadcast_to(base, shape)
    return base


def _layout_source(text, layout, shape):
    if layout == "T":
        return f"{text}.T"
    if layout == "strided":
        return f"{text}[..., ::2]"
    if layout == "reversed":
        return f"{text}[::-1]"
    if layout == "broadcast":
        return f"numpy.broadcast_to({text}, {tuple(shape)})"
    return text


def scalar_source(x) -> str:
    if isinstance(x, (bool, numpy.bool_)):
        return repr(bool(x))
    if isinstance(x, (int, numpy.integer)):
        return repr(int(x))
    x = float(x)
    if math.isnan(x):
        return "numpy.nan"
    if math.isinf(x):
        return "numpy.inf" if x > 0 else "-numpy.inf"
    return repr(x)


def _nested(values) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_nested(v) for v in values) + "]"
    return scalar_source(values)


def array_source(a: numpy.ndarray) -> str:
    """Python source that rebuilds `a` bit for bit (NaN payloads aside)."""
    dtype = f"numpy.{a.dtype.name}" if a.dtype.kind != "b" else "bool"
    if a.size == 0:
        return f"numpy.zeros({tuple(a.shape)}, dtype={dtype})"
    if a.ndim == 0:
        return f"numpy.array({scalar_source(a[()])}, dtype={dtype})"
    return f"numpy.array({_nested(a.tolist())}, dtype={dtype})"


# Constants built from static shapes inside a program: concrete under jit (shapes are static there).
def mask(shape, salt) -> numpy.ndarray:
    """A boolean mask of this shape (an int or a tuple), the same for the same shape and salt."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return numpy.random.default_rng([salt, *shape]).random(shape) < 0.5


def indices(size, count, salt) -> numpy.ndarray:
    """`count` positions in [-size, size) (none when size is 0), the same for the same input."""
    if size == 0:
        return numpy.zeros(0, numpy.int64)
    return numpy.random.default_rng([salt, size, count]).integers(-size, size, count)
