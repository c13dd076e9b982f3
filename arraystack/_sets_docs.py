"""NumPy-style docstrings of the functions of _sets.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "intersect1d": """\
Find the intersection of two arrays.

Parameters
----------
ar1 : array_like
    First input array; flattened if not 1-D.
ar2 : array_like
    Second input array; flattened if not 1-D.
assume_unique : bool, optional
    If True, the inputs are assumed unique, which can speed up the calculation.
return_indices : bool, optional
    If True, also return the indices of the first occurrences of the common values in `ar1` and
    `ar2`.

Returns
-------
intersect1d : ndarray
    Sorted 1D array of common and unique elements.
comm1 : ndarray
    Indices of the first occurrences in `ar1` (with `return_indices`).
comm2 : ndarray
    Indices of the first occurrences in `ar2` (with `return_indices`).

See Also
--------
numpy.intersect1d : The NumPy function this mirrors.
union1d, setdiff1d, setxor1d, isin, unique

Notes
-----
Its output shape depends on the data, so it is not traceable under `jit`.
""",
    "isin": """\
Calculates ``element in test_elements``, broadcasting over `element` only.

Parameters
----------
element : array_like
    Input array.
test_elements : array_like
    The values against which to test each value of `element`; flattened.
assume_unique : bool, optional
    If True, the inputs are assumed unique, which can speed up the calculation.
invert : bool, optional
    If True, the result is inverted (``element not in test_elements``).
kind : {None, 'sort', 'table'}, optional
    The algorithm NumPy would use; the results are the same for every kind.

Returns
-------
isin : ndarray, bool
    Has the same shape as `element`.

See Also
--------
numpy.isin : The NumPy function this mirrors.
unique, intersect1d

Notes
-----
Membership uses ``==`` semantics, so NaN is never found. It is a binary search in the sorted test
elements for every kind, so it keeps its shape under `jit`.
""",
    "setdiff1d": """\
Find the set difference of two arrays: the unique values in `ar1` that are not in `ar2`.

Parameters
----------
ar1 : array_like
    Input array.
ar2 : array_like
    Input comparison array.
assume_unique : bool, optional
    If True, the inputs are assumed unique, which can speed up the calculation.

Returns
-------
setdiff1d : ndarray
    1D array of values in `ar1` that are not in `ar2`, sorted when `ar1` is not assumed unique.

See Also
--------
numpy.setdiff1d : The NumPy function this mirrors.
intersect1d, union1d, setxor1d

Notes
-----
Its output shape depends on the data, so it is not traceable under `jit`.
""",
    "setxor1d": """\
Find the set exclusive-or of two arrays: the unique values in exactly one of them.

Parameters
----------
ar1 : array_like
    First input array; flattened if not 1-D.
ar2 : array_like
    Second input array; flattened if not 1-D.
assume_unique : bool, optional
    If True, the inputs are assumed unique, which can speed up the calculation.

Returns
-------
setxor1d : ndarray
    Sorted 1D array of unique values that are in only one of the input arrays.

See Also
--------
numpy.setxor1d : The NumPy function this mirrors.
intersect1d, union1d, setdiff1d

Notes
-----
Its output shape depends on the data, so it is not traceable under `jit`.
""",
    "union1d": """\
Find the union of two arrays: the unique, sorted values in either.

Parameters
----------
ar1 : array_like
    First input array; flattened if not 1-D.
ar2 : array_like
    Second input array; flattened if not 1-D.

Returns
-------
union1d : ndarray
    Unique, sorted union of the input arrays.

See Also
--------
numpy.union1d : The NumPy function this mirrors.
intersect1d, setdiff1d, unique

Notes
-----
Its output shape depends on the data, so it is not traceable under `jit`.
""",
    "unique": """\
Find the unique elements of an array.

Parameters
----------
ar : array_like
    Input array; flattened unless `axis` is given.
return_index : bool, optional
    If True, also return the indices of `ar` that give the unique values.
return_inverse : bool, optional
    If True, also return the indices of the unique array that reconstruct `ar`.
return_counts : bool, optional
    If True, also return the number of times each unique value appears.
axis : int or None, optional
    The axis to operate on; None flattens the input.
equal_nan : bool, optional
    If True, collapse multiple NaNs into one.
sorted : bool, optional
    If True (default), the unique values are sorted.
size : int, optional
    An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
    or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
    Required inside `jit`, where output shapes must be static.
fill_value : scalar, optional
    The padding value when `size` exceeds the number of unique values.

Returns
-------
unique : ndarray
    The unique values.
unique_indices : ndarray, optional
    Indices of the first occurrences (with `return_index`).
unique_inverse : ndarray, optional
    Indices to reconstruct `ar` (with `return_inverse`).
unique_counts : ndarray, optional
    The number of times each value appears (with `return_counts`).

See Also
--------
numpy.unique : The NumPy function this mirrors.
unique_values, unique_counts, unique_inverse, unique_all

Notes
-----
Without `size` its output shape depends on the data, so it is not traceable under `jit`. With
``sorted=False`` NumPy's order is unspecified; eagerly it is NumPy's own (hash) order, and traced
values come sorted.
""",
    "unique_all": """\
Find the unique elements of an array, and their first indices, inverse indices and counts (Array
API).

Parameters
----------
x : array_like
    Input array; it is flattened.
size : int, optional
    An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
    or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
    Required inside `jit`, where output shapes must be static.
fill_value : scalar, optional
    The padding value when `size` exceeds the number of unique values.

Returns
-------
out : namedtuple
    ``(values, indices, inverse_indices, counts)``.

See Also
--------
numpy.unique_all : The NumPy function this mirrors.
unique, unique_counts, unique_inverse, unique_values
""",
    "unique_counts": """\
Find the unique elements and their counts (Array API).

Parameters
----------
x : array_like
    Input array; it is flattened.
size : int, optional
    An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
    or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
    Required inside `jit`, where output shapes must be static.
fill_value : scalar, optional
    The padding value when `size` exceeds the number of unique values.

Returns
-------
out : namedtuple
    ``(values, counts)``.

See Also
--------
numpy.unique_counts : The NumPy function this mirrors.
unique, unique_all
""",
    "unique_inverse": """\
Find the unique elements and the indices that reconstruct the input (Array API).

Parameters
----------
x : array_like
    Input array; it is flattened.
size : int, optional
    An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
    or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
    Required inside `jit`, where output shapes must be static.
fill_value : scalar, optional
    The padding value when `size` exceeds the number of unique values.

Returns
-------
out : namedtuple
    ``(values, inverse_indices)``; the inverse has the shape of `x`.

See Also
--------
numpy.unique_inverse : The NumPy function this mirrors.
unique, unique_all
""",
    "unique_values": """\
Returns the unique elements of an input array (Array API).

Parameters
----------
x : array_like
    Input array; it is flattened.
size : int, optional
    An arraystack extension (as in jax.numpy.unique): exactly `size` unique values are returned, cut
    or padded with `fill_value` (default: the smallest value); indices and counts are padded with 0.
    Required inside `jit`, where output shapes must be static.
fill_value : scalar, optional
    The padding value when `size` exceeds the number of unique values.

Returns
-------
out : ndarray
    The unique elements.

See Also
--------
numpy.unique_values : The NumPy function this mirrors.
unique, unique_all

Notes
-----
NaNs are distinct. NumPy's order is unspecified; see `unique`.
""",
}
