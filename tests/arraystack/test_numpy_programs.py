"""Small NumPy programs as people write them (k-means, least squares, the Game of Life, a Mandelbrot
set, moving averages, one-hot labels, histogram equalization, ...), each written once against `xp` and
run with NumPy and with arraystack: the results' reprs must be the same, scalar results and dtypes
included."""

from __future__ import annotations

import io

import numpy
import pytest

import arraystack


def kmeans(np):
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(0, 1, (50, 2)), rng.normal(5, 1, (50, 2))])
    C = X[rng.choice(len(X), 2, replace=False)]
    for _ in range(10):
        labels = ((X[:, None, :] - C[None, :, :]) ** 2).sum(-1).argmin(1)
        C = np.array([X[labels == k].mean(0) for k in range(2)])
    return np.round(C, 6), np.bincount(labels)


def least_squares(np):
    rng = np.random.default_rng(1)
    A = rng.normal(size=(20, 3))
    b = A @ np.array([1.0, -2.0, 0.5]) + 0.01 * rng.normal(size=20)
    x, _, rank, _ = np.linalg.lstsq(A, b, rcond=None)
    return np.round(x, 6), rank


def game_of_life(np):
    g = np.zeros((8, 8), dtype=int)
    g[1, 2] = g[2, 3] = g[3, 1] = g[3, 2] = g[3, 3] = 1
    for _ in range(4):
        shifts = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0)]
        n = sum(np.roll(np.roll(g, i, 0), j, 1) for i, j in shifts)
        g = ((n == 3) | ((g == 1) & (n == 2))).astype(int)
    return g.sum(), np.argwhere(g)[:3]


def mandelbrot(np):
    y, x = np.mgrid[-1.5:1.5:30j, -2:1:30j]
    c = x + 1j * y
    z = np.zeros_like(c)
    steps = np.zeros(c.shape, int)
    for _ in range(20):
        inside = np.abs(z) <= 2
        z[inside] = z[inside] ** 2 + c[inside]
        steps[inside] += 1
    return steps.sum(), steps[15, :5]


def moving_average(np):
    a = np.arange(20.0) ** 1.5
    c = np.cumsum(np.insert(a, 0, 0))
    return np.round((c[5:] - c[:-5]) / 5, 8)[:4]


def distances(np):
    P = np.arange(12.0).reshape(4, 3)
    return np.sqrt(((P[:, None] - P[None]) ** 2).sum(-1)).round(6)


def one_hot_and_ranks(np):
    y = np.array([2, 0, 1, 2])
    a = np.array([3.0, 1.0, 4.0, 1.5])
    unique = np.unique([3, 1, 3, 2], return_inverse=True, return_counts=True)
    return np.eye(3)[y], np.eye(3, dtype=bool)[y].sum(0), a.argsort().argsort(), unique


def scatter_and_windows(np):
    a = np.zeros(5)
    np.add.at(a, [0, 1, 1, 4], 1)
    return a, np.lib.stride_tricks.sliding_window_view(np.arange(10), 3).sum(1)


def log_sum_exp(np):
    x = np.array([[1000.0, 1001.0], [-5.0, 3.0]])
    m = x.max(1, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(1, keepdims=True))).ravel()


def histogram_equalization(np):
    image = (np.arange(64).reshape(8, 8) * 3 % 256).astype(np.uint8)
    counts, edges = np.histogram(image, 16, (0, 256))
    cdf = counts.cumsum()
    return np.interp(image.ravel()[:5], edges[:-1], 255 * cdf / cdf[-1]).round(4), np.median(image)


def files_and_printing(np):
    f = io.BytesIO()
    np.savez(f, a=np.arange(3), b=np.eye(2))
    f.seek(0)
    loaded = np.load(f)
    with np.printoptions(suppress=True, precision=3):
        text = repr(np.array([1e-8, 1.23456, 1e5]))
    return loaded["a"], loaded["b"].sum(), text


def fits_and_nans(np):
    x = np.linspace(0, 1, 10)
    a = np.array([1.0, np.nan, 3.0])
    fit = np.polyfit(x, 3 * x**2 + 1, 2).round(8)
    return fit, np.nanmean(a), np.where(np.isnan(a), 0, a), np.nan_to_num(a, nan=-1)


def contractions_and_sets(np):
    A = np.arange(6.0).reshape(2, 3)
    x, y = np.meshgrid(np.arange(3), np.arange(2), indexing="ij")
    return (
        np.einsum("ij,kj->ik", A, A),
        np.einsum("ii", np.eye(3)),
        np.tensordot(A, A, axes=([1], [1])),
        np.vectorize(lambda a, b: a * 10 + b)(x, y),
        np.intersect1d([1, 2, 3], [2, 3, 4]),
        np.setdiff1d([1, 2, 3], [2]),
        np.isin([1, 5], [5, 6]),
    )


def dates_and_records(np):
    d = np.arange("2024-01", "2024-04", dtype="datetime64[M]")
    r = np.array([(1, 2.0), (3, 4.0)], dtype=[("i", "i4"), ("f", "f8")])
    return d, np.diff(d), (d + np.timedelta64(1, "M"))[-1], r["f"].sum(), r[r["i"] > 1]["f"]


def statistics(np):
    rng = np.random.default_rng(2)
    a = rng.normal(size=100)
    q = np.percentile(a, [10, 50, 90]).round(6)
    return (
        q,
        round(np.std(a), 4),
        np.quantile(a, 0.25).round(6),
        np.corrcoef(a[:50], a[50:]).round(6),
    )


PROGRAMS = [
    kmeans, least_squares, game_of_life, mandelbrot, moving_average, distances, one_hot_and_ranks,
    scatter_and_windows, log_sum_exp, histogram_equalization, files_and_printing, fits_and_nans,
    contractions_and_sets, dates_and_records, statistics,
]  # fmt: skip


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_numpy_programs_give_numpys_results(program):
    assert repr(program(arraystack)) == repr(program(numpy))
