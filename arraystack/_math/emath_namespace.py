"""Publishes the arraystack.emath submodule (numpy.emath: math with complex results outside the real
domain) in the top-level namespace, as NumPy publishes numpy.emath."""

from __future__ import annotations

from arraystack import emath

__all__ = ["emath"]
