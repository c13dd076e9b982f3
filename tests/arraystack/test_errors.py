"""arraystack.errors: every class it lists is the one the matching mistake raises, and each keeps the
built-in base that NumPy's code catches."""

from __future__ import annotations

import pytest

import arraystack as np
from arraystack import errors


def _write_outside():
    kept = np.zeros(3)

    def f(x):
        kept[0] = x[0]
        return x

    np.jit(f)(np.ones(3))


def _escaped():
    kept = []

    def f(x):
        kept.append(x)
        return x

    np.jit(f)(np.ones(2))
    return kept[0] + 1


class _Nowhere:
    def place(self, eqn, cost, devices, current):
        return "no-such-device"


def _out_of_memory():
    limit = np.config.memory_limit
    np.config.memory_limit = 1000
    try:
        np.jit(lambda x: x * 2 + 1)(np.ones(100_000))
    finally:
        np.config.memory_limit = limit


def _unavailable_backend():
    from arraystack.backends import Backend, register, unregister

    class Absent(Backend):
        name = "absent-accelerator"

        def unavailable_reason(self):
            return "no such accelerator is attached"

    register(Absent())
    try:
        np.jit(lambda x: x + 1, backend="absent-accelerator")(np.ones(2))
    finally:
        unregister("absent-accelerator")


MISTAKES = {
    "ConcretizationError": lambda: np.jit(lambda x: int(x))(np.ones(())),
    "ShapeDependsOnDataError": lambda: np.jit(lambda x: np.nonzero(x))(np.ones(3)),
    "WriteOutsideTraceError": _write_outside,
    "EscapedTracerError": _escaped,
    "TracedRandomError": lambda: np.jit(lambda x: x + np.random.rand())(np.ones(2)),
    "NotDifferentiableError": lambda: np.grad(
        lambda a: np.linalg.svd(a, full_matrices=True)[0].sum()
    )(np.ones((3, 2))),
    "IRParseError": lambda: np.ir.parse_graph("not a graph"),
    "PlanError": lambda: np.jit(lambda x: x + 1).lower(np.ones(2)).plan(policy=_Nowhere()),
    "OutOfMemory": _out_of_memory,
    "BackendUnavailable": _unavailable_backend,
    "HostDtypeError": lambda: np.jit(lambda x: x + 1)(np.asarray(["2020-01-01"], "datetime64[D]")),
}
BUILTIN = {
    "ConcretizationError": TypeError,
    "ShapeDependsOnDataError": ValueError,
    "WriteOutsideTraceError": ValueError,
    "EscapedTracerError": RuntimeError,
    "TracedRandomError": TypeError,
    "NotDifferentiableError": TypeError,
    "IRParseError": ValueError,
    "PlanError": ValueError,
    "OutOfMemory": MemoryError,
    "BackendUnavailable": RuntimeError,
    "HostDtypeError": TypeError,
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_the_mistake_raises_the_public_class(name):
    cls = getattr(errors, name)
    with pytest.raises(cls) as info:
        MISTAKES[name]()
    assert isinstance(info.value, BUILTIN[name])
    assert str(info.value)  # a message, never a bare class


def test_every_public_class_is_an_exception_and_tracing_errors_share_a_base():
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), Exception), name
    for name in (
        "ConcretizationError",
        "ShapeDependsOnDataError",
        "EscapedTracerError",
        "WriteOutsideTraceError",
        "TracedRandomError",
        "HostDtypeError",
    ):
        assert issubclass(getattr(errors, name), errors.TracerError), name
    assert set(MISTAKES) | {"TracerError", "PassError", "TypecheckError"} == set(errors.__all__)
    assert np.errors is errors and np.OutOfMemory is errors.OutOfMemory
