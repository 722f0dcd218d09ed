#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>
extern "C" __global__ void k(const float* in, unsigned* out) {
    int t = threadIdx.x;
    float2 f = make_float2(in[2*t], in[2*t+1]);
    __half2 h = __float22half2_rn(f);
    __nv_bfloat162 b = __float22bfloat162_rn(f);
    __nv_fp8x2_e4m3 e4(f);
    __nv_fp8x2_e5m2 e5(f);
    __half2 back = __half2(__nv_cvt_fp8x2_to_halfraw2(e4.__x, __NV_E4M3));
    unsigned r0 = *reinterpret_cast<unsigned*>(&h), r1 = *reinterpret_cast<unsigned*>(&b);
    out[8*t+0] = r0; out[8*t+1] = r1; out[8*t+2] = e4.__x; out[8*t+3] = e5.__x;
    out[8*t+4] = *reinterpret_cast<unsigned*>(&back);
#if __CUDA_ARCH__ >= 1000
    __nv_fp4x2_e2m1 e2(f);
    __nv_fp6x2_e2m3 e6(f);
    out[8*t+5] = e2.__x; out[8*t+6] = e6.__x;
    out[8*t+7] = __nv_cvt_float2_to_e8m0x2(f, __NV_SATFINITE, cudaRoundPosInf);
#endif
}
