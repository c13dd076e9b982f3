/* The arraystack.ndarray objects the fast paths return: their allocation (freed ones are reused), the
   wrapping of NumPy's results, and an array's items (a[i] with an int, iteration) as NumPy gives them. */
#include "_fastpath.h"

/* -- allocation: freed objects of the exact array type are kept for reuse ------------------------------ */

/* Every eager result is a new array object, most of them short-lived (a scalar read in a loop, an
   operator's intermediate): their memory is reused from a short list instead of going back to the
   allocator. Only objects of exactly `array_type` enter it (a subclass may add slots, a __dict__); an
   entry is an untracked, released object of that layout, its type reference dropped, its `value` the
   link to the next entry. Without the GIL the list would be shared state: it is off there. */
#ifdef Py_GIL_DISABLED
#define FREE_MAX 0
#else
#define FREE_MAX 128
#endif
static ArrayBase *free_list = NULL;
static int n_free = 0;

PyObject *new_wrapper(PyObject *value)
{
    ArrayBase *out;
    if (free_list != NULL) {
        out = free_list;
        free_list = (ArrayBase *)out->value;
        n_free--;
        (void)PyObject_Init((PyObject *)out, array_type);  /* type reference, reference count 1 */
        out->value = value;
        PyObject_GC_Track(out);
        return (PyObject *)out;
    }
    out = (ArrayBase *)array_type->tp_alloc(array_type, 0);
    if (out == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    out->value = value;
    return (PyObject *)out;
}

/* tp_dealloc of arraystack.ndarray (set by adopt_array_type), reached directly for the class itself
   and from subtype_dealloc for its subclasses, which has then finalized the object and cleared what
   the subclass added. The object holds a reference to its heap type, released here. */
static void array_dealloc(ArrayBase *self)
{
    PyTypeObject *type = Py_TYPE(self);
    if (type->tp_finalize != NULL && type == array_type &&
        PyObject_CallFinalizerFromDealloc((PyObject *)self) < 0) {
        return;  /* resurrected by a __del__ assigned to the class */
    }
    PyObject_GC_UnTrack(self);
    if (self->weaklist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    Py_CLEAR(self->value);
    if (type == array_type && type->tp_finalize == NULL && n_free < FREE_MAX) {
        self->value = (PyObject *)free_list;
        free_list = self;
        n_free++;
    }
    else {
        type->tp_free((PyObject *)self);
    }
    Py_DECREF(type);
}

static void drop_free_list(void)
{
    while (free_list != NULL) {
        ArrayBase *op = free_list;
        free_list = (ArrayBase *)op->value;
        PyObject_GC_Del(op);
    }
    n_free = 0;
}

/* Called by install() with the array type: its objects are deallocated by array_dealloc (and reused).
   The class must add nothing to ArrayBase's layout, since reused memory is of that size. */
int adopt_array_type(PyTypeObject *cls)
{
    if (cls->tp_basicsize != sizeof(ArrayBase) || cls->tp_dictoffset != 0 ||
        cls->tp_itemsize != 0 || cls->tp_free != PyObject_GC_Del) {
        PyErr_SetString(PyExc_TypeError,
                        "install: the array type must add no slots or __dict__ to ArrayBase");
        return -1;
    }
    drop_free_list();  /* entries of a previous array type */
    cls->tp_dealloc = (destructor)array_dealloc;
    return 0;
}

/* A new arraystack.ndarray wrapping `value` (a reference is stolen). A NumPy scalar is kept as it is: the
   array is then 0-d and holds NumPy's scalar (printed, hashed and computed with as NumPy's), as NumPy returns
   a scalar there; anything else becomes a NumPy array. */
PyObject *wrap_steal(PyObject *value)
{
    if (value == NULL) {
        return NULL;
    }
    if (Py_TYPE(value) != np_ndarray && !is_scalar_type(Py_TYPE(value))) {
        PyObject *arr = PyObject_CallOneArg(np_asarray, value);
        Py_DECREF(value);
        if (arr == NULL) {
            return NULL;
        }
        value = arr;
    }
    return new_wrapper(value);
}

/* The same, but a NumPy scalar becomes a 0-d NumPy array first: what a transformation (jit) returns. */
PyObject *wrap_array_steal(PyObject *value)
{
    if (value != NULL && Py_TYPE(value) != np_ndarray) {
        PyObject *arr = PyObject_CallOneArg(np_asarray, value);
        Py_DECREF(value);
        value = arr;
    }
    return wrap_steal(value);
}

/* -- items: a[i] and iteration --------------------------------------------------------------------- */

/* An element or subarray NumPy's indexing gave (a reference is stolen), as arraystack's indexing gives
   it: NumPy arrays and scalars wrapped; an object or StringDType array's element is the Python object
   itself, as in NumPy. */
PyObject *wrap_item(PyObject *r)
{
    if (r == NULL || Py_TYPE(r) == np_ndarray || is_scalar_type(Py_TYPE(r))) {
        return r == NULL ? NULL : new_wrapper(r);
    }
    return r;
}

/* a[i] for a Python int i in range, as NumPy's sequence protocol gives it (a scalar of a 1-d array, a
   view of a row otherwise; the same as its indexing): NULL with no error set when the general path
   must answer (a 0-d array, i out of range or beyond Py_ssize_t, whose errors are NumPy's own). */
PyObject *int_item(PyObject *v, PyObject *key)
{
    PySequenceMethods *sq = np_ndarray->tp_as_sequence;
    Py_ssize_t i = PyLong_AsSsize_t(key);
    Py_ssize_t n = i == -1 && PyErr_Occurred() ? -1 : sq->sq_length(v);
    if (n < 0) {
        PyErr_Clear();
        return NULL;
    }
    if (i < 0) {
        i += n;
    }
    if (i < 0 || i >= n) {
        return NULL;
    }
    PyObject *r = sq->sq_item(v, i);
    return r == NULL ? NULL : wrap_item(r);
}

/* Iteration is NumPy's own over the buffer (its items by position), each item as indexing gives it. */
typedef struct {
    PyObject_HEAD
    PyObject *seq;  /* the NumPy array; NULL once exhausted */
    Py_ssize_t index;
} ArrayIterator;

static PyObject *iterator_next(ArrayIterator *it)
{
    PyObject *seq = it->seq;
    if (seq == NULL) {
        return NULL;
    }
    PySequenceMethods *sq = np_ndarray->tp_as_sequence;
    Py_ssize_t n = sq->sq_length(seq);  /* read again, as Python's sequence iterator does */
    if (n < 0) {
        return NULL;
    }
    if (it->index < n) {
        PyObject *r = sq->sq_item(seq, it->index++);
        return r == NULL ? NULL : wrap_item(r);
    }
    it->seq = NULL;
    Py_DECREF(seq);
    return NULL;
}

static PyObject *iterator_length_hint(ArrayIterator *it, PyObject *unused)
{
    Py_ssize_t n = it->seq == NULL ? 0 : np_ndarray->tp_as_sequence->sq_length(it->seq);
    if (n < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(n > it->index ? n - it->index : 0);
}

static void iterator_dealloc(ArrayIterator *it)
{
    Py_XDECREF(it->seq);
    PyObject_Free(it);
}

static PyMethodDef iterator_methods[] = {
    {"__length_hint__", (PyCFunction)iterator_length_hint, METH_NOARGS, "Private method returning an estimate of len(list(it))."},
    {NULL},
};

PyTypeObject ArrayIteratorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arraystack._core._fastpath.iterator",
    .tp_doc = "Iteration over an eager array: NumPy's items of its buffer, wrapped as indexing wraps them.",
    .tp_basicsize = sizeof(ArrayIterator),
    .tp_flags = Py_TPFLAGS_DEFAULT,  /* it holds a NumPy array only, which takes no part in cycles */
    .tp_dealloc = (destructor)iterator_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)iterator_next,
    .tp_methods = iterator_methods,
};

PyObject *array_iter(PyObject *self)
{
    PyObject *v = ((ArrayBase *)self)->value;
    if (eager() && v != NULL && Py_TYPE(v) == np_ndarray) {
        Py_ssize_t n = np_ndarray->tp_as_sequence->sq_length(v);
        if (n >= 0) {
            ArrayIterator *it = PyObject_New(ArrayIterator, &ArrayIteratorType);
            if (it == NULL) {
                return NULL;
            }
            it->seq = Py_NewRef(v);
            it->index = 0;
            return (PyObject *)it;
        }
        PyErr_Clear();  /* a 0-d array: the Python definition raises NumPy's error */
    }
    if (iter_fb == NULL) {
        PyErr_SetString(PyExc_TypeError, "arraystack fast path: no fallback installed");
        return NULL;
    }
    return PyObject_CallOneArg(iter_fb, self);
}
