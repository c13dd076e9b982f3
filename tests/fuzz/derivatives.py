"""Random differentiable programs (float64 arguments, smooth operations plus max/min/sort/where,
views and in-place writes) and their derivative checks: grad of a scalar loss against central finite
differences, grad under jit against eager grad, vmap against a loop over the batch (NumPy's), and
jvp against vjp (<vjp(u), v> == <u, jvp(v)>)."""

from __future__ import annotations

import textwrap

import numpy

import arraystack
from tests.fuzz.comparison import compare
from tests.fuzz.generator import VARIANTS, Grammar, generate
from tests.fuzz.inputs import InputSpec, layouts_for
from tests.fuzz.tiers import Failure, _cuda_device, _quiet, _values, with_module

OPS = frozenset(
    {
        "negative",
        "absolute",
        "square",
        "sin",
        "cos",
        "tanh",
        "arctan",
        "exp",
        "add",
        "subtract",
        "multiply",
        "maximum",
        "minimum",
        "<",
        ">",
        "where",
        "sum",
        "mean",
        "max",
        "min",
        "prod",
        "cumsum",
        "cumprod",
        "sort",
    }
)
FAMILIES = {
    "unary": 1.5,
    "transcendental": 1.5,
    "binary": 4.0,
    "compare": 0.6,
    "select": 0.8,
    "reduce": 2.0,
    "cumulative": 0.6,
    "matmul": 1.0,
    "sort": 0.4,
    "reshape": 1.0,
    "transpose": 1.0,
    "axes": 1.0,
    "broadcast": 0.5,
    "slice": 1.5,
    "join": 1.0,
    "gather": 0.8,
    "mask": 0.4,
    "copy": 0.6,
    "augmented": 0.8,
    "setitem": 0.6,
    "out": 0.3,
}
SIZES = [v for v in VARIANTS if max(v.values()) <= 7]
# Central differences of a loss of O(1) values at step 1e-6: truncation ~1e-12, rounding ~1e-10 of
# the loss's magnitude; a wrong derivative is off by far more.
STEP = 1e-6
FD_RTOL = 1e-6
# Eager grad and grad under jit, jvp and vjp: the same derivative in float64 with sums in other
# orders.
RTOL = 1e-9


def _template(rng) -> list:
    specs = []
    for i in range(int(rng.choice([1, 2, 2]))):
        ndim = int(rng.choice([0, 1, 2, 2, 3]))
        dims = tuple(
            1 if rng.random() < 0.12 else str(rng.choice(["n", "m", "k"])) for _ in range(ndim)
        )
        # no broadcast arguments: their repeated elements are ties, where sort and max have no
        # derivative
        layouts = [name for name in layouts_for(ndim) if name != "broadcast"]
        layout = "C" if rng.random() < 0.6 else str(rng.choice(layouts))
        specs.append(InputSpec(f"a{i}", dims, "float64", "unit", layout))
    return specs


DERIVATIVES = Grammar(FAMILIES, OPS, _template, error_rate=0.0, errstate_rate=0.0)


def generate_differentiable(seed):
    return generate(seed, DERIVATIVES)


def _inner(xs, ys) -> float:
    return float(sum(numpy.sum(numpy.asarray(x) * numpy.asarray(y)) for x, y in zip(xs, ys)))


def _scale(*values) -> float:
    return max([1.0] + [abs(float(v)) for v in values])


def check_derivatives(f, args, seed=0, compiled=False, on_cuda=False) -> list:
    """Failures of the derivative checks on f (f's global `np` names the array module; args: float64
    NumPy arrays), each with the check as its tier: "grad", "grad under jit", "vmap", "jvp/vjp";
    with `on_cuda` "grad on cuda" and "vmap on cuda" (of cuda arrays, eager and jitted, against the
    CPU's).
    Empty when NumPy raises on args or f has no float output."""
    f_numpy, f_arraystack = with_module(f, numpy), with_module(f, arraystack)
    rng = numpy.random.default_rng(seed)
    with _quiet(None):
        try:
            outs = _values(f_numpy(*[numpy.array(a) for a in args]))
        except Exception:  # noqa: BLE001  (error programs are the value fuzzer's)
            return []
    weights = [rng.standard_normal(o.shape) if o.dtype == numpy.float64 else None for o in outs]
    if all(w is None for w in weights):
        return []
    problems = []
    with _quiet(None):
        checks = ON_CUDA if on_cuda else CHECKS
        for tier, check in checks.items():
            try:
                problems += check(f_numpy, f_arraystack, args, weights, rng, compiled)
            except Exception as e:  # noqa: BLE001
                first_line = (str(e).strip().splitlines() or [""])[0][:300]
                problems.append(
                    Failure(tier, f"raised {type(e).__name__}: {first_line}", type(e).__name__)
                )
    return problems


def assert_derivatives(f, args, seed=0, compiled=False):
    """check_derivatives for a test: fails with every problem found."""
    problems = check_derivatives(f, args, seed, compiled)
    assert not problems, "\n".join(str(p) for p in problems)


def _loss(f, xp, weights):
    def loss(*args):
        outs = f(*args)
        outs = outs if isinstance(outs, tuple) else (outs,)
        terms = [xp.sum(o * w) for o, w in zip(outs, weights) if w is not None]
        return sum(terms[1:], terms[0])

    return loss


def _in_layout(a, values):
    """`values` in an array with a's strides, so that NumPy's reshapes of it view or copy as of `a`
    (a reshape of a transposed argument is a copy); numpy.array (a 0-d argument stays an array, as
    a + t would be an immutable NumPy scalar) where `a` broadcasts (a zero stride) or is 0-d."""
    if not isinstance(a, numpy.ndarray) or a.ndim == 0 or a.size == 0 or 0 in a.strides:
        return numpy.array(values)
    low, high = numpy.lib.array_utils.byte_bounds(a)
    memory = numpy.empty((high - low) // a.itemsize, a.dtype)
    start = (a.__array_interface__["data"][0] - low) // a.itemsize
    out = numpy.lib.stride_tricks.as_strided(memory[start:], a.shape, a.strides)
    out[...] = values
    return out


def _grad_against_differences(f_numpy, f_arraystack, args, weights, rng, compiled):
    argnums = tuple(range(len(args)))
    loss = _loss(f_arraystack, arraystack, weights)
    grads = [numpy.asarray(g) for g in arraystack.grad(loss, argnums=argnums)(*args)]
    directions = [rng.standard_normal(numpy.shape(a)) for a in args]
    numpy_loss = _loss(f_numpy, numpy, weights)
    plus = numpy_loss(*[_in_layout(a, a + STEP * t) for a, t in zip(args, directions)])
    minus = numpy_loss(*[_in_layout(a, a - STEP * t) for a, t in zip(args, directions)])
    difference = (plus - minus) / (2 * STEP)
    analytic = _inner(grads, directions)
    problems = []
    finite = numpy.isfinite(plus) and numpy.isfinite(minus)  # else no difference to compare with
    if finite and not abs(analytic - difference) <= FD_RTOL * _scale(plus, difference, analytic):
        problems.append(
            Failure("grad", f"<grad, t> = {analytic!r}, central difference {difference!r}")
        )
    tiers = {"reference": {"backend": "reference"}}
    if compiled:
        tiers["compiled"] = {"tiered": False}
    for tier, options in tiers.items():
        jitted = arraystack.jit(arraystack.grad(loss, argnums=argnums), **options)(*args)
        for k, (g, e) in enumerate(zip(jitted, grads)):
            g = numpy.asarray(g)
            scale = _scale(numpy.max(numpy.abs(e), initial=0.0))
            if g.shape != e.shape or not numpy.all(numpy.abs(g - e) <= RTOL * scale):
                problems.append(
                    Failure("grad under jit", f"{tier}, argument {k}: {g!r}, eager {e!r}")
                )
    return problems


def _grad_on_cuda(f_numpy, f_arraystack, args, weights, rng, compiled):
    """grad of the loss of arguments on cuda:0 (the stand-in for cupy without a GPU), eager and under
    jit: on that device, and equal to the CPU's eager grad within RTOL (kernels sum in other orders)."""
    argnums = tuple(range(len(args)))
    loss = _loss(f_arraystack, arraystack, weights)
    grads = [numpy.asarray(g) for g in arraystack.grad(loss, argnums=argnums)(*args)]
    problems = []
    with _cuda_device():
        on = [arraystack.asarray(a, device="cuda") for a in args]
        weights = [None if w is None else arraystack.asarray(w, device="cuda") for w in weights]
        loss = _loss(f_arraystack, arraystack, weights)
        for tier, function in (
            ("eager", arraystack.grad(loss, argnums=argnums)),
            ("jit", arraystack.jit(arraystack.grad(loss, argnums=argnums))),
        ):
            for k, (g, e) in enumerate(zip(function(*on), grads)):
                if g.device.kind != "cuda":
                    problems.append(Failure("grad on cuda", f"{tier}, argument {k} on {g.device}"))
                    continue
                g = numpy.asarray(g.to_device("cpu"))
                scale = _scale(numpy.max(numpy.abs(e), initial=0.0))
                if g.shape != e.shape or not numpy.all(numpy.abs(g - e) <= RTOL * scale):
                    message = f"{tier}, argument {k}: {g!r}, on the CPU {e!r}"
                    problems.append(Failure("grad on cuda", message))
    return problems


def _vmap_on_cuda(f_numpy, f_arraystack, args, weights, rng, compiled):
    """vmap of f over arguments on cuda:0, eager and under jit: on that device, and equal to vmap on
    the CPU within RTOL."""
    in_axes = tuple(0 if k == 0 or rng.random() < 0.6 else None for k in range(len(args)))
    stacked = [
        numpy.stack([a * (1 + 0.25 * b) for b in range(3)]) if axis == 0 else numpy.array(a)
        for a, axis in zip(args, in_axes)
    ]
    batched = arraystack.vmap(f_arraystack, in_axes=in_axes)
    expected = _values(batched(*[arraystack.array(s) for s in stacked]))
    problems = []
    with _cuda_device():
        on = [arraystack.asarray(s, device="cuda") for s in stacked]
        for tier, function in (("eager", batched), ("jit", arraystack.jit(batched))):
            outs = function(*on)
            outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
            for k, (o, e) in enumerate(zip(outs, expected)):
                if o.device.kind != "cuda":
                    problems.append(Failure("vmap on cuda", f"{tier}, output {k} on {o.device}"))
                    continue
                o = numpy.array(o.to_device("cpu"))
                problem = compare(e, o) if e.dtype.kind != "f" else _close(e, o)
                if problem:
                    message = f"{tier}, in_axes={in_axes}, output {k}: {problem}"
                    problems.append(Failure("vmap on cuda", message))
    return problems


def _vmap_against_loop(f_numpy, f_arraystack, args, weights, rng, compiled):
    batch = 3
    in_axes = tuple(0 if k == 0 or rng.random() < 0.6 else None for k in range(len(args)))
    stacked = [
        numpy.stack([a * (1 + 0.25 * b) for b in range(batch)]) if axis == 0 else a
        for a, axis in zip(args, in_axes)
    ]
    # arraystack arrays: NumPy arrays with in_axes=None would reach f unchanged, with NumPy's
    # operators
    got = _values(
        arraystack.vmap(f_arraystack, in_axes=in_axes)(*[arraystack.array(s) for s in stacked])
    )
    # numpy.array: each example its own array (0-d too; s[b] of a vector would be a NumPy scalar)
    loop = [
        _values(
            f_numpy(*[numpy.array(s[b] if axis == 0 else s) for s, axis in zip(stacked, in_axes)])
        )
        for b in range(batch)
    ]
    expected = [numpy.stack([outs[k] for outs in loop]) for k in range(len(loop[0]))]
    if len(got) != len(expected):
        return [Failure("vmap", f"{len(got)} outputs, the loop {len(expected)}")]
    problems = []
    for k, (e, a) in enumerate(zip(expected, got)):
        # in float64 with sums of up to 7**3 terms in other orders: 1e-9 relative is far above
        # rounding
        problem = compare(e, a) if e.dtype.kind != "f" else _close(e, a)
        if problem:
            problems.append(Failure("vmap", f"in_axes={in_axes}, output {k}: {problem}"))
    return problems


def _close(expected, actual):
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return f"{actual.dtype}{actual.shape}, loop {expected.dtype}{expected.shape}"
    scale = _scale(numpy.max(numpy.abs(numpy.nan_to_num(expected)), initial=0.0))
    same = numpy.isclose(actual, expected, rtol=0, atol=RTOL * scale, equal_nan=True)
    if not same.all():
        i = numpy.flatnonzero(~same.reshape(-1))[0]
        return f"element {i}: {actual.reshape(-1)[i]!r}, loop {expected.reshape(-1)[i]!r}"
    return None


def _jvp_against_vjp(f_numpy, f_arraystack, args, weights, rng, compiled):
    def flat(*xs):
        outs = f_arraystack(*xs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        floats = [arraystack.ravel(o) for o, w in zip(outs, weights) if w is not None]
        return arraystack.concatenate(floats) if len(floats) > 1 else floats[0]

    primal, vjp_fn = arraystack.vjp(flat, *[arraystack.asarray(a) for a in args])
    cotangent = rng.standard_normal(numpy.shape(primal))
    pulled = vjp_fn(arraystack.asarray(cotangent))
    tangents = [rng.standard_normal(numpy.shape(a)) for a in args]
    _, pushed = arraystack.jvp(
        flat,
        tuple(arraystack.asarray(a) for a in args),
        tuple(arraystack.asarray(t) for t in tangents),
    )
    left = _inner([cotangent], [pushed])
    right = _inner(pulled, tangents)
    magnitude = float(numpy.sum(numpy.abs(cotangent * numpy.asarray(pushed))))
    if not abs(left - right) <= RTOL * _scale(magnitude, left, right):
        return [Failure("jvp/vjp", f"<u, jvp(v)> = {left!r}, <vjp(u), v> = {right!r}")]
    return []


ON_CUDA = {"grad on cuda": _grad_on_cuda, "vmap on cuda": _vmap_on_cuda}
CHECKS = {
    "grad": _grad_against_differences,
    "vmap": _vmap_against_loop,
    "jvp/vjp": _jvp_against_vjp,
}


def run_derivatives(seed, compiled=False, on_cuda=False):
    """(program, arguments, problems) of the differentiable program of `seed`, on one size."""
    program = generate_differentiable(seed)
    sizes = SIZES[seed % len(SIZES)]
    arguments = program.arguments(sizes, seed)
    f = program.function(arraystack)
    problems = check_derivatives(f, [a.fresh() for a in arguments], seed, compiled, on_cuda)
    return program, arguments, problems


def derivative_reproducer(program, arguments, compiled=False) -> str:
    """A test to paste into test_found.py (`compiled`: the program was checked on the compiled tier
    too, as run_derivatives does for every fourth seed)."""
    args = "".join(f"            {a.source()},\n" for a in arguments)
    return (
        f"def test_derivatives_{program.seed}():\n"
        + textwrap.indent(program.source(), "    ")
        + f"\n    def args():\n        return [\n{args}        ]\n\n"
        + f"    assert_derivatives(f, args(), seed={program.seed}"
        + (", compiled=True)\n" if compiled else ")\n")
    )
