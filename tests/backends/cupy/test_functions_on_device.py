"""NumPy functions whose arguments are all on a device (the stand-in's cuda:0): weights, coordinates,
quantiles, positions, masks and bins on the device with the data, a list beside them (host data, which
follows the device array), and the results, on the device, equal NumPy's. Each reads back only what
NumPy must know on the host (a shape from positions or from the values, a value check; roots and
polynomial division run NumPy's algorithm on the copy and put the result on the device), as an
explicit copy."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

rng = numpy.random.default_rng(0)
X = rng.normal(size=(6, 4))
w = numpy.array([1.0, 2, 1, 3, 1, 1])
fw = numpy.array([1, 2, 1, 3, 1, 1])


def _written(write, a):
    """`a` after `write(a)`, a function writing it in place."""
    write(a)
    return a


CASES = [
    ("cov fweights", lambda m, D: m.cov(D(X.T), fweights=D(fw))),
    ("cov aweights", lambda m, D: m.cov(D(X.T), aweights=D(w))),
    ("quantile device q", lambda m, D: m.quantile(D(X), D(numpy.array([0.2, 0.8])), axis=0)),
    (
        "quantile weights",
        lambda m, D: m.quantile(D(X[:, 0]), [0.5], weights=D(w), method="inverted_cdf"),
    ),
    ("percentile list", lambda m, D: m.percentile(D(X), [10, 90], axis=1)),
    ("gradient coords", lambda m, D: m.gradient(D(X[:, 0]), D(numpy.cumsum(w)))),
    ("gradient coords uniform", lambda m, D: m.gradient(D(X[:, 0]), D(numpy.arange(6.0)))),
    ("partition device kth", lambda m, D: m.partition(D(X[:, 0]), D(numpy.array([1, 3])))),
    (
        "ravel_multi_index raise",
        lambda m, D: m.ravel_multi_index((D(numpy.array([1, 2])), D(numpy.array([0, 3]))), (3, 4)),
    ),
    (
        "place empty",
        lambda m, D: _written(lambda a: m.place(a, D(numpy.zeros(6, bool)), []), D(X[:, 0].copy())),
    ),
    ("place", lambda m, D: _written(lambda a: m.place(a, a > 0, [9.0]), D(X[:, 0].copy()))),
    ("median", lambda m, D: m.median(D(X), axis=0)),
    ("histogram", lambda m, D: m.histogram(D(X[:, 0]), bins=3)[0]),
    (
        "histogram bins arr",
        lambda m, D: m.histogram(D(X[:, 0]), bins=D(numpy.array([-3.0, 0, 3])))[0],
    ),
    ("digitize", lambda m, D: m.digitize(D(X[:, 0]), D(numpy.array([-1.0, 0, 1])))),
    ("searchsorted", lambda m, D: m.searchsorted(D(numpy.sort(X[:, 0])), D(numpy.array([0.0])))),
    (
        "interp",
        lambda m, D: m.interp(D(X[:, 0]), D(numpy.linspace(-3, 3, 7)), D(numpy.arange(7.0))),
    ),
    ("unique counts", lambda m, D: m.unique(D(numpy.array([1, 2, 2, 3])), return_counts=True)[1]),
    (
        "bincount w",
        lambda m, D: m.bincount(D(numpy.array([0, 1, 1])), weights=D(numpy.array([0.5, 1, 2]))),
    ),
    ("corrcoef", lambda m, D: m.corrcoef(D(X.T))),
    ("average w", lambda m, D: m.average(D(X), axis=0, weights=D(w))),
    ("take_along", lambda m, D: m.take_along_axis(D(X), D(numpy.argsort(X, 0)), 0)),
    (
        "put_along",
        lambda m, D: _written(
            lambda a: m.put_along_axis(a, D(numpy.zeros((1, 4), int)), 0.0, 0), D(X.copy())
        ),
    ),
    (
        "choose",
        lambda m, D: m.choose(D(numpy.array([0, 1, 0])), [D(numpy.arange(3.0)), D(numpy.ones(3))]),
    ),
    (
        "compress",
        lambda m, D: m.compress(
            D(numpy.array([True, False, True, True, False, True])), D(X), axis=0
        ),
    ),
    ("extract", lambda m, D: m.extract(D(X) > 0, D(X))),
    ("setdiff1d", lambda m, D: m.setdiff1d(D(numpy.array([1, 2, 3])), D(numpy.array([2])))),
    ("isin", lambda m, D: m.isin(D(numpy.array([1, 5])), D(numpy.array([5, 6])))),
    ("linalg.lstsq", lambda m, D: m.linalg.lstsq(D(X), D(w), rcond=None)[0]),
    ("polyfit", lambda m, D: m.polyfit(D(numpy.arange(6.0)), D(w), 2)),
    ("convolve", lambda m, D: m.convolve(D(w), D(numpy.array([1.0, 1.0])))),
    ("pad", lambda m, D: m.pad(D(w), (1, 2), mode="reflect")),
    ("delete", lambda m, D: m.delete(D(w), D(numpy.array([0, 2])))),
    ("insert", lambda m, D: m.insert(D(w), 1, D(numpy.array([7.0])))),
    ("roll", lambda m, D: m.roll(D(X), 2, axis=0)),
    ("triu", lambda m, D: m.triu(D(X), 1)),
    ("nan_to_num", lambda m, D: m.nan_to_num(D(numpy.array([numpy.nan, numpy.inf])))),
    ("around", lambda m, D: m.around(D(X), 2)),
    ("clip arrays", lambda m, D: m.clip(D(X), D(numpy.full(4, -0.5)), 0.5)),
    ("einsum", lambda m, D: m.einsum("ij,j->i", D(X), D(numpy.ones(4)))),
    ("fft", lambda m, D: m.fft.rfft(D(w))),
    ("argwhere", lambda m, D: m.argwhere(D(X) > 1)),
    ("flatnonzero", lambda m, D: m.flatnonzero(D(w) > 1)),
    ("trace", lambda m, D: m.trace(D(X[:4]))),
    ("diagonal", lambda m, D: m.diagonal(D(X))),
    ("cross", lambda m, D: m.cross(D(X[:, :3]), D(X[::-1, :3]))),
    ("linspace device arrays", lambda m, D: m.linspace(D(numpy.zeros(2)), D(numpy.ones(2)), 3)),
    ("correlate", lambda m, D: m.correlate(D(w), D(X[:, 0]), "full")),
    ("packbits", lambda m, D: m.packbits(D(X[:, 0] > 0))),
    ("unpackbits", lambda m, D: m.unpackbits(D(numpy.array([5, 255], numpy.uint8)))),
    ("poly", lambda m, D: m.poly(D(numpy.array([1.0, 2.0, -1.0])))),
    ("polyder", lambda m, D: m.polyder(D(w), 2)),
    ("polyint", lambda m, D: m.polyint(D(w), 2, k=[1.0, 2.0])),
    ("polydiv", lambda m, D: m.polydiv(D(w), D(numpy.array([1.0, 2.0])))),
    ("roots", lambda m, D: m.sort_complex(m.roots(D(numpy.array([1.0, -6.0, 11.0, -6.0]))))),
    ("resize to an array of sizes", lambda m, D: m.resize(D(w), D(numpy.array([2, 4])))),
    ("roll by an array", lambda m, D: m.roll(D(X), D(numpy.array([1, -1])), axis=(0, 1))),
    ("setxor1d", lambda m, D: m.setxor1d(D(numpy.array([1, 2, 3])), D(numpy.array([2, 5])))),
    ("eig", lambda m, D: m.linalg.eig(D(numpy.array([[2.0, 1.0], [1.0, 3.0]])))[0]),
    ("eigvals complex", lambda m, D: m.linalg.eigvals(D(numpy.array([[0.0, -1.0], [1.0, 0.0]])))),
    ("cond", lambda m, D: m.linalg.cond(D(X[:4]))),
    ("iscomplex", lambda m, D: m.iscomplex(D(w))),
    ("lexsort", lambda m, D: m.lexsort(D(numpy.array([[1, 1, 0, 2], [3, 2, 1, 0]])))),
    ("diag_indices_from", lambda m, D: m.diag_indices_from(D(X[:4]))),
    ("tril_indices_from", lambda m, D: m.tril_indices_from(D(X[:4]), -1)),
    ("histogram_bin_edges", lambda m, D: m.histogram_bin_edges(D(X[:, 0]), bins=4)),
    ("trim_zeros", lambda m, D: m.trim_zeros(D(numpy.array([0.0, 0, 1, 2, 0, 3, 0])))),
    ("trim_zeros 2-d", lambda m, D: m.trim_zeros(D(numpy.pad(X[:2, :2], 1)), axis=None)),
    # Python scalars and lists beside device arrays: the composition's constants, made on the device
    ("append a scalar", lambda m, D: m.append(D(w), 2)),
    ("ediff1d to_end", lambda m, D: m.ediff1d(D(w), to_end=2.0)),
    ("intersect1d with a scalar", lambda m, D: m.intersect1d(D(fw), 2)),
    ("isin a list", lambda m, D: m.isin(D(fw), [1, 3])),
    ("outer with a scalar", lambda m, D: m.outer(D(w), 2.0)),
    ("polyadd a scalar", lambda m, D: m.polyadd(D(w), 2.0)),
    ("polymul by a scalar", lambda m, D: m.polymul(D(w), 2.0)),
    ("polysub a list", lambda m, D: m.polysub(D(w), [1.0, 2.0])),
    ("setdiff1d a scalar", lambda m, D: m.setdiff1d(D(fw), 1)),
    ("union1d a list", lambda m, D: m.union1d(D(fw), [7, 8])),
    ("digitize by a list", lambda m, D: m.digitize(D(X[:, 0]), [-0.5, 0.5])),
    ("kron with a list", lambda m, D: m.kron(D(w), [1.0, -1.0])),
    ("trapezoid over a list", lambda m, D: m.trapezoid(D(w), [0.0, 1, 3, 4, 6, 7])),
    ("cross with a list", lambda m, D: m.cross(D(X[:, :3]), [0.0, 0.0, 1.0])),
    ("vdot with a list", lambda m, D: m.vdot(D(w), [1.0, 0, 0, 0, 0, 2])),
    ("tensordot with a list", lambda m, D: m.tensordot(D(X[:2, :2]), [[1.0, 0], [0, 2]])),
    ("compress by a list", lambda m, D: m.compress([True, False, True], D(w))),
    ("linalg.outer with a list", lambda m, D: m.linalg.outer(D(w), [1.0, 2.0])),
    ("broadcast_arrays with a scalar", lambda m, D: m.broadcast_arrays(D(w), 1.0)),
    ("meshgrid with a list", lambda m, D: m.meshgrid(D(w[:3]), [1.0, 2.0])),
    ("ix_ with a list", lambda m, D: m.ix_(D(fw[:2]), [0, 1])),
    ("atleast_2d with a scalar", lambda m, D: m.atleast_2d(D(w), 1.0)),
    ("insert a scalar", lambda m, D: m.insert(D(w), 1, 2.0)),
    ("nanmean into out", lambda m, D: m.nanmean(D(X), axis=0, out=D(numpy.zeros(4)))),
    ("mean of an empty slice", lambda m, D: m.mean(D(X[:0]), axis=0)),
]


@pytest.mark.parametrize("name", [name for name, _ in CASES])
def test_functions_of_device_arrays_give_numpys_results_on_the_device(standin, name):
    f = dict(CASES)[name]
    want = f(numpy, lambda a: a)
    got = f(ast, lambda a: ast.asarray(a, device="cuda"))
    wants, gots = (want, got) if isinstance(want, (tuple, list)) else ((want,), (got,))
    assert len(gots) == len(wants)
    for want, got in zip(wants, gots):
        assert got.device == "cuda:0"
        got = numpy.asarray(got.to_device("cpu"))
        assert got.shape == numpy.shape(want) and got.dtype == numpy.asarray(want).dtype
        numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


def test_eig_on_a_cupy_without_it_names_what_is_missing(standin, monkeypatch):
    """cupy.linalg.eig came with cupy 14: on an older cupy, eig of a device array is refused with the
    reason (never a silent copy to the host)."""
    from arraystack.backends.cupy import arrays

    monkeypatch.delattr(arrays.cupy_module().linalg, "eig")
    x = ast.asarray(numpy.eye(2), device="cuda")
    with pytest.raises(arrays.UnsupportedOnGPU, match=r"`eig` on a cuda array .*no linalg.eig"):
        ast.linalg.eig(x)


def test_masked_arrays_of_device_arrays_compute_there_and_print(standin):
    x = numpy.arange(6.0)
    m = ast.ma.masked_where(ast.asarray(x, device="cuda") > 3, ast.asarray(x, device="cuda"))
    want = numpy.ma.masked_where(x > 3, x)
    assert repr(m) == repr(want) and str(m.reshape(2, 3)) == str(want.reshape(2, 3))
    total = m.reshape(2, 3).sum(0)
    assert repr(total) == repr(want.reshape(2, 3).sum(0)) and total.filled(0).device == "cuda:0"


def test_poly1d_of_device_coefficients_stays_on_the_device(standin):
    """poly1d trims its leading zeros on the host and keeps its coefficients on their device; its
    operators take scalars and sequences beside it, and it prints as NumPy's."""
    c = numpy.array([0.0, 1.0, 2.0, 3.0])
    p, q = ast.poly1d(ast.asarray(c, device="cuda")), numpy.poly1d(c)
    assert repr(p) == repr(q) and str(p) == str(q)
    for f in (
        lambda r: r.deriv(),
        lambda r: r.integ(),
        lambda r: r * r,
        lambda r: r + 1,
        lambda r: 2 - r,
        lambda r: r - [1.0, 1.0],
        lambda r: r**2,
    ):
        got, want = f(p).coeffs, f(q).coeffs
        assert got.device == "cuda:0"
        numpy.testing.assert_allclose(numpy.asarray(got.to_device("cpu")), want, rtol=1e-12)
    assert p(ast.asarray(numpy.array([2.0]), device="cuda")).device == "cuda:0"


def test_in_place_random_permutations_of_device_arrays_follow_numpys_streams(standin):
    """shuffle (Generator, RandomState, the global functions) and permuted(out=) of a device array
    permute it in place with NumPy's draws for the same seed; views of it see the writes."""
    base = numpy.arange(12.0).reshape(4, 3)
    for shuffle, reference in [
        (
            lambda a: ast.random.default_rng(3).shuffle(a),
            lambda a: numpy.random.default_rng(3).shuffle(a),
        ),
        (
            lambda a: ast.random.default_rng(4).shuffle(a, axis=1),
            lambda a: numpy.random.default_rng(4).shuffle(a, axis=1),
        ),
        (
            lambda a: ast.random.RandomState(2).shuffle(a),
            lambda a: numpy.random.RandomState(2).shuffle(a),
        ),
        (
            lambda a: ast.random.default_rng(7).permuted(a, axis=1, out=a),
            lambda a: numpy.random.default_rng(7).permuted(a, axis=1, out=a),
        ),
    ]:
        x, want = ast.asarray(base, device="cuda"), base.copy()
        view = x[1:]
        shuffle(x)
        reference(want)
        assert x.device == "cuda:0"
        numpy.testing.assert_array_equal(numpy.asarray(x.to_device("cpu")), want)
        numpy.testing.assert_array_equal(numpy.asarray(view.to_device("cpu")), want[1:])
    ast.random.seed(5)
    x = ast.asarray(numpy.arange(6.0), device="cuda")
    ast.random.shuffle(x)
    numpy.random.seed(5)
    want = numpy.arange(6.0)
    numpy.random.shuffle(want)
    numpy.testing.assert_array_equal(numpy.asarray(x.to_device("cpu")), want)
