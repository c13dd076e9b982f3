"""arraystack.ma.extras: the names of numpy.ma.extras: joining, sets, statistics, covariance and the row, column and run functions, re-exported from arraystack.ma."""

# ruff: noqa: I001
# fmt: off
from arraystack.ma import (
    apply_along_axis, apply_over_axes, atleast_1d, atleast_2d, atleast_3d, average,
    clump_masked, clump_unmasked, column_stack, compress_cols, compress_nd, compress_rowcols,
    compress_rows, corrcoef, count_masked, cov, diagflat, dot, dstack, ediff1d,
    flatnotmasked_contiguous, flatnotmasked_edges, hsplit, hstack, in1d, intersect1d, isin,
    mask_cols, mask_rowcols, mask_rows, masked_all, masked_all_like, median, mr_, ndenumerate,
    notmasked_contiguous, notmasked_edges, polyfit, row_stack, setdiff1d, setxor1d, stack,
    union1d, unique, vander, vstack,
)

__all__ = [
    "apply_along_axis", "apply_over_axes", "atleast_1d", "atleast_2d", "atleast_3d", "average",
    "clump_masked", "clump_unmasked", "column_stack", "compress_cols", "compress_nd",
    "compress_rowcols", "compress_rows", "corrcoef", "count_masked", "cov", "diagflat", "dot",
    "dstack", "ediff1d", "flatnotmasked_contiguous", "flatnotmasked_edges", "hsplit", "hstack",
    "in1d", "intersect1d", "isin", "mask_cols", "mask_rowcols", "mask_rows", "masked_all",
    "masked_all_like", "median", "mr_", "ndenumerate", "notmasked_contiguous",
    "notmasked_edges", "polyfit", "row_stack", "setdiff1d", "setxor1d", "stack", "union1d",
    "unique", "vander", "vstack",
]
