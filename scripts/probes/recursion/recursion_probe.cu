// Recursion probe (README.md): runs the kernels of tests/data/exec/recursion/recursion.cu on the GPU and writes
// what they stored as .npy files, for the executor's ctests exec.h200.recursion_* to compare byte for byte.
#include "../../../tests/data/exec/recursion/recursion.cu"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool writeNpy(const std::string& path, const std::vector<int>& v) {
    std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (" + std::to_string(v.size()) + ",), }";
    header.append(63 - (10 + header.size()) % 64, ' ');
    header += '\n';
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const unsigned short len = static_cast<unsigned short>(header.size());
    std::fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    std::fwrite(&len, 2, 1, f);
    std::fwrite(header.data(), 1, header.size(), f);
    std::fwrite(v.data(), 4, v.size(), f);
    return std::fclose(f) == 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : "/tmp";
    cudaDeviceSetLimit(cudaLimitStackSize, 16384); // fib(15) and walk(11) nest 15 and 12 calls deep
    int* out = nullptr;
    cudaMalloc(&out, 512 * sizeof(int));
    for (const int n : {0, 3}) {
        cudaMemset(out, 0, 512 * sizeof(int));
        recur<<<1, 64>>>(out, n);
        std::vector<int> host(512);
        const cudaError_t e = cudaMemcpy(host.data(), out, 512 * sizeof(int), cudaMemcpyDeviceToHost);
        std::printf("recur n=%d: %s; thread 63: fib %d, walk %d, isEven %d\n", n, cudaGetErrorString(e), host[63 * 8],
                    host[63 * 8 + 1], host[63 * 8 + 2]);
        if (e != cudaSuccess || !writeNpy(dir + "/recur_n" + std::to_string(n) + ".npy", host)) return 1;
    }
    // The runaway recursion last: what the GPU reports when the stack runs out (the context is lost after it).
    runaway_kernel<<<1, 32>>>(out, 0);
    std::printf("runaway_kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
