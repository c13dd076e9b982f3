"""MaskedArray: an arraystack array of data and a boolean mask of the same shape (or `nomask`).

Both halves are arraystack arrays, so every operation on a masked array is arraystack operations and traces
under jit; the class is a pytree node (children data and mask, auxiliary data the fill value and the
hard-mask flag), so masked arrays cross jit, grad and vmap boundaries whole.
"""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack.ma._out import writes_out
from arraystack._creation.basic import asarray
from arraystack.ir.core import Tracer
from arraystack.ir.tree import register_pytree_node
from arraystack.ma._fields import MaskedFields
from arraystack.ma._fill import check_fill_value, is_default_fill
from arraystack.ma._memory import MaskedMemory
from arraystack.ma._operators import MaskedOperators
from arraystack.ma._reductions import MaskedReductions
from arraystack.ma._selection import MaskedSelection
from arraystack.ma._values import MaskedValues

nomask = np.False_  # numpy.ma's "no mask": the mask of an array where nothing is masked


class MAError(Exception):
    """Class for masked array related errors (numpy.ma.MAError)."""


class MaskError(MAError):
    """Class for mask related errors (numpy.ma.MaskError)."""


def concrete(x) -> bool:
    """Whether an arraystack array holds data (not a trace): the mask may then steer Python code."""
    return type(getattr(x, "_value", None)) is not Tracer


def as_mask(mask, shape) -> xp.ndarray:
    """`mask` as a boolean arraystack array of `shape` (a single value is repeated)."""
    mask = xp.asarray(mask)
    if mask.dtype != np.bool_:
        mask = mask.astype(bool)
    if tuple(mask.shape) == tuple(shape):
        return mask
    size = int(np.prod(shape))
    if mask.size == 1:
        return xp.broadcast_to(mask.reshape(()), shape).copy()
    if mask.size == size:
        return mask.reshape(shape)
    raise MaskError(f"Mask and data not compatible: data size is {size}, mask size is {mask.size}.")


class MaskedArray(
    MaskedOperators, MaskedReductions, MaskedSelection, MaskedValues, MaskedMemory, MaskedFields
):
    """An array whose masked entries are left out of computations.

    Parameters
    ----------
    data : array_like
        Input data.
    mask : sequence, optional
        Mask; True marks an invalid (masked) entry. A single value is repeated over the data.
    dtype : dtype, optional
        Data type of the output.
    copy : bool, optional
        Whether to copy the input data (True) or to use a reference instead.
    fill_value : scalar, optional
        Value used to fill in the masked values when necessary; by default the dtype's
        (see `default_fill_value`).
    keep_mask : bool, optional
        Whether to combine `mask` with the mask of the input data (True) or to use only `mask`.
    hard_mask : bool, optional
        Whether to use a hard mask: with it, assigning to a masked entry leaves it masked.
    shrink : bool, optional
        Whether to force compression of an empty mask to `nomask`.
    ndmin : int, optional
        Minimum number of dimensions.

    See Also
    --------
    numpy.ma.MaskedArray : The NumPy class this mirrors.
    masked_array, array

    Notes
    -----
    Data and mask are arraystack arrays, so masked arrays trace under `jit`, `grad` and `vmap`.
    Note: under tracing, an operation whose result NumPy would replace by `masked` (a fully masked
    scalar) returns a 0-d masked array instead, since the mask is not known while tracing.

    Examples
    --------
    >>> import arraystack as np
    >>> x = np.ma.MaskedArray([1, 2, 3], mask=[0, 1, 0])
    >>> x.sum()
    array(4)
    """

    __array_priority__ = 15
    _sharedmask = False  # numpy.ma's flag: the mask may be another array's (see unshare_mask)

    def __getstate__(self):
        """The pickled state: the mask as a full array even where it is nomask, as numpy.ma pickles
        it (an unpickled array prints its all-False mask, as NumPy's does)."""
        state = dict(self.__dict__)
        if state.get("_mask", nomask) is nomask:
            state["_mask"] = getmaskarray_of(self)
        return state

    def __init__(
        self,
        data=None,
        mask=nomask,
        dtype=None,
        copy=False,
        fill_value=None,
        keep_mask=True,
        hard_mask=None,
        shrink=True,
        ndmin=0,
    ):
        source = data
        if isinstance(data, MaskedArray):
            values = data._data
        elif isinstance(data, (list, tuple)) and _holds_masked(data):
            nested = [MaskedArray(d) for d in data]
            values = xp.stack([d._data for d in nested])
            source = MaskedArray._new(values, xp.stack([getmaskarray_of(d) for d in nested]))
        else:
            values = xp.asarray(data)
        values = (
            xp.array(values, dtype=dtype, copy=copy or None, ndmin=ndmin)
            if (copy or dtype is not None or ndmin)
            else values
        )
        self._data = values
        self._hardmask = (
            bool(hard_mask) if hard_mask is not None else bool(getattr(source, "_hardmask", False))
        )
        inherited = getattr(source, "_mask", nomask) if keep_mask else nomask
        if inherited is not nomask:
            inherited = as_mask(inherited, values.shape)
            inherited = inherited.copy() if copy else inherited
        if mask is nomask:
            self._mask = inherited
            if inherited is nomask and not shrink:
                self._mask = xp.zeros(values.shape, dtype=bool)
            if not keep_mask:
                self._sharedmask = getattr(data, "_sharedmask", False)
            elif not isinstance(data, (list, tuple)):
                self._sharedmask = not copy
        else:
            self._sharedmask = inherited is nomask and not (copy or _resized(mask, values.shape))
            own = as_mask(mask, values.shape)
            own = own.copy() if copy or own is getattr(mask, "_value", None) else own
            self._mask = own if inherited is nomask else xp.logical_or(own, inherited)
        if fill_value is None:
            fill_value = getattr(source, "_fill_value", None)
        self._fill_value = check_fill_value(fill_value, values.dtype)

    @classmethod
    def _new(cls, data, mask=nomask, fill_value=None, hardmask=False):
        """A masked array of arraystack `data` and `mask` (a boolean array of data's shape, or nomask)."""
        self = object.__new__(cls)
        self._data = data
        self._mask = mask
        self._fill_value = check_fill_value(fill_value, data.dtype)
        self._hardmask = hardmask
        return self

    # -- attributes --------------------------------------------------------------------------
    @property
    def data(self):
        """The underlying data, as an arraystack array (a view: writes reach the masked array)."""
        return self._data

    @property
    def mask(self):
        """The mask: a boolean array of the data's shape, or `nomask` where nothing was masked."""
        return self._mask

    @mask.setter
    def mask(self, value):
        mask = as_mask(value, self.shape)
        if self._hardmask and self._mask is not nomask:
            mask = xp.logical_or(mask, self._mask)
        self._mask = mask

    @property
    def fill_value(self):
        """The filling value of the masked array (a NumPy scalar)."""
        return self._fill_value

    @fill_value.setter
    def fill_value(self, value):
        self._fill_value = check_fill_value(value, self.dtype)

    def get_fill_value(self):
        """Return the filling value of the masked array (the method form of `fill_value`).

        Returns
        -------
        fill_value : scalar
            The fill value.

        See Also
        --------
        numpy.ma.MaskedArray.get_fill_value : The NumPy method this mirrors.
        """
        return self.fill_value

    def set_fill_value(self, value=None) -> None:
        """Set the filling value of the masked array (the method form of `fill_value`).

        Parameters
        ----------
        value : scalar, optional
            The new fill value; None restores the dtype's default.

        See Also
        --------
        numpy.ma.MaskedArray.set_fill_value : The NumPy method this mirrors.
        """
        self.fill_value = value

    @property
    def hardmask(self):
        """Whether the mask is hard: assigning to a masked entry leaves it masked."""
        return self._hardmask

    shape = property(lambda self: tuple(self._data.shape), doc="Tuple of array dimensions.")
    ndim = property(lambda self: self._data.ndim, doc="Number of array dimensions.")
    size = property(lambda self: self._data.size, doc="Number of elements in the array.")
    dtype = property(lambda self: self._data.dtype, doc="Data-type of the array's elements.")
    T = property(lambda self: self.transpose(), doc="The transposed array.")

    def __len__(self):
        return len(self._data)

    def _like(self, data, mask, fill_value=None):
        """A masked array of `data` and `mask` keeping this one's fill value (NumPy's _update_from)."""
        fill = self._fill_value if fill_value is None else fill_value
        if fill_value is None and is_default_fill(fill, self.dtype):
            fill = None  # numpy.ma's unset fill value: the result's dtype's default
        elif data.dtype != self.dtype and fill_value is None:
            fill = _recast_fill(fill, data.dtype)  # a chosen fill value is cast
        out = MaskedArray._new(data, mask, fill, self._hardmask)
        out._sharedmask = self._sharedmask
        return out

    def _map(self, fn):
        """Apply a shape operation `fn` to the data and the mask alike."""
        mask = self._mask if self._mask is nomask else fn(self._mask)
        return self._like(fn(self._data), mask)

    # -- filling and selecting ---------------------------------------------------------------
    def filled(self, fill_value=None):
        """Return a copy of self, with masked values filled with a given value.

        Parameters
        ----------
        fill_value : scalar, optional
            The value to use for invalid entries; by default the array's `fill_value`.

        Returns
        -------
        filled_array : ndarray
            The data with masked entries replaced (the data itself where nothing is masked).

        See Also
        --------
        numpy.ma.MaskedArray.filled : The NumPy method this mirrors.
        """
        if self._mask is nomask:
            return self._data
        fill = self._fill_value if fill_value is None else check_fill_value(fill_value, self.dtype)
        fill = xp.asarray(fill).astype(self.dtype)
        return xp.where(self._mask, fill, self._data)

    def compressed(self):
        """Return all the non-masked data as a 1-D array.

        Returns
        -------
        result : ndarray
            The unmasked entries in C order.

        See Also
        --------
        numpy.ma.MaskedArray.compressed : The NumPy method this mirrors.
        """
        data = self._data.ravel()
        if self._mask is nomask:
            return data
        return data[xp.logical_not(self._mask.ravel())]

    # -- indexing ----------------------------------------------------------------------------
    def __getitem__(self, index):
        index = _raw_index(index)
        data = self._data[index]
        mask = self._mask if self._mask is nomask else self._mask[index]
        if data.ndim == 0:
            if mask is nomask:
                return data
            if concrete(mask):
                return masked if bool(mask) else data
        out = self._like(data, mask)
        out._sharedmask = out._sharedmask or mask is not nomask
        return out

    def __setitem__(self, index, value):
        index = _raw_index(index)
        if value is masked:
            if self._mask is nomask:
                self._mask = xp.zeros(self.shape, dtype=bool)
            self._mask[index] = True
            return
        value_mask = getattr(value, "_mask", nomask)
        value_data = value._data if isinstance(value, MaskedArray) else value
        if self._hardmask and self._mask is not nomask:
            current = self._mask[index]
            self._data[index] = xp.where(current, self._data[index], value_data)
            return
        self._data[index] = value_data
        if self._mask is nomask and value_mask is nomask:
            return
        if self._mask is nomask:
            self._mask = xp.zeros(self.shape, dtype=bool)
        self._mask[index] = value_mask

    # -- shape -------------------------------------------------------------------------------
    def reshape(self, *shape, order="C"):
        """Give a new shape to the array without changing its data (mask reshaped alike).

        Parameters
        ----------
        *shape : int or tuple of ints
            The new shape.
        order : {'C', 'F'}, optional
            Read and write order.

        Returns
        -------
        reshaped_array : MaskedArray
            A view on the data and mask where possible.

        See Also
        --------
        numpy.ma.MaskedArray.reshape : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.reshape(*shape, order=order))

    def ravel(self, order="C"):
        """Return a 1-D version of the array (mask raveled alike).

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            The elements are read in this index order.

        Returns
        -------
        MaskedArray
            The flattened array.

        See Also
        --------
        numpy.ma.MaskedArray.ravel : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.ravel(order=order))

    def flatten(self, order="C"):
        """Return a copy of the array collapsed into one dimension.

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            The elements are read in this index order.

        Returns
        -------
        MaskedArray
            A flat copy.

        See Also
        --------
        numpy.ma.MaskedArray.flatten : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.flatten(order=order))

    def transpose(self, *axes):
        """Return a view of the array with axes transposed (mask alike).

        Parameters
        ----------
        *axes : None, tuple of ints, or n ints
            The permutation of the axes; reversed by default.

        Returns
        -------
        MaskedArray
            The transposed view.

        See Also
        --------
        numpy.ma.MaskedArray.transpose : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.transpose(*axes))

    def squeeze(self, axis=None):
        """Remove axes of length one (mask alike).

        Parameters
        ----------
        axis : None or int or tuple of ints, optional
            The axes to remove; all of length one by default.

        Returns
        -------
        MaskedArray
            The squeezed array.

        See Also
        --------
        numpy.ma.MaskedArray.squeeze : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.squeeze(axis))

    def copy(self, order="C"):
        """Return a copy of the array, data and mask.

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            Memory layout of the copy.

        Returns
        -------
        MaskedArray
            The copy.

        See Also
        --------
        numpy.ma.MaskedArray.copy : The NumPy method this mirrors.
        """
        return self._map(lambda a: a.copy(order=order))

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        """Copy of the array, cast to a specified type (the mask is kept).

        Parameters
        ----------
        dtype : dtype
            Type code or data-type to which the array is cast.
        order, casting, subok, copy
            As for `ndarray.astype`.

        Returns
        -------
        MaskedArray
            The cast array, with the fill value cast alike.

        See Also
        --------
        numpy.ma.MaskedArray.astype : The NumPy method this mirrors.
        """
        data = self._data.astype(dtype, order=order, casting=casting, copy=copy)
        mask = self._mask if self._mask is nomask else self._mask.copy()
        return self._like(
            data, mask
        )  # a default fill value becomes the new dtype's, a chosen one is cast

    def round(self, decimals=0, out=None):
        """Return each element rounded to the given number of decimals (the mask is kept).

        Parameters
        ----------
        decimals : int, optional
            Number of decimal places to round to.
        out : None
            Where to write the result (its data; a masked `out` also gets the result's mask), of
            the result's shape; it is returned.

        Returns
        -------
        rounded : MaskedArray, scalar or masked
            The rounded array; a scalar (or `masked`) for a 0-d array.

        See Also
        --------
        numpy.ma.MaskedArray.round : The NumPy method this mirrors.
        """
        data = self._data.round(decimals=decimals)
        if data.ndim == 0 and (self._mask is nomask or concrete(self._mask)):
            return masked if self._mask is not nomask and bool(self._mask) else data[()]
        return self._like(data, self._mask)

    def ids(self):
        """Return identifiers of the data and mask buffers.

        Returns
        -------
        ids : tuple of int
            Identifiers of the data and of the mask (the mask's is ``id(nomask)`` without a mask).

        See Also
        --------
        numpy.ma.MaskedArray.ids : The NumPy method this mirrors.

        Notes
        -----
        Note: NumPy returns the memory address of the data; arraystack arrays may live on a device,
        so these are the Python identities of the data and mask arrays the masked array holds.
        """
        return (id(self._data), id(self._mask))

    # -- masks -------------------------------------------------------------------------------
    def harden_mask(self):
        """Force the mask to hard, preventing unmasking by assignment.

        Returns
        -------
        MaskedArray
            self.

        See Also
        --------
        numpy.ma.MaskedArray.harden_mask : The NumPy method this mirrors.
        """
        self._hardmask = True
        return self

    def soften_mask(self):
        """Force the mask to soft (the default), allowing unmasking by assignment.

        Returns
        -------
        MaskedArray
            self.

        See Also
        --------
        numpy.ma.MaskedArray.soften_mask : The NumPy method this mirrors.
        """
        self._hardmask = False
        return self

    @property
    def sharedmask(self):
        """Share status of the mask (read-only): whether the mask may be another array's."""
        return self._sharedmask

    def unshare_mask(self):
        """Copy the mask and set the `sharedmask` flag to False (a copy only if it was shared).

        Returns
        -------
        MaskedArray
            self.

        See Also
        --------
        numpy.ma.MaskedArray.unshare_mask : The NumPy method this mirrors.
        """
        if self._sharedmask:
            if self._mask is not nomask:
                self._mask = self._mask.copy()
            self._sharedmask = False
        return self

    def shrink_mask(self):
        """Reduce the mask to `nomask` when no entry is masked.

        Returns
        -------
        MaskedArray
            self.

        See Also
        --------
        numpy.ma.MaskedArray.shrink_mask : The NumPy method this mirrors.

        Notes
        -----
        Note: under tracing the mask's values are not known, so a traced mask is kept.
        """
        if self._mask is not nomask and concrete(self._mask) and not bool(self._mask.any()):
            self._mask = nomask
        return self

    def tolist(self, fill_value=None):
        """Return the data as a nested list, with None (or `fill_value`) for masked entries.

        Parameters
        ----------
        fill_value : scalar, optional
            The value for masked entries; None by default.

        Returns
        -------
        result : list
            The Python list representation of the masked array.

        See Also
        --------
        numpy.ma.MaskedArray.tolist : The NumPy method this mirrors.
        """
        if fill_value is not None:
            return self.filled(fill_value).tolist()
        data = np.asarray(self._data)
        if self._mask is nomask:
            return data.tolist()
        objects = data.astype(object)
        objects[np.asarray(self._mask)] = None
        return objects.tolist()

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__" or kwargs.get("out") is not None:
            return NotImplemented
        from arraystack.ma._ufuncs import ufunc_call

        return ufunc_call(ufunc, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from arraystack.ma import _dispatch

        return _dispatch.array_function(func, args, kwargs)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._data, dtype=dtype)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __bool__(self):
        return bool(self._data)

    def __repr__(self):
        return _printing.masked_repr(self)

    def __str__(self):
        return _printing.masked_str(self)


MaskedArray.round = writes_out(MaskedArray.round)


def _holds_masked(items) -> bool:
    return any(isinstance(i, MaskedArray) or i is masked for i in items)


def _resized(mask, shape) -> bool:
    """Whether numpy.ma reshapes (so copies) `mask` to fit data of `shape`."""
    if mask is True or mask is False:
        return False
    return tuple(mask.shape if hasattr(mask, "shape") else np.shape(mask)) != tuple(shape)


def getmaskarray_of(x):
    mask = getattr(x, "_mask", nomask)
    return xp.zeros(np.shape(x._data), dtype=bool) if mask is nomask else mask


def _raw_index(index):
    """A masked index by its data, mask ignored (as numpy.ma indexes: its data is the ndarray itself)."""
    if isinstance(index, MaskedArray):
        return index._data
    if type(index) is tuple:
        return tuple(i._data if isinstance(i, MaskedArray) else i for i in index)
    return index


def _recast_fill(fill, dtype):
    """The fill value kept across a change of dtype, cast unsafely as NumPy's astype casts it."""
    with np.errstate(all="ignore"):
        return np.asarray(fill).astype(dtype)[()]


class MaskedConstant(MaskedArray):
    """The `masked` constant: a 0-d float64 masked array whose one entry is masked."""

    def __init__(self):
        self._data = asarray(0.0)
        self._mask = asarray(True)
        self._fill_value = check_fill_value(None, self._data.dtype)
        self._hardmask = False

    def __repr__(self):
        return "masked"

    def __str__(self):
        return "--"

    def __setitem__(self, index, value):
        raise MaskError("The masked constant cannot be modified.")


masked = masked_singleton = MaskedConstant()


def _flatten(array):
    mask = None if array._mask is nomask else array._mask
    return [array._data, mask], (array._fill_value, array._hardmask)


def _unflatten(aux, children):
    data, mask = children
    self = object.__new__(MaskedArray)
    self._data = data
    self._mask = nomask if mask is None else mask
    self._fill_value, self._hardmask = aux
    return self


register_pytree_node(MaskedArray, _flatten, _unflatten)

from arraystack.ma import _printing
