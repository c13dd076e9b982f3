"""How an elementwise function (a NumPy ufunc) is called: the eager fast path, and everything else.

An eager call without out=/where=/dtype= binds the function's primitive with the raw operands; its
reference rule is the NumPy ufunc itself, so values, dtypes and errors are NumPy's at little cost.
Every other call goes through `apply_ufunc`: NumPy's `ufunc.resolve_dtypes` gives the loop dtypes
(NEP 50 weak scalars, dtype=, out= casting, with NumPy's own exceptions), the operands are converted
to them (and broadcast when tracing, since the IR is strict), the function's implementation runs on
those uniform operands, and `_ufunc_out` handles out=/where=. When tracing, an operation on Python
scalars alone (weakly typed traces) gives a weak result from a Python operator (`python_operator`)
and a strong one from the function, as NumPy gives a Python scalar or a NumPy one.

An implementation is `impl(dtypes, *operands) -> raw result, or a tuple of them`: `dtypes` lists the
loop dtypes (inputs, then outputs) and every operand already has its input dtype."""

from __future__ import annotations

import inspect
import operator
from typing import TYPE_CHECKING, TypeVar, overload

import numpy as np

from arraystack._core.array import _fastpath, _make, ndarray, raw, wrap, wrap_scalar
from arraystack._core.dtypes import bfloat16_loop_operands, check_supported
from arraystack._core.interop import call_host
from arraystack._transforms import result_layouts
from arraystack._core.operands import (
    array_shape,
    broadcast_raw,
    convert_raw,
    convert_weak,
    is_weak,
    python_type,
    resolution_operand,
)
from arraystack._core.overrides import kind, overriding
from arraystack._math.foreign_operators import foreign_operator
from arraystack._math.ufunc_methods import attach
from arraystack._math.ufunc_out import normalize_out, operands_shape, where_mask, write_out
from arraystack.ir.core import Tracer, active, bind, device_namespaces, is_host_dtype, trace_state
from arraystack.ir.primitives import convert_p
from arraystack.ir.reference import host_rules

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from numpy._typing._ufunc import _UFunc_Nin1_Nout2, _UFunc_Nin2_Nout2

    from arraystack.ir.core import Primitive
    from arraystack.typing import NDArray

_Function = TypeVar("_Function", bound="Callable[..., Any]")  # accelerated keeps fn's signature

_PY_SCALARS = (bool, int, float, complex)
_OBJECT = np.dtype(object)
_STRUCTURED_OPERATORS = {"equal": operator.eq, "not_equal": operator.ne}
_ndarray_np = np.ndarray
_resolved: dict = {}
# ufunc function -> (numpy ufunc, implementation): how python_operator calls a function's operator form
_operator_forms: dict = {}


class HostLoop(tuple):
    """The loop dtypes of a ufunc call on host dtypes (datetime64, timedelta64, str_, bytes_), which
    NumPy's ufunc computes (see apply_ufunc)."""

    __slots__ = ()


def resolve(ufunc, raws, outs=None, signature=None, casting="same_kind"):
    """NumPy's loop dtypes for these operands (inputs, then outputs), or NumPy's exception."""
    operands = tuple(  # resolution_operand(r), with its common cases inline: arrays, strong tracers
        [
            r.dtype
            if type(r) is _ndarray_np
            else r.var.aval.dtype
            if type(r) is Tracer and not r.var.aval.weak_type
            else resolution_operand(r)
            for r in raws
        ]
    )
    pinned = None if outs is None else tuple([None if o is None else o.dtype for o in outs])
    key = (ufunc, operands, pinned, signature, casting)
    dtypes = _resolved.get(key)
    if dtypes is None:
        dtypes = _resolve(ufunc, raws, operands, pinned or (None,) * ufunc.nout, signature, casting)
        if len(_resolved) > 4096:
            _resolved.clear()
        _resolved[key] = dtypes
    return dtypes


def _resolve(ufunc, raws, operands, pinned, signature, casting):
    options = (
        {"casting": casting} if signature is None else {"casting": casting, "signature": signature}
    )
    dtypes = ufunc.resolve_dtypes(bfloat16_loop_operands(operands) + pinned, **options)
    if any(d.kind == "O" for d in dtypes) and not any(
        getattr(r, "dtype", None) == _OBJECT for r in raws
    ):  # only weak operands, no object array: NumPy would loop over objects
        # Python scalars and weak traced values (a Python scalar's trace) take their default dtypes
        operands = tuple(
            np.asarray(r).dtype
            if isinstance(r, _PY_SCALARS)
            else r.var.aval.dtype
            if type(r) is Tracer
            else d
            for r, d in zip(raws, operands)
        )
        dtypes = ufunc.resolve_dtypes(operands + pinned, **options)
    if any(is_host_dtype(d) for d in dtypes):
        return HostLoop(dtypes)
    return dtypes


CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_ORDERS = ("C", "F", "A", "K")


def check_options(casting="same_kind", order="K") -> None:
    """NumPy's ValueError for a `casting=` or `order=` it does not know (a ufunc, concatenate, stack)."""
    if casting not in CASTINGS:
        raise ValueError(
            f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got {casting!r})"
        )
    if order is not None and (not isinstance(order, str) or order.upper() not in _ORDERS):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def given_options(out=None, where=True, casting="same_kind", dtype=None, order="K", subok=True):
    """The keywords of a ufunc call that differ from NumPy's defaults: what to hand to an object
    overriding NumPy, whose __array_ufunc__ may accept no others (dask's ufuncs take no casting=)."""
    given = {} if out is None else {"out": out}
    if where is not True:
        given["where"] = where
    if casting != "same_kind":
        given["casting"] = casting
    if dtype is not None:
        given["dtype"] = dtype
    if order != "K":
        given["order"] = order
    if subok is not True:
        given["subok"] = subok
    return given


def apply_ufunc(
    ufunc, impl, args, out=None, where=True, casting="same_kind", dtype=None, python_operator=False
):
    """Call `impl` as NumPy calls `ufunc` on `args`, out=/where=/casting=/dtype= included.

    `python_operator`: the call spells a Python operator (`x + y`), whose result on Python scalars is a
    Python scalar. When tracing, operands that are all Python scalars or their traces (weakly typed)
    give a weakly typed result from an operator and a strongly typed one from NumPy's function
    (5 + 1 is the weak 6, np.add(5, 1) is np.int64(6), np.sin(5.0) is np.float64), as NEP 50 has it."""
    if overriding([a for a in args if type(a) is not ndarray]) is not None:
        # an object overriding NumPy (a pandas Series, ...): NumPy's ufunc dispatches to it (NEP 13)
        return ufunc(*args, **given_options(out, where, casting, dtype))
    raws = [a._value if type(a) is ndarray else raw(a) for a in args]
    outs = None if out is None else normalize_out(out, ufunc.nout)
    signature = None
    if dtype is not None:
        signature = (None,) * ufunc.nin + (check_supported(dtype),) * ufunc.nout
    dtypes = resolve(ufunc, raws, outs, signature, casting)
    if type(dtypes) is HostLoop:  # datetimes, strings: NumPy's own ufunc on the buffers, eagerly
        options = {"where": where, "casting": casting, "dtype": dtype}
        if out is not None:
            options["out"] = out
        return call_host(ufunc, tuple(args), options, f"numpy.{ufunc.__name__}")
    mask = None if where is True else where_mask(where)
    shape = None
    if outs is not None or mask is not None:
        shape = operands_shape(raws, mask, outs)
    weak = active.n and trace_state.top is not None and _all_weak(raws)
    if weak and python_operator:
        operands = [convert_weak(r, d) for r, d in zip(raws, dtypes)]
    else:
        operands = [  # operands that have their loop dtype already (the common case) pass as they are
            r
            if (type(r) is Tracer and r.var.aval.dtype is d)
            or (type(r) is _ndarray_np and r.dtype is d)
            else convert_raw(r, d)
            for r, d in zip(raws, dtypes)
        ]
    if active.n and trace_state.top is not None:
        operands = broadcast_operands(operands)
    # the common arities spelled out: a plain call, without impl(*operands)'s new C frame
    # (CPython 3.11)
    if len(operands) == 2:
        result = impl(dtypes, operands[0], operands[1])
    elif len(operands) == 1:
        result = impl(dtypes, operands[0])
    else:
        result = impl(dtypes, *operands)
    if weak:
        result = _python_scalar_results(result, ufunc.nout, python_operator)
    if shape is None:  # a 0-d result is NumPy's scalar, as a ufunc's always is
        if ufunc.nout == 1:
            result = wrap_scalar(result)
        else:
            result = tuple(wrap_scalar(r) for r in result)
        if active.n and trace_state.top is not None:  # in its operands' memory order, as NumPy's
            result_layouts.elementwise(args, result if ufunc.nout > 1 else (result,))
        return result
    results = (result,) if ufunc.nout == 1 else result
    # NumPy's resolution above checked the casts into out= already
    final = write_out(results, outs, mask, shape, "unsafe")
    if outs is None:  # new results where= masks: in the order of the operands and the mask
        voters = (*args, where)
        if ufunc.nout == 1:
            return result_layouts.elementwise_result(voters, final)
        return tuple(result_layouts.elementwise_result(voters, r) for r in final)
    return final


def _scalar(value):
    """An eager 0-d NumPy array as its scalar (a composition may end in one); anything else as it is."""
    return value[()] if type(value) is _ndarray_np and not value.shape else value


def _all_weak(raws) -> bool:
    """Every operand a Python scalar or the trace of one, and at least one traced."""
    traced = False
    for r in raws:
        if not is_weak(r):
            return False
        traced = traced or type(r) is Tracer
    return traced


def _python_scalar_results(result, nout, python_operator):
    """The results of an operation on Python scalars alone (some traced): weakly typed where
    Python's operator gives a Python scalar, strongly typed from NumPy's functions."""
    results = (result,) if nout == 1 else tuple(result)
    fixed = []
    for r in results:
        if type(r) is Tracer:
            aval = r.var.aval
            weak = python_operator and python_type(aval.dtype) is not None
            if weak:
                r = _weakly_typed(r)
            elif aval.weak_type:
                r = bind(convert_p, r, dtype=aval.dtype)
        fixed.append(r)
    return fixed[0] if nout == 1 else tuple(fixed)


def python_operator(function, *args):
    """`function(*args)` as the Python operator spelling it calls it (`x + y` is `add(x, y)`): NumPy's
    function, except that on Python scalars and their traces alone the result is weakly typed when
    tracing, as Python's result is a Python scalar (see apply_ufunc), and bools are Python's: the
    ints 0 and 1 to arithmetic (True + True is 2, -True is -1), bools to & | ^ and comparisons.
    With an object that overrides NumPy, NumPy's own ufunc (which dispatches to it), or NotImplemented
    where it opts out of ufuncs (`__array_ufunc__ = None`: Python then asks the object), as NumPy's
    operators do."""
    if len(args) == 2:  # numpy.matrix, a masked array, a scipy.sparse matrix: as with NumPy's array
        result = foreign_operator(function, *args)
        if result is not NotImplemented:
            return result
    override = overriding([a for a in args if type(a) is not ndarray])
    if override is not None:
        if override == "none":
            return NotImplemented
        forms = _operator_forms.get(function)
        ufunc = forms[0] if forms is not None else getattr(np, function.__name__)
        return ufunc(*args)
    if active.n and trace_state.top is not None:
        raws = [a._value if type(a) is ndarray else a for a in args]
        if _all_weak(raws):
            forms = _operator_forms.get(function)
            if forms is None:  # a comparison: NumPy's bool, weakly typed as Python's bool
                result = raw(function(*args))
                return wrap(_weakly_typed(result) if result.dtype == np.bool_ else result)
            ufunc, impl = forms
            if ufunc not in _BOOL_OPERATORS:
                args = [_bool_as_int(r) for r in raws]
            return apply_ufunc(ufunc, impl, args, python_operator=True)
    try:
        return function(*args)
    except TypeError:
        compare = _STRUCTURED_OPERATORS.get(function.__name__)
        if compare is None or not any(getattr(raw(a), "dtype", _OBJECT).kind == "V" for a in args):
            raise
        # NumPy's == and != compare structured arrays field by field, outside the ufunc
        return call_host(compare, tuple(args), {}, f"the {compare.__name__} operator")


# the operators that keep Python bools bools (True & True is True); the others compute with ints
_BOOL_OPERATORS = (np.bitwise_and, np.bitwise_or, np.bitwise_xor)


def _bool_as_int(x):
    """A Python bool, or the trace of one, as the int Python's arithmetic computes with."""
    if type(x) is bool:
        return int(x)
    if type(x) is Tracer and x.var.aval.dtype.kind == "b":
        return bind(convert_p, x, dtype=np.dtype(np.int64), weak_type=True)
    return x


def _weakly_typed(x):
    if type(x) is Tracer and not x.var.aval.weak_type:
        return bind(convert_p, x, dtype=x.var.aval.dtype, weak_type=True)
    return x


def broadcast_operands(operands):
    """Array operands broadcast to their common shape (strict IR); scalars stay rank-0 Literals."""
    # each operand's shape, None for a scalar
    each = [x.var.aval.shape if type(x) is Tracer else array_shape(x) for x in operands]
    shapes = [s for s in each if s is not None]
    if not shapes or shapes.count(shapes[0]) == len(shapes):
        return operands  # one shape, the common case when tracing
    try:
        shape = _broadcast_shapes(shapes)
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with shapes "
            + " ".join(str(s).replace(" ", "") for s in shapes)
        ) from None
    return [
        x if s is None or s == shape else broadcast_raw(x, shape) for x, s in zip(operands, each)
    ]


def _broadcast_shapes(shapes):
    """np.broadcast_shapes(*shapes), ValueError when they do not broadcast, without the nditer NumPy
    builds: this runs when tracing, where NumPy's first call in a process costs ~40 us."""
    rank = max(map(len, shapes))
    out = [1] * rank
    for shape in shapes:
        for i, d in enumerate(shape, rank - len(shape)):
            if d != out[i]:
                if out[i] != 1 and d != 1:
                    raise ValueError(f"shapes {shapes} do not broadcast")
                if d != 1:
                    out[i] = d
    return tuple(out)


def bind_impl(prim):
    """The implementation that binds `prim` with the uniform operands."""

    def impl(dtypes, *operands):
        if len(operands) == 2:  # spelled out, as in apply_ufunc
            return bind(prim, operands[0], operands[1])
        return bind(prim, *operands)

    impl.__name__ = f"bind_{prim.name}"
    return impl


def _named(fn, ufunc):
    """`fn` named after `ufunc`, with its NumPy-style docstring and annotations (_ufunc_docs), and
    the ufunc's attributes and methods (ufunc_methods)."""
    from arraystack._math.ufunc_docs import document

    return attach(document(fn, ufunc), ufunc)


def accelerated(fn: _Function, host: Callable[..., Any] | None, nargs: int) -> _Function:
    """`fn`, or with the C accelerator a callable whose eager calls with `nargs` positional array operands
    (and nothing else) run `host` on the NumPy buffers directly: exactly `fn`'s own fast path, without its
    Python frame. `__wrapped__` is `fn`, so signatures, docs and every other call are `fn`'s."""
    fn.__module__ = (
        "arraystack"  # public under that name: pickled by reference, as numpy's ufuncs are
    )
    if _fastpath is None or host is None:
        return fn
    fast = _fastpath.Function(host, fn, nargs)
    for name in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(fast, name, getattr(fn, name))
    fast.__wrapped__ = fn
    return fast


def unary(
    ufunc: np.ufunc, prim: Primitive, impl: Callable[..., Any] | None = None
) -> Callable[..., NDArray]:
    """A one-input ufunc: the eager fast path binds `prim`, `impl` (default `prim`) the rest."""
    general = impl or bind_impl(prim)

    host = host_rules.get(prim)

    def fn(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None, subok=True):
        if casting != "same_kind" or order != "K":
            check_options(casting, order)
        if type(x) is not ndarray and kind(x) is not None:  # a pandas Series, ...: NumPy dispatches
            return ufunc(x, **given_options(out, where, casting, dtype, order, subok))
        if order != "K" and out is None and order not in ("k", None):  # a result in that order
            result = fn(x, where=where, casting=casting, dtype=dtype, subok=subok)
            return result_layouts.in_order(result, order, (x,))
        if out is None and where is True and dtype is None:
            if host is not None and not active.n and type(x) is ndarray:
                value = x._value
                if type(value) is _ndarray_np:  # the host reference rule, called directly
                    return _host_result(host(value))
            if not active.n or trace_state.top is None:  # a device's 0-d result: marked a scalar
                return wrap_scalar(bind(prim, x._value if type(x) is ndarray else raw(x)))
        return apply_ufunc(ufunc, general, (x,), out, where, casting, dtype)

    function = attach(accelerated(_named(fn, ufunc), host, 1), ufunc)
    _operator_forms[function] = (ufunc, general)
    return function


def _host_result(value):
    """An eager ufunc result of the host rule, wrapped: a NumPy scalar (all operands 0-d or scalars)
    stays one, as NumPy's ufuncs return it (a *scalar result*, see arraystack._core.array.wrap)."""
    if type(value) is _ndarray_np or isinstance(value, np.generic):
        return _make(value)
    return _make(np.asarray(value))


def binary(
    ufunc: np.ufunc, prim: Primitive, impl: Callable[..., Any] | None = None
) -> Callable[..., NDArray]:
    """A two-input ufunc: the eager fast path binds `prim`, `impl` (default `prim`) the rest."""
    general = impl or bind_impl(prim)
    host = host_rules.get(prim)

    def fn(
        x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None, subok=True
    ):
        if casting != "same_kind" or order != "K":
            check_options(casting, order)
        if (type(x1) is not ndarray and kind(x1) is not None) or (
            type(x2) is not ndarray and kind(x2) is not None
        ):  # an object overriding NumPy (a pandas Series, ...): NumPy's ufunc dispatches to it
            return ufunc(x1, x2, **given_options(out, where, casting, dtype, order, subok))
        if order != "K" and out is None and order not in ("k", None):  # a result in that order
            result = fn(x1, x2, where=where, casting=casting, dtype=dtype, subok=subok)
            return result_layouts.in_order(result, order, (x1, x2))
        if out is None and where is True and dtype is None:
            a = x1._value if type(x1) is ndarray else raw(x1)
            b = x2._value if type(x2) is ndarray else raw(x2)
            # kind "V": bfloat16, whose promotion with Python scalars is arraystack's (NumPy's loops
            # give float32), or structured records: apply_ufunc decides
            void = (type(a) is _ndarray_np and a.dtype.kind == "V") or (
                type(b) is _ndarray_np and b.dtype.kind == "V"
            )
            if host is not None and not active.n and not device_namespaces and not void:
                return _host_result(host(a, b))  # the host reference rule, called directly
            if (not active.n or trace_state.top is None) and not void:
                return wrap_scalar(bind(prim, a, b))  # a device's 0-d result: marked a scalar
        return apply_ufunc(ufunc, general, (x1, x2), out, where, casting, dtype)

    function = attach(accelerated(_named(fn, ufunc), host, 2), ufunc)
    _operator_forms[function] = (ufunc, general)
    return function


@overload
def composite(  # type: ignore[overload-overlap]  # the two-output ufuncs, then all others
    ufunc: _UFunc_Nin1_Nout2[Any, Any, Any] | _UFunc_Nin2_Nout2[Any, Any, Any],
    impl: Callable[..., Any],
    fast: Callable[..., Any] | None = None,
) -> Callable[..., tuple[NDArray, NDArray]]: ...
@overload
def composite(
    ufunc: np.ufunc, impl: Callable[..., Any], fast: Callable[..., Any] | None = None
) -> Callable[..., NDArray]: ...
def composite(
    ufunc: np.ufunc, impl: Callable[..., Any], fast: Callable[..., Any] | None = None
) -> Callable[..., Any]:
    """A ufunc with no primitive of its own: calls resolve dtypes and run `impl`. An eager call
    without keywords first tries `fast(*raw_operands)`, which gives None where it does not apply."""
    nin, nout = ufunc.nin, ufunc.nout
    name = ufunc.__name__

    def fn(*args, out=None, where=True, casting="same_kind", order="K", dtype=None, subok=True):
        if casting != "same_kind" or order != "K":
            check_options(casting, order)
        for a in args:
            if type(a) is not ndarray and kind(a) is not None:  # a Series, a masked array: NumPy's
                return ufunc(*args, **given_options(out, where, casting, dtype, order, subok))
        if order != "K" and out is None and order not in ("k", None) and len(args) == nin:
            result = fn(*args, where=where, casting=casting, dtype=dtype, subok=subok)
            return result_layouts.in_order(result, order, args)
        if len(args) != nin:
            if not nin < len(args) <= nin + nout:
                raise TypeError(
                    f"{name}() takes from {nin} to {nin + nout} positional arguments but "
                    f"{len(args)} were given"
                )
            if out is not None:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            out = args[nin:] + (None,) * (nin + nout - len(args)) if nout > 1 else args[nin]
            args = args[:nin]
        elif fast is not None and out is None and where is True and dtype is None and not active.n:
            result = fast(*[a._value if type(a) is ndarray else raw(a) for a in args])
            if result is not None:
                return wrap(_scalar(result))
        return apply_ufunc(ufunc, impl, args, out, where, casting, dtype)

    function = _named(fn, ufunc)
    function.__signature__ = _ufunc_signature(function, nin)
    _operator_forms[function] = (ufunc, impl)
    return function


def _ufunc_signature(fn, nin):
    """`fn(*args, out=None, where=True, ...)`'s signature as a ufunc's reads: the operands positional only,
    `out` also positional, the other keywords keyword only (as `unary` and `binary` spell them)."""
    spelled = inspect.signature(fn)
    rest = list(spelled.parameters.values())[1:]
    names = ["x"] if nin == 1 else [f"x{i + 1}" for i in range(nin)]
    operand = spelled.parameters["args"].annotation
    operands = [
        inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY, annotation=operand) for n in names
    ]
    out = rest[0].replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD)
    keywords = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in rest[1:]]
    return spelled.replace(parameters=[*operands, out, *keywords])
