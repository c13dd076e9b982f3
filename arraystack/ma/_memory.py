"""MaskedArray's memory and storage methods: NumPy's memory attributes (answered from the data array, as
numpy.ma answers from its data), views and byte swaps of the data with the mask alike, moving data and
mask between devices, and writing the array out as bytes or a pickle."""

from __future__ import annotations

import inspect
import os
import pickle

import numpy as np

import arraystack as xp
from arraystack.ma._fill import is_default_fill


def _ma():
    from arraystack.ma import _array

    return _array


class MaskedMemory:
    """base, baseclass, ctypes, flags, strides, itemsize, nbytes, iscontiguous, setflags, device,
    to_device, byteswap, view, tobytes, tofile, dump and dumps of MaskedArray."""

    @property
    def baseclass(self):
        """Class of the underlying data (read-only): `arraystack.ndarray`."""
        return xp.ndarray

    @property
    def base(self):
        """The array whose memory the masked array views: its data array.

        See Also
        --------
        numpy.ma.MaskedArray.base : The NumPy attribute this mirrors.
        """
        return self._data

    @property
    def ctypes(self):
        """An object to simplify the interaction of the data array with the ctypes module.

        See Also
        --------
        numpy.ma.MaskedArray.ctypes : The NumPy attribute this mirrors.
        """
        return self._data.ctypes

    @property
    def flags(self):
        """Information about the memory layout of the data array.

        See Also
        --------
        numpy.ma.MaskedArray.flags : The NumPy attribute this mirrors.

        Notes
        -----
        Note: numpy.ma's masked array is a view of its data, so NumPy reports OWNDATA False; these
        are the flags of the data array itself, so setting one (``flags.writeable = False``)
        reaches the data.
        """
        return self._data.flags

    @property
    def strides(self):
        """Tuple of bytes to step in each dimension when traversing the data array.

        See Also
        --------
        numpy.ma.MaskedArray.strides : The NumPy attribute this mirrors.
        """
        return self._data.strides

    @property
    def itemsize(self):
        """Length of one array element in bytes.

        See Also
        --------
        numpy.ma.MaskedArray.itemsize : The NumPy attribute this mirrors.
        """
        return self._data.itemsize

    @property
    def nbytes(self):
        """Total bytes consumed by the elements of the data array (the mask not counted).

        See Also
        --------
        numpy.ma.MaskedArray.nbytes : The NumPy attribute this mirrors.
        """
        return self._data.nbytes

    def iscontiguous(self):
        """Return a boolean indicating whether the data is contiguous.

        Returns
        -------
        contiguous : bool
            The data array's CONTIGUOUS (C-contiguous) flag.

        See Also
        --------
        numpy.ma.MaskedArray.iscontiguous : The NumPy method this mirrors.
        """
        return self._data.flags["CONTIGUOUS"]

    def setflags(self, write=None, align=None, uic=None) -> None:
        """Set the array flags WRITEABLE, ALIGNED and WRITEBACKIFCOPY of the data.

        Parameters
        ----------
        write : bool, optional
            Whether the data can be written to; the mask stays writeable, as in numpy.ma.
        align : bool, optional
            Whether the data is aligned for its type.
        uic : bool, optional
            Sets WRITEBACKIFCOPY (only False is allowed).

        See Also
        --------
        numpy.ma.MaskedArray.setflags : The NumPy method this mirrors.
        """
        self._data.setflags(write=write, align=align, uic=uic)

    @property
    def device(self):
        """The device the data and the mask are on.

        See Also
        --------
        numpy.ma.MaskedArray.device : The NumPy attribute this mirrors.
        """
        return self._data.device

    def to_device(self, device, /, *, stream=None):
        """Return a copy of the masked array, data and mask, on `device`.

        Parameters
        ----------
        device : str or Device
            The target device, e.g. 'cpu' or a key of `arraystack.devices()`.
        stream : object, optional
            Accepted for the Array API; unused.

        Returns
        -------
        out : MaskedArray
            The array on `device`, keeping the fill value.

        See Also
        --------
        numpy.ma.MaskedArray.to_device : The NumPy method this mirrors.
        """
        module = _ma()
        mask = self._mask
        if mask is not module.nomask:
            mask = mask.to_device(device, stream=stream)
        return self._like(self._data.to_device(device, stream=stream), mask)

    def byteswap(self, inplace=False):
        """Swap the bytes of the data elements (the mask is kept).

        Parameters
        ----------
        inplace : bool, optional
            If True, swap bytes in place; False by default.

        Returns
        -------
        out : MaskedArray
            The byteswapped array, with a copy of the mask; the array itself when `inplace`.

        See Also
        --------
        numpy.ma.MaskedArray.byteswap : The NumPy method this mirrors.
        """
        if inplace:
            self._data.byteswap(inplace=True)
            return self
        mask = self._mask if self._mask is _ma().nomask else self._mask.copy()
        return self._like(self._data.byteswap(), mask)

    def view(self, dtype=None, type=None, fill_value=None):
        """Return a view of the MaskedArray data.

        Parameters
        ----------
        dtype : data-type or ndarray sub-class, optional
            Data-type descriptor of the returned view (the data's bytes are reinterpreted); a
            subclass of ndarray here is taken as `type`.
        type : Python type, optional
            Type of the returned view: a MaskedArray (the default) or a plain array type, which
            returns a view of the data alone.
        fill_value : scalar, optional
            The fill value of the view; by default the array's, or the new dtype's default when
            `dtype` is given.

        Returns
        -------
        view : MaskedArray or ndarray
            The view, with a view of the mask.

        Raises
        ------
        ValueError
            If the new dtype changes the number of entries and the array has a mask (the mask
            cannot follow), as in numpy.ma.

        See Also
        --------
        numpy.ma.MaskedArray.view : The NumPy method this mirrors.
        """
        module = _ma()
        if inspect.isclass(dtype) and issubclass(dtype, (np.ndarray, xp.ndarray)):
            dtype, type = None, dtype
        if type is not None and not issubclass(type, module.MaskedArray):
            return self._data.view(dtype, type)
        data = self._data.view() if dtype is None else self._data.view(dtype)
        mask = self._mask
        if mask is not module.nomask:
            if tuple(data.shape) != tuple(mask.shape):
                if mask.size != data.size:
                    raise ValueError(
                        f"cannot reshape array of size {mask.size} into shape {tuple(data.shape)}"
                    )
                mask = mask.reshape(data.shape)
            else:
                mask = mask.view()
        # numpy.ma's view keeps an unset fill value unset, whatever `fill_value` says
        if is_default_fill(self._fill_value, self.dtype):
            fill = None
        elif fill_value is not None:
            fill = fill_value
        elif dtype is None:
            fill = self._fill_value
        else:
            fill = None
        out = module.MaskedArray._new(data, mask, fill, self._hardmask)
        out._sharedmask = self._sharedmask
        return out

    def tobytes(self, fill_value=None, order="C"):
        """Return the array data as a string containing the raw bytes, masked entries filled.

        Parameters
        ----------
        fill_value : scalar, optional
            Value used to fill in the masked values; by default the array's `fill_value`.
        order : {'C', 'F', 'A', None}, optional
            Order of the data items in the bytes.

        Returns
        -------
        s : bytes
            The raw bytes of the filled data (shape, dtype and fill value are lost).

        See Also
        --------
        numpy.ma.MaskedArray.tobytes : The NumPy method this mirrors.
        """
        return self.filled(fill_value).tobytes(order="A" if order is None else order)

    def tofile(self, fid, sep="", format="%s"):
        """Refuse to save the masked array to a file, as numpy.ma does (not implemented there).

        Parameters
        ----------
        fid : file or str or Path
            The file.
        sep, format : str, optional
            Accepted for NumPy compatibility.

        Raises
        ------
        NotImplementedError
            Always.

        See Also
        --------
        numpy.ma.MaskedArray.tofile : The NumPy method this mirrors.
        """
        raise NotImplementedError("MaskedArray.tofile() not implemented yet.")

    def dumps(self):
        """Return the pickle of the masked array as bytes; pickle.loads converts them back.

        Returns
        -------
        out : bytes
            The pickle (protocol 2, as NumPy's), data, mask and fill value.

        See Also
        --------
        numpy.ma.MaskedArray.dumps : The NumPy method this mirrors.
        """
        return pickle.dumps(self, protocol=2)

    def dump(self, file) -> None:
        """Dump a pickle of the masked array to the specified file.

        Parameters
        ----------
        file : str or Path or file
            A file object open for writing bytes, or the name of the file.

        See Also
        --------
        numpy.ma.MaskedArray.dump : The NumPy method this mirrors.
        """
        if isinstance(file, (str, os.PathLike)):
            with open(file, "wb") as handle:
                pickle.dump(self, handle, protocol=2)
        else:
            pickle.dump(self, file, protocol=2)
