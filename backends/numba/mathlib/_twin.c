/* The fast twin of the numba kernels' mathlib for tier 0: exp_log.py's exp, expm1, log, tanh, logistic,
 * erf.py's erf, log1p.py's log1p and trig.py's sin, cos, tan (float32, float64) over contiguous arrays,
 * bit for bit (the _<family>_twin.h headers have the functions and say how). twins.py loads it (and
 * hands it the trig reduction tables), and falls back to the NumPy twins (<family>_numpy.py) when this
 * module is missing or stale.
 *
 * Each function has three loops: a portable one (fma() may be a libm call) and, on x86 with GCC or clang,
 * one compiled for AVX2 + FMA and one for AVX-512 (the best the CPU runs is chosen at import): there fma()
 * is one instruction and the loop vectorizes (1-4 ms per 1e6 float32, 3-7 ms per 1e6 float64 on AVX-512,
 * against 25-100 ms for the portable loop). All compute the same bits: IEEE operations do not depend on
 * the instruction set, and the tests compare each loop with the kernels.
 *
 * Python API, per function `<name>_<f32|f64>(src, dst[, variant])`: src and dst C-contiguous buffers of
 * float32 ("f") or float64 ("d") with the same length; dst[i] = <name>(src[i]) (src may be dst).
 * `variant` (default: the best the CPU runs) indexes VARIANTS. SOURCE_CRC is set by setup.py.
 * `set_trig_tables(table, table_f)` copies trig_constants.py's TRIG_TABLE and TRIG_TABLE_F (float64,
 * C-contiguous) in; sin and cos raise RuntimeError until it has. TRIG_CONSTANTS: the scalar constants of
 * _trig_twin.h as compiled (name -> float or tuple), for the test against Python's; ERF_CONSTANTS:
 * erf_f64's. `libm_erf_f64(src, dst[, variant])`: libm's erf (eager erf's reference rule computes it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_exp_log_twin.h"
#include "_trig_twin.h"
#include "_erf_twin.h"
#include "_log1p_twin.h"

#ifndef SOURCE_CRC
#define SOURCE_CRC "unknown"
#endif

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_X86_VARIANTS 1
#define TARGET_AVX2 __attribute__((target("avx2,fma")))
#define TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")))
#else
#define HAVE_X86_VARIANTS 0
#endif

/* -- loops and dispatch --------------------------------------------------------------------------------- */
typedef void (*loop_fn)(const void *src, void *dst, Py_ssize_t n);

#define PORTABLE_LOOP(fn, T)                                                     \
    static void fn##_portable(const void *src, void *dst, Py_ssize_t n)          \
    {                                                                            \
        const T *x = (const T *)src;                                             \
        T *y = (T *)dst;                                                         \
        for (Py_ssize_t i = 0; i < n; i++)                                       \
            y[i] = fn(x[i]);                                                     \
    }
#if HAVE_X86_VARIANTS
#define AVX2_LOOP(fn, T)                                                         \
    TARGET_AVX2 static void fn##_avx2(const void *src, void *dst, Py_ssize_t n)  \
    {                                                                            \
        const T *x = (const T *)src;                                             \
        T *y = (T *)dst;                                                         \
        for (Py_ssize_t i = 0; i < n; i++)                                       \
            y[i] = fn(x[i]);                                                     \
    }
#define AVX2_ENTRY(fn) fn##_avx2
#define AVX512_LOOP(fn, T)                                                       \
    TARGET_AVX512 static void fn##_avx512(const void *src, void *dst, Py_ssize_t n) \
    {                                                                            \
        const T *x = (const T *)src;                                             \
        T *y = (T *)dst;                                                         \
        for (Py_ssize_t i = 0; i < n; i++)                                       \
            y[i] = fn(x[i]);                                                     \
    }
#define AVX512_ENTRY(fn) fn##_avx512
#else
#define AVX2_LOOP(fn, T)
#define AVX2_ENTRY(fn) NULL
#define AVX512_LOOP(fn, T)
#define AVX512_ENTRY(fn) NULL
#endif
#define LOOPS(fn, T) PORTABLE_LOOP(fn, T) AVX2_LOOP(fn, T) AVX512_LOOP(fn, T)

LOOPS(exp_f64, double)
LOOPS(expm1_f64, double)
LOOPS(log_f64, double)
LOOPS(tanh_f64, double)
LOOPS(logistic_f64, double)
LOOPS(exp_f32, float)
LOOPS(expm1_f32, float)
LOOPS(log_f32, float)
LOOPS(tanh_f32, float)
LOOPS(logistic_f32, float)
LOOPS(erf_f64, double)
LOOPS(erf_f32, float)
LOOPS(log1p_f64, double)
LOOPS(log1p_f32, float)
PORTABLE_LOOP(libm_erf_f64, double)
LOOPS(sin_f64, double)
LOOPS(cos_f64, double)
LOOPS(sin_f32, float)
LOOPS(cos_f32, float)
LOOPS(tan_f64, double)
LOOPS(tan_f32, float)

#define N_VARIANTS 3 /* 0: portable, 1: AVX2 + FMA, 2: AVX-512 */
static const char *const VARIANT_NAMES[N_VARIANTS] = {"portable", "avx2+fma", "avx512"};
static int variant_available[N_VARIANTS] = {1, 0, 0};
static int best_variant = 0;

static PyObject *
run(PyObject *args, char format, Py_ssize_t itemsize, const loop_fn loops[N_VARIANTS])
{
    PyObject *src_obj, *dst_obj;
    int variant = -1;
    if (!PyArg_ParseTuple(args, "OO|i", &src_obj, &dst_obj, &variant))
        return NULL;
    if (variant == -1)
        variant = best_variant;
    if (variant < 0 || variant >= N_VARIANTS || !variant_available[variant]) {
        PyErr_Format(PyExc_ValueError, "variant %d is not available on this CPU", variant);
        return NULL;
    }
    Py_buffer src, dst;
    if (PyObject_GetBuffer(src_obj, &src, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(dst_obj, &dst, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&src);
        return NULL;
    }
    const char want[2] = {format, '\0'};
    int ok = 1;
    if (src.itemsize != itemsize || dst.itemsize != itemsize || !src.format || !dst.format ||
        strcmp(src.format, want) != 0 || strcmp(dst.format, want) != 0) {
        PyErr_Format(PyExc_TypeError, "expected buffers of format '%s'", want);
        ok = 0;
    }
    else if (src.len != dst.len) {
        PyErr_SetString(PyExc_ValueError, "src and dst differ in length");
        ok = 0;
    }
    if (ok) {
        Py_ssize_t n = src.len / itemsize;
        const loop_fn loop = loops[variant];
        Py_BEGIN_ALLOW_THREADS
        loop(src.buf, dst.buf, n);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&dst);
    PyBuffer_Release(&src);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

#define WRAPPER(fn, format, T)                                                                 \
    static const loop_fn fn##_loops[N_VARIANTS] = {fn##_portable, AVX2_ENTRY(fn), AVX512_ENTRY(fn)};      \
    static PyObject *py_##fn(PyObject *self, PyObject *args)                                 \
    {                                                                                          \
        (void)self;                                                                            \
        return run(args, format, (Py_ssize_t)sizeof(T), fn##_loops);                           \
    }

WRAPPER(exp_f64, 'd', double)
WRAPPER(expm1_f64, 'd', double)
WRAPPER(log_f64, 'd', double)
WRAPPER(tanh_f64, 'd', double)
WRAPPER(logistic_f64, 'd', double)
WRAPPER(exp_f32, 'f', float)
WRAPPER(expm1_f32, 'f', float)
WRAPPER(log_f32, 'f', float)
WRAPPER(tanh_f32, 'f', float)
WRAPPER(logistic_f32, 'f', float)
WRAPPER(erf_f64, 'd', double)
WRAPPER(erf_f32, 'f', float)
WRAPPER(log1p_f64, 'd', double)
WRAPPER(log1p_f32, 'f', float)

/* libm_erf_f64: one scalar libm call an element, which no instruction set speeds up: every variant runs
 * the portable loop */
static const loop_fn libm_erf_f64_loops[N_VARIANTS] = {
    libm_erf_f64_portable, libm_erf_f64_portable, libm_erf_f64_portable,
};
static PyObject *py_libm_erf_f64(PyObject *self, PyObject *args)
{
    (void)self;
    return run(args, 'd', (Py_ssize_t)sizeof(double), libm_erf_f64_loops);
}

/* -- sin and cos: their reduction tables come from Python (_trig_twin.h says why) ------------- */
static int trig_tables_set = 0;

/* fills `view` with obj's buffer if that is `size` bytes of C-contiguous float64, else -1 (ValueError) */
static int
get_table(PyObject *obj, Py_buffer *view, Py_ssize_t size, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->itemsize == (Py_ssize_t)sizeof(double) && view->format && strcmp(view->format, "d") == 0 &&
        view->len == size)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s must be C-contiguous float64 with %zd values", name,
                 size / (Py_ssize_t)sizeof(double));
    PyBuffer_Release(view);
    return -1;
}

/* checks both tables before copying either: a failed call leaves the module as it was */
static PyObject *
py_set_trig_tables(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *table_obj, *table_f_obj;
    if (!PyArg_ParseTuple(args, "OO", &table_obj, &table_f_obj))
        return NULL;
    Py_buffer table, table_f;
    if (get_table(table_obj, &table, sizeof TRIG_TABLE, "table (TRIG_TABLE)") < 0)
        return NULL;
    if (get_table(table_f_obj, &table_f, sizeof TRIG_TABLE_F, "table_f (TRIG_TABLE_F)") < 0) {
        PyBuffer_Release(&table);
        return NULL;
    }
    /* transposed, as bits (_trig_twin.h says why) */
    const double *rows = table.buf, *rows_f = table_f.buf;
    for (int e = 0; e < TRIG_ROWS; e++)
        for (int j = 0; j < TRIG_PIECES; j++)
            TRIG_TABLE[j][e] = f64_bits(rows[TRIG_PIECES * e + j]);
    for (int e = 0; e < TRIG_ROWS_F; e++)
        for (int j = 0; j < TRIG_PIECES_F; j++)
            TRIG_TABLE_F[j][e] = f64_bits(rows_f[TRIG_PIECES_F * e + j]);
    trig_tables_set = 1;
    PyBuffer_Release(&table_f);
    PyBuffer_Release(&table);
    Py_RETURN_NONE;
}

#define TRIG_WRAPPER(fn, format, T)                                                                 \
    static const loop_fn fn##_loops[N_VARIANTS] = {fn##_portable, AVX2_ENTRY(fn), AVX512_ENTRY(fn)}; \
    static PyObject *py_##fn(PyObject *self, PyObject *args)                                      \
    {                                                                                               \
        (void)self;                                                                                 \
        if (!trig_tables_set) {                                                                     \
            PyErr_SetString(PyExc_RuntimeError, #fn ": set_trig_tables() has not run (mathlib/twins.py "  \
                                                "runs it when it loads this module)");                   \
            return NULL;                                                                            \
        }                                                                                           \
        return run(args, format, (Py_ssize_t)sizeof(T), fn##_loops);                                \
    }

TRIG_WRAPPER(sin_f64, 'd', double)
TRIG_WRAPPER(cos_f64, 'd', double)
TRIG_WRAPPER(sin_f32, 'f', float)
TRIG_WRAPPER(cos_f32, 'f', float)
TRIG_WRAPPER(tan_f64, 'd', double)
TRIG_WRAPPER(tan_f32, 'f', float)

/* a float (n == 0) or a tuple of n floats */
static PyObject *
floats(const double *values, int n)
{
    if (n == 0)
        return PyFloat_FromDouble(values[0]);
    PyObject *tuple = PyTuple_New(n);
    for (int i = 0; tuple && i < n; i++) {
        PyObject *value = PyFloat_FromDouble(values[i]);
        if (!value)
            Py_CLEAR(tuple);
        else
            PyTuple_SET_ITEM(tuple, i, value);
    }
    return tuple;
}

/* a constant compiled from a hex literal: a float (n == 0) or n of them */
struct constant {
    const char *name;
    const double *values;
    int n;
};

/* name -> value, for the tests against Python's */
static PyObject *
constants_dict(const struct constant *constants, size_t count)
{
    PyObject *dict = PyDict_New();
    for (size_t i = 0; dict && i < count; i++) {
        PyObject *value = floats(constants[i].values, constants[i].n);
        if (!value || PyDict_SetItemString(dict, constants[i].name, value) < 0)
            Py_CLEAR(dict);
        Py_XDECREF(value);
    }
    return dict;
}

/* TRIG_CONSTANTS: _trig_twin.h's scalar constants */
static PyObject *
trig_constants(void)
{
    const double fast_f = TRIG_FAST_F, tiny_f = TRIG_TINY_F; /* floats: exact as doubles */
    const struct constant constants[] = {
        {"PIO2_HI", &PIO2_HI, 0},
        {"PIO2_LO", &PIO2_LO, 0},
        {"TRIG_TINY", &TRIG_TINY, 0},
        {"TWO_OVER_PI", &TWO_OVER_PI, 0},
        {"PIO2_A", &PIO2_A, 0},
        {"PIO2_B", &PIO2_B, 0},
        {"TRIG_FAST_F", &fast_f, 0},
        {"TRIG_TINY_F", &tiny_f, 0},
        {"SIN_C", SIN_C, SIN_C_N},
        {"COS_C", COS_C, COS_C_N},
        {"SIN_CF", SIN_CF, SIN_CF_N},
        {"COS_CF", COS_CF, COS_CF_N},
    };
    return constants_dict(constants, sizeof constants / sizeof constants[0]);
}

/* ERF_CONSTANTS: _exp_log_twin.h's constants of erf_f64 */
static PyObject *
erf_constants(void)
{
    const struct constant constants[] = {
        {"ERF_Q", ERF_Q, ERF_Q_N},
        {"ERF_R", ERF_R, ERF_R_N},
        {"ERF_SPLIT", &ERF_SPLIT, 0},
        {"ERF_ONE", &ERF_ONE, 0},
        {"ERF_CENTER", &ERF_CENTER, 0},
        {"ERF_SCALE", &ERF_SCALE, 0},
    };
    return constants_dict(constants, sizeof constants / sizeof constants[0]);
}

#define METHOD(fn) {#fn, py_##fn, METH_VARARGS, "dst[i] = mathlib." #fn "(src[i]), bit for bit"}
static PyMethodDef methods[] = {
    METHOD(exp_f64), METHOD(expm1_f64), METHOD(log_f64), METHOD(tanh_f64), METHOD(logistic_f64),
    METHOD(exp_f32), METHOD(expm1_f32), METHOD(log_f32), METHOD(tanh_f32), METHOD(logistic_f32),
    METHOD(erf_f64), METHOD(erf_f32), METHOD(log1p_f64), METHOD(log1p_f32), METHOD(sin_f64), METHOD(cos_f64), METHOD(sin_f32), METHOD(cos_f32),
    METHOD(tan_f64), METHOD(tan_f32),
    {"libm_erf_f64", py_libm_erf_f64, METH_VARARGS,
     "dst[i] = libm's erf(src[i]) (eager erf's reference rule; erf_f64 is the kernels' erf.py)"},
    {"set_trig_tables", py_set_trig_tables, METH_VARARGS,
     "set_trig_tables(table, table_f): copies trig_constants.py's TRIG_TABLE, TRIG_TABLE_F in"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_twin",
    "exp_log.py's exp, expm1, log, tanh, logistic, erf and trig.py's sin, cos (float32, float64) "
    "in C, bit for bit.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__twin(void)
{
#if HAVE_X86_VARIANTS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        variant_available[1] = 1;
        best_variant = 1;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")) {
            variant_available[2] = 1;
            best_variant = 2;
        }
    }
#endif
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    /* the variants this CPU runs; the available ones are always 0 .. n - 1 */
    Py_ssize_t n = 0;
    while (n < N_VARIANTS && variant_available[n])
        n++;
    PyObject *variants = PyTuple_New(n);
    for (Py_ssize_t i = 0; variants && i < n; i++) {
        PyObject *name = PyUnicode_FromString(VARIANT_NAMES[i]);
        if (!name)
            Py_CLEAR(variants);
        else
            PyTuple_SET_ITEM(variants, i, name);
    }
    PyObject *constants = trig_constants(), *erf = erf_constants();
    int failed = !variants || !constants || !erf || PyModule_AddObjectRef(m, "VARIANTS", variants) < 0 ||
                 PyModule_AddObjectRef(m, "TRIG_CONSTANTS", constants) < 0 ||
                 PyModule_AddObjectRef(m, "ERF_CONSTANTS", erf) < 0 ||
                 PyModule_AddStringConstant(m, "SOURCE_CRC", SOURCE_CRC) < 0 ||
                 PyModule_AddIntConstant(m, "BEST_VARIANT", best_variant) < 0;
    Py_XDECREF(variants);
    Py_XDECREF(constants);
    Py_XDECREF(erf);
    if (failed) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
