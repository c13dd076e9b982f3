"""arraystack: a NumPy-compatible array library with a tracing JIT, autodiff and compiled backends.

This module is the public namespace: import blocks and __all__, nothing defined here.
"""

from arraystack._array import ndarray
from arraystack._dtypes import *  # noqa: F403
from arraystack._dtypes import __all__ as _dtypes_all
from arraystack._dtypes import bool_ as bool  # noqa: A001  (numpy.bool)
from arraystack._creation import *  # noqa: F403
from arraystack._creation import __all__ as _creation_all
from arraystack._elementwise import *  # noqa: F403
from arraystack._elementwise import __all__ as _elementwise_all
from arraystack._manipulation import *  # noqa: F403
from arraystack._manipulation import __all__ as _manipulation_all
from arraystack._reductions import *  # noqa: F403
from arraystack._reductions import __all__ as _reductions_all
from arraystack._indexing import *  # noqa: F403
from arraystack._indexing import __all__ as _indexing_all
from arraystack._linalg import *  # noqa: F403
from arraystack._linalg import __all__ as _linalg_all
from arraystack._jit import *  # noqa: F403
from arraystack._jit import __all__ as _jit_all
from arraystack._dlpack import *  # noqa: F403
from arraystack._dlpack import __all__ as _dlpack_all
from arraystack._control import *  # noqa: F403
from arraystack._control import __all__ as _control_all
from arraystack._autodiff import *  # noqa: F403
from arraystack._autodiff import __all__ as _autodiff_all
from arraystack._vmap import *  # noqa: F403
from arraystack._vmap import __all__ as _vmap_all
from arraystack._jacobian import *  # noqa: F403
from arraystack._jacobian import __all__ as _jacobian_all
from arraystack._custom import *  # noqa: F403
from arraystack._custom import __all__ as _custom_all
from arraystack._config import config
from arraystack.ir import tree as tree_util
from arraystack import nn, optim, prng  # noqa: E402  (layers, optimizers, PRNG keys: functional)

__version__ = "0.1.0"

__all__ = [
    "ndarray",
    "bool",
    *_dtypes_all,
    *_creation_all,
    *_elementwise_all,
    *_manipulation_all,
    *_reductions_all,
    *_indexing_all,
    *_linalg_all,
    *_jit_all,
    *_control_all,
    *_dlpack_all,
    *_autodiff_all,
    *_vmap_all,
    *_jacobian_all,
    *_custom_all,
    "config",
    "tree_util",
    "nn",
    "optim",
    "prng",
    "fft",
    "linalg",
    "random",
    "testing",
]

# NumPy breadth (issue 3): each family module exports its own __all__; the tuple below lists them, one
# name per line, and the loop re-exports each module's names here as a star import would.
from arraystack import fft  # noqa: E402
from arraystack import testing  # noqa: E402
from arraystack import random  # noqa: E402
from arraystack import linalg  # noqa: E402
_FAMILIES = (
    "_contractions",
    "_einsum",
    "_io",
    "_printing",
    "_constants",
    "_introspection",
    "_floating_point_errors",
    "_sorting",
    "_selection",
    "_sets",
    "_index_tricks",
    "_iterators",
    "_quantiles",
    "_special",
    "_comparison",
    "_calculus",
    "_covariance",
    "_histograms",
    "_polynomial",
    "_functional",
    "_array_api",
    "_array_editing",  # append, insert, delete, resize, trim_zeros
    "_array_assembly",  # block, fromiter
    "_array_writes",  # copyto, fill_diagonal
    "_axis_order",  # rollaxis
    "_ufunclike",  # isposinf, isneginf
    "_type_queries",  # isscalar, common_type, mintypecode, min_scalar_type, typename, True_...
    "_checked_conversions",  # asarray_chkfinite, real_if_close, sort_complex
    "_memory_layout",  # require, isfortran, shares_memory, may_share_memory
    "_window_functions",  # bartlett, blackman, hamming, hanning, kaiser
    "_bit_packing",  # packbits, unpackbits
    "_number_representations",  # binary_repr, base_repr
    "_index_expressions",  # s_, index_exp, mask_indices
    "_polynomial_construction",  # vander, poly
    "_broadcast_object",  # broadcast
    "_functional_axes",  # apply_over_axes
    "_deprecated_aliases",  # row_stack (warns as NumPy does)
    "_emath_namespace",  # the emath submodule (numpy.emath)
    "_devices",  # devices(): the hardware model (measured figures, presets)
    "_config",  # config and OutOfMemory (a compiled plan's step would exceed config.memory_limit)
)
for _family in _FAMILIES:
    _module = __import__(f"arraystack.{_family}", fromlist=["__all__"])
    globals().update({_name: getattr(_module, _name) for _name in _module.__all__})
    __all__ += [_name for _name in _module.__all__ if _name not in __all__]

