// Executor on NVIDIA's CuTe Blackwell tutorial (CUTLASS 7107b05 examples/cute/tutorial/blackwell/
// 01_mma_sm100.cu, PTX in tests/data/cute_tutorials, README.md there): one CTA at its 128x256 MMA tile
// with K = 256 and integer-valued inputs; D must equal the CPU reference alpha * A * B^T + beta * C
// (the tutorial's own reference_gemm) exactly.
#include "exec_test_util.hpp"

#include "layoutscope/core/number_formats.hpp"

#include <fstream>
#include <sstream>

using namespace exectest;

namespace {

std::string readTutorial(const std::string& name) {
    std::string path = LAYOUTSCOPE_TEST_DATA_DIR; // piecewise: GCC 12's false -Warray-bounds (exec_test_util)
    path += "/cute_tutorials/";
    path += name;
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

ExecTensor tensorOf(const std::string& name, const std::string& dtype, std::vector<uint64_t> shape,
                    std::vector<uint8_t> bytes) {
    ExecTensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.bytes = std::move(bytes);
    return t;
}

} // namespace

TEST_CASE("exec CuTe blackwell 01_mma_sm100: one CTA's tile equals alpha A B^T + beta C",
          "[exec][tcgen05][cute]") {
    const std::string text = readTutorial("01_mma_sm100.ptx");
    REQUIRE_FALSE(text.empty());
    const uint32_t M = 128, N = 256, K = 256; // the MMA tile (bM, bN) and the tutorial's Gemm_K
    auto aVal = [](uint32_t m, uint32_t k) { return int((m * 7 + k * 3) % 9) - 4; };
    auto bVal = [](uint32_t n, uint32_t k) { return int((n * 5 + k * 11) % 9) - 4; };
    auto cVal = [](uint32_t m, uint32_t n) { return float(int((m + 2 * n) % 13) - 6); };
    std::vector<uint8_t> A(M * K * 2), B(N * K * 2), C(M * N * 4), D(M * N * 4, 0);
    for (uint32_t m = 0; m < M; ++m) // A (M, K):(K, 1), B (N, K):(K, 1): K-major, as the tutorial's host code
        for (uint32_t k = 0; k < K; ++k) {
            const uint16_t h = encodeF16(aVal(m, k));
            std::memcpy(&A[(m * K + k) * 2], &h, 2);
        }
    for (uint32_t n = 0; n < N; ++n)
        for (uint32_t k = 0; k < K; ++k) {
            const uint16_t h = encodeF16(bVal(n, k));
            std::memcpy(&B[(n * K + k) * 2], &h, 2);
        }
    for (uint32_t m = 0; m < M; ++m) // C, D (M, N):(N, 1)
        for (uint32_t n = 0; n < N; ++n) {
            const float c = cVal(m, n);
            std::memcpy(&C[(m * N + n) * 4], &c, 4);
        }
    Launch l;
    l.entry = "0"; // gemm_device (the module also holds two thrust/cub kernels)
    l.grid = {1, 1, 1};
    l.block = {128, 1, 1};
    l.dynamicSmem = 49280; // sizeof(SharedStorage): A 128x64 f16, B 256x64 f16, mma_barrier, tmem_base_ptr
    l.tensors = {tensorOf("A", "f16", {M, K}, A), tensorOf("B", "f16", {N, K}, B),
                 tensorOf("C", "f32", {M, N}, C), tensorOf("D", "f32", {M, N}, D)};
    // A CuTe tensor (int, int):(int, _1) by value: shape at +0 / +4, the dynamic stride at +8, the pointer at
    // +16 (the offsets the PTX loads). The TiledMMA (MMA_Traits<SM100_MMA_F16BF16_SS>) holds idesc_ at +0,
    // the instruction descriptor CuTe's make_instr_desc<half, half, float, 128, 256, K, K> builds on the host
    // (cute/arch/mma_sm100_desc.hpp: c_format F32 = 1 at bit 4, N >> 3 at bit 17, M >> 4 at bit 24), and
    // accumulate_ (a u8, reset by the kernel) at +4. alpha = 2, beta = -1.
    const uint32_t idesc = 1u << 4 | (256u >> 3) << 17 | (128u >> 4) << 24;
    for (const std::string& a :
         std::vector<std::string>{"0=fields:0=s32:128,4=s32:256,8=s32:256,16=ptr:A",
                                  "1=fields:0=s32:256,4=s32:256,8=s32:256,16=ptr:B",
                                  "2=fields:0=s32:128,4=s32:256,8=s32:256,16=ptr:C",
                                  "3=fields:0=s32:128,4=s32:256,8=s32:256,16=ptr:D",
                                  "4=fields:", "5=fields:0=u32:" + std::to_string(idesc) + ",4=u8:1",
                                  "6=fields:", "7=2.0", "8=-1.0"}) {
        auto arg = parseExecArg(a);
        REQUIRE(arg);
        l.args.push_back(*arg);
    }
    auto m = readPtxModule(text);
    REQUIRE(m);
    auto r = runKernel(*m, l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto d = values<float>(*r, "D");
    int bad = 0;
    for (uint32_t i = 0; i < M; ++i)
        for (uint32_t j = 0; j < N; ++j) {
            int64_t acc = 0;
            for (uint32_t k = 0; k < K; ++k) acc += int64_t(aVal(i, k)) * bVal(j, k);
            const double want = 2.0 * double(acc) - double(cVal(i, j));
            if (d[i * N + j] != want && ++bad <= 5)
                FAIL_CHECK("D(" << i << "," << j << ") = " << d[i * N + j] << ", want " << want);
        }
    CHECK(bad == 0);
}
