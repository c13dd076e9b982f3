"""NumPy parity of the power series family (arraystack.polynomial.polynomial, Polynomial)."""

from __future__ import annotations

from tests.arraystack.polynomial import series_checks as checks

FAMILY = checks.Family("poly", "polynomial", "Polynomial")


def test_arithmetic(parity):
    checks.check_arithmetic(FAMILY, parity)


def test_calculus(parity):
    checks.check_calculus(FAMILY, parity)


def test_evaluation(parity):
    checks.check_evaluation(FAMILY, parity)


def test_roots_and_fit(parity):
    checks.check_roots_and_fit(FAMILY, parity)


def test_class(parity):
    checks.check_class(FAMILY, parity)


def test_printing():
    checks.check_printing(FAMILY)


def test_tracing(check_grads):
    checks.check_tracing(FAMILY, check_grads)
