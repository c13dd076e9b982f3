"""gather/scatter modes (jit/structural.py, their reference rules in jit/reference.py): "raise"
checks every index and names the user's axis (`axes`), "choose" is numpy.choose's check, "clip"
clamps; the derivative and batching rules keep the mode and the axes. NumPy is the oracle."""

from __future__ import annotations

import re

import numpy as np
import pytest
from arraystack.ir import ShapedArray, make_graph
from arraystack.ir import structural as s
from arraystack.ir.ad import reverse
from arraystack.ir.ad.batching import vmap as vmap_raw
from arraystack.ir.core import bind
from arraystack.ir.reference import reference_rules

from tests.jit.test_printer import round_trip

X = np.arange(15.0).reshape(5, 3)  # a transposed (3, 5) array: its axis 1 is X's axis 0


def _gather(*args, **params):
    return reference_rules[s.gather_p](np, *args, **params)


def _scatter(*args, **params):
    return reference_rules[s.scatter_p](np, *args, **params)


def _numpy_error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return info.type, str(info.value)


def test_raise_names_the_index_the_axis_and_its_size():
    i = np.array([1, 7, 9])
    kind, message = _numpy_error(lambda: X.T[:, i])  # NumPy: axis 1 of the (3, 5) array
    with pytest.raises(kind, match=f"^{re.escape(message)}$"):
        _gather(X, i, mode="raise", axes=(1,))
    with pytest.raises(IndexError, match="^index 7 is out of bounds for axis 0 with size 5$"):
        _gather(X, i, mode="raise")
    np.testing.assert_array_equal(_gather(X, np.array([-5, 4]), mode="raise"), X[[-5, 4]])


def test_raise_reports_the_first_bad_index_axis_by_axis():
    rows, cols = np.array([[0, 9], [2, 2]]), np.array([[7, 0], [1, -4]])
    kind, message = _numpy_error(lambda: X[rows, cols])
    with pytest.raises(kind, match=f"^{re.escape(message)}$"):
        _gather(X, rows, cols, mode="raise")
    kind, message = _numpy_error(lambda: X[rows % 5, cols])
    with pytest.raises(kind, match=f"^{re.escape(message)}$"):
        _gather(X, rows % 5, cols, mode="raise")


@pytest.mark.parametrize("update", ["set", "add", "mul", "min", "max"])
def test_scatter_raise_leaves_the_operand_unchanged(update):
    x = X.copy()
    i = np.array([0, -6])
    with pytest.raises(IndexError, match="^index -6 is out of bounds for axis 2 with size 5$"):
        _scatter(x, np.ones((2, 3)), i, mode="raise", update=update, axes=(2,))
    np.testing.assert_array_equal(x, X)


def test_choose_mode_is_numpys_choose_check():
    np.testing.assert_array_equal(_gather(X, np.array([0, 4]), mode="choose"), X[[0, 4]])
    for bad in ([0, -1], [5, 0]):
        kind, message = _numpy_error(lambda: np.choose(np.array(bad)[:, None], list(X)))
        with pytest.raises(kind, match=f"^{re.escape(message)}$"):
            _gather(X, np.array(bad), mode="choose")


def test_clip_wraps_negatives_once_then_clamps():
    np.testing.assert_array_equal(_gather(X, np.array([7, -1, -9]), mode="clip"), X[[4, 4, 0]])


def test_shape_rule_checks_mode_and_axes():
    x, i = ShapedArray((5, 3), np.dtype(np.float64)), ShapedArray((2,), np.dtype(np.int64))
    with pytest.raises(ValueError, match="gather mode must be one of"):
        s.abstract_eval_rules[s.gather_p](x, i, mode="drop")
    with pytest.raises(ValueError, match="axes"):
        s.abstract_eval_rules[s.scatter_p](x, x, i, mode="raise", update="set", axes=(0, 1))


def _traced(fn, *arrays):
    graph, _ = make_graph(fn, [ShapedArray(a.shape, a.dtype) for a in arrays])
    return graph


def _index_params(graph):
    return [
        (e.prim.name, e.params["mode"], e.params.get("axes"))
        for e in graph.eqns
        if "mode" in e.params
    ]


def test_axes_print_and_parse_back():
    def fn(x, i):
        g = bind(s.gather_p, x, i, mode="raise", axes=(1,))
        return [bind(s.scatter_p, x, g, i, mode="raise", update="add", axes=(1,))]

    text, _ = round_trip(_traced(fn, X, np.array([0, 2])))
    assert "axes=(1,)" in text and "mode='raise'" in text


def test_vjp_keeps_mode_and_axes():
    def fn(x, i):
        _, backward = reverse.vjp(lambda t: [bind(s.gather_p, t, i, mode="raise", axes=(1,))], [x])
        return backward([bind(s.full_p, 1.0, shape=(2, 3), dtype=np.dtype(np.float64))])

    graph = _traced(fn, X, np.array([0, 2]))
    assert ("scatter", "raise", (1,)) in _index_params(graph)


def _batched_gather(x, i, **params):
    def one(t, j):
        return [bind(s.gather_p, t, j, mode="raise", **params)]

    return vmap_raw(one, [x, i], [True, True], 2)


def test_batching_keeps_mode_and_names_the_per_example_axis():
    xs = np.stack([X, X])
    graph = _traced(lambda x, i: _batched_gather(x, i, axes=(1,)), xs, np.array([[0, 2], [1, 1]]))
    assert _index_params(graph) == [("gather", "raise", (None, 1))]  # the batch's iota, then axis 1
    bad = np.array([[0, 2], [1, 5]])
    with pytest.raises(IndexError, match="^index 5 is out of bounds for axis 1 with size 5$"):
        _batched_gather(xs, bad, axes=(1,))
    with pytest.raises(IndexError, match="^index 5 is out of bounds for axis 0 with size 5$"):
        _batched_gather(xs, bad)


class _Wrapping(np.ndarray):
    """An array whose integer-array indexing wraps out-of-bounds indices, as CuPy's does."""

    def __getitem__(self, key):
        if isinstance(key, tuple) and all(isinstance(k, np.ndarray) for k in key):
            key = tuple(k % n for k, n in zip(key, self.shape))
        return np.asarray(self)[key]


def test_a_device_array_module_checks_bounds_itself():
    """Off the host, indexing may not check (CuPy wraps): the rule checks with a min/max per index."""
    device = type("Device", (), {name: getattr(np, name) for name in ("asarray", "where", "clip")})
    x = X.view(_Wrapping)
    assert np.asarray(x[(np.array([7]),)])[0, 0] == X[2, 0]  # the module itself would wrap
    with pytest.raises(IndexError, match="^index 7 is out of bounds for axis 3 with size 5$"):
        reference_rules[s.gather_p](device, x, np.array([1, 7]), mode="raise", axes=(3,))
    picked = reference_rules[s.gather_p](device, x, np.array([1, -5]), mode="raise")
    np.testing.assert_array_equal(picked, X[[1, -5]])
