"""ONNX's own node tests (onnx.backend.test), run through any backend's `prepare`: what the test suite
and benchmarks/bench_onnx_node_suite.py use to measure the importer's coverage beside onnxruntime's."""

from __future__ import annotations

import functools
import warnings

import numpy


@functools.cache
def node_cases() -> dict:
    """name -> onnx.backend.test TestCase, for every node test that ships with the onnx package."""
    from onnx.backend.test.loader import load_model_tests

    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return {case.name: case for case in load_model_tests(kind="node")}


def run_case(case, prepare) -> None:
    """Prepare the case's model with `prepare` and compare every data set's outputs, as ONNX's test
    runner does (its tolerances, dtypes checked); raises AssertionError or the backend's error."""
    from onnx.backend.test.runner import Runner

    rep = prepare(case.model)
    for inputs, expected in case.data_sets:
        outputs = rep.run([_normalize(x) for x in inputs])
        Runner.assert_similar_outputs(
            [_normalize(x) for x in expected],
            list(outputs),
            rtol=case.rtol,
            atol=case.atol,
            model_dir=None,
        )


def _normalize(x):
    import onnx
    from onnx import numpy_helper

    if isinstance(x, onnx.TensorProto):
        return numpy_helper.to_array(x)
    return x


def count_passing(prepare, names=None) -> tuple[int, int, dict]:
    """(passed, total, failures: name -> 'ErrorType: message') over the node tests."""
    cases = node_cases()
    names = sorted(cases) if names is None else names
    failures = {}
    for name in names:
        try:
            with warnings.catch_warnings(), numpy.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                run_case(cases[name], prepare)
        except Exception as e:  # noqa: BLE001 - every failure is counted, with its reason
            failures[name] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
    return len(names) - len(failures), len(names), failures


__all__ = ["count_passing", "node_cases", "run_case"]
