/* JitBase: the cached call of an arraystack.jit function, in C.

   arraystack.JitFunction subclasses JitBase. A call with positional NumPy (or arraystack) array arguments,
   in eager mode, whose key is in the function's table of compiled entries (filled by the Python side, which
   defines what a key is) runs the entry here: build the key, look it up, check the entry's guards, call
   its runner, wrap the result, and move the entry to the end of the function's use order (its LRU).
   Everything else (keywords, other arguments, a miss, a guard that sees another object than the one it
   expects, tracing, disable_jit, the accelerator turned off) calls the Python method `_call`, the
   definition. The key is the one `_call` builds: (pipeline generation, default backend, then type,
   shape, dtype per argument). The guards are those of arraystack/_transforms/jit_captures.py: (kind, source, key,
   expected, buffer); this file checks identity only, for the kinds below, and leaves the rest to Python.
*/
#include "_fastpath.h"

#define MAX_ARGS 16

/* guard kinds, as in arraystack/_transforms/jit_captures.py */
enum { G_ITEM, G_CELL, G_INDEX, G_CLASS, G_LENGTH };

typedef struct {
    PyObject_HEAD
    PyObject *table;       /* dict: key -> entry (JitFunction._fast); NULL until bind() */
    PyObject *used;        /* dict: entry -> None, least recently used first */
    PyObject *generation;  /* list whose item 0 is the pass pipeline's generation */
    PyObject *config;      /* arraystack.config */
    PyObject *finish;      /* finish(entry, outs): the pytree of several outputs */
    PyObject *last;        /* the entry served last (compared only, never dereferenced) */
    Py_ssize_t hits;       /* calls served here (the Python side adds them to cache_hits) */
} JitBase;

static PyObject *s_call, *s_default_backend, *s_disable_jit, *s_shape, *s_dtype, *s_bound, *s_run,
    *s_single_output;
static PyObject *missing;  /* _jit_captures.MISSING: what a guard expects where a name was absent */

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

/* 1 when every guard sees the object it expects (for an arraystack array, also the same buffer), 0 when
   one does not or is of a kind left to Python, -1 with an error set. */
static int guards_hold(PyObject *guards)
{
    if (!PyTuple_Check(guards)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(guards); i++) {
        PyObject *g = PyTuple_GET_ITEM(guards, i);
        if (!PyTuple_Check(g) || PyTuple_GET_SIZE(g) != 5) {
            return 0;
        }
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(g, 0));
        PyObject *source = PyTuple_GET_ITEM(g, 1), *key = PyTuple_GET_ITEM(g, 2);
        PyObject *expected = PyTuple_GET_ITEM(g, 3), *buffer = PyTuple_GET_ITEM(g, 4);
        PyObject *now = NULL; /* borrowed */
        if (kind == G_ITEM || kind == G_CLASS) {
            PyObject *dict = source;
            if (kind == G_CLASS) {
                dict = PyType_Check(source) ? ((PyTypeObject *)source)->tp_dict : NULL;
            }
            if (dict == NULL || !PyDict_Check(dict)) {
                return 0;
            }
            now = PyDict_GetItemWithError(dict, key);
            if (now == NULL && PyErr_Occurred()) {
                return -1;
            }
        }
        else if (kind == G_CELL && PyCell_Check(source)) {
            now = PyCell_GET(source);
        }
        else if (kind == G_INDEX && PyList_Check(source) && PyLong_Check(key)) {
            Py_ssize_t k = PyLong_AsSsize_t(key);
            now = k >= 0 && k < PyList_GET_SIZE(source) ? PyList_GET_ITEM(source, k) : NULL;
        }
        else if (kind == G_LENGTH && PyList_Check(source) && PyLong_Check(expected)) {
            if (PyList_GET_SIZE(source) != PyLong_AsSsize_t(expected)) {
                return 0;
            }
            continue;
        }
        else {
            return PyErr_Occurred() ? -1 : 0;
        }
        if ((now == NULL ? missing : now) != expected) {
            return 0;
        }
        if (buffer != Py_None && now != NULL && Py_TYPE(now) == array_type &&
            ((ArrayBase *)now)->value != buffer) {
            return 0;
        }
    }
    return 1;
}

/* The entry now goes last in the use order (the Python side evicts from the front). */
static int mark_used(JitBase *f, PyObject *entry)
{
    if (entry == f->last || f->used == NULL) {
        return 0;
    }
    f->last = entry;
    int present = PyDict_Contains(f->used, entry);
    if (present <= 0) {
        return present; /* evicted meanwhile: nothing to move */
    }
    if (PyDict_DelItem(f->used, entry) < 0) {
        return -1;
    }
    return PyDict_SetItem(f->used, entry, Py_None);
}

/* The entry's outputs as the call's result: one array, or finish(entry, outs) for several. */
static PyObject *run_entry(JitBase *f, PyObject *entry, PyObject *consts, PyObject **values, Py_ssize_t n)
{
    PyObject *seq = PySequence_Fast(consts, "entry.bound[1] must be a sequence");
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
        result = value == NULL ? NULL : wrap_array_steal(value);  /* a 0-d array, never a scalar */
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
            /* disable_jit, or a guard `_call` must look at: the Python path */
            int off = is_true_attr(f->config, s_disable_jit);
            PyObject *bound = off == 0 ? PyObject_GetAttr(entry, s_bound) : NULL;
            int hold = off;
            if (off == 0) {
                hold = bound == NULL ? -1
                       : PyTuple_Check(bound) && PyTuple_GET_SIZE(bound) == 2
                           ? guards_hold(PyTuple_GET_ITEM(bound, 0))
                           : 0;
            }
            PyObject *result = NULL;
            if (off == 0 && hold > 0) {
                result = mark_used(f, entry) < 0 ? NULL
                                                 : run_entry(f, entry, PyTuple_GET_ITEM(bound, 1), values, n);
            }
            Py_XDECREF(bound);
            Py_DECREF(entry);
            if ((off == 0 && hold > 0) || off < 0 || hold < 0) {
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
    PyObject *table, *used, *generation, *config, *finish, *absent;
    if (!PyArg_ParseTuple(args, "O!O!O!OOO:_bind_fast_path", &PyDict_Type, &table, &PyDict_Type, &used,
                          &PyList_Type, &generation, &config, &finish, &absent)) {
        return NULL;
    }
    if (PyList_GET_SIZE(generation) < 1) {
        PyErr_SetString(PyExc_ValueError, "_bind_fast_path: the generation list is empty");
        return NULL;
    }
    if (array_type == NULL) {
        Py_RETURN_NONE;  /* install() has not run: every call takes the Python path */
    }
    if (missing == NULL) {
        Py_INCREF(absent);
        missing = absent;  /* one sentinel for all functions, kept for the process */
    }
    Py_INCREF(table);
    Py_INCREF(used);
    Py_INCREF(generation);
    Py_INCREF(config);
    Py_INCREF(finish);
    Py_XSETREF(f->table, table);
    Py_XSETREF(f->used, used);
    Py_XSETREF(f->generation, generation);
    Py_XSETREF(f->config, config);
    Py_XSETREF(f->finish, finish);
    Py_RETURN_NONE;
}

static int jit_traverse(JitBase *f, visitproc visit, void *arg)
{
    Py_VISIT(f->table);
    Py_VISIT(f->used);
    Py_VISIT(f->generation);
    Py_VISIT(f->config);
    Py_VISIT(f->finish);
    return 0;
}

static int jit_clear(JitBase *f)
{
    Py_CLEAR(f->table);
    Py_CLEAR(f->used);
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
     "_bind_fast_path(table, used, generation, config, finish, missing): serve cached calls from "
     "`table` in C."},
    {NULL},
};

static PyMemberDef jit_members[] = {
    {"_fast_hits", T_PYSSIZET, offsetof(JitBase, hits), READONLY, "calls served by the C fast path"},
    {NULL},
};

PyTypeObject JitBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arraystack._core._fastpath.JitBase",
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
                   (s_bound = PyUnicode_InternFromString("bound")) != NULL &&
                   (s_run = PyUnicode_InternFromString("run")) != NULL &&
                   (s_single_output = PyUnicode_InternFromString("single_output")) != NULL
               ? 0
               : -1;
}
