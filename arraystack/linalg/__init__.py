"""arraystack.linalg mirrors numpy.linalg: the same names, results (NumPy 2's named tuples) and errors.

Factorizations are primitives (arraystack.ir.linalg) with NumPy reference rules and derivative and
batching rules; everything else composes them. LinAlgError is numpy.linalg.LinAlgError itself, so
`except numpy.linalg.LinAlgError` catches errors of both libraries.
"""

from arraystack.linalg._array_api import (
    cross, diagonal, matmul, matrix_transpose, outer, tensordot, trace, vecdot,
)
from arraystack.linalg._determinants import SlogdetResult, det, slogdet
from arraystack.linalg._eigen import EighResult, EigResult, eig, eigh, eigvals, eigvalsh
from arraystack.linalg._factorizations import QRResult, SVDResult, cholesky, qr, svd, svdvals
from arraystack.linalg._norms import cond, matrix_norm, matrix_rank, norm, vector_norm
from arraystack.linalg._operands import LinAlgError
from arraystack.linalg._products import matrix_power, multi_dot
from arraystack.linalg._solvers import inv, lstsq, pinv, solve, tensorinv, tensorsolve

__all__ = [
    "EigResult",
    "EighResult",
    "LinAlgError",
    "QRResult",
    "SVDResult",
    "SlogdetResult",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "tensorinv",
    "tensorsolve",
    "trace",
    "vecdot",
    "vector_norm",
]
