"""Count ONNX's backend node tests passed by arraystack.onnx and by onnxruntime, in one run.

Usage: python tools/onnx_node_suite.py [--failures]   prints one line per backend,
"<backend>: <passed>/<total> node tests", and with --failures each arraystack failure and its error.
Both backends run the same cases (onnx.backend.test's node tests that ship with the installed onnx),
with the tolerances and dtype checks of ONNX's own test runner.
"""

from __future__ import annotations

import argparse
import platform
import time

import onnx
import onnxruntime
import onnxruntime.backend

from arraystack.onnx import conformance
from arraystack.onnx.backend import prepare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list arraystack's failures")
    args = parser.parse_args()
    onnxruntime.set_default_logger_severity(4)
    print(
        f"onnx {onnx.__version__}, onnxruntime {onnxruntime.__version__}, Python {platform.python_version()}"
    )
    for name, backend_prepare in (
        ("arraystack", prepare),
        ("onnxruntime", onnxruntime.backend.prepare),
    ):
        start = time.perf_counter()
        passed, total, failures = conformance.count_passing(backend_prepare)
        seconds = time.perf_counter() - start
        print(f"{name}: {passed}/{total} node tests ({seconds:.1f} s)")
        if args.failures and name == "arraystack":
            for case, error in sorted(failures.items()):
                print(f"  {case}: {error}")


if __name__ == "__main__":
    main()
