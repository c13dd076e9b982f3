/* The fast twin of the numba kernels' mathlib for tier 0: mathlib.py's exp, expm1, log, tanh, logistic, erf
 * (float32, float64) over contiguous arrays, bit for bit (_mathlib_twin.h has the functions and says how).
 * mathlib_numpy.py loads it, and falls back to its NumPy code when this module is missing or stale.
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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_mathlib_twin.h"

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

#define METHOD(fn) {#fn, py_##fn, METH_VARARGS, "dst[i] = mathlib." #fn "(src[i]), bit for bit"}
static PyMethodDef methods[] = {
    METHOD(exp_f64), METHOD(expm1_f64), METHOD(log_f64), METHOD(tanh_f64), METHOD(logistic_f64),
    METHOD(exp_f32), METHOD(expm1_f32), METHOD(log_f32), METHOD(tanh_f32), METHOD(logistic_f32),
    METHOD(erf_f64), METHOD(erf_f32),
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_mathlib_twin",
    "mathlib.py's exp, expm1, log, tanh, logistic, erf (float32, float64) in C, bit for bit.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__mathlib_twin(void)
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
    int failed = !variants || PyModule_AddObjectRef(m, "VARIANTS", variants) < 0 ||
                 PyModule_AddStringConstant(m, "SOURCE_CRC", SOURCE_CRC) < 0 ||
                 PyModule_AddIntConstant(m, "BEST_VARIANT", best_variant) < 0;
    Py_XDECREF(variants);
    if (failed) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
