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


/* -- Deferring: a function that hands a call with an argument overriding NumPy to NumPy's function ------ */

typedef struct {
    PyObject_HEAD
    PyObject *fn;        /* arraystack's function */
    PyObject *route;     /* called instead when an argument's type overrides NumPy (overrides.py decides
                            by NumPy's dispatcher whether that argument is a relevant one) */
    PyObject *types;     /* dict: type -> True/False, whether its objects override NumPy (shared) */
    PyObject *classify;  /* classify(x) -> bool, filling `types`, for a type not in it yet */
    PyObject *dict;
    vectorcallfunc vectorcall;
} Deferring;

#define SCAN_DEPTH 3  /* lists and tuples are looked into this many levels deep (block nests them) */

static int familiar(PyTypeObject *t)
{
    return t == array_type || t == np_ndarray || t == &PyFloat_Type || t == &PyLong_Type ||
           t == &PyBool_Type || t == &PyComplex_Type || t == Py_TYPE(Py_None) ||
           t == &PyUnicode_Type;
}

/* 1 when x, or an item of x (a list or tuple), is of a type that overrides NumPy; 0 if not; -1 on error */
static int overriding(Deferring *d, PyObject *x, int depth)
{
    PyTypeObject *t = Py_TYPE(x);
    if (familiar(t)) {
        return 0;
    }
    if (t == &PyList_Type || t == &PyTuple_Type) {
        if (depth >= SCAN_DEPTH) {
            return 0;
        }
        for (Py_ssize_t i = 0; i < Py_SIZE(x); i++) {  /* Py_SIZE: a list may shrink meanwhile */
            PyObject *item = t == &PyList_Type ? PyList_GET_ITEM(x, i) : PyTuple_GET_ITEM(x, i);
            Py_INCREF(item);
            int found = overriding(d, item, depth + 1);
            Py_DECREF(item);
            if (found != 0) {
                return found;
            }
        }
        return 0;
    }
    PyObject *known = PyDict_GetItemWithError(d->types, (PyObject *)t);  /* borrowed */
    if (known != NULL) {
        return known == Py_True;
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    PyObject *r = PyObject_CallOneArg(d->classify, x);
    if (r == NULL) {
        return -1;
    }
    int found = PyObject_IsTrue(r);
    Py_DECREF(r);
    return found;
}

static PyObject *deferring_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                      PyObject *kwnames)
{
    Deferring *d = (Deferring *)callable;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf) + (kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames));
    for (Py_ssize_t i = 0; i < n; i++) {  /* keyword values follow the positional arguments */
        int found = overriding(d, args[i], 0);
        if (found < 0) {
            return NULL;
        }
        if (found) {
            return PyObject_Vectorcall(d->route, args, nargsf, kwnames);
        }
    }
    return PyObject_Vectorcall(d->fn, args, nargsf, kwnames);
}

static PyObject *deferring_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *fn, *route, *types, *classify;
    if (!PyArg_ParseTuple(args, "OOO!O:Deferring", &fn, &route, &PyDict_Type, &types, &classify)) {
        return NULL;
    }
    Deferring *d = (Deferring *)type->tp_alloc(type, 0);
    if (d == NULL) {
        return NULL;
    }
    Py_INCREF(fn);
    Py_INCREF(route);
    Py_INCREF(types);
    Py_INCREF(classify);
    d->fn = fn;
    d->route = route;
    d->types = types;
    d->classify = classify;
    d->vectorcall = deferring_vectorcall;
    return (PyObject *)d;
}

static int deferring_traverse(Deferring *d, visitproc visit, void *arg)
{
    Py_VISIT(d->fn);
    Py_VISIT(d->route);
    Py_VISIT(d->types);
    Py_VISIT(d->classify);
    Py_VISIT(d->dict);
    return 0;
}

static int deferring_clear(Deferring *d)
{
    Py_CLEAR(d->fn);
    Py_CLEAR(d->route);
    Py_CLEAR(d->types);
    Py_CLEAR(d->classify);
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
    .tp_doc = "Deferring(fn, route, types, classify): calls fn, or route where an argument overrides NumPy.",
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
