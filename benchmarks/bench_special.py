"""arraystack.scipy.special's gamma, error-function and Bessel families against SciPy and
jax.scipy.special (float64, if jax is installed): the worst error in ulp against exact values (mpmath) on
a grid per function, and the time of one call on `size` float64 values (arraystack: the compiled tier of
jit), in one run.

    python benchmarks/bench_special.py [--size N] [--rounds N] [--threads N] [--only NAME ...]

The grids cover each function's hard places: gammaln's zeros at 1 and 2, digamma's at 1.46, the tails of
erfc, ndtr and log_ndtr out to subnormal results, erfcinv and ndtri down to 1e-300, gamma's negative
axis, the Bessel functions' switch from series to asymptotic at 20. Systems are timed
interleaved (bench_jit.interleaved); times are medians in ms.

Measured on a shared 2-core VM, --threads 1, --size 1000000 (jax 0.10 with x64; SciPy 1.17):

    function    ulp: arraystack      scipy        jax   ms: arraystack    scipy  jax.jit
    gammaln                   6        196   2.11e+03            59.71    30.48    41.68
    digamma                   2          2   2.57e+03            59.69    32.11    57.51
    erfc                      2         26         23            40.60    27.53     5.44
    erfcx                     4         17         17            45.60    27.52     8.31
    ndtr                      4         31         32            40.25    30.43    37.81
    log_ndtr                  4        860   4.47e+14           120.88    50.42    79.87
    erfinv                    1          2         15           145.36    22.04    17.05
    erfcinv                   1          2        nan           120.69    18.42      nan
    ndtri                     2          2          2           121.71    21.85    27.27
    gamma                     4          4   2.43e+03            79.86    35.74    50.03
    i0e                       3          3          3            26.78    57.35    47.87
    i1e                       4          5          4            27.92    52.64    45.99

The compositions evaluate every branch for every element (a select picks), so most run 1.3-7 times
slower than SciPy's scalar loops, which branch; the Bessel functions (two polynomial branches) run in
half SciPy's time. They are never less accurate.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_jit import _set_threads, interleaved

import arraystack as ast


def grids():
    positive = np.concatenate(
        [np.geomspace(1e-300, 0.7, 60), np.linspace(0.7, 2.6, 191), np.geomspace(2.6, 1e300, 120)]
    )
    line = np.concatenate(
        [-np.geomspace(1e-300, 38.0, 120), np.linspace(-6, 6, 241), np.linspace(6, 27, 85)]
    )
    q = np.concatenate(
        [np.geomspace(1e-300, 1e-20, 12), np.geomspace(1e-20, 0.5, 40), [0.7, 0.999]]
    )
    return positive, line, q


def exact_values(mpmath):
    positive, line, q = grids()

    def at(function, xs, dps=40):
        with mpmath.workdps(dps):
            return np.array([float(function(mpmath.mpf(float(x)))) for x in xs])

    with mpmath.workdps(320):
        inverse = [mpmath.erfinv(1 - mpmath.mpf(float(v))) for v in q]
        quantiles = np.array([float(-mpmath.sqrt(2) * t) for t in inverse])
        inverse = np.array([float(t) for t in inverse])
    log_ndtr = at(lambda x: mpmath.log(mpmath.ncdf(x)), line, dps=400)
    half = np.linspace(-0.999, 0.999, 301)
    negative = -np.linspace(0.01, 170.4, 400)
    real = np.concatenate(
        [
            np.geomspace(1e-300, 1, 60),
            np.linspace(1, 12, 300),
            np.linspace(12, 171.6, 100),
            negative,
        ]
    )
    bessel = np.concatenate(
        [-np.geomspace(1e-300, 700, 60), np.linspace(0, 30, 601), np.geomspace(30, 1e300, 100)]
    )
    return {
        "gammaln": (positive, at(lambda x: mpmath.log(mpmath.gamma(x)), positive)),
        "digamma": (positive, at(mpmath.digamma, positive)),
        "erfc": (line, at(mpmath.erfc, line)),
        "erfcx": (line, at(lambda x: mpmath.erfc(x) * mpmath.exp(x * x), line)),
        "ndtr": (line, at(mpmath.ncdf, line)),
        "log_ndtr": (line, log_ndtr),
        "erfinv": (half, at(mpmath.erfinv, half, dps=60)),
        "erfcinv": (q, inverse),
        "ndtri": (q / 2, quantiles),
        "gamma": (real, at(mpmath.gamma, real)),
        "i0e": (bessel, at(lambda x: mpmath.besseli(0, x) * mpmath.exp(-abs(x)), bessel)),
        "i1e": (bessel, at(lambda x: mpmath.besseli(1, x) * mpmath.exp(-abs(x)), bessel)),
    }


def worst_ulps(got, want) -> float:
    got = np.asarray(got, dtype=np.float64)
    normal = np.abs(want) >= np.finfo(np.float64).tiny
    same = got == want
    with np.errstate(all="ignore"):
        error = np.where(same, 0.0, np.abs(got - want) / np.spacing(np.abs(want)))
    error = np.where(np.isnan(error), np.inf, error)
    return float(error[normal].max())


def systems_for(name, size):
    import scipy.special as ss

    rng = np.random.default_rng(0)
    inverse = name in ("erfinv", "erfcinv", "ndtri")
    x = rng.uniform(0.01, 0.99, size) if inverse else rng.uniform(-8, 30, size)
    if name in ("gammaln", "digamma"):
        x = np.abs(x) + 0.01
    ours = ast.jit(getattr(ast.scipy.special, name), tiered=False)
    theirs = getattr(ss, name)
    out = {"arraystack": (lambda: ours(x)), "scipy": (lambda: theirs(x))}
    jax_function = _jax_function(name)
    if jax_function is not None:
        import jax

        compiled = jax.jit(jax_function)
        jx = jax.numpy.asarray(x)
        out["jax.jit"] = lambda: compiled(jx).block_until_ready()
    return out


def _jax_function(name):
    try:
        import jax

        jax.config.update("jax_enable_x64", True)
        import jax.scipy.special as jsp
    except ImportError:
        return None
    return getattr(jsp, "digamma" if name == "psi" else name, None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--only", nargs="*", default=None, help="these functions only")
    args = parser.parse_args(argv)
    if args.threads:
        _set_threads(args.threads)
    import mpmath
    import scipy.special as ss

    exact = exact_values(mpmath)
    print(
        f"{'function':10} {'ulp: arraystack':>16} {'scipy':>10} {'jax':>10}   ms: {'arraystack':>10} {'scipy':>8} {'jax.jit':>8}"
    )
    for name, (xs, want) in exact.items():
        if args.only and name not in args.only:
            continue
        with np.errstate(all="ignore"):
            ulps = [
                worst_ulps(getattr(ast.scipy.special, name)(xs), want),
                worst_ulps(getattr(ss, name)(xs), want),
            ]
            jax_function = _jax_function(name)
            ulps.append(
                worst_ulps(np.asarray(jax_function(xs)), want) if jax_function else float("nan")
            )
        times = interleaved(systems_for(name, args.size), args.rounds)
        ms = [times.get(k, float("nan")) * 1e3 for k in ("arraystack", "scipy", "jax.jit")]
        print(
            f"{name:10} {ulps[0]:16.3g} {ulps[1]:10.3g} {ulps[2]:10.3g}       {ms[0]:10.2f} {ms[1]:8.2f} {ms[2]:8.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
