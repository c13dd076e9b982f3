/* Function: an arraystack function whose plain eager calls go straight to NumPy. */
#include "_fastpath.h"

/* -- functions: an eager call with positional array operands goes straight to NumPy ------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *numpy_fn;  /* called with the unwrapped operands */
    PyObject *fallback;  /* the Python definition: every other call */
    Py_ssize_t nargs;
    PyObject *dict;
    vectorcallfunc vectorcall;
} Function;

static PyObject *function_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames)
{
    Function *f = (Function *)callable;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (n == f->nargs && kwnames == NULL && n <= 3 && eager()) {
        PyObject *vals[3];
        int any_array = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            vals[i] = operand(args[i]);
            if (vals[i] == NULL) {
                goto fallback;
            }
            any_array |= vals[i] != args[i];
        }
        if (any_array) {
            PyObject *r = PyObject_Vectorcall(f->numpy_fn, vals, n, NULL);
            if (r == NULL) {
                return NULL;
            }
            if (Py_TYPE(r) == np_ndarray || PyObject_TypeCheck(r, np_generic)) {
                return wrap_steal(r);  /* a NumPy scalar (from 0-d operands) stays one, wrapped */
            }
            Py_DECREF(r);  /* anything else: the Python definition decides */
        }
    }
fallback:
    return PyObject_Vectorcall(f->fallback, args, nargsf, kwnames);
}

static PyObject *function_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *numpy_fn, *fallback;
    Py_ssize_t nargs;
    if (!PyArg_ParseTuple(args, "OOn:Function", &numpy_fn, &fallback, &nargs)) {
        return NULL;
    }
    if (nargs < 1 || nargs > 3) {
        PyErr_SetString(PyExc_ValueError, "Function takes 1 to 3 array operands");
        return NULL;
    }
    Function *f = (Function *)type->tp_alloc(type, 0);
    if (f == NULL) {
        return NULL;
    }
    Py_INCREF(numpy_fn);
    Py_INCREF(fallback);
    f->numpy_fn = numpy_fn;
    f->fallback = fallback;
    f->nargs = nargs;
    f->vectorcall = function_vectorcall;
    return (PyObject *)f;
}

static int function_traverse(Function *f, visitproc visit, void *arg)
{
    Py_VISIT(f->numpy_fn);
    Py_VISIT(f->fallback);
    Py_VISIT(f->dict);
    return 0;
}

static int function_clear(Function *f)
{
    Py_CLEAR(f->numpy_fn);
    Py_CLEAR(f->fallback);
    Py_CLEAR(f->dict);
    return 0;
}

static void function_dealloc(Function *f)
{
    PyObject_GC_UnTrack(f);
    function_clear(f);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

static PyObject *function_reduce(Function *f, PyObject *unused)
{
    /* pickled by reference, like a Python function */
    return PyObject_GetAttrString((PyObject *)f, "__qualname__");
}

static PyObject *function_repr(Function *f)
{
    PyObject *name = PyObject_GetAttrString((PyObject *)f, "__qualname__");
    if (name == NULL) {
        PyErr_Clear();
        return PyUnicode_FromString("<arraystack function>");
    }
    PyObject *r = PyUnicode_FromFormat("<function %U>", name);
    Py_DECREF(name);
    return r;
}

static PyMethodDef function_methods[] = {
    {"__reduce__", (PyCFunction)function_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyMemberDef function_members[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(Function, dict), READONLY},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Function, vectorcall), READONLY},
    {"fallback", T_OBJECT, offsetof(Function, fallback), READONLY, "the Python definition"},
    {NULL},
};

static PyGetSetDef function_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict},
    {NULL},
};

PyTypeObject FunctionType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arraystack._core._fastpath.Function",
    .tp_doc = "An arraystack function whose plain eager calls go straight to NumPy; see `fallback`.",
    .tp_basicsize = sizeof(Function),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = function_new,
    .tp_dealloc = (destructor)function_dealloc,
    .tp_traverse = (traverseproc)function_traverse,
    .tp_clear = (inquiry)function_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Function, vectorcall),
    .tp_dictoffset = offsetof(Function, dict),
    .tp_methods = function_methods,
    .tp_members = function_members,
    .tp_getset = function_getset,
    .tp_repr = (reprfunc)function_repr,
};


/* -- Deferring: a function that hands objects overriding NumPy to NumPy's function of the same name ---- */

typedef struct {
    PyObject_HEAD
    PyObject *fn;        /* arraystack's function */
    PyObject *numpy_fn;  /* NumPy's, which dispatches an overriding object (NEP 13/18, its methods) */
    PyObject *defers;    /* defers(x) -> bool: x overrides NumPy (asked only of unfamiliar types) */
    PyObject *dict;
    vectorcallfunc vectorcall;
} Deferring;

static int familiar(PyTypeObject *t)
{
    return t == array_type || t == np_ndarray || t == &PyFloat_Type || t == &PyLong_Type ||
           t == &PyBool_Type || t == &PyComplex_Type;
}

static PyObject *deferring_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                      PyObject *kwnames)
{
    Deferring *d = (Deferring *)callable;
    if (PyVectorcall_NARGS(nargsf) > 0) {
        PyObject *first = args[0];
        if ((PyList_CheckExact(first) && PyList_GET_SIZE(first) > 0)) {
            first = PyList_GET_ITEM(first, 0);
        }
        else if (PyTuple_CheckExact(first) && PyTuple_GET_SIZE(first) > 0) {
            first = PyTuple_GET_ITEM(first, 0);
        }
        if (!familiar(Py_TYPE(first)) && !PyList_CheckExact(first) && !PyTuple_CheckExact(first)) {
            PyObject *r = PyObject_CallOneArg(d->defers, first);
            if (r == NULL) {
                return NULL;
            }
            int defer = PyObject_IsTrue(r);
            Py_DECREF(r);
            if (defer < 0) {
                return NULL;
            }
            if (defer) {
                return PyObject_Vectorcall(d->numpy_fn, args, nargsf, kwnames);
            }
        }
    }
    return PyObject_Vectorcall(d->fn, args, nargsf, kwnames);
}

static PyObject *deferring_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *fn, *numpy_fn, *defers;
    if (!PyArg_ParseTuple(args, "OOO:Deferring", &fn, &numpy_fn, &defers)) {
        return NULL;
    }
    Deferring *d = (Deferring *)type->tp_alloc(type, 0);
    if (d == NULL) {
        return NULL;
    }
    Py_INCREF(fn);
    Py_INCREF(numpy_fn);
    Py_INCREF(defers);
    d->fn = fn;
    d->numpy_fn = numpy_fn;
    d->defers = defers;
    d->vectorcall = deferring_vectorcall;
    return (PyObject *)d;
}

static int deferring_traverse(Deferring *d, visitproc visit, void *arg)
{
    Py_VISIT(d->fn);
    Py_VISIT(d->numpy_fn);
    Py_VISIT(d->defers);
    Py_VISIT(d->dict);
    return 0;
}

static int deferring_clear(Deferring *d)
{
    Py_CLEAR(d->fn);
    Py_CLEAR(d->numpy_fn);
    Py_CLEAR(d->defers);
    Py_CLEAR(d->dict);
    return 0;
}

static void deferring_dealloc(Deferring *d)
{
    PyObject_GC_UnTrack(d);
    deferring_clear(d);
    Py_TYPE(d)->tp_free((PyObject *)d);
}

static PyObject *deferring_reduce(Deferring *d, PyObject *unused)
{
    return PyObject_GetAttrString((PyObject *)d, "__qualname__");  /* pickled by reference */
}

static PyObject *deferring_repr(Deferring *d)
{
    return PyObject_Repr(d->fn);
}

static PyMethodDef deferring_methods[] = {
    {"__reduce__", (PyCFunction)deferring_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyMemberDef deferring_members[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(Deferring, dict), READONLY},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Deferring, vectorcall), READONLY},
    {NULL},
};

static PyGetSetDef deferring_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict},
    {NULL},
};

PyTypeObject DeferringType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arraystack._core._fastpath.Deferring",
    .tp_doc = "An arraystack function that hands objects overriding NumPy to NumPy's function.",
    .tp_basicsize = sizeof(Deferring),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = deferring_new,
    .tp_dealloc = (destructor)deferring_dealloc,
    .tp_traverse = (traverseproc)deferring_traverse,
    .tp_clear = (inquiry)deferring_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Deferring, vectorcall),
    .tp_dictoffset = offsetof(Deferring, dict),
    .tp_methods = deferring_methods,
    .tp_members = deferring_members,
    .tp_getset = deferring_getset,
    .tp_repr = (reprfunc)deferring_repr,
};
