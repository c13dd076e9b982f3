"""NumPy-style docstrings of the functions of _selection.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "choose": """\
Construct an array from an index array and a list of arrays to choose from.

Parameters
----------
a : int array
    Index array: which of `choices` each element comes from; it broadcasts with the choices.
choices : sequence of arrays
    Choice arrays; `a` and all of them must broadcast to the same shape.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
mode : {'raise', 'wrap', 'clip'}, optional
    How out-of-bounds indices behave. 'raise' (the default): an entry outside [0, n) raises
    ValueError, also under `jit`, `grad` and `vmap`, where a traced index is checked when the
    computation runs. 'wrap': entries wrap around (modulo n). 'clip': entries are clamped to
    [0, n - 1].

Returns
-------
merged_array : ndarray
    The merged result.

See Also
--------
numpy.choose : The NumPy function this mirrors.
select, where, take
""",
    "compress": """\
Return selected slices of an array along given axis.

Parameters
----------
condition : 1-D array of bools
    Which entries to return along `axis`; shorter than the axis means False for the rest.
a : array_like
    Array from which to extract a part.
axis : int, optional
    Axis along which to take slices; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
size : int, optional
    An arraystack extension (as in jax.numpy): exactly `size` entries are returned, cut or padded
    with `fill_value`. Required inside `jit`, where the number of selected entries must be static.
fill_value : scalar, optional
    The padding value when `size` exceeds the number of selected entries.

Returns
-------
compressed_array : ndarray
    A copy of `a` without the slices along `axis` for which `condition` is false.

See Also
--------
numpy.compress : The NumPy function this mirrors.
take, extract, choose, nonzero
""",
    "extract": """\
Return the elements of an array that satisfy some condition.

Parameters
----------
condition : array_like
    An array whose nonzero or True entries indicate the elements of `arr` to extract.
arr : array_like
    Input array of the same size as `condition`.
size : int, optional
    An arraystack extension (as in jax.numpy): exactly `size` entries are returned, cut or padded
    with `fill_value`. Required inside `jit`, where the number of selected entries must be static.
fill_value : scalar, optional
    The padding value when `size` exceeds the number of selected entries.

Returns
-------
extract : ndarray
    Rank 1 array of the values of `arr` where `condition` is True.

See Also
--------
numpy.extract : The NumPy function this mirrors.
compress, take, place
""",
    "piecewise": """\
Evaluate a piecewise-defined function.

Parameters
----------
x : array_like
    The input domain.
condlist : list of bool arrays or bool scalars
    Each condition selects where the corresponding function applies.
funclist : list of callables, f(x,*args,**kw), or scalars
    Functions (or constant values) per condition; one extra entry is the default where no condition
    holds.
*args : tuple, optional
    Extra positional arguments passed to each function.
**kw : dict, optional
    Extra keyword arguments passed to each function.

Returns
-------
out : ndarray
    The output, the same shape and type as `x`.

See Also
--------
numpy.piecewise : The NumPy function this mirrors.
select, where, choose

Notes
-----
When traced, each function is called on the whole of `x` and its results are kept where its
condition holds (NumPy calls it on ``x[cond]`` only), so the functions must work elementwise.
""",
    "place": """\
Change elements of an array based on conditional and input values (in place).

Parameters
----------
arr : ndarray
    Array to put data into.
mask : array_like
    Boolean mask array, the same size as `arr`.
vals : 1-D sequence
    Values to put into `arr`: the i-th True of `mask` gets ``vals[i % len(vals)]``.

Returns
-------
None
    `arr` is modified in place (functionalized when traced).

See Also
--------
numpy.place : The NumPy function this mirrors.
putmask, put, extract
""",
    "put": """\
Replaces specified elements of an array with given values (in place).

The same as ``a.flat[ind] = v``, with `v` repeated as needed; of duplicate indices the later one
wins.

Parameters
----------
a : ndarray
    Target array.
ind : array_like
    Target indices, interpreted as integers into the flattened array.
v : array_like
    Values to place in `a` at the target indices.
mode : {'raise', 'wrap', 'clip', 'drop'}, optional
    How out-of-bounds indices behave. 'raise' (the default): an index outside [-n, n) raises
    IndexError, naming the index, the axis and its size, and nothing is written; negative indices
    count from the end. Under `jit`, `grad` and `vmap` a traced index is checked when the
    computation runs and raises the same error. 'wrap': indices wrap around (modulo n). 'clip':
    indices are clamped to [0, n - 1]. 'drop' (an arraystack extension, JAX's scatter mode): values
    at indices outside [-n, n) are skipped.

Returns
-------
None
    `a` is modified in place (functionalized when traced).

See Also
--------
numpy.put : The NumPy function this mirrors.
putmask, place, put_along_axis, take
""",
    "put_along_axis": """\
Put values into the destination array by matching 1d index and data slices (in place).

Parameters
----------
arr : ndarray
    Destination array.
indices : ndarray
    Indices to change along each 1d slice of `arr`; they broadcast against `arr`.
values : array_like
    Values to insert at the indices, broadcast against `indices`.
axis : int
    The axis to take 1d slices along.
mode : {'raise', 'wrap', 'clip', 'drop'}, optional
    An arraystack extension (NumPy's put_along_axis always raises): how out-of-bounds indices
    behave. 'raise' (the default): an index outside [-n, n) raises IndexError, naming the index,
    the axis and its size, and `arr` is left unchanged; under `jit`, `grad` and `vmap` a traced
    index is checked when the computation runs. 'wrap': modulo n. 'clip': clamped to [0, n - 1].
    'drop' (JAX's scatter mode): values at indices outside [-n, n) are skipped.

Returns
-------
None
    `arr` is modified in place (functionalized when traced).

See Also
--------
numpy.put_along_axis : The NumPy function this mirrors.
take_along_axis, put
""",
    "putmask": """\
Changes elements of an array based on conditional and input values (in place).

Sets ``a.flat[n] = values[n % len(values)]`` for each n where ``mask.flat[n]`` is True.

Parameters
----------
a : ndarray
    Target array.
mask : array_like
    Boolean mask array; it must have the same shape as `a`.
values : array_like
    Values to put into `a` where `mask` is True, repeated as needed.

Returns
-------
None
    `a` is modified in place (functionalized when traced).

See Also
--------
numpy.putmask : The NumPy function this mirrors.
place, put, where
""",
    "select": """\
Return an array drawn from elements in choicelist, depending on conditions.

Parameters
----------
condlist : list of bool ndarrays
    The conditions; where several hold, the first one in the list wins.
choicelist : list of ndarrays
    The arrays from which the output elements are taken; the same length as `condlist`.
default : scalar, optional
    The element inserted where all conditions are False.

Returns
-------
output : ndarray
    The element of the first choice whose condition holds, else `default`.

See Also
--------
numpy.select : The NumPy function this mirrors.
where, choose, piecewise
""",
    "take": """\
Take elements from an array along an axis.

Parameters
----------
a : array_like
    The source array.
indices : array_like of int
    The indices of the values to extract.
axis : int, optional
    The axis over which to select values; by default, the flattened input array is used.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
mode : {'raise', 'wrap', 'clip'}, optional
    How out-of-bounds indices behave. 'raise' (the default): an index outside [-n, n) raises
    IndexError, naming the index, the axis and its size; negative indices count from the end. Under
    `jit`, `grad` and `vmap` a traced index is checked when the computation runs and raises the same
    error. 'wrap': indices wrap around (modulo n). 'clip': indices are clamped to [0, n - 1]
    (a negative index becomes 0), the explicit way to ask for clamping.

Returns
-------
out : ndarray
    The returned array has the same type as `a`.

See Also
--------
numpy.take : The NumPy function this mirrors.
take_along_axis, compress, choose, ndarray.take
""",
    "take_along_axis": """\
Take values from the input array by matching 1d index and data slices.

Parameters
----------
arr : ndarray
    Source array.
indices : ndarray
    Indices to take along each 1d slice of `arr`, as returned by argsort or argpartition.
axis : int or None, optional
    The axis to take 1d slices along; None means the flattened array.
mode : {'raise', 'wrap', 'clip'}, optional
    An arraystack extension (NumPy's take_along_axis always raises): how out-of-bounds indices
    behave. 'raise' (the default): an index outside [-n, n) raises IndexError, naming the index,
    the axis and its size; under `jit`, `grad` and `vmap` a traced index is checked when the
    computation runs. 'wrap': modulo n. 'clip': clamped to [0, n - 1].

Returns
-------
out : ndarray
    The indexed result.

See Also
--------
numpy.take_along_axis : The NumPy function this mirrors.
take, put_along_axis, argsort
""",
    "_take_method": """\
Return an array formed from the elements of this array at the given indices.

Refer to `arraystack.take` for full documentation.

Parameters
----------
indices : array_like
    Indices of the values to take.
axis : int, optional
    The axis over which to select; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
mode : {'raise', 'wrap', 'clip'}, optional
    How out-of-bounds indices behave. 'raise' (the default): an index outside [-n, n) raises
    IndexError, naming the index, the axis and its size; negative indices count from the end. Under
    `jit`, `grad` and `vmap` a traced index is checked when the computation runs and raises the same
    error. 'wrap': indices wrap around (modulo n). 'clip': indices are clamped to [0, n - 1]
    (a negative index becomes 0), the explicit way to ask for clamping.

Returns
-------
out : ndarray
    The selected elements.

See Also
--------
numpy.ndarray.take : The NumPy method this mirrors.
arraystack.take : The equivalent function.
""",
    "_put_method": """\
Set ``a.flat[n] = values[n]`` for all n in indices (in place).

Refer to `arraystack.put` for full documentation.

Parameters
----------
indices : array_like
    Target indices into the flattened array.
values : array_like
    Values to place.
mode : {'raise', 'wrap', 'clip', 'drop'}, optional
    How out-of-bounds indices behave. 'raise' (the default): an index outside [-n, n) raises
    IndexError, naming the index, the axis and its size, and nothing is written; negative indices
    count from the end. Under `jit`, `grad` and `vmap` a traced index is checked when the
    computation runs and raises the same error. 'wrap': indices wrap around (modulo n). 'clip':
    indices are clamped to [0, n - 1]. 'drop' (an arraystack extension, JAX's scatter mode): values
    at indices outside [-n, n) are skipped.

Returns
-------
None
    The array is modified in place.

See Also
--------
numpy.ndarray.put : The NumPy method this mirrors.
arraystack.put : The equivalent function.
""",
    "_compress_method": """\
Return selected slices of this array along the given axis.

Refer to `arraystack.compress` for full documentation.

Parameters
----------
condition : 1-D array of bools
    Which entries to keep.
axis : int, optional
    Axis along which to take slices; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.

Returns
-------
compressed_array : ndarray
    The selected slices.

See Also
--------
numpy.ndarray.compress : The NumPy method this mirrors.
arraystack.compress : The equivalent function.
""",
    "_choose_method": """\
Use this array as an index array to construct a new array from a set of choices.

Refer to `arraystack.choose` for full documentation.

Parameters
----------
choices : sequence of arrays
    Choice arrays.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
mode : {'raise', 'wrap', 'clip'}, optional
    How out-of-bounds indices behave. 'raise' (the default): an entry outside [0, n) raises
    ValueError, also under `jit`, `grad` and `vmap`, where a traced index is checked when the
    computation runs. 'wrap': entries wrap around (modulo n). 'clip': entries are clamped to
    [0, n - 1].

Returns
-------
merged_array : ndarray
    The merged result.

See Also
--------
numpy.ndarray.choose : The NumPy method this mirrors.
arraystack.choose : The equivalent function.
""",
}
