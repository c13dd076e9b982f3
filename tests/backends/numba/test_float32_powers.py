"""float32 x ** 3 and x ** 4 in generated kernels: computed in float64 (x * x exact), rounded to float32 once,
so within 1 ulp of NumPy's float32 power (itself no correctly rounded powf), and fused: NumPy's float32
power runs a scalar loop for negative bases (45-86 ns an element; 0.95 for positive ones), which split
GELU's tanh approximation around it."""

import numpy as np
import pytest

import arraystack as ast
from tests.backends.numba.mathlib.inputs import ulp_distance

pytestmark = pytest.mark.numba


def sample():
    rng = np.random.default_rng(8)
    fi = np.finfo(np.float32)
    with np.errstate(over="ignore"):
        parts = [
            rng.standard_normal(50_000) * 3,
            np.exp(rng.uniform(-103, 88, 50_000)) * rng.choice([-1, 1], 50_000),
            [0.0, -0.0, np.inf, -np.inf, np.nan, fi.tiny, fi.smallest_subnormal, fi.max, -fi.max],
            [
                1e-13,
                -1e-13,
                2e12,
                -2e12,
                6.98e12,
                1.8e19,
                1e-30,
                1e-40,
            ],  # over- and underflow edges
        ]
        return np.concatenate([np.asarray(part, np.float64) for part in parts]).astype(np.float32)


def test_cube_and_fourth_power_are_rounded_once_from_float64():
    x = sample()
    f = ast.jit(lambda x: (x**3, x**4, x**3.0))
    plan = f.lower(x).compile().as_text().split("# optimized graph")[0]
    assert "pow" not in plan  # fused: no NumPy step
    cube, fourth, cube_float = (np.asarray(v) for v in f(x))
    w = x.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        np.testing.assert_array_equal(
            cube.view(np.uint32), (w * w * w).astype(np.float32).view(np.uint32)
        )
        np.testing.assert_array_equal(
            fourth.view(np.uint32), ((w * w) * (w * w)).astype(np.float32).view(np.uint32)
        )
        np.testing.assert_array_equal(cube_float.view(np.uint32), cube.view(np.uint32))
        assert ulp_distance(cube, x**3).max() <= 1 and ulp_distance(fourth, x**4).max() <= 1
    np.testing.assert_array_equal(
        np.signbit(cube[x == 0]), np.signbit(x[x == 0])
    )  # (-0.0)**3 = -0.0


def test_other_powers_keep_numpys_loop():
    """x ** 2.5, float64 x ** 3 and integer-valued exponents other than 3 and 4 stay NumPy's power."""
    x32 = np.linspace(0.5, 3, 64, dtype=np.float32)
    for fn, x in (
        (lambda x: x**2.5, x32),
        (lambda x: x**5, x32),
        (lambda x: x**-3, x32),
        (lambda x: x**3, x32.astype(np.float64)),
    ):
        plan = ast.jit(fn).lower(x).compile().as_text().split("# optimized graph")[0]
        assert "pow" in plan
        np.testing.assert_array_equal(np.asarray(ast.jit(fn)(x)), fn(x))


def test_gelu_tanh_approximation_is_one_kernel():
    x = np.random.default_rng(1).standard_normal((64, 300)).astype(np.float32)

    def gelu(x):
        return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))

    f = ast.jit(gelu)
    plan = f.lower(x).compile().as_text().split("# optimized graph")[0]
    assert plan.count("fusion") == 1 and "reference" not in plan
    # 1 + tanh cancels for negative x: tanh's few ulp (mathlib) show as ~1e-7 absolute there
    np.testing.assert_allclose(np.asarray(f(x)), gelu(x), rtol=2e-6, atol=1e-6)
