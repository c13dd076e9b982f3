"""The fuzzer itself: programs and arguments are reproducible from their seed, reproducers rebuild
them bit for bit and run, the comparison sees every kind of difference it claims to, a wrong tier
fails the check, and every known failure class has its reproducer in test_found.py."""

from __future__ import annotations

import pathlib
import re

import numpy
import pytest

import arraystack
from tests.fuzz import known
from tests.fuzz.comparison import builtin_types, compare, same_error, ulp_distance
from tests.fuzz.generator import GENERIC, generate
from tests.fuzz.inputs import (
    DTYPES,
    FLOAT_PROFILES,
    InputSpec,
    indices,
    layouts_for,
    make_argument,
    mask,
)
from tests.fuzz.tiers import TIERS, Tolerances, check, check_program

pytestmark = pytest.mark.filterwarnings("ignore")


def test_programs_are_reproducible_from_their_seed():
    for seed in range(20):
        first, second = generate(seed), generate(seed)
        assert first.source() == second.source()
        a, b = first.arguments(GENERIC, seed), second.arguments(GENERIC, seed)
        assert all(x.base.tobytes() == y.base.tobytes() for x, y in zip(a, b))
    assert len({generate(seed).source() for seed in range(20)}) == 20


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["C", "T", "strided", "reversed", "broadcast"])
def test_argument_source_rebuilds_the_argument(dtype, layout):
    profiles = FLOAT_PROFILES if dtype.startswith("float") else ("small", "extreme")
    for k, profile in enumerate(profiles):
        dims = ("n", "m") if layout in layouts_for(2) else ("n",)
        argument = make_argument(
            InputSpec("a0", dims, dtype, profile, layout),
            {"n": 5, "m": 3},
            numpy.random.default_rng(k),
        )
        built = eval(argument.source(), {"numpy": numpy})
        fresh = argument.fresh()
        assert built.dtype == fresh.dtype and built.shape == fresh.shape
        assert built.strides == fresh.strides
        assert built.tobytes() == fresh.tobytes() or numpy.array_equal(built, fresh, equal_nan=True)


def test_constants_depend_on_shape_and_salt_only():
    assert numpy.array_equal(mask((3, 4), 7), mask((3, 4), 7))
    assert mask(5, 1).dtype == bool and mask(5, 1).shape == (5,)
    positions = indices(6, 50, 3)
    assert positions.min() >= -6 and positions.max() < 6
    assert indices(0, 4, 1).shape == (0,)


def test_compare_exact_sees_signed_zeros_nan_positions_and_one_ulp():
    one = numpy.array([1.0, 0.0, numpy.nan], numpy.float32)
    assert compare(one, one.copy()) is None
    assert "bits differ" in compare(one, numpy.array([1.0, -0.0, numpy.nan], numpy.float32))
    assert "NaN positions" in compare(one, numpy.array([1.0, 0.0, 0.0], numpy.float32))
    up = numpy.nextafter(one, numpy.float32(2))
    assert "bits differ" in compare(one[:1], up[:1])
    assert "dtype" in compare(one, one.astype(numpy.float64))
    assert "shape" in compare(one, one[:2])
    assert "values differ" in compare(numpy.arange(3), numpy.array([0, 1, 3]))


def test_compare_with_ulps_allows_the_bound_and_no_more():
    x = numpy.array([1.0, -3.5, 1e-310, 0.0, numpy.inf])
    four_up = x.copy()
    for _ in range(4):
        four_up = numpy.nextafter(four_up, numpy.inf)
    assert compare(x[:4], four_up[:4], ulps=4) is None
    assert "more than 3 ulp" in compare(x[:4], four_up[:4], ulps=3)
    assert compare(numpy.array([0.0]), numpy.array([-0.0]), ulps=1) is None  # ±0: one value


def test_ulp_distance():
    f64 = numpy.float64
    a = numpy.array([1.0, 0.0, -0.0, numpy.finfo(f64).max, -5e-324, 1.0])
    b = numpy.array([numpy.nextafter(1.0, 2.0), -0.0, 5e-324, numpy.inf, 5e-324, 2.0])
    assert ulp_distance(a, b).tolist() == [1, 0, 1, 1, 2, 2**52]


def test_errors_compare_by_their_builtin_types():
    axis_error = numpy.exceptions.AxisError(3, 2)
    assert set(builtin_types(axis_error)) == {ValueError, IndexError}
    assert same_error(axis_error, axis_error)
    assert not same_error(axis_error, ValueError("axis"))
    try:
        numpy.add(numpy.zeros(2, numpy.int8), 1.5, out=numpy.zeros(2, numpy.int8))
    except TypeError as e:  # NumPy's UFuncTypeError
        assert builtin_types(e) == (TypeError,)
        assert same_error(e, TypeError("casting"))
    assert not same_error(OverflowError("x"), ValueError("x"))


def test_a_wrong_result_fails_every_tier():
    """The check can fail: a program that differs from NumPy's fails in every tier."""

    def f_numpy(a):
        return a + a.sum(axis=-1)

    def f_wrong(a):
        return a + a.sum(axis=-1, keepdims=True)

    expected, failures = check(f_numpy, f_wrong, lambda: [numpy.arange(9.0).reshape(3, 3)])
    assert expected.error is None
    assert {f.tier for f in failures} == set(TIERS)


def test_a_missing_error_fails():
    def f_numpy(a):
        return a[5]

    def f_lenient(a):
        return a[4]

    _, failures = check(f_numpy, f_lenient, lambda: [numpy.arange(5.0)], tiers=("eager",))
    assert failures and "NumPy raises IndexError" in failures[0].message


def test_the_first_call_of_a_tiered_function_runs_tier_0():
    jitted = arraystack.jit(lambda a: a * 2.0 + 1.0, tiered=True)
    jitted(numpy.ones(3))
    (entry,) = jitted._cache.values()
    assert (
        entry.pending is not None
    )  # the call ran the tier-0 executable; a Tier compiles meanwhile
    jitted.wait_compiled()


def test_reproducers_run():
    program = generate(3)
    arguments = program.arguments(GENERIC, 3)
    namespace = {
        "numpy": numpy,
        "np": arraystack,
        "mask": mask,
        "indices": indices,
        "check_program": check_program,
    }
    exec(program.reproducer(arguments, "it"), namespace)  # noqa: S102  (generated test source)
    namespace["test_it"]()


def test_every_known_class_has_a_reproducer():
    """known.KNOWN names each class; test_found.py names it in the docstring of its reproducer."""
    text = (pathlib.Path(__file__).parent / "test_found.py").read_text()
    named = set(re.findall(r'Known class: "([^"]+)"', text))
    assert {k.name for k in known.KNOWN} <= named


def test_tolerances_that_grow_with_the_variant():
    from tests.fuzz.facts import N, order_ulps, ulps_at, ulps_max

    bound = 2 * (order_ulps(N) + 4) + 1  # a product of a sum (4 N + 1) and a 4-ulp value
    assert ulps_at(bound, 10) == 2 * (41 + 4) + 1
    assert ulps_max([bound, 3 * N, 7]) == 2 * (order_ulps(N) + 4) + 1
    assert ulps_max([1, 3]) == 3
    assert (N // 4).at(10) == 10 and ((N + 3) // 2).at(1) == 1 + 2
    assert order_ulps(5) == 17 and bound and not (N * 0)


def test_tier_0_and_the_compiled_tier_agree_bit_for_bit(monkeypatch):
    """Within NumPy's tolerance, the tiers must still agree with each other exactly."""
    from tests.fuzz import tiers

    real = tiers._call

    def nudged(tier, f, args):  # tier 0 one ulp up
        out = real(tier, f, args)
        return numpy.nextafter(numpy.asarray(out), numpy.inf) if tier == "tier0" else out

    monkeypatch.setattr(tiers, "_call", nudged)

    def f_arraystack(a):
        return arraystack.exp(a) * 2.0

    def f_numpy(a):
        return numpy.exp(a) * 2.0

    fresh = lambda: [numpy.linspace(0.0, 1.0, 5)]
    _, failures = check(
        f_numpy, f_arraystack, fresh, Tolerances(ulps=[4]), tiers=("compiled", "tier0")
    )
    assert [f.tier for f in failures] == ["tier0 vs compiled"]
