"""Every primitive has an entry in every rule table, and the tables agree with each other.

Adding a primitive: declare it with its shape rule (jit/primitives.py or jit/structural.py), give it a
reference rule (jit/reference.py), and, unless it is a plain same-dtype unary/binary elementwise primitive
(those are sampled automatically), add a row to SAMPLES below. The reference-vs-shape-rule check evaluates
the reference rule on the sample operands of every dtype the shape rule accepts and requires the result's
shape and dtype to be what the shape rule says; that catches dtype drift between eager and traced code.

The tables keyed by primitive, each checked here for completeness: abstract_eval_rules (jit/primitives.py),
reference_rules (jit/reference.py), cost_rules (jit/cost.py), jvp_rules and vjp_rules (jit/ad/forward.py,
jit/ad/reverse.py; a gap is a `not_differentiable` entry with its reason in the jit/ad/ module that would
hold the rule), batch_rules (jit/ad/batching.py; iota has no operands, so it is never batched) and
numba_rules (backends/numba/lowering.py; a gap is a `reference_only` entry with its reason).
simplify_rules and host_rules are partial by design: a rewrite or a NumPy ufunc where one exists.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import warnings

import arraystack.ir
import arraystack.ir.ad as ad
import numpy as np
import pytest
from arraystack.backends.numba.lowering import numba_rules, reference_only
from arraystack.ir import (
    GraphBuilder,
    Literal,
    Primitive,
    ShapedArray,
    Var,
    graph_difference,
    parse_graph,
    print_graph,
    typecheck,
)
from arraystack.ir.cost import cost_rules
from arraystack.ir.primitives import abstract_eval_rules
from arraystack.ir.reference import reference_rules

DTYPES = [np.dtype(d) for d in ("bool", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8")] + [
    np.dtype(d) for d in ("f2", "f4", "f8", "c8", "c16")
]


def _declared_primitives() -> dict:
    """Every module-level Primitive in arraystack.ir and its subpackages, by name."""
    found = {}
    for info in pkgutil.walk_packages(arraystack.ir.__path__, "arraystack.ir."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Primitive):
                found.setdefault(value.name, set()).add(value)
    return found


DECLARED = _declared_primitives()
ALL_PRIMITIVES = sorted(
    set(abstract_eval_rules) | {p for ps in DECLARED.values() for p in ps}, key=str
)


def _not_differentiable() -> dict:
    """Primitive -> the reason it has no derivative rules, gathered from every module of jit/ad/."""
    reasons = {}
    for info in pkgutil.iter_modules(ad.__path__):
        module = importlib.import_module(f"arraystack.ir.ad.{info.name}")
        reasons.update(getattr(module, "not_differentiable", {}))
    return reasons


NOT_DIFFERENTIABLE = _not_differentiable()
NEVER_BATCHED = {p: "no operands, so never batched" for p in ALL_PRIMITIVES if p.name == "iota"}
REFERENCE_ONLY = {p: reference_only[p.name] for p in ALL_PRIMITIVES if p.name in reference_only}

# table name -> (table, its stated gaps: primitive -> reason). Every primitive has an entry or a stated gap;
# cupy_rules joins this list when the GPU backend is written.
TABLES = {
    "reference_rules": (reference_rules, {}),
    "cost_rules": (cost_rules, {}),
    "jvp_rules": (ad.jvp_rules, NOT_DIFFERENTIABLE),
    "vjp_rules": (ad.vjp_rules, NOT_DIFFERENTIABLE),
    "batch_rules": (ad.batch_rules, NEVER_BATCHED),
    "numba_rules": (numba_rules, REFERENCE_ONLY),
}


def test_primitive_names_are_unique():
    names = {}
    for prim in ALL_PRIMITIVES:
        names.setdefault(prim.name, []).append(prim)
    assert {n: ps for n, ps in names.items() if len(ps) > 1} == {}, (
        "the IR text names primitives uniquely"
    )


def test_every_declared_primitive_has_a_shape_rule():
    missing = [p.name for p in ALL_PRIMITIVES if p not in abstract_eval_rules]
    assert missing == [], f"primitives without a shape rule in abstract_eval_rules: {missing}"


@pytest.mark.parametrize("table_name", sorted(TABLES))
def test_every_primitive_has_an_entry_in_every_table(table_name):
    table, gaps = TABLES[table_name]
    missing = [p.name for p in ALL_PRIMITIVES if p not in table and p not in gaps]
    assert missing == [], f"{table_name} lacks rules (or a stated reason) for: {missing}"
    stray = [getattr(p, "name", repr(p)) for p in table if p not in abstract_eval_rules]
    assert stray == [], f"{table_name} has rules for undeclared primitives: {stray}"


@pytest.mark.parametrize("table_name", sorted(TABLES))
def test_stated_gaps_have_reasons_and_hide_no_rule(table_name):
    table, gaps = TABLES[table_name]
    empty = [p.name for p, reason in gaps.items() if not (isinstance(reason, str) and reason)]
    assert empty == [], f"{table_name}: gaps without a reason: {empty}"
    shadowed = [p.name for p in gaps if p in table]
    assert shadowed == [], f"{table_name}: primitives listed as gaps that have a rule: {shadowed}"


def test_reference_only_names_declared_primitives():
    names = {p.name for p in abstract_eval_rules}
    assert set(reference_only) <= names, set(reference_only) - names


# -- reference rules agree with shape rules -----------------------------------------------------------------


def sample(dtype, shape=(2, 3)):
    """Small, valid operands: positive values below 1 for floats (every function is defined there)."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    if dtype.kind == "b":
        return (np.arange(n) % 2 == 0).reshape(shape)
    if dtype.kind in "iu":
        return (np.arange(n) % 5 + 1).astype(dtype).reshape(shape)
    real = np.linspace(0.1, 0.9, n)
    if dtype.kind == "c":
        return (real + 0.25j * real[::-1]).astype(dtype).reshape(shape)
    return real.astype(dtype).reshape(shape)


def _scalar(dtype):
    return sample(dtype, ())[()]


def _idx(*values):
    return np.array(values, dtype=np.int64)


def _fusion_graph(dtype):
    b = GraphBuilder()
    x = Var(ShapedArray((2, 3), dtype))
    (y,) = b.emit(_prim("add"), [x, x])
    return b.build([x], [y, x])


def _prim(name):
    return next(p for p in ALL_PRIMITIVES if p.name == name)


def _graph(in_avals, body):
    """A sub-graph: `body(builder, *input_vars) -> output atoms`."""
    b = GraphBuilder()
    xs = [Var(a) for a in in_avals]
    return b.build(xs, body(b, *xs))


def _emit(b, name, *inputs, **params):
    return b.emit(_prim(name), inputs, params)[0]


I64 = ShapedArray((), np.dtype(np.int64))


def _switch_cases(d):
    x = ShapedArray((2, 3), d)
    branches = (
        _graph([x], lambda b, v: [_emit(b, "add", v, v)]),
        _graph([x], lambda b, v: [_emit(b, "mul", v, v)]),
    )
    return [([np.int32(k), sample(d)], {"branches": branches}) for k in (0, 1, 5)]


def _while_cases(d):
    x = ShapedArray((2, 3), d)
    three, one = Literal(np.int64(3), I64), Literal(np.int64(1), I64)
    cond = _graph([I64, x], lambda b, i, v: [_emit(b, "lt", i, three)])
    body = _graph([I64, x], lambda b, i, v: [_emit(b, "add", i, one), _emit(b, "add", v, v)])
    params = {"cond": cond, "body": body, "cond_nconsts": 0, "body_nconsts": 0}
    return [([np.int64(0), sample(d)], params)]


def _scan_cases(d):
    row = ShapedArray((3,), d)
    body = _graph([row, row], lambda b, c, x: [_emit(b, "add", c, x), c])
    return [
        (
            [sample(d, (3,)), sample(d, (n, 3))],
            {"body": body, "nconsts": 0, "ncarry": 1, "length": n, "reverse": r},
        )
        for n, r in ((2, False), (3, True), (0, False))
    ]


# name -> function(dtype) -> list of (operands, params); dtypes the shape rule rejects are skipped.
def _spd(d, batch=()):
    """A well-conditioned (diagonally dominant, positive definite) matrix for the linalg primitives."""
    return (sample(d, batch + (3, 3)) + 3 * np.eye(3)).astype(d)


SAMPLES = {
    # linear algebra (jit/linalg.py)
    "cholesky": lambda d: [([_spd(d, (2,))], {"upper": u}) for u in (False, True)],
    "solve": lambda d: [([_spd(d), sample(d, (3, 2))], {})],
    "det": lambda d: [([_spd(d)], {}), ([_spd(d, (2,))], {})],
    "slogdet": lambda d: [([_spd(d, (2,))], {})],
    "eigh": lambda d: [([_spd(d)], {"lower": True})],
    "eigvalsh": lambda d: [([_spd(d)], {"lower": False})],
    "eig": lambda d: [([_spd(d)], {})],
    "eigvals": lambda d: [([_spd(d, (2,))], {})],
    "svd": lambda d: [
        ([sample(d, (2, 4, 3))], {"full_matrices": f, "hermitian": False}) for f in (True, False)
    ] + [([_spd(d)], {"full_matrices": False, "hermitian": True})],
    "svdvals": lambda d: [([sample(d, (4, 3))], {"hermitian": False}), ([_spd(d)], {"hermitian": True})],
    "qr": lambda d: [([sample(d, (4, 3))], {"mode": m}) for m in ("reduced", "complete", "raw")],
    "lstsq": lambda d: [([sample(d, (4, 3)), sample(d, (4, 2))], {"rcond": 1e-10})],
    "select": lambda d: [
        ([sample(bool), sample(d), sample(d)[::-1]], {}),
        ([True, sample(d), _scalar(d)], {}),
    ],
    "ldexp": lambda d: [([sample(d), sample(n)], {}) for n in ("i4", "i8")],
    "convert": lambda d: (
        [([sample(d)], {"dtype": t}) for t in DTYPES]
        + [([sample(d)], {"dtype": np.dtype("f8"), "weak_type": True})]
    ),
    "iota": lambda d: [
        ([], {"dtype": d, "shape": (2, 3), "dimension": 1}),
        ([], {"dtype": d, "shape": (4,), "dimension": 0}),
    ],
    "full": lambda d: [
        ([_scalar(d)], {"shape": (2, 3), "dtype": d}),
        ([0], {"shape": (0, 2), "dtype": d}),
    ],
    "reshape": lambda d: [([sample(d)], {"new_sizes": (3, 2)}), ([sample(d)], {"new_sizes": (6,)})],
    "broadcast_in_dim": lambda d: [
        ([sample(d, (3,))], {"shape": (2, 3), "broadcast_dimensions": (1,)}),
        ([sample(d, ())], {"shape": (2, 3), "broadcast_dimensions": ()}),
    ],
    "transpose": lambda d: [([sample(d)], {"permutation": (1, 0)})],
    "slice": lambda d: [
        ([sample(d)], {"start_indices": (0, 1), "limit_indices": (2, 3), "strides": (1, 2)})
    ],
    "rev": lambda d: [([sample(d)], {"dimensions": (1,)}), ([sample(d)], {"dimensions": ()})],
    "concatenate": lambda d: [([sample(d), sample(d)], {"dimension": 0})],
    "pad": lambda d: [([sample(d), _scalar(d)], {"padding_config": ((1, 0, 0), (0, 2, 1))})],
    "bitcast": lambda d: [
        ([sample(d)], {"dtype": np.dtype(t)})
        for t in {1: ("u1", "i1"), 2: ("i2", "f2"), 4: ("f4", "u2"), 8: ("i8", "f4"), 16: ("c8",)}[d.itemsize]
    ],
    "update_slice": lambda d: [
        ([sample(d), sample(d, (1, 2))], {"start_indices": (1, 0), "limit_indices": (2, 3), "strides": (1, 2)}),
        ([sample(d, ()), sample(d, ())], {"start_indices": (), "limit_indices": (), "strides": ()}),
    ],
    "gather": lambda d: [
        ([sample(d), _idx(1, 0, -1, 5)], {"mode": "clip"}),
        ([sample(d), _idx(1, 0, -1), _idx(2, 0, 1)], {"mode": "raise"}),
    ],
    "scatter": lambda d: [
        ([sample(d), sample(d, (4, 3)), _idx(1, 0, 1, -1)], {"mode": "clip", "update": u})
        for u in ("set", "add", "mul", "min", "max")
    ],
    "nonzero": lambda d: [
        ([sample(d)], {"size": 4, "fill_value": 0}),
        ([sample(d, ())], {"size": 1}),
    ],
    "argmax": lambda d: [([sample(d)], {"axis": 1})],
    "sort": lambda d: [
        ([sample(d)], {"dimension": 1, "num_keys": 1, "kind": "quicksort"}),
        ([sample(d), sample(d)[::-1], sample("i8")], {"dimension": 0, "num_keys": 2, "kind": "stable"}),
    ],
    "partition": lambda d: [([sample(d)], {"kth": (1,), "axis": 1})],
    "argpartition": lambda d: [([sample(d)], {"kth": (0, 1), "axis": 0})],
    "searchsorted": lambda d: [([sample(d, (6,)), sample(d)], {"side": s}) for s in ("left", "right")],
    "argmin": lambda d: [([sample(d)], {"axis": 0})],
    "dot_general": lambda d: [
        ([sample(d, (2, 3)), sample(d, (3, 4))], {"dimension_numbers": (((1,), (0,)), ((), ()))}),
        (
            [sample(d, (2, 3, 4)), sample(d, (2, 4, 5))],
            {"dimension_numbers": (((2,), (1,)), ((0,), (0,)))},
        ),
    ],
    "fusion": lambda d: [([sample(d)], {"graph": _fusion_graph(d)})],
    "switch": _switch_cases,
    "while": _while_cases,
    "scan": _scan_cases,
    "optimization_barrier": lambda d: [([sample(d), sample(d, ())], {})],
    "attention": lambda d: [
        ([sample(d, (2, 3, 4)), sample(d, (2, 5, 4)), sample(d, (2, 5, 3)), *masks], {"scale": 0.5, "causal": c})
        for masks, c in (((), False), ((sample(bool, (2, 3, 5)), sample(d, (1, 1, 5))), True))
    ],
    "attention_grad": lambda d: [
        (
            [sample(d, (2, 3, 4)), sample(d, (2, 5, 4)), sample(d, (2, 5, 3)), *masks]
            + [sample(d, (2, 3, 3)), sample(d, (2, 3)), sample(d, (2, 3, 3)), sample(d, (2, 3))],
            {"scale": 0.5, "causal": c},
        )
        for masks, c in (((), True), ((sample(bool, (1, 3, 5)),), False))
    ],
    "fft": lambda d: [
        ([sample(d, (2, 4))], {"fft_type": k, "axes": (1,), "lengths": (4,), "norm": "ortho"})
        for k in ("fft", "ifft", "rfft")
    ] + [([sample(d)], {"fft_type": "irfft", "axes": (0, 1), "lengths": (2, 5), "norm": "forward"})],
}
for _name in ("reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or"):
    SAMPLES[_name] = lambda d: [([sample(d)], {"axes": axes}) for axes in ((1,), (0, 1), ())]
for _name in ("cumsum", "cumprod", "cummax", "cummin"):
    SAMPLES[_name] = lambda d: [
        ([sample(d)], {"axis": 1}),
        ([sample(d)], {"axis": 0, "reverse": True}),
    ]


def _elementwise_arity(prim):
    """1 or 2 for a primitive whose rule takes that many same-dtype operands and no params, else None."""
    params = inspect.signature(abstract_eval_rules[prim]).parameters.values()
    if any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in params) or len(params) not in (1, 2):
        return None
    return len(params)


def _cases(prim, dtype):
    if prim.name in SAMPLES:
        return SAMPLES[prim.name](dtype)
    arity = _elementwise_arity(prim)
    if arity is None:
        return None
    x = sample(dtype)
    if arity == 1:
        return [([x], {}), ([sample(dtype, ())], {})]
    return [
        ([x, x[::-1]], {}),
        ([x, _scalar(dtype)], {}),
        ([sample(dtype, (0,)), sample(dtype, (0,))], {}),
    ]


def _aval(x):
    if isinstance(x, bool):
        return ShapedArray((), np.dtype(bool))
    return ShapedArray(np.shape(x), np.asarray(x).dtype)


@pytest.mark.parametrize("prim", ALL_PRIMITIVES, ids=lambda p: p.name)
def test_reference_rule_results_have_the_shape_and_dtype_of_the_shape_rule(prim):
    if _cases(prim, DTYPES[0]) is None:
        pytest.fail(f"add a row for {prim.name} to SAMPLES in tests/test_rule_coverage.py")
    checked = 0
    for dtype in DTYPES:
        for operands, params in _cases(prim, dtype):
            try:
                expected = abstract_eval_rules[prim](*[_aval(x) for x in operands], **params)
            except (TypeError, ValueError, IndexError):
                continue  # the shape rule rejects this dtype or combination
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = reference_rules[prim](np, *operands, **params)
            expected = tuple(expected) if prim.multiple_results else (expected,)
            results = tuple(result) if prim.multiple_results else (result,)
            assert len(results) == len(expected), (
                f"{prim.name}: {len(results)} results, rule says {len(expected)}"
            )
            for r, aval in zip(results, expected):
                got = (np.shape(r), np.asarray(r).dtype)
                assert got == (aval.shape, aval.dtype), (
                    f"{prim.name} on {[_aval(x).str_short() for x in operands]} with {params}: reference "
                    f"gives {got[1]}{list(got[0])}, shape rule gives {aval.str_short()}"
                )
            checked += 1
    assert checked, f"the shape rule of {prim.name} accepted none of its samples"


@pytest.mark.parametrize("prim", ALL_PRIMITIVES, ids=lambda p: p.name)
def test_every_primitive_round_trips_through_ir_text(prim):
    """Every accepted sample eqn, with its real params, prints and parses back to an equal graph."""
    checked = 0
    for dtype in DTYPES:
        for operands, params in _cases(prim, dtype) or []:
            b = GraphBuilder()
            inputs = [Var(_aval(x)) for x in operands]
            try:
                outputs = b.emit(prim, inputs, params, source="sample.py:1")
            except (TypeError, ValueError, IndexError):
                continue
            graph = b.build(inputs, outputs)
            text = print_graph(graph)
            parsed = parse_graph(text)
            typecheck(parsed)
            assert graph_difference(graph, parsed) is None, text
            assert print_graph(parsed) == text
            checked += 1
    assert checked, f"no sample of {prim.name} is accepted by its shape rule"
