/* JitBase: the cached call of an arraystack.jit function, in C.

   arraystack.JitFunction subclasses JitBase. A call with positional NumPy (or arraystack) array arguments,
   in eager mode, whose key is in the function's table of compiled entries (filled by the Python side, which
   defines what a key is) runs the entry here: build the key, look it up, call the entry's runner, wrap the
   result. Everything else (keywords, other arguments, a miss, captured globals to re-read, tracing,
   disable_jit, the accelerator turned off) calls the Python method `_call`, the definition. The key is
   the one `_call` builds: (pipeline generation, default backend, then type, shape, dtype per argument).
*/
#include "_fastpath.h"

#define MAX_ARGS 16

typedef struct {
    PyObject_HEAD
    PyObject *table;       /* dict: key -> entry (JitFunction._fast); NULL until bind() */
    PyObject *generation;  /* list whose item 0 is the pass pipeline's generation */
    PyObject *config;      /* arraystack.config */
    PyObject *finish;      /* finish(entry, outs): the pytree of several outputs */
    Py_ssize_t hits;       /* calls served here (the Python side adds them to cache_hits) */
} JitBase;

static PyObject *s_call, *s_default_backend, *s_disable_jit, *s_shape, *s_dtype, *s_fixed_consts,
    *s_consts, *s_run, *s_single_output;

/* The entry for these arguments, a new reference; NULL with no error set when the fast path does not apply.
   values[i]: the NumPy array of argument i (borrowed from args). */
static PyObject *lookup(JitBase *f, PyObject *args, Py_ssize_t n, PyObject **values)
{
    PyObject *key = PyTuple_New(2 + 3 * n);
    if (key == NULL) {
        return NULL;
    }
    PyObject *generation = PyList_GET_ITEM(f->generation, 0);
    Py_INCREF(generation);
    PyTuple_SET_ITEM(key, 0, generation);
    PyObject *backend = PyObject_GetAttr(f->config, s_default_backend);
    if (backend == NULL) {
        goto fail;
    }
    PyTuple_SET_ITEM(key, 1, backend);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        PyTypeObject *t = Py_TYPE(a);
        PyObject *v = a;
        if (t == array_type) {
            v = ((ArrayBase *)a)->value;
            if (v == NULL || Py_TYPE(v) != np_ndarray) {
                goto fail;
            }
        }
        else if (t != np_ndarray) {
            goto fail;
        }
        values[i] = v;
        PyObject *shape = PyObject_GetAttr(v, s_shape);
        if (shape == NULL) {
            goto fail;
        }
        PyObject *dtype = PyObject_GetAttr(v, s_dtype);
        if (dtype == NULL) {
            Py_DECREF(shape);
            goto fail;
        }
        Py_INCREF(t);
        PyTuple_SET_ITEM(key, 2 + 3 * i, (PyObject *)t);
        PyTuple_SET_ITEM(key, 3 + 3 * i, shape);
        PyTuple_SET_ITEM(key, 4 + 3 * i, dtype);
    }
    PyObject *entry = PyDict_GetItemWithError(f->table, key);  /* borrowed */
    Py_DECREF(key);
    Py_XINCREF(entry);
    return entry;
fail:  /* not a key the table can hold (no error set), or an error */
    Py_DECREF(key);
    return NULL;
}

static int is_true_attr(PyObject *obj, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) {
        return -1;
    }
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

/* The entry's outputs as the call's result: one array, or finish(entry, outs) for several. */
static PyObject *run_entry(JitBase *f, PyObject *entry, PyObject **values, Py_ssize_t n)
{
    PyObject *consts = PyObject_GetAttr(entry, s_consts);
    if (consts == NULL) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(consts, "entry.consts must be a sequence");
    Py_DECREF(consts);
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    PyObject *buffers = PyList_New(n + m);
    if (buffers == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(values[i]);
        PyList_SET_ITEM(buffers, i, values[i]);
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *c = PySequence_Fast_GET_ITEM(seq, i);
        Py_INCREF(c);
        PyList_SET_ITEM(buffers, n + i, c);
    }
    Py_DECREF(seq);
    PyObject *run = PyObject_GetAttr(entry, s_run);
    if (run == NULL) {
        Py_DECREF(buffers);
        return NULL;
    }
    PyObject *outs = PyObject_CallOneArg(run, buffers);
    Py_DECREF(run);
    Py_DECREF(buffers);
    if (outs == NULL) {
        return NULL;
    }
    f->hits++;
    int single = is_true_attr(entry, s_single_output);
    PyObject *result = NULL;
    if (single < 0) {
        /* error set */
    }
    else if (single) {
        PyObject *value = PySequence_GetItem(outs, 0);
        result = value == NULL ? NULL : wrap_steal(value);  /* numpy.asarray first if need be */
    }
    else {
        result = PyObject_CallFunctionObjArgs(f->finish, entry, outs, NULL);
    }
    Py_DECREF(outs);
    return result;
}

static PyObject *jit_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    JitBase *f = (JitBase *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (f->table != NULL && (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0) && n <= MAX_ARGS && eager()) {
        PyObject *values[MAX_ARGS];
        PyObject *entry = lookup(f, args, n, values);
        if (entry == NULL && PyErr_Occurred()) {
            return NULL;
        }
        if (entry != NULL) {
            /* disable_jit, or captured arrays `_call` must re-read: the Python path */
            int off = is_true_attr(f->config, s_disable_jit);
            int fixed = off == 0 ? is_true_attr(entry, s_fixed_consts) : 0;
            PyObject *result = off == 0 && fixed > 0 ? run_entry(f, entry, values, n) : NULL;
            Py_DECREF(entry);
            if ((off == 0 && fixed > 0) || off < 0 || fixed < 0) {
                return result;  /* NULL with the error set when an attribute could not be read */
            }
        }
    }
    PyObject *call = PyObject_GetAttr(self, s_call);
    if (call == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_Call(call, args, kwargs);
    Py_DECREF(call);
    return r;
}

static PyObject *jit_bind(PyObject *self, PyObject *args)
{
    JitBase *f = (JitBase *)self;
    PyObject *table, *generation, *config, *finish;
    if (!PyArg_ParseTuple(args, "O!O!OO:_bind_fast_path", &PyDict_Type, &table, &PyList_Type, &generation,
                          &config, &finish)) {
        return NULL;
    }
    if (PyList_GET_SIZE(generation) < 1) {
        PyErr_SetString(PyExc_ValueError, "_bind_fast_path: the generation list is empty");
        return NULL;
    }
    if (array_type == NULL) {
        Py_RETURN_NONE;  /* install() has not run: every call takes the Python path */
    }
    Py_INCREF(table);
    Py_INCREF(generation);
    Py_INCREF(config);
    Py_INCREF(finish);
    Py_XSETREF(f->table, table);
    Py_XSETREF(f->generation, generation);
    Py_XSETREF(f->config, config);
    Py_XSETREF(f->finish, finish);
    Py_RETURN_NONE;
}

static int jit_traverse(JitBase *f, visitproc visit, void *arg)
{
    Py_VISIT(f->table);
    Py_VISIT(f->generation);
    Py_VISIT(f->config);
    Py_VISIT(f->finish);
    return 0;
}

static int jit_clear(JitBase *f)
{
    Py_CLEAR(f->table);
    Py_CLEAR(f->generation);
    Py_CLEAR(f->config);
    Py_CLEAR(f->finish);
    return 0;
}

static void jit_dealloc(JitBase *f)
{
    PyObject_GC_UnTrack(f);
    jit_clear(f);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

static PyMethodDef jit_methods[] = {
    {"_bind_fast_path", jit_bind, METH_VARARGS,
     "_bind_fast_path(table, generation, config, finish): serve cached calls from `table` in C."},
    {NULL},
};

static PyMemberDef jit_members[] = {
    {"_fast_hits", T_PYSSIZET, offsetof(JitBase, hits), READONLY, "calls served by the C fast path"},
    {NULL},
};

PyTypeObject JitBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arraystack._fastpath.JitBase",
    .tp_basicsize = sizeof(JitBase),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The C fast path of a jitted function's cached calls (see _fastpath_jit.c).",
    .tp_call = jit_call,
    .tp_traverse = (traverseproc)jit_traverse,
    .tp_clear = (inquiry)jit_clear,
    .tp_dealloc = (destructor)jit_dealloc,
    .tp_methods = jit_methods,
    .tp_members = jit_members,
    .tp_new = PyType_GenericNew,
};

int jit_strings_ready(void)
{
    return (s_call = PyUnicode_InternFromString("_call")) != NULL &&
                   (s_default_backend = PyUnicode_InternFromString("default_backend")) != NULL &&
                   (s_disable_jit = PyUnicode_InternFromString("disable_jit")) != NULL &&
                   (s_shape = PyUnicode_InternFromString("shape")) != NULL &&
                   (s_dtype = PyUnicode_InternFromString("dtype")) != NULL &&
                   (s_fixed_consts = PyUnicode_InternFromString("fixed_consts")) != NULL &&
                   (s_consts = PyUnicode_InternFromString("consts")) != NULL &&
                   (s_run = PyUnicode_InternFromString("run")) != NULL &&
                   (s_single_output = PyUnicode_InternFromString("single_output")) != NULL
               ? 0
               : -1;
}
