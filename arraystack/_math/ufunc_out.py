"""out= and where= of ufunc-style functions: NumPy's checks, then a write (eager) or a rebind
(traced).

Eager: results are cast into the caller's `out` arrays where `where` is true (NumPy's buffers are
written, so views alias as in NumPy), and those arrays are returned. Traced: each `out` array is
rebound to a new value (functionalized), `select(where, result, old value)`, so NumPy-style code
still traces."""

from __future__ import annotations

import numpy as np

from arraystack._core.array import ndarray, raw, wrap
from arraystack._core.operands import broadcast_raw, convert_raw, shape_of
from arraystack._transforms.aliasing import has_aliases, rebind
from arraystack.ir.core import Tracer, active, bind, device_namespaces
from arraystack.ir.primitives import select_p

_ndarray_np = np.ndarray


def normalize_out(out, nout):
    """`out` as a tuple of arraystack arrays (None where NumPy allocates), or None if none given."""
    if type(out) is ndarray and nout == 1:
        return (out,)
    if out is None:
        return None
    if type(out) is tuple:
        if len(out) != nout:
            raise ValueError(
                f"The 'out' tuple must have exactly {nout} entries: one per ufunc output"
            )
        outs = out
    elif nout != 1:
        raise TypeError("'out' must be a tuple of arrays")
    else:
        outs = (out,)
    if all(o is None for o in outs):
        return None
    return tuple([_out_array(o) for o in outs])


def _out_array(o):
    if o is None or isinstance(o, ndarray):
        return o
    if type(o) is _ndarray_np:
        return wrap(o)  # eager writes land in that NumPy buffer
    raise TypeError("return arrays must be of ArrayType")


def where_mask(where):
    """The raw bool mask of where= (None for True). NumPy casts an array to bool only safely."""
    if where is True:
        return None
    if hasattr(where, "dtype"):
        value = raw(where)
        if value.dtype != np.bool_:
            raise TypeError(
                f"Cannot cast array data from {value.dtype!r} to dtype('bool') "
                "according to the rule 'safe'"
            )
        return value
    return np.asarray(where, dtype=bool)


def operands_shape(raws, mask, outs):
    """The shape of the loop: inputs and where= broadcast together, then against each out (which
    must already have the full shape: NumPy never broadcasts an output)."""
    shapes = [r.shape if type(r) is _ndarray_np else shape_of(r) for r in raws]
    if mask is not None:
        shapes.append(shape_of(mask))
    shape = shapes[0]
    for other in shapes:
        if other != shape:
            shape = _broadcast(shapes)
            break
    for o in outs or ():
        if o is None:
            continue
        target = tuple(o.shape)
        if target == shape:
            continue
        try:
            full = np.broadcast_shapes(shape, target)
        except ValueError:
            full = None
        if full != target:
            raise ValueError(
                f"non-broadcastable output operand with shape {_shape_str(target)} doesn't match "
                f"the broadcast shape {_shape_str(full or shape)}"
            )
        shape = target
    return shape


def _broadcast(shapes):
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with shapes "
            + " ".join(map(_shape_str, shapes))
        ) from None


def _shape_str(shape):
    return str(tuple(shape)).replace(" ", "")


def check_cast(from_dtype, to_dtype, casting, name="ufunc"):
    """NumPy's check before writing a result into an existing array (a TypeError, as NumPy's)."""
    if (
        casting != "unsafe"
        and from_dtype != to_dtype
        and not np.can_cast(from_dtype, to_dtype, casting)
    ):
        raise TypeError(
            f"Cannot cast {name} output from {np.dtype(from_dtype)!r} to "
            f"{np.dtype(to_dtype)!r} with casting rule '{casting}'"
        )


def write_out(results, outs, mask, shape, casting="same_kind", name="ufunc"):
    """Store raw `results` (one per output) into `outs` where `mask`; returns the arraystack
    results."""
    final = []
    for i, result in enumerate(results):
        target = outs[i] if outs is not None else None
        if target is None:
            final.append(wrap(_masked(result, mask, shape)))
        else:
            final.append(assign(target, result, casting, mask, name))
    return tuple(final) if len(final) > 1 else final[0]


def _masked(result, mask, shape):
    """A new result where where= is false. Note: NumPy leaves those entries uninitialized;
    arraystack zero-fills them, so they are deterministic."""
    if mask is None:
        return result
    dtype = np.dtype(result.dtype)
    if type(result) is not Tracer and type(mask) is not Tracer:
        out = np.zeros(shape, dtype)
        np.copyto(out, result, where=mask)
        return out
    mask = broadcast_raw(mask, shape)
    return bind(select_p, mask, broadcast_raw(result, shape), convert_raw(0, dtype))


def assign(target: ndarray, value, casting="same_kind", mask=None, name="ufunc"):
    """`target[...] = value` (where `mask`) after NumPy's casting check: eager writes the buffer,
    traced rebinds `target`. `value` is a raw operand or an arraystack array; returns `target`."""
    if isinstance(value, ndarray):
        value = value._value
    if casting != "unsafe":
        dtype = value.dtype if hasattr(value, "dtype") else np.asarray(value).dtype
        check_cast(dtype, target.dtype, casting, name)
    current = target._value
    if device_namespaces and (type(value) in device_namespaces) != (
        type(current) in device_namespaces
    ):
        _check_same_device(value, current, name)
    if (
        type(current) is _ndarray_np
        and type(value) is not Tracer
        and type(mask) is not Tracer
        and not (active.n and has_aliases(target))
    ):  # (a value a trace holds views of is rebound, with them, as x[...] = v rebinds it there)
        if not current.flags.writeable:
            raise ValueError("output array is read-only")
        if mask is None:
            current[...] = value  # an unsafe cast, after the check above
        else:
            np.copyto(current, value, casting="unsafe", where=mask)
        return target
    xp = device_namespaces.get(type(current))
    if xp is not None and type(value) is not Tracer and type(mask) is not Tracer:
        _write_device(xp, current, value, mask)  # a device buffer (cupy): written, as NumPy's
        return target
    shape = tuple(target.shape)
    value = broadcast_raw(convert_raw(value, target.dtype), shape)
    if mask is not None:
        value = bind(select_p, broadcast_raw(mask, shape), value, current)
    rebind(target, value, f"{name}(..., out=...)")
    return target


def _check_same_device(value, current, name):
    """A result on one device written into an array on another (a host result into a device array, a
    device result into a host array) raises, as an operation of arrays on two devices does; a scalar,
    or a 0-d NumPy value, is written anywhere (a device's 0-d array is an array on that device)."""
    if type(current) is Tracer or type(value) is Tracer:
        return
    if isinstance(value, np.generic) or (
        type(value) not in device_namespaces and not getattr(value, "ndim", 0)
    ):
        return
    from arraystack._core.devices import device_of_buffer, two_devices

    first, second = device_of_buffer(value), device_of_buffer(current)
    if first != second:
        what = "" if name == "ufunc" else f"`{name}`: "
        raise two_devices(f"{what}the result and its out= array are", first, second)


def _write_device(xp, current, value, mask):
    """Write `value` into the device buffer `current` (where `mask`), so that its views and the array it
    views see the write. A value sharing its memory is copied first: a device's copy kernel, unlike
    NumPy, does not order overlapping reads and writes."""
    with current.device:  # the buffer's device is current while writing it
        if type(value) is type(current) and xp.may_share_memory(current, value):
            value = value.copy()
        if mask is None:
            current[...] = value  # an unsafe cast, after the check in `assign`
        else:
            xp.copyto(current, value, casting="unsafe", where=mask)
