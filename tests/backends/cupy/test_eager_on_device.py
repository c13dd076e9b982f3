"""Eager operations of arrays on a CUDA device (the stand-in for cupy) equal NumPy's, with their results
on that device: compositions whose constants (an iota, a mask, gather indices) are made on the host, and
functions that read their operands' values back (index checks, data-dependent shapes). NumPy is the oracle;
every case is written once against the module `m` and an array maker `a`."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import arraystack as ast

rng = np.random.default_rng(0)
A = rng.standard_normal((6, 5))
B = rng.standard_normal(5)
I = rng.integers(0, 5, 7)
Bo = A > 0

CASES = {
    "argsort": lambda m, a: m.argsort(a(A), axis=0),
    "sort": lambda m, a: m.sort(a(A)),
    "unique": lambda m, a: m.unique(a(I)),
    "take": lambda m, a: m.take(a(A), a(I), axis=1) if m is np else m.take(a(A), a(I % 5), axis=1),
    "fancy": lambda m, a: a(A)[a(I % 6)],
    "bool index": lambda m, a: a(A)[a(Bo)],
    "nonzero": lambda m, a: m.nonzero(a(Bo))[0],
    "where1": lambda m, a: m.where(a(Bo))[1],
    "cumprod": lambda m, a: m.cumprod(a(A), axis=1),
    "diff": lambda m, a: m.diff(a(A), axis=0),
    "tril": lambda m, a: m.tril(a(A)),
    "triu": lambda m, a: m.triu(a(A), 1),
    "clip": lambda m, a: m.clip(a(A), -0.5, 0.5),
    "round": lambda m, a: m.round(a(A), 2),
    "pad": lambda m, a: m.pad(a(A), 1),
    "roll": lambda m, a: m.roll(a(A), 2, axis=1),
    "flip": lambda m, a: m.flip(a(A)),
    "stack": lambda m, a: m.stack([a(B), a(B)]),
    "tile": lambda m, a: m.tile(a(B), 2),
    "repeat": lambda m, a: m.repeat(a(B), 2),
    "outer": lambda m, a: m.outer(a(B), a(B)),
    "einsum": lambda m, a: m.einsum("ij,j->i", a(A), a(B)),
    "tensordot": lambda m, a: m.tensordot(a(A), a(B), axes=1),
    "linalg.norm": lambda m, a: m.linalg.norm(a(A)),
    "linalg.inv": lambda m, a: m.linalg.inv(a(A[:5])),
    "linalg.solve": lambda m, a: m.linalg.solve(a(A[:5]), a(B)),
    "linalg.svd": lambda m, a: m.linalg.svd(a(A), compute_uv=False),
    "linalg.qr": lambda m, a: abs(m.linalg.qr(a(A))[1]),
    "linalg.eigh": lambda m, a: m.linalg.eigh(a(A[:5] @ A[:5].T))[0],
    "linalg.det": lambda m, a: m.linalg.det(a(A[:5])),
    "fft": lambda m, a: abs(m.fft.fft(a(B))),
    "rfft": lambda m, a: abs(m.fft.rfft(a(A), axis=0)),
    "median": lambda m, a: m.median(a(A), axis=0),
    "percentile": lambda m, a: m.percentile(a(A), 30, axis=1),
    "std": lambda m, a: m.std(a(A), axis=0),
    "argmax": lambda m, a: m.argmax(a(A), axis=1),
    "searchsorted": lambda m, a: m.searchsorted(m.sort(a(B)), a(B)),
    "histogram": lambda m, a: m.histogram(a(B), bins=3)[0],
    "bincount": lambda m, a: m.bincount(a(I)),
    "isin": lambda m, a: m.isin(a(I), a(I[:3])),
    "setdiff1d": lambda m, a: m.setdiff1d(a(I), a(I[:3])),
    "meshgrid": lambda m, a: m.meshgrid(a(B), a(B))[0],
    "concatenate mixed scalar": lambda m, a: a(B) + 1.5,
    "matmul": lambda m, a: a(A) @ a(B),
    "dot": lambda m, a: m.dot(a(A), a(B)),
    "kron": lambda m, a: m.kron(a(B[:2]), a(B[:3])),
    "trace": lambda m, a: m.trace(a(A)),
    "diag": lambda m, a: m.diag(a(B)),
    "diagonal": lambda m, a: m.diagonal(a(A)),
    "cross": lambda m, a: m.cross(a(B[:3]), a(B[2:5])),
    "interp": lambda m, a: m.interp(a(B), m.sort(a(B)), a(B)),
    "convolve": lambda m, a: m.convolve(a(B), a(B[:3])),
    "polyval": lambda m, a: m.polyval(a(B[:3]), a(B)),
    "nan_to_num": lambda m, a: m.nan_to_num(a(A) / 0.0),
    "nansum": lambda m, a: m.nansum(a(A)),
    "allclose": lambda m, a: m.allclose(a(A), a(A)),
    "array_equal": lambda m, a: m.array_equal(a(A), a(A)),
    "put_along": lambda m, a: m.take_along_axis(a(A), m.argsort(a(A), axis=1), axis=1),
    "average": lambda m, a: m.average(a(A), axis=0, weights=a(A[:, 0] ** 2)),
    "cov": lambda m, a: m.cov(a(A)),
    "corrcoef": lambda m, a: m.corrcoef(a(A)),
    "logsumexp-ish": lambda m, a: m.log(m.sum(m.exp(a(A)), axis=1)),
    "argwhere": lambda m, a: m.argwhere(a(Bo)),
    "count_nonzero": lambda m, a: m.count_nonzero(a(Bo)),
    "vander": lambda m, a: m.vander(a(B[:3])),
    "random-like": lambda m, a: m.zeros_like(a(A)) + 1,
    "full_like": lambda m, a: m.full_like(a(A), 3.0),
    "astype": lambda m, a: a(A).astype(m.float32),
    "ravel_multi": lambda m, a: m.unravel_index(a(I), (2, 3))[0],
}


def _in_place(write, x):
    """A copy of x written in place by `write`."""
    y = x.copy()
    write(y)
    return y


def _setitem(m, a):
    x = a(A).copy()
    x[1:3] = 0.5
    x[a(Bo)] = 2.0
    return x


def _setfancy(m, a):
    x = a(A).copy()
    x[a(I % 6)] = 1.0
    return x


def _iadd(m, a):
    x = a(A).copy()
    x += a(B)
    return x


def _view_sees_write(m, a):
    """A view made before its base is written in place, then written in place from the base (they
    overlap in reverse): NumPy's buffers, seen through both."""
    x = a(A).copy()
    v = m.flip(x)
    x *= 3.0
    v -= x
    return m.stack([x, v])


def _write_through_view(m, a):
    x = a(A).copy()
    v = x.reshape(5, 6)
    v *= v
    m.add(x[::-1], 1.0, out=x[:, ::-1])
    m.negative(x[1], out=x.T[:, 2])
    return x


CASES.update(
    {
        "setitem": _setitem,
        "view sees a write": _view_sees_write,
        "write through a view": _write_through_view,
        "setfancy": _setfancy,
        "iadd": _iadd,
        "quantile": lambda m, a: m.quantile(a(A), 0.3, axis=0),
        "nanmedian": lambda m, a: m.nanmedian(a(A), axis=1),
        "ptp": lambda m, a: m.ptp(a(A), axis=0),
        "argpartition": lambda m, a: m.sort(m.partition(a(B), 2)),
        "searchsorted right": lambda m, a: m.searchsorted(m.sort(a(B)), a(B), side="right"),
        "cumsum bool": lambda m, a: m.cumsum(a(Bo)),
        "any/all": lambda m, a: m.all(a(Bo), axis=0),
        "logical": lambda m, a: m.logical_xor(a(Bo), a(Bo).T[:6, :5] if False else a(Bo)),
        "floor_divide int": lambda m, a: m.floor_divide(a(I), 2),
        "power": lambda m, a: m.power(a(abs(A)), 0.5),
        "arctan2": lambda m, a: m.arctan2(a(A), a(A) + 1),
        "hypot": lambda m, a: m.hypot(a(A), a(A)),
        "expand/squeeze": lambda m, a: m.squeeze(m.expand_dims(a(B), 0)),
        "broadcast_to": lambda m, a: m.broadcast_to(a(B), (3, 5)),
        "swapaxes": lambda m, a: m.swapaxes(a(A), 0, 1),
        "split": lambda m, a: m.split(a(A), 3)[1],
        "array_split": lambda m, a: m.array_split(a(B), 2)[1],
        "hstack": lambda m, a: m.hstack([a(B), a(B)]),
        "column_stack": lambda m, a: m.column_stack([a(B), a(B)]),
        "atleast_2d": lambda m, a: m.atleast_2d(a(B)),
        "rot90": lambda m, a: m.rot90(a(A)),
        "fliplr": lambda m, a: m.fliplr(a(A)),
        "add.reduce": lambda m, a: m.add.reduce(a(A), axis=1),
        "add.at": lambda m, a: _in_place(lambda x: m.add.at(x, a(I % 5), 1.0), a(B)),
        "select": lambda m, a: m.select([a(Bo)], [a(A)], 0.0),
        "piecewise-like where": lambda m, a: m.where(a(A) > 0, a(A), m.zeros_like(a(A))),
        "fft2": lambda m, a: abs(m.fft.fft2(a(A))),
        "irfft": lambda m, a: m.fft.irfft(m.fft.rfft(a(B))),
        "fftshift": lambda m, a: m.fft.fftshift(a(B)),
        "linalg.matrix_rank": lambda m, a: m.linalg.matrix_rank(a(A)),
        "linalg.pinv": lambda m, a: m.linalg.pinv(a(A)),
        "linalg.lstsq": lambda m, a: m.linalg.lstsq(a(A), a(A[:, 0]), rcond=None)[0],
        "linalg.cholesky": lambda m, a: m.linalg.cholesky(a(A.T @ A + np.eye(5))),
        "linalg.slogdet": lambda m, a: m.linalg.slogdet(a(A[:5]))[1],
        "linalg.eigvalsh": lambda m, a: m.linalg.eigvalsh(a(A.T @ A)),
        "linalg.matrix_power": lambda m, a: m.linalg.matrix_power(a(A[:5]), 3),
        "linalg.multi_dot": lambda m, a: m.linalg.multi_dot([a(A), a(A.T), a(A)]),
        "gradient": lambda m, a: m.gradient(a(B)),
        "trapezoid": lambda m, a: m.trapezoid(a(B)),
        "cumulative_sum": lambda m, a: m.cumulative_sum(a(B)),
        "round half": lambda m, a: m.round(a(A) * 10),
        "isclose": lambda m, a: m.isclose(a(A), a(A) + 1e-12),
        "sign/abs int": lambda m, a: m.abs(m.sign(a(I) - 2)),
        "bitwise": lambda m, a: a(I) & 3,
        "mod neg": lambda m, a: m.mod(a(A), -0.7),
        "digitize": lambda m, a: m.digitize(a(B), m.sort(a(B))),
        "unique counts": lambda m, a: m.unique(a(I), return_counts=True)[1],
        "intersect1d": lambda m, a: m.intersect1d(a(I), a(I[:3])),
        "union1d": lambda m, a: m.union1d(a(I), a(I[:3])),
        "flatnonzero": lambda m, a: m.flatnonzero(a(Bo)),
        "compress": lambda m, a: m.compress(a(Bo[0]), a(A), axis=1),
        "extract": lambda m, a: m.extract(a(Bo), a(A)),
        "choose": lambda m, a: m.choose(a(I % 2), [a(I), a(I * 2)]),
        "putmask": lambda m, a: _in_place(lambda x: m.putmask(x, a(Bo), 0.0), a(A)),
        "fill_diagonal": lambda m, a: _in_place(lambda x: m.fill_diagonal(x, 1.0), a(A)),
        "triu_indices": lambda m, a: (
            a(A)[m.triu_indices(5)] if m is np else a(A)[ast.triu_indices(5)]
        ),
        "ix_": lambda m, a: a(A)[m.ix_([0, 2], [1, 3])],
        "nanargmax": lambda m, a: m.nanargmax(a(A), axis=0),
        "nancumsum": lambda m, a: m.nancumsum(a(A), axis=0),
        "histogram2d": lambda m, a: m.histogram2d(a(B), a(B), bins=2)[0],
        "sort complex": lambda m, a: m.sort_complex(a(B)),
        "astype int": lambda m, a: (a(A) * 10).astype(m.int32),
        "matmul batch": lambda m, a: m.matmul(a(A.reshape(2, 3, 5)), a(A[:5].T)),
        "vdot": lambda m, a: m.vdot(a(B), a(B)),
        "inner": lambda m, a: m.inner(a(A), a(B)),
        "apply_along_axis": lambda m, a: m.apply_along_axis(lambda r: r * 2, 1, a(A)),
    }
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_operation_on_a_device_equals_numpy(standin, name):
    with np.errstate(all="ignore"):
        want = np.asarray(CASES[name](np, lambda x: x))
        got = CASES[name](ast, lambda x: ast.asarray(x, device="cuda:1"))
    if isinstance(got, bool):  # allclose, array_equal
        assert got == bool(want)
        return
    assert got.device == "cuda:1"
    got = np.asarray(got.to_device("cpu"))
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, equal_nan=True)


def test_what_cupy_lacks_is_named(standin):
    with pytest.raises(Exception, match="`cummax` on a cuda array is not supported"):
        ast.maximum.accumulate(ast.asarray(B * 1j, device="cuda:1"))


def test_index_arrays_and_values_on_the_host_follow_the_indexed_array(standin):
    x = ast.asarray(A, device="cuda:1")
    rows = ast.asarray([0, 2])  # on the CPU: indices follow x, as cupy and PyTorch take them
    np.testing.assert_array_equal(x[rows].to_device("cpu"), A[[0, 2]])
    y = x.copy()
    y[rows] = ast.zeros(5)
    assert y.device == "cuda:1" and not np.asarray(y.to_device("cpu"))[[0, 2]].any()


def test_arrays_on_two_devices_are_refused_by_a_composition(standin):
    with pytest.raises(ValueError, match="`convolve` got arrays on two devices, cuda:0 and cpu"):
        ast.convolve(ast.asarray(B, device="cuda:0"), ast.asarray(B))
    with pytest.raises(ValueError, match="two devices, cuda:1 and cuda:0"):
        ast.convolve(ast.asarray(B, device="cuda:1"), ast.asarray(B, device="cuda:0"))


@pytest.mark.parametrize("bounds", [(-1, 0), (0.0, 1), (-0.0, 0.0)])
def test_clip_keeps_the_value_on_a_tie_with_a_bound(standin, bounds):
    """clip(-0.0, -1, 0) is -0.0, as NumPy's: the bound goes first into max and min, which give their
    second operand of two equal ones."""
    host = np.array([-0.0, 0.0, 5.0, -3.0])
    want = np.clip(host, *bounds)
    eager = ast.clip(ast.asarray(host, device="cuda"), *bounds)
    jitted = ast.jit(lambda x: ast.clip(x, *bounds))(ast.asarray(host, device="cuda"))
    for got in (eager, jitted):
        got = np.asarray(got.to_device("cpu"))
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_a_result_written_into_an_out_array_of_another_device_raises_and_writes_nothing(standin):
    on_device = ast.asarray(np.zeros(3), device="cuda")
    on_host = ast.zeros(3)
    with pytest.raises(ValueError, match="out= array are on two devices, cpu and cuda:0"):
        ast.add(ast.ones(3), ast.ones(3), out=on_device)
    with pytest.raises(ValueError, match="out= array are on two devices, cuda:0 and cpu"):
        ast.multiply(on_device + 1, 2.0, out=on_host)
    assert not np.asarray(on_device.to_device("cpu")).any() and not np.asarray(on_host).any()
    ast.negative(np.float64(2.0), out=on_device)  # a scalar's result is written anywhere
    np.testing.assert_array_equal(on_device.to_device("cpu"), [-2.0, -2.0, -2.0])


def test_python_conversions_of_device_arrays_read_a_host_copy(standin):
    x = ast.asarray(np.array([1.23456, -2.0]), device="cuda")
    assert f"{x[0]:.3f}" == "1.235" and format(x[1], ">6.1f") == "  -2.0"
    assert (
        float(x[0]) == 1.23456
        and int(x[1]) == -2
        and bool(x[1] < 0)
        and x.tolist() == [1.23456, -2.0]
    )
    with pytest.raises(TypeError, match="unsupported format string"):  # as NumPy's arrays
        format(x, ".2f")


def test_cupy_arrays_are_operands_on_their_device(standin):
    """arraystack computes with a cupy array where it lives (no deferral to cupy through NumPy's
    protocols): results are arraystack arrays on that device; a NumPy array among them is refused.
    cupy's own operators take an arraystack array on the device as any `__cuda_array_interface__`
    operand (cupy defers only to operands whose __array_ufunc__ is None): `c * x` is cupy's array."""
    c = standin.asarray(B)
    x = ast.asarray(B, device="cuda")
    product = c * x
    assert isinstance(product, standin.ndarray)
    np.testing.assert_allclose(product.get(), B * B, rtol=1e-15)
    with pytest.raises(TypeError, match="Unsupported type"):
        c * ast.asarray(B)  # an arraystack array on the host
    for got, want in [
        (x + c, B + B),
        (x * c, B * B),
        (ast.multiply(c, x), B * B),
        (ast.sin(c), np.sin(B)),
        (ast.sum(c), np.sum(B)),
        (ast.concatenate([x, c]), np.concatenate([B, B])),
    ]:
        assert isinstance(got, ast.ndarray) and got.device == "cuda:0"
        np.testing.assert_allclose(got.to_device("cpu"), want, rtol=1e-15)
    with pytest.raises(ValueError, match="two devices, cuda:0 and cpu"):
        ast.add(c, B)


def test_python_functions_over_device_arrays_read_them_back(standin):
    """vectorize and frompyfunc call Python on host values: a device's array is read back, and
    vectorize's results go to its device."""
    x = ast.asarray(B, device="cuda")
    doubled = ast.vectorize(lambda v: v * 2)(x)
    assert doubled.device == "cuda:0"
    np.testing.assert_array_equal(doubled.to_device("cpu"), B * 2)
    objects = ast.frompyfunc(lambda v: v * 2, 1, 1)(x)  # NumPy's object array, on the host
    np.testing.assert_array_equal(np.asarray(objects, dtype=float), B * 2)


def test_round_of_a_device_scalar_is_that_of_numpys_scalar(standin):
    """A 0-d array on a device stands where NumPy holds a scalar (x[0], x.mean()): round() gives
    NumPy's int, round(, n) an array of the rounded value on the device; bools and complex values
    refuse, as NumPy's scalars do, and arrays of more dimensions have no round()."""
    host = np.array([2.567, -1.25, 0.5], np.float32)
    x = ast.asarray(host, device="cuda")
    assert round(x[0]) == round(host[0]) == 3 and round(x[2]) == round(host[2]) == 0
    pairs = [(round(x.mean(), 2), round(host.mean(), 2)), (round(x[1], 1), round(host[1], 1))]
    for got, want in pairs:
        assert got.device == "cuda:0" and got.dtype == want.dtype
        assert got.to_device("cpu").tobytes() == np.asarray(want).tobytes()
    assert math.trunc(ast.asarray(np.array([-2.5]), device="cuda")[0]) == -2
    for value, name in [(x[0] > 0, "numpy.bool"), (x[0] + 1j, "numpy.complex64")]:
        with pytest.raises(TypeError, match=f"type {name} doesn't define __round__ method"):
            round(value)
    with pytest.raises(TypeError, match="type numpy.float32 doesn't define __trunc__ method"):
        math.trunc(x[0])
    with pytest.raises(TypeError, match="type ndarray doesn't define __round__ method"):
        round(x)


def test_methods_that_give_host_data_read_a_device_array_back(standin, tmp_path):
    """tolist, tobytes, tofile, dumps: their results are host memory, so a device array is read back
    (an explicit copy); numpy.asarray of it still raises, as cupy's does."""
    host = np.arange(6.0).reshape(2, 3)
    x = ast.asarray(host, device="cuda")
    assert x.tolist() == host.tolist() and x.T.tobytes() == host.T.tobytes()
    assert x.tobytes(order="F") == host.tobytes(order="F")
    x.tofile(tmp_path / "x.bin")
    np.testing.assert_array_equal(np.fromfile(tmp_path / "x.bin").reshape(2, 3), host)
    back = pickle.loads(x.dumps())
    assert back.device == "cuda:0"
    np.testing.assert_array_equal(back.to_device("cpu"), host)
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array is not allowed"):
        np.asarray(x)


def test_arraystack_testing_reads_device_arrays_back(standin):
    """arraystack.testing compares arrays on a device (arraystack's and cupy's own) as cupy.testing
    does: read back, then NumPy's assertion, tolerances and messages."""
    host = np.array([1.0, 2.0, np.nan])
    x, c = ast.asarray(host, device="cuda"), standin.asarray(host)
    ast.testing.assert_allclose(x, host)
    ast.testing.assert_array_equal(c, x)
    ast.testing.assert_equal({"a": [x]}, {"a": [host]})
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        ast.testing.assert_allclose(x, host + 1)


def test_a_device_array_has_no_host_array_interface(standin):
    x = ast.asarray(np.arange(3.0), device="cuda")
    assert not hasattr(x, "__array_interface__") and hasattr(x, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="only an array in host memory has .data"):
        _ = x.data
