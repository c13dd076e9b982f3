"""arraystack.nn: neural-network building blocks as pure functions over pytrees of parameters, and
modules (classes whose instances are pytrees) built on those functions.

Everything is composed of public arraystack functions, so it runs eagerly, under arraystack.jit and under
the differentiation and batching transformations with no rules of its own (softmax_cross_entropy adds a
custom VJP). This module is the table of contents: import blocks and __all__.
"""

from arraystack.nn import initializers, mixed_precision
from arraystack.nn.activations import *
from arraystack.nn.activations import __all__ as _activations_all
from arraystack.nn.attention import *
from arraystack.nn.attention import __all__ as _attention_all
from arraystack.nn.conv import *
from arraystack.nn.conv import __all__ as _conv_all
from arraystack.nn.conv_layers import *
from arraystack.nn.conv_layers import __all__ as _conv_layers_all
from arraystack.nn.dropout import *
from arraystack.nn.dropout import __all__ as _dropout_all
from arraystack.nn.layers import *
from arraystack.nn.layers import __all__ as _layers_all
from arraystack.nn.losses import *
from arraystack.nn.losses import __all__ as _losses_all
from arraystack.nn.module import *
from arraystack.nn.module import __all__ as _module_all
from arraystack.nn.module_layers import *
from arraystack.nn.module_layers import __all__ as _module_layers_all
from arraystack.nn.normalization import *
from arraystack.nn.normalization import __all__ as _normalization_all
from arraystack.nn.partition import *
from arraystack.nn.partition import __all__ as _partition_all
from arraystack.nn.pooling import *
from arraystack.nn.pooling import __all__ as _pooling_all
from arraystack.nn.recurrent import *
from arraystack.nn.recurrent import __all__ as _recurrent_all
from arraystack.nn.sequence_layers import *
from arraystack.nn.sequence_layers import __all__ as _sequence_layers_all

__all__ = [
    *_activations_all,
    *_normalization_all,
    *_losses_all,
    *_layers_all,
    *_conv_all,
    *_conv_layers_all,
    *_pooling_all,
    *_recurrent_all,
    *_dropout_all,
    *_module_all,
    *_partition_all,
    *_module_layers_all,
    *_attention_all,
    *_sequence_layers_all,
    "initializers",
    "mixed_precision",
]
