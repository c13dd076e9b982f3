"""NumPy-style docstrings of the functions of _io.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "fromfile": """\
Construct an array from data in a text or binary file.

Parameters
----------
file : file or str or Path
    Open file object or filename.
dtype : data-type
    Data type of the returned array.
count : int
    Number of items to read; -1 means all items.
sep : str
    Separator between items if the file is a text file; empty ('') means binary.
offset : int
    The offset (in bytes) from the file's current position (binary files only).
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35) and ignored.

Returns
-------
out : ndarray
    The data read, as an arraystack array.

See Also
--------
numpy.fromfile : The NumPy function this mirrors.
load, save, ndarray.tofile
""",
    "fromstring": """\
A new 1-D array initialized from text data in a string.

Parameters
----------
string : str
    A string containing the data.
dtype : data-type, optional
    The data type of the array; default: float.
count : int, optional
    Read this number of `dtype` elements from the data; -1 means all.
sep : str
    The string separating numbers in the data.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35) and ignored.

Returns
-------
arr : ndarray
    The constructed array.

See Also
--------
numpy.fromstring : The NumPy function this mirrors.
frombuffer, fromfile, loadtxt

Notes
-----
Text mode only: NumPy 2 removed the binary mode (use `frombuffer`).
""",
    "genfromtxt": """\
Load data from a text file, with missing values handled as specified.

Parameters
----------
fname : file, str, list of str, generator
    File, filename, list or generator to read.
dtype : dtype, optional
    Data type of the resulting array.
comments : str, optional
    The character used to indicate the start of a comment.
delimiter : str, int, or sequence, optional
    The string used to separate values (whitespace by default), or field widths.
skip_header : int, optional
    The number of lines to skip at the beginning of the file.
skip_footer : int, optional
    The number of lines to skip at the end of the file.
converters : variable, optional
    Functions that convert the data of a column to a value.
missing_values : variable, optional
    The strings corresponding to missing data.
filling_values : variable, optional
    The values to use as default when the data are missing.
usecols : sequence, optional
    Which columns to read, with 0 being the first.
unpack : bool, optional
    If True, the returned array is transposed.
usemask : bool, optional
    Must be False: arraystack has no masked arrays.
autostrip : bool, optional
    Whether to automatically strip white spaces from the variables.
invalid_raise : bool, optional
    If True, an exception is raised if an inconsistency is detected in the number of columns.
max_rows : int, optional
    The maximum number of rows to read.
encoding : str, optional
    Encoding used to decode the input file.
ndmin : int, optional
    The minimum number of dimensions of the result.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35) and ignored.
**kwargs
    NumPy's remaining keywords (names, excludelist, deletechars, ...), passed through.

Returns
-------
out : ndarray
    Data read from the text file.

See Also
--------
numpy.genfromtxt : The NumPy function this mirrors.
loadtxt

Notes
-----
``usemask=True`` is absent (arraystack has no masked arrays); structured records come back as NumPy
arrays.
""",
    "load": """\
Load arrays or pickled objects from ``.npy``, ``.npz`` or pickled files.

Parameters
----------
file : file-like object, string, or pathlib.Path
    The file to read.
mmap_mode : {None, 'r+', 'r', 'w+', 'c'}, optional
    If not None, memory-map the file using the given mode.
allow_pickle : bool, optional
    Allow loading pickled object arrays stored in npy files (False by default, for security).
fix_imports : bool, optional
    Only useful when loading Python 2 generated pickled files.
encoding : str, optional
    What encoding to use when reading Python 2 strings.
max_header_size : int, optional
    Maximum allowed size of the header.

Returns
-------
result : array, tuple, dict, etc.
    A ``.npy`` file gives an arraystack array (memory-mapped with `mmap_mode`), a ``.npz`` archive
    an NpzFile whose members load lazily as arraystack arrays, and pickles load unchanged.

See Also
--------
numpy.load : The NumPy function this mirrors.
save, savez, savez_compressed, loadtxt
""",
    "loadtxt": """\
Load data from a text file.

Parameters
----------
fname : file, str, pathlib.Path, list of str, generator
    File, filename, list or generator to read.
dtype : data-type, optional
    Data type of the resulting array; default: float.
comments : str or sequence of str or None, optional
    The characters or list of characters used to indicate the start of a comment.
delimiter : str, optional
    The character used to separate the values; whitespace by default.
converters : dict or callable, optional
    Converter functions to customize value parsing.
skiprows : int, optional
    Skip the first `skiprows` lines, including comments.
usecols : int or sequence, optional
    Which columns to read, with 0 being the first.
unpack : bool, optional
    If True, the returned array is transposed.
ndmin : int, optional
    The returned array will have at least `ndmin` dimensions.
encoding : str, optional
    Encoding used to decode the input file.
max_rows : int, optional
    Read `max_rows` rows of content after `skiprows` lines.
quotechar : unicode character or None, optional
    The character used to denote the start and end of a quoted item.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35) and ignored.

Returns
-------
out : ndarray
    Data read from the text file.

See Also
--------
numpy.loadtxt : The NumPy function this mirrors.
load, fromstring, genfromtxt, savetxt
""",
    "save": """\
Save an array to a binary file in NumPy ``.npy`` format.

Parameters
----------
file : file, str, or pathlib.Path
    File or filename to which the data is saved.
arr : array_like
    Array data to be saved.
allow_pickle : bool, optional
    Allow saving object arrays using Python pickles.

Returns
-------
None

See Also
--------
numpy.save : The NumPy function this mirrors.
savez, savez_compressed, load, savetxt

Notes
-----
The array is read to the host (a traced array raises ConcretizationError).
""",
    "savetxt": """\
Save an array to a text file.

Parameters
----------
fname : filename, file handle or pathlib.Path
    The file to write; a name ending in ``.gz`` is gzipped.
X : 1D or 2D array_like
    Data to be saved to a text file.
fmt : str or sequence of strs, optional
    A format (or one per column) for the numbers.
delimiter : str, optional
    String or character separating columns.
newline : str, optional
    String or character separating lines.
header : str, optional
    String that will be written at the beginning of the file.
footer : str, optional
    String that will be written at the end of the file.
comments : str, optional
    String prepended to the header and footer to mark them as comments.
encoding : {None, str}, optional
    Encoding used to encode the output file.

Returns
-------
None

See Also
--------
numpy.savetxt : The NumPy function this mirrors.
save, loadtxt

Notes
-----
The array is read to the host (a traced array raises ConcretizationError).
""",
    "savez": """\
Save several arrays into a single file in uncompressed ``.npz`` format.

Parameters
----------
file : file, str, or pathlib.Path
    The file name (``.npz`` is appended if missing) or file object.
*args : Arguments, optional
    Arrays to save, stored with the names ``arr_0``, ``arr_1``, ...
allow_pickle : bool, optional
    Allow saving object arrays using Python pickles.
**kwds : Keyword arguments, optional
    Arrays to save, stored under the keyword names.

Returns
-------
None

See Also
--------
numpy.savez : The NumPy function this mirrors.
save, savez_compressed, load

Notes
-----
The array is read to the host (a traced array raises ConcretizationError).
""",
    "savez_compressed": """\
Save several arrays into a single file in compressed ``.npz`` format.

Parameters
----------
file : file, str, or pathlib.Path
    The file name (``.npz`` is appended if missing) or file object.
*args : Arguments, optional
    Arrays to save, stored with the names ``arr_0``, ``arr_1``, ...
allow_pickle : bool, optional
    Allow saving object arrays using Python pickles.
**kwds : Keyword arguments, optional
    Arrays to save, stored under the keyword names.

Returns
-------
None

See Also
--------
numpy.savez_compressed : The NumPy function this mirrors.
save, savez, load

Notes
-----
The array is read to the host (a traced array raises ConcretizationError).
""",
    "_tofile_method": """\
Write the array to a file as text or binary (default).

Refer to `arraystack.fromfile` for full documentation.

Parameters
----------
fid : file or str or Path
    An open file object, or a string containing a filename.
sep : str
    Separator between array items for text output; '' means binary.
format : str
    Format string for text file output.

Returns
-------
None

See Also
--------
numpy.ndarray.tofile : The NumPy method this mirrors.
arraystack.fromfile : The equivalent function.

Notes
-----
The array is read to the host (a traced array raises ConcretizationError).
""",
}
