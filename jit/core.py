"""Primitives, bind() and the trace stack.

bind() is the one door every operation goes through: with no trace active it evaluates the primitive now through
its reference rule (the eager path); while a function is being traced it records an equation instead.
"""

from __future__ import annotations

import os
import sys
import threading

import ml_dtypes
import numpy
from arraystack.ir.avals import bfloat16


class Primitive:
    """A named operation of the IR. Its meaning lives in rule tables keyed by the primitive."""

    __slots__ = ("name", "multiple_results")

    def __init__(self, name: str, multiple_results: bool = False):
        self.name = name
        self.multiple_results = multiple_results

    def __repr__(self):
        return self.name

    def bind(self, *args, **params):
        return bind(self, *args, **params)


# -- errors ---------------------------------------------------------------------------------------------------


class TracerError(Exception):
    """Base of every error raised because a value is traced (abstract) where a concrete one is needed."""


class ConcretizationError(TracerError, TypeError):
    """A traced value was asked for a Python bool/int/float or a NumPy array."""


class ShapeDependsOnDataError(TracerError, ValueError):
    """An operation whose output shape depends on array contents was traced."""


class EscapedTracerError(TracerError, RuntimeError):
    """A traced value was used after the trace that made it had ended."""


class HostDtypeError(TracerError, TypeError):
    """An array of a host dtype (datetime64, timedelta64, str, bytes, StringDType, object, structured)
    met a trace: such arrays are computed eagerly by NumPy and have no traced form."""


# dtype kinds of the host dtypes: datetime64, timedelta64, str_, bytes_, object, structured (void),
# StringDType, and ml_dtypes' narrow types. bfloat16 has kind "V" too but is a traced numeric dtype,
# and float8_e5m2 has kind "f" but is a host dtype: ask is_host_dtype.
HOST_KINDS = frozenset("MmUSOVT")
FLOAT8_E5M2 = numpy.dtype(ml_dtypes.float8_e5m2)


def is_host_dtype(dtype) -> bool:
    """Whether `dtype` (a NumPy dtype) is a host dtype, computed eagerly by NumPy: its kind is in
    HOST_KINDS and it is not bfloat16, or it is float8_e5m2 (which ml_dtypes gives kind "f")."""
    kind = dtype.kind
    if kind == "f":
        return dtype == FLOAT8_E5M2
    return kind in HOST_KINDS and not (kind == "V" and dtype == bfloat16)


def host_dtype_message(dtype, operation: str, verb: str = "was given") -> str:
    """The message of a HostDtypeError: the dtype (None: a function of host dtypes was called), the
    operation and the user's line."""
    what = "was called" if dtype is None else f"{verb} {host_array_phrase(dtype)}"
    return (
        f"{operation} {what} under a transformation (jit, grad or vmap) at {user_line()}: "
        f"{HOST_DTYPES_COMPUTED}, and they have no traced form. Compute it outside the transformed "
        "function, or convert the values to numbers first (e.g. dates.astype('int64'), "
        "records['field'])."
    )


HOST_DTYPES_COMPUTED = (
    "arraystack computes datetime64, timedelta64, string, object, structured and ml_dtypes' narrow "
    "(int4, float8, ...) arrays eagerly with NumPy"
)


def host_array_phrase(dtype) -> str:
    """'a datetime64[D] array', 'an object array', 'a structured array (dtype [...])': for messages."""
    dtype = numpy.dtype(dtype)
    structured = dtype.type is numpy.void  # ml_dtypes' narrow types have kind "V" too, and a name
    name = {"O": "object", "T": "StringDType"}.get(dtype.kind) or str(dtype)
    name = "structured" if structured else name
    phrase = f"{'an' if name[0] in 'aeiou' else 'a'} {name} array"
    return phrase + f" (dtype {dtype})" if structured else phrase


def _refuse_host_operands(prim, args) -> None:
    for a in args:
        if type(a) is not Tracer:
            dtype = getattr(a, "dtype", None)
            if isinstance(dtype, numpy.dtype) and is_host_dtype(dtype):
                raise HostDtypeError(host_dtype_message(dtype, f"`{prim.name}`"))


_PACKAGE_DIRS = tuple(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep + sub + os.sep
    for sub in ("arraystack", "jit", "backends")
)
_THIS_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _is_library_file(filename: str) -> bool:
    return filename.startswith(_PACKAGE_DIRS) or filename.startswith(_THIS_DIR)


# The files whose frames user_source skips (arraystack's own, frozen ones), and the others'
# basenames, learnt as frames of new files are met. Keyed by the name, not the code object: a str
# caches its hash, a code object hashes its bytecode on every lookup.
_skipped_files: set = set()
_file_names: dict = {}


def user_source(skip_library: bool = True) -> str | None:
    """`file:line` of the innermost frame outside arraystack: where the user's code called in.
    (Called for every traced equation, which makes its loop the hot one: a skipped frame costs one
    set lookup of its file name.)"""
    frame = sys._getframe(1)
    if not skip_library:
        return _innermost_source(frame)
    return source_from(frame)


def source_from(frame) -> str | None:
    """user_source() of the code running `frame`: the first frame outside arraystack from it
    outward. (GraphTrace.process starts at its caller: its own frame is arraystack's.)"""
    skipped = _skipped_files
    while frame is not None:
        if frame.f_code.co_filename in skipped:
            frame = frame.f_back
            continue
        filename = frame.f_code.co_filename
        name = _file_names.get(filename)
        if name is None:
            _learn_file(filename)  # then look again
            continue
        return f"{name}:{frame.f_lineno}"
    return None


def _learn_file(filename: str) -> None:
    if len(_skipped_files) + len(_file_names) > 4096:  # files made up at run time (exec, notebooks)
        _skipped_files.clear()  # must not pile up
        _file_names.clear()
    if _is_library_file(filename) or filename.startswith("<frozen"):
        _skipped_files.add(filename)
    else:
        _file_names[filename] = os.path.basename(filename)


def _innermost_source(frame) -> str | None:
    """user_source(skip_library=False): the innermost frame that is not a frozen one, arraystack's
    included."""
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith("<frozen"):
            return f"{os.path.basename(filename)}:{frame.f_lineno}"
        frame = frame.f_back
    return None


def note_traced_line(error: BaseException) -> None:
    """Add a note naming the user's line to an error raised while tracing (once; TracerErrors name it)."""
    notes = getattr(error, "__notes__", ())
    if isinstance(error, TracerError) or any(n.startswith("arraystack:") for n in notes):
        return
    where, tb = None, error.__traceback__
    while tb is not None:  # the innermost frame outside arraystack is the user's line
        filename = tb.tb_frame.f_code.co_filename
        if not _is_library_file(filename) and not filename.startswith("<frozen"):
            where = f"{os.path.basename(filename)}:{tb.tb_lineno}"
        tb = tb.tb_next
    if where:
        error.add_note(
            f"arraystack: raised while tracing, at {where}. Shapes and dtypes are known while tracing: "
            "print(x.shape, x.dtype) there, or set ARRAYSTACK_DISABLE_JIT=1 to run the function eagerly."
        )


def user_line() -> str:
    """user_source() for messages: the user's `file:line`, or a plain phrase when only arraystack's own frames
    are on the stack (e.g. code run by the demo), never "None"."""
    return user_source() or "a line inside arraystack (no caller outside it)"


def concretization_message(what: str, aval, fix: str | None = None) -> str:
    where = user_source()
    at = f" at {where}" if where else ""
    fix = fix or (
        "Python control flow cannot depend on a traced value. Mark the argument static "
        "(static_argnums / static_argnames), or use arraystack.where, arraystack.cond, "
        "arraystack.while_loop, arraystack.fori_loop or arraystack.scan."
    )
    joint = (
        "" if what.endswith(" on") else " of"
    )  # "bool() was called on a ...", "strides ... of a ..."
    return f"{what}{joint} a traced value {aval.str_short()}{at}. {fix}"


# -- the trace stack --------------------------------------------------------------------------------------------


class _TraceState(threading.local):
    """Per thread: the stack of active traces. `top` is None in eager mode."""

    def __init__(self):
        self.stack = []
        self.saved = []  # per pushed trace: the trace that was on top when it was pushed
        self.top = None


class _ActiveCount:
    """How many traces are active in all threads. Reading a plain attribute is much cheaper than a
    thread-local one, so the eager fast path reads this first and only consults trace_state when non-zero."""

    __slots__ = ("n",)

    def __init__(self):
        self.n = 0


trace_state = _TraceState()
active = _ActiveCount()
_count_lock = threading.Lock()


def current_trace():
    """The innermost active trace of this thread, or None in eager mode."""
    return trace_state.top if active.n else None


def is_tracing() -> bool:
    return current_trace() is not None


def push_trace(trace) -> None:
    with _count_lock:
        active.n += 1
    trace_state.stack.append(trace)
    trace_state.saved.append(trace_state.top)  # the level current at push time, restored by pop_trace
    trace_state.top = trace


def pop_trace(trace) -> None:
    stack = trace_state.stack
    if not stack or stack[-1] is not trace:
        raise RuntimeError("trace stack corrupted: popping a trace that is not on top")
    stack.pop()
    trace.finished = True
    trace_state.top = trace_state.saved.pop()
    with _count_lock:
        active.n -= 1


class Tracer:
    """A value being traced: a Var of the graph one trace is building. Frontend arrays wrap it."""

    __slots__ = ("trace", "var", "data")
    __array_priority__ = 1000

    def __init__(self, trace, var, data=None):
        self.trace = trace
        self.var = var  # its Var; var.aval is the value's aval as the traced function sees it
        self.data = data  # what a transformation trace carries (a primal, a (primal, tangent) pair ...)

    @property
    def aval(self):
        return self.var.aval

    @property
    def shape(self):
        return self.var.aval.shape

    @property
    def dtype(self):
        return self.var.aval.dtype

    @property
    def ndim(self):
        return len(self.var.aval.shape)

    @property
    def size(self):
        return self.var.aval.size

    def __array__(self, dtype=None, copy=None):
        if self.trace.finished:
            raise EscapedTracerError(
                f"a traced value {self.aval.str_short()} was used after its trace ended "
                f"(at {user_line()}). It escaped from a jitted or transformed function, e.g. through "
                "a global or a closure; return it from the function instead."
            )
        raise ConcretizationError(
            concretization_message(
                "numpy.asarray() was called on",
                self.aval,
                "Converting to a NumPy array needs concrete data; keep using arraystack functions "
                "inside traced code, or move the conversion outside the traced function.",
            )
        )

    def __bool__(self):
        return bool(self.concrete("bool()"))

    def concrete(self, what: str):
        """The concrete value behind this tracer, for Python control flow (`what` names the request).

        Transformations over concrete values (grad, jvp) answer with their primal, so `if x > 0:` works in an
        eagerly differentiated function as it does in JAX; a trace of abstract values (jit) raises."""
        to_concrete = getattr(self.trace, "to_concrete", None)
        if to_concrete is None:
            raise ConcretizationError(concretization_message(f"{what} was called on", self.aval))
        return to_concrete(self, what)

    def __repr__(self):
        return f"Tracer<{self.aval.str_short()}>"


def bind_below(trace, prim: Primitive, args, params):
    """bind() as seen by the trace under `trace` (its `parent`): how a transformation evaluates the primal
    computation one level down, whether that level is eager, a jit trace or another transformation."""
    state = trace_state
    saved = state.top
    parent = state.top = trace.parent
    try:
        if parent is None:
            return bind(prim, *args, **params)
        return parent.process(prim, tuple(args), params)  # what bind() does with a trace on top
    finally:
        state.top = saved


class below:
    """`with below(trace):` runs code (rules that bind several primitives) one level under `trace`."""

    __slots__ = ("trace", "saved")

    def __init__(self, trace):
        self.trace = trace

    def __enter__(self):
        self.saved = trace_state.top
        trace_state.top = self.trace.parent

    def __exit__(self, *exc):
        trace_state.top = self.saved


# -- bind -------------------------------------------------------------------------------------------------------

# Array types that live on a device other than the host, mapped to their array namespace (cupy),
# and to the function evaluating a primitive eagerly on them, evaluate(prim, args, params): it picks
# the rule and the device, and refuses operands of another device. `placement[0]`, when set, answers
# the evaluate of the default device when that is not the host, or None: operands that are all
# scalars (what creation binds) are evaluated there. The frontend (and a backend running its own
# steps) registers; the core imports none of them.
device_namespaces: dict[type, object] = {}
device_evaluators: dict[type, object] = {}
placement: list = [None]
# [move] where the frontend registers it: move(x) is a host NumPy operand x on the device an eager
# composition of this thread runs beside (a constant of the composition meeting its device operands), or x
# itself outside such a composition
composition_constants: list = [None]
_SCALAR_TYPES = (bool, int, float, complex, numpy.generic)


def register_array_namespace(array_type: type, namespace, evaluate=None) -> None:
    device_namespaces[array_type] = namespace
    if evaluate is not None:
        device_evaluators[array_type] = evaluate


def unregister_array_namespace(array_type: type) -> None:
    device_namespaces.pop(array_type, None)
    device_evaluators.pop(array_type, None)


def _evaluate_on_device(prim, args, params):
    for a in args:
        evaluate = device_evaluators.get(type(a))
        if evaluate is not None:
            move = composition_constants[0]
            if move is not None:
                args = tuple(move(x) if type(x) is numpy.ndarray else x for x in args)
            return evaluate(prim, args, params)
    if placement[0] is not None and all(isinstance(a, _SCALAR_TYPES) for a in args):
        evaluate = placement[0]()
        if evaluate is not None:
            return evaluate(prim, args, params)
    return eager_rules[prim](namespace_of(args), *args, **params)


def namespace_of(args):
    """The array module (numpy, or a device library such as cupy) that evaluates these operands."""
    if device_namespaces:
        for a in args:
            xp = device_namespaces.get(type(a))
            if xp is not None:
                return xp
    return numpy


def bind(prim: Primitive, *args, **params):
    """Apply `prim` to `args`: evaluate now (eager) or record an equation in the innermost trace."""
    if active.n:
        _refuse_host_operands(prim, args)
        top = trace_state.top
        if top is not None:
            return top.process(prim, args, params)
    # eager (try costs nothing unless the rule raises; then a Tracer that escaped its trace is named)
    try:
        if device_namespaces:
            return _evaluate_on_device(prim, args, params)
        rule = eager_rules[prim]
        # Spelling out the common arities is a plain call, which CPython 3.11 runs without a new C
        # frame; `rule(numpy, *args)` is not, and costs ~300 ns more per eager call.
        if not params:
            n = len(args)
            if n == 2:
                return rule(numpy, args[0], args[1])
            if n == 1:
                return rule(numpy, args[0])
        return rule(numpy, *args, **params)
    except TracerError:
        raise
    except Exception as e:
        for a in args:
            if type(a) is Tracer and a.trace.finished:
                raise EscapedTracerError(_escaped_message(a, prim)) from e
        raise


def _escaped_message(tracer, prim) -> str:
    return (
        f"a traced value {tracer.aval.str_short()} was used after its trace ended "
        f"(in {prim.name} at {user_line()}). It escaped from a jitted or transformed function, e.g. "
        "through a global or a closure; return it from the function instead."
    )


from arraystack.ir.reference import reference_rules as eager_rules  # noqa: E402  (needs Primitive above)
