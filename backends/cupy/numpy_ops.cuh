// NumPy's semantics for the scalar operations of generated kernels (cuda_codegen.py prepends this file).
// The same text compiles with NVRTC for the GPU and with the system C++ compiler under
// harness/cuda_on_cpu.h, which defines the CUDA intrinsics (bit casts, __half conversions) used here.
typedef signed char i8;
typedef unsigned char u8;
typedef short i16;
typedef unsigned short u16;
typedef int i32;
typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
typedef float f32;
typedef double f64;

#ifndef __CUDA_ON_CPU__
// the block's dynamic shared memory (the launch's shared_mem bytes)
#define NP_DYNAMIC_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
// binary16 storage; arithmetic happens in float (as NumPy's float16 loops compute)
struct __half {
    unsigned short x;
};
__device__ __forceinline__ float __half2float(__half h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.x));
    return f;
}
__device__ __forceinline__ __half __float2half_rn(float f) {
    __half h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.x) : "f"(f));
    return h;
}
__device__ __forceinline__ __half __double2half(double d) {
    __half h;
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h.x) : "d"(d));
    return h;
}
#endif

template <class T> struct np_unsigned { typedef T type; };
template <> struct np_unsigned<i8> { typedef u8 type; };
template <> struct np_unsigned<i16> { typedef u16 type; };
template <> struct np_unsigned<i32> { typedef u32 type; };
template <> struct np_unsigned<i64> { typedef u64 type; };

// integer arithmetic wraps (two's complement), as NumPy's; done in the unsigned type, where C++ defines it
template <class T> __device__ __forceinline__ T np_add(T a, T b) {
    typedef typename np_unsigned<T>::type U;
    return (T)(U)((U)a + (U)b);
}
template <class T> __device__ __forceinline__ T np_sub(T a, T b) {
    typedef typename np_unsigned<T>::type U;
    return (T)(U)((U)a - (U)b);
}
template <class T> __device__ __forceinline__ T np_mul(T a, T b) {
    typedef typename np_unsigned<T>::type U;
    return (T)(U)((U)a * (U)b);
}
template <class T> __device__ __forceinline__ T np_neg(T a) {
    typedef typename np_unsigned<T>::type U;
    return (T)(U)((U)0 - (U)a);
}
template <class T> __device__ __forceinline__ T np_abs_int(T a) { return a < 0 ? np_neg(a) : a; }

// x // 0 and x % 0 are 0 for integers; MIN // -1 wraps to MIN (NumPy warns, the kernel cannot)
template <class T> __device__ __forceinline__ T np_floordiv_int(T a, T b) {
    if (b == 0) return 0;
    if ((T)-1 < 0 && b == (T)-1) return np_neg(a);
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q = q - 1;
    return q;
}
template <class T> __device__ __forceinline__ T np_rem_int(T a, T b) {
    if (b == 0 || ((T)-1 < 0 && b == (T)-1)) return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r = r + b;
    return r;
}
template <class T> __device__ __forceinline__ T np_fmod_int(T a, T b) {
    if (b == 0 || ((T)-1 < 0 && b == (T)-1)) return 0;
    return a % b;
}

__device__ __forceinline__ float np_fmod(float a, float b) { return fmodf(a, b); }
__device__ __forceinline__ double np_fmod(double a, double b) { return fmod(a, b); }
__device__ __forceinline__ float np_floor(float a) { return floorf(a); }
__device__ __forceinline__ double np_floor(double a) { return floor(a); }
__device__ __forceinline__ float np_copysign(float a, float b) { return copysignf(a, b); }
__device__ __forceinline__ double np_copysign(double a, double b) { return copysign(a, b); }

// npy_divmod: the floor quotient and the remainder with the divisor's sign, signed zeros as NumPy's
template <class T> __device__ __forceinline__ T np_divmod(T a, T b, T* modulus) {
    T mod = np_fmod(a, b);
    if (!b) {
        *modulus = mod;
        return a / b;
    }
    T div = (a - mod) / b;
    if (mod) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= (T)1;
        }
    } else {
        mod = np_copysign((T)0, b);
    }
    T floordiv;
    if (div) {
        floordiv = np_floor(div);
        if (div - floordiv > (T)0.5) floordiv += (T)1;
    } else {
        floordiv = np_copysign((T)0, a / b);
    }
    *modulus = mod;
    return floordiv;
}
template <class T> __device__ __forceinline__ T np_floordiv_float(T a, T b) {
    if (!b) return a / b;
    T mod;
    return np_divmod(a, b, &mod);
}
template <class T> __device__ __forceinline__ T np_rem_float(T a, T b) {
    if (!b) return np_fmod(a, b);
    T mod;
    np_divmod(a, b, &mod);
    return mod;
}

// maximum/minimum: a NaN operand wins; between equal operands (0.0 and -0.0) the second, as NumPy's loops
template <class T> __device__ __forceinline__ T np_max_float(T a, T b) { return (a != a || a > b) ? a : b; }
template <class T> __device__ __forceinline__ T np_min_float(T a, T b) { return (a != a || a < b) ? a : b; }
template <class T> __device__ __forceinline__ T np_max_int(T a, T b) { return a >= b ? a : b; }
template <class T> __device__ __forceinline__ T np_min_int(T a, T b) { return a <= b ? a : b; }

__device__ __forceinline__ bool np_signbit(float a) { return (__float_as_uint(a) >> 31) != 0; }
__device__ __forceinline__ bool np_signbit(double a) { return __double_as_longlong(a) < 0; }
template <class T> __device__ __forceinline__ bool np_isinf(T a) { return a - a != a - a && a == a; }
template <class T> __device__ __forceinline__ bool np_isfinite(T a) { return a - a == a - a; }
template <class T> __device__ __forceinline__ T np_sign_float(T a) {
    return a > (T)0 ? (T)1 : (a < (T)0 ? (T)-1 : (a == (T)0 ? (T)0 : a));
}
template <class T> __device__ __forceinline__ T np_sign_int(T a) { return a > 0 ? 1 : (a < 0 ? (T)-1 : 0); }

// float -> integer as NumPy's element loop on x86-64 (cvttsd2si): a NaN or out-of-range value becomes the
// "integer indefinite" 0x80...0 of a 32-bit or 64-bit conversion, then the result keeps the low bits
__device__ __forceinline__ i32 np_cvt32(double x) {
    return (x == x && x >= -2147483648.0 && x < 2147483648.0) ? (i32)x : (i32)0x80000000u;
}
__device__ __forceinline__ i64 np_cvt64(double x) {
    return (x == x && x >= -9223372036854775808.0 && x < 9223372036854775808.0)
               ? (i64)x
               : (i64)0x8000000000000000ull;
}
template <class T> __device__ __forceinline__ T np_float_to_int(double x);
template <> __device__ __forceinline__ i8 np_float_to_int<i8>(double x) { return (i8)(u8)(u32)np_cvt32(x); }
template <> __device__ __forceinline__ u8 np_float_to_int<u8>(double x) { return (u8)(u32)np_cvt32(x); }
template <> __device__ __forceinline__ i16 np_float_to_int<i16>(double x) { return (i16)(u16)(u32)np_cvt32(x); }
template <> __device__ __forceinline__ u16 np_float_to_int<u16>(double x) { return (u16)(u32)np_cvt32(x); }
template <> __device__ __forceinline__ i32 np_float_to_int<i32>(double x) { return np_cvt32(x); }
template <> __device__ __forceinline__ u32 np_float_to_int<u32>(double x) { return (u32)(u64)np_cvt64(x); }
template <> __device__ __forceinline__ i64 np_float_to_int<i64>(double x) { return np_cvt64(x); }
template <> __device__ __forceinline__ u64 np_float_to_int<u64>(double x) {
    // x < 2**63 (or NaN): one conversion; else offset by 2**63 and the top bit put back
    if (!(x >= 9223372036854775808.0)) return (u64)np_cvt64(x);
    return (u64)np_cvt64(x - 9223372036854775808.0) ^ 0x8000000000000000ull;
}

// float16 values live in float registers, rounded to binary16 after each operation
__device__ __forceinline__ float np_round_half(float x) { return __half2float(__float2half_rn(x)); }

// logistic as the reference rule: exp of a non-positive argument only
__device__ __forceinline__ float np_logistic(float x) {
    float e = expf(-fabsf(x));
    return x >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
}
__device__ __forceinline__ double np_logistic(double x) {
    double e = exp(-fabs(x));
    return x >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

// Scans of generated kernels. Op has `typedef ... T`, `static T identity()` and `static T combine(T earlier,
// T later)`; the order of combination depends on the block's shape alone (no atomics), so a scan gives the
// same bits on every run. Blocks are whole warps.
template <class Op> __device__ __forceinline__ typename Op::T np_warp_inclusive_scan(typename Op::T x, int lane) {
    for (int d = 1; d < 32; d <<= 1) {
        typename Op::T y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x = Op::combine(y, x);
    }
    return x;
}
// Each thread's exclusive prefix of x over the block's threads in order (Hillis-Steele in each warp, then
// over the warps' totals); *total gets the whole block's. sh: 33 shared slots, free again on return.
template <class Op>
__device__ typename Op::T np_block_exclusive_scan(typename Op::T x, typename Op::T* sh, typename Op::T* total) {
    typedef typename Op::T T;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    const T inclusive = np_warp_inclusive_scan<Op>(x, lane);
    T exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
    if (lane == 0) exclusive = Op::identity();
    if (lane == 31) sh[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const T w = np_warp_inclusive_scan<Op>(lane < nwarps ? sh[lane] : Op::identity(), lane);
        T before = __shfl_up_sync(0xffffffffu, w, 1);
        if (lane == 0) before = Op::identity();
        if (lane < nwarps) sh[lane] = before;
        if (lane == 31) sh[32] = w;
    }
    __syncthreads();
    const T prefix = Op::combine(sh[warp], exclusive);
    *total = sh[32];
    __syncthreads();
    return prefix;
}

// argmax/argmin of (value, index) pairs, as NumPy's: the first NaN wins, then the larger (smaller) value,
// then the smaller index; index -1 is no element
template <bool MAX, class T> __device__ __forceinline__ bool np_arg_better(T w, i64 k, T v, i64 i) {
    if (k < 0) return false;
    if (i < 0) return true;
    if (v != v) return w != w && k < i;
    if (w != w) return true;
    if (MAX ? w > v : w < v) return true;
    return w == v && k < i;
}
// Every thread ends holding the block's best pair. shv, shi: 33 shared slots each.
template <bool MAX, class T> __device__ void np_block_arg(T& v, i64& i, T* shv, i64* shi) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    for (int d = 16; d > 0; d >>= 1) {
        const T w = __shfl_down_sync(0xffffffffu, v, d);
        const i64 k = __shfl_down_sync(0xffffffffu, i, d);
        if (np_arg_better<MAX>(w, k, v, i)) { v = w; i = k; }
    }
    if (lane == 0) { shv[warp] = v; shi[warp] = i; }
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? shv[lane] : v;
        i = lane < nwarps ? shi[lane] : (i64)-1;
        for (int d = 16; d > 0; d >>= 1) {
            const T w = __shfl_down_sync(0xffffffffu, v, d);
            const i64 k = __shfl_down_sync(0xffffffffu, i, d);
            if (np_arg_better<MAX>(w, k, v, i)) { v = w; i = k; }
        }
        if (lane == 0) { shv[32] = v; shi[32] = i; }
    }
    __syncthreads();
    v = shv[32];
    i = shi[32];
    __syncthreads();
}
