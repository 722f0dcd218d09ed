// Recursive device functions for the executor (tests/engine/exec_recursion_test.cpp; README.md here has the
// nvcc command). Each kernel's thread t writes its results to out[t * 8 + ...]; the test computes the same
// math in plain C++.
#include <climits>

// Direct recursion, two calls per activation (nvcc -O3 keeps both calls).
__device__ __noinline__ int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// Direct recursion through a pointer to the caller's local array: each activation needs its own `a`
// (a frame per call), and the callee writes into its caller's frame.
__device__ __noinline__ void walk(int n, int* parent) {
    int a[4];
    for (int i = 0; i < 4; ++i) a[i] = parent[i] * 2 + n + i;
    if (n > 0) walk(n - 1, a);
    for (int i = 0; i < 4; ++i) parent[i] += a[i] ^ n;
}

// Mutual recursion, each level with a local array handed down by pointer.
__device__ __noinline__ int isOdd(int n, int* acc);
__device__ __noinline__ int isEven(int n, int* acc) {
    int a[4];
    for (int i = 0; i < 4; ++i) a[i] = acc[i] + n * (i + 1);
    const int r = n == 0 ? 1 : isOdd(n - 1, a);
    for (int i = 0; i < 4; ++i) acc[i] = a[i] + r;
    return r;
}
__device__ __noinline__ int isOdd(int n, int* acc) {
    int a[4];
    for (int i = 0; i < 4; ++i) a[i] = acc[i] - n;
    const int r = n == 0 ? 0 : isEven(n - 1, a);
    for (int i = 0; i < 4; ++i) acc[i] = a[i] * 2 + r;
    return r;
}

extern "C" __global__ void recur(int* out, int n) {
    const int t = threadIdx.x;
    out[t * 8 + 0] = fib(t % 16);
    int w[4] = {t, 1, 2, 3};
    walk(t % 9 + n, w);
    out[t * 8 + 1] = w[0] ^ w[1] ^ w[2] ^ w[3];
    int acc[4] = {t, 1, 2, 3};
    out[t * 8 + 2] = isEven(t % 7 + n, acc);
    for (int i = 0; i < 4; ++i) out[t * 8 + 3 + i] = acc[i];
}

// A recursion that ends only when n wraps around to -1: a runaway the executor must stop.
__device__ __noinline__ int runaway(int n) {
    if (n == -1) return 0;
    const int r = runaway(n + 1);
    return r * 3 + n;
}

extern "C" __global__ void runaway_kernel(int* out, int n) {
    out[threadIdx.x] = runaway(n + int(threadIdx.x));
}
