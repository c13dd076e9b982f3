/* The eager fast path of arraystack.ndarray, in C: an optional accelerator, never a second semantics.

   In eager mode (no trace active in any thread) an operator, an indexing or an elementwise function whose
   operands are NumPy buffers or plain scalars means exactly what NumPy's own operation on the unwrapped
   buffers means, so the fast path calls NumPy's operation and wraps the result. Everything else (a trace
   is active, a Tracer or device buffer, out=/where= keywords, lists, a NumPy scalar result from a
   function) calls the Python implementation registered by `install`, which stays the definition.
   Built as an optional extension: without a compiler arraystack runs the same Python code, and the tests
   run both ways (`set_enabled`).
*/
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

static const char *binary_names[N_BINARY] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift",
    "and", "or", "xor", "matmul"};
static const char *unary_names[N_UNARY] = {"neg", "pos", "abs", "invert"};
static const char *compare_names[6] = {"lt", "le", "eq", "ne", "gt", "ge"};  /* Py_LT .. Py_GE */

/* Registered by install(): the array type, NumPy's types, the trace counter and the Python fallbacks. */
static PyTypeObject *array_type = NULL;   /* arraystack.ndarray (a subclass of ArrayBase) */
static PyTypeObject *np_ndarray = NULL;   /* numpy.ndarray */
static PyTypeObject *np_generic = NULL;   /* numpy.generic */
static PyObject *np_asarray = NULL;
static PyObject *active = NULL;           /* jit.core.active: `n` counts active traces in all threads */
static Py_ssize_t active_offset = -1;     /* where its `n` slot lives */
static PyObject *fwd[N_BINARY], *rev[N_BINARY], *ifb[N_BINARY], *unary_fb[N_UNARY], *compare_fb[6];
static PyObject *getitem_fb = NULL, *setitem_fb = NULL;
static int enabled = 0;

/* eager: no trace is active anywhere (the Python side rechecks per thread when one is) */
static inline int eager(void)
{
    if (!enabled) {
        return 0;
    }
    PyObject *n = *(PyObject **)((char *)active + active_offset);
    return n != NULL && PyLong_CheckExact(n) && PyLong_AsLong(n) == 0;
}

/* The NumPy-level operand for x, or NULL when x is not one the fast path takes (no error set). */
static inline PyObject *operand(PyObject *x)
{
    PyTypeObject *t = Py_TYPE(x);
    if (t == array_type) {
        PyObject *v = ((ArrayBase *)x)->value;
        return (v != NULL && Py_TYPE(v) == np_ndarray) ? v : NULL;
    }
    if (t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || t == &PyComplex_Type ||
        t == np_ndarray || PyType_IsSubtype(t, np_generic)) {
        return x;
    }
    return NULL;
}

/* A new arraystack.ndarray wrapping `value` (a reference is stolen); NumPy scalars become 0-d arrays. */
static PyObject *wrap_steal(PyObject *value)
{
    if (value == NULL) {
        return NULL;
    }
    if (Py_TYPE(value) != np_ndarray) {
        PyObject *arr = PyObject_CallOneArg(np_asarray, value);
        Py_DECREF(value);
        if (arr == NULL) {
            return NULL;
        }
        value = arr;
    }
    ArrayBase *out = (ArrayBase *)array_type->tp_alloc(array_type, 0);
    if (out == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    out->value = value;
    return (PyObject *)out;
}

static PyObject *call2(PyObject *fn, PyObject *a, PyObject *b)
{
    if (fn == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *args[2] = {a, b};
    return PyObject_Vectorcall(fn, args, 2, NULL);
}

static PyObject *numpy_binary(int op, PyObject *a, PyObject *b)
{
    switch (op) {
    case OP_ADD: return PyNumber_Add(a, b);
    case OP_SUB: return PyNumber_Subtract(a, b);
    case OP_MUL: return PyNumber_Multiply(a, b);
    case OP_TRUEDIV: return PyNumber_TrueDivide(a, b);
    case OP_FLOORDIV: return PyNumber_FloorDivide(a, b);
    case OP_MOD: return PyNumber_Remainder(a, b);
    case OP_POW: return PyNumber_Power(a, b, Py_None);
    case OP_LSHIFT: return PyNumber_Lshift(a, b);
    case OP_RSHIFT: return PyNumber_Rshift(a, b);
    case OP_AND: return PyNumber_And(a, b);
    case OP_OR: return PyNumber_Or(a, b);
    case OP_XOR: return PyNumber_Xor(a, b);
    default: return PyNumber_MatrixMultiply(a, b);
    }
}

static PyObject *numpy_inplace(int op, PyObject *a, PyObject *b)
{
    switch (op) {
    case OP_ADD: return PyNumber_InPlaceAdd(a, b);
    case OP_SUB: return PyNumber_InPlaceSubtract(a, b);
    case OP_MUL: return PyNumber_InPlaceMultiply(a, b);
    case OP_TRUEDIV: return PyNumber_InPlaceTrueDivide(a, b);
    case OP_FLOORDIV: return PyNumber_InPlaceFloorDivide(a, b);
    case OP_MOD: return PyNumber_InPlaceRemainder(a, b);
    case OP_POW: return PyNumber_InPlacePower(a, b, Py_None);
    case OP_LSHIFT: return PyNumber_InPlaceLshift(a, b);
    case OP_RSHIFT: return PyNumber_InPlaceRshift(a, b);
    case OP_AND: return PyNumber_InPlaceAnd(a, b);
    case OP_OR: return PyNumber_InPlaceOr(a, b);
    case OP_XOR: return PyNumber_InPlaceXor(a, b);
    default: return PyNumber_InPlaceMatrixMultiply(a, b);
    }
}

static PyObject *binary(int op, PyObject *a, PyObject *b)
{
    int forward = PyObject_TypeCheck(a, array_type);
    if (eager()) {
        PyObject *va = operand(a), *vb = operand(b);
        /* both NumPy-level, and an arraystack array on at least one side */
        if (va != NULL && vb != NULL && (va != a || vb != b)) {
            PyObject *r = numpy_binary(op, va, vb);
            if (r == NULL) {
                return NULL;
            }
            if (r == Py_NotImplemented) {
                Py_DECREF(r);
            }
            else {
                return wrap_steal(r);
            }
        }
    }
    return forward ? call2(fwd[op], a, b) : call2(rev[op], b, a);
}

static PyObject *inplace(int op, PyObject *a, PyObject *b)
{
    if (eager() && Py_TYPE(a) == array_type) {
        PyObject *va = operand(a), *vb = operand(b);
        if (va != NULL && vb != NULL) {
            PyObject *r = numpy_inplace(op, va, vb);
            if (r == NULL) {
                return NULL;
            }
            if (r == va) {  /* NumPy wrote its buffer: the array is still `a` */
                Py_DECREF(r);
                Py_INCREF(a);
                return a;
            }
            if (r != Py_NotImplemented) {
                return wrap_steal(r);
            }
            Py_DECREF(r);
        }
    }
    return call2(ifb[op], a, b);
}

#define BINARY_SLOTS(NAME, OP)                                                                  \
    static PyObject *nb_##NAME(PyObject *a, PyObject *b) { return binary(OP, a, b); }            \
    static PyObject *nb_inplace_##NAME(PyObject *a, PyObject *b) { return inplace(OP, a, b); }

BINARY_SLOTS(add, OP_ADD)
BINARY_SLOTS(sub, OP_SUB)
BINARY_SLOTS(mul, OP_MUL)
BINARY_SLOTS(truediv, OP_TRUEDIV)
BINARY_SLOTS(floordiv, OP_FLOORDIV)
BINARY_SLOTS(mod, OP_MOD)
BINARY_SLOTS(lshift, OP_LSHIFT)
BINARY_SLOTS(rshift, OP_RSHIFT)
BINARY_SLOTS(and, OP_AND)
BINARY_SLOTS(or, OP_OR)
BINARY_SLOTS(xor, OP_XOR)
BINARY_SLOTS(matmul, OP_MATMUL)

static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return binary(OP_POW, a, b);
}

static PyObject *nb_inplace_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return inplace(OP_POW, a, b);
}

static PyObject *unary(int op, PyObject *a)
{
    if (eager()) {
        PyObject *va = operand(a);
        if (va != NULL && va != a) {
            PyObject *r;
            switch (op) {
            case U_NEG: r = PyNumber_Negative(va); break;
            case U_POS: r = PyNumber_Positive(va); break;
            case U_ABS: r = PyNumber_Absolute(va); break;
            default: r = PyNumber_Invert(va); break;
            }
            return wrap_steal(r);
        }
    }
    PyObject *fn = unary_fb[op];
    if (fn == NULL) {
        PyErr_SetString(PyExc_TypeError, "arraystack fast path: no fallback installed");
        return NULL;
    }
    return PyObject_CallOneArg(fn, a);
}

static PyObject *nb_neg(PyObject *a) { return unary(U_NEG, a); }
static PyObject *nb_pos(PyObject *a) { return unary(U_POS, a); }
static PyObject *nb_abs(PyObject *a) { return unary(U_ABS, a); }
static PyObject *nb_invert(PyObject *a) { return unary(U_INVERT, a); }

static PyObject *richcompare(PyObject *a, PyObject *b, int op)
{
    if (eager()) {
        PyObject *va = operand(a), *vb = operand(b);
        if (va != NULL && vb != NULL && va != a) {
            PyObject *r = PyObject_RichCompare(va, vb, op);
            if (r == NULL) {
                return NULL;
            }
            if (r != Py_NotImplemented) {
                return wrap_steal(r);
            }
            Py_DECREF(r);
        }
    }
    return call2(compare_fb[op], a, b);
}

/* Keys NumPy interprets the same way on the unwrapped buffer: ints, slices, Ellipsis, None, arrays and
   tuples of them. Returns a new reference to the NumPy-level key, or NULL (no error) for anything else. */
static PyObject *simple_key(PyObject *key)
{
    PyTypeObject *t = Py_TYPE(key);
    if (t == &PyLong_Type || t == &PySlice_Type || key == Py_Ellipsis || key == Py_None) {
        Py_INCREF(key);
        return key;
    }
    if (t == array_type) {
        PyObject *v = ((ArrayBase *)key)->value;
        if (v != NULL && Py_TYPE(v) == np_ndarray) {
            Py_INCREF(v);
            return v;
        }
        return NULL;
    }
    if (t == &PyTuple_Type) {
        Py_ssize_t n = PyTuple_GET_SIZE(key);
        PyObject *out = PyTuple_New(n);
        if (out == NULL) {
            PyErr_Clear();
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PyTuple_GET_ITEM(key, i);
            if (Py_TYPE(item) == &PyTuple_Type) {  /* a nested tuple is a sequence index: not simple */
                Py_DECREF(out);
                return NULL;
            }
            PyObject *k = simple_key(item);
            if (k == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(out, i, k);
        }
        return out;
    }
    return NULL;
}

static PyObject *mp_subscript(PyObject *self, PyObject *key)
{
    if (eager()) {
        PyObject *v = operand(self);
        if (v != NULL && v != self) {
            PyObject *k = simple_key(key);
            if (k != NULL) {
                PyObject *r = PyObject_GetItem(v, k);
                Py_DECREF(k);
                return wrap_steal(r);
            }
        }
    }
    return call2(getitem_fb, self, key);
}

static int mp_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    if (value != NULL && eager()) {
        PyObject *v = operand(self), *x = operand(value);
        if (v != NULL && v != self && x != NULL) {
            PyObject *k = simple_key(key);
            if (k != NULL) {
                int rc = PyObject_SetItem(v, k, x);
                Py_DECREF(k);
                return rc;
            }
        }
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
        return -1;
    }
    if (setitem_fb == NULL) {
        PyErr_SetString(PyExc_TypeError, "arraystack fast path: no fallback installed");
        return -1;
    }
    PyObject *args[3] = {self, key, value};
    PyObject *r = PyObject_Vectorcall(setitem_fb, args, 3, NULL);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

static int base_traverse(ArrayBase *self, visitproc visit, void *arg)
{
    Py_VISIT(self->value);  /* a heap subclass's subtype_traverse visits the type itself */
    return 0;
}

static int base_clear(ArrayBase *self)
{
    Py_CLEAR(self->value);
    return 0;
}

static void base_dealloc(ArrayBase *self)
{
    /* reached directly or from a heap subclass's subtype_dealloc, which drops the type's reference */
    PyObject_GC_UnTrack(self);
    if (self->weaklist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    Py_CLEAR(self->value);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef base_members[] = {
    {"_value", T_OBJECT_EX, offsetof(ArrayBase, value), 0, "the raw value"},
    {NULL},
};

static PyNumberMethods base_as_number = {
    .nb_add = nb_add, .nb_subtract = nb_sub, .nb_multiply = nb_mul, .nb_remainder = nb_mod,
    .nb_power = nb_pow, .nb_negative = nb_neg, .nb_positive = nb_pos, .nb_absolute = nb_abs,
    .nb_invert = nb_invert, .nb_lshift = nb_lshift, .nb_rshift = nb_rshift, .nb_and = nb_and,
    .nb_xor = nb_xor, .nb_or = nb_or,
    .nb_inplace_add = nb_inplace_add, .nb_inplace_subtract = nb_inplace_sub,
    .nb_inplace_multiply = nb_inplace_mul, .nb_inplace_remainder = nb_inplace_mod,
    .nb_inplace_power = nb_inplace_pow, .nb_inplace_lshift = nb_inplace_lshift,
    .nb_inplace_rshift = nb_inplace_rshift, .nb_inplace_and = nb_inplace_and,
    .nb_inplace_xor = nb_inplace_xor, .nb_inplace_or = nb_inplace_or,
    .nb_floor_divide = nb_floordiv, .nb_true_divide = nb_truediv,
    .nb_inplace_floor_divide = nb_inplace_floordiv, .nb_inplace_true_divide = nb_inplace_truediv,
    .nb_matrix_multiply = nb_matmul, .nb_inplace_matrix_multiply = nb_inplace_matmul,
};

static PyMappingMethods base_as_mapping = {
    .mp_subscript = mp_subscript,
    .mp_ass_subscript = mp_ass_subscript,
};

static PyTypeObject ArrayBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arraystack._fastpath.ArrayBase",
    .tp_doc = "The C layout of arraystack.ndarray: its raw value, and the eager fast path of its operators.",
    .tp_basicsize = sizeof(ArrayBase),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)base_dealloc,
    .tp_traverse = (traverseproc)base_traverse,
    .tp_clear = (inquiry)base_clear,
    .tp_weaklistoffset = offsetof(ArrayBase, weaklist),
    .tp_members = base_members,
    .tp_as_number = &base_as_number,
    .tp_as_mapping = &base_as_mapping,
    .tp_richcompare = richcompare,
    .tp_hash = PyObject_HashNotImplemented,
};

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
                return wrap_steal(r);  /* a NumPy scalar (from 0-d operands) becomes a 0-d array */
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

static PyTypeObject FunctionType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arraystack._fastpath.Function",
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
    if (Py_TYPE(value) == np_ndarray) {
        ArrayBase *out = (ArrayBase *)array_type->tp_alloc(array_type, 0);
        if (out == NULL) {
            Py_DECREF(value);
            return NULL;
        }
        out->value = value;
        return (PyObject *)out;
    }
    return wrap_steal(value);
}

static PyObject *new_array(PyObject *module, PyObject *value)
{
    /* an arraystack.ndarray holding `value` as it is (a Tracer, a device buffer) */
    if (array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "new_array: install() has not run");
        return NULL;
    }
    ArrayBase *out = (ArrayBase *)array_type->tp_alloc(array_type, 0);
    if (out == NULL) {
        return NULL;
    }
    Py_INCREF(value);
    out->value = value;
    return (PyObject *)out;
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
    PyModuleDef_HEAD_INIT, "arraystack._fastpath", NULL, -1, module_methods,
};

PyMODINIT_FUNC PyInit__fastpath(void)
{
    if (PyType_Ready(&ArrayBaseType) < 0 || PyType_Ready(&FunctionType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&ArrayBaseType);
    Py_INCREF(&FunctionType);
#ifndef SOURCE_CRC
#define SOURCE_CRC ""
#endif
    if (PyModule_AddStringConstant(m, "SOURCE_CRC", SOURCE_CRC) < 0 ||
        PyModule_AddObject(m, "ArrayBase", (PyObject *)&ArrayBaseType) < 0 ||
        PyModule_AddObject(m, "Function", (PyObject *)&FunctionType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
