"""NumPy-style docstrings of the functions of _sorting.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "argpartition": """\
Perform an indirect partition along the given axis.

Parameters
----------
a : array_like
    Input array.
kth : int or sequence of ints
    Element index (or indices) to partition by: the k-th element is in its sorted position, smaller
    ones before it, larger ones after.
axis : int or None, optional
    Axis along which to partition; -1 (the last) by default, None for the flattened array.
kind : {'introselect'}, optional
    Selection algorithm.
order : str or list of str, optional
    Field order for structured arrays; arraystack has none, so only None is accepted.

Returns
-------
index_array : ndarray, int
    Indices that partition `a` along the axis.

See Also
--------
numpy.argpartition : The NumPy function this mirrors.
partition, argsort, take_along_axis
""",
    "argsort": """\
Returns the indices that would sort an array.

Parameters
----------
a : array_like
    Input array.
axis : int or None, optional
    Axis along which to sort; the last by default, None for the flattened array.
kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
    Sorting algorithm; ties come out in NumPy's order for that kind (introsort, heapsort or stable).
order : str or list of str, optional
    Field order for structured arrays; arraystack has none, so only None is accepted.
stable : bool, optional
    If True, use a stable sort (Array API keyword).
descending : bool, optional
    Sort in descending order (an Array API keyword NumPy lacks).

Returns
-------
index_array : ndarray, int
    Indices that sort `a` along the axis.

See Also
--------
numpy.argsort : The NumPy function this mirrors.
sort, lexsort, take_along_axis

Notes
-----
With `descending`, the indices refer to the original array; the result is the sort of the flipped
array, flipped, so equal elements keep their relative order and NaNs come first.
""",
    "digitize": """\
Return the indices of the bins to which each value in input array belongs.

Parameters
----------
x : array_like
    Input array to be binned.
bins : array_like
    1-D monotonic array of bin edges.
right : bool, optional
    Whether the intervals include the right or the left bin edge.

Returns
-------
indices : ndarray of ints
    Output array of indices, of the same shape as `x`.

See Also
--------
numpy.digitize : The NumPy function this mirrors.
bincount, histogram, searchsorted

Notes
-----
With traced `bins` their monotonicity cannot be checked: increasing order is assumed unless
``bins[0] > bins[-1]``, which selects the decreasing formula.
""",
    "lexsort": """\
Perform an indirect stable sort using a sequence of keys.

The last key is the primary sort key; ties are broken by the keys before it.

Parameters
----------
keys : (k, m, n, ...) array-like or tuple
    The k keys to sort by, each of shape ``(m, n, ...)``.
axis : int, optional
    Axis to be indirectly sorted; the last by default.

Returns
-------
indices : (m, n, ...) ndarray of ints
    Array of indices that sort the keys along the specified axis.

See Also
--------
numpy.lexsort : The NumPy function this mirrors.
argsort, sort
""",
    "partition": """\
Return a partitioned copy of an array.

Parameters
----------
a : array_like
    Input array.
kth : int or sequence of ints
    Element index (or indices) to partition by: the k-th element is in its sorted position, smaller
    ones before it, larger ones after.
axis : int or None, optional
    Axis along which to partition; -1 (the last) by default, None for the flattened array.
kind : {'introselect'}, optional
    Selection algorithm.
order : str or list of str, optional
    Field order for structured arrays; arraystack has none, so only None is accepted.

Returns
-------
partitioned_array : ndarray
    Array of the same type and shape as `a`.

See Also
--------
numpy.partition : The NumPy function this mirrors.
argpartition, sort

Notes
-----
The order inside each part is NumPy's introselect order.
""",
    "searchsorted": """\
Find indices where elements should be inserted to maintain order.

Parameters
----------
a : 1-D array_like
    Input array, sorted in ascending order unless `sorter` is given.
v : array_like
    Values to insert into `a`.
side : {'left', 'right'}, optional
    'left' gives the first suitable index, 'right' the last.
sorter : array_like of int, optional
    Indices that sort `a` into ascending order.

Returns
-------
indices : ndarray of ints
    Array of insertion points, with the same shape as `v`.

See Also
--------
numpy.searchsorted : The NumPy function this mirrors.
sort, digitize, histogram

Notes
-----
NaNs sort last, as in NumPy. Every entry of `sorter` is checked, eagerly and under a trace: one
outside ``[0, len(a))`` raises NumPy's ValueError ("Sorter index out of range."). NumPy checks only
the entries its binary search reads (none when `v` is empty), so it can return a result for a
sorter with a bad entry that arraystack refuses.
""",
    "sort": """\
Return a sorted copy of an array.

Parameters
----------
a : array_like
    Input array.
axis : int or None, optional
    Axis along which to sort; the last by default, None for the flattened array.
kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
    Sorting algorithm; ties come out in NumPy's order for that kind (introsort, heapsort or stable).
order : str or list of str, optional
    Field order for structured arrays; arraystack has none, so only None is accepted.
stable : bool, optional
    If True, use a stable sort (Array API keyword).
descending : bool, optional
    Sort in descending order (an Array API keyword NumPy lacks).

Returns
-------
sorted_array : ndarray
    Array of the same type and shape as `a`.

See Also
--------
numpy.sort : The NumPy function this mirrors.
argsort, lexsort, partition, searchsorted, ndarray.sort

Notes
-----
NaNs sort last and complex numbers lexicographically, as in NumPy. `descending` is the Array API's
keyword: the sort of the flipped array, flipped (as array-api-strict does), so equal elements keep
their relative order and NaNs come first.
""",
    "_sort_method": """\
Sort an array in place.

Refer to `arraystack.sort` for full documentation.

Parameters
----------
axis : int, optional
    Axis along which to sort; the last by default.
kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
    Sorting algorithm; ties come out in NumPy's order for that kind (introsort, heapsort or stable).
order : str or list of str, optional
    Field order for structured arrays; arraystack has none, so only None is accepted.
stable : bool, optional
    If True, use a stable sort (Array API keyword).

Returns
-------
None
    The array is sorted in place (functionalized when traced).

See Also
--------
numpy.ndarray.sort : The NumPy method this mirrors.
arraystack.sort : The equivalent function.

Notes
-----
Like NumPy's method, it has no `descending` keyword.
""",
    "_partition_method": """\
Partially sort the array in place, so the k-th element is in its sorted position.

Refer to `arraystack.partition` for full documentation.

Parameters
----------
kth : int or sequence of ints
    Element index (or indices) to partition by.
axis : int, optional
    Axis along which to sort; the last by default.
kind : {'introselect'}, optional
    Selection algorithm.
order : str or list of str, optional
    Field order for structured arrays; arraystack has none, so only None is accepted.

Returns
-------
None
    The array is partitioned in place.

See Also
--------
numpy.ndarray.partition : The NumPy method this mirrors.
arraystack.partition : The equivalent function.
""",
    "_argsort_method": """\
Returns the indices that would sort this array.

Refer to `arraystack.argsort` for full documentation.

Parameters
----------
axis : int, optional
    Axis along which to sort; the last by default.
kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
    Sorting algorithm; ties come out in NumPy's order for that kind (introsort, heapsort or stable).
order : str or list of str, optional
    Field order for structured arrays; arraystack has none, so only None is accepted.
stable : bool, optional
    If True, use a stable sort (Array API keyword).

Returns
-------
index_array : ndarray
    Indices that sort the array along the axis.

See Also
--------
numpy.ndarray.argsort : The NumPy method this mirrors.
arraystack.argsort : The equivalent function.
""",
    "_argpartition_method": """\
Returns the indices that would partition this array.

Refer to `arraystack.argpartition` for full documentation.

Parameters
----------
kth : int or sequence of ints
    Element index (or indices) to partition by.
axis : int, optional
    Axis along which to sort; the last by default.
kind : {'introselect'}, optional
    Selection algorithm.
order : str or list of str, optional
    Field order for structured arrays; arraystack has none, so only None is accepted.

Returns
-------
index_array : ndarray
    Indices that partition the array along the axis.

See Also
--------
numpy.ndarray.argpartition : The NumPy method this mirrors.
arraystack.argpartition : The equivalent function.
""",
    "_searchsorted_method": """\
Find indices where elements of v should be inserted in the array to maintain order.

Refer to `arraystack.searchsorted` for full documentation.

Parameters
----------
v : array_like
    Values to insert.
side : {'left', 'right'}, optional
    Whether to return the first ('left') or last ('right') suitable index.
sorter : array_like of int, optional
    Indices that sort `a` into ascending order.

Returns
-------
indices : ndarray
    Insertion points, the shape of `v`.

See Also
--------
numpy.ndarray.searchsorted : The NumPy method this mirrors.
arraystack.searchsorted : The equivalent function.
""",
}
