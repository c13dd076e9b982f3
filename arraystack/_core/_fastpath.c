/* The eager fast path of arraystack.ndarray, in C: an optional accelerator, never a second semantics.

   In eager mode (no trace active in any thread) an operator, an indexing or an elementwise function whose
   operands are NumPy buffers or plain scalars means exactly what NumPy's own operation on the unwrapped
   buffers means, so the fast path calls NumPy's operation and wraps the result. Everything else (a trace
   is active, a Tracer or device buffer, out=/where= keywords, lists, a NumPy scalar result from a
   function) calls the Python implementation registered by `install`, which stays the definition.
   Built as an optional extension: without a compiler arraystack runs the same Python code, and the tests
   run both ways (`set_enabled`). This file holds the module (install, set_enabled, wrap); the array slots
   are in _fastpath_array.c, the arrays made for results (allocation, items, iteration) in
   _fastpath_results.c, the function type in _fastpath_function.c, jitted functions' cached calls in
   _fastpath_jit.c, shared declarations in _fastpath.h.
*/
#include "_fastpath.h"

static const char *binary_names[N_BINARY] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift",
    "and", "or", "xor", "matmul"};
static const char *unary_names[N_UNARY] = {"neg", "pos", "abs", "invert"};
static const char *compare_names[6] = {"lt", "le", "eq", "ne", "gt", "ge"};  /* Py_LT .. Py_GE */

/* The state the fast paths read, registered by install(). */
PyTypeObject *array_type = NULL;
PyTypeObject *np_ndarray = NULL;
PyTypeObject *np_generic = NULL;
PyObject *np_asarray = NULL;
PyObject *active = NULL;
Py_ssize_t active_offset = -1;
PyObject *fwd[N_BINARY], *rev[N_BINARY], *ifb[N_BINARY], *unary_fb[N_UNARY], *compare_fb[6];
PyObject *getitem_fb = NULL, *setitem_fb = NULL, *iter_fb = NULL;
int enabled = 0;

/* -- module functions ------------------------------------------------------------------------------------ */

static int take(PyObject *fallbacks, const char *name, PyObject **slot)
{
    PyObject *fn = PyDict_GetItemString(fallbacks, name);  /* borrowed */
    if (fn == NULL) {
        PyErr_Format(PyExc_KeyError, "install: no fallback named %s", name);
        return -1;
    }
    Py_INCREF(fn);
    Py_XSETREF(*slot, fn);
    return 0;
}

static PyObject *install(PyObject *module, PyObject *args)
{
    PyObject *cls, *nd, *gen, *asarray, *act, *n_descr, *fallbacks;
    if (!PyArg_ParseTuple(args, "O!O!O!OOOO!:install", &PyType_Type, &cls, &PyType_Type, &nd,
                          &PyType_Type, &gen, &asarray, &act, &n_descr, &PyDict_Type, &fallbacks)) {
        return NULL;
    }
    if (!PyType_IsSubtype((PyTypeObject *)cls, &ArrayBaseType)) {
        PyErr_SetString(PyExc_TypeError, "install: the array type must subclass ArrayBase");
        return NULL;
    }
    if (Py_TYPE(n_descr) != &PyMemberDescr_Type ||
        ((PyMemberDescrObject *)n_descr)->d_member->type != T_OBJECT_EX ||
        !PyObject_TypeCheck(act, ((PyMemberDescrObject *)n_descr)->d_common.d_type)) {
        PyErr_SetString(PyExc_TypeError, "install: the trace counter must be a __slots__ member");
        return NULL;
    }
    char name[32];
    for (int i = 0; i < N_BINARY; i++) {
        snprintf(name, sizeof name, "__%s__", binary_names[i]);
        if (take(fallbacks, name, &fwd[i]) < 0) return NULL;
        snprintf(name, sizeof name, "__r%s__", binary_names[i]);
        if (take(fallbacks, name, &rev[i]) < 0) return NULL;
        snprintf(name, sizeof name, "__i%s__", binary_names[i]);
        if (take(fallbacks, name, &ifb[i]) < 0) return NULL;
    }
    for (int i = 0; i < N_UNARY; i++) {
        snprintf(name, sizeof name, "__%s__", unary_names[i]);
        if (take(fallbacks, name, &unary_fb[i]) < 0) return NULL;
    }
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "__%s__", compare_names[i]);
        if (take(fallbacks, name, &compare_fb[i]) < 0) return NULL;
    }
    if (take(fallbacks, "__getitem__", &getitem_fb) < 0) return NULL;
    if (take(fallbacks, "__setitem__", &setitem_fb) < 0) return NULL;
    if (take(fallbacks, "__iter__", &iter_fb) < 0) return NULL;
    if (adopt_array_type((PyTypeObject *)cls) < 0) return NULL;
    Py_INCREF(cls);
    Py_INCREF(nd);
    Py_INCREF(gen);
    Py_INCREF(asarray);
    Py_INCREF(act);
    Py_XSETREF(array_type, (PyTypeObject *)cls);
    Py_XSETREF(np_ndarray, (PyTypeObject *)nd);
    Py_XSETREF(np_generic, (PyTypeObject *)gen);
    Py_XSETREF(np_asarray, asarray);
    Py_XSETREF(active, act);
    active_offset = ((PyMemberDescrObject *)n_descr)->d_member->offset;
    enabled = 1;
    Py_RETURN_NONE;
}

static PyObject *set_enabled(PyObject *module, PyObject *flag)
{
    int previous = enabled;
    int on = PyObject_IsTrue(flag);
    if (on < 0) {
        return NULL;
    }
    if (on && array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "set_enabled: install() has not run");
        return NULL;
    }
    enabled = on;
    return PyBool_FromLong(previous);
}

static PyObject *wrap(PyObject *module, PyObject *value)
{
    if (array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "wrap: install() has not run");
        return NULL;
    }
    Py_INCREF(value);
    return Py_TYPE(value) == np_ndarray ? new_wrapper(value) : wrap_steal(value);
}

static PyObject *new_array(PyObject *module, PyObject *value)
{
    /* an arraystack.ndarray holding `value` as it is (a Tracer, a device buffer) */
    if (array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "new_array: install() has not run");
        return NULL;
    }
    Py_INCREF(value);
    return new_wrapper(value);
}

static PyMethodDef module_methods[] = {
    {"install", install, METH_VARARGS,
     "install(ndarray, numpy.ndarray, numpy.generic, numpy.asarray, active, type(active).n, fallbacks)"},
    {"set_enabled", set_enabled, METH_O, "Turn the fast path on or off; returns the previous setting."},
    {"wrap", wrap, METH_O, "An arraystack.ndarray of a NumPy array (NumPy scalars become 0-d arrays)."},
    {"new_array", new_array, METH_O, "An arraystack.ndarray holding this raw value unchanged."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "arraystack._core._fastpath", NULL, -1, module_methods,
};

PyMODINIT_FUNC PyInit__fastpath(void)
{
    if (PyType_Ready(&ArrayBaseType) < 0 || PyType_Ready(&ArrayIteratorType) < 0 ||
        PyType_Ready(&FunctionType) < 0 ||
        PyType_Ready(&DeferringType) < 0 ||
        PyType_Ready(&JitBaseType) < 0 || jit_strings_ready() < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&ArrayBaseType);
    Py_INCREF(&FunctionType);
    Py_INCREF(&DeferringType);
    Py_INCREF(&JitBaseType);
#ifndef SOURCE_CRC
#define SOURCE_CRC ""
#endif
    if (PyModule_AddStringConstant(m, "SOURCE_CRC", SOURCE_CRC) < 0 ||
        PyModule_AddObject(m, "ArrayBase", (PyObject *)&ArrayBaseType) < 0 ||
        PyModule_AddObject(m, "Function", (PyObject *)&FunctionType) < 0 ||
        PyModule_AddObject(m, "Deferring", (PyObject *)&DeferringType) < 0 ||
        PyModule_AddObject(m, "JitBase", (PyObject *)&JitBaseType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
