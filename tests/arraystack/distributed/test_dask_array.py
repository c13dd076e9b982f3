"""dask.array with arraystack chunks (arraystack/distributed/dask_chunks.py): each computation is written
once against `xp`, run on a dask array of NumPy chunks and on one of arraystack chunks, and compared."""

from __future__ import annotations

import numpy
import pytest

da = pytest.importorskip("dask.array")

import arraystack
from arraystack.distributed import register_chunk_type

register_chunk_type()  # as the first meeting of an arraystack function and a dask array does

DATA = numpy.arange(48.0).reshape(6, 8) / 7.0 - 3.0


def _dask(xp, chunks=(3, 4)):
    return da.from_array(xp.asarray(DATA), chunks=chunks)


def _same(fn):
    """fn(xp, dask array of xp chunks) computed with NumPy and with arraystack chunks: equal values,
    dtypes and shapes, and the arraystack result (and its dask meta) is an arraystack array."""
    expected_graph = fn(numpy, _dask(numpy))
    actual_graph = fn(arraystack, _dask(arraystack))
    assert type(actual_graph._meta) is arraystack.ndarray
    expected = expected_graph.compute(scheduler="synchronous")
    actual = actual_graph.compute(scheduler="threads")
    assert type(actual) is arraystack.ndarray
    numpy.testing.assert_array_equal(numpy.asarray(actual), expected)
    assert numpy.asarray(actual).dtype == numpy.asarray(expected).dtype


def test_from_array_keeps_arraystack_chunks_and_meta():
    d = _dask(arraystack)
    assert type(d._meta) is arraystack.ndarray
    assert d._meta.dtype == numpy.float64 and d._meta.ndim == 2
    assert type(d.blocks[1, 1].compute()) is arraystack.ndarray
    assert "arraystack" in repr(d)


@pytest.mark.parametrize(
    "fn",
    [
        lambda xp, d: (d + 1.5) * d - 2,
        lambda xp, d: xp.sin(d) + xp.exp(d / 10),
        lambda xp, d: numpy.tanh(d),
        lambda xp, d: da.where(d > 0, d, -d),
        lambda xp, d: d.T @ d,
    ],
    ids=["arithmetic", "ufuncs-of-xp", "numpy-ufunc", "where", "matmul"],
)
def test_elementwise_and_matmul(fn):
    _same(fn)


@pytest.mark.parametrize(
    "fn",
    [
        lambda xp, d: d.sum(),
        lambda xp, d: d.sum(axis=0),
        lambda xp, d: d.mean(axis=1),
        lambda xp, d: d.max(axis=0),
        lambda xp, d: d.argmin(axis=1),
        lambda xp, d: xp.sum(d, axis=1),
        lambda xp, d: d.std(),
    ],
    ids=["sum", "sum0", "mean1", "max0", "argmin1", "xp-sum", "std"],
)
def test_reductions(fn):
    # tree reductions add chunk sums in dask's order on both sides: equal, not just close
    _same(fn)


def test_rechunk_and_slicing():
    _same(lambda xp, d: d.rechunk((2, 8))[1:5, ::3])
    _same(lambda xp, d: da.concatenate([d, d[:2]], axis=0).rechunk((4, 4)))


def test_map_blocks_of_a_jitted_function_compiles_once_per_chunk_shape():
    @arraystack.jit
    def f(x):
        return arraystack.tanh(x) * 2.0 + x.sum(axis=0)

    d = _dask(arraystack, chunks=(3, 4))  # four chunks of one shape
    meta = arraystack.empty((0, 0))
    result = d.map_blocks(f, meta=meta, dtype=d.dtype).compute(scheduler="threads")
    expected = numpy.concatenate(
        [
            numpy.concatenate(
                [numpy.tanh(b) * 2.0 + b.sum(axis=0) for b in numpy.hsplit(row, 2)], axis=1
            )
            for row in numpy.vsplit(DATA, 2)
        ]
    )
    assert type(result) is arraystack.ndarray
    numpy.testing.assert_allclose(numpy.asarray(result), expected, rtol=1e-14, atol=1e-14)
    assert f.stats()["traces"] == 1
    assert f.stats()["compiles"] == 1
    d.rechunk((2, 8)).map_blocks(f, meta=meta, dtype=d.dtype).compute(scheduler="synchronous")
    assert f.stats()["traces"] == 2  # one more chunk shape


def test_mixing_numpy_and_arraystack_chunks_follows_dasks_rules():
    # a NumPy-chunked and an arraystack-chunked dask array: as with NumPy and CuPy chunks, the meta is
    # what the chunk function gives on the metas (arraystack's ufuncs take NumPy operands), and so are
    # the chunks
    mixed = _dask(numpy) + _dask(arraystack)
    assert type(mixed._meta) is arraystack.ndarray
    result = mixed.compute(scheduler="synchronous")
    assert type(result) is arraystack.ndarray
    numpy.testing.assert_array_equal(numpy.asarray(result), 2 * DATA)


@pytest.mark.parametrize("order", ["dask-first", "arraystack-first"])
def test_dask_array_with_a_plain_arraystack_array(order):
    # the arraystack array is wrapped as one chunk; its operators defer to the dask array
    a = arraystack.asarray(DATA)
    d = _dask(numpy)
    result = d * a if order == "dask-first" else a * d
    assert isinstance(result, da.Array)
    numpy.testing.assert_array_equal(numpy.asarray(result.compute()), DATA * DATA)
    added = arraystack.add(a, d)
    assert isinstance(added, da.Array)
    numpy.testing.assert_array_equal(numpy.asarray(added.compute()), DATA + DATA)


def test_register_chunk_type_is_idempotent():
    from dask.array.chunk_types import is_valid_chunk_type

    assert register_chunk_type() is True
    assert register_chunk_type() is True
    assert is_valid_chunk_type(arraystack.ndarray)


def test_import_arraystack_leaves_dask_alone_and_meeting_dask_registers():
    import subprocess
    import sys

    program = (
        "import sys, numpy, arraystack\n"
        "assert 'dask' not in sys.modules, 'import arraystack imported dask'\n"
        "import dask.array as da\n"
        "a = arraystack.asarray(numpy.ones((2, 2)))\n"
        "d = da.from_array(numpy.ones((2, 2)), chunks=1)\n"
        "from dask.array.chunk_types import is_valid_chunk_type\n"
        "assert not is_valid_chunk_type(arraystack.ndarray)\n"
        "r = (d + a).compute(scheduler='synchronous') + numpy.add(d, a).compute()\n"
        "assert is_valid_chunk_type(arraystack.ndarray)\n"
        "print(float(r.sum()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "16.0"


def test_map_blocks_on_worker_processes_traces_once_per_shape_in_each(client):
    @arraystack.jit
    def f(x):
        return arraystack.tanh(x) * 2.0 + x.sum(axis=0)

    d = _dask(arraystack, chunks=(3, 4))
    meta = arraystack.empty((0, 0))
    result = d.map_blocks(f, meta=meta, dtype=d.dtype).compute()  # on the cluster (processes)
    expected = d.map_blocks(f, meta=meta, dtype=d.dtype).compute(scheduler="synchronous")
    assert type(result) is arraystack.ndarray
    numpy.testing.assert_array_equal(numpy.asarray(result), numpy.asarray(expected))
    token = f._token  # set when the tasks pickled f

    def traces():
        from arraystack._transforms.jit import _unpickled

        found = _unpickled.get(token)
        return None if found is None else (found.stats()["calls"], found.stats()["traces"])

    counts = [n for n in client.run(traces).values() if n is not None]
    # the 4 chunks' tasks share one JitFunction per worker, which traced their one shape once
    assert sum(calls for calls, _ in counts) == 4, counts
    assert all(n == 1 for _, n in counts), counts


def test_a_jitted_function_pickles_with_its_options():
    import pickle

    f = arraystack.jit(_scaled, static_argnums=1, tiered=False)
    copy = pickle.loads(pickle.dumps(f))
    assert copy is not f and pickle.loads(pickle.dumps(f)) is copy  # one object per process
    assert copy.static_argnums == (1,) and copy.tiered is False
    x = arraystack.asarray(DATA)
    numpy.testing.assert_array_equal(numpy.asarray(copy(x, 3)), numpy.asarray(f(x, 3)))


def _scaled(x, k):
    return x * k
