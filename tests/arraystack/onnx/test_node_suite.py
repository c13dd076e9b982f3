"""ONNX's own node tests (the ~1,900 one-operator models that ship with the onnx package) run through
arraystack.onnx.backend; the ones expected to fail are listed, with reasons, in
node_suite_expected_failures.py. The whole suite runs eagerly in about ten seconds."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

pytest.importorskip("onnx", reason="ONNX's node tests ship with the onnx package")

from arraystack.onnx.conformance import node_cases, run_case


def _expected_failures() -> dict:
    path = pathlib.Path(__file__).with_name("node_suite_expected_failures.py")
    spec = importlib.util.spec_from_file_location("node_suite_expected_failures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.EXPECTED_FAILURES


EXPECTED_FAILURES = _expected_failures()
CASES = sorted(node_cases())


def test_the_expected_failures_name_existing_tests():
    assert sorted(set(EXPECTED_FAILURES) - set(CASES)) == []


@pytest.mark.parametrize("name", CASES)
def test_node(name):
    from arraystack.onnx.backend import prepare

    if name in EXPECTED_FAILURES:
        pytest.xfail(EXPECTED_FAILURES[name]) if _fails(name, prepare) else pytest.fail(
            f"{name} passes now: remove it from node_suite_expected_failures.py"
        )
    run_case(node_cases()[name], prepare)


def _fails(name, prepare) -> bool:
    try:
        run_case(node_cases()[name], prepare)
    except Exception:  # noqa: BLE001 - any failure is the expected one
        return True
    return False
