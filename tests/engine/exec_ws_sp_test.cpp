// Executor: the .ws and .sp forms of tcgen05.mma (issue 22 item 1) run through the engine's MMA instead of
// stopping the run. The kernel is tests/data/exec/tcgen05_kernels.ptx's umma_f16 (two K = 16 MMAs of
// A[128][32] f16 x B[64][32]^T into D f32, read back by tcgen05.ld) with its tcgen05.mma lines rewritten.
// Expected values are CPU products written in the test: .ws M = 128 is Layout D, so D is the plain product;
// with .collector::b0::fill then ::use the second MMA multiplies A's k 16..31 by the B of the first (k
// 0..15), as PTX ISA 9.2 §9.7.16.10.9.3 says ::use reads B from the collector buffer.
#include "exec_test_util.hpp"
#include "layoutscope/core/number_formats.hpp"

#include <array>

using namespace exectest;

namespace {

// umma_f16 with its two MMAs ("%rd26, %rd27" then "%rd28, %rd29") rewritten by `rewrite(ops, index)`.
template <class F>
std::string rewrittenUmma(F rewrite) {
    std::string text = readData("tcgen05_kernels.ptx");
    int i = 0;
    for (const char* ops : {"%rd26, %rd27", "%rd28, %rd29"}) {
        const std::string from =
            std::string("tcgen05.mma.cta_group::1.kind::f16 [%r67], ") + ops + ", %r68, p;";
        const size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), rewrite(std::string(ops), i++));
    }
    return text;
}

int wsA(uint32_t m, uint32_t k) {
    return int((m * 3 + k * 5) % 9) - 4;
}
int wsB(uint32_t n, uint32_t k) {
    return int((n * 7 + k) % 7) - 3;
}

Result<ExecResult> runUmma(const std::string& module, uint32_t idesc) {
    std::vector<uint8_t> A(128 * 64), B(64 * 64);
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t k = 0; k < 32; ++k) {
            const uint16_t h = encodeF16(wsA(m, k));
            A[m * 64 + 2 * k] = uint8_t(h), A[m * 64 + 2 * k + 1] = uint8_t(h >> 8);
        }
    for (uint32_t n = 0; n < 64; ++n)
        for (uint32_t k = 0; k < 32; ++k) {
            const uint16_t h = encodeF16(wsB(n, k));
            B[n * 64 + 2 * k] = uint8_t(h), B[n * 64 + 2 * k + 1] = uint8_t(h >> 8);
        }
    auto m = readPtxModule(module);
    REQUIRE(m);
    Launch l;
    l.entry = "umma_f16";
    l.block = {128, 1, 1};
    l.args = {tensorArg("0", "u8", A), tensorArg("1", "u8", B),
              tensorArg("2", "u32", std::vector<uint32_t>(128 * 64, 0xDEADBEEF)),
              scalarArg("3", std::to_string(idesc)), scalarArg("4", "0")};
    ExecOptions o;
    o.order = false; // commit = 0: D read after __syncthreads (the executor completes MMAs at issue)
    o.record = true;
    return runKernel(*m, l, o);
}

constexpr uint32_t kIdesc = 1u << 4 | (64u >> 3) << 17 | (128u >> 4) << 24; // f16 x f16 -> f32, N 64, M 128

} // namespace

TEST_CASE("exec: tcgen05.mma.ws runs, with and without collector buffers", "[exec][ws]") {
    SECTION("plain .ws (b0::discard): the full product") {
        auto r = runUmma(rewrittenUmma([](const std::string& ops, int) {
                             return "tcgen05.mma.ws.cta_group::1.kind::f16 [%r67], " + ops + ", %r68, p;";
                         }),
                         kIdesc);
        if (!r) FAIL(formatDiagnostic(r.error()));
        const auto D = values<uint32_t>(*r, "2");
        int bad = 0;
        for (uint32_t m = 0; m < 128; ++m)
            for (uint32_t n = 0; n < 64; ++n) {
                int64_t want = 0;
                for (uint32_t k = 0; k < 32; ++k) want += int64_t(wsA(m, k)) * wsB(n, k);
                bad += bitsf32(D[m * 64 + n]) != float(want);
            }
        CHECK(bad == 0);
        CHECK_THAT(r->recording, Catch::Contains("tcgen05.mma.ws.cta_group::1.kind::f16 ["));
        CHECK_THAT(r->recording, !Catch::Contains("not recorded: tcgen05.mma"));
    }
    SECTION("fill then use: the second MMA reads the first MMA's B") {
        auto r = runUmma(rewrittenUmma([](const std::string& ops, int i) {
                             return std::string("tcgen05.mma.ws.cta_group::1.kind::f16.collector::b0::") +
                                    (i ? "use" : "fill") + " [%r67], " + ops + ", %r68, p;";
                         }),
                         kIdesc);
        if (!r) FAIL(formatDiagnostic(r.error()));
        const auto D = values<uint32_t>(*r, "2");
        int bad = 0;
        for (uint32_t m = 0; m < 128; ++m)
            for (uint32_t n = 0; n < 64; ++n) {
                int64_t want = 0;
                for (uint32_t k = 0; k < 16; ++k) want += int64_t(wsA(m, k) + wsA(m, 16 + k)) * wsB(n, k);
                bad += bitsf32(D[m * 64 + n]) != float(want);
            }
        CHECK(bad == 0);
        CHECK_THAT(r->recording,
                   Catch::Contains("tcgen05.mma.ws.cta_group::1.kind::f16.collector::b0::use ["));
    }
    SECTION("use with nothing filled stops the run with the rule") {
        auto r = runUmma(rewrittenUmma([](const std::string& ops, int) {
                             return "tcgen05.mma.ws.cta_group::1.kind::f16.collector::b2::use [%r67], " +
                                    ops + ", %r68, p;";
                         }),
                         kIdesc);
        REQUIRE(!r);
        CHECK_THAT(r.error().message, Catch::Contains("collector buffer b2 holds no B"));
    }
}

TEST_CASE("exec: tcgen05.mma.sp multiplies the A its metadata decompresses", "[exec][sp]") {
    // Every thread stores 0xE4E4E4E4 into its lane of column 64 (tcgen05.st .32x32b, then bar.sync): for
    // kind::f16 chunk c of every row then has nibble 0x4 (positions 0, 1) when c is even, 0xE (2, 3) when odd
    // (nibble 4 ((r / 8) % 2) + c % 4 of the row's lane). The first MMA becomes a .sp MMA of K = 32: its
    // stored A is A[m][0..15], B is B[n][0..31]; the second MMA is dropped. D[m][n] = sum over chunks c and
    // i < 2 of A[m][2c + i] * B[n][4c + p_i(c)].
    std::string text = rewrittenUmma([](const std::string& ops, int i) -> std::string {
        if (i) return "";
        return "{\n.reg .b32 %mq;\nadd.u32 %mq, %r67, 64;\ntcgen05.mma.sp.cta_group::1.kind::f16 [%r67], " +
               ops + ", [%mq], %r68, p;\n}";
    });
    const std::string anchor = "ld.shared.u32 \t%r67, [_ZZ10ummaKernelILi0EEvPKhS1_PjjjjE4slot];";
    const size_t at = text.find(anchor);
    REQUIRE(at != std::string::npos);
    text.insert(at + anchor.size(),
                "\n{\n.reg .b32 %mw;\n.reg .b32 %mv;\nmov.u32 %mw, %tid.x;\nshr.u32 %mw, %mw, 5;\n"
                "shl.b32 %mw, %mw, 21;\nadd.u32 %mw, %mw, %r67;\nadd.u32 %mw, %mw, 64;\n"
                "mov.b32 %mv, 0xE4E4E4E4;\n"
                "tcgen05.st.sync.aligned.32x32b.x1.b32 [%mw], {%mv};\n"
                "tcgen05.wait::st.sync.aligned;\n}\nbar.sync 0;\n");
    auto r = runUmma(text, kIdesc | 1u << 2);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto D = values<uint32_t>(*r, "2");
    int bad = 0;
    for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t n = 0; n < 64; ++n) {
            int64_t want = 0;
            for (uint32_t c = 0; c < 8; ++c)
                for (uint32_t i = 0; i < 2; ++i)
                    want += int64_t(wsA(m, 2 * c + i)) * wsB(n, 4 * c + (c % 2 ? 2 : 0) + i);
            bad += bitsf32(D[m * 64 + n]) != float(want);
        }
    CHECK(bad == 0);
    CHECK_THAT(r->recording, Catch::Contains("tcgen05.mma.sp.cta_group::1.kind::f16 ["));
}

TEST_CASE("exec: tcgen05.mma.sp goes through the engine's sparse path", "[exec][sp]") {
    // [sp-meta-tmem] = D's address: Tensor Memory is zero there when the first MMA runs, and 0b0000 is no 2:4
    // index pair (PTX ISA 9.2 §9.7.16.10.8.2), so the run must stop at the MMA with that diagnostic.
    auto r = runUmma(rewrittenUmma([](const std::string& ops, int) {
                         return "tcgen05.mma.sp.cta_group::1.kind::f16 [%r67], " + ops + ", [%r67], %r68, p;";
                     }),
                     kIdesc | 1u << 2);
    REQUIRE(!r);
    CHECK_THAT(r.error().message, Catch::Contains("sparsity metadata 0b0000 of A row 0, chunk 0"));
    CHECK_THAT(r.error().message, Catch::Contains("not a 2:4 index pair"));
}
