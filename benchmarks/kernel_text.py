"""The compiled text of every benchmark workload: `f.lower(*args).compile().as_text()` (plan, optimized graph,
generated kernel source) for bench_jit.py's workloads and bench_patterns.py's patterns, one after another.

    python benchmarks/kernel_text.py > before.txt      # then, after a change to the backend layer:
    python benchmarks/kernel_text.py > after.txt && diff before.txt after.txt

A refactoring of the backends that must not change the generated code leaves the two files identical.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def texts():
    import bench_jit
    import bench_patterns

    items, ast = bench_jit.workloads(quick=True)
    named = [(name, make, args) for name, make, args, _ in items]
    named += bench_patterns.patterns(__import__("numpy"))
    named = [(n, m, a if isinstance(a, tuple) else (a,)) for n, m, a in named]
    for name, make, args in named:
        f = ast.jit(make(ast))
        yield name, f.lower(*[ast.asarray(x) for x in args]).compile().as_text()


def main():
    for name, text in texts():
        print(f"==== {name}")
        print(text)


if __name__ == "__main__":
    main()
