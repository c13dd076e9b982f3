"""Running one program on one set of arguments under NumPy (the oracle) and under each arraystack
tier, and comparing: eager arraystack, jit with the reference backend, the compiled tier (`jit(f,
tiered=False)`) and tier 0 (the first call of `jit(f, tiered=True)`).

Tier 0 deterministically: the first call of a new jitted function always misses its cache, and a
miss runs the optimized graph on the numba backend's NumPy twin (backends/numba/tiering.py) before the
background compile starts. The compiled tier runs first, so that compile finds every kernel loaded;
it runs in a thread (config.tier_compile), and the call waits for it (`wait_compiled`) before the
next program starts, so that no compile is in flight while another program runs."""

from __future__ import annotations

import contextlib
import types
import warnings
from dataclasses import dataclass

import numpy

import arraystack
from tests.fuzz.comparison import builtin_types, compare, same_error

TIERS = ("eager", "reference", "compiled", "tier0")
# the program on arrays of a CUDA device (the stand-in for cupy where there is no GPU): eager operations
# (the primitives' rules with xp=cupy) and jit (the cupy backend's generated kernels)
CUDA_TIERS = ("cuda eager", "cuda jit")
# jit on the device with its plans replayed as CUDA graphs (config.cuda_graphs): asked for by name
CUDA_GRAPHS = "cuda graphs"
MAX_RESULT_SIZE = 2_000_000  # larger results (an unlucky variant) are not compared
COMPILE_TIMEOUT = 300  # seconds a tier-0 call waits for its background compile


@dataclass
class Outcome:
    values: list | None = None
    error: BaseException | None = None
    arguments: list | None = None  # the arguments after the call (NumPy writes into them in place)


@dataclass
class Tolerances:
    """Per output and per argument (its value after the call: in-place writes change it), the ulps
    allowed (0: bit for bit) and whether zeros compare equal whatever their signs. None: exact."""

    ulps: list | None = None
    signless: list | None = None
    argument_ulps: list | None = None
    argument_signless: list | None = None

    def of(self, k, argument=False) -> tuple:
        ulps = self.argument_ulps if argument else self.ulps
        signless = self.argument_signless if argument else self.signless
        return (ulps[k] if ulps else 0), not (signless and signless[k])


@dataclass
class Failure:
    tier: str
    message: str
    error_type: str | None = (
        None  # the exception a tier raised where NumPy did not, or NumPy's type
    )

    def __str__(self):
        return f"{self.tier}: {self.message}"


def _values(out) -> list:
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    return [numpy.array(numpy.asarray(o)) for o in outs]


@contextlib.contextmanager
def _quiet(errstate):
    """NumPy's warnings (overflow, invalid values) are expected in fuzzed programs; errstate="raise"
    turns them into FloatingPointError, which every tier must raise where NumPy does."""
    with warnings.catch_warnings(), numpy.errstate(all=errstate or "ignore"):
        warnings.simplefilter("ignore")
        yield


@contextlib.contextmanager
def _tier_compile_in_thread():
    previous = arraystack.config.tier_compile
    arraystack.config.tier_compile = "thread"
    try:
        yield
    finally:
        arraystack.config.tier_compile = previous


def _call(tier, f, args):
    if tier == "numpy" or tier == "eager":
        return f(*args)
    if tier == "reference":
        return arraystack.jit(f, backend="reference")(*args)
    if tier == "compiled":
        return arraystack.jit(f, tiered=False)(*args)
    jitted = arraystack.jit(f, tiered=True)
    try:
        with _tier_compile_in_thread():
            return jitted(*args)
    finally:
        if not jitted.wait_compiled(COMPILE_TIMEOUT) and _compiling(jitted):
            raise RuntimeError(f"the background compile did not finish in {COMPILE_TIMEOUT} s")


def _compiling(jitted) -> bool:
    """Whether a background compile of jitted is still running (not: failed, which tier 0
    survives)."""
    return any(
        not entry.pending.done.is_set()
        for entry in jitted._cache.values()
        if entry.pending is not None and entry.pending.started
    )


def run(tier, f, fresh_arguments, errstate=None) -> Outcome:
    """One tier's Outcome; fresh_arguments() returns new NumPy arrays (new memory, same layout)."""
    if tier in (*CUDA_TIERS, CUDA_GRAPHS):
        return _run_on_cuda(tier, f, fresh_arguments, errstate)
    given = fresh_arguments()
    # eager arraystack arrays share the NumPy arrays' memory: writes into them show in `given`
    args = [arraystack.asarray(a) for a in given] if tier == "eager" else given
    with _quiet(errstate):
        try:
            values = _values(_call(tier, f, args))
        except Exception as e:  # noqa: BLE001  (compared with what NumPy raises)
            return Outcome(error=e)
    return Outcome(values=values, arguments=[numpy.array(a) for a in given])


@contextlib.contextmanager
def _cuda_device():
    """A CUDA device for the cuda tiers: the GPU where cupy has one, else the stand-in for cupy,
    installed for the call."""
    from arraystack.backends.cupy import arrays, standin

    if arrays.cupy_module() is not None:
        yield
        return
    standin.install(devices=1)
    try:
        yield
    finally:
        standin.uninstall()


def _on_device(given) -> list:
    """The arguments on cuda:0, each in its own layout where it is one the fuzzer makes (inputs.py),
    else as a C-ordered copy."""
    return [_device_twin(a) if isinstance(a, numpy.ndarray) else a for a in given]


def _layout_of(a):
    """How the device twin of NumPy array `a` is made: "C" (a C-ordered array), "T", "reversed",
    "strided" or "broadcast" (the fuzzer's layouts, inputs.py, made on the device as views of a
    device array), or None (another layout: the twin is a C-ordered copy)."""
    c = a.flags.c_contiguous
    if not a.flags.writeable:
        first = a[:1] if a.ndim else a
        broadcast = a.ndim == 0 or a.strides[0] == 0 or a.shape[0] <= 1
        return "broadcast" if broadcast and first.flags.c_contiguous else None
    if c:
        return "C"
    if a.T.flags.c_contiguous:
        return "T"
    if a[::-1].flags.c_contiguous:
        return "reversed"
    base = a.base
    if (
        isinstance(base, numpy.ndarray)
        and base.flags.c_contiguous
        and base.shape == a.shape[:-1] + (2 * a.shape[-1],)
        and base.ctypes.data == a.ctypes.data
        and a.strides[-1] == 2 * a.itemsize
    ):
        return "strided"
    return None


def _device_twin(a):
    def on_device(h):
        return arraystack.asarray(numpy.array(h, order="C"), device="cuda")

    layout = _layout_of(a)
    if layout == "T":
        return on_device(a.T).T
    if layout == "reversed":
        return on_device(a[::-1])[::-1]
    if layout == "strided":
        return on_device(a.base)[..., ::2]
    if layout == "broadcast":
        return arraystack.broadcast_to(on_device(a[:1] if a.ndim else a), a.shape)
    return on_device(a)


def _replayed(f, fresh_arguments) -> tuple:
    """(arguments, outputs) of the third call of jit(f) with CUDA graphs on: the first call runs step
    by step, the second captures and replays, the third replays (each with new arguments)."""
    jitted, previous = arraystack.jit(f, tiered=False), arraystack.config.cuda_graphs
    arraystack.config.cuda_graphs = True
    try:
        for _ in range(2):
            jitted(*_on_device(fresh_arguments()))
        args = _on_device(fresh_arguments())
        return args, jitted(*args)
    finally:
        arraystack.config.cuda_graphs = previous


def _to_host(value):
    if isinstance(value, arraystack.ndarray):
        return numpy.array(value.to_device("cpu"))
    return numpy.array(value)


def _run_on_cuda(tier, f, fresh_arguments, errstate) -> Outcome:
    """The program on copies of the arguments on cuda:0; outputs and arguments read back after.
    An output that is not on the device (a silent trip through the host) is an error of its own."""
    with _cuda_device(), _quiet(errstate):
        try:
            if tier == "cuda eager":
                args = _on_device(fresh_arguments())
                out = f(*args)
            elif tier == "cuda jit":
                args = _on_device(fresh_arguments())
                out = arraystack.jit(f, tiered=False)(*args)
            else:
                args, out = _replayed(f, fresh_arguments)
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            for k, o in enumerate(outs):
                if isinstance(o, arraystack.ndarray) and o.device.kind != "cuda":
                    raise AssertionError(f"output {k} is on {o.device}, not on the CUDA device")
            values = [_to_host(o) for o in outs]
            arguments = [_to_host(a) for a in args]
        except Exception as e:  # noqa: BLE001  (compared with what NumPy raises)
            return Outcome(error=e)
    return Outcome(values=values, arguments=arguments)


def check(
    f_numpy, f_arraystack, fresh_arguments, tolerances=None, errstate=None, tiers=TIERS
) -> tuple:
    """(NumPy's Outcome, the failures of the tiers against it: empty when all agree). Outputs and
    the arguments after the call are compared (tolerances: a Tolerances; None: all bit for bit).
    Tier 0 and the compiled tier must also agree with each other bit for bit, where NumPy's result
    allows a tolerance too: the kernels' own math and summation orders have twins in tier 0."""
    tolerances = tolerances or Tolerances()
    expected = run("numpy", f_numpy, fresh_arguments, errstate)
    if expected.values is not None and any(v.size > MAX_RESULT_SIZE for v in expected.values):
        return expected, []
    failures, outcomes, on_device = [], {}, None
    for tier in tiers:
        if tier in (*CUDA_TIERS, CUDA_GRAPHS):
            on_device = on_device or _device_expectation(
                f_numpy, fresh_arguments, errstate, expected
            )
            outcomes[tier] = run(tier, f_arraystack, fresh_arguments)
            failures += _differences(tier, on_device, outcomes[tier], tolerances)
            continue
        outcomes[tier] = run(tier, f_arraystack, fresh_arguments, errstate)
        failures += _differences(tier, expected, outcomes[tier], tolerances)
    compiled, tier0 = outcomes.get("compiled"), outcomes.get("tier0")
    if compiled and tier0 and compiled.values is not None and tier0.values is not None:
        for k, (c, t) in enumerate(zip(compiled.values, tier0.values)):
            problem = compare(c, t)
            if problem:
                message = f"output {k}: {problem.replace('NumPy', 'the compiled tier')}"
                failures.append(Failure("tier0 vs compiled", message))
    return expected, failures


def _device_expectation(f_numpy, fresh_arguments, errstate, expected) -> Outcome:
    """NumPy's outcome as a CUDA device can give it: the arguments arrive in their layouts, or as
    C-ordered copies (_copied_to_device), and the device raises no floating-point errors (as cupy,
    jax and torch), so NumPy runs on such copies with its errors ignored; `expected` where that is the
    same run."""
    given = fresh_arguments()
    copied = [_copied_to_device(a) for a in given]
    if errstate is None and not any(copied):
        return expected

    def as_on_device():
        return [numpy.array(a, order="C") if c else a for a, c in zip(fresh_arguments(), copied)]

    return run("numpy", f_numpy, as_on_device)


def _copied_to_device(a) -> bool:
    """Whether the device's twin of argument `a` differs from it in more than its memory: a C-ordered
    copy of a layout the twins do not make (a reshape of it is a view where NumPy's copies)."""
    return isinstance(a, numpy.ndarray) and _layout_of(a) is None


def _differences(tier, expected, got, tolerances) -> list:
    if expected.error is not None:
        wanted = "/".join(t.__name__ for t in builtin_types(expected.error))
        name = type(expected.error).__name__
        if got.error is None:
            return [
                Failure(
                    tier, f"returned a result where NumPy raises {name}: {expected.error}", name
                )
            ]
        if not same_error(expected.error, got.error):
            message = (
                f"raised {type(got.error).__name__}: {_first_line(got.error)}; NumPy raises {name} "
                f"({wanted}): {expected.error}"
            )
            return [Failure(tier, message, type(got.error).__name__)]
        if not str(got.error):
            return [Failure(tier, f"raised {type(got.error).__name__} without a message", None)]
        return []
    if got.error is not None:
        message = f"raised {type(got.error).__name__}: {_first_line(got.error)}"
        return [Failure(tier, message, type(got.error).__name__)]
    if len(got.values) != len(expected.values):
        return [Failure(tier, f"{len(got.values)} outputs, NumPy {len(expected.values)}")]
    failures = []
    for k, (e, a) in enumerate(zip(expected.values, got.values)):
        problem = compare(e, a, *tolerances.of(k))
        if problem:
            failures.append(Failure(tier, f"output {k}: {problem}"))
    for k, (e, a) in enumerate(zip(expected.arguments, got.arguments)):
        problem = compare(e, a, *tolerances.of(k, argument=True))
        if problem:
            failures.append(Failure(tier, f"argument {k} after the call: {problem}"))
    return failures


def _first_line(error) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else ""


def with_module(f, module):
    """f with its global `np` bound to module (NumPy for the oracle, arraystack for the tiers)."""
    return types.FunctionType(
        f.__code__, {**f.__globals__, "np": module}, f.__name__, f.__defaults__, f.__closure__
    )


def check_program(f, args, errstate=None, tiers=TIERS, **tolerances):
    """Assert that f (whose global `np` names the array module) gives NumPy's results and leaves
    its arguments as NumPy does, or raises NumPy's exception type, under every tier. args: a
    function returning new arguments on each call (NumPy arrays in any layout), or a list of
    arrays (each tier gets C-contiguous copies). tolerances: the fields of Tolerances (default:
    all bit for bit)."""

    fresh = (
        args if callable(args) else lambda: [a.copy() if hasattr(a, "copy") else a for a in args]
    )
    f_numpy, f_arraystack = with_module(f, numpy), with_module(f, arraystack)
    _, failures = check(f_numpy, f_arraystack, fresh, Tolerances(**tolerances), errstate, tiers)
    assert not failures, "\n".join(str(x) for x in failures)
