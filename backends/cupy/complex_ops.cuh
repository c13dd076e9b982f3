// complex64/complex128 values of generated kernels (cuda_codegen.py appends this file to numpy_ops.cuh).
// NumPy's layout: the real part, then the imaginary part, 8-byte (complex64) or 16-byte (complex128)
// aligned, so an element is one vector load or store. Arithmetic follows NumPy's loops operation for
// operation (its product fuses one multiplication of each part, its quotient is Smith's with a
// reciprocal); exp, log and sqrt are C99 Annex G's functions composed from the float functions of the
// parts' type as glibc's cexp, clog and csqrt compose them (the functions NumPy calls), with their
// scalings near overflow and underflow. Compiles with NVRTC and under harness/cuda_on_cpu.h.

template <class T> struct alignas(2 * sizeof(T)) np_cx {
    T re, im;
};
typedef np_cx<float> c64;
typedef np_cx<double> c128;

__device__ __forceinline__ c64 np_complex(float re, float im) {
    c64 z;
    z.re = re;
    z.im = im;
    return z;
}
__device__ __forceinline__ c128 np_complex(double re, double im) {
    c128 z;
    z.re = re;
    z.im = im;
    return z;
}

// the float functions of the parts' type (CUDA's libdevice on the GPU, the C library's in the harness)
#define NP_PART_FN1(name)                                                           \
    __device__ __forceinline__ float npf_##name(float x) { return name##f(x); }    \
    __device__ __forceinline__ double npf_##name(double x) { return name(x); }
#define NP_PART_FN2(name)                                                                     \
    __device__ __forceinline__ float npf_##name(float x, float y) { return name##f(x, y); }  \
    __device__ __forceinline__ double npf_##name(double x, double y) { return name(x, y); }
NP_PART_FN1(exp)
NP_PART_FN1(log)
NP_PART_FN1(log1p)
NP_PART_FN1(sin)
NP_PART_FN1(cos)
NP_PART_FN1(sqrt)
NP_PART_FN1(fabs)
NP_PART_FN2(hypot)
NP_PART_FN2(atan2)
NP_PART_FN2(copysign)
#undef NP_PART_FN1
#undef NP_PART_FN2
__device__ __forceinline__ float npf_fma(float x, float y, float z) { return fmaf(x, y, z); }
__device__ __forceinline__ double npf_fma(double x, double y, double z) { return fma(x, y, z); }
__device__ __forceinline__ float npf_ldexp(float x, int n) { return ldexpf(x, n); }
__device__ __forceinline__ double npf_ldexp(double x, int n) { return ldexp(x, n); }
template <class T> __device__ __forceinline__ bool npf_finite(T x) { return x - x == x - x; }
template <class T> __device__ __forceinline__ bool npf_inf(T x) { return x == x && x - x != x - x; }

// per type: the float type's limits and constants as glibc's complex functions use them
template <class T> struct np_limits;
template <> struct np_limits<float> {
    static __device__ __forceinline__ float largest() { return 0x1.fffffep+127f; }
    static __device__ __forceinline__ float smallest_normal() { return 0x1p-126f; }
    static __device__ __forceinline__ float epsilon() { return 0x1p-23f; }
    static __device__ __forceinline__ float exp_limit() { return 88.0f; }  // (int)(127 ln 2)
    static __device__ __forceinline__ float pi() { return 0x1.921fb6p+1f; }
    static __device__ __forceinline__ float ln2() { return 0x1.62e43p-1f; }
    static __device__ __forceinline__ float nan() { return __uint_as_float(0x7fc00000u); }
    static __device__ __forceinline__ float inf() { return __uint_as_float(0x7f800000u); }
    static const int mantissa_digits = 24;
    static const int half_mantissa = 12;  // (digits + 1) / 2
};
template <> struct np_limits<double> {
    static __device__ __forceinline__ double largest() { return 0x1.fffffffffffffp+1023; }
    static __device__ __forceinline__ double smallest_normal() { return 0x1p-1022; }
    static __device__ __forceinline__ double epsilon() { return 0x1p-52; }
    static __device__ __forceinline__ double exp_limit() { return 709.0; }  // (int)(1023 ln 2)
    static __device__ __forceinline__ double pi() { return 0x1.921fb54442d18p+1; }
    static __device__ __forceinline__ double ln2() { return 0x1.62e42fefa39efp-1; }
    static __device__ __forceinline__ double nan() { return __longlong_as_double(0x7ff8000000000000ll); }
    static __device__ __forceinline__ double inf() { return __longlong_as_double(0x7ff0000000000000ll); }
    static const int mantissa_digits = 53;
    static const int half_mantissa = 27;
};

template <class T> __device__ __forceinline__ np_cx<T> operator+(np_cx<T> a, np_cx<T> b) {
    return np_complex(a.re + b.re, a.im + b.im);
}
template <class T> __device__ __forceinline__ np_cx<T> operator-(np_cx<T> a, np_cx<T> b) {
    return np_complex(a.re - b.re, a.im - b.im);
}
template <class T> __device__ __forceinline__ np_cx<T> operator-(np_cx<T> a) { return np_complex(-a.re, -a.im); }
template <class T> __device__ __forceinline__ bool operator==(np_cx<T> a, np_cx<T> b) {
    return a.re == b.re && a.im == b.im;
}
template <class T> __device__ __forceinline__ bool operator!=(np_cx<T> a, np_cx<T> b) {
    return a.re != b.re || a.im != b.im;
}
template <class T> __device__ __forceinline__ np_cx<T> np_conj(np_cx<T> a) { return np_complex(a.re, -a.im); }

// NumPy's SIMD product: the first multiplication of each part fused with the other's (one rounding)
template <class T> __device__ __forceinline__ np_cx<T> np_cmul(np_cx<T> a, np_cx<T> b) {
    return np_complex(npf_fma(a.re, b.re, -(a.im * b.im)), npf_fma(a.re, b.im, a.im * b.re));
}

// NumPy's quotient: Smith's algorithm scaled by a reciprocal; a zero divisor divides each part by 0
template <class T> __device__ __forceinline__ np_cx<T> np_cdiv(np_cx<T> a, np_cx<T> b) {
    const T abs_re = npf_fabs(b.re), abs_im = npf_fabs(b.im);
    if (abs_re >= abs_im) {
        if (abs_re == 0 && abs_im == 0) return np_complex(a.re / abs_re, a.im / abs_im);
        const T rat = b.im / b.re;
        const T scl = (T)1 / (b.re + b.im * rat);
        return np_complex((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    const T rat = b.re / b.im;
    const T scl = (T)1 / (b.im + b.re * rat);
    return np_complex((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}

// |z| through hypot (an infinite part gives inf, even beside a NaN)
template <class T> __device__ __forceinline__ T np_cabs(np_cx<T> z) { return npf_hypot(z.re, z.im); }

template <class T> __device__ __forceinline__ void np_sin_cos(T y, T* s, T* c) {
    if (npf_fabs(y) > np_limits<T>::smallest_normal()) {
        *s = npf_sin(y);
        *c = npf_cos(y);
    } else {
        *s = y;
        *c = (T)1;
    }
}

// exp(z) = exp(x) (cos y + i sin y); exp(x) split in up to three factors where it alone would overflow
template <class T> __device__ np_cx<T> np_cexp(np_cx<T> z) {
    typedef np_limits<T> L;
    T x = z.re;
    const T y = z.im;
    if (npf_finite(x)) {
        if (!npf_finite(y)) return np_complex(L::nan(), L::nan());
        T s, c;
        np_sin_cos(y, &s, &c);
        const T t = L::exp_limit();
        if (x > t) {
            const T exp_t = npf_exp(t);
            x -= t;
            s *= exp_t;
            c *= exp_t;
            if (x > t) {
                x -= t;
                s *= exp_t;
                c *= exp_t;
            }
        }
        if (x > t) return np_complex(L::largest() * c, L::largest() * s);
        const T e = npf_exp(x);
        return np_complex(e * c, e * s);
    }
    if (npf_inf(x)) {
        if (npf_finite(y)) {
            const T value = x < 0 ? (T)0 : L::inf();
            if (y == 0) return np_complex(value, y);
            T s, c;
            np_sin_cos(y, &s, &c);
            return np_complex(npf_copysign(value, c), npf_copysign(value, s));
        }
        if (x > 0) return np_complex(L::inf(), y - y);
        return np_complex((T)0, npf_copysign((T)0, y));
    }
    return np_complex(L::nan(), y == 0 ? y : L::nan());
}

// sqrt(z) from hypot: Re = sqrt((|z| + |x|) / 2), Im = y / (2 Re) (no cancellation), scaled by powers of
// two near overflow and underflow; C99's special values
template <class T> __device__ np_cx<T> np_csqrt(np_cx<T> z) {
    typedef np_limits<T> L;
    T x = z.re, y = z.im;
    const T half = (T)0.5;
    if (!(npf_finite(x) && npf_finite(y))) {
        if (npf_inf(y)) return np_complex(L::inf(), y);
        if (npf_inf(x)) {
            if (x < 0) return np_complex(y != y ? L::nan() : (T)0, npf_copysign(L::inf(), y));
            return np_complex(x, y != y ? L::nan() : npf_copysign((T)0, y));
        }
        return np_complex(L::nan(), L::nan());
    }
    const T tiny = L::smallest_normal();
    if (y == 0) {
        if (x < 0) return np_complex((T)0, npf_copysign(npf_sqrt(-x), y));
        return np_complex(npf_fabs(npf_sqrt(x)), npf_copysign((T)0, y));
    }
    if (x == 0) {
        T r;
        if (npf_fabs(y) >= (T)2 * tiny)
            r = npf_sqrt(half * npf_fabs(y));
        else
            r = half * npf_sqrt((T)2 * npf_fabs(y));
        return np_complex(r, npf_copysign(r, y));
    }
    int scale = 0;
    if (npf_fabs(x) > L::largest() / (T)4) {
        scale = 1;
        x = npf_ldexp(x, -2);
        y = npf_ldexp(y, -2);
    } else if (npf_fabs(y) > L::largest() / (T)4) {
        scale = 1;
        x = npf_fabs(x) >= (T)4 * tiny ? npf_ldexp(x, -2) : (T)0;
        y = npf_ldexp(y, -2);
    } else if (npf_fabs(x) < (T)2 * tiny && npf_fabs(y) < (T)2 * tiny) {
        scale = -L::half_mantissa;
        x = npf_ldexp(x, 2 * L::half_mantissa);
        y = npf_ldexp(y, 2 * L::half_mantissa);
    }
    const T d = npf_hypot(x, y);
    T r, s;
    if (x > 0) {
        r = npf_sqrt(half * (d + x));
        if (scale == 1 && npf_fabs(y) < (T)1) {
            s = y / r;
            r = npf_ldexp(r, scale);
            scale = 0;
        } else {
            s = half * (y / r);
        }
    } else {
        s = npf_sqrt(half * (d - x));
        if (scale == 1 && npf_fabs(y) < (T)1) {
            r = npf_fabs(y / s);
            s = npf_ldexp(s, scale);
            scale = 0;
        } else {
            r = npf_fabs(half * (y / s));
        }
    }
    if (scale) {
        r = npf_ldexp(r, scale);
        s = npf_ldexp(s, scale);
    }
    return np_complex(r, npf_copysign(s, y));
}

// x^2 + y^2 - 1 without cancellation (1 > x >= y, x^2 + y^2 >= 1/2): float parts in double, where both
// squares are exact; double parts as glibc sums them: the squares as exact pairs (fma) and -1, sorted by
// magnitude, each folded exactly into the next larger one, re-sorted, then added smallest first
__device__ __forceinline__ float np_x2y2m1(float x, float y) {
    const double dx = x, dy = y;
    return (float)((dx - 1.0) * (dx + 1.0) + dy * dy);
}
__device__ __forceinline__ void np_order(double& a, double& b) {
    if (fabs(a) > fabs(b)) {
        const double t = a;
        a = b;
        b = t;
    }
}
__device__ __forceinline__ void np_fold(double& hi, double& lo) {  // |hi| >= |lo|: hi + lo exactly
    const double sum = hi + lo;
    lo = (hi - sum) + lo;
    hi = sum;
}
__device__ __forceinline__ double np_x2y2m1(double x, double y) {
    const double xx = x * x, yy = y * y;
    double v0 = fma(x, x, -xx), v1 = xx, v2 = fma(y, y, -yy), v3 = yy, v4 = -1.0;
    for (int pass = 0; pass < 4; ++pass) {  // a stable sort of five (fixed registers: no local memory)
        np_order(v0, v1);
        np_order(v1, v2);
        np_order(v2, v3);
        np_order(v3, v4);
    }
    np_fold(v1, v0);
    np_order(v1, v2);
    np_order(v2, v3);
    np_order(v3, v4);
    np_fold(v2, v1);
    np_order(v2, v3);
    np_order(v3, v4);
    np_fold(v3, v2);
    np_order(v3, v4);
    np_fold(v4, v3);
    return v4 + v3 + v2 + v1 + v0;
}

// log |x + iy| for finite parts, not both zero: log1p of x^2 + y^2 - 1 near |z| = 1, else log of hypot,
// with a power of two taken out near overflow and underflow
template <class T> __device__ T np_log_modulus(T x, T y) {
    typedef np_limits<T> L;
    T big = npf_fabs(x), small = npf_fabs(y);
    if (big < small) {
        const T t = big;
        big = small;
        small = t;
    }
    int scale = 0;
    if (big > L::largest() / (T)2) {
        scale = -1;
        big = npf_ldexp(big, -1);
        small = small >= L::smallest_normal() * (T)2 ? npf_ldexp(small, -1) : (T)0;
    } else if (big < L::smallest_normal() && small < L::smallest_normal()) {
        scale = L::mantissa_digits;
        big = npf_ldexp(big, scale);
        small = npf_ldexp(small, scale);
    }
    if (scale == 0) {
        if (big == (T)1) return npf_log1p(small * small) / (T)2;
        if (big > (T)1 && big < (T)2 && small < (T)1) {
            T d2m1 = (big - (T)1) * (big + (T)1);
            if (small >= L::epsilon()) d2m1 += small * small;
            return npf_log1p(d2m1) / (T)2;
        }
        if (big < (T)1 && big >= (T)0.5 && small < L::epsilon() / (T)2)
            return npf_log1p((big - (T)1) * (big + (T)1)) / (T)2;
        if (big < (T)1 && big >= (T)0.5 && big * big + small * small >= (T)0.5)
            return npf_log1p(np_x2y2m1(big, small)) / (T)2;
    }
    return npf_log(npf_hypot(big, small)) - (T)scale * L::ln2();
}

// log(z) = log |z| + i atan2(y, x); C99's special values
template <class T> __device__ np_cx<T> np_clog(np_cx<T> z) {
    typedef np_limits<T> L;
    const T x = z.re, y = z.im;
    if (x != x || y != y) return np_complex(npf_inf(x) || npf_inf(y) ? L::inf() : L::nan(), L::nan());
    if (x == 0 && y == 0) {
        const T angle = npf_copysign((T)1, x) < 0 ? L::pi() : (T)0;
        return np_complex((T)-1 / npf_fabs(x), npf_copysign(angle, y));
    }
    return np_complex(np_log_modulus(x, y), npf_atan2(y, x));
}

// warp shuffles of complex values: one per part
__device__ __forceinline__ c64 __shfl_down_sync(unsigned mask, c64 v, unsigned d, int width = 32) {
    return np_complex(__shfl_down_sync(mask, v.re, d, width), __shfl_down_sync(mask, v.im, d, width));
}
__device__ __forceinline__ c128 __shfl_down_sync(unsigned mask, c128 v, unsigned d, int width = 32) {
    return np_complex(__shfl_down_sync(mask, v.re, d, width), __shfl_down_sync(mask, v.im, d, width));
}

// complex prod, max and min reductions (cuda_codegen_reduce.py): a partial result and `at`, the lowest
// flat index of the elements it covers (NP_EMPTY: none). The combinations below are associative and
// commutative up to the products' rounding, so a block tree and a second pass over the partials give
// NumPy's element for max and min whatever the grouping.
#define NP_EMPTY 0x7fffffffffffffffll
template <class T> struct np_cx_at {
    np_cx<T> z;
    i64 at;
};
typedef np_cx_at<float> c64_at;
typedef np_cx_at<double> c128_at;

template <class T> __device__ __forceinline__ np_cx_at<T> np_at(np_cx<T> z, i64 at) {
    np_cx_at<T> r;
    r.z = z;
    r.at = at;
    return r;
}
template <class T> __device__ __forceinline__ bool np_has_nan(np_cx<T> z) { return z.re != z.re || z.im != z.im; }

// NumPy's complex maximum (minimum) folded in index order keeps the first element holding a NaN in
// either part, else the first of the lexicographically largest (smallest), 0.0 equal to -0.0: of two
// partial results, the one holding a NaN (of two, the lower index), else the one that beats the other
// (real part, then imaginary part), else (equal values) the lower index.
template <bool MAX, class T> __device__ __forceinline__ np_cx_at<T> np_cextreme(np_cx_at<T> a, np_cx_at<T> b) {
    const bool a_nan = np_has_nan(a.z), b_nan = np_has_nan(b.z);
    bool take_b;
    if (a_nan || b_nan) {
        take_b = b_nan && (!a_nan || b.at < a.at);
    } else {
        const T ar = MAX ? a.z.re : b.z.re, br = MAX ? b.z.re : a.z.re;
        const T ai = MAX ? a.z.im : b.z.im, bi = MAX ? b.z.im : a.z.im;
        const bool beats = br > ar || (br == ar && bi > ai);  // b beats a
        take_b = beats || (a.z.re == b.z.re && a.z.im == b.z.im && b.at < a.at);
    }
    return take_b ? b : a;
}
template <class T> __device__ __forceinline__ np_cx_at<T> np_cmax_at(np_cx_at<T> a, np_cx_at<T> b) {
    return np_cextreme<true>(a, b);
}
template <class T> __device__ __forceinline__ np_cx_at<T> np_cmin_at(np_cx_at<T> a, np_cx_at<T> b) {
    return np_cextreme<false>(a, b);
}

// products: NumPy's start, 1 + 0j times the element of index 0 (np.prod([inf + 0j]) is inf + nan j),
// then np_cmul of the partial results, earlier operand first; an empty partial result is skipped, not
// multiplied by 1 + 0j (which would turn an infinite part's partner into NaN and flip zeros' signs)
template <class T> __device__ __forceinline__ np_cx_at<T> np_cprod_element(np_cx<T> z, i64 at) {
    return np_at(at == 0 ? np_cmul(np_complex((T)1, (T)0), z) : z, at);
}
template <class T> __device__ __forceinline__ np_cx_at<T> np_cprod_at(np_cx_at<T> a, np_cx_at<T> b) {
    if (b.at == NP_EMPTY) return a;
    if (a.at == NP_EMPTY) return b;
    return np_at(np_cmul(a.z, b.z), a.at < b.at ? a.at : b.at);
}

__device__ __forceinline__ c64_at __shfl_down_sync(unsigned mask, c64_at v, unsigned d, int width = 32) {
    return np_at(__shfl_down_sync(mask, v.z, d, width), __shfl_down_sync(mask, v.at, d, width));
}
__device__ __forceinline__ c128_at __shfl_down_sync(unsigned mask, c128_at v, unsigned d, int width = 32) {
    return np_at(__shfl_down_sync(mask, v.z, d, width), __shfl_down_sync(mask, v.at, d, width));
}
