"""Legacy string operations (numpy.char): NumPy's functions, applied eagerly to the buffers of
arraystack arrays, with arraystack arrays as results (`chararray`, `array` and `asarray` give NumPy's
chararray objects, as numpy.char does).

Strings are host dtypes: under jit, grad or vmap these functions raise arraystack.errors.HostDtypeError.
"""

from __future__ import annotations

import numpy

from arraystack._core.interop import host_forwarder

chararray = numpy.char.chararray  # NumPy's class

_MODULE = "arraystack.char"
add = host_forwarder("numpy.char.add", _MODULE)
array = host_forwarder("numpy.char.array", _MODULE)
asarray = host_forwarder("numpy.char.asarray", _MODULE)
capitalize = host_forwarder("numpy.char.capitalize", _MODULE)
center = host_forwarder("numpy.char.center", _MODULE)
compare_chararrays = host_forwarder("numpy.char.compare_chararrays", _MODULE)
count = host_forwarder("numpy.char.count", _MODULE)
decode = host_forwarder("numpy.char.decode", _MODULE)
encode = host_forwarder("numpy.char.encode", _MODULE)
endswith = host_forwarder("numpy.char.endswith", _MODULE)
equal = host_forwarder("numpy.char.equal", _MODULE)
expandtabs = host_forwarder("numpy.char.expandtabs", _MODULE)
find = host_forwarder("numpy.char.find", _MODULE)
greater = host_forwarder("numpy.char.greater", _MODULE)
greater_equal = host_forwarder("numpy.char.greater_equal", _MODULE)
index = host_forwarder("numpy.char.index", _MODULE)
isalnum = host_forwarder("numpy.char.isalnum", _MODULE)
isalpha = host_forwarder("numpy.char.isalpha", _MODULE)
isdecimal = host_forwarder("numpy.char.isdecimal", _MODULE)
isdigit = host_forwarder("numpy.char.isdigit", _MODULE)
islower = host_forwarder("numpy.char.islower", _MODULE)
isnumeric = host_forwarder("numpy.char.isnumeric", _MODULE)
isspace = host_forwarder("numpy.char.isspace", _MODULE)
istitle = host_forwarder("numpy.char.istitle", _MODULE)
isupper = host_forwarder("numpy.char.isupper", _MODULE)
join = host_forwarder("numpy.char.join", _MODULE)
less = host_forwarder("numpy.char.less", _MODULE)
less_equal = host_forwarder("numpy.char.less_equal", _MODULE)
ljust = host_forwarder("numpy.char.ljust", _MODULE)
lower = host_forwarder("numpy.char.lower", _MODULE)
lstrip = host_forwarder("numpy.char.lstrip", _MODULE)
mod = host_forwarder("numpy.char.mod", _MODULE)
multiply = host_forwarder("numpy.char.multiply", _MODULE)
not_equal = host_forwarder("numpy.char.not_equal", _MODULE)
partition = host_forwarder("numpy.char.partition", _MODULE)
replace = host_forwarder("numpy.char.replace", _MODULE)
rfind = host_forwarder("numpy.char.rfind", _MODULE)
rindex = host_forwarder("numpy.char.rindex", _MODULE)
rjust = host_forwarder("numpy.char.rjust", _MODULE)
rpartition = host_forwarder("numpy.char.rpartition", _MODULE)
rsplit = host_forwarder("numpy.char.rsplit", _MODULE)
rstrip = host_forwarder("numpy.char.rstrip", _MODULE)
split = host_forwarder("numpy.char.split", _MODULE)
splitlines = host_forwarder("numpy.char.splitlines", _MODULE)
startswith = host_forwarder("numpy.char.startswith", _MODULE)
str_len = host_forwarder("numpy.char.str_len", _MODULE)
strip = host_forwarder("numpy.char.strip", _MODULE)
swapcase = host_forwarder("numpy.char.swapcase", _MODULE)
title = host_forwarder("numpy.char.title", _MODULE)
translate = host_forwarder("numpy.char.translate", _MODULE)
upper = host_forwarder("numpy.char.upper", _MODULE)
zfill = host_forwarder("numpy.char.zfill", _MODULE)

__all__ = [
    "add",
    "array",
    "asarray",
    "capitalize",
    "center",
    "chararray",
    "compare_chararrays",
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
    "join",
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
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "startswith",
    "str_len",
    "strip",
    "swapcase",
    "title",
    "translate",
    "upper",
    "zfill",
]
