"""Fused attention against the composite formula and jax.jit, forward and forward+backward, timed
interleaved in one run (compiled tiers: arraystack with tiered=False, jax after its compile); prints
medians, ratios and the memory a call allocates.

Cases (float32, causal, batch B, heads H, length L, head size D):
- gpt:  B 8, H 4, L 64, D 32 (the GPT notebook's shape);
- long: B 1, H 4, L 2048, D 64.
Systems:
- fused: nn.dot_product_attention (the attention primitive, numba's tiled kernels);
- composite: the same formula written with matmul, where and softmax (the scores materialized);
- jax.jit: that formula in jax (pip install jax jaxlib; without it its column is skipped).
"fwd" returns the output; "fwd+bwd" is value_and_grad of sum(out * w) with respect to q, k and v.
"peak MB" is the most memory NumPy allocated during one call (tracemalloc: the plan's buffers; a
kernel's own scratch, one (64,) score row and a (64, Dv) accumulator per task, is not counted), and
"scores MB" the size of the whole (B, H, L, L) score matrix the composite formula materializes.

    python benchmarks/bench_attention.py [--threads 1|2] [--rounds 7] [--json out.json] [--case gpt|long]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tracemalloc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness

CASES = {"gpt": (8, 4, 64, 32), "long": (1, 4, 2048, 64)}


def _inputs(case):
    import numpy as np

    b, h, length, d = CASES[case]
    rng = np.random.default_rng(0)
    return [rng.standard_normal((b, h, length, d)).astype(np.float32) for _ in range(4)]


def arraystack_systems(case):
    import arraystack as ast
    from arraystack import nn
    from arraystack.nn.attention import _composite

    q, k, v, w = _inputs(case)
    scale = 1.0 / math.sqrt(q.shape[-1])

    def fused(q, k, v):
        return nn.dot_product_attention(q, k, v, is_causal=True, implementation="fused")

    def composite(q, k, v):
        return _composite(q, k, v, None, True, scale, 0.0, None)

    systems = {}
    for name, attention in (("fused", fused), ("composite", composite)):
        forward = ast.jit(attention, tiered=False)
        grad = ast.jit(
            ast.value_and_grad(
                lambda q, k, v, a=attention: ast.sum(a(q, k, v) * w), argnums=(0, 1, 2)
            ),
            tiered=False,
        )
        systems[name] = {"fwd": lambda f=forward: f(q, k, v), "fwd+bwd": lambda g=grad: g(q, k, v)}
    return systems


def jax_systems(case):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return {}
    q, k, v, w = (jnp.asarray(x) for x in _inputs(case))
    scale = 1.0 / math.sqrt(q.shape[-1])

    def attention(q, k, v):
        s = q @ jnp.swapaxes(k, -1, -2) * scale
        length = q.shape[-2]
        causal = jnp.arange(length)[:, None] >= jnp.arange(length)[None, :]
        s = jnp.where(causal, s, jnp.finfo(s.dtype).min)
        return jax.nn.softmax(s, axis=-1) @ v

    forward = jax.jit(attention)
    grad = jax.jit(
        jax.value_and_grad(lambda q, k, v: jnp.sum(attention(q, k, v) * w), argnums=(0, 1, 2))
    )
    return {
        "jax.jit": {
            "fwd": lambda: forward(q, k, v).block_until_ready(),
            "fwd+bwd": lambda: grad(q, k, v)[0].block_until_ready(),
        }
    }


def peak_megabytes(fn) -> float:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return round((peak - base) / 2**20, 2)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", default=None)
    parser.add_argument("--case", choices=sorted(CASES), default=None, help="one case only")
    args = parser.parse_args(argv)
    harness.limit_threads(args.threads)
    from bench_jit import interleaved

    rows = []
    for case in (args.case,) if args.case else tuple(CASES):
        systems = {**arraystack_systems(case), **jax_systems(case)}
        b, h, length, _ = CASES[case]
        scores = round(b * h * length * length * 4 / 2**20, 2)
        for mode in ("fwd", "fwd+bwd"):
            calls = {name: fns[mode] for name, fns in systems.items()}
            for fn in calls.values():
                fn()  # compile
            t = interleaved(calls, args.rounds)
            row = {"case": case, "mode": mode, "scores MB": scores}
            for name, seconds in t.items():
                row[f"{name} ms"] = round(seconds * 1e3, 3)
            row["composite / fused"] = round(t["composite"] / t["fused"], 2)
            if "jax.jit" in t:
                row["fused / jax"] = round(t["fused"] / t["jax.jit"], 2)
            for name in ("fused", "composite"):
                row[f"{name} peak MB"] = peak_megabytes(calls[name])
            rows.append(row)
            print(row, flush=True)
    print("\n".join(harness.describe_machine()))
    if args.json:
        harness.write_json(args.json, {"rows": rows, "machine": harness.machine_info()})


if __name__ == "__main__":
    main()
