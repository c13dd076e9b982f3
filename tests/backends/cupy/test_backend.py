"""The cupy backend on the stand-in (issue 25, item 2 and the backend of items 3-5): every primitive's rule runs
with xp = cupy on cuda arrays (or its GPU entry names the primitive), grad and vmap work unchanged on cuda
arrays, compile() and the device runtime run graphs on a CUDA device with its memory limit. NumPy (the
reference rules on the host) is the oracle."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from arraystack.backends import registry
from arraystack.backends.cupy import arrays as cupy_arrays
from arraystack.backends.cupy.arrays import UnsupportedOnGPU, gpu_rules
from arraystack.backends.hardware import HardwareModel
from arraystack.backends.interface import CompileOptions
from arraystack.ir.control import fusion_p
from arraystack.ir.passes.pipeline import run_pipeline
from arraystack.ir.primitives import abstract_eval_rules
from arraystack.ir.reference import reference_rules

import arraystack as ast
from tests.test_rule_coverage import ALL_PRIMITIVES, DTYPES, _aval, _cases


def _on_device(value, xp):
    if isinstance(value, np.ndarray):
        return xp.asarray(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_on_device(v, xp) for v in value)
    return value


def _to_host(value, xp):
    if isinstance(value, xp.ndarray):
        return value.get()
    if isinstance(value, (list, tuple)):
        return [_to_host(v, xp) for v in value]
    return np.asarray(value)


def _outcome(run, *args, **params):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return run(*args, **params), None
        except Exception as e:  # noqa: BLE001 - compared between host and device
            return None, e


def test_the_backend_is_registered_and_says_why_it_cannot_run():
    names = registry.names()
    assert "cupy" in names
    reason = registry.get("reference") and cupy_arrays.missing()
    if reason is not None:  # no cupy here (and no stand-in installed)
        assert "cupy" in reason
        with pytest.raises(registry.BackendUnavailable, match="cupy"):
            registry.get("cupy")
    assert registry.default_name() != "cupy"  # never the default for host arrays


def test_the_backend_is_available_with_the_standin(standin):
    backend = registry.get("cupy")
    assert backend.device_kinds == ("cuda",) and "2 CUDA devices" in backend.describe()
    assert registry.for_device(ast.devices()["cuda:0"]) is backend


@pytest.mark.parametrize("prim", ALL_PRIMITIVES, ids=lambda p: p.name)
def test_every_primitive_runs_on_cuda_arrays_or_names_its_gap(standin, prim):
    """The rule of each primitive on cuda arrays gives the host's values, or raises the host's error,
    or (a GPU entry) an UnsupportedOnGPU naming the primitive."""
    ast.devices()  # the frontend registers the stand-in's arrays for the eager evaluation of sub-graphs
    evaluate = cupy_arrays.CupyArrays().evaluate
    checked = 0
    for dtype in DTYPES:
        for operands, params in _cases(prim, dtype) or []:
            try:
                abstract_eval_rules[prim](*[_aval(x) for x in operands], **params)
            except (TypeError, ValueError, IndexError):
                continue  # the shape rule rejects this dtype or combination
            expected, host_error = _outcome(reference_rules[prim], np, *operands, **params)
            device_operands = _on_device(list(operands), standin)
            got, error = _outcome(evaluate, prim, device_operands, params)
            if isinstance(error, UnsupportedOnGPU):
                assert prim in gpu_rules and f"`{prim.name}`" in str(error)
                continue
            if host_error is not None:
                assert error is not None, (
                    f"{prim.name}: the host raises {host_error!r}, cuda does not"
                )
                continue
            assert error is None, f"{prim.name} {dtype} {params}: {error!r}"
            results = got if prim.multiple_results else [got]
            wanted = expected if prim.multiple_results else [expected]
            for g, w in zip(results, wanted):
                if not isinstance(w, np.generic):  # a scalar carry of a loop stays a scalar
                    assert isinstance(g, standin.ndarray), f"{prim.name}: a {type(g).__name__}"
                np.testing.assert_array_equal(
                    _to_host(g, standin), np.asarray(w), err_msg=prim.name
                )
            checked += 1
    if _cases(prim, DTYPES[0]) is not None and prim not in gpu_rules:
        assert checked, f"no sample of {prim.name} ran on a cuda array"


def test_a_gap_names_the_primitive_eagerly(standin):
    x = ast.asarray(np.arange(6.0).reshape(2, 3), device="cuda")
    z = ast.asarray(np.array([1 + 2j, 3, 2j]), device="cuda")
    with pytest.raises(
        UnsupportedOnGPU, match=r"`cummax` on a cuda array is not supported.*complex128.*to_device"
    ):
        ast.maximum.accumulate(z)
    erf = ast.scipy.special.erf
    np.testing.assert_array_equal(
        np.asarray(erf(x).to_device("cpu")), np.asarray(erf(np.arange(6.0).reshape(2, 3)))
    )


def loss(w, x):
    return ast.sum(ast.tanh(x @ w) ** 2) + 0.5 * ast.sum(w * w)


def test_grad_and_vmap_on_cuda_arrays_match_the_cpu(standin):
    rng = np.random.default_rng(0)
    w, x = rng.normal(size=(4, 3)), rng.normal(size=(5, 4))
    gw, gx = ast.asarray(w, device="cuda:1"), ast.asarray(x, device="cuda:1")
    grad = ast.grad(loss)(gw, gx)
    assert grad.device == "cuda:1"
    np.testing.assert_allclose(
        np.asarray(grad.to_device("cpu")), np.asarray(ast.grad(loss)(w, x)), rtol=1e-12
    )
    rows = ast.vmap(lambda row: ast.sum(ast.sin(row) * row))(gx)
    assert rows.device == "cuda:1"
    np.testing.assert_allclose(
        np.asarray(rows.to_device("cpu")), [np.sum(np.sin(r) * r) for r in x], rtol=1e-12
    )


def _optimized(fn, *args):
    return run_pipeline(ast.jit(fn).lower(*args).traced, fusion=registry.get("cupy").fusion)


def test_compile_runs_a_graph_on_the_device(standin):
    x = np.linspace(-2, 2, 48).reshape(6, 8)
    graph = _optimized(lambda a: ast.tanh(a * 2.0 + 1.0) - ast.sort(a, axis=0), x)
    executable = registry.get("cupy").compile(graph, CompileOptions())
    (out,) = executable(standin.asarray(x))
    assert isinstance(out, standin.ndarray)
    np.testing.assert_allclose(out.get(), np.tanh(x * 2.0 + 1.0) - np.sort(x, axis=0), rtol=1e-12)


def test_the_memory_limit_of_a_cuda_device_is_checked(standin, monkeypatch):
    x = np.ones((64, 64))
    graph = _optimized(lambda a: ast.exp(a) @ a, x)
    executable = registry.get("cupy").compile(graph, CompileOptions())
    monkeypatch.setattr(ast.config, "memory_limit", {"cuda:0": 1024})
    with pytest.raises(ast.OutOfMemory, match=r"out of memory on cuda:0 at plan step 0"):
        executable(standin.asarray(x))


def test_running_out_of_the_pool_is_out_of_memory_naming_the_step(standin):
    x = standin.ones((64, 64))
    graph = _optimized(lambda a: ast.sort(a, axis=0) @ a, np.ones((64, 64)))
    executable = registry.get("cupy").compile(graph, CompileOptions())
    pool = standin.get_default_memory_pool()
    pool.set_limit(size=pool.total_bytes() + 4096)
    try:
        with pytest.raises(
            ast.OutOfMemory, match=r"out of memory on cuda:0 at plan step \d: `sort`"
        ):
            executable(x)
    finally:
        pool.set_limit(None)


class RegionsOnTheGPU:
    """A placement policy: fusion regions on cuda:0, everything else on the host."""

    def place(self, eqn, cost, devices, current):
        return "cuda:0" if eqn.prim is fusion_p else "cpu"


def _hardware():
    model = ast.devices()
    keep = ("cpu", "cuda:0")
    return HardwareModel(
        tuple(d for d in model if d.key in keep),
        tuple(link for link in model.links if link.src in keep and link.dst in keep),
    )


def test_a_plan_runs_regions_on_the_device_with_explicit_transfers(standin, monkeypatch):
    x = np.linspace(-1, 1, 32).reshape(4, 8)
    f = ast.jit(
        lambda a: ast.sum(ast.exp(a) * 2.0, axis=1) @ a,
        policy=RegionsOnTheGPU(),
        devices=_hardware(),
    )
    np.testing.assert_allclose(np.asarray(f(x)), np.sum(np.exp(x) * 2.0, axis=1) @ x, rtol=1e-12)
    report = f.last_run()
    assert report.runtimes["cuda:0"] == "cupy"
    assert any(dst == "cuda:0" for _, _, dst, _ in report.transfers)
    assert any(src == "cuda:0" and dst == "cpu" for _, src, dst, _ in report.transfers)
    monkeypatch.setattr(ast.config, "memory_limit", {"cuda:0": 64})
    with pytest.raises(ast.OutOfMemory, match="cuda:0"):
        f(x)


@pytest.mark.gpu
def test_real_cupy_eager_grad_and_compile():
    cupy = cupy_arrays.cupy_module()

    rng = np.random.default_rng(0)
    w, x = rng.normal(size=(4, 3)), rng.normal(size=(5, 4))
    grad = ast.grad(loss)(ast.asarray(w, device="cuda"), ast.asarray(x, device="cuda"))
    assert isinstance(grad._value, cupy.ndarray)
    np.testing.assert_allclose(
        np.asarray(grad.to_device("cpu")), np.asarray(ast.grad(loss)(w, x)), rtol=1e-9
    )
    graph = _optimized(lambda a: ast.tanh(a * 2.0 + 1.0), x)
    (out,) = registry.get("cupy").compile(graph, CompileOptions())(cupy.asarray(x))
    np.testing.assert_allclose(out.get(), np.tanh(x * 2.0 + 1.0), rtol=1e-12)


def test_cummax_and_cummin_run_the_generated_scan_kernel_where_cupy_has_no_accumulate(standin):
    rng = np.random.default_rng(2)
    x = rng.integers(-5, 5, (4, 37)).astype(np.float32)
    x[1, 3], x[2, 0], x[3, 10] = np.nan, -0.0, 0.0
    n = rng.integers(-100, 100, (37, 3)).astype(np.int16)
    for host in (x, n, x[:, ::-2]):
        for axis in (0, 1, -1):
            device = ast.asarray(host, device="cuda")
            for ufunc in ("maximum", "minimum"):
                got = getattr(ast, ufunc).accumulate(device, axis=axis)
                want = getattr(np, ufunc).accumulate(host, axis=axis)
                assert got.device == "cuda:0"
                np.testing.assert_array_equal(np.asarray(got.to_device("cpu")), want, strict=True)
                assert np.array_equal(
                    np.signbit(np.asarray(got.to_device("cpu"))), np.signbit(want)
                )
