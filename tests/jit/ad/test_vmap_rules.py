"""vmap rules of the structural primitives (jit/ad/batch_structural.py) against a loop over the batch.

Each case is written once against `xp`: run under the low-level vmap with xp=arraystack (operands with the
batch axis first where batched), and eagerly with xp=numpy on each example; the results must agree in
shape, dtype and value. Cases run eagerly and under arraystack.jit.
"""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.ad import batch_rules
from arraystack.ir.ad.batching import vmap as vmap_raw
from arraystack.ir.core import Primitive, bind
from arraystack.ir.reference import reference_rules

import arraystack as ast
from arraystack._core.array import wrap

B = 3
rng = np.random.default_rng(0)


def _outputs(out):
    return out if isinstance(out, (tuple, list)) else (out,)


def batched_call(f, args, batched, jit=False):
    """f(ast, *operands) vmapped over the leading axis of the batched args; a list of NumPy results."""

    def raw(*values):
        return [o._value for o in _outputs(f(ast, *[wrap(v) for v in values]))]

    if not jit:
        return [np.asarray(o) for o in vmap_raw(raw, list(args), list(batched), B)]

    def whole(*xs):
        return tuple(wrap(o) for o in vmap_raw(raw, [x._value for x in xs], list(batched), B))

    return [np.asarray(o) for o in ast.jit(whole)(*[ast.asarray(a) for a in args])]


def check(f, args, batched, jit=False):
    got = batched_call(f, args, batched, jit)
    per_example = [
        _outputs(f(np, *[a[b] if bt else a for a, bt in zip(args, batched)])) for b in range(B)
    ]
    assert len(got) == len(per_example[0])
    for i, g in enumerate(got):
        expected = np.stack([np.asarray(e[i]) for e in per_example])
        assert g.shape == expected.shape and g.dtype == expected.dtype, (g, expected)
        np.testing.assert_allclose(g, expected, rtol=1e-12, atol=1e-12)


def normal(*shape):
    return rng.standard_normal(shape)


X = normal(B, 4, 5)  # batched
X0 = normal(4, 5)  # one example / unbatched

# (name, f(xp, *args), args, batched): every structural primitive through the frontend that produces it
CASES = [
    ("reshape", lambda xp, x: xp.reshape(x, (5, 2, 2)), [X], [True]),
    ("ravel", lambda xp, x: xp.ravel(x), [X], [True]),
    ("broadcast_to", lambda xp, x: xp.broadcast_to(x[:, :1], (2, 4, 3)), [X], [True]),
    ("broadcast_add", lambda xp, x, y: x + y[:, None], [X0, normal(B, 4)], [False, True]),
    ("transpose", lambda xp, x: xp.transpose(x), [X], [True]),
    ("moveaxis", lambda xp, x: xp.moveaxis(x[..., None], 0, 2), [X], [True]),
    ("slice", lambda xp, x: x[1:3, ::2], [X], [True]),
    ("slice_int", lambda xp, x: x[2, 1:], [X], [True]),
    ("flip", lambda xp, x: xp.flip(x, 1), [X], [True]),
    ("flip_all", lambda xp, x: x[::-1, ::-2], [X], [True]),
    ("concat_mixed", lambda xp, x, y: xp.concatenate([x, y, x], axis=0), [X, X0], [True, False]),
    ("concat_axis1", lambda xp, x, y: xp.concatenate([y, x], axis=1), [X, X0], [True, False]),
    ("stack", lambda xp, x, y: xp.stack([x, y]), [X0, X], [False, True]),
    ("pad", lambda xp, x: xp.pad(x, ((1, 2), (0, 1))), [X], [True]),
    (
        "pad_value_batched",
        lambda xp, x, v: xp.pad(x, ((1, 2), (0, 1)), constant_values=v),
        [X, normal(B)],
        [True, True],
    ),
    (
        "pad_only_value_batched",
        lambda xp, x, v: xp.pad(x, ((2, 0), (1, 1)), constant_values=v),
        [X0, normal(B)],
        [False, True],
    ),
    ("sum", lambda xp, x: xp.sum(x, axis=1), [X], [True]),
    ("sum_all", lambda xp, x: xp.sum(x), [X], [True]),
    ("prod", lambda xp, x: xp.prod(x, axis=0), [X], [True]),
    ("max", lambda xp, x: xp.max(x, axis=(0, 1)), [X], [True]),
    ("min", lambda xp, x: xp.min(x, axis=1), [X], [True]),
    ("all", lambda xp, x: xp.all(x > -1, axis=0), [X], [True]),
    ("any", lambda xp, x: xp.any(x > 1, axis=1), [X], [True]),
    ("argmax", lambda xp, x: xp.argmax(x, axis=0), [X], [True]),
    ("argmin", lambda xp, x: xp.argmin(x, axis=1), [X], [True]),
    ("argmax_flat", lambda xp, x: xp.argmax(x), [X], [True]),
    ("cumsum", lambda xp, x: xp.cumsum(x, axis=1), [X], [True]),
    ("cumprod", lambda xp, x: xp.cumprod(x, axis=0), [X], [True]),
    ("matmul_both", lambda xp, x, y: x @ y, [X, normal(B, 5, 2)], [True, True]),
    ("matmul_lhs", lambda xp, x, y: x @ y, [X, normal(5, 2)], [True, False]),
    ("matmul_rhs", lambda xp, x, y: x @ y, [X0, normal(B, 5, 2)], [False, True]),
    ("matvec_rhs", lambda xp, x, y: xp.dot(x, y), [X0, normal(B, 5)], [False, True]),
    ("vecmat_lhs", lambda xp, x, y: xp.dot(x, y), [normal(B, 4), X0], [True, False]),
    ("inner", lambda xp, x, y: xp.dot(x, y), [normal(B, 5), normal(B, 5)], [True, True]),
    (
        "matmul_stacked_lhs",
        lambda xp, x, y: xp.matmul(x, y),
        [normal(B, 2, 3, 4), normal(2, 4, 5)],
        [True, False],
    ),
    (
        "matmul_stacked_rhs",
        lambda xp, x, y: xp.matmul(x, y),
        [normal(2, 3, 4), normal(B, 2, 4, 5)],
        [False, True],
    ),
    (
        "matmul_transposed_both",
        lambda xp, x, y: (x @ y.T).T,
        [X, normal(B, 2, 5)],
        [True, True],
    ),
]

INDEX = np.array([[0, 3], [-1, 2], [1, 1]])
INDEXES = np.stack([INDEX, INDEX[::-1] % 4, -INDEX - 1])
COLUMNS = np.array([4, 0, -2])


def _set_copy(xp, x, i, v):
    y = x.copy()
    y[i] = v
    return y


def _set_columns(xp, x, i, v):
    y = x.copy()
    y[:, i] = v
    return y


def _nonzero(xp, x):
    mask = x > 0.3
    if xp is ast:
        return xp.nonzero(mask, size=6, fill_value=-1)
    return tuple(np.concatenate([a[:6], np.full(max(0, 6 - a.size), -1)]) for a in np.nonzero(mask))


CASES += [
    ("gather_x", lambda xp, x, i: x[i], [X, INDEX], [True, False]),
    ("gather_both", lambda xp, x, i: x[i], [X, INDEXES], [True, True]),
    ("gather_index", lambda xp, x, i: x[i], [X0, INDEXES], [False, True]),
    ("gather_axis1", lambda xp, x, i: x[:, i], [X, COLUMNS], [True, False]),
    ("gather_axis1_both", lambda xp, x, i: x[1:, i], [X, np.stack([COLUMNS] * B)], [True, True]),
    ("gather_two", lambda xp, x, i, j: x[i, j], [X, INDEXES, INDEX], [True, True, False]),
    ("gather_two_index", lambda xp, x, i, j: x[i, j], [X0, INDEX, INDEXES], [False, False, True]),
    ("gather_list", lambda xp, x: x[..., [1, 4, 0]], [X], [True]),
    (
        "scatter_x",
        lambda xp, x, i, v: _set_copy(xp, x, i, v),
        [X, INDEX, 7.0],
        [True, False, False],
    ),
    (
        "scatter_value",
        lambda xp, x, i, v: _set_copy(xp, x, i, v),
        [X0, np.array([2, 0]), normal(B, 2, 5)],
        [False, False, True],
    ),
    (
        "scatter_index",
        lambda xp, x, i, v: _set_copy(xp, x, i, v),
        [X0, np.array([[2, 0], [1, 3], [-1, 0]]), normal(5)],
        [False, True, False],
    ),
    (
        "scatter_all",
        lambda xp, x, i, v: _set_copy(xp, x, i, v),
        [X, np.array([[2, 0], [1, 3], [-1, 0]]), normal(B, 2, 5)],
        [True, True, True],
    ),
    (
        "scatter_columns",
        lambda xp, x, i, v: _set_columns(xp, x, i, v),
        [X, COLUMNS, normal(B, 4, 3)],
        [True, False, True],
    ),
    (
        "scatter_x_and_value",
        lambda xp, x, i, v: _set_copy(xp, x, i, v),
        [X, np.array([3, 1]), normal(B, 2, 5)],
        [True, False, True],
    ),
    ("nonzero", _nonzero, [X], [True]),
    ("nonzero_1d", _nonzero, [normal(B, 7)], [True]),
    ("full_like_fill", lambda xp, x: xp.full((2, 3), x[0, 0]), [X], [True]),
    ("where_scalar", lambda xp, x, v: xp.where(x > 0, x, v), [X0, normal(B)], [False, True]),
]


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name,f,args,batched", CASES, ids=[c[0] for c in CASES])
def test_frontend(name, f, args, batched, jit):
    check(f, args, batched, jit)


# -- primitives bound directly: params the frontend does not produce ------------------------------------------


def _raw(prim, **params):
    """f(xp, *args): the primitive under vmap (xp=arraystack), its reference rule per example (numpy)."""

    def f(xp, *args):
        if xp is np:
            return reference_rules[prim](np, *args, **params)
        out = bind(prim, *[a._value for a in args], **params)
        return tuple(wrap(o) for o in out) if prim.multiple_results else wrap(out)

    return f


DUPLICATES = np.array([1, 3, 1, 0, 3])
RAW_CASES = [
    ("cummax_reverse", _raw(s.cummax_p, axis=1, reverse=True), [X], [True]),
    ("cummin", _raw(s.cummin_p, axis=0), [X], [True]),
    ("rev_two", _raw(s.rev_p, dimensions=(0, 1)), [X], [True]),
    ("gather_raise", _raw(s.gather_p, mode="raise"), [X, INDEXES], [True, True]),
    ("gather_clip", _raw(s.gather_p, mode="clip"), [X, INDEXES * 3], [True, True]),
    ("gather_clip_x", _raw(s.gather_p, mode="clip"), [X, INDEX * 3], [True, False]),
    (
        "scatter_add_duplicates",
        _raw(s.scatter_p, mode="clip", update="add"),
        [X, normal(B, 5, 5), DUPLICATES],
        [True, True, False],
    ),
    (
        "scatter_max_index",
        _raw(s.scatter_p, mode="raise", update="max"),
        [X0, normal(5, 5), np.stack([DUPLICATES, -DUPLICATES, DUPLICATES[::-1]])],
        [False, False, True],
    ),
    (
        "scatter_mul_x",
        _raw(s.scatter_p, mode="clip", update="mul"),
        [X, normal(5, 5), DUPLICATES],
        [True, False, False],
    ),
    (
        "scatter_min_two",
        _raw(s.scatter_p, mode="clip", update="min"),
        [X, normal(B, 2), np.array([[0, 9], [3, 3], [-7, 1]]), np.array([4, 4])],
        [True, True, True, False],
    ),
    ("full", _raw(s.full_p, shape=(2, 2), dtype=np.dtype(np.float32)), [normal(B)], [True]),
    ("nonzero_2d", _raw(s.nonzero_p, size=4, fill_value=9), [X > 0.5], [True]),
    ("nonzero_rank0", _raw(s.nonzero_p, size=2, fill_value=0), [np.array([0.0, 1.0, 2.0])], [True]),
    ("nonzero_size0", _raw(s.nonzero_p, size=0, fill_value=0), [X], [True]),
    (
        "dot_general_batch_dims_lhs",
        _raw(s.dot_general_p, dimension_numbers=(((2,), (1,)), ((0,), (0,)))),
        [normal(B, 2, 3, 4), normal(2, 4, 5)],
        [True, False],
    ),
    (
        "dot_general_batch_dims_rhs",
        _raw(s.dot_general_p, dimension_numbers=(((1,), (2,)), ((0,), (0,)))),
        [normal(2, 4, 3), normal(B, 2, 5, 4)],
        [False, True],
    ),
    (
        "dot_general_outer",
        _raw(s.dot_general_p, dimension_numbers=(((), ()), ((), ()))),
        [normal(B, 2), normal(B, 3)],
        [True, True],
    ),
]


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name,f,args,batched", RAW_CASES, ids=[c[0] for c in RAW_CASES])
def test_primitive(name, f, args, batched, jit):
    check(f, args, batched, jit)


def test_gather_raise_out_of_range():
    f = _raw(s.gather_p, mode="raise")
    with pytest.raises(IndexError):
        batched_call(f, [X, INDEXES + 4], [True, True])


def test_nonzero_without_size():
    with pytest.raises(NotImplementedError, match="nonzero"):
        batch_rules[s.nonzero_p](B, [X], (True,))


def test_vmap_inside_grad_of_sum():
    # a rule's output is an ordinary computation: differentiate through a vmapped gather + matmul
    w = normal(5, 2)

    def loss(w):
        def raw(x):
            y = wrap(x)[np.array([0, 2])] @ w
            return [ast.sum(y * y)._value]

        (per_example,) = vmap_raw(raw, [X], [True], B)
        return ast.sum(wrap(per_example))

    got = np.asarray(ast.grad(loss)(ast.asarray(w)))
    expected = sum(2 * X[b][[0, 2]].T @ (X[b][[0, 2]] @ w) for b in range(B))
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_every_primitive_has_a_batch_rule():
    no_operands = {p.iota_p}  # a batch rule runs only when some operand is batched
    declared = [
        v
        for module in (p, s)
        for v in vars(module).values()
        if isinstance(v, Primitive) and v not in no_operands
    ]
    missing = sorted({prim.name for prim in declared if prim not in batch_rules})
    assert not missing, f"no batch rule for {missing}"


def test_nested_vmap():
    # the rules of the inner vmap are recorded by the outer one: a per-(b, c) gather and matmul
    x = normal(B, 2, 4, 5)
    index = np.array([[3, 0], [1, 1]])  # per inner example
    w = normal(B, 5, 3)

    def outer(x, w):
        def inner(x, i):
            return [(wrap(x)[wrap(i)] @ wrap(w))._value]

        return vmap_raw(inner, [x, index], [True, True], 2)

    (got,) = vmap_raw(outer, [x, w], [True, True], B)
    expected = np.stack([np.stack([x[b, c][index[c]] @ w[b] for c in range(2)]) for b in range(B)])
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)
