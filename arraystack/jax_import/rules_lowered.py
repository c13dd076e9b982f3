"""Conversion rules of the lax primitives that JAX itself lowers as lax programs (`mlir.lower_fun` of a
Python implementation): the incomplete gamma and beta functions, bessel_i0e and the gamma sampler.

The rule traces JAX's implementation with `jax.make_jaxpr` on the equation's avals and converts that
jaxpr (interpreter.py's convention), so the values are JAX's own algorithm, step for step (the gamma
sampler draws the same numbers as JAX's). Derivatives are JAX's rules, attached by
`arraystack.custom_jvp` where JAX defines one (igamma, igammac: closed forms and igamma_grad_a; the
sampler: implicit reparameterization through random_gamma_grad); elsewhere arraystack differentiates
the converted program (forward mode through its loops; reverse mode through a while_loop raises
arraystack's NotDifferentiableError, as JAX's own would for the same program).
"""

from __future__ import annotations

from functools import partial

import numpy

import arraystack
from arraystack._core.array import raw, wrap

lowered_rules: dict = {}


def _traced(site, function, operands, label: str):
    """function (a Python function of JAX arrays) traced on the avals of `operands` and converted."""
    import jax

    avals = [jax.ShapeDtypeStruct(numpy.shape(v), numpy.dtype(v.dtype)) for v in operands]
    closed = jax.make_jaxpr(function)(*avals)
    with numpy.errstate(all="ignore"):  # also where a derivative runs it outside from_jax's call
        return site.run(closed, operands, f" ({label}, JAX's lax implementation)")[0]


def _special():
    from jax._src.lax import special

    return special


def _binary(name, derivative=None):
    """A rule for lax.special's `name`, computed by its `name`_impl (float16/bfloat16 upcast and
    broadcast as JAX's lowering does); `derivative(a, x, value) -> (d/da, d/dx)` makes it a custom_jvp
    function."""

    def rule(site, *operands, **params):
        special = _special()
        impl = special._up_and_broadcast(
            partial(getattr(special, f"{name}_impl"), dtype=site.out_avals[0].dtype)
        )

        def value(*args):
            return _traced(site, impl, [raw(v) for v in args], name)

        if derivative is None:
            return value(*[wrap(v) for v in operands])
        function = arraystack.custom_jvp(lambda *args: wrap(value(*args)))

        @function.defjvp
        def jvp(primals, tangents):
            out = function(*primals)
            slopes = derivative(site, *primals)
            return out, sum(s * t for s, t in zip(slopes, tangents))

        return raw(function(*[wrap(v) for v in operands]))

    return rule


def _igamma_slopes(site, a, x):
    """JAX's igamma_grada and igamma_gradx: igamma_grad_a(a, x) and exp(-x + (a - 1) log x - lgamma(a))."""
    from arraystack.scipy.special import gammaln

    grad_a = wrap(_binary("igamma_grad_a")(site, raw(a), raw(x)))
    with numpy.errstate(all="ignore"):
        grad_x = arraystack.exp(-x + (a - 1) * arraystack.log(x) - gammaln(a).astype(x.dtype))
    return grad_a, grad_x


def _igammac_slopes(site, a, x):
    grad_a, grad_x = _igamma_slopes(site, a, x)
    return -grad_a, -grad_x


lowered_rules["igamma"] = _binary("igamma", _igamma_slopes)
lowered_rules["igammac"] = _binary("igammac", _igammac_slopes)
lowered_rules["igamma_grad_a"] = _binary("igamma_grad_a")
lowered_rules["regularized_incomplete_beta"] = _binary("regularized_incomplete_beta")


def _bessel_i0e(site, x, **params):
    return _traced(site, _special().bessel_i0e_impl, [x], "bessel_i0e")


lowered_rules["bessel_i0e"] = _bessel_i0e


def _random_gamma(site, key, a, *, log_space, **params):
    """jax.random.gamma's sampler: JAX's rejection loop (Marsaglia and Tsang's method) on the key's
    threefry bits; the derivative in `a` is JAX's implicit one (random_gamma_grad)."""
    import jax
    import jax._src.random.core as random_core

    def sample(data, alpha):
        keys = jax.random.wrap_key_data(data, impl="threefry2x32")
        return random_core._gamma_impl(keys, alpha, log_space=log_space, use_vmap=True)

    def slope(draw, alpha):
        return random_core._gamma_grad(draw, alpha, log_space=log_space)

    @arraystack.custom_jvp
    def gamma(alpha):
        return wrap(_traced(site, sample, [key, raw(alpha)], "random_gamma"))

    @gamma.defjvp
    def gamma_jvp(primals, tangents):
        (alpha,), (d_alpha,) = primals, tangents
        draw = gamma(alpha)
        return draw, d_alpha * wrap(_traced(site, slope, [raw(draw), raw(alpha)], "its derivative"))

    return raw(gamma(wrap(a)))


lowered_rules["random_gamma"] = _random_gamma
