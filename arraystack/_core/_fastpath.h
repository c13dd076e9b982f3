/* Shared declarations of the eager fast path (see _fastpath.c): the array layout, the state install()
   registers, and the two checks every fast path makes. */
#ifndef ARRAYSTACK_FASTPATH_H
#define ARRAYSTACK_FASTPATH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD
    PyObject *value;     /* the raw value: a numpy.ndarray, a Tracer, a device buffer */
    PyObject *weaklist;
} ArrayBase;

enum {
    OP_ADD, OP_SUB, OP_MUL, OP_TRUEDIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_LSHIFT, OP_RSHIFT,
    OP_AND, OP_OR, OP_XOR, OP_MATMUL, N_BINARY
};
enum { U_NEG, U_POS, U_ABS, U_INVERT, N_UNARY };

/* Registered by install(): the array type, NumPy's types, the trace counter and the Python fallbacks. */
extern PyTypeObject *array_type;   /* arraystack.ndarray (a subclass of ArrayBase) */
extern PyTypeObject *np_ndarray;   /* numpy.ndarray */
extern PyTypeObject *np_generic;   /* numpy.generic */
extern PyObject *np_asarray;
extern PyObject *active;           /* jit.core.active: `n` counts active traces in all threads */
extern Py_ssize_t active_offset;   /* where its `n` slot lives */
extern PyObject *fwd[N_BINARY], *rev[N_BINARY], *ifb[N_BINARY], *unary_fb[N_UNARY], *compare_fb[6];
extern PyObject *getitem_fb, *setitem_fb, *iter_fb;
extern int enabled;

extern PyTypeObject ArrayBaseType;  /* _fastpath_array.c */
extern PyTypeObject ArrayIteratorType;  /* _fastpath_results.c */
extern PyTypeObject FunctionType;   /* _fastpath_function.c */
extern PyTypeObject DeferringType;  /* _fastpath_function.c */
extern PyTypeObject JitBaseType;    /* _fastpath_jit.c */
int jit_strings_ready(void);

/* _fastpath_results.c: a new arraystack.ndarray holding `value` as it is (a reference is stolen; NULL if
   out of memory); install()'s adoption of the array type, whose objects are then deallocated (and their
   memory reused) there. */
PyObject *new_wrapper(PyObject *value);
int adopt_array_type(PyTypeObject *cls);
/* A new arraystack.ndarray wrapping `value` (a reference is stolen); NumPy scalars stay scalars inside
   (wrap_steal), or become 0-d arrays (wrap_array_steal, what jit returns). */
PyObject *wrap_steal(PyObject *value);
PyObject *wrap_array_steal(PyObject *value);
/* An item NumPy's indexing gave, wrapped as arraystack's indexing wraps it (a reference is stolen); a[i]
   for a Python int i (NULL and no error: the general path answers); ArrayBase's tp_iter. */
PyObject *wrap_item(PyObject *r);
PyObject *int_item(PyObject *v, PyObject *key);
PyObject *array_iter(PyObject *self);

/* eager: no trace is active anywhere (the Python side rechecks per thread when one is) */
static inline int eager(void)
{
    if (!enabled) {
        return 0;
    }
    PyObject *n = *(PyObject **)((char *)active + active_offset);
    return n != NULL && PyLong_CheckExact(n) && PyLong_AsLong(n) == 0;
}

/* Whether t is numpy.generic or a subclass of it: a NumPy scalar type. NumPy's own scalar types are
   static types, remembered once seen (a heap type's memory could later hold another type). */
static inline int is_scalar_type(PyTypeObject *t)
{
    static PyTypeObject *known[8];
    for (int i = 0; i < 8 && known[i] != NULL; i++) {
        if (known[i] == t) {
            return 1;
        }
    }
    if (!PyType_IsSubtype(t, np_generic)) {
        return 0;
    }
    for (int i = 0; i < 8 && !(t->tp_flags & Py_TPFLAGS_HEAPTYPE); i++) {
        if (known[i] == NULL) {
            known[i] = t;
            break;
        }
    }
    return 1;
}

/* The leading fields of NumPy's array object and dtype descriptor (NumPy's ABI, the same in NumPy 1 and
   2): enough to read an array's dtype kind without NumPy's headers. */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
} NumpyArrayHead;

typedef struct {
    PyObject_HEAD
    PyTypeObject *typeobj;
    char kind;
} NumpyDescrHead;

/* A NumPy array of kind "V": structured records, or ml_dtypes' bfloat16, whose promotion with Python
   scalars arraystack decides itself (NumPy's loops give float32): the Python definitions take them. */
static inline int void_kind(PyObject *arr)
{
    return ((NumpyDescrHead *)((NumpyArrayHead *)arr)->descr)->kind == 'V';
}

/* The NumPy-level operand for x, or NULL when x is not one the fast path takes (no error set). */
static inline PyObject *operand(PyObject *x)
{
    PyTypeObject *t = Py_TYPE(x);
    if (t == array_type) {  /* a NumPy array, or a NumPy scalar (a scalar result) */
        PyObject *v = ((ArrayBase *)x)->value;
        if (v == NULL) {
            return NULL;
        }
        if (Py_TYPE(v) == np_ndarray) {
            return void_kind(v) ? NULL : v;
        }
        return is_scalar_type(Py_TYPE(v)) ? v : NULL;
    }
    if (t == np_ndarray) {
        return void_kind(x) ? NULL : x;
    }
    if (t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || t == &PyComplex_Type ||
        is_scalar_type(t)) {
        return x;
    }
    return NULL;
}

#endif
