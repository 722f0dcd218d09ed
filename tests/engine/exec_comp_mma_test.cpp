// Executor: the matrix forms of issue 22 item 1 the executor used to stop on: wgmma.mma_async.sp (PTX ISA
// 9.2 §9.7.15.6, sparse A with metadata and selector) and tcgen05.mma with a non-zero disable-output-lane
// mask (§9.7.16.10.9). Expected values are CPU products written in the test: the dense product of the
// expanded A, the plain product with the masked lanes untouched. Every kernel is accepted by ptxas (the last
// test, skipped without ptxas).
#include "exec_test_util.hpp"
#include "layoutscope/core/number_formats.hpp"
#include "ptxas_path.hpp"

#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace exectest;

namespace {

// tests/data/exec/tcgen05_kernels.ptx with both tcgen05.mma of umma_f16 given the disable-output-lane mask
// {m0, m1, m2, m3} (registers declared in the inline-asm block).
std::string maskedUmmaModule(const std::array<uint32_t, 4>& mask) {
    std::string text = readData("tcgen05_kernels.ptx");
    for (const char* ops : {"%rd26, %rd27", "%rd28, %rd29"}) {
        const std::string from =
            std::string("tcgen05.mma.cta_group::1.kind::f16 [%r67], ") + ops + ", %r68, p;";
        std::string to = ".reg .b32 %ml<4>;\n";
        for (int j = 0; j < 4; ++j)
            to += "mov.b32 %ml" + std::to_string(j) + ", " + std::to_string(mask[size_t(j)]) + ";\n";
        to += std::string("tcgen05.mma.cta_group::1.kind::f16 [%r67], ") + ops +
              ", %r68, {%ml0, %ml1, %ml2, %ml3}, p;";
        const size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
    }
    return text;
}

} // namespace

TEST_CASE("exec comp: tcgen05.mma leaves the lanes of a disable-output-lane mask unwritten", "[exec-comp]") {
    // umma_f16: D[128][64] f32 = A[128][32] f16 x B[64][32]^T (M = 128: row m is TMEM lane m), read back by
    // tcgen05.ld into the D tensor. unverified (no Blackwell GPU): bit i of mask element j is lane 32 j + i.
    // The masked lanes keep Tensor Memory's launch contents (zero in the executor).
    const std::array<uint32_t, 4> mask = {0x5u, 0x80000000u, 0u, 0x10000u}; // lanes 0, 2, 63, 112
    auto aVal = [](uint32_t m, uint32_t k) { return int((m * 3 + k * 5) % 9) - 4; };
    auto bVal = [](uint32_t n, uint32_t k) { return int((n * 7 + k) % 7) - 3; };
    std::vector<uint8_t> A(128 * 64), B(64 * 64);
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t k = 0; k < 32; ++k) {
            const uint16_t h = encodeF16(aVal(m, k));
            A[m * 64 + 2 * k] = uint8_t(h), A[m * 64 + 2 * k + 1] = uint8_t(h >> 8);
        }
    for (uint32_t n = 0; n < 64; ++n)
        for (uint32_t k = 0; k < 32; ++k) {
            const uint16_t h = encodeF16(bVal(n, k));
            B[n * 64 + 2 * k] = uint8_t(h), B[n * 64 + 2 * k + 1] = uint8_t(h >> 8);
        }
    const uint32_t idesc = 1u << 4 | (64u >> 3) << 17 | (128u >> 4) << 24; // f16 x f16 -> f32, N 64, M 128
    auto m = readPtxModule(maskedUmmaModule(mask));
    REQUIRE(m);
    Launch l;
    l.entry = "umma_f16";
    l.block = {128, 1, 1};
    l.args = {tensorArg("0", "u8", A), tensorArg("1", "u8", B),
              tensorArg("2", "u32", std::vector<uint32_t>(128 * 64, 0xDEADBEEF)),
              scalarArg("3", std::to_string(idesc)), scalarArg("4", "0")};
    ExecOptions o;
    o.order = false; // commit = 0: D read after __syncthreads (the executor completes MMAs at issue)
    o.record = true; // the recording cannot express the mask: it must say so, not record a full MMA
    auto r = runKernel(*m, l, o);
    if (!r) FAIL(formatDiagnostic(r.error()));
    bool noted = false;
    for (const auto& n : r->notes)
        noted = noted || n.message.find("disable-output-lane") != std::string::npos;
    CHECK(noted); // the unverified mapping is said once
    CHECK_THAT(r->recording,
               Catch::Contains("# not recorded: tcgen05.mma with a non-zero disable-output-lane mask"));
    CHECK_THAT(r->recording, !Catch::Contains("tcgen05.mma.cta_group::1.kind::f16 "));
    const auto D = values<uint32_t>(*r, "2");
    int bad = 0;
    for (uint32_t row = 0; row < 128; ++row) {
        const bool masked = mask[row / 32] >> (row % 32) & 1;
        for (uint32_t n = 0; n < 64; ++n) {
            int64_t want = 0;
            for (uint32_t k = 0; k < 32 && !masked; ++k) want += int64_t(aVal(row, k)) * bVal(n, k);
            if (bitsf32(D[row * 64 + n]) != float(want) && ++bad <= 5)
                FAIL_CHECK("D[" << row << "][" << n << "] = " << bitsf32(D[row * 64 + n]) << ", want "
                                << want);
        }
    }
    CHECK(bad == 0);
}

namespace {

// wgmma.mma_async.sp of one warpgroup on hand-built sparse A (PTX ISA §9.7.15.6): the logical 64 x K A has
// 2 non-zeros in every chunk of 4 (1 in every pair for tf32) at positions chosen per (row, chunk); the
// kernel gets the stored 64 x K/2 values in shared memory (K-major SWIZZLE_128B) and each thread's sp-meta
// built by the rule of docs/exec.md (CUTLASS's ELayout thread map, nibble = first | second << 2); D must be
// the dense product of the logical A and B. unverified on hardware.
struct SpCase {
    std::string types; // "f32.f16.f16"
    std::string ta;    // "f16", "tf32", "e4m3"
    uint32_t K;
    uint32_t sel;
    bool aRegs = false; ///< A's stored values from registers (the dense m64nNk16 A fragment; f16 only here)
};

uint64_t encodeElem(const std::string& t, int v) {
    if (t == "f16") return encodeF16(v);
    if (t == "tf32") return encodeF32(v);
    static const uint8_t kMag[] = {0x00, 0x38, 0x40, 0x44, 0x48}; // e4m3 of 0..4
    return uint8_t(kMag[v < 0 ? -v : v] | (v < 0 ? 0x80 : 0));
}
uint32_t kMajorSw128At(uint32_t base, uint32_t mn, uint32_t kb) {
    return base + mn / 8 * 1024 + mn % 8 * 128 + ((kb / 16) ^ (mn % 8)) * 16 + kb % 16;
}

std::string spKernel(const SpCase& c, uint32_t smBytes) {
    const std::string shape = "m64n8k" + std::to_string(c.K);
    const uint64_t da = 0 | uint64_t(1024 >> 4) << 16 | uint64_t(1024 >> 4) << 32 | uint64_t(1) << 62;
    const uint64_t db =
        uint64_t(8192 >> 4) | uint64_t(1) << 16 | uint64_t(1024 >> 4) << 32 | uint64_t(1) << 62;
    return ".version 8.2\n.target sm_90a\n.address_size 64\n"
           ".visible .entry k(.param .u64 psm, .param .u64 pmeta, .param .u64 pout, .param .u64 pa)\n{\n"
           ".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<8>;\n.reg .pred %p<4>;\n"
           ".shared .align 1024 .b8 sm[" +
           std::to_string(smBytes) +
           "];\n"
           "mov.u32 %r0, %tid.x;\nld.param.u64 %rd1, [psm];\nmov.u32 %r1, %r0;\nmov.u32 %r2, sm;\n"
           "COPY:\nsetp.ge.u32 %p0, %r1, " +
           std::to_string(smBytes / 8) +
           ";\n@%p0 bra DONE;\nmul.wide.u32 %rd2, %r1, 8;\nadd.u64 %rd3, %rd1, %rd2;\n"
           "ld.global.u64 %rd4, [%rd3];\nshl.b32 %r3, %r1, 3;\nadd.u32 %r4, %r2, %r3;\n"
           "st.shared.u64 [%r4], %rd4;\nadd.u32 %r1, %r1, 128;\nbra.uni COPY;\nDONE:\nbar.sync 0;\n"
           "ld.param.u64 %rd5, [pmeta];\nmul.wide.u32 %rd6, %r0, 4;\nadd.u64 %rd7, %rd5, %rd6;\n"
           "ld.global.u32 %r10, [%rd7];\nld.param.u64 %rd13, [pa];\nmul.wide.u32 %rd14, %r0, 16;\n"
           "add.u64 %rd15, %rd13, %rd14;\nld.global.v4.u32 {%r11, %r12, %r13, %r14}, [%rd15];\nmov.b64 "
           "%rd10, " +
           std::to_string(da) + ";\nmov.b64 %rd11, " + std::to_string(db) +
           ";\nsetp.ne.u32 %p1, %r0, %r0;\nfence.proxy.async.shared::cta;\nwgmma.fence.sync.aligned;\n"
           "wgmma.mma_async.sp.sync.aligned." +
           shape + "." + c.types + " {%f0, %f1, %f2, %f3}, " +
           (c.aRegs ? "{%r11, %r12, %r13, %r14}" : "%rd10") + ", %rd11, %r10, " + std::to_string(c.sel) +
           ", %p1, 1, 1" + (c.ta == "f16" ? (c.aRegs ? ", 0" : ", 0, 0") : "") +
           ";\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n"
           "ld.param.u64 %rd8, [pout];\nmul.wide.u32 %rd9, %r0, 16;\nadd.u64 %rd12, %rd8, %rd9;\n"
           "st.global.v4.f32 [%rd12], {%f0, %f1, %f2, %f3};\nret;\n}\n";
}

// Builds the case's inputs; `breakMeta`: thread 5's metadata becomes 0 (an invalid index pair).
Result<ExecResult> runSparse(const SpCase& c, std::vector<float>* want, bool breakMeta = false) {
    const uint32_t K = c.K, Kc = K / 2, bytes = c.ta == "f16" ? 2 : c.ta == "tf32" ? 4 : 1;
    const bool tf32 = c.ta == "tf32", narrow = bytes == 1;
    std::vector<int> Alog(64 * K, 0), Acomp(64 * Kc, 0), B(K * 8);
    std::vector<uint32_t> meta(128, 0);
    static const uint32_t kPairs[][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {1, 0}, {3, 1}};
    for (uint32_t row = 0; row < 64; ++row)
        for (uint32_t h = 0; h < 2; ++h) {
            const uint32_t w = row / 16, g = row % 8, u = row % 16 / 8, chunks = narrow ? 8 : 4;
            const uint32_t lane = narrow ? 4 * g + 2 * h + u : 4 * g + 2 * c.sel + h;
            for (uint32_t ch = 0; ch < chunks; ++ch) {
                const uint32_t logical = K / 2 * h, stored = K / 4 * h;
                uint32_t nib;
                if (tf32) {
                    const uint32_t idx = (row + ch + h) % 2;
                    nib = idx ? 0xE : 0x4;
                    const int v = int((row * 3 + ch * 5 + h) % 7) - 3;
                    Alog[row * K + logical + 2 * ch + idx] = v;
                    Acomp[row * Kc + stored + ch] = v;
                } else {
                    const auto& pr = kPairs[(row * 7 + ch * 3 + h) % 8];
                    nib = pr[0] | pr[1] << 2;
                    for (uint32_t j = 0; j < 2; ++j) {
                        const int v = int((row * 5 + ch * 3 + j * 2 + h) % 9) - 4;
                        Alog[row * K + logical + 4 * ch + pr[j]] = v;
                        Acomp[row * Kc + stored + 2 * ch + j] = v;
                    }
                }
                meta[32 * w + lane] |= nib << (4 * ch + (narrow ? 0 : 16 * u));
            }
        }
    for (uint32_t k = 0; k < K; ++k)
        for (uint32_t n = 0; n < 8; ++n) B[k * 8 + n] = int((k * 7 + n * 3) % 9) - 4;
    if (breakMeta) meta[5] = 0;
    const uint32_t smBytes = 8192 + 1024;
    std::vector<uint8_t> sm(smBytes, 0);
    for (uint32_t m = 0; m < 64; ++m)
        for (uint32_t k = 0; k < Kc; ++k) {
            const uint64_t e = encodeElem(c.ta, Acomp[m * Kc + k]);
            std::memcpy(sm.data() + kMajorSw128At(0, m, k * bytes), &e, bytes);
        }
    for (uint32_t n = 0; n < 8; ++n)
        for (uint32_t k = 0; k < K; ++k) {
            const uint64_t e = encodeElem(c.ta, B[k * 8 + n]);
            std::memcpy(sm.data() + kMajorSw128At(8192, n, k * bytes), &e, bytes);
        }
    std::vector<uint64_t> smWords(smBytes / 8);
    std::memcpy(smWords.data(), sm.data(), smBytes);
    if (want) {
        want->assign(128 * 4, 0);
        for (uint32_t t = 0; t < 128; ++t)
            for (uint32_t i = 0; i < 4; ++i) { // wgmma D fragment (§9.7.15.5.1.1), N = 8
                const uint32_t l = t % 32, row = 16 * (t / 32) + l / 4 + 8 * ((i / 2) % 2),
                               col = 2 * (l % 4) + i % 2;
                int64_t acc = 0;
                for (uint32_t k = 0; k < K; ++k) acc += int64_t(Alog[row * K + k]) * B[k * 8 + col];
                (*want)[t * 4 + i] = float(acc);
            }
    }
    std::vector<uint32_t> aRegs(128 * 4, 0); // f16: element i of lane l of warp w, the m16n8k16 A figure
    for (uint32_t t = 0; t < 128 && c.aRegs; ++t)
        for (uint32_t i = 0; i < 8; ++i) {
            const uint32_t l = t % 32, row = 16 * (t / 32) + l / 4 + 8 * ((i / 2) % 2),
                           col = 2 * (l % 4) + i % 2 + 8 * (i / 4);
            aRegs[t * 4 + i / 2] |= uint32_t(encodeF16(Acomp[row * Kc + col])) << (16 * (i % 2));
        }
    Launch l;
    l.block = {128, 1, 1};
    l.args = {tensorArg<uint64_t>("psm", "u64", smWords), tensorArg<uint32_t>("pmeta", "u32", meta),
              tensorArg<float>("pout", "f32", std::vector<float>(128 * 4, -1.0f)),
              tensorArg<uint32_t>("pa", "u32", aRegs)};
    return runText(spKernel(c, smBytes), l);
}

const SpCase kSpCases[] = {{"f32.f16.f16", "f16", 32, 0},
                           {"f32.f16.f16", "f16", 32, 1},
                           {"f32.tf32.tf32", "tf32", 16, 1},
                           {"f32.e4m3.e4m3", "e4m3", 64, 0},
                           {"f32.f16.f16", "f16", 32, 1, true}};

} // namespace

TEST_CASE("exec comp: wgmma.mma_async.sp equals the dense product of the expanded A", "[exec-comp]") {
    for (const SpCase& c : kSpCases) {
        INFO(c.types << " k" << c.K << " sp-sel " << c.sel << (c.aRegs ? " A from registers" : ""));
        std::vector<float> want;
        auto r = runSparse(c, &want);
        if (!r) FAIL(formatDiagnostic(r.error()));
        const auto got = values<float>(*r, "pout");
        int bad = 0;
        for (size_t i = 0; i < want.size(); ++i)
            if (got[i] != want[i] && ++bad <= 4)
                FAIL_CHECK("thread " << i / 4 << " d" << i % 4 << " = " << got[i] << ", want " << want[i]);
        CHECK(bad == 0);
    }
}

TEST_CASE("exec comp: malformed wgmma.mma_async.sp stops with the rule", "[exec-comp]") {
    SECTION("metadata with the same index twice (0b0000) is undefined behaviour") {
        auto r = runSparse(kSpCases[0], nullptr, true);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message,
                   Catch::Contains("not a valid 2:4 index pair") && Catch::Contains("9.7.15.6"));
    }
    SECTION("sp-sel 1 on an 8-bit type") {
        SpCase c = kSpCases[3];
        c.sel = 1;
        auto r = runSparse(c, nullptr);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("sp-sel must be the constant 0 for 8-bit types"));
    }
}

TEST_CASE("exec comp: ptxas accepts the wgmma.sp and masked tcgen05.mma kernels (skipped without ptxas)",
          "[exec-comp][ptxas]") {
    const std::string ptxas = layoutscope::test::findPtxas();
    if (ptxas.empty()) {
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas");
        return;
    }
    const auto dir = std::filesystem::temp_directory_path();
    for (const SpCase& c : kSpCases) {
        const auto sp = dir / "layoutscope_exec_comp_sp.ptx";
        std::ofstream(sp) << spKernel(c, 9216);
        const std::string spCmd = "'" + ptxas + "' -arch=sm_90a '" + sp.string() + "' -o /dev/null 2>&1";
        INFO(spCmd);
        CHECK(std::system(spCmd.c_str()) == 0);
        std::filesystem::remove(sp);
    }
    const auto path = dir / "layoutscope_exec_comp_mask.ptx";
    std::ofstream(path) << maskedUmmaModule({1, 2, 3, 4});
    const std::string cmd = "'" + ptxas + "' -arch=sm_100a '" + path.string() + "' -o /dev/null 2>&1";
    INFO(cmd);
    CHECK(std::system(cmd.c_str()) == 0);
    std::filesystem::remove(path);
}
