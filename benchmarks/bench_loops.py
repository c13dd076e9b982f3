"""Compiled control flow: loops that run as one numba function against the host loop over compiled bodies
and against jax.jit, timed interleaved in one run (compiled tiers: arraystack with tiered=False, jax after
its compile); prints medians and ratios.

(a) fori_loop of 10^5 iterations on a float64 scalar carry (c * 0.999 + 1): microseconds per iteration.
(b) while_loop of 10^5 iterations on a (16,) float32 carry and an int counter.
(c) GRU over 128 steps (batch 32, input 128, hidden 128, float32) through scan: loss = mean(h_t^2) over all
    steps, value and gradient with respect to every parameter (forward and backward through scan).

    python benchmarks/bench_loops.py [--threads 1|2] [--rounds 7] [--json out.json] [--markdown docs/benchmarks.md]

"host loop" is the same arraystack plan with loops run from Python over compiled bodies (what runs when a
body does not lower): the compiled-loop lowering is switched off in this process for those entries.
jax is optional (pip install jax jaxlib); without it its columns are skipped. --threads 1 pins the process to
one core and turns XLA's threads off (harness.limit_threads); without it XLA uses every core.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness

T, B, I, H = 128, 32, 128, 128
N = 100_000


def _host_loops(enabled: bool):
    """Switch the compiled-loop lowering off (enabled=False) or on, for plans compiled from now on."""
    from arraystack.backends.numba import loop_source, loops

    if not hasattr(loops, "_real_compile_loop"):
        loops._real_compile_loop = loops.compile_loop

    def refuse(eqn, cache_dir, host_step):
        raise loop_source.Unsupported("switched off by the benchmark")

    loops.compile_loop = loops._real_compile_loop if enabled else refuse


def arraystack_systems(host: bool):
    import numpy as np

    import arraystack as ast
    from arraystack import nn, prng

    _host_loops(not host)
    fori = ast.jit(lambda c: ast.fori_loop(0, N, lambda i, c: c * 0.999 + 1.0, c), tiered=False)

    def wbody(s):
        i, v = s
        return i + 1, v * np.float32(0.5) + np.float32(1.0)

    whl = ast.jit(lambda v: ast.while_loop(lambda s: s[0] < N, wbody, (0, v)), tiered=False)
    gru = nn.GRU(I, H, key=prng.key(0))
    xs = np.random.default_rng(0).standard_normal((T, B, I)).astype(np.float32)

    def loss(m, xs):
        out, _ = m(xs)
        return ast.mean(out**2)

    grad = ast.jit(ast.value_and_grad(loss), tiered=False)
    c, v = np.float64(1.0), np.ones(16, np.float32)
    fns = {"fori": lambda: fori(c), "while": lambda: whl(v), "gru": lambda: grad(gru, xs)}
    for f in fns.values():
        f()  # compile
    _host_loops(True)
    return fns, gru, xs


def jax_systems(gru, xs):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return {}
    import numpy as np

    fori = jax.jit(lambda c: jax.lax.fori_loop(0, N, lambda i, c: c * 0.999 + 1.0, c))

    def wbody(s):
        i, v = s
        return i + 1, v * 0.5 + 1.0

    whl = jax.jit(lambda v: jax.lax.while_loop(lambda s: s[0] < N, wbody, (0, v)))
    params = {
        "wi": jnp.asarray(np.asarray(gru.weight_ih)),
        "wh": jnp.asarray(np.asarray(gru.weight_hh)),
        "bi": jnp.asarray(np.asarray(gru.bias_ih)),
        "bh": jnp.asarray(np.asarray(gru.bias_hh)),
    }

    def cell(p, h, x):
        xr, xz, xn = jnp.split(x @ p["wi"] + p["bi"], 3, axis=-1)
        hr, hz, hn = jnp.split(h @ p["wh"] + p["bh"], 3, axis=-1)
        r = jax.nn.sigmoid(xr + hr)
        z = jax.nn.sigmoid(xz + hz)
        n = jnp.tanh(xn + r * hn)
        h = (1.0 - z) * n + z * h
        return h, h

    def loss(p, xs):
        _, out = jax.lax.scan(lambda h, x: cell(p, h, x), jnp.zeros((B, H), jnp.float32), xs)
        return jnp.mean(out**2)

    grad = jax.jit(jax.value_and_grad(loss))
    jxs = jnp.asarray(xs)
    c, v = jnp.float32(1.0), jnp.ones(16, jnp.float32)
    fns = {
        "fori": lambda: fori(c).block_until_ready(),
        "while": lambda: whl(v)[1].block_until_ready(),
        "gru": lambda: grad(params, jxs)[0].block_until_ready(),
    }
    for f in fns.values():
        f()
    return fns


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", default=None)
    parser.add_argument("--markdown", default=None, help="write the loops section of this page")
    args = parser.parse_args(argv)
    harness.limit_threads(args.threads)

    compiled, gru, xs = arraystack_systems(host=False)
    host, _, _ = arraystack_systems(host=True)
    peers = jax_systems(gru, xs)
    threads = f"{args.threads} thread{'s' if args.threads != 1 else ''}" if args.threads else "default threads"
    title = f"Compiled loops, {threads}"
    with harness.markdown_section(args.markdown, f"loops-{args.threads or 'all'}", title, argv, __file__):
        rows = _measure(args, compiled, host, peers)
        print("\n".join(harness.describe_machine()))
    if args.json:
        harness.write_json(args.json, {"rows": rows, "machine": harness.machine_info()})


def _measure(args, compiled, host, peers):
    from bench_jit import interleaved

    rows = []
    per = {"fori": N, "while": N, "gru": 1}
    unit = {"fori": "us/iter", "while": "us/iter", "gru": "ms/step"}
    scale = {"fori": 1e6, "while": 1e6, "gru": 1e3}
    for name in ("fori", "while", "gru"):
        systems = {"compiled loop": compiled[name], "host loop": host[name]}
        if name in peers:
            systems["jax.jit"] = peers[name]
        t = interleaved(systems, args.rounds if name == "gru" else max(3, args.rounds // 2))
        row = {"case": name, "unit": unit[name]}
        for k, v in t.items():
            row[k] = round(v / per[name] * scale[name], 3)
        if "jax.jit" in t:
            row["compiled / jax"] = round(t["compiled loop"] / t["jax.jit"], 2)
        row["host / compiled"] = round(t["host loop"] / t["compiled loop"], 1)
        rows.append(row)
    keys = list(dict.fromkeys(k for row in rows for k in row))
    columns = [(k, k, "") for k in keys]
    print(harness.format_table(rows, columns))
    return rows


if __name__ == "__main__":
    main()
