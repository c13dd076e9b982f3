"""String operations (numpy.strings): NumPy's functions on arrays of str_ and bytes_, applied eagerly
to the buffers of arraystack arrays, with arraystack arrays as results.

Strings are host dtypes: arraystack arrays of them hold a NumPy buffer and compute eagerly with NumPy;
under jit, grad or vmap these functions raise arraystack.errors.HostDtypeError.
"""

from __future__ import annotations

from arraystack._core.interop import host_forwarder

_MODULE = "arraystack.strings"
add = host_forwarder("numpy.strings.add", _MODULE)
capitalize = host_forwarder("numpy.strings.capitalize", _MODULE)
center = host_forwarder("numpy.strings.center", _MODULE)
count = host_forwarder("numpy.strings.count", _MODULE)
decode = host_forwarder("numpy.strings.decode", _MODULE)
encode = host_forwarder("numpy.strings.encode", _MODULE)
endswith = host_forwarder("numpy.strings.endswith", _MODULE)
equal = host_forwarder("numpy.strings.equal", _MODULE)
expandtabs = host_forwarder("numpy.strings.expandtabs", _MODULE)
find = host_forwarder("numpy.strings.find", _MODULE)
greater = host_forwarder("numpy.strings.greater", _MODULE)
greater_equal = host_forwarder("numpy.strings.greater_equal", _MODULE)
index = host_forwarder("numpy.strings.index", _MODULE)
isalnum = host_forwarder("numpy.strings.isalnum", _MODULE)
isalpha = host_forwarder("numpy.strings.isalpha", _MODULE)
isdecimal = host_forwarder("numpy.strings.isdecimal", _MODULE)
isdigit = host_forwarder("numpy.strings.isdigit", _MODULE)
islower = host_forwarder("numpy.strings.islower", _MODULE)
isnumeric = host_forwarder("numpy.strings.isnumeric", _MODULE)
isspace = host_forwarder("numpy.strings.isspace", _MODULE)
istitle = host_forwarder("numpy.strings.istitle", _MODULE)
isupper = host_forwarder("numpy.strings.isupper", _MODULE)
less = host_forwarder("numpy.strings.less", _MODULE)
less_equal = host_forwarder("numpy.strings.less_equal", _MODULE)
ljust = host_forwarder("numpy.strings.ljust", _MODULE)
lower = host_forwarder("numpy.strings.lower", _MODULE)
lstrip = host_forwarder("numpy.strings.lstrip", _MODULE)
mod = host_forwarder("numpy.strings.mod", _MODULE)
multiply = host_forwarder("numpy.strings.multiply", _MODULE)
not_equal = host_forwarder("numpy.strings.not_equal", _MODULE)
partition = host_forwarder("numpy.strings.partition", _MODULE)
replace = host_forwarder("numpy.strings.replace", _MODULE)
rfind = host_forwarder("numpy.strings.rfind", _MODULE)
rindex = host_forwarder("numpy.strings.rindex", _MODULE)
rjust = host_forwarder("numpy.strings.rjust", _MODULE)
rpartition = host_forwarder("numpy.strings.rpartition", _MODULE)
rstrip = host_forwarder("numpy.strings.rstrip", _MODULE)
slice = host_forwarder("numpy.strings.slice", _MODULE)
startswith = host_forwarder("numpy.strings.startswith", _MODULE)
str_len = host_forwarder("numpy.strings.str_len", _MODULE)
strip = host_forwarder("numpy.strings.strip", _MODULE)
swapcase = host_forwarder("numpy.strings.swapcase", _MODULE)
title = host_forwarder("numpy.strings.title", _MODULE)
translate = host_forwarder("numpy.strings.translate", _MODULE)
upper = host_forwarder("numpy.strings.upper", _MODULE)
zfill = host_forwarder("numpy.strings.zfill", _MODULE)

__all__ = [
    "add",
    "capitalize",
    "center",
    "count",
    "decode",
    "encode",
    "endswith",
    "equal",
    "expandtabs",
    "find",
    "greater",
    "greater_equal",
    "index",
    "isalnum",
    "isalpha",
    "isdecimal",
    "isdigit",
    "islower",
    "isnumeric",
    "isspace",
    "istitle",
    "isupper",
    "less",
    "less_equal",
    "ljust",
    "lower",
    "lstrip",
    "mod",
    "multiply",
    "not_equal",
    "partition",
    "replace",
    "rfind",
    "rindex",
    "rjust",
    "rpartition",
    "rstrip",
    "slice",
    "startswith",
    "str_len",
    "strip",
    "swapcase",
    "title",
    "translate",
    "upper",
    "zfill",
]
