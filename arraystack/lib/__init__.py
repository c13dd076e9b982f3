"""arraystack.lib: NumPy's `numpy.lib` for arraystack arrays: `stride_tricks` (as_strided,
sliding_window_view), `mixins` (NDArrayOperatorsMixin), `array_utils`, `scimath` (arraystack.emath) and
`NumpyVersion`, `Arrayterator` (NumPy's, which slices arraystack arrays into arraystack blocks),
`recfunctions` (NumPy's functions of structured arrays), `format` (the .npy format).

Importing arraystack imports this package; `show_config` and `info` live here and are also top-level
names (`arraystack.show_config()`, `arraystack.info(obj)`), as in NumPy.
"""

from numpy.lib import Arrayterator, NumpyVersion  # NumPy's own: both work on arraystack arrays

from arraystack import emath as scimath
from arraystack.lib import array_utils, format, mixins, recfunctions, stride_tricks
from arraystack.lib._info import info
from arraystack.lib._show_config import show_config

__all__ = [
    "Arrayterator", "NumpyVersion", "array_utils", "format", "info", "mixins", "recfunctions", "scimath", "show_config",
    "stride_tricks",
]  # fmt: skip
