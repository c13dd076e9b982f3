"""NumPy parity of _indexing/index_tricks.py: diag/tril/triu indices, ravel_multi_index,
unravel_index, ix_, mgrid, ogrid, r_, c_, ndindex, ndenumerate, nditer."""

from __future__ import annotations

import numpy
import pytest

import arraystack


def test_triangle_and_diagonal_indices(parity):
    for n, k, m in ((4, 0, None), (3, 1, 5), (5, -2, 2), (0, 0, None)):
        parity(lambda xp, n=n, k=k, m=m: xp.tril_indices(n, k, m))
        parity(lambda xp, n=n, k=k, m=m: xp.triu_indices(n, k, m))
    x = numpy.zeros((3, 5))
    parity(lambda xp, x: xp.tril_indices_from(x, 1), x)
    parity(lambda xp, x: xp.triu_indices_from(x, -1), x)
    parity(lambda xp, x: xp.triu_indices_from(x[0]), x)
    parity(lambda xp: xp.diag_indices(4))
    parity(lambda xp: xp.diag_indices(2, 3))
    parity(lambda xp, x: xp.diag_indices_from(x), numpy.zeros((3, 3, 3)))
    parity(lambda xp, x: xp.diag_indices_from(x), x)
    parity(lambda xp, x: xp.diag_indices_from(x[0]), x)

    def fill(xp, x):
        x[xp.diag_indices_from(x)] = 7.0
        return x

    parity(fill, numpy.zeros((4, 4)))


@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_unravel(parity, order):
    i, j = numpy.array([[0, 2], [1, 2]]), numpy.array([[3, 0], [1, 2]])
    parity(lambda xp, i, j: xp.ravel_multi_index((i, j), (3, 4), order=order), i, j)
    parity(
        lambda xp, i, j: xp.ravel_multi_index((i, j + 3), (3, 4), mode="wrap", order=order), i, j
    )
    parity(
        lambda xp, i, j: xp.ravel_multi_index((i - 1, j * 3), (3, 4), mode=("clip", "wrap")), i, j
    )
    parity(lambda xp, i, j: xp.ravel_multi_index((i, j + 3), (3, 4)), i, j, traced=False)
    parity(lambda xp, i: xp.ravel_multi_index((i,), (3, 4)), i)
    parity(lambda xp, i: xp.ravel_multi_index((i * 1.0, i), (3, 4)), i)
    flat = numpy.array([[0, 11], [5, 7]])
    parity(lambda xp, f: xp.unravel_index(f, (3, 4), order=order), flat)
    parity(lambda xp, f: xp.unravel_index(f, (2, 3, 2), order=order), flat)
    parity(lambda xp, f: xp.unravel_index(f[0, 1], 12), flat)
    parity(lambda xp, f: xp.unravel_index(f + 1, (3, 4)), flat, traced=False)
    parity(lambda xp, f: xp.unravel_index(f * 1.0, (3, 4)), flat)
    parity(lambda xp, f: xp.unravel_index(f, (3, 4), order="K"), flat)


def test_ix(parity):
    x = numpy.arange(20).reshape(4, 5)
    parity(lambda xp, x: x[xp.ix_([0, 3], [1, 2, 4])], x)
    parity(lambda xp, x: xp.ix_(numpy.array([True, False, True]), []), x, traced=False)
    parity(lambda xp, x: xp.ix_([[1]]), x)
    parity(lambda xp: xp.ix_())


def test_grids(parity):
    parity(lambda xp: xp.mgrid[0:3, 1:5:2])
    parity(lambda xp: xp.mgrid[0:1:5j])
    parity(lambda xp: xp.mgrid[-1:1:3j, 0:2])
    parity(lambda xp: xp.ogrid[0:3, 0:1:4j])
    parity(lambda xp: xp.ogrid[2:6])


def test_r_c(parity):
    x = numpy.arange(6.0).reshape(2, 3)
    parity(lambda xp, x: xp.r_[1:4, 0, [7, 8], x[0]], x)
    parity(lambda xp, x: xp.r_[-1:1:5j, x[1]], x)
    parity(lambda xp, x: xp.r_[x, x], x)
    parity(lambda xp, x: xp.r_["1", x, x], x)
    parity(lambda xp, x: xp.r_["0,2", [1, 2, 3], x[0]], x)
    parity(lambda xp, x: xp.r_["0,2,0", [1, 2, 3], [4, 5, 6]], x)
    parity(lambda xp, x: xp.r_["1,3,1", x, x], x)
    parity(lambda xp, x: xp.r_[numpy.int8(3), numpy.array([1], numpy.int8)], x)
    parity(lambda xp, x: xp.r_[x[0], "0"], x)
    parity(lambda xp, x: xp.r_["a,b", x[0]], x)
    parity(lambda xp, x: xp.c_[x[0], x[1]], x)
    parity(lambda xp, x: xp.c_[x, x], x)
    parity(lambda xp, x: xp.c_[x[0], 1:4], x)
    with pytest.raises(TypeError, match="matrix"):
        arraystack.r_["r", [1, 2]]


def test_ndindex_ndenumerate():
    assert list(arraystack.ndindex(2, 3)) == list(numpy.ndindex(2, 3))
    assert list(arraystack.ndindex((2, 1, 2))) == list(numpy.ndindex((2, 1, 2)))
    assert list(arraystack.ndindex()) == list(numpy.ndindex())
    x = numpy.arange(6).reshape(3, 2)
    got = [(i, int(v)) for i, v in arraystack.ndenumerate(arraystack.asarray(x))]
    assert got == [(i, int(v)) for i, v in numpy.ndenumerate(x)]


def _walk(xp, ops, **kw):
    it = xp.nditer(ops, **kw)
    out = []
    with it:
        for v in it:
            item = tuple(int(u) for u in v) if isinstance(v, tuple) else int(v)
            if "multi_index" in kw.get("flags", ()):
                item = (item, it.multi_index)
            if {"c_index", "f_index"} & set(kw.get("flags", ())):
                item = (item, it.index)
            out.append(item)
    return out


def test_nditer():
    x = numpy.arange(6).reshape(2, 3)
    for ops, kw in (
        (x, {}),
        (x.T, {}),
        (numpy.asfortranarray(x), {}),
        (x.T, {"order": "C"}),
        (x, {"order": "F"}),
        ([x, x[0]], {}),
        (x, {"flags": ["multi_index"]}),
        (x, {"flags": ["f_index"]}),
        (x, {"flags": ["c_index"], "order": "F"}),
        ([x, x.astype(numpy.int8)], {"flags": ["common_dtype", "buffered"]}),
        (x[:0], {"flags": ["zerosize_ok"]}),
        (numpy.array(5), {}),
        (x[::-1], {"flags": ["multi_index"]}),  # order 'K' walks memory: a reversed axis backwards
        (numpy.arange(24).reshape(2, 3, 4).transpose(1, 0, 2), {"flags": ["multi_index"]}),
        (numpy.arange(24).reshape(2, 3, 4).transpose(1, 0, 2)[::-1, :, ::2], {}),
        ([x.T, x.T[::-1]], {"flags": ["multi_index"]}),
    ):
        wrapped = (
            [arraystack.asarray(o) for o in ops]
            if isinstance(ops, list)
            else arraystack.asarray(ops)
        )
        assert _walk(arraystack, wrapped, **kw) == _walk(numpy, ops, **kw), (ops, kw)
    it = arraystack.nditer(arraystack.asarray(x), flags=["multi_index"])
    seen = []
    while not it.finished:
        seen.append((it.multi_index, int(it[0])))
        it.iternext()
    assert seen == [((i, j), int(x[i, j])) for i in range(2) for j in range(3)]
    with pytest.raises(ValueError):
        arraystack.nditer(arraystack.asarray(x[:0]))
    with pytest.raises(ValueError):
        arraystack.nditer(arraystack.asarray(x), op_flags=["readwrite", "readonly"])


def _nditer_programs(xp):
    """NumPy's nditer guide, in brief: elements as 0-d views, writing through readwrite and allocated
    operands, external loops (coalesced 1-d chunks) in each order and with broadcasting."""
    out = []
    a = xp.arange(6).reshape(2, 3)
    out.append([repr(v) for v in xp.nditer(a)])
    with xp.nditer(a, op_flags=["readwrite"]) as it:
        for v in it:
            v[...] = 2 * v
    out.append(repr(a))
    for operand, kw in ((a, {}), (a, {"order": "F"}), (a.T, {}), (a[:, :2], {}), (a[:, ::2], {})):
        out.append([repr(v) for v in xp.nditer(operand, flags=["external_loop"], **kw)])
    it = xp.nditer([a, None])
    with it:
        for v, w in it:
            w[...] = v * v
        out.append(repr(it.operands[1]))
    flags = [["readonly"], ["readonly"], ["writeonly", "allocate"]]
    it = xp.nditer([a, xp.arange(3), None], flags=["external_loop"], op_flags=flags)
    for v, w, z in it:
        z[...] = v + w
    out.append(repr(it.operands[2]))
    b = xp.zeros((2, 3))
    for v, w in xp.nditer([xp.arange(3.0), b], op_flags=[["readonly"], ["writeonly"]]):
        w[...] = v + 1
    out.append(repr(b))
    it = xp.nditer([a, None], op_dtypes=[None, xp.float32])
    for v, w in it:
        w[...] = v / 3
    out.append(repr(it.operands[1]))
    return out


@pytest.mark.parametrize(
    "make",
    [lambda x: x, lambda x: x.T, lambda x: x[:, ::-1], lambda x: (x.T * 2).T],
    ids=["c", "transposed", "reversed", "a result in a transposed order"],
)
def test_nditer_in_order_k_under_jit_walks_numpys_memory_order(make):
    x = numpy.arange(12.0).reshape(3, 4)

    def values(xp, v):
        return xp.stack([t * 1.0 for t in xp.nditer(make(v), order="K")])

    expected = values(numpy, x)
    got = arraystack.jit(lambda v: values(arraystack, v))(x)
    numpy.testing.assert_array_equal(numpy.asarray(got), expected)


def test_nditer_writes_and_external_loops():
    assert _nditer_programs(arraystack) == _nditer_programs(numpy)


@pytest.mark.parametrize(
    "make",
    [
        lambda xp: xp.nditer(
            [xp.zeros(3), xp.zeros((2, 3))], op_flags=[["readwrite"], ["readonly"]]
        ),
        lambda xp: xp.nditer([xp.zeros(3), None], op_flags=[["readonly"], ["readonly"]]),
        lambda xp: xp.nditer(xp.zeros(3), flags=["external_loop", "multi_index"]),
        lambda xp: xp.nditer(xp.zeros(3), op_flags=[["readonly"], ["readonly"]]),
    ],
)
def test_nditer_errors_are_numpys(make):
    with pytest.raises(ValueError) as expected:
        make(numpy)
    with pytest.raises(expected.type):
        make(arraystack)
