"""Docstrings of ndarray's attributes and methods, as NumPy keeps them apart from the type's code
(numpy/_core/_add_newdocs.py): one table, rendered in NumPy's style by `document(ndarray)`.

A method that mirrors a function refers to it for the details; its Notes say where arraystack differs.
"""

from __future__ import annotations

import textwrap  # already loaded by NumPy

# attribute -> (summary, notes or "")
ATTRIBUTES = {
    "T": ("View of the transposed array (``self.transpose()``).", ""),
    "mT": ("View of the matrix transposed array: the last two axes swapped.", "Raises ValueError for arrays of fewer than two dimensions."),
    "base": ("Base object if memory is from some other object.", "A view's base is a new arraystack array on the same buffer, not the very object it came from (``b.base is not None`` holds as in NumPy, ``b.base is a`` does not); traced values have none."),
    "device": ("The device the array's buffer lives on (Array API).", "Traced values report the default device, where the trace will run unless the planner places it elsewhere."),
    "dtype": ("Data-type of the array's elements.", "arraystack uses NumPy's dtype objects themselves."),
    "flags": ("Information about the memory layout of the array.", "Concrete arrays only: a traced value has no memory layout (ConcretizationError)."),
    "imag": ("The imaginary part of the array.", "Assigning to it writes the imaginary part in place (functionalized when traced)."),
    "itemsize": ("Length of one array element in bytes.", ""),
    "nbytes": ("Total bytes consumed by the elements of the array.", ""),
    "ndim": ("Number of array dimensions.", ""),
    "real": ("The real part of the array.", "Assigning to it writes the real part in place (functionalized when traced)."),
    "shape": ("Tuple of array dimensions.", "Assigning to it reshapes the array in place where NumPy can without a copy (else AttributeError); a traced array is rebound to the reshaped value."),
    "size": ("Number of elements in the array.", ""),
    "strides": ("Tuple of bytes to step in each dimension when traversing an array.", "Concrete arrays only: a traced value has no memory layout (ConcretizationError)."),
}  # fmt: skip

_FORWARDED = "*args, **kwargs\n    The arguments of `arraystack.{fn}` after the array:\n    {rest}."
_REDUCE = "axis, dtype, out, keepdims, initial, where"

# method -> (summary, equivalent arraystack function or "", Parameters text, Returns text, notes)
METHODS = {
    "all": ("Returns True if all elements evaluate to True.", "all", _FORWARDED.format(fn="all", rest="axis, out, keepdims, where"), "all : ndarray\n    Boolean result.", ""),
    "any": ("Returns True if any of the elements evaluate to True.", "any", _FORWARDED.format(fn="any", rest="axis, out, keepdims, where"), "any : ndarray\n    Boolean result.", ""),
    "argmax": ("Return indices of the maximum values along the given axis.", "argmax", _FORWARDED.format(fn="argmax", rest="axis, out, keepdims"), "index_array : ndarray\n    Indices of the maxima.", ""),
    "argmin": ("Return indices of the minimum values along the given axis.", "argmin", _FORWARDED.format(fn="argmin", rest="axis, out, keepdims"), "index_array : ndarray\n    Indices of the minima.", ""),
    "astype": ("Copy of the array, cast to a specified type.", "astype", "dtype : str or dtype\n    Typecode or data-type to which the array is cast.\norder : {'C', 'F', 'A', 'K'}, optional\n    Memory layout of the result; 'K' (default) keeps the array's.\ncasting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional\n    Controls what kind of data casting may occur; 'unsafe' by default.\nsubok : bool, optional\n    Accepted for compatibility (arraystack has no subclasses).\ncopy : bool, optional\n    If False and the dtype already matches, the array itself is returned.", "arr_t : ndarray\n    The array cast to `dtype`.", ""),
    "clip": ("Return an array whose values are limited to ``[min, max]``.", "clip", "min, max : array_like, optional\n    The bounds; None means no bound on that side.\nout : ndarray, optional\n    The results are placed in this array.\n**kwargs\n    The ufunc keywords of `arraystack.clip`.", "clipped_array : ndarray\n    The clipped values.", ""),
    "conj": ("Complex-conjugate all elements.", "conjugate", "", "out : ndarray\n    The complex conjugate.", ""),
    "conjugate": ("Return the complex conjugate, element-wise.", "conjugate", "", "out : ndarray\n    The complex conjugate.", ""),
    "copy": ("Return a copy of the array.", "copy", "order : {'C', 'F', 'A', 'K'}, optional\n    Controls the memory layout of the copy; 'C' by default.", "arr : ndarray\n    A copy of the array.", ""),
    "cumprod": ("Return the cumulative product of the elements along the given axis.", "cumprod", _FORWARDED.format(fn="cumprod", rest="axis, dtype, out"), "cumprod : ndarray\n    The cumulative products.", ""),
    "cumsum": ("Return the cumulative sum of the elements along the given axis.", "cumsum", _FORWARDED.format(fn="cumsum", rest="axis, dtype, out"), "cumsum : ndarray\n    The cumulative sums.", ""),
    "dot": ("Dot product of the array with `b`.", "dot", "b : array_like\n    The second operand.\nout : ndarray, optional\n    Output argument.", "output : ndarray\n    The dot product.", ""),
    "fill": ("Fill the array with a scalar value (in place).", "", "value : scalar\n    All elements of the array are assigned this value.", "None", "Traced, the array is rebound to the filled value (functionalized)."),
    "flatten": ("Return a copy of the array collapsed into one dimension.", "ravel", "order : {'C', 'F', 'A', 'K'}, optional\n    The order in which to read the elements; 'C' by default.", "y : ndarray\n    A 1-D copy of the array.", ""),
    "item": ("Copy an element of an array to a standard Python scalar and return it.", "", "*args : Arguments (variable number and type)\n    None: the array must have one element; an int: a flat index; a tuple of ints:\n    an index per axis.", "z : Standard Python scalar object\n    A copy of the specified element as a Python scalar.", "Under `jit` the value is not known while tracing (ConcretizationError); under `grad`/`jvp` of concrete values it is."),
    "max": ("Return the maximum along a given axis.", "max", _FORWARDED.format(fn="max", rest="axis, out, keepdims, initial, where"), "max : ndarray\n    The maximum.", ""),
    "mean": ("Returns the average of the array elements along given axis.", "mean", _FORWARDED.format(fn="mean", rest="axis, dtype, out, keepdims, where"), "m : ndarray\n    The mean.", ""),
    "min": ("Return the minimum along a given axis.", "min", _FORWARDED.format(fn="min", rest="axis, out, keepdims, initial, where"), "min : ndarray\n    The minimum.", ""),
    "nonzero": ("Return the indices of the elements that are non-zero.", "nonzero", "", "tuple_of_arrays : tuple\n    One index array per dimension.", "Under `jit` the number of nonzero elements is data: use `arraystack.nonzero` with `size=`."),
    "prod": ("Return the product of the array elements over the given axis.", "prod", _FORWARDED.format(fn="prod", rest=_REDUCE), "product : ndarray\n    The product.", ""),
    "ravel": ("Return a flattened array.", "ravel", "order : {'C', 'F', 'A', 'K'}, optional\n    The order in which to read the elements; 'C' by default.", "y : ndarray\n    A 1-D view when possible (eagerly), else a copy.", ""),
    "repeat": ("Repeat elements of an array.", "repeat", "repeats : int or array of ints\n    The number of repetitions for each element.\naxis : int, optional\n    The axis along which to repeat values; by default the flattened array.", "repeated_array : ndarray\n    The repeated elements.", ""),
    "reshape": ("Returns an array containing the same data with a new shape.", "reshape", "*shape : int or tuple of ints\n    The new shape, given as one tuple or as separate integers.\norder : {'C', 'F', 'A'}, optional\n    Read and place the elements in this index order.\ncopy : bool, optional\n    If True, copy; if False, a needed copy raises ValueError; if None, copy only when needed.", "reshaped_array : ndarray\n    A view when possible (eagerly), else a copy.", ""),
    "round": ("Return the array with each element rounded to the given number of decimals.", "round", "decimals : int, optional\n    Number of decimal places to round to.\nout : ndarray, optional\n    Alternative output array.", "rounded_array : ndarray\n    The rounded values.", ""),
    "squeeze": ("Remove axes of length one.", "squeeze", "axis : None or int or tuple of ints, optional\n    Selects a subset of the length-one axes.", "squeezed : ndarray\n    The array without the length-one dimensions.", ""),
    "std": ("Returns the standard deviation of the array elements along given axis.", "std", _FORWARDED.format(fn="std", rest="axis, dtype, out, ddof, keepdims, where, mean, correction"), "standard_deviation : ndarray\n    The standard deviation.", ""),
    "sum": ("Return the sum of the array elements over the given axis.", "sum", _FORWARDED.format(fn="sum", rest=_REDUCE), "sum_along_axis : ndarray\n    The sum.", ""),
    "swapaxes": ("Return a view of the array with `axis1` and `axis2` interchanged.", "swapaxes", "axis1, axis2 : int\n    The axes to interchange.", "a_swapped : ndarray\n    The array with the two axes interchanged.", ""),
    "to_device": ("Copy the array to a device (Array API).", "", "device : str or Device\n    The target device, e.g. 'cpu' or a key of `arraystack.devices()`.\nstream : object, optional\n    Accepted for the Array API; unused.", "out : ndarray\n    The array on `device`; the array itself if it is there already.", ""),
    "tobytes": ("Construct Python bytes containing the raw data bytes in the array.", "", "order : {'C', 'F', 'A'}, optional\n    Controls the memory layout of the bytes object; 'C' by default.", "s : bytes\n    Python bytes exhibiting a copy of the array's raw data.", "Concrete values only: under `jit` it raises ConcretizationError."),
    "tolist": ("Return the array as an ``a.ndim``-levels deep nested list of Python scalars.", "", "", "y : object, or list of object, or list of list of object, or ...\n    The possibly nested list of array elements.", "Concrete values only: under `jit` it raises ConcretizationError."),
    "transpose": ("Returns a view of the array with axes transposed.", "transpose", "*axes : None, tuple of ints, or n ints\n    The permutation of the axes, as one tuple or separate integers; by default reversed.", "p : ndarray\n    The array with its axes permuted.", ""),
    "var": ("Returns the variance of the array elements, along given axis.", "var", _FORWARDED.format(fn="var", rest="axis, dtype, out, ddof, keepdims, where, mean, correction"), "variance : ndarray\n    The variance.", ""),
}  # fmt: skip


def _section(title, body):
    return f"{title}\n{'-' * len(title)}\n{body}\n" if body else ""


def _wrap(text):
    return textwrap.fill(text, 92) if len(text) > 92 else text


def attribute_docstring(name) -> str:
    summary, notes = ATTRIBUTES[name]
    also = f"numpy.ndarray.{name} : The NumPy attribute this mirrors."
    return (
        f"{summary}\n\n"
        + _section("See Also", also)
        + ("\n" + _section("Notes", _wrap(notes)) if notes else "")
    )


def method_docstring(name) -> str:
    summary, function, params, returns, notes = METHODS[name]
    also = f"numpy.ndarray.{name} : The NumPy method this mirrors."
    refer = ""
    if function:
        also += f"\narraystack.{function} : The equivalent function."
        refer = f"Refer to `arraystack.{function}` for full documentation.\n\n"
    parts = [f"{summary}\n\n{refer}", _section("Parameters", params), _section("Returns", returns)]
    parts += [_section("See Also", also), _section("Notes", _wrap(notes))]
    return "\n".join(p for p in parts if p).replace("\n\n\n", "\n\n")


def document(cls):
    """Attach the docstrings of the tables to `cls`'s attributes (properties) and methods."""
    for name in ATTRIBUTES:
        cls.__dict__[name].__doc__ = attribute_docstring(name)
    for name in METHODS:  # some are inherited (array_methods.ArrayMethods): the function, wherever it is
        getattr(cls, name).__doc__ = method_docstring(name)
