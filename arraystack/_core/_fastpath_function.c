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
