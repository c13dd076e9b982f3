"""Gradient checking: derivatives against central finite differences in float64 (the `check_grads` fixture
of tests/conftest.py, for the autodiff, frontend and nn tests).

`check_grads(f, args)` takes f over arraystack arrays (positional float64 arrays, one output array or a tuple
of them) and checks, along random directions:
- forward mode: jvp(f, args, t) against (f(x + eps t) - f(x - eps t)) / (2 eps);
- reverse mode: the dot-product test <u, J t> == <vjp(u), t> with J t from finite differences;
- optionally the same under jit, and (`order=2`) the derivatives of the derivatives.
"""

from __future__ import annotations

import numpy

import arraystack as ast


def _flat(outs):
    outs = outs if isinstance(outs, (tuple, list)) else (outs,)
    return [
        numpy.asarray(
            o, dtype=numpy.complex128 if numpy.iscomplexobj(numpy.asarray(o)) else numpy.float64
        )
        for o in outs
    ]


def _call(f, xs):
    return _flat(f(*[ast.asarray(x) for x in xs]))


def _inner(a, b):
    return sum(numpy.vdot(x, y).real for x, y in zip(a, b))


def _random_like(rng, x):
    x = numpy.asarray(x)
    if numpy.iscomplexobj(x):
        return rng.standard_normal(x.shape) + 1j * rng.standard_normal(x.shape)
    return rng.standard_normal(x.shape)


def numeric_jvp(f, xs, ts, eps):
    plus = _call(f, [x + eps * t for x, t in zip(xs, ts)])
    minus = _call(f, [x - eps * t for x, t in zip(xs, ts)])
    return [(p - m) / (2 * eps) for p, m in zip(plus, minus)]


def _check(f, xs, rng, modes, eps, rtol, atol):
    ts = [_random_like(rng, x) for x in xs]
    fd = numeric_jvp(f, xs, ts, eps)
    if "fwd" in modes:
        _, tout = ast.jvp(f, tuple(ast.asarray(x) for x in xs), tuple(ast.asarray(t) for t in ts))
        got = _flat(tout)
        for g, e in zip(got, fd):
            numpy.testing.assert_allclose(
                g, e, rtol=rtol, atol=atol, err_msg="jvp vs finite differences"
            )
    if "rev" in modes:
        out, vjp_fn = ast.vjp(f, *[ast.asarray(x) for x in xs])
        outs = _flat(out)
        us = [_random_like(rng, o) for o in outs]
        cts = [
            ast.asarray(u.astype(o.dtype) if not numpy.iscomplexobj(o) else u)
            for u, o in zip(us, outs)
        ]
        if not isinstance(out, (tuple, list)):
            ct_arg = cts[0]
        else:
            ct_arg = type(out)(*cts) if hasattr(out, "_fields") else type(out)(cts)
        grads = [numpy.asarray(g) for g in vjp_fn(ct_arg)]
        # the VJP is the transpose of the JVP for the bilinear pairing Re(sum(u * v)) (JAX's convention)
        lhs = sum(numpy.sum(u * e).real for u, e in zip(us, fd))
        rhs = sum(numpy.sum(g * t).real for g, t in zip(grads, ts))
        scale = max(1.0, abs(lhs), abs(rhs))
        assert abs(lhs - rhs) <= rtol * scale + atol, f"vjp dot-product test: {lhs} vs {rhs}"


def check_grads(
    f, args, modes=("fwd", "rev"), order=1, eps=1e-6, rtol=1e-5, atol=1e-7, seed=0, jit=False
):
    rng = numpy.random.default_rng(seed)
    xs = [numpy.asarray(a) for a in args]
    fn = ast.jit(f) if jit else f
    _check(fn, xs, rng, modes, eps, rtol, atol)
    if order >= 2:
        # second order: differentiate the JVP along a fixed direction
        ts = [ast.asarray(_random_like(rng, x)) for x in xs]

        def first(*ys):
            return ast.jvp(f, tuple(ys), tuple(ts))[1]

        _check(first, xs, rng, modes, eps * 100, rtol * 100, atol * 100)
