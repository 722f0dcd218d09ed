// match.sync and redux.sync kernels whose PTX (nvcc -arch=sm_100a -ptx, see README.md) the executor tests run
// (tests/engine/exec_warp_ops_test.cpp). One warp; lane t writes its results to out[8 t + k].
#include <cstdint>

extern "C" __global__ void warp_ops(const uint32_t* in, uint32_t* out) {
    const uint32_t t = threadIdx.x;
    const uint32_t v = in[t];
    uint32_t* o = out + 8 * t;
    o[0] = __match_any_sync(0xFFFFFFFFu, v % 5);
    int pred = 0;
    o[1] = __match_all_sync(0xFFFFFFFFu, v % 5, &pred);
    o[2] = uint32_t(pred);
    o[3] = __reduce_add_sync(0xFFFFFFFFu, v * v);
    o[4] = uint32_t(__reduce_min_sync(0xFFFFFFFFu, int(v) * 3 - 21));
    o[5] = __reduce_max_sync(0x0000FFFFu >> (t >= 16 ? 16 : 0) << (t >= 16 ? 16 : 0), v);
    o[6] = __reduce_xor_sync(0xFFFFFFFFu, v << 3);
    float f = __uint_as_float(in[32 + t]), r;
    asm volatile("redux.sync.min.abs.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(f), "r"(0xFFFFFFFFu));
    o[7] = __float_as_uint(r);
}

// bar.red (PTX ISA 9.2 §9.7.13.1) from __syncthreads_count / _and / _or over 64 threads: thread t writes
// out[4 t + k].
extern "C" __global__ void bar_red(const uint32_t* in, uint32_t* out) {
    const uint32_t t = threadIdx.x;
    const uint32_t v = in[t];
    out[4 * t + 0] = uint32_t(__syncthreads_count(v % 3 == 0));
    out[4 * t + 1] = uint32_t(__syncthreads_and(v > 0));
    out[4 * t + 2] = uint32_t(__syncthreads_or(v == 40));
    out[4 * t + 3] = uint32_t(__syncthreads_and(v < 1000));
}
