"""NumPy's memory order for the result of every function of one array (or of two arrays, or of an array
and a number) that NumPy and arraystack share, eagerly and while tracing: Fortran-ordered,
permuted-and-reversed and C-ordered 3-d operands. The order decides whether a later reshape views or
copies, and so whether a write through it reaches the result (test_result_layouts.py)."""

from __future__ import annotations

import warnings

import numpy
import pytest

import arraystack
from arraystack._transforms import aliasing

A = numpy.arange(1.0, 61.0).reshape(3, 4, 5) / 7.0
B = (numpy.arange(60.0).reshape(3, 4, 5) % 7) / 3.0
LAYOUTS = {
    "fortran": lambda a: a.transpose(2, 1, 0),
    "permuted": lambda a: a.transpose(1, 0, 2)[:, ::-1],
    "c": lambda a: a,
}
# functions whose result is no new array of the arguments' values, or that take no array first
NOT_CALLED = {
    "array", "asarray", "broadcast", "copyto", "dtype", "einsum", "einsum_path", "empty",
    "empty_like", "errstate", "fill_diagonal", "flatiter", "frombuffer", "frompyfunc", "info",
    "memmap", "may_share_memory", "ndarray", "ndenumerate", "ndindex", "nditer", "nested_iters",
    "place", "printoptions", "put", "putmask", "save", "savetxt", "savez", "set_printoptions",
    "shares_memory", "show_config", "show_runtime", "vectorize",
}  # fmt: skip


def _order(x):
    long = [k for k, n in enumerate(x.shape) if n != 1]
    return (
        tuple(sorted(long, key=lambda k: abs(x.strides[k]))),
        bool(x.flags.c_contiguous),
        bool(x.flags.f_contiguous),
    )


def _functions(module=""):
    ours, theirs = arraystack, numpy
    for part in filter(None, module.split(".")):
        ours, theirs = getattr(ours, part), getattr(theirs, part)
    for name in sorted(set(dir(theirs)) & set(dir(ours))):
        f = getattr(theirs, name)
        if name.startswith("_") or name in NOT_CALLED or not callable(f) or isinstance(f, type):
            continue
        yield f"{module}.{name}" if module else name, f, getattr(ours, name)


def _first(result):
    return result[0] if isinstance(result, tuple) and result else result


def _compare(name, f, g, layouts, wrong, data=(A, B)) -> bool:
    """Call NumPy's `f` and arraystack's `g` on A (and B) in `layouts` (a layout's name, or None for
    the number 2): False where NumPy does not take the call; else each way g's result differs in
    order from f's is appended to `wrong`."""

    def operands(module, values):
        return [2 if lay is None else LAYOUTS[lay](v) for lay, v in zip(layouts, values)]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = _first(f(*operands(numpy, [d.copy() for d in data])))
        except Exception:  # noqa: BLE001  (NumPy does not take this call: nothing to compare)
            return False
        if not isinstance(want, numpy.ndarray) or want.ndim < 2 or want.size == 0:
            return False
        eager = _first(g(*operands(arraystack, [arraystack.asarray(d) for d in data])))
        seen = {}

        def traced(a, b):
            result = _first(g(*operands(arraystack, [a, b])))
            seen["layout"] = aliasing.layout_of(result)
            return result

        try:
            arraystack.eval_shape(traced, *[arraystack.asarray(d) for d in data])
        except arraystack.errors.TracerError:
            pass  # a function that cannot be traced (a shape that depends on the values)
    if _order(eager._value) != _order(want):
        wrong.append(
            f"{name}{layouts} eager: strides {eager._value.strides}, NumPy's {want.strides}"
        )
    if "layout" in seen and _order(seen["layout"]) != _order(want):
        wrong.append(
            f"{name}{layouts} traced: strides {seen['layout'].strides}, NumPy's {want.strides}"
        )
    return True


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_result_is_in_numpys_order(layout):
    wrong = []
    checked = sum(_compare(name, f, g, (layout,), wrong) for name, f, g in _functions())
    assert checked > 100
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_result_of_two_operands_is_in_numpys_order(layout):
    wrong, checked = [], 0
    for name, f, g in _functions():
        for second in [*sorted(LAYOUTS), None]:
            checked += _compare(name, f, g, (layout, second), wrong)
    assert checked > 200
    assert not wrong, "\n".join(wrong)


KEYWORD_CALLS = {
    "add order F": lambda m, a: m.add(a, 1, order="F"),
    "add order C": lambda m, a: m.add(a, 1, order="C"),
    "add order A": lambda m, a: m.add(a, 1, order="A"),
    "negative order F": lambda m, a: m.negative(a, order="F"),
    "clip order F": lambda m, a: m.clip(a, 1, 2, order="F"),
    "sqrt where": lambda m, a: m.sqrt(a, where=a > 1),
    "divmod where": lambda m, a: m.divmod(a, 2.0, where=a > 1)[1],
    "reshape order A": lambda m, a: m.reshape(a, (a.shape[0], -1), order="A"),
    "reshape order F": lambda m, a: m.reshape(a, (a.shape[0], -1), order="F"),
    "ravel order K": lambda m, a: m.ravel(a, order="K").reshape(2, -1),
    "flatten order A": lambda m, a: a.flatten("A").reshape(2, -1),
    "astype order A": lambda m, a: a.astype(m.float32, order="A"),
    "astype order F": lambda m, a: a.astype(m.float32, order="F"),
    "zeros_like order A": lambda m, a: m.zeros_like(a, order="A"),
    "array order F": lambda m, a: m.array(a, order="F", copy=True),
    "gradient": lambda m, a: m.gradient(a, axis=2),
    "sum keepdims": lambda m, a: m.sum(a, axis=(0, 2), keepdims=True),
    "stack axis 3": lambda m, a: m.stack([a, a], axis=3),
    "take_along_axis": lambda m, a: m.take_along_axis(a, m.argsort(a, axis=2), axis=2),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("call", sorted(KEYWORD_CALLS))
def test_results_of_calls_with_keywords_are_in_numpys_order(call, layout):
    wrong = []
    function = KEYWORD_CALLS[call]
    assert _compare(
        call,
        lambda a: function(numpy, a),
        lambda a: function(arraystack, a),
        (layout,),
        wrong,
    )
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("module", ["linalg", "fft", "emath"])
def test_every_result_of_a_submodule_is_in_numpys_order(module, layout):
    square = numpy.arange(1.0, 49.0).reshape(3, 4, 4) / 7.0 + numpy.eye(4) * 3  # for linalg
    wrong, checked = [], 0
    for name, f, g in _functions(module):
        checked += _compare(name, f, g, (layout,), wrong, (square, B))
    assert checked > 5
    assert not wrong, "\n".join(wrong)
