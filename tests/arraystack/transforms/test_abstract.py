"""eval_shape and ShapeDtypeStruct (jax.eval_shape's): results' shapes and dtypes traced without data,
and block_until_ready on host values and on arrays of other libraries."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast


def test_eval_shape_of_a_pytree_of_results():
    def f(x, y):
        return {"s": x.sum(0), "p": (x @ y, ast.argmax(y))}

    x = ast.ShapeDtypeStruct((3, 4), "float32")
    got = ast.eval_shape(f, x, numpy.ones((4, 2)))
    assert got["s"] == ast.ShapeDtypeStruct((4,), numpy.float32)
    assert got["p"][0] == ast.ShapeDtypeStruct((3, 2), numpy.float64)
    assert got["p"][1] == ast.ShapeDtypeStruct((), numpy.int64)
    assert got["s"].ndim == 1 and got["p"][0].size == 6
    assert repr(got["s"]) == "ShapeDtypeStruct(shape=(4,), dtype=float32)"


def test_eval_shape_matches_the_computation_and_reads_no_data():
    f = lambda x: ast.concatenate([x, x[::2] * 2]).astype(numpy.float16)
    real = f(ast.arange(5))
    shape = ast.eval_shape(f, ast.ShapeDtypeStruct((5,), numpy.int64))
    assert shape.shape == real.shape and shape.dtype == real.dtype

    # a function that writes into its argument: the written argument is not a result
    def g(x):
        x[0] = 1.0
        return x.sum()

    assert ast.eval_shape(g, ast.ShapeDtypeStruct((3,), "float64")).shape == ()


def test_shape_dtype_structs_trace_but_do_not_compute():
    s = ast.ShapeDtypeStruct((2, 3), "float32")
    assert "f32[2,3]" in str(ast.make_graph(lambda x: x * 2)(s))
    assert "transpose" in ast.jit(lambda x: x.T).lower(s).as_text()
    with pytest.raises(TypeError, match="has no data"):
        ast.jit(lambda x: x + 1)(s)
    with pytest.raises(ValueError, match="negative"):
        ast.ShapeDtypeStruct((-1,), "float32")
    assert ast.ShapeDtypeStruct([2, 3], "f4") == s and hash(s) == hash(
        ast.ShapeDtypeStruct((2, 3), "f4")
    )


def test_block_until_ready_returns_its_argument():
    x = ast.ones(3)
    tree = {"x": x, "n": [numpy.zeros(2), 1.5]}
    assert ast.block_until_ready(tree) is tree and x.block_until_ready() is x

    class Pending:  # an array of another library with its own wait (JAX's)
        waited = False

        def block_until_ready(self):
            Pending.waited = True
            return self

    ast.block_until_ready([Pending()])
    assert Pending.waited
