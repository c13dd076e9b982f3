// CUDA's execution model on the CPU, for running generated kernels without a GPU (cpu_harness.py).
//
// A launch runs the grid's blocks one after another; the threads of a block are fibers (ucontext) that
// a scheduler switches between at __syncthreads and at warp-level exchanges (shuffles, votes, __syncwarp),
// so these have CUDA's semantics: every thread of the block (or every lane of the warp) must arrive
// before any goes on. A barrier that can never be passed (a __syncthreads some threads skip, a shuffle
// in divergent code) is a deadlock the scheduler detects: the launch fails with a message instead of
// returning wrong numbers. __shared__ variables are function statics: one instance, shared by the
// threads of the running block (blocks never run at the same time).
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __shared__ static
#define __constant__ static
#define __launch_bounds__(...)
#define __CUDA_ON_CPU__ 1

struct dim3 {
    unsigned int x = 1, y = 1, z = 1;
};
struct uint3 {
    unsigned int x, y, z;
};

static const int warpSize = 32;

namespace cuda_on_cpu {

struct Fiber {
    ucontext_t context;
    uint3 tid;
    int linear = 0;
    bool done = false;
    int waiting = 0;  // 0: runnable; 1: at __syncthreads; 2: at a warp exchange
    unsigned long long generation = 0;  // the barrier generation it waits to see pass
    unsigned long long exchange[2];  // the value it offers to a warp exchange
    unsigned mask = 0;
};

struct Block {
    std::vector<Fiber> fibers;
    std::vector<char> stacks;
    ucontext_t scheduler;
    Fiber* current = nullptr;
    int live = 0;
    int block_arrived = 0;
    unsigned long long block_generation = 0;
    std::vector<int> warp_arrived;
    std::vector<unsigned long long> warp_generation;
    std::function<void()> body;
    std::string error;
};

inline thread_local Block* active = nullptr;
inline thread_local uint3 block_index = {0, 0, 0};
inline thread_local dim3 block_dim, grid_dim;
inline thread_local std::vector<unsigned char> dynamic_shared;  // the launch's shared_mem bytes, per block

[[noreturn]] inline void fail(const std::string& message) { throw std::runtime_error(message); }

inline Fiber& self() { return *active->current; }

inline void yield_to_scheduler() {
    Fiber& f = self();
    swapcontext(&f.context, &active->scheduler);
}

inline int threads_per_block() { return int(block_dim.x * block_dim.y * block_dim.z); }

inline int warp_size_of(int warp) {
    int n = threads_per_block() - warp * 32;
    return n < 32 ? n : 32;
}

inline void sync_block() {
    Block& b = *active;
    Fiber& f = self();
    if (b.live != threads_per_block())
        fail("__syncthreads after some threads of the block returned (divergent barrier)");
    if (++b.block_arrived == b.live) {
        b.block_arrived = 0;
        ++b.block_generation;
        return;
    }
    f.waiting = 1;
    f.generation = b.block_generation;
    yield_to_scheduler();
}

// Every lane of the calling warp offers `value`; returns when all of them have.
inline void sync_warp(unsigned mask) {
    Block& b = *active;
    Fiber& f = self();
    int warp = f.linear / 32;
    unsigned full = warp_size_of(warp) == 32 ? 0xffffffffu : ((1u << warp_size_of(warp)) - 1u);
    if ((mask & full) != full)
        fail("a warp exchange with a partial mask: the emulation runs full warps only");
    f.mask = mask;
    if (++b.warp_arrived[warp] == warp_size_of(warp)) {
        b.warp_arrived[warp] = 0;
        ++b.warp_generation[warp];
        return;
    }
    f.waiting = 2;
    f.generation = b.warp_generation[warp];
    yield_to_scheduler();
}

inline Fiber& lane_fiber(int warp, int lane) { return active->fibers[warp * 32 + lane]; }

template <class T>
T exchange(unsigned mask, T value, int source_of_lane(int, int, int), int arg, int width) {
    static_assert(sizeof(T) <= 16, "shuffle of a type wider than 16 bytes");
    Fiber& f = self();
    int warp = f.linear / 32, lane = f.linear % 32;
    memcpy(f.exchange, &value, sizeof(T));
    sync_warp(mask);  // every lane's value is in place
    int src = source_of_lane(lane, arg, width);
    T result = value;
    if (src >= 0 && src < warp_size_of(warp)) memcpy(&result, lane_fiber(warp, src).exchange, sizeof(T));
    sync_warp(mask);  // every lane has read before any offers its next value
    return result;
}

inline int down_source(int lane, int delta, int width) {
    int segment = lane / width * width;
    return lane + delta < segment + width ? lane + delta : lane;
}
inline int up_source(int lane, int delta, int width) {
    int segment = lane / width * width;
    return lane - delta >= segment ? lane - delta : lane;
}
inline int xor_source(int lane, int mask, int width) {
    int src = lane ^ mask;
    return src / width == lane / width ? src : lane;
}
inline int index_source(int lane, int src, int width) { return lane / width * width + src % width; }

inline void entry() {
    Block& b = *active;
    try {
        b.body();
    } catch (const std::exception& e) {
        if (b.error.empty()) b.error = e.what();
    }
    self().done = true;
    --b.live;
    // a finished thread cannot arrive at a later __syncthreads: the others would wait for ever
    if (b.block_arrived > 0 && b.block_arrived == b.live) {
        b.error = "__syncthreads reached by only some threads of a block (divergent barrier)";
    }
}

inline bool runnable(const Block& b, const Fiber& f) {
    if (f.done) return false;
    if (f.waiting == 1) return b.block_generation != f.generation;
    if (f.waiting == 2) return b.warp_generation[f.linear / 32] != f.generation;
    return true;
}

inline void run_block(Block& b, uint3 index) {
    int n = threads_per_block();
    const size_t stack = 64 * 1024;
    b.fibers.assign(n, Fiber());
    if (b.stacks.size() < stack * n) b.stacks.resize(stack * n);
    b.live = n;
    b.block_arrived = 0;
    b.warp_arrived.assign((n + 31) / 32, 0);
    b.warp_generation.assign((n + 31) / 32, 0);
    block_index = index;
    for (int t = 0; t < n; ++t) {
        Fiber& f = b.fibers[t];
        f.linear = t;
        f.tid = {unsigned(t % block_dim.x), unsigned(t / block_dim.x % block_dim.y),
                 unsigned(t / (block_dim.x * block_dim.y))};
        getcontext(&f.context);
        f.context.uc_stack.ss_sp = b.stacks.data() + stack * t;
        f.context.uc_stack.ss_size = stack;
        f.context.uc_link = &b.scheduler;
        makecontext(&f.context, entry, 0);
    }
    // round robin: each pass runs every runnable fiber to its next barrier, exit or exchange
    while (b.live > 0 && b.error.empty()) {
        bool progressed = false;
        for (Fiber& f : b.fibers) {
            if (!runnable(b, f)) continue;
            f.waiting = 0;
            b.current = &f;
            swapcontext(&b.scheduler, &f.context);
            progressed = true;
            if (!b.error.empty()) break;
        }
        if (!progressed && b.live > 0 && b.error.empty())
            b.error = "deadlock: threads wait at a barrier or warp exchange that the others never reach";
    }
    b.current = nullptr;
}

// Runs body() as every thread of every block; returns "" or the first error.
inline std::string launch(dim3 grid, dim3 block, std::function<void()> body, unsigned shared = 0) {
    if (shared > 48 * 1024) return "invalid configuration: more than 48 KiB of dynamic shared memory";
    dynamic_shared.assign(shared + 16, 0);
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
        return "invalid configuration: a grid or block dimension is 0";
    if (block.x * block.y * block.z > 1024) return "invalid configuration: more than 1024 threads per block";
    Block b;
    b.body = std::move(body);
    active = &b;
    grid_dim = grid;
    block_dim = block;
    for (unsigned z = 0; z < grid.z && b.error.empty(); ++z)
        for (unsigned y = 0; y < grid.y && b.error.empty(); ++y)
            for (unsigned x = 0; x < grid.x && b.error.empty(); ++x) run_block(b, {x, y, z});
    active = nullptr;
    return b.error;
}

}  // namespace cuda_on_cpu

#define NP_DYNAMIC_SHARED(name) unsigned char* name = cuda_on_cpu::dynamic_shared.data()
#define threadIdx (cuda_on_cpu::self().tid)
#define blockIdx (cuda_on_cpu::block_index)
#define blockDim (cuda_on_cpu::block_dim)
#define gridDim (cuda_on_cpu::grid_dim)

inline void __syncthreads() { cuda_on_cpu::sync_block(); }
inline void __syncwarp(unsigned mask = 0xffffffffu) { cuda_on_cpu::sync_warp(mask); }
inline void __threadfence() {}
inline void __threadfence_block() {}

template <class T>
T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = 32) {
    return cuda_on_cpu::exchange(mask, value, cuda_on_cpu::down_source, int(delta), width);
}
template <class T>
T __shfl_up_sync(unsigned mask, T value, unsigned delta, int width = 32) {
    return cuda_on_cpu::exchange(mask, value, cuda_on_cpu::up_source, int(delta), width);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T value, int lane_mask, int width = 32) {
    return cuda_on_cpu::exchange(mask, value, cuda_on_cpu::xor_source, lane_mask, width);
}
template <class T>
T __shfl_sync(unsigned mask, T value, int src_lane, int width = 32) {
    return cuda_on_cpu::exchange(mask, value, cuda_on_cpu::index_source, src_lane, width);
}

inline unsigned __ballot_sync(unsigned mask, int predicate) {
    using namespace cuda_on_cpu;
    Fiber& f = self();
    int warp = f.linear / 32;
    f.exchange[0] = predicate != 0;
    sync_warp(mask);
    unsigned bits = 0;
    for (int lane = 0; lane < warp_size_of(warp); ++lane)
        if (lane_fiber(warp, lane).exchange[0]) bits |= 1u << lane;
    sync_warp(mask);
    return bits;
}
inline int __all_sync(unsigned mask, int predicate) {
    int warp = cuda_on_cpu::self().linear / 32, n = cuda_on_cpu::warp_size_of(warp);
    unsigned full = n == 32 ? 0xffffffffu : (1u << n) - 1u;
    return __ballot_sync(mask, predicate) == full;
}
inline int __any_sync(unsigned mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }

// Atomics: blocks and threads never run at the same time, so a plain read-modify-write is atomic
template <class T>
T atomicAdd(T* address, T value) {
    T old = *address;
    *address = old + value;
    return old;
}
inline unsigned atomicInc(unsigned* address, unsigned limit) {
    unsigned old = *address;
    *address = old >= limit ? 0 : old + 1;
    return old;
}

// Bit reinterpretations (CUDA's intrinsics)
inline unsigned __float_as_uint(float x) { unsigned u; memcpy(&u, &x, 4); return u; }
inline int __float_as_int(float x) { int u; memcpy(&u, &x, 4); return u; }
inline float __uint_as_float(unsigned u) { float x; memcpy(&x, &u, 4); return x; }
inline float __int_as_float(int u) { float x; memcpy(&x, &u, 4); return x; }
inline long long __double_as_longlong(double x) { long long u; memcpy(&u, &x, 8); return u; }
inline double __longlong_as_double(long long u) { double x; memcpy(&x, &u, 8); return x; }

// __half: IEEE binary16 storage; conversions round to nearest even, as the GPU's cvt.rn does
struct __half {
    unsigned short x;
};

inline float __half2float(__half h) {
    unsigned sign = (h.x & 0x8000u) << 16, exponent = (h.x >> 10) & 0x1f, mantissa = h.x & 0x3ff;
    unsigned bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {  // a subnormal half is a normal float
        int shift = 0;
        while (!(mantissa & 0x400)) {
            mantissa <<= 1;
            ++shift;
        }
        bits = sign | (unsigned(113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
    }
    return __uint_as_float(bits);
}

inline __half __double2half(double d) {
    unsigned long long bits;
    memcpy(&bits, &d, 8);
    unsigned short sign = (unsigned short)((bits >> 48) & 0x8000);
    int exponent = int((bits >> 52) & 0x7ff);
    unsigned long long mantissa = bits & 0xfffffffffffffull;
    if (exponent == 0x7ff) {  // inf, or a quiet NaN keeping the top of its payload
        if (mantissa == 0) return {(unsigned short)(sign | 0x7c00)};
        return {(unsigned short)(sign | 0x7e00 | (mantissa >> 42))};
    }
    int e = exponent - 1023;  // unbiased
    if (e > 15) return {(unsigned short)(sign | 0x7c00)};
    unsigned long long significand = mantissa | (exponent ? (1ull << 52) : 0);
    int shift;  // bits of the 53-bit significand dropped
    unsigned short high;
    if (e >= -14) {
        shift = 42;
        high = (unsigned short)((e + 15) << 10);
        significand &= (1ull << 52) - 1;  // the exponent field carries the implicit bit
    } else {
        shift = 42 + (-14 - e);
        high = 0;
        if (shift > 60) return {sign};
    }
    unsigned long long kept = significand >> shift, rest = significand & ((1ull << shift) - 1);
    unsigned long long half_way = 1ull << (shift - 1);
    unsigned result = high + (unsigned)kept;
    if (rest > half_way || (rest == half_way && (kept & 1))) ++result;  // may carry into the exponent
    return {(unsigned short)(sign | result)};
}
inline __half __float2half_rn(float f) { return __double2half(double(f)); }
