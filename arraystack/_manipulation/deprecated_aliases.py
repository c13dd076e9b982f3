"""Names NumPy keeps as deprecated aliases: row_stack (numpy/lib/_shape_base_impl.py), which warns
as NumPy does and then calls the function it stands for.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import arraystack as anp

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

__all__ = ["row_stack"]


def row_stack(
    tup: Sequence[ArrayLike], *, dtype: DTypeLike = None, casting: str = "same_kind"
) -> NDArray:
    """Stack arrays in sequence vertically (row wise): a deprecated alias of `vstack`.

    Parameters
    ----------
    tup : sequence of ndarrays
        The arrays must have the same shape along all but the first axis. 1-D arrays must have the
        same length.
    dtype : str or dtype
        If provided, the destination array will have this dtype.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Controls what kind of data casting may occur. Defaults to 'same_kind'.

    Returns
    -------
    stacked : ndarray
        The array formed by stacking the given arrays, will be at least 2-D.

    See Also
    --------
    numpy.row_stack : The NumPy function this mirrors (deprecated since NumPy 2.0).
    vstack

    Notes
    -----
    Emits NumPy's DeprecationWarning.
    """
    warnings.warn(
        "`row_stack` alias is deprecated. Use `np.vstack` directly.",
        DeprecationWarning,
        stacklevel=2,
    )
    return anp.vstack(tup, dtype=dtype, casting=casting)
