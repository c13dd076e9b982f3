"""Eager operations of arrays on a CUDA device (the stand-in for cupy) equal NumPy's, with their results
on that device: compositions whose constants (an iota, a mask, gather indices) are made on the host, and
functions that read their operands' values back (index checks, data-dependent shapes). NumPy is the oracle;
every case is written once against the module `m` and an array maker `a`."""

from __future__ import annotations

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


def test_arrays_on_two_devices_are_refused_by_a_composition(standin):
    with pytest.raises(ValueError, match="`convolve` got arrays on two devices, cuda:0 and cpu"):
        ast.convolve(ast.asarray(B, device="cuda:0"), ast.asarray(B))
    with pytest.raises(ValueError, match="two devices, cuda:1 and cuda:0"):
        ast.convolve(ast.asarray(B, device="cuda:1"), ast.asarray(B, device="cuda:0"))
