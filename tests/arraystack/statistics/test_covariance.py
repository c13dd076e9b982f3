"""NumPy parity of cov and corrcoef (_covariance), with gradients through the composition."""

# ruff: noqa: B023  (parity calls each lambda at once, inside its loop iteration)
from __future__ import annotations

import warnings

import numpy
import pytest

import arraystack

rng = numpy.random.default_rng(0)
X = rng.standard_normal((3, 6))
FW = numpy.array([1, 2, 0, 3, 1, 1])
AW = rng.random(6)
DATA = {
    "f64": X,
    "f32": X.astype("float32"),
    "i64": (X * 3).astype(int),
    "1d": X[0],
    "c128": X + 1j * X[::-1],
    "one_sample": X[:, :1],
}
OPTIONS = [
    {},
    {"rowvar": False},
    {"bias": True},
    {"ddof": 2},
    {"fweights": FW},
    {"aweights": AW},
    {"fweights": FW, "aweights": AW, "ddof": 1},
    {"aweights": AW, "ddof": 0},
    {"dtype": numpy.float32},
]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("name", DATA)
def test_cov_corrcoef(parity, name):
    x = DATA[name]
    for kw in OPTIONS:
        if x.shape[-1] != 6 and ("fweights" in kw or "aweights" in kw):
            continue
        parity(lambda xp, v: xp.cov(v, **kw), x)
    parity(lambda xp, v, w: xp.cov(v, w), x, rng.standard_normal(x.shape[-1]))
    parity(lambda xp, v: xp.corrcoef(v), x)
    parity(lambda xp, v: xp.corrcoef(v, rowvar=False), x)
    parity(lambda xp, v: xp.corrcoef(v, v[..., ::-1]), x)


def test_cov_traced_weights(parity):
    parity(lambda xp, v, f, a: xp.cov(v, fweights=f, aweights=a), X, FW.astype(float), AW)


def test_errors(parity):
    parity(lambda xp, v: xp.cov(v, fweights=[1.5] * 6), X)
    parity(lambda xp, v: xp.cov(v, aweights=[-1.0] * 6), X)
    parity(lambda xp, v: xp.cov(v, fweights=[-1] * 6), X)
    parity(lambda xp, v: xp.cov(v, ddof=1.5), X)
    parity(lambda xp, v: xp.cov(v, fweights=[1] * 5), X)
    parity(lambda xp, v: xp.cov(v, aweights=[[1] * 6]), X)
    parity(lambda xp, v: xp.cov(v[None]), X)
    parity(lambda xp, v: xp.cov(v), numpy.zeros((0, 3)))
    parity(lambda xp, v: xp.cov(v), numpy.ones(1))


def test_grads(check_grads):
    check_grads(lambda v: arraystack.cov(v), [X])
    check_grads(lambda v, a: arraystack.cov(v, aweights=a, ddof=0), [X, AW])
    check_grads(lambda v: arraystack.corrcoef(v), [X])
