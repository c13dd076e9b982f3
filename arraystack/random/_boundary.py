"""The eager boundary between arraystack and NumPy's random streams: every draw goes through `call`.

`call` refuses traced operands and staging traces (jit, vmap) with a TracedRandomError, hands NumPy the
buffers behind arraystack arrays, and wraps NumPy's results as arraystack arrays.
"""

from __future__ import annotations

import numpy

from arraystack._core.array import ndarray, wrap
from arraystack._core.devices import CPU, creation_device, device_of_buffer, host_values, to_device
from arraystack._core.dtypes import SUPPORTED
from arraystack.ir.ad import BatchTrace
from arraystack.ir.core import ConcretizationError, Tracer, active, trace_state, user_source
from arraystack.ir.trace import GraphTrace

_DEVICE = "device"  # the key of `found` naming the device of the first operand that lives on one


class TracedRandomError(ConcretizationError):
    """A NumPy-stream random function was called on a traced value or inside arraystack.jit / vmap.

    NumPy's generators are stateful and draw eagerly; a traced program cannot hold their draws.

    See Also
    --------
    jax.errors.ConcretizationTypeError : JAX's error for a traced value used as a concrete one.
    arraystack.prng : functional keys, which trace: the fix the message suggests.
    """


class NumpyOwner:
    """An arraystack object that owns a NumPy random object (`_numpy`): a Generator or a RandomState.

    Passed to a NumPy random function (`default_rng(rng)`, `RandomState(...)`), it stands for that object."""

    __slots__ = ("__weakref__", "_numpy")


_FIX = (
    "Inside jitted or vmapped code use arraystack.prng, the functional key API: "
    "`key = arraystack.prng.key(seed)`, `k1, k2 = arraystack.prng.split(key)`, "
    "`arraystack.prng.normal(k1, shape)` (a fresh key per draw), or draw the numbers outside and pass them "
    "in as an argument. Under an eager grad, draw noise that does not depend on the traced value "
    "(`loc + scale * rng.standard_normal(shape)`)."
)


def _staging_trace():
    """The active trace that stages a computation for later (jit) or for a whole batch (vmap), if any."""
    if not active.n:
        return None
    for trace in trace_state.stack:
        if isinstance(trace, (GraphTrace, BatchTrace)):
            return trace
    return None


def _traced(x) -> bool:
    t = type(x)
    if t is ndarray or isinstance(x, ndarray):
        return type(x._value) is Tracer
    if t is Tracer:
        return True
    if t is list or t is tuple:
        return any(_traced(v) for v in x)
    if t is dict:
        return any(_traced(v) for v in x.values())
    return False


def check_eager(name: str, args=(), kwargs=None, staging: bool = True) -> None:
    """Raise TracedRandomError if a draw named `name` sees a traced operand or runs under jit/vmap.

    Constructors pass staging=False: building a seeded generator inside jit draws nothing (its draws
    raise), but a traced seed cannot be read."""
    if not active.n:
        return
    if _traced(args) or (kwargs and _traced(kwargs)):
        why = "was called on a traced value"
    else:
        trace = _staging_trace() if staging else None
        if trace is None:
            return
        why = "was called inside " + (
            "arraystack.vmap"
            if isinstance(trace, BatchTrace)
            else "arraystack.jit (a staged trace)"
        )
    where = user_source()
    at = f" at {where}" if where else ""
    raise TracedRandomError(
        f"arraystack.random.{name} {why}{at}. It draws from NumPy's stateful random stream, which "
        "cannot be traced: a compiled function would replay the same numbers on every call. " + _FIX
    )


def to_numpy(x, found: dict):
    """`x` with arraystack arrays replaced by their NumPy buffers (no copy) and arraystack Generators /
    RandomStates by the NumPy objects they own; containers are rebuilt only when something changed.
    `found` maps id(buffer) -> the arraystack array, so a result that is an argument (out=) maps back."""
    t = type(x)
    if t is ndarray or isinstance(x, ndarray):
        value = x._value
        if not isinstance(value, numpy.ndarray):  # a device buffer: NumPy's streams run on the host
            found.setdefault(_DEVICE, device_of_buffer(value))  # where the results go
            value = host_values(value)  # read back (an explicit copy)
        if value.ndim == 0:
            # Note: arraystack returns 0-d arrays where NumPy returns scalars (np.sum, x[i]), and NumPy
            # reads a few arguments differently for the two (permutation(n)), so 0-d operands go in as
            # NumPy's scalars. `out=` keeps its array (see call).
            return value[()]
        found[id(value)] = x
        return value
    if isinstance(x, NumpyOwner):
        return x._numpy
    if t is list or t is tuple:
        items = [to_numpy(v, found) for v in x]
        return x if all(a is b for a, b in zip(items, x)) else t(items)
    if t is dict:
        items = {k: to_numpy(v, found) for k, v in x.items()}
        return x if all(items[k] is x[k] for k in x) else items
    return x


def to_arraystack(result, found: dict):
    """NumPy's result as arraystack returns it: arrays and NumPy scalars become arraystack arrays (0-d for
    scalars), an argument returned (out=) is the caller's own array, Python scalars and bytes stay as they
    are."""
    t = type(result)
    if t is numpy.ndarray:
        same = found.get(id(result))
        if same is not None:
            return same
        # Note: arrays of a dtype arraystack does not hold (choice over strings or objects) stay NumPy's.
        return wrap(result) if result.dtype in SUPPORTED else result
    if isinstance(result, numpy.generic) and result.dtype in SUPPORTED:
        return wrap(result)
    return result


def call(name: str, method, args, kwargs):
    """Draw eagerly: `method(*args, **kwargs)` on NumPy's object, with arraystack operands and results.
    NumPy's streams run on the host: operands on a device are read back, and the results go to their
    device, or to the default device (`arraystack.default_device`) when none is on one."""
    if active.n:
        check_eager(name, args, kwargs)
    found: dict = {}
    args = to_numpy(args, found)
    if kwargs:
        out = kwargs.get("out")
        if isinstance(out, ndarray) and not isinstance(out._value, numpy.ndarray):
            raise ValueError(
                f"{name}: out= is an array on {out.device}; NumPy's random streams draw on the host, "
                "so out= must be a CPU array (draw, then move the result with to_device)"
            )
        kwargs = to_numpy(kwargs, found)
        if isinstance(out, ndarray) and out.ndim == 0:  # written into: its buffer, not a scalar
            kwargs["out"] = out._value
            found[id(out._value)] = out
    result = to_arraystack(method(*args, **kwargs), found)
    target = found.get(_DEVICE) or creation_device(None)
    return result if target is None or target == CPU else _placed_on(result, target, found)


def _placed_on(result, target, found):
    """Results (an array or a tuple of them) on `target`; arguments returned as results stay as they are."""
    if isinstance(result, tuple):
        return tuple(_placed_on(r, target, found) for r in result)
    if isinstance(result, ndarray) and not any(result is v for v in found.values()):
        return wrap(to_device(result._value, target))
    return result


def numpy_doc(mirrored: str, numpy_function, stream: str) -> str:
    """The docstring of a forwarder to NumPy's `mirrored`: arraystack's summary, See Also and notes
    (NumPy's section order), then NumPy's own documentation, which describes the parameters.

    Built at import for ~150 functions, so it only slices strings: NumPy's text keeps its own
    indentation, and arraystack's lines take the same, so inspect.getdoc() dedents them together."""
    doc = numpy_function.__doc__ or ""
    body = doc.lstrip("\n")
    indent = body[: len(body) - len(body.lstrip(" "))]
    name = mirrored.rsplit(".", 1)[-1]
    first, _, rest = body.partition("\n\n")
    if first.strip().startswith(f"{name}("):  # NumPy's Cython docstrings open with the signature
        first = rest.partition("\n\n")[0]
    summary = " ".join(first.split()) or f"NumPy's `{mirrored}`."
    heading = f"NumPy's documentation of {mirrored}"
    lines = [
        "",
        "Forwards to the NumPy function named under See Also: the same values for the same seed,",
        "with arraystack arrays accepted as arguments and returned as results. The parameters and",
        f"results are NumPy's, documented below. It draws from {stream}.",
        "",
        "See Also",
        "--------",
        f"{mirrored} : the function mirrored.",
        "arraystack.prng : functional keys, for random numbers inside jit and vmap.",
        "",
        "Notes",
        "-----",
        "Eager only: called on traced values, or inside arraystack.jit or vmap, it raises",
        "TracedRandomError.",
        "",
        heading,
        "-" * len(heading),
    ]
    return summary + "\n" + "\n".join(indent + line if line else "" for line in lines) + "\n" + body


def forward(owner: str, name: str, numpy_type):
    """A method of the arraystack class `owner` that calls method `name` of the NumPy object it owns."""
    qualified = f"{owner}.{name}"

    def method(self, *args, **kwargs):
        return call(qualified, getattr(self._numpy, name), args, kwargs)

    method.__name__ = name
    method.__qualname__ = qualified
    method.__doc__ = numpy_doc(
        f"numpy.random.{qualified}", getattr(numpy_type, name), f"the NumPy {owner} it owns"
    )
    return method
