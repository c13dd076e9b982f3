"""arraystack.from_jax: JAX programs converted to arraystack's primitives give jax.jit's results on the
same inputs (float32 within 1e-6 relative to the result's magnitude, integers exactly), are
differentiated by arraystack's own grad (against jax.grad), and compose with arraystack's jit and vmap.
The coverage table of the guide page agrees with the converter and with the primitives JAX defines."""

from __future__ import annotations

import importlib
import pathlib

import numpy
import pytest

jax = pytest.importorskip("jax", reason="from_jax traces JAX functions: needs jax and jaxlib")

import jax.numpy as jnp
import jax.scipy.special as jsp
from jax import lax

import arraystack as ast
from arraystack.jax_import import (
    JaxConversionError,
    UnsupportedPrimitiveError,
    coverage_table,
)
from arraystack.jax_import.coverage import UNSUPPORTED
from arraystack.jax_import.interpreter import conversion_rules

RNG = numpy.random.default_rng(26)
X = RNG.standard_normal((3, 4)).astype(numpy.float32)
GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide" / "from_jax.md"


def same(got, want, rtol=1e-6):
    """Leaves equal: one dtype and shape; floats within rtol of the result's magnitude, others exact."""
    got_leaves, want_leaves = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert len(got_leaves) == len(want_leaves)
    for g, w in zip(got_leaves, want_leaves):
        assert isinstance(g, ast.ndarray)
        g, w = numpy.asarray(g), numpy.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        if w.dtype.kind in "fc":
            scale = float(numpy.max(numpy.abs(w[numpy.isfinite(w)]), initial=1.0))
            numpy.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * scale)
        else:
            numpy.testing.assert_array_equal(g, w)


def mlp_params():
    return {
        "w1": RNG.standard_normal((4, 8)).astype(numpy.float32) * 0.5,
        "b1": RNG.standard_normal(8).astype(numpy.float32) * 0.1,
        "w2": RNG.standard_normal((8, 3)).astype(numpy.float32) * 0.5,
        "b2": numpy.zeros(3, numpy.float32),
    }


def mlp(params, x):
    h = jax.nn.gelu(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def mlp_loss(params, x, labels):
    logits = mlp(params, x)
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))


def rnn(w, xs):
    def step(h, x):
        h = jnp.tanh(h @ w + x)
        return h, jnp.sum(h)

    return lax.scan(step, jnp.zeros(4, jnp.float32), xs)


INDEX = numpy.array([2, 0, 2], numpy.int32)

PROGRAMS = {
    "elementwise": lambda x: jnp.sin(x) * 2 + jnp.exp(x) / 3 - x**3 + jnp.sqrt(jnp.abs(x)),
    "more_math": lambda x: (
        jnp.arctan2(x, 2.0),
        jnp.log1p(jnp.abs(x)),
        jnp.expm1(x),
        jnp.cbrt(x),
        lax.rsqrt(jnp.abs(x) + 1),
        jnp.round(x * 3),
        lax.round(x * 3, lax.RoundingMethod.AWAY_FROM_ZERO),
        jnp.clip(x, -0.5, 0.5),
        jnp.sign(x),
        jnp.abs(x) ** 2.5,
    ),
    "integers": lambda x: (
        (x * 10).astype(jnp.int32) // 3,
        (x * 10).astype(jnp.int32) % 3,
        lax.rem((x * 10).astype(jnp.int32), 3),
        lax.div((x * 10).astype(jnp.int32), 3),
        lax.shift_right_logical((x * 10).astype(jnp.int32), 1),
        lax.clz((x * 100).astype(jnp.int32)),
        lax.population_count((x * 100).astype(jnp.int32)),
        (x > 0) & (x < 1),
    ),
    "reductions": lambda x: (
        jnp.sum(x, 0),
        jnp.max(x),
        jnp.min(x, 1),
        jnp.prod(x, 1),
        jnp.argmax(x, 1),
        jnp.argmin(x, 0),
        jnp.all(x > -3),
        jnp.any(x > 1, axis=0),
        jnp.mean(x, 1),
        jnp.var(x),
    ),
    "contractions": lambda x: (x @ x.T, jnp.einsum("ij,kj->ik", x, x), jnp.dot(x[0], x[1])),
    "shapes": lambda x: (
        x[1:, ::2],
        x[::-1],
        x.reshape(4, 3).T,
        jnp.concatenate([x, x], 1),
        jnp.pad(x, ((1, 0), (0, 2))),
        jnp.stack([x, x]),
        jnp.tile(x, (2, 1)),
        jnp.split(x, 2, axis=1),
        jnp.expand_dims(x, 0).squeeze(),
        jnp.broadcast_to(x[:, :1], (3, 4)),
    ),
    "gather": lambda x: (
        x[INDEX],
        x[:, INDEX],
        x[INDEX, INDEX],
        x[jnp.array([-1, 0])],
        jnp.take(x, jnp.array([0, 7, 11])),
        jnp.take_along_axis(x, jnp.argsort(x, axis=1), 1),
        lax.dynamic_slice(x, (1, 2), (2, 2)),
        lax.dynamic_slice(x, (2, 3), (2, 2)),  # clamped starts
    ),
    "scatter": lambda x: (
        x.at[INDEX].add(1.0),
        x.at[1, 2].set(7.0),
        x.at[:, jnp.array([0, 3])].multiply(2.0),
        x.at[jnp.array([0, 5])].set(9.0),  # index 5 is out of bounds: dropped
        x.at[INDEX, 1].max(0.5),
        x.at[INDEX].min(-0.5),
        lax.dynamic_update_slice(x, jnp.ones((2, 2), x.dtype), (2, 3)),
    ),
    "where": lambda x: (jnp.where(x > 0, x, 0.1 * x), jnp.where(x > 0.5, 1, 0)),
    "softmax_logsumexp": lambda x: (
        jax.nn.softmax(x),
        jax.nn.log_softmax(x, axis=0),
        jax.nn.logsumexp(x, axis=1),
    ),
    "activations": lambda x: (
        jax.nn.relu(x),
        jax.nn.gelu(x),
        jax.nn.gelu(x, approximate=False),
        jax.nn.silu(x),
        jax.nn.softplus(x),
        jax.nn.elu(x),
        jax.nn.leaky_relu(x),
        jax.nn.sigmoid(x),
        jax.nn.relu6(x),
        jax.nn.standardize(x),
    ),
    "sorting_and_cumulative": lambda x: (
        jnp.sort(x, axis=1),
        jnp.argsort(x, axis=0),
        lax.top_k(x, 2),
        jnp.cumsum(x, 1),
        jnp.cumprod(x, 0),
        lax.cummax(x, axis=1, reverse=True),
        lax.cumlogsumexp(x, 1),
    ),
    "cond": lambda x: (
        lax.cond(x.sum() > 0, lambda y: y * 2, lambda y: y - 1, x),
        lax.cond(x.sum() < 0, lambda y: y * 2, lambda y: y - 1, x),
        lax.switch(2, [jnp.sin, jnp.cos, jnp.tanh], x),
    ),
    "loops": lambda x: (
        lax.fori_loop(0, 3, lambda k, c: c * 2 + k, x),
        lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 1.1), (0, x))[1],
    ),
    "pooling_and_conv": lambda x: (
        lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (1, 1), "SAME"),
        lax.reduce_window(x, 0.0, lax.add, (2, 3), (1, 2), "VALID"),
        lax.conv_general_dilated(
            x[None, None], jnp.ones((2, 1, 2, 2), x.dtype), (1, 1), "SAME", rhs_dilation=(1, 2)
        ),
    ),
    "fft": lambda x: (jnp.fft.fft(x), jnp.fft.rfft(x), jnp.fft.irfft(jnp.fft.rfft(x), n=4)),
    "special_functions": lambda x: (
        lax.lgamma(jnp.abs(x) + 0.1),
        jsp.gammaln(x * 3),  # negative arguments too
        lax.digamma(jnp.abs(x) + 0.1),
        jsp.betaln(jnp.abs(x) + 0.5, 2.5),
        lax.erfc(x * 3),
        lax.erf_inv(x / 4),
        jsp.ndtri(jnp.abs(x) / 4),
        jsp.log_ndtr(x * 10),
    ),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_give_jax_jit_results(name):
    fn = PROGRAMS[name]
    same(ast.from_jax(fn)(X), jax.jit(fn)(X))


def test_mlp_forward_and_loss():
    params, labels = mlp_params(), numpy.array([0, 2, 1], numpy.int32)
    same(ast.from_jax(mlp)(params, X), jax.jit(mlp)(params, X))
    same(ast.from_jax(mlp_loss)(params, X, labels), jax.jit(mlp_loss)(params, X, labels))


def test_scan_rnn():
    w = RNG.standard_normal((4, 4)).astype(numpy.float32) * 0.5
    xs = RNG.standard_normal((6, 4)).astype(numpy.float32)
    same(ast.from_jax(rnn)(w, xs), jax.jit(rnn)(w, xs))


def test_grad_of_a_converted_function_matches_jax_grad():
    params, labels = mlp_params(), numpy.array([0, 2, 1], numpy.int32)
    got = ast.grad(ast.from_jax(mlp_loss))(params, X, labels)
    same(got, jax.grad(mlp_loss)(params, X, labels), rtol=1e-5)
    w = RNG.standard_normal((4, 4)).astype(numpy.float32) * 0.5
    xs = RNG.standard_normal((5, 4)).astype(numpy.float32)

    def rnn_loss(w, xs):
        h, ys = rnn(w, xs)
        return jnp.sum(h**2) + jnp.sum(ys)

    same(ast.grad(ast.from_jax(rnn_loss))(w, xs), jax.grad(rnn_loss)(w, xs), rtol=1e-5)

    def indexing_loss(x):  # gather, scatter, cond and a fori loop on the way
        y = x.at[INDEX].add(x[1]) * x[:, INDEX].sum()
        y = lax.cond(y.sum() > 0, jnp.sin, jnp.cos, y)
        return lax.fori_loop(0, 2, lambda k, c: c * 1.5, y).sum()

    same(ast.grad(ast.from_jax(indexing_loss))(X), jax.grad(indexing_loss)(X), rtol=1e-5)


def test_jit_of_a_converted_function_compiles_it():
    params, labels = mlp_params(), numpy.array([0, 2, 1], numpy.int32)
    jitted = ast.jit(ast.from_jax(mlp_loss), tiered=False)
    same(jitted(params, X, labels), jax.jit(mlp_loss)(params, X, labels))
    w = RNG.standard_normal((4, 4)).astype(numpy.float32) * 0.5
    xs = RNG.standard_normal((6, 4)).astype(numpy.float32)
    same(ast.jit(ast.from_jax(rnn))(w, xs), jax.jit(rnn)(w, xs))


def test_checkpoint_names_come_through_for_the_policies():
    from jax.ad_checkpoint import checkpoint_name

    f = ast.from_jax(lambda x: checkpoint_name(jnp.sin(x), "a") * 2.0)
    x = numpy.linspace(0.0, 1.0, 5)
    traced = ast.jit(f).lower(x).as_text().split("# after passes")[0]
    assert traced.count("checkpoint_name[name='a']") == 1
    policy = ast.checkpoint_policies.save_only_these_names("a")
    g = ast.grad(ast.checkpoint(lambda v: ast.sum(f(v)), policy=policy))(x)
    numpy.testing.assert_allclose(numpy.asarray(g), 2.0 * numpy.cos(x), rtol=1e-6)  # JAX's float32


def test_a_scans_unroll_comes_through():
    def f(xs, unroll):
        return lax.scan(lambda c, x: (c * 0.5 + x, c), 0.0, xs, unroll=unroll, reverse=True)

    xs = numpy.arange(7.0, dtype=numpy.float32)
    for unroll, copies in [(1, 1), (3, 4), (True, 7)]:  # 3: two blocks of 3, then one of 1
        g = ast.from_jax(lambda v, u=unroll: f(v, u))
        for got, expected in zip(g(xs), jax.jit(f, static_argnums=1)(xs, unroll)):
            numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(expected))
        assert ast.jit(g).lower(xs).as_text().split("# after passes")[0].count(" mul ") == copies


def test_vmap_of_a_converted_function_matches_jax_vmap():
    params = mlp_params()
    xs = RNG.standard_normal((5, 3, 4)).astype(numpy.float32)

    def f(x):
        return mlp(params, x).sum(axis=1) + x[INDEX].sum()

    same(ast.vmap(ast.from_jax(f))(xs), jax.vmap(f)(xs))
    g = ast.vmap(ast.grad(ast.from_jax(lambda x: jnp.sum(jnp.tanh(x) ** 2))))
    same(g(xs), jax.vmap(jax.grad(lambda x: jnp.sum(jnp.tanh(x) ** 2)))(xs), rtol=1e-5)


def test_prng_bits_equal_jax():
    def sample(seed):
        key = jax.random.PRNGKey(seed)
        k1, k2 = jax.random.split(key)
        typed = jax.random.fold_in(jax.random.key(7), seed)
        return (
            jax.random.normal(k1, (6,)),
            jax.random.uniform(k2, (2, 3)),
            jax.random.randint(typed, (4,), 0, 10),
            jax.random.bernoulli(k1, 0.3, (5,)),
            jax.random.bits(k2, (3,)),
        )

    same(ast.from_jax(sample)(numpy.int32(3)), jax.jit(sample)(3))


def test_closed_over_constants_and_static_arguments():
    table = jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4)

    def f(x, power):
        return (x + table) ** power

    g = ast.from_jax(f, static_argnums=1)
    same(g(X, 2), jax.jit(f, static_argnums=1)(X, 2))
    same(g(X, 3), jax.jit(f, static_argnums=1)(X, 3))
    assert len(g.cache) == 2


def test_one_trace_per_signature_and_jax_dtypes():
    f = ast.from_jax(lambda x: x * 2)
    f(X)
    f(X + 1)
    assert len(f.cache) == 1
    out = f(numpy.ones(2))  # float64 runs as float32, as under jax.jit without x64
    assert out.dtype == numpy.float32 and len(f.cache) == 2
    same(f(ast.asarray(X)), jax.jit(lambda x: x * 2)(X))
    assert f(3.0).dtype == numpy.float32  # a Python scalar is weakly typed, as in JAX


def test_unsupported_primitive_names_itself_and_where_it_is():
    @jax.jit
    def inner(x):
        return lax.reduce_precision(x, exponent_bits=5, mantissa_bits=2)

    with pytest.raises(UnsupportedPrimitiveError) as info:
        ast.from_jax(lambda x: inner(x) + 1)(X)
    message = str(info.value)
    assert "`reduce_precision`" in message and "jit[name=inner]" in message
    assert "test_from_jax.py" in message and "narrower float format" in message


def test_a_rule_refusing_params_names_the_primitive():
    w = jnp.ones((1, 1, 2), jnp.float32)
    padded = lambda x: lax.conv_general_dilated(x, w, (1,), [(-1, 0)])  # noqa: E731 (negative padding)
    with pytest.raises(JaxConversionError, match="conv_general_dilated"):
        ast.from_jax(padded)(numpy.ones((1, 1, 6), numpy.float32))


def _jax_primitive_names() -> set:
    from jax._src import core

    modules = [
        "jax._src.lax.lax",
        "jax._src.lax.slicing",
        "jax._src.lax.control_flow.loops",
        "jax._src.lax.control_flow.conditionals",
        "jax._src.lax.control_flow.solves",
        "jax._src.lax.windowed_reductions",
        "jax._src.lax.convolution",
        "jax._src.lax.linalg",
        "jax._src.lax.fft",
        "jax._src.lax.special",
        "jax._src.lax.parallel",
        "jax._src.lax.ann",
        "jax._src.random.prng",
        "jax._src.random.threefry2x32",
        "jax._src.custom_derivatives",
        "jax._src.pjit",
        "jax._src.ad_checkpoint",
        "jax._src.ad_util",
        "jax._src.dispatch",
        "jax._src.callback",
        "jax._src.debugging",
        "jax._src.core",
    ]
    names = set()
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError:  # another JAX version lays its modules out differently
            continue
        names |= {v.name for v in vars(module).values() if isinstance(v, core.Primitive)}
    return names


def test_every_jax_primitive_is_converted_or_listed_with_a_reason():
    names = _jax_primitive_names()
    jax_rules = conversion_rules()
    assert len(names) > 150
    assert sorted(names - set(jax_rules) - set(UNSUPPORTED)) == []
    assert sorted(set(jax_rules) & set(UNSUPPORTED)) == []
    assert all(reason for reason in UNSUPPORTED.values())


def test_the_guide_shows_the_coverage_table_of_the_code():
    text = GUIDE.read_text("utf-8")
    start = text.index("<!-- coverage table: start -->") + len("<!-- coverage table: start -->\n")
    end = text.index("<!-- coverage table: end -->")
    assert text[start:end] == coverage_table(), (
        "regenerate it: python -c 'import arraystack.jax_import as j; print(j.coverage_table())'"
    )
