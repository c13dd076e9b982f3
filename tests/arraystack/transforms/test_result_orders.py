"""NumPy's memory order for the result of every function of one array argument that NumPy and
arraystack share, eagerly and while tracing: a Fortran-ordered, a permuted-and-reversed and a
C-ordered 3-d operand. The order decides whether a later reshape views or copies, and so whether a
write through it reaches the result (tests/arraystack/transforms/test_result_layouts.py)."""

from __future__ import annotations

import warnings

import numpy
import pytest

import arraystack
from arraystack._transforms import aliasing

A = numpy.arange(1.0, 61.0).reshape(3, 4, 5) / 7.0
LAYOUTS = {
    "fortran": lambda a: a.transpose(2, 1, 0),
    "permuted": lambda a: a.transpose(1, 0, 2)[:, ::-1],
    "c": lambda a: a,
}
# functions whose result is no new array of the argument's values, or that take no array first
NOT_CALLED = {
    "array", "asarray", "broadcast", "copyto", "dtype", "empty", "empty_like", "errstate",
    "fill_diagonal", "flatiter", "frombuffer", "frompyfunc", "info", "memmap", "may_share_memory",
    "ndarray", "ndenumerate", "ndindex", "nditer", "nested_iters", "place", "printoptions", "put",
    "putmask", "save", "savetxt", "savez", "set_printoptions", "shares_memory", "show_config",
    "show_runtime", "vectorize",
}  # fmt: skip


def _order(x):
    long = [k for k, n in enumerate(x.shape) if n != 1]
    return (
        tuple(sorted(long, key=lambda k: abs(x.strides[k]))),
        bool(x.flags.c_contiguous),
        bool(x.flags.f_contiguous),
    )


def _functions():
    for name in sorted(set(dir(numpy)) & set(dir(arraystack))):
        f = getattr(numpy, name)
        if name.startswith("_") or name in NOT_CALLED or not callable(f) or isinstance(f, type):
            continue
        yield name, f, getattr(arraystack, name)


def _first(result):
    return result[0] if isinstance(result, tuple) and result else result


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_result_is_in_numpys_order(layout):
    view = LAYOUTS[layout]
    wrong, checked = [], 0
    for name, f, g in _functions():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = _first(f(view(A.copy())))
            except Exception:  # noqa: BLE001, S112  (NumPy does not take this call: nothing to compare)
                continue
            if not isinstance(want, numpy.ndarray) or want.ndim < 2 or want.size == 0:
                continue
            eager = _first(g(view(arraystack.asarray(A.copy()))))
            seen = {}

            def traced(a, g=g, seen=seen):
                result = _first(g(view(a)))
                seen["layout"] = aliasing.layout_of(result)
                return result

            try:
                arraystack.eval_shape(traced, arraystack.asarray(A))
            except arraystack.errors.TracerError:
                pass  # a function that cannot be traced (a shape that depends on the values)
        checked += 1
        if _order(eager._value) != _order(want):
            wrong.append(f"{name} (eager): strides {eager._value.strides}, NumPy's {want.strides}")
        if "layout" in seen and _order(seen["layout"]) != _order(want):
            wrong.append(
                f"{name} (traced): strides {seen['layout'].strides}, NumPy's {want.strides}"
            )
    assert checked > 100
    assert not wrong, "\n".join(wrong)
