"""The BLAS keeps its thread count, so its products keep their bits, while compiles run in the background;
the compile worker gives up the cores instead (lowest scheduling priority)."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest
from arraystack.backends.numba import blas_threads as bt
from arraystack.backends.numba import compile_process

import arraystack as ast


def test_lower_priority_makes_a_process_yield_to_every_other():
    code = (
        "from arraystack.backends.numba.blas_threads import lower_priority, priority; "
        "print(lower_priority(), priority())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    how, seen = out.stdout.split(maxsplit=1)
    assert (how, seen.strip()) in {("idle", "idle"), ("nice", "nice 19")}
    assert bt.priority() not in ("idle", "nice 19")  # this process is untouched


@pytest.fixture
def two_threads():
    """OpenBLAS on two threads for the test (restored after): products whose bits depend on the count."""
    if bt.blas_threads() is None:
        pytest.skip("NumPy's BLAS here is not OpenBLAS")
    get, set_ = bt._openblas()
    before = get()
    set_(2)
    yield set_
    set_(before)


@pytest.mark.numba
def test_a_product_keeps_its_bits_while_a_background_compile_runs(two_threads, tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 784), dtype=np.float32)
    b = rng.standard_normal((784, 512), dtype=np.float32)
    expected = (a @ b).tobytes()
    two_threads(1)
    on_one_thread = (a @ b).tobytes()
    two_threads(2)
    if on_one_thread == expected:
        pytest.skip("this OpenBLAS gives these products the same bits on 1 and 2 threads")
    monkeypatch.setattr(ast.config, "cache_dir", str(tmp_path))  # a kernel that must compile
    monkeypatch.setattr(ast.config, "tier_compile", "process")
    f = ast.jit(lambda x: ast.tanh(x * 0.59375) + x, tiered=True)
    f(ast.asarray(np.linspace(-1.0, 1.0, 1000)))
    products, changed, deadline = 0, 0, time.monotonic() + 300
    while not f.wait_compiled(0) and time.monotonic() < deadline:
        changed += (a @ b).tobytes() != expected
        products += 1
    assert f.wait_compiled(300)
    assert products > 0  # some products ran while the compile did
    assert changed == 0, f"{changed} of {products} products changed their bits during the compile"
    assert bt.blas_threads() == 2
    assert bt.priority(compile_process.worker_pid()) in ("idle", "nice 19")
    assert (a @ b).tobytes() == expected
