"""Small datasets shipped with arraystack, so the demo and the examples run offline.

`load_digits()`: the UCI "Optical Recognition of Handwritten Digits" test set (1,797 8x8 images of digits,
pixels 0..16), as distributed with scikit-learn (`digits.csv.gz`: 64 pixel columns, then the label).
Source and licence: see README.md in this folder.
"""

from __future__ import annotations

import gzip
import os

import numpy

_HERE = os.path.dirname(os.path.abspath(__file__))


def load_digits():
    """(images, labels): float32 images of shape (1797, 8, 8) with pixels in [0, 16], int64 labels 0..9,
    as NumPy arrays (the caller decides where they go)."""
    with gzip.open(os.path.join(_HERE, "digits.csv.gz"), "rt") as f:
        table = numpy.loadtxt(f, delimiter=",", dtype=numpy.float32)
    images = table[:, :64].reshape(-1, 8, 8)
    labels = table[:, 64].astype(numpy.int64)
    return images, labels


__all__ = ["load_digits"]
