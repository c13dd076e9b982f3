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


def load_digits() -> tuple[numpy.ndarray, numpy.ndarray]:
    """Load the UCI handwritten-digits test set shipped with arraystack (1,797 8x8 images).

    Returns
    -------
    images : numpy.ndarray
        float32, shape (1797, 8, 8), pixels in [0, 16].
    labels : numpy.ndarray
        int64, shape (1797,), digits 0..9.

    See Also
    --------
    sklearn.datasets.load_digits : the same data (with ``return_X_y=True``, as 64 columns).
    arraystack.asarray : to move the arrays where the caller wants them.

    Notes
    -----
    Returns NumPy arrays: the caller decides where they go. Read offline from ``digits.csv.gz``
    in this package (source and licence: README.md beside it).

    Examples
    --------
    >>> from arraystack.datasets import load_digits
    >>> images, labels = load_digits()
    >>> images.shape, labels.shape
    ((1797, 8, 8), (1797,))
    """
    with gzip.open(os.path.join(_HERE, "digits.csv.gz"), "rt") as f:
        table = numpy.loadtxt(f, delimiter=",", dtype=numpy.float32)
    images = table[:, :64].reshape(-1, 8, 8)
    labels = table[:, 64].astype(numpy.int64)
    return images, labels


__all__ = ["load_digits"]
