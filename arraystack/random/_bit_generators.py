"""Bit generators: NumPy's own (subclassed), so streams, states, jumps and pickles are NumPy's exactly.

Each class is a subclass of its NumPy namesake, so `numpy.random.Generator(arraystack.random.PCG64(0))` and
`isinstance(bg, numpy.random.PCG64)` work; seeds may be arraystack arrays and `random_raw` returns
arraystack arrays. `SeedSequence` and `BitGenerator` are NumPy's classes themselves.
"""

from __future__ import annotations

import numpy

from arraystack.random._boundary import call, check_eager, to_numpy

# Note: SeedSequence is NumPy's class itself, so `generate_state` returns NumPy arrays. NumPy's bit
# generators read that buffer directly, so a subclass returning arraystack arrays could not seed them.
SeedSequence = numpy.random.SeedSequence
BitGenerator = numpy.random.BitGenerator


def _init(self, numpy_type, name, args, kwargs):
    check_eager(name, args, kwargs, staging=False)
    found: dict = {}
    numpy_type.__init__(self, *to_numpy(args, found), **to_numpy(kwargs, found))


def _random_raw(self, numpy_type, size, output):
    def draw(size, output):
        return numpy_type.random_raw(self, size, output)

    return call(f"{numpy_type.__name__}.random_raw", draw, (size, output), {})


_RAW_DOC = "NumPy's `random_raw`: the raw 64-bit outputs, as an arraystack uint64 array.\n"


def _class_doc(numpy_type) -> str:
    """The docstring of a subclass of NumPy's bit generator `numpy_type`: arraystack's summary and
    See Also, then NumPy's documentation of the class (which describes the parameters), with NumPy's
    indentation so that inspect.getdoc() dedents both together."""
    mirrored = f"numpy.random.{numpy_type.__name__}"
    body = (numpy_type.__doc__ or "").lstrip("\n")
    indent = body[: len(body) - len(body.lstrip(" "))]
    heading = f"NumPy's documentation of {mirrored}"
    lines = [
        "",
        "Seeds may be arraystack arrays, and `random_raw` returns arraystack arrays;",
        f"``isinstance(bg, {mirrored})`` holds, so NumPy's Generator accepts it.",
        "",
        "See Also",
        "--------",
        f"{mirrored} : the class mirrored (this is a subclass).",
        "arraystack.random.Generator, arraystack.random.default_rng",
        "",
        heading,
        "-" * len(heading),
    ]
    summary = f"NumPy's {numpy_type.__name__} bit generator, subclassed: its streams, states, jumps."
    return summary + "\n" + "\n".join(indent + line if line else "" for line in lines) + "\n" + body


class PCG64(numpy.random.PCG64):
    __doc__ = _class_doc(numpy.random.PCG64)
    __wrapped__ = numpy.random.PCG64  # inspect.signature shows NumPy's parameters

    def __init__(self, *args, **kwargs):
        _init(self, numpy.random.PCG64, "PCG64", args, kwargs)

    def random_raw(self, size=None, output=True):
        return _random_raw(self, numpy.random.PCG64, size, output)

    random_raw.__doc__ = _RAW_DOC + (numpy.random.PCG64.random_raw.__doc__ or "")


class PCG64DXSM(numpy.random.PCG64DXSM):
    __doc__ = _class_doc(numpy.random.PCG64DXSM)
    __wrapped__ = numpy.random.PCG64DXSM  # inspect.signature shows NumPy's parameters

    def __init__(self, *args, **kwargs):
        _init(self, numpy.random.PCG64DXSM, "PCG64DXSM", args, kwargs)

    def random_raw(self, size=None, output=True):
        return _random_raw(self, numpy.random.PCG64DXSM, size, output)

    random_raw.__doc__ = PCG64.random_raw.__doc__


class Philox(numpy.random.Philox):
    __doc__ = _class_doc(numpy.random.Philox)
    __wrapped__ = numpy.random.Philox  # inspect.signature shows NumPy's parameters

    def __init__(self, *args, **kwargs):
        _init(self, numpy.random.Philox, "Philox", args, kwargs)

    def random_raw(self, size=None, output=True):
        return _random_raw(self, numpy.random.Philox, size, output)

    random_raw.__doc__ = PCG64.random_raw.__doc__


class SFC64(numpy.random.SFC64):
    __doc__ = _class_doc(numpy.random.SFC64)
    __wrapped__ = numpy.random.SFC64  # inspect.signature shows NumPy's parameters

    def __init__(self, *args, **kwargs):
        _init(self, numpy.random.SFC64, "SFC64", args, kwargs)

    def random_raw(self, size=None, output=True):
        return _random_raw(self, numpy.random.SFC64, size, output)

    random_raw.__doc__ = PCG64.random_raw.__doc__


class MT19937(numpy.random.MT19937):
    __doc__ = _class_doc(numpy.random.MT19937)
    __wrapped__ = numpy.random.MT19937  # inspect.signature shows NumPy's parameters

    def __init__(self, *args, **kwargs):
        _init(self, numpy.random.MT19937, "MT19937", args, kwargs)

    def random_raw(self, size=None, output=True):
        return _random_raw(self, numpy.random.MT19937, size, output)

    random_raw.__doc__ = PCG64.random_raw.__doc__
