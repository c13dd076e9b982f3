"""`python -m arraystack`: the demo (`demo`), `info`, `bench` and `cache info|clear`.

`info`, `bench` and `cache` live in arraystack/_cli/info.py, _cli/bench.py and _cli/cache.py.

`demo` trains a digit classifier written imperatively with arraystack (arraystack/_cli/demo_train.py).
`demo --numpy` runs one ordinary NumPy program twice, once with `numpy` and once with `arraystack` as its
`np`, prints the results side by side and says whether they match (values, dtypes, shapes); then it traces a
small function into the IR and prints it.
"""

from __future__ import annotations

import argparse
import sys

import numpy

from arraystack._cli.info import info


def demo_program(np):
    """A short, realistic NumPy program: a least-squares line fit and a 1-D heat-diffusion simulation."""
    results = {}
    # creation and elementwise math: noisy samples of a line
    x = np.linspace(0.0, 1.0, 50)
    y = 3.0 * x + 2.0 + 0.1 * np.sin(37.0 * x)
    # reductions: the least-squares slope and intercept
    dx, dy = x - x.mean(), y - y.mean()
    slope = (dx * dy).sum() / (dx * dx).sum()
    intercept = y.mean() - slope * x.mean()
    residual = y - (slope * x + intercept)
    results["fit slope"] = slope
    results["fit intercept"] = intercept
    results["rms residual"] = np.sqrt(np.mean(residual**2))
    results["worst sample"] = np.argmax(np.abs(residual))
    # the same fit as a matrix product: predictions from a design matrix
    design = np.stack([x, np.ones_like(x)], axis=1)
    coef = np.asarray([slope, intercept])
    results["design @ coef (first 3)"] = (design @ coef)[:3]
    # indexing and manipulation: explicit finite differences for the heat equation
    u = np.zeros(32)
    u[12:20] = 1.0
    for _ in range(100):
        inner = u[1:-1] + 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u = np.concatenate([u[:1], inner, u[-1:]])
    results["heat: total"] = u.sum()
    results["heat: peak"] = u.max()
    results["heat: block means"] = u.reshape(4, 8).mean(axis=1)
    results["heat: cells above 0.1"] = (u > 0.1).sum()
    results["heat: clipped total"] = np.where(u > 0.2, u, 0.0).sum()
    results["heat: running total[-1]"] = np.cumsum(u)[-1]
    results["heat: reversed[:3]"] = u[::-1][:3].astype(np.float32)
    return results


def _same(expected, actual) -> bool:
    e, a = numpy.asarray(expected), numpy.asarray(actual)
    return e.shape == a.shape and e.dtype == a.dtype and numpy.allclose(e, a, rtol=1e-12, atol=0.0)


def _show(value) -> str:
    value = numpy.asarray(value)
    text = (
        numpy.array2string(value, precision=4, separator=", ")
        if value.ndim
        else f"{value.item():.6g}"
    )
    return f"{text} {value.dtype}"


def run_demo(out=sys.stdout) -> int:
    import arraystack

    expected = demo_program(numpy)
    actual = demo_program(arraystack)
    print(
        "The same NumPy program, run with `import numpy as np` and with `import arraystack as np`:\n",
        file=out,
    )
    print(f"  {'result':26s} {'numpy':42s} {'arraystack':42s} match", file=out)
    matched = 0
    for name, value in expected.items():
        same = _same(value, actual[name])
        matched += same
        print(
            f"  {name:26s} {_show(value):42s} {_show(actual[name]):42s} {'yes' if same else 'NO'}",
            file=out,
        )
    verdict = "all match" if matched == len(expected) else f"{len(expected) - matched} DIFFER"
    print(
        f"\n{matched} of {len(expected)} results match NumPy in value, dtype and shape: {verdict}.\n",
        file=out,
    )
    print(_traced_ir(), file=out)
    return 0 if matched == len(expected) else 1


# Traced from source text compiled as "demo.py", so the IR's `# file:line` comments point at these lines
# (frames inside the arraystack package are skipped when the tracer looks for the user's line).
DEMO_LAYER = """\
def layer(x, w, b):
    h = np.tanh(x @ w + b)
    return h.sum(axis=1)
"""


def _traced_ir() -> str:
    """Trace a small layer, tanh(x @ w + b).sum(axis=1), into the IR and print it."""
    import arraystack
    from arraystack._core.array import wrap
    from arraystack.ir import ShapedArray, make_graph, print_graph, typecheck

    namespace = {"np": arraystack}
    exec(compile(DEMO_LAYER, "demo.py", "exec"), namespace)
    layer = namespace["layer"]
    avals = [ShapedArray(shape, numpy.dtype(numpy.float32)) for shape in ((8, 4), (4, 3), (3,))]
    graph, _ = make_graph(lambda *args: [layer(*map(wrap, args))._value], avals)
    typecheck(graph)
    return (
        "This function (demo.py), traced with arraystack.ir.make_graph on x: f32[8,4], w: f32[4,3], "
        "b: f32[3]:\n\n" + DEMO_LAYER + "\nbecomes this IR:\n\n" + print_graph(graph)
    )


DESCRIPTION = "arraystack: a NumPy-compatible array library with a tracing JIT, autodiff and compiled backends."
EPILOG = """examples:
  python -m arraystack demo               train a digit classifier with jit (about 10 s)
  python -m arraystack demo --workers 2   the same, data-parallel over 2 dask worker processes
  python -m arraystack demo --numpy       run a NumPy program with arraystack, print a traced IR
  python -m arraystack info               versions, backends (and why not), cache size, hardware
  python -m arraystack bench --quick      the benchmark suite of a source checkout, shortened
  python -m arraystack cache clear        delete compiled kernels and the hardware model

`python -m arraystack COMMAND --help` describes each command's options."""


def build_parser() -> argparse.ArgumentParser:
    from arraystack._cli.bench import SCRIPTS

    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="python -m arraystack", description=DESCRIPTION, epilog=EPILOG, formatter_class=raw
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser(
        "demo",
        help="train a digit classifier with jit(value_and_grad) and optim (--numpy: NumPy-replacement tour)",
        description="Train a 64-128-10 classifier on the UCI digits shipped with arraystack, written "
        "imperatively (a dict of parameters, value_and_grad, optim.adam) inside jit; then time the step "
        "eagerly and jitted.",
    )
    demo.add_argument("--epochs", type=int, default=20, help="training epochs (default 20)")
    demo.add_argument(
        "--seed", type=int, default=0, help="seed of the data split and initialization"
    )
    demo.add_argument("--no-jit", action="store_true", help="train eagerly, without arraystack.jit")
    demo.add_argument(
        "--no-progress", action="store_true", help="print one line per epoch instead of a bar"
    )
    demo.add_argument(
        "--workers", type=int, default=0,
        help="compute each batch's gradients on N local dask worker processes (needs dask[distributed])",
    )
    demo.add_argument(
        "--numpy",
        action="store_true",
        help="instead: run a NumPy program with arraystack and show the IR",
    )
    info_parser = commands.add_parser(
        "info",
        help="print versions, backends (available or why not), the cache and the hardware model",
        description="Print the versions of arraystack, Python, NumPy, numba and CuPy; which backends can "
        "run (numba importable? CuPy with a CUDA device?) and why not; the cache directory and its size; "
        "and the hardware model the planner uses.",
    )
    info_parser.add_argument(
        "--recalibrate", action="store_true", help="measure the hardware figures again (about 1 s)"
    )
    bench = commands.add_parser(
        "bench",
        help="run the benchmark scripts in the repository's benchmarks/ folder and print their tables",
        formatter_class=raw,
        description="Run the benchmark scripts of the source repository, each in its own process, and "
        "print their medians and ratio tables\n(against NumPy, and jax/torch when installed). The "
        "scripts are not part of an installed wheel: run this from a\nsource checkout (pip install -e .) "
        "or pass --dir.\n\nscripts:\n"
        + "\n".join(
            f"  {name:8s} {script}: {what}" for name, (script, what, _, _) in SCRIPTS.items()
        ),
    )
    bench.add_argument(
        "--quick", action="store_true", help="smaller inputs and fewer rounds (a few minutes)"
    )
    bench.add_argument(
        "--only",
        action="append",
        choices=list(SCRIPTS),
        metavar="NAME",
        help=f"run only this script (repeatable): {', '.join(SCRIPTS)}",
    )
    bench.add_argument("--threads", type=int, default=None, help="limit BLAS/numba threads to N")
    bench.add_argument(
        "--dir", default=None, help="the benchmarks folder (default: the repository's)"
    )
    bench.add_argument(
        "--list", action="store_true", help="print the commands that would run, run nothing"
    )
    cache = commands.add_parser(
        "cache",
        help="show or delete the on-disk cache (compiled kernels, hardware model)",
        description="The cache directory (arraystack.config.cache_dir, ARRAYSTACK_CACHE_DIR) holds the "
        "compiled kernels and the calibrated hardware model. Both are rebuilt on demand. Without "
        "ACTION: info.",
    )
    actions = cache.add_subparsers(dest="action", metavar="ACTION")
    actions.add_parser(
        "info",
        help="list the cache entries and their size on disk",
        description="List the cache directory's entries and their sizes on disk.",
    )
    clear = actions.add_parser(
        "clear",
        help="delete the compiled kernels and the hardware model (after printing what and how much)",
        description="Delete arraystack's entries in the cache directory (compiled kernels, hardware model), "
        "after printing what and how much. Other files in the folder are kept. The next jitted calls "
        "compile again (a cold start).",
    )
    clear.add_argument(
        "--dry-run", action="store_true", help="print what would be deleted, delete nothing"
    )
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        if args.numpy:
            return run_demo()
        from arraystack._cli.demo_train import run

        if args.epochs < 1:
            parser.error("--epochs must be at least 1")
        if args.workers < 0:
            parser.error("--workers must be at least 0")
        progress = not args.no_progress
        return run(args.epochs, args.seed, not args.no_jit, progress=progress, workers=args.workers)
    if args.command == "info":
        return info(recalibrate=args.recalibrate)
    if args.command == "bench":
        from arraystack._cli.bench import run_bench

        if args.threads is not None and args.threads < 1:
            parser.error("--threads must be at least 1")
        return run_bench(args.dir, args.only, args.quick, args.threads, args.list)
    if args.command == "cache":
        from arraystack._cli.cache import cache_clear, cache_info

        if args.action == "clear":
            return cache_clear(dry_run=args.dry_run)
        return cache_info()
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
