"""bfloat16 (ml_dtypes' NumPy dtype): creation, printing, promotion, dtype queries, eager and traced
computation, gradients, vmap and save/load. NumPy with ml_dtypes is the oracle where it answers; where
arraystack differs (promotion NumPy refuses, float32 accumulation, bfloat16 matmul results) the
expected values are spelled out."""

from __future__ import annotations

import io

import ml_dtypes
import numpy
import pytest

import arraystack as ast

BF16 = numpy.dtype(ml_dtypes.bfloat16)
RNG = numpy.random.default_rng(16)
X = RNG.standard_normal((4, 5)).astype(BF16)
Y = RNG.standard_normal((4, 5)).astype(BF16)


def _same(got, expected):
    got = numpy.asarray(got)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    numpy.testing.assert_array_equal(got.astype(numpy.float32), expected.astype(numpy.float32))


def test_dtype_is_ml_dtypes():
    assert ast.bfloat16 is ml_dtypes.bfloat16
    assert ast.dtype("bfloat16") == BF16
    for make in (
        lambda: ast.zeros(3, ast.bfloat16),
        lambda: ast.asarray([1.5, 2.0, 3.0], dtype="bfloat16"),
        lambda: ast.ones(3).astype(ast.bfloat16),
        lambda: ast.full((2,), 2.5, ast.bfloat16),
        lambda: ast.arange(3, dtype=ast.bfloat16),
    ):
        assert make().dtype == BF16


def test_printing_is_numpys():
    x = numpy.asarray([1.5, 2.0, 3.0, -0.1], dtype=BF16)
    assert repr(ast.asarray(x)) == repr(x)
    assert str(ast.asarray(x)) == str(x)


# bfloat16 in float16's place in NumPy's lattice, and bfloat16 with float16 is float32
PROMOTIONS = [
    ("bool", "bfloat16"),
    ("int8", "bfloat16"),
    ("uint8", "bfloat16"),
    ("int16", "float32"),
    ("uint16", "float32"),
    ("int32", "float64"),
    ("int64", "float64"),
    ("uint64", "float64"),
    ("float16", "float32"),
    ("bfloat16", "bfloat16"),
    ("float32", "float32"),
    ("float64", "float64"),
    ("complex64", "complex64"),
    ("complex128", "complex128"),
]


@pytest.mark.parametrize(("other", "expected"), PROMOTIONS)
def test_promotion(other, expected):
    assert ast.promote_types(ast.bfloat16, other) == numpy.dtype(expected)
    assert ast.promote_types(other, "bfloat16") == numpy.dtype(expected)
    assert ast.result_type(ast.zeros(2, other), ast.zeros(2, ast.bfloat16)) == numpy.dtype(expected)
    # the ufunc loops agree (NumPy with ml_dtypes resolves these by casting)
    got = ast.add(ast.ones(2, ast.bfloat16), ast.ones(2, other))
    assert got.dtype == numpy.dtype(expected)


def test_promotion_with_python_scalars_keeps_bfloat16():
    x = ast.ones(2, ast.bfloat16)
    assert ast.result_type(x, 1.5) == BF16
    assert ast.result_type(x, 1) == BF16
    assert ast.result_type(x, True) == BF16
    assert ast.result_type(x, 1j) == numpy.complex64
    assert ast.jit(lambda a: a * 2.5 + 1)(x).dtype == BF16
    assert ast.jit(lambda a: a < 2.1)(x).dtype == numpy.bool_


def test_python_scalars_and_matmul_eagerly_keep_bfloat16_as_under_jit():
    # NumPy's loops with ml_dtypes give float32 here; arraystack's promotion (and jit) gives bfloat16
    x = ast.asarray(X)
    _same(x * 2.5, X * numpy.asarray(2.5, BF16))
    _same(2.5 * x, X * numpy.asarray(2.5, BF16))
    _same(ast.add(x, 1), X + numpy.asarray(1, BF16))
    for f in (lambda a: a * 2.5, lambda a: 1 - a, lambda a: a @ a.T):
        assert f(x).dtype == BF16 == ast.jit(f)(x).dtype


def test_dtype_queries():
    assert ast.issubdtype(ast.bfloat16, ast.floating)
    assert ast.issubdtype(ast.bfloat16, ast.inexact) and ast.issubdtype("bfloat16", ast.number)
    assert ast.issubdtype(ast.bfloat16, ast.bfloat16)
    assert not ast.issubdtype(ast.bfloat16, ast.float16)
    assert not ast.issubdtype(ast.bfloat16, ast.integer)
    assert not ast.issubdtype(ast.float32, ast.bfloat16)
    assert ast.isdtype(BF16, "real floating") and ast.isdtype(BF16, "numeric")
    assert not ast.isdtype(BF16, "integral") and ast.isdtype(BF16, ("bool", ast.bfloat16))
    assert not ast.isdtype(numpy.dtype(numpy.float32), ast.bfloat16)
    with pytest.raises(ValueError):
        ast.isdtype(BF16, "no such kind")
    info = ast.finfo(ast.bfloat16)
    assert info.eps == 2.0**-7 and info.bits == 16 and float(info.max) == float(ml_dtypes.finfo(BF16).max)
    assert ast.finfo(ast.zeros(2, ast.bfloat16)).eps == info.eps


ELEMENTWISE = [
    ("add", lambda xp, x, y: xp.add(x, y)),
    ("multiply", lambda xp, x, y: xp.multiply(x, y)),
    ("divide", lambda xp, x, y: xp.divide(x, y)),
    ("maximum", lambda xp, x, y: xp.maximum(x, y)),
    ("arctan2", lambda xp, x, y: xp.arctan2(x, y)),
    ("exp", lambda xp, x, y: xp.exp(x)),
    ("tanh", lambda xp, x, y: xp.tanh(x)),
    ("sqrt-abs", lambda xp, x, y: xp.sqrt(xp.abs(x))),
    ("negative", lambda xp, x, y: xp.negative(x)),
    ("less", lambda xp, x, y: xp.less(x, y)),
    ("isfinite", lambda xp, x, y: xp.isfinite(x)),
    ("where", lambda xp, x, y: xp.where(x > y, x, y)),
    ("astype-f32", lambda xp, x, y: x.astype(xp.float32)),
    ("from-f64", lambda xp, x, y: (x.astype(xp.float64) / 3).astype(BF16)),
    ("slice", lambda xp, x, y: x[1:, ::2]),
    ("fancy", lambda xp, x, y: x[xp.asarray([0, 2]), 1]),
    ("transpose", lambda xp, x, y: x.T),
    ("concat", lambda xp, x, y: xp.concatenate([x, y])),
    ("max", lambda xp, x, y: xp.max(x, axis=1)),
    ("argmax", lambda xp, x, y: xp.argmax(x, axis=0)),
    ("sort", lambda xp, x, y: xp.sort(x, axis=1)),
]


@pytest.mark.parametrize(("name", "fn"), ELEMENTWISE, ids=[n for n, _ in ELEMENTWISE])
def test_one_operation_matches_numpy_with_ml_dtypes(name, fn):
    # one operation: NumPy's ml_dtypes loops compute in float32 and round once, as arraystack does
    expected = numpy.asarray(fn(numpy, X, Y))
    x, y = ast.asarray(X), ast.asarray(Y)
    _same(fn(ast, x, y), expected)
    _same(ast.jit(lambda a, b: fn(ast, a, b))(x, y), expected)


def _rounded(values):
    return numpy.asarray(values, dtype=numpy.float32).astype(BF16)


def test_sums_accumulate_in_float32():
    # Note: NumPy with ml_dtypes accumulates in bfloat16, where 1 + 256 rounds to 256
    ones = numpy.ones(10_000, BF16)
    assert float(numpy.sum(ones)) == 256.0
    x = ast.asarray(ones)
    for got in (ast.sum(x), ast.jit(ast.sum)(x), ast.cumsum(x)[-1], x.sum()):
        assert got.dtype == BF16 and float(got) == float(_rounded(10_000.0))
    _same(ast.sum(ast.asarray(X), axis=0), _rounded(X.astype(numpy.float32).sum(axis=0)))
    _same(ast.prod(ast.asarray(X), axis=1), _rounded(X.astype(numpy.float32).prod(axis=1)))
    _same(ast.cumsum(ast.asarray(X), axis=1), _rounded(X.astype(numpy.float32).cumsum(axis=1)))
    assert ast.mean(ast.asarray(X)).dtype == BF16


def test_matmul_is_bfloat16_accumulated_in_float32():
    # Note: NumPy with ml_dtypes returns float32 from matmul; arraystack rounds it once to bfloat16
    expected = _rounded(X.astype(numpy.float32) @ Y.T.astype(numpy.float32))
    x, y = ast.asarray(X), ast.asarray(Y)
    _same(ast.matmul(x, y.T), expected)
    _same(ast.jit(lambda a, b: a @ b.T)(x, y), expected)
    _same(ast.jit(lambda a, b: ast.maximum(a @ b.T, 0))(x, y), numpy.maximum(expected, 0))
    _same(ast.einsum("ij,kj->ik", x, y), expected)


def test_grad_cotangents_are_bfloat16():
    x = ast.asarray(X)
    g = ast.grad(lambda a: ast.sum(a * a))(x)
    _same(g, (X.astype(numpy.float32) * 2).astype(BF16))
    g = ast.jit(ast.grad(lambda a: ast.sum(ast.tanh(a))))(x)
    assert g.dtype == BF16
    t = numpy.tanh(X)  # tanh(x) in bfloat16, then 1 - t*t step by step in bfloat16
    numpy.testing.assert_allclose(
        numpy.asarray(g, numpy.float32), (1 - t * t).astype(numpy.float32), rtol=2**-7, atol=2**-8
    )
    # through a cast: a float32 parameter used in bfloat16 gets a float32 gradient
    w = ast.ones(3, ast.float32)
    g = ast.grad(lambda w: ast.sum(w.astype(ast.bfloat16) * ast.asarray(X[0, :3])))(w)
    assert g.dtype == numpy.float32
    numpy.testing.assert_array_equal(numpy.asarray(g), X[0, :3].astype(numpy.float32))


def test_vmap_matches_a_loop():
    x, y = ast.asarray(X), ast.asarray(Y)
    got = ast.vmap(lambda a, b: ast.dot(a, b))(x, y)
    assert got.dtype == BF16
    _same(got, numpy.stack([numpy.asarray(ast.dot(x[i], y[i])) for i in range(4)]))


def test_setitem_and_astype():
    x = ast.asarray(X.copy())
    x[0, 0] = 7.5
    x[1] = ast.ones(5, ast.float32)
    expected = X.copy()
    expected[0, 0] = 7.5
    expected[1] = 1
    _same(x, expected)
    _same(ast.asarray(X).astype(ast.float16), X.astype(numpy.float16))
    assert ast.asarray(X)[0, 0].item() == float(X[0, 0])


def test_save_and_load(tmp_path):
    x = ast.asarray(X)
    ast.save(tmp_path / "x", x)
    _same(ast.load(tmp_path / "x.npy"), X)
    assert numpy.load(tmp_path / "x.npy").dtype == BF16  # readable by NumPy where ml_dtypes is
    ast.savez(tmp_path / "z", x, y=ast.asarray(Y), n=ast.arange(3))
    with ast.load(tmp_path / "z.npz") as z:
        _same(z["arr_0"], X)
        _same(z["y"], Y)
        assert z["n"].dtype == numpy.int64
    buffer = io.BytesIO()
    ast.savez_compressed(buffer, a=x)
    buffer.seek(0)
    _same(ast.load(buffer)["a"], X)
    with pytest.raises(ValueError, match="arr_0"):
        ast.savez(tmp_path / "bad", x, arr_0=x)
    ast.save_tree(tmp_path / "t.ckpt", {"w": x, "step": 3})
    loaded = ast.load_tree(tmp_path / "t.ckpt", like={"w": x, "step": 3})
    _same(loaded["w"], X)
    with pytest.raises(ValueError, match="dtype bfloat16 in the file"):
        ast.load_tree(tmp_path / "t.ckpt", like={"w": ast.asarray(X, dtype=ast.float16), "step": 3})


def test_a_numpy_bfloat16_array_is_a_jit_argument_and_its_ir_prints_and_parses_back():
    from arraystack.ir.parser import parse_graph
    from arraystack.ir.printer import print_graph

    x = numpy.linspace(-3, 3, 7, dtype=numpy.float32).astype(ml_dtypes.bfloat16)
    f = ast.jit(lambda a: a * 2.5 + 1, tiered=False)
    got = f(x)  # a NumPy array of ml_dtypes' bfloat16, not an arraystack array
    assert got.dtype == ml_dtypes.bfloat16
    want = (x.astype(numpy.float32) * numpy.float32(2.5) + numpy.float32(1)).astype(ml_dtypes.bfloat16)
    numpy.testing.assert_array_equal(numpy.asarray(got).astype(numpy.float32), want.astype(numpy.float32))
    text = print_graph(f.lower(x).optimized, sources=False)
    assert "2.5:bf16" in text and "j" not in text.split("{", 1)[1]
    assert print_graph(parse_graph(text), sources=False) == text


def test_mean_sums_and_divides_in_float32_and_rounds_once_eagerly_as_under_jit():
    x = numpy.random.default_rng(7).standard_normal((63, 33)).astype(BF16)  # 63: a division that rounds
    want = (x.astype(numpy.float32).sum(axis=0) / numpy.float32(63)).astype(BF16).astype(numpy.float32)
    eager = ast.mean(ast.asarray(x), axis=0)
    traced = ast.jit(lambda a: ast.mean(a, axis=0))(x)  # a kernel's float32 sum: its own order
    assert eager.dtype == traced.dtype == BF16
    numpy.testing.assert_array_equal(numpy.asarray(eager).astype(numpy.float32), want)
    numpy.testing.assert_allclose(numpy.asarray(traced).astype(numpy.float32), want, rtol=2.0**-8)
