"""`python -m arraystack`: the demo (`demo`) and version information (`info`).

`demo` trains a digit classifier written imperatively with arraystack (arraystack/_demo_train.py).
`demo --numpy` runs one ordinary NumPy program twice, once with `numpy` and once with `arraystack` as its
`np`, prints the results side by side and says whether they match (values, dtypes, shapes); then it traces a
small function into the IR and prints it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

import numpy


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
    from arraystack._array import wrap
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


def info(out=sys.stdout, recalibrate: bool = False) -> int:
    import importlib.util

    import arraystack
    import arraystack.ir

    rows = [
        ("arraystack", f"{arraystack.__version__} ({os.path.dirname(arraystack.__file__)})"),
        ("arraystack.ir", os.path.dirname(arraystack.ir.__file__)),
        ("python", f"{platform.python_version()} ({sys.executable})"),
        ("numpy", numpy.__version__),
    ]
    for name in ("numba", "cupy"):
        spec = importlib.util.find_spec(name)
        rows.append((name, _version_of(name) if spec else "not installed"))
    rows.append(("platform", f"{platform.platform()}, {os.cpu_count()} CPUs"))
    for name, value in rows:
        print(f"{name:14s} {value}", file=out)
    hardware = arraystack.devices(recalibrate=recalibrate)
    where = f"cached under {arraystack.config.cache_dir}; --recalibrate measures again"
    print(f"\nhardware model ({where}):", file=out)
    print(hardware.describe(), file=out)
    return 0


def _version_of(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    for name in (distribution, f"{distribution}-cuda12x", f"{distribution}-cuda11x"):
        try:
            return version(name)
        except PackageNotFoundError:
            continue
    return "installed (version unknown)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m arraystack",
        description="arraystack: a NumPy-compatible array library with a tracing JIT.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser(
        "demo",
        help="train a digit classifier with jit(value_and_grad) and optim (--numpy: NumPy-replacement tour)",
    )
    demo.add_argument("--epochs", type=int, default=20, help="training epochs (default 20)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the data split and initialization")
    demo.add_argument("--no-jit", action="store_true", help="train eagerly, without arraystack.jit")
    demo.add_argument("--no-progress", action="store_true", help="print one line per epoch instead of a bar")
    demo.add_argument(
        "--numpy", action="store_true", help="instead: run a NumPy program with arraystack and show the IR"
    )
    info_parser = commands.add_parser(
        "info", help="print the versions of arraystack and its dependencies, and the hardware model"
    )
    info_parser.add_argument(
        "--recalibrate", action="store_true", help="measure the hardware figures again (about 1 s)"
    )
    args = parser.parse_args(argv)
    if args.command == "demo":
        if args.numpy:
            return run_demo()
        from arraystack._demo_train import run

        if args.epochs < 1:
            parser.error("--epochs must be at least 1")
        return run(args.epochs, args.seed, not args.no_jit, progress=not args.no_progress)
    if args.command == "info":
        return info(recalibrate=args.recalibrate)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
