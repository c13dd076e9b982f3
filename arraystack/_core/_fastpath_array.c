/* ArrayBase: the C layout of arraystack.ndarray and its operator, comparison and indexing slots (its
   iteration and the allocation of its objects are in _fastpath_results.c). */
#include "_fastpath.h"

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

/* Whether NumPy interprets `key` on the unwrapped buffer as arraystack does on the array: an int, a
   slice, Ellipsis, None, a NumPy array or scalar. */
static inline int numpy_level_key(PyObject *key)
{
    PyTypeObject *t = Py_TYPE(key);
    return t == &PyLong_Type || t == &PySlice_Type || key == Py_Ellipsis || key == Py_None ||
           t == np_ndarray || is_scalar_type(t);
}

/* Keys NumPy interprets the same way on the unwrapped buffer: the keys above, arraystack arrays holding
   a NumPy buffer or scalar, and tuples of them. Returns a new reference to the
   NumPy-level key (the key itself where it is one), or NULL (no error) for anything else. */
static PyObject *simple_key(PyObject *key)
{
    PyTypeObject *t = Py_TYPE(key);
    if (t == array_type) {
        PyObject *v = ((ArrayBase *)key)->value;
        if (v != NULL && (Py_TYPE(v) == np_ndarray || is_scalar_type(Py_TYPE(v)))) {
            Py_INCREF(v);
            return v;
        }
        return NULL;
    }
    if (t == &PyTuple_Type) {
        Py_ssize_t n = PyTuple_GET_SIZE(key), wrapped = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PyTuple_GET_ITEM(key, i);
            if (Py_TYPE(item) == array_type) {
                wrapped++;
            }
            else if (!numpy_level_key(item)) {  /* a nested tuple is a sequence index: not simple */
                return NULL;
            }
        }
        if (wrapped == 0) {
            Py_INCREF(key);
            return key;
        }
        PyObject *out = PyTuple_New(n);
        if (out == NULL) {
            PyErr_Clear();
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PyTuple_GET_ITEM(key, i);
            PyObject *k = Py_TYPE(item) == array_type ? simple_key(item) : Py_NewRef(item);
            if (k == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(out, i, k);
        }
        return out;
    }
    if (numpy_level_key(key)) {
        Py_INCREF(key);
        return key;
    }
    return NULL;
}

static PyObject *mp_subscript(PyObject *self, PyObject *key)
{
    if (eager()) {
        PyObject *v = operand(self);
        if (v != NULL && v != self) {
            if (Py_TYPE(key) == &PyLong_Type && Py_TYPE(v) == np_ndarray) {
                PyObject *r = int_item(v, key);
                if (r != NULL || PyErr_Occurred()) {
                    return r;
                }
            }
            PyObject *k = simple_key(key);
            if (k != NULL) {
                PyObject *r = PyObject_GetItem(v, k);
                Py_DECREF(k);
                return wrap_item(r);
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

/* The buffer protocol (memoryview, bytes, struct, array.array): the NumPy buffer's own export. The
   exported view's `obj` is that buffer, so PyBuffer_Release releases through it, and NumPy's reference
   to it keeps a resize from moving memory a consumer still reads. A traced value has no memory. */
static int exports_untyped_bytes(PyObject *scalar)
{
    /* NumPy's datetime64, timedelta64 and bytes_ scalars export plain bytes (format 'B'), which a
       consumer such as numpy.asarray would read as uint8, and a structured (np.void) scalar's format
       omits its padding, which numpy.asarray then rejects: they offer no buffer, so NumPy reads them
       through __array__, as it reads arrays of those dtypes */
    PyObject *dtype = PyObject_GetAttrString(scalar, "dtype");
    PyObject *kind = dtype == NULL ? NULL : PyObject_GetAttrString(dtype, "kind");
    Py_XDECREF(dtype);
    if (kind == NULL) {
        PyErr_Clear();
        return 0;
    }
    int untyped = PyUnicode_Check(kind) && (PyUnicode_CompareWithASCIIString(kind, "M") == 0 ||
                                            PyUnicode_CompareWithASCIIString(kind, "m") == 0 ||
                                            PyUnicode_CompareWithASCIIString(kind, "S") == 0 ||
                                            PyUnicode_CompareWithASCIIString(kind, "V") == 0);
    Py_DECREF(kind);
    return untyped;
}

static int bf_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    PyObject *v = ((ArrayBase *)self)->value;
    if (v != NULL && np_ndarray != NULL &&
        (Py_TYPE(v) == np_ndarray || is_scalar_type(Py_TYPE(v)))) {
        if (Py_TYPE(v) != np_ndarray && exports_untyped_bytes(v)) {
            PyErr_SetString(PyExc_BufferError,
                            "a datetime64, timedelta64, bytes_ or structured scalar has no typed buffer");
            view->obj = NULL;
            return -1;
        }
        return PyObject_GetBuffer(v, view, flags);  /* a NumPy scalar exports its bytes too */
    }
    PyObject *aval = v == NULL ? NULL : PyObject_GetAttrString(v, "aval");
    PyObject *text = aval == NULL ? NULL : PyObject_CallMethod(aval, "str_short", NULL);
    Py_XDECREF(aval);
    if (text != NULL) {
        PyErr_Format(PyExc_BufferError,
                     "a traced value %U has no buffer (memoryview, bytes, struct): it exists only for "
                     "concrete arrays; call it outside jit/grad/vmap", text);
        Py_DECREF(text);
    }
    else {
        PyErr_Clear();
        PyErr_SetString(PyExc_BufferError,
                        "arraystack: this array's buffer is not in host memory (copy it with "
                        "to_device('cpu'))");
    }
    view->obj = NULL;
    return -1;
}

static PyBufferProcs base_as_buffer = {
    .bf_getbuffer = bf_getbuffer,
};

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

PyTypeObject ArrayBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arraystack._core._fastpath.ArrayBase",
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
    .tp_as_buffer = &base_as_buffer,
    .tp_richcompare = richcompare,
    .tp_iter = array_iter,
    .tp_hash = PyObject_HashNotImplemented,
};
