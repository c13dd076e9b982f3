"""Views while tracing: which traced arrays alias which, so that a write through one of them is seen
through all of them, as in NumPy (functionalization that tracks aliases, as PyTorch's does).

Eager arrays hold NumPy buffers, and NumPy's views alias them. A traced array holds a value of the graph
being built, and values are immutable: an in-place update computes a new value and rebinds the array
(`rebind`). So that views keep NumPy's meaning, each view made while tracing records its base, how to read
itself from the base's value and how to write a new value of itself into the base's (`link`). `rebind`
writes the new value up the chain of bases to the root, then reads every other view of that root again.

Whether an operation gives a view is NumPy's decision, taken on a layout: a NumPy array with the alias's
shape, dtype and strides over one element of memory, which nothing reads (only shapes and strides are
computed on it). Basic indexing, transposes, flips, real/imag always view; a reshape views where NumPy's
`reshape(copy=False)` can. A root made while tracing is C-contiguous, unless NumPy would give it another order (an
elementwise result in its operands' order, an argument of grad or vmap: result_layouts.py); an argument
of a jitted function is taken to be C-contiguous, whatever the layout of the array the caller passed.

Writes that cannot be functionalized raise, never lose the write: a write into a read-only view
(broadcast_to, diagonal) raises NumPy's ValueError, and a write into an array that the traced function did
not create (a global, a closure variable, an attribute, an array of an outer transformation), or into a
view of one, raises WriteOutsideTraceError naming the line. Nothing is changed when one of these raises.
"""

from __future__ import annotations

import contextlib
import threading
import weakref

import numpy as np
from numpy.lib.stride_tricks import as_strided

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack._transforms.traced_scalars import mark, marked_scalar
from arraystack.ir.core import Tracer, TracerError, active, bind, current_trace, user_line


class WriteOutsideTraceError(TracerError, ValueError):
    """A traced function wrote into an array it did not create, which its trace cannot change."""


class _Link:
    __slots__ = ("base", "read", "write", "layout")

    def __init__(self, base, read, write, layout):
        self.base = base  # the base ndarray (held: a view keeps its base alive, as in NumPy)
        self.read = read  # base's raw value -> this view's raw value
        self.write = write  # (base's raw value, this view's raw value) -> base's new raw value; None: read-only
        self.layout = layout  # a NumPy array of this view's shape, dtype and strides (never read)


_links: dict[int, _Link] = {}  # id(view) -> how it derives from its base
_views: dict[int, dict[int, weakref.ref]] = {}  # id(base) -> {id(view): weak reference to the view}
_born: dict[int, tuple] = {}  # id(array) -> (weak ref to it, weak ref to the trace that made it)
_roots: dict[int, tuple] = {}  # id(array) -> (weak ref to it, its layout): not C-ordered roots


class LayoutUse:
    """What a trace did that makes its result depend on its arguments' memory layouts: a view-or-copy
    decision taken on a layout (`decided`) and a write that could show it (`wrote`)."""

    __slots__ = ("decided", "wrote")

    def __init__(self):
        self.decided = self.wrote = False

    @property
    def matters(self) -> bool:
        return self.decided and self.wrote


_recording = threading.local()  # .uses: the LayoutUse of each trace recording, innermost last


@contextlib.contextmanager
def recording_layout_use():
    """A LayoutUse filled in while the block traces (jit: whether its cache entry must be keyed by
    its arguments' layouts as well)."""
    uses = getattr(_recording, "uses", None)
    if uses is None:
        uses = _recording.uses = []
    use = LayoutUse()
    uses.append(use)
    try:
        yield use
    finally:
        uses.pop()


def note_layout_decision() -> None:
    """A view or a copy was chosen by a traced value's layout (a reshape, `x.shape = ...`)."""
    for use in getattr(_recording, "uses", ()):
        use.decided = True


def note_layout_read() -> None:
    """Values were read in a traced value's memory order (ravel(order='K'), reshape(order='A')): the
    result depends on the layout itself."""
    for use in getattr(_recording, "uses", ()):
        use.decided = use.wrote = True


def _note_write() -> None:
    for use in getattr(_recording, "uses", ()):
        use.wrote = True


def _forget(view_id, base_id):
    _links.pop(view_id, None)
    siblings = _views.get(base_id)
    if siblings is not None:
        siblings.pop(view_id, None)
        if not siblings:
            del _views[base_id]


def _c_layout(shape, dtype):
    one = np.zeros(1, dtype)
    strides, step = [], one.itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return as_strided(one, tuple(shape), tuple(reversed(strides)), writeable=False)


def layout_of(x):
    """A NumPy array with x's shape, dtype and strides as NumPy would have them."""
    layout = other_layout(x)
    if layout is not None:
        return layout
    value = x._value
    return _c_layout(tuple(value.shape), np.dtype(value.dtype))


def other_layout(x):
    """x's layout where it may be in another order than C (a view, a root recorded by set_layout, an
    eager array), else None: layout_of without making C's."""
    link = _links.get(id(x))
    if link is not None:
        return link.layout
    value = x._value
    if type(value) is np.ndarray:
        return value
    root = _roots.get(id(x))
    return root[1] if root is not None and root[0]() is x else None


def set_layout(x, layout) -> None:
    """Record `layout` as the one NumPy gives x, an array made while tracing that is no view (an
    argument, a ufunc's result in its operands' order: result_layouts.py)."""
    key = id(x)
    _roots[key] = (weakref.ref(x, lambda _, k=key: _roots.pop(k, None)), layout)


def link(view, base, read, write, layout):
    """Record `view` (an ndarray made while tracing) as a view of `base`. A traced value that NumPy holds
    as a scalar has no views: NumPy's reshape, transpose ... of a scalar are new values (a scalar
    again where 0-d)."""
    if marked_scalar(base):
        mark(view)
        return
    view_id, base_id = id(view), id(base)
    ref = weakref.ref(view, lambda _, v=view_id, b=base_id: _forget(v, b))
    _links[view_id] = _Link(base, read, write, layout)
    _views.setdefault(base_id, {})[view_id] = ref


def note_made(x) -> None:
    """Record that x, wrapping a value that is not a Tracer of the current trace (a constant, or a
    value of an outer trace), was made while that trace runs: the traced function may write into it."""
    trace = current_trace()
    if trace is None:
        return
    value = x._value
    if type(value) is Tracer and value.trace is trace:
        return
    try:
        trace_ref = weakref.ref(trace)
    except TypeError:
        trace_ref = lambda t=trace: t  # noqa: E731  (a trace type without weak references)
    key = id(x)
    _born[key] = (weakref.ref(x, lambda _, k=key: _born.pop(k, None)), trace_ref)


def _made_here(x, trace) -> bool:
    value = x._value
    if type(value) is Tracer and value.trace is trace:
        return True
    born = _born.get(id(x))
    return born is not None and born[0]() is x and born[1]() is trace


def rebind(x, value, what="an in-place update") -> None:
    """x's value becomes `value` (x[...] = value, x += y, out=x ...): in eager mode, x's own; while
    tracing, also the new value of every array x is a view of, and of their other views."""
    trace = current_trace()
    if trace is None:
        x._value = value
        return
    _note_write()
    chain = [x]
    link_ = _links.get(id(x))
    while link_ is not None:
        if link_.write is None:
            raise ValueError("assignment destination is read-only")
        chain.append(link_.base)
        link_ = _links.get(id(link_.base))
    for a in chain:
        if not _made_here(a, trace):
            raise WriteOutsideTraceError(
                f"{what} at {user_line()} writes into an array that the traced function did not "
                "create (a global, a closure variable, an attribute, or an array of an outer "
                "transformation), and a trace cannot change it. Pass the array in as an argument "
                "and return its new value (jit writes changed arguments back), or write into a copy "
                "(a = a.copy())."
            )
    new = [value]
    for child, base in zip(chain, chain[1:]):
        new.append(_links[id(child)].write(base._value, new[-1]))
    for a, v in zip(chain, new):  # every write computed: nothing changes if one raised
        a._value = v
    _refresh(chain[-1], {id(a) for a in chain})


def _refresh(base, chain_ids):
    children = _views.get(id(base))
    if not children:
        return
    for view_id, ref in list(children.items()):
        view = ref()
        if view is None:
            continue
        if view_id not in chain_ids:
            view._value = _links[view_id].read(base._value)
        _refresh(view, chain_ids)


def view_writeable(x) -> bool | None:
    """Whether x, made while tracing, is a view NumPy lets write (None: x is no view, it owns its
    data): numpy.require's 'O' and 'W'."""
    link = _links.get(id(x))
    return None if link is None else link.write is not None


def has_aliases(x) -> bool:
    """Whether x has views or is one, or has a layout of its own (then `x.shape = ...` follows it)."""
    return id(x) in _links or id(x) in _views or id(x) in _roots


def _reshape_raw(value, shape):
    return bind(s.reshape_p, value, new_sizes=tuple(shape))


def reshape_in_place(x, shape, reshape_raw=_reshape_raw):
    """`x.shape = shape` while tracing, for an x with aliases: x becomes a reshape view of a new array
    holding its old value, which takes x's place among the aliases; NumPy's AttributeError where x's
    layout would need a copy."""
    from arraystack._core.array import wrap

    trace = current_trace()
    if not _made_here(x, trace):
        raise WriteOutsideTraceError(
            f"setting the shape at {user_line()} changes an array that the traced function did not "
            "create; reshape a copy instead (a = a.reshape(...))"
        )
    note_layout_decision()
    _note_write()  # x changes shape: as a write, its outcome may depend on the layout
    try:
        layout = np.reshape(layout_of(x), shape, copy=False)
    except ValueError:
        raise AttributeError(
            "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the "
            "desired shape."
        ) from None
    old = wrap(x._value)
    note_made(old)
    root = _roots.pop(id(x), None)
    if root is not None and root[0]() is x:  # x's value keeps its layout: old's now
        set_layout(old, root[1])
    moved = _links.pop(id(x), None)
    if moved is not None:
        _views[id(moved.base)].pop(id(x), None)
        link(old, moved.base, moved.read, moved.write, moved.layout)
    for child_id, ref in _views.pop(id(x), {}).items():
        child = ref()
        if child is not None:
            c = _links.pop(child_id)
            link(child, old, c.read, c.write, c.layout)
    new_shape, old_shape = tuple(layout.shape), tuple(x._value.shape)
    x._value = reshape_raw(x._value, new_shape)
    link(x, old, lambda b: reshape_raw(b, new_shape), lambda b, v: reshape_raw(v, old_shape), layout)


# -- the NumPy operations that give views, as primitives ------------------------------------------------------


def _reshape_layout(layout, params):
    try:
        return np.reshape(layout, tuple(params["new_sizes"]), copy=False)
    except ValueError:  # NumPy copies here: the result is no view
        return None


def _broadcast_layout(layout, params):
    shape, dims = tuple(params["shape"]), tuple(params["broadcast_dimensions"])
    kept = iter(layout.shape)
    expanded = tuple(next(kept) if i in dims else 1 for i in range(len(shape)))
    return np.broadcast_to(np.reshape(layout, expanded, copy=False), shape)


def _flip_key(ndim, dims):
    return tuple(slice(None, None, -1) if i in dims else slice(None) for i in range(ndim))


def _slice_key(params):
    return tuple(
        slice(s, e, st)
        for s, e, st in zip(params["start_indices"], params["limit_indices"], params["strides"])
    )


_VIEW_LAYOUTS = {  # prim -> (the base's layout, params) -> the view's layout, or None where NumPy copies
    s.reshape_p: _reshape_layout,
    s.transpose_p: lambda layout, params: layout.transpose(params["permutation"]),
    s.rev_p: lambda layout, params: layout[_flip_key(layout.ndim, params["dimensions"])],
    s.slice_p: lambda layout, params: layout[_slice_key(params)],
    p.real_p: lambda layout, params: layout.real,
    p.imag_p: lambda layout, params: layout.imag,
    s.broadcast_in_dim_p: _broadcast_layout,
}


def _write_reshape(params):
    return lambda b, v: bind(s.reshape_p, v, new_sizes=tuple(b.shape))


def _write_transpose(params):
    back = tuple(np.argsort(params["permutation"]).tolist())
    return lambda b, v: bind(s.transpose_p, v, permutation=back)


def _write_rev(params):
    return lambda b, v: bind(s.rev_p, v, dimensions=params["dimensions"])


def _write_slice(params):
    from arraystack._indexing.updates import updated

    key = _slice_key(params)
    return lambda b, v: updated(b, key, v)


def _write_part(part):
    def make(params):
        from arraystack._indexing.updates import updated_part

        return lambda b, v: updated_part(b, part, v)

    return make


_VIEW_WRITES = {  # prim -> params -> (base's raw value, the view's new raw value) -> base's new raw value
    s.reshape_p: _write_reshape,
    s.transpose_p: _write_transpose,
    s.rev_p: _write_rev,
    s.slice_p: _write_slice,
    p.real_p: _write_part("real"),
    p.imag_p: _write_part("imag"),
    s.broadcast_in_dim_p: lambda params: None,  # read-only, as NumPy's broadcast_to
}


def view_of(base, prim, **params):
    """`prim` applied to base's value, as an ndarray that is a view of `base` while tracing (where
    NumPy's would be one); in eager mode the reference rule gives NumPy's own view."""
    from arraystack._core.array import wrap

    out = wrap(bind(prim, base._value, **params))
    if marked_scalar(base):  # NumPy's scalars have no views: a new value (a scalar again where 0-d)
        if type(out._value) is not Tracer:  # a device's array: a buffer of its own
            out = wrap(bind(p.copy_p, out._value))
        return mark(out)
    if active.n and current_trace() is not None:
        if prim is s.reshape_p:
            note_layout_decision()
        layout = _VIEW_LAYOUTS[prim](layout_of(base), params)
        if layout is not None:
            link(out, base, lambda b: bind(prim, b, **params), _VIEW_WRITES[prim](params), layout)
    return out


def read_only_view(out, base, read, layout=None):
    """`out`, computed from `base`, as the read-only view NumPy returns (diagonal): eager, its buffer
    refuses writes; while tracing, a write through it raises NumPy's ValueError, and it reads
    base's later values. `layout`: the view's as NumPy has it (by default out's own)."""
    value = out._value
    if type(value) is np.ndarray:
        value.flags.writeable = False
    elif active.n and current_trace() is not None:
        link(out, base, read, None, layout_of(out) if layout is None else layout)
    return out
