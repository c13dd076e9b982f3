"""Eager per-call time of common functions and operators: arraystack against NumPy, side by side.

    python benchmarks/bench_eager.py [--threads N] [--quick] [--json out.json]
                                     [-k substring] [--size small|large|both] [--timer wall|cpu]

Each case is one statement run with `xp` bound to numpy and to arraystack, on small (8-element) and
large (1e6-element) inputs. The two libraries are timed round-robin in one process (warm-up, then rounds
alternating which goes first) and the medians are reported, with each ratio (arraystack / numpy) and the
geometric mean per size. Targets: geometric mean <= 1.3 on small inputs, <= 1.05 on large ones; on
small inputs the scalar reads Python loops make (scalar indexing, iteration) within 1.5x of NumPy.
A case whose arraystack function is missing or fails is skipped with a note, so the script runs while
the library is incomplete; a result that differs from NumPy's is flagged.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness

TARGETS = {"small": 1.3, "large": 1.05}
SCALAR_TARGET = 1.5  # per case, small inputs: the cases below
SCALAR_CASES = ("a[3] (scalar)", "m[1, 2] (scalar)", "iterate a[:8]")
SIZES = {"small": 8, "large": 1_000_000}

# (name, statement): names available to statements are xp, a, b, c, mask, idx, m, mt, sq, sq2, shape2, n, s
# (s: a scalar result, xp.sum(b))
CASES = [
    ("a + b", "a + b"),
    ("a * b", "a * b"),
    ("a / b", "a / b"),
    ("a ** 2", "a ** 2"),
    ("-a", "-a"),
    ("a > b", "a > b"),
    ("a + 1.0 (scalar)", "a + 1.0"),
    ("c += b (in place)", "c += b"),
    ("exp", "xp.exp(a)"),
    ("sin", "xp.sin(a)"),
    ("sqrt", "xp.sqrt(b)"),
    ("abs", "xp.abs(a)"),
    ("maximum", "xp.maximum(a, b)"),
    ("clip", "xp.clip(a, -0.5, 0.5)"),
    ("where", "xp.where(mask, a, b)"),
    ("sum", "xp.sum(a)"),
    ("mean", "xp.mean(a)"),
    ("std", "xp.std(a)"),
    ("max", "xp.max(a)"),
    ("argmax", "xp.argmax(a)"),
    ("cumsum", "xp.cumsum(a)"),
    ("any", "xp.any(mask)"),
    ("sum(axis=0) 2-d", "xp.sum(m, axis=0)"),
    ("reshape (view)", "a.reshape(shape2)"),
    ("transpose (view)", "xp.transpose(m)"),
    ("a[1:5] (view)", "a[1:5]"),
    ("a[idx]", "a[idx]"),
    ("concatenate", "xp.concatenate([a, b])"),
    ("stack", "xp.stack([a, b])"),
    ("zeros", "xp.zeros(n)"),
    ("ones_like", "xp.ones_like(a)"),
    ("arange", "xp.arange(n)"),
    ("linspace", "xp.linspace(0.0, 1.0, n)"),
    ("astype(float32)", "a.astype(xp.float32)"),
    ("matmul", "sq @ sq2"),
    # scalar results (NumPy scalars, wrapped): the Python-level loops NumPy programs write
    ("a[3] (scalar)", "a[3]"),
    ("m[1, 2] (scalar)", "m[1, 2]"),
    ("s * 2.0 + 1.0 (scalar math)", "s * 2.0 + 1.0"),
    ("iterate a[:8]", "[v for v in a[:8]]"),
    ("builtin sum(a[:8])", "sum(a[:8])"),
]


def make_inputs(size: int) -> dict:
    """NumPy inputs for one size; matmul uses 2x4 @ 4x2 (small) and 256x256 @ 256x256 (large)."""
    import numpy

    rng = numpy.random.default_rng(42)
    a = rng.standard_normal(size)
    b = rng.uniform(0.5, 1.5, size)
    rows = 2 if size < 1000 else 1000
    side = 256
    return {
        "a": a,
        "b": b,
        "c": numpy.zeros(size),
        "mask": a > 0,
        "idx": rng.integers(0, size, max(size // 2, 4)),
        "m": a.reshape(rows, -1),
        "shape2": (rows, size // rows),
        "sq": a[:8].reshape(2, 4) if size < 1000 else rng.standard_normal((side, side)),
        "sq2": b[:8].reshape(4, 2) if size < 1000 else rng.standard_normal((side, side)),
        "n": size,
    }


def _namespace(xp, inputs: dict) -> dict:
    import numpy

    ns = {"xp": xp}
    for key, value in inputs.items():
        ns[key] = xp.asarray(value) if isinstance(value, numpy.ndarray) else value
    ns["s"] = xp.sum(ns["b"])
    return ns


def _same(expected, actual) -> bool:
    import numpy

    try:
        actual = numpy.asarray(actual)
        expected = numpy.asarray(expected)
        if actual.shape != expected.shape or actual.dtype != expected.dtype:
            return False
        return bool(numpy.allclose(actual, expected, rtol=1e-10, atol=1e-12, equal_nan=True))
    except Exception:  # noqa: BLE001  (any failure to compare is a mismatch)
        return False


def run(args) -> dict:
    import time
    import timeit

    import numpy

    import arraystack

    rounds, target = (3, 0.002) if args.quick else (11, 0.01)
    clock = time.process_time if args.timer == "cpu" else time.perf_counter
    cases = [(name, stmt) for name, stmt in CASES if not args.k or args.k in name]
    results = []
    sizes = {k: v for k, v in SIZES.items() if args.size in (k, "both")}
    for size_name, size in sizes.items():
        inputs = make_inputs(size)
        pairs, notes = {}, {}
        for name, stmt in cases:
            ns_np, ns_as = _namespace(numpy, inputs), _namespace(arraystack, inputs)
            code = compile(stmt, name, "exec" if "=" in stmt.replace("==", "") else "eval")
            try:
                expected = eval(code, dict(ns_np))
                actual = eval(code, dict(ns_as))
            except Exception as e:  # noqa: BLE001  (a function not written yet, or a bug: noted)
                message = (str(e).splitlines() or [""])[0]
                notes[name] = f"skipped: {type(e).__name__}: {message[:70]}"
                continue
            if expected is not None and not _same(expected, actual):
                notes[name] = "result differs from NumPy"
            # an augmented assignment makes its target local to timeit's loop function: bind it first
            setup = "c = c_global" if "+=" in stmt else "pass"
            pairs[name] = tuple(
                timeit.Timer(stmt, setup, timer=clock, globals=dict(ns, c_global=ns["c"]))
                for ns in (ns_np, ns_as)
            )
        scale = 5 if size_name == "large" else 1
        timings = harness.interleaved(pairs, rounds, target * scale)
        for name, _ in cases:
            row = {"size": size_name, "case": name, "note": notes.get(name, "")}
            if name in timings:
                t_np, t_as = timings[name]
                row.update(numpy_us=t_np * 1e6, arraystack_us=t_as * 1e6, ratio=t_as / t_np)
            results.append(row)
    summary = {}
    for size_name in sizes:
        ratios = [r["ratio"] for r in results if r["size"] == size_name and "ratio" in r]
        # views cost the same at every size: on large inputs they measure overhead, not throughput
        data_ratios = [
            r["ratio"]
            for r in results
            if r["size"] == size_name and "ratio" in r and "(view)" not in r["case"]
        ]
        summary[size_name] = {
            "geomean_ratio": harness.geometric_mean(ratios),
            "geomean_ratio_without_views": harness.geometric_mean(data_ratios),
            "cases_timed": len(ratios),
            "target": TARGETS[size_name],
        }
    return {
        "results": results,
        "summary": summary,
        "rounds": rounds,
        "seconds_per_sample": target,
        "timer": args.timer,
    }


def report(payload: dict) -> str:
    lines = []
    columns = [
        ("case", "case", ""),
        ("numpy_us", "numpy us", ".3f"),
        ("arraystack_us", "arraystack us", ".3f"),
        ("ratio", "ratio", ".2f"),
        ("note", "note", ""),
    ]
    for size_name, size in SIZES.items():
        if size_name not in payload["summary"]:
            continue
        rows = [r for r in payload["results"] if r["size"] == size_name]
        lines.append(
            f"\n{size_name} inputs ({size:,} elements; medians of {payload['rounds']} rounds, "
            f"{payload['timer']} time)"
        )
        lines.append(harness.format_table(rows, columns))
        s = payload["summary"][size_name]
        verdict = "meets" if s["geomean_ratio"] <= s["target"] else "misses"
        lines.append(
            f"geometric mean ratio ({size_name}, {s['cases_timed']} cases): {s['geomean_ratio']:.3f}  "
            f"({verdict} the target <= {s['target']}); without the O(1) view cases: "
            f"{s['geomean_ratio_without_views']:.3f}"
        )
        scalar = [r for r in rows if r["case"] in SCALAR_CASES and "ratio" in r]
        if size_name == "small" and scalar:
            worst = max(scalar, key=lambda r: r["ratio"])
            verdict = "meets" if worst["ratio"] <= SCALAR_TARGET else "misses"
            lines.append(
                f"scalar reads ({', '.join(r['case'] for r in scalar)}): at most "
                f"{worst['ratio']:.2f}x NumPy ({verdict} the target <= {SCALAR_TARGET})"
            )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=None, help="limit BLAS/OpenMP threads to N")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("-k", metavar="SUBSTRING", help="only cases whose name contains SUBSTRING")
    parser.add_argument("--size", choices=("small", "large", "both"), default="both")
    parser.add_argument(
        "--timer",
        choices=("wall", "cpu"),
        default="wall",
        help="wall clock (default), or this process's CPU time: steadier on a busy machine, but it "
        "adds up the time of all BLAS threads",
    )
    parser.add_argument(
        "--markdown",
        metavar="PATH",
        help="also write the output into this benchmark's section of PATH (docs/benchmarks.md)",
    )
    args = parser.parse_args(argv)
    harness.limit_threads(args.threads)  # before NumPy is imported

    with harness.markdown_section(
        args.markdown, "eager", "Eager calls: arraystack against NumPy", argv, __file__
    ):
        for line in harness.describe_machine():
            print(line)
        machine = harness.machine_info()
        print("eager benchmark: arraystack vs NumPy, per-call time")
        payload = run(args)
        print(report(payload))
        if args.json:
            harness.write_json(
                args.json,
                dict(
                    payload,
                    benchmark="eager",
                    machine=machine,
                    backend="eager (NumPy reference rules)",
                    device="cpu",
                    compile_cache="n/a (eager mode does not compile)",
                ),
            )
            print(f"\nwrote {args.json}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
