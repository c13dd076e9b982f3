"""How jit arguments enter the cache key and the compiled call: the static/dynamic split, each leaf's
abstract value and buffer, a static argument's hashable key part, the retrace message naming what
changed, and the range checks of Python integer arguments that NumPy would make.
Used by _jit's JitFunction.
"""

from __future__ import annotations

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.dtypes import native_order
from arraystack._transforms.abstract import ShapeDtypeStruct
from arraystack.ir import tree
from arraystack.ir.avals import ShapedArray, aval_of_concrete, is_supported_dtype
from arraystack.ir.core import (
    HOST_DTYPES_COMPUTED,
    HostDtypeError,
    host_array_phrase,
    is_host_dtype,
    user_line,
)
from arraystack.ir.ir import Graph, Var
from arraystack.ir.trace import eval_graph

_PY_SCALARS = (bool, int, float, complex)
_INT64 = np.iinfo(np.int64)
_UINT64 = np.iinfo(np.uint64)


def _leaf_aval(leaf, path):
    if isinstance(leaf, ndarray):
        value = leaf._value
        if is_host_dtype(value.dtype):
            _refuse_host(value.dtype, path)
        return ShapedArray(value.shape, value.dtype)
    if isinstance(leaf, (np.ndarray, np.generic)) and is_host_dtype(leaf.dtype):
        _refuse_host(leaf.dtype, path)
    if isinstance(leaf, np.ndarray):
        if type(leaf) is not np.ndarray:
            _refuse_subclass(leaf, path)
        if not is_supported_dtype(leaf.dtype):
            raise TypeError(
                f"jit argument {path} has unsupported dtype {leaf.dtype} (at {user_line()}): jit traces "
                "bool, integer, float and complex arrays. Convert it (e.g. .astype(float)), or pass it "
                "with static_argnums="
            )
        # a big-endian array enters in native order (_leaf_buffer converts it, as asarray does)
        return ShapedArray(leaf.shape, leaf.dtype.newbyteorder("="))
    if type(leaf) is int and _INT64.max < leaf <= _UINT64.max:
        # Note: a Python int above int64's range is a weak uint64, so `uint64_array * 2**63` works as in
        # NumPy (and other dtypes raise NumPy's OverflowError when the value is cast)
        return ShapedArray((), np.dtype(np.uint64), True)
    if isinstance(leaf, (_PY_SCALARS, np.generic)):
        return aval_of_concrete(leaf)
    if isinstance(leaf, ShapeDtypeStruct):  # no data: eval_shape, make_graph, jit(f).lower
        return ShapedArray(leaf.shape, leaf.dtype)
    raise TypeError(
        f"jit argument {path} is a {type(leaf).__name__}, which is not an array or a scalar; "
        "mark it static with static_argnums= or static_argnames="
    )


def adopt(leaf):
    """A leaf as jit takes it: an array of another library on a device (cupy's, or anything with
    `__cuda_array_interface__`) becomes an arraystack array sharing its memory, so it is placed, keyed
    and written back as one; any other leaf is itself."""
    if isinstance(leaf, (ndarray, np.ndarray, np.generic, *_PY_SCALARS)) or leaf is None:
        return leaf
    if hasattr(type(leaf), "__cuda_array_interface__"):
        from arraystack._creation.basic import asarray

        return asarray(leaf)
    return leaf


def _refuse_host(dtype, path):
    raise HostDtypeError(
        f"jit argument {path} is {host_array_phrase(dtype)} (at {user_line()}), which has no traced "
        f"form: {HOST_DTYPES_COMPUTED}. Pass "
        "it with static_argnums=/static_argnames= (a value the function uses outside the trace), "
        "or convert it to numbers first (e.g. .astype('int64'))"
    )


def _refuse_subclass(leaf, path):
    """NumPy array subclasses whose meaning a traced ndarray would drop raise a TypeError saying what
    to pass instead (others, such as np.memmap, are read as the plain arrays they are)."""
    if isinstance(leaf, np.matrix):
        raise TypeError(
            f"jit argument {path} is a numpy.matrix (at {user_line()}): jit computes with ndarray "
            "semantics (* is elementwise, results are not matrices). Pass np.asarray(m), and use @ for "
            "matrix products"
        )
    if isinstance(leaf, np.ma.MaskedArray):
        raise TypeError(
            f"jit argument {path} is a numpy.ma.MaskedArray (at {user_line()}): jit would compute on "
            "its data and drop the mask. Pass m.filled(value) (masked entries replaced by a value that "
            "is neutral for your computation), or np.asarray(m) to use the data as it is, with the mask "
            "(np.ma.getmaskarray(m)) as a separate argument if needed"
        )


def _leaf_buffer(leaf, aval):
    if isinstance(leaf, ndarray):
        return leaf._value
    if isinstance(leaf, ShapeDtypeStruct):
        raise TypeError(
            f"{leaf!r} has no data to compute with: it is an argument of eval_shape, make_graph "
            "and jit(f).lower, not of a call"
        )
    if isinstance(leaf, np.ndarray):
        return leaf if leaf.dtype.isnative else native_order(leaf)
    return np.asarray(leaf, aval.dtype)  # scalars: 0-d arrays of their (weak) dtype


def layout_key(leaf):
    """The strides of an argument NumPy holds in another order than C (where a reshape of it, or of a
    result in its order, may copy where C's views), else None: part of the cache key."""
    value = leaf._value if type(leaf) is ndarray else leaf
    if type(value) is not np.ndarray or value.ndim < 2 or value.flags.c_contiguous:
        return None
    return value.strides


def _static_key(value, where):
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"static argument {where} must be hashable (it is part of the cache key), "
            f"got a {type(value).__name__}"
        ) from None
    return (type(value), value)


def is_static_position(jf, i, n):
    return i in jf.static_argnums or (i - n) in jf.static_argnums


def split_arguments(jf, args, kwargs):
    """(static key parts, dynamic positional args with None for static ones, dynamic kwargs)."""
    static = []
    dynamic_args = []
    for i, a in enumerate(args):
        if is_static_position(jf, i, len(args)):
            static.append(("pos", i, _static_key(a, f"#{i}")))
            dynamic_args.append(None)
        else:
            dynamic_args.append(a)
    dynamic_kwargs = {}
    for name, value in kwargs.items():
        if name in jf.static_argnames:
            static.append(("kw", name, _static_key(value, repr(name))))
        else:
            dynamic_kwargs[name] = value
    return tuple(static), dynamic_args, dynamic_kwargs


def donated_leaves(jf, args):
    """Positions among the flattened dynamic leaves of the arguments in jf.donate_argnums."""
    if not jf.donate_argnums:
        return frozenset()
    out, position = set(), 0
    for i, a in enumerate(args):
        if is_static_position(jf, i, len(args)):
            continue
        n = len(tree.leaves(a))
        if i in jf.donate_argnums or (i - len(args)) in jf.donate_argnums:
            out.update(range(position, position + n))
        position += n
    return frozenset(out)


def _describe_change(old, new) -> str:
    if old is None:
        return "first call"
    parts = ["code", "argument structure", "argument shapes/dtypes", "static arguments"]
    parts += ["optimizer passes", "placement", "argument memory layouts", "backend"]
    changed = [name for name, a, b in zip(parts, old, new) if a != b]
    if "argument shapes/dtypes" in changed:
        pairs = [f"{a.str_short()} -> {b.str_short()}" for a, b in zip(old[2], new[2]) if a != b]
        return "new argument types: " + ", ".join(pairs or ["(different number of arguments)"])
    return "changed: " + ", ".join(changed) if changed else "a captured value changed"


class IntegerChecks:
    """NumPy's range check of Python integers cast to an integer dtype, for a jitted function's Python int
    arguments: `int8_array * 300` raises OverflowError("Python integer 300 out of bounds for int8").

    The trace notes each cast of a weak integer value to another integer dtype (jit/trace.py). A cast of an
    argument itself checks that argument on every call; a cast of a value computed from Python int arguments
    alone (`v * (s + 1)`) evaluates that computation (`derived`, a small graph of scalars) and checks its
    results. The values are computed as the graph computes them (int64), not with Python's unbounded ints.
    """

    def __init__(self, direct, derived, derived_dtypes, derived_leaves):
        self.direct = direct  # (leaf index, dtype, min, max)
        self.derived = derived  # a Graph from some leaves to the cast values, or None
        self.derived_dtypes = derived_dtypes
        self.derived_leaves = derived_leaves  # the leaf index of each of derived's inputs

    @classmethod
    def of(cls, graph, n_leaves, casts):
        """The checks of a traced graph whose first n_leaves inputs are the arguments' leaves; None when
        no cast needs one."""
        position = {v: k for k, v in enumerate(graph.inputs[:n_leaves])}
        direct, derived = [], []
        for var, dtype in casts:
            info = np.iinfo(dtype)
            if var in position:
                check = (position[var], dtype, int(info.min), int(info.max))
                if check not in direct:
                    direct.append(check)
            elif all(v is not var for v, _ in derived):
                derived.append((var, dtype))
        graph_of_derived, leaves = _slice(graph, [v for v, _ in derived], position)
        if graph_of_derived is None:
            derived = []
        if not direct and not derived:
            return None
        return cls(tuple(direct), graph_of_derived, [d for _, d in derived], leaves)

    def __call__(self, leaves, buffers):
        for k, dtype, low, high in self.direct:
            value = leaves[k]
            if not low <= value <= high:
                _raise_out_of_bounds(int(value), dtype)
        if self.derived is not None:
            values = eval_graph(self.derived, *[buffers[k] for k in self.derived_leaves])
            for value, dtype in zip(values, self.derived_dtypes):
                info = np.iinfo(dtype)
                # a computed value may have a shape (a reshaped Python int): its first value out of range
                for item in np.asarray(value).reshape(-1).tolist():
                    if not info.min <= item <= info.max:
                        _raise_out_of_bounds(item, dtype)


def _slice(graph, wanted, position):
    """A graph computing `wanted` from argument leaves (their indexes in `position`), or (None, ()) if they
    depend on anything else (captured arrays)."""
    if not wanted:
        return None, ()
    needed = set(wanted)
    eqns = []
    for eqn in reversed(graph.eqns):
        if any(v in needed for v in eqn.outputs):
            eqns.append(eqn)
            needed.update(x for x in eqn.inputs if type(x) is Var)
    for eqn in eqns:
        needed.difference_update(eqn.outputs)
    if any(v not in position for v in needed):
        return None, ()
    inputs = sorted(needed, key=position.__getitem__)
    return Graph(tuple(inputs), tuple(reversed(eqns)), tuple(wanted)), [position[v] for v in inputs]


def _raise_out_of_bounds(value, dtype):
    np.asarray(value, dtype=dtype)  # NumPy's own OverflowError and message
    raise OverflowError(f"Python integer {value} out of bounds for {dtype}")
