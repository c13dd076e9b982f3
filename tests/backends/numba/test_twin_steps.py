"""The tier-0 twin's own ways of running a region (backends/numba/twin.py) change no bit: its branch-free
select against np.where, its in-place steps and compact broadcasts against the same twin without them."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends import compile_graph
from arraystack.backends.numba import twin
from arraystack.backends.numba.twin import (
    _region_step,
    _region_steps,
    _select_into,
    _ufunc_into,
    select_bits,
)
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.avals import ShapedArray
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Eqn, GraphBuilder, Literal, Var

import arraystack as ast


def _special(dtype, shape, rng):
    """Values of `dtype` including, for floats, -0.0, infinities and NaNs with distinct payloads."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        bits = np.dtype(f"u{dtype.itemsize}")
        x = rng.integers(0, np.iinfo(bits).max, size=shape, dtype=bits, endpoint=True).view(dtype)
        flat = x.reshape(-1)
        flat[: flat.size // 2] = rng.standard_normal(flat.size // 2)
        flat[::7] = -0.0
        flat[::11] = np.inf
        return x
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint16", "int32", "int64"])
@pytest.mark.parametrize(
    "shapes",
    [((33, 70), (33, 70), (33, 70)), ((33, 70), (), (33, 70)), ((33, 70), (), ()),
     ((33, 70), (70,), (33, 1)), ((), (5,), ()), ((), (), ()), ((4, 1), (1, 6), (4, 6))],
)
def test_select_bits_is_where(dtype, shapes):
    rng = np.random.default_rng(len(str(shapes)) + np.dtype(dtype).itemsize)
    pred = rng.random(shapes[0]) < 0.5
    on_true, on_false = _special(dtype, shapes[1], rng), _special(dtype, shapes[2], rng)
    if not shapes[1]:
        on_true = on_true[()]  # a scalar, as a literal operand
    expected = np.where(pred, on_true, on_false)
    got = select_bits(np.dtype(dtype), pred, on_true, on_false)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    bits = np.dtype(f"u{np.dtype(dtype).itemsize}")
    np.testing.assert_array_equal(got.view(bits), expected.view(bits))


def test_select_bits_takes_each_side():
    """A predicate all True (all False) returns on_true (on_false), -0.0 and NaN payloads included."""
    a = np.array([-0.0, np.nan, 1.5, -np.inf], np.float32)
    a[1] = np.uint32(0x7FC01234).view(np.float32)
    b = np.array([0.0, 2.0, np.nan, 3.0], np.float32)
    for pred, want in ((np.ones(4, bool), a), (np.zeros(4, bool), b)):
        got = select_bits(np.dtype(np.float32), pred, a, b)
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("side", [1, 2])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_select_bits_into_an_operand(side, dtype):
    """With out= one of the value operands (a buffer dying with the select), the result is unchanged."""
    rng = np.random.default_rng(side)
    pred = rng.random((40, 70)) < 0.5
    operands = [_special(dtype, (40, 70), rng), _special(dtype, (40, 70), rng)]
    bits = np.dtype(f"u{np.dtype(dtype).itemsize}")
    for other in (operands[2 - side], operands[2 - side][0, 0]):  # an array, a scalar
        args = [pred, None, None]
        args[side], args[3 - side] = operands[side - 1].copy(), other
        want = np.where(*args)
        got = select_bits(np.dtype(dtype), *args, out=args[side])
        assert np.shares_memory(got, args[side])
        np.testing.assert_array_equal(got.view(bits), want.view(bits))
    same = operands[0].copy()  # select(p, v, v) into v
    got = select_bits(np.dtype(dtype), pred, same, same, out=same)
    np.testing.assert_array_equal(got.view(bits), operands[0].view(bits))


ELEMENTWISE = {
    # a chain: each step may write into the buffer of the one before
    "chain": lambda x, b: ((x * 2.0 + b) * 3.0 - 1.0) / 7.0,
    # the relu of an MLP and its derivative mask (selects of a dying buffer)
    "relu": lambda x, b: (ast.maximum(x + b, 0.0), ast.where(x + b > 0, 1.0, ast.where(x + b == 0, 0.5, 0.0))),
    # an intermediate read again through a transposed view after the step that could overwrite it
    "view": lambda x, b: ((x * 2.0 + b).T * 0.5, (x * 2.0 + b) - 1.0),
    "reshaped": lambda x, b: ((x + b).reshape(-1) * 2.0, (x + b) * 3.0),
    "mixed": lambda x, b: (x.astype("float64") * 2.0 + 1.0, x * b - x),
    # a product's new buffer donated to the region reading it last
    "matmul": lambda x, b: (x @ x.T) * 0.5 - 1.0,
    # ... but not while a later step reads it, nor when it is returned
    "matmul read later": lambda x, b: ((x @ x.T) * 0.5 - 1.0, (x @ x.T).T @ x),
    "matmul returned": lambda x, b: (x @ x.T, (x @ x.T) * 0.5 - 1.0),
    # a region's output donated to the next region (the relu's output into the bias-gradient step)
    "regions": lambda x, b: ast.sum(ast.maximum(x * 2.0 + b, 0.0) * 3.0 - b, axis=0),
    # compact broadcasts: through elementwise steps, into reductions, selects and mathlib's exp, out
    "broadcast sums": lambda x, b: (ast.sum(b * 2.0 + x[:, :1], axis=0), ast.sum(b + 1.0 + 0 * x)),
    "broadcast reduced": lambda x, b: ast.sum(ast.broadcast_to(b, (40, 70)) * 3.0, axis=0) + ast.sum(
        ast.broadcast_to(b[:, None], (70, 40)) - 1.0
    ),
    "broadcast out": lambda x, b: (ast.broadcast_to(b * 2.0, (40, 70)) + 0.0, x + ast.exp(b)),
    "broadcast select": lambda x, b: ast.where(b > 0, ast.exp(b - 1.0), x) * ast.max(x, axis=1)[:, None],
    "softmax": lambda x, b: ast.exp(x - ast.max(x, axis=1, keepdims=True)) / ast.sum(
        ast.exp(x - ast.max(x, axis=1, keepdims=True)), axis=1, keepdims=True
    ),
}


WITH_NAN = {"chain", "relu", "view", "reshaped", "mixed"}


def _plain_steps(sub, donated=frozenset(), last=None):
    """The twin's steps without writing in place or compact broadcasts."""
    return [twin._twin_step(e) for e in sub.eqns], [() for _ in sub.eqns], set(), set()


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_region_writes_in_place_without_changing_results(name, monkeypatch):
    """The twin's in-place steps (a dying operand's buffer reused) change no result and leave the arguments
    alone: the same twin without them is the reference (it is checked against the kernels elsewhere)."""
    fun = ELEMENTWISE[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((40, 70)).astype(np.float32)
    b = rng.standard_normal(70).astype(np.float32)
    b[:2] = [0.0, -0.0]
    if name in WITH_NAN:  # elsewhere a NaN or inf would spread over the products and sums
        b[2:5] = [np.inf, -np.inf, np.nan]
    graph = ast.jit(fun).lower(x, b).optimized
    kept = x.copy(), b.copy()
    with np.errstate(all="ignore"):
        got = compile_graph(graph, "numba", tier=0)(x, b)
        monkeypatch.setattr(twin, "_region_steps", _plain_steps)
        want = compile_graph(graph, "numba", tier=0)(x, b)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g.view(f"u{g.itemsize}"), w.view(f"u{w.itemsize}"))
    np.testing.assert_array_equal(x, kept[0])
    np.testing.assert_array_equal(b, kept[1])


def test_a_dying_operand_is_overwritten():
    """The relu region writes in place (else the test above checks nothing new)."""
    graph = ast.jit(ELEMENTWISE["relu"]).lower(np.ones((4, 8), np.float32), np.ones(8, np.float32)).optimized
    regions = [e for e in graph.eqns if e.prim.name == "fusion"]
    steps = [step for e in regions for step in _region_steps(e.params["graph"])[0]]
    assert any(getattr(step, "func", None) in (_ufunc_into, _select_into) for step in steps)


def test_a_buffer_seen_through_a_view_is_not_overwritten():
    """b = a + 1; c = broadcast(b) (a view of b's buffer); d = b * 2 (b's last use); e = c * 2: d must not
    be written into b's buffer, which c still shows. (Fusion keeps such views out of its regions today;
    the twin must not depend on it.)"""
    f32 = np.dtype(np.float32)
    a = Var(ShapedArray((70,), f32))
    one, two = Literal(np.float32(1), ShapedArray((), f32)), Literal(np.float32(2), ShapedArray((), f32))
    builder = GraphBuilder()
    (b,) = builder.emit(p.add_p, [a, one])
    (c,) = builder.emit(s.broadcast_in_dim_p, [b], {"shape": (4, 70), "broadcast_dimensions": (1,)})
    (d,) = builder.emit(p.mul_p, [b, two])
    (e,) = builder.emit(p.mul_p, [c, two])
    graph = builder.build([a], [d, e])
    x = np.arange(70, dtype=np.float32)
    step, _ = _region_step(Eqn(fusion_p, (a,), (d, e), {"graph": graph}))
    d_out, e_out = step(x)
    np.testing.assert_array_equal(d_out, (x + 1) * 2)
    np.testing.assert_array_equal(e_out, np.broadcast_to((x + 1) * 2, (4, 70)))
