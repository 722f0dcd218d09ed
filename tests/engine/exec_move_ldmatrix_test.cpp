// The sm_100 .b8 shapes of ldmatrix / stmatrix in the executor (issue 22 item 1). Each kernel (ptxas accepts
// it: checked()) gives thread t the row address tile + 16 * (5t mod 32), so rows are scattered. The
// expectation is written from the PTX ISA text (§9.7.14.5.15-16), in terms of the logical matrix: ldmatrix
// .m16n16 loads 16x16 matrices "in column-major format" (.trans mandatory; matrix q's memory row r comes from
// thread 16q + r), each thread holding "4 consecutive columns across 2 rows" (rows t/4 and t/4 + 8, columns
// 4(t%4)..+3); .m8n16 loads 8x16 matrices row-major (row r of matrix q from thread 8q + r), each thread 4
// consecutive columns of row t/4; .b6x16_p32 / .b4x16_p64 rows hold 16 packed 6- / 4-bit values, each loaded
// into its own byte; stmatrix .m16n8 .trans stores the m16n8 accumulator fragment (rows t/4, t/4 + 8, columns
// 2(t%4), 2(t%4) + 1) transposed. unverified: not measured on sm_100 hardware (the run says so in a warning).
#include "exec_move_util.hpp"

using namespace movetest;

namespace {

constexpr uint32_t kTile = 512;

std::vector<uint8_t> tileBytes() {
    std::vector<uint8_t> b(kTile);
    for (uint32_t i = 0; i < kTile; ++i) b[i] = uint8_t(i * 37 + 11);
    return b;
}
// The shared-memory row that thread `t` addresses.
uint32_t rowOf(uint32_t t) {
    return (5 * t) % 32;
}

std::string kernel(const std::string& instr, uint32_t nRegs, bool store) {
    std::string regs;
    for (uint32_t i = 0; i < nRegs; ++i) regs += (i ? ", %r" : "%r") + std::to_string(20 + i);
    std::string s =
        header("sm_100a") +
        ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n.reg .b32 %r<40>;\n.reg .b64 "
        "%rd<16>;\n.reg .pred %p<4>;\n.shared .align 16 .b8 tile[512];\n"
        "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd1, %rd1;\nld.param.u64 %rd2, [out];\n"
        "cvta.to.global.u64 %rd2, %rd2;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, tile;\nmov.u32 %r10, %r1;\n"
        "FILL:\nsetp.ge.u32 %p1, %r10, 128;\n@%p1 bra FILLED;\nshl.b32 %r11, %r10, 2;\n"
        "add.u32 %r12, %r2, %r11;\ncvt.u64.u32 %rd3, %r11;\nadd.u64 %rd4, %rd1, %rd3;\n"
        "ld.global.u32 %r13, [%rd4];\nst.shared.u32 [%r12], %r13;\nadd.u32 %r10, %r10, 32;\nbra FILL;\n"
        "FILLED:\nbar.warp.sync -1;\nmul.lo.u32 %r14, %r1, 5;\nand.b32 %r14, %r14, 31;\n"
        "shl.b32 %r14, %r14, 4;\nadd.u32 %r15, %r2, %r14;\n"
        "mul.lo.u32 %r16, %r1, " +
        std::to_string(4 * nRegs) + ";\ncvt.u64.u32 %rd5, %r16;\n";
    if (!store) {
        s += instr + " {" + regs + "}, [%r15];\nadd.u64 %rd6, %rd2, %rd5;\n";
        for (uint32_t i = 0; i < nRegs; ++i)
            s += "st.global.u32 [%rd6+" + std::to_string(4 * i) + "], %r" + std::to_string(20 + i) + ";\n";
        return s + "ret;\n}\n";
    }
    // stmatrix: registers from in[2048 + t * nRegs * 4 ...], then the tile to out.
    s += "add.u64 %rd6, %rd1, %rd5;\n";
    for (uint32_t i = 0; i < nRegs; ++i)
        s +=
            "ld.global.u32 %r" + std::to_string(20 + i) + ", [%rd6+" + std::to_string(kTile + 4 * i) + "];\n";
    s += instr + " [%r15], {" + regs +
         "};\nbar.warp.sync -1;\nmov.u32 %r10, %r1;\nOUT:\n"
         "setp.ge.u32 %p1, %r10, 128;\n@%p1 bra DONE;\nshl.b32 %r11, %r10, 2;\nadd.u32 %r12, %r2, %r11;\n"
         "cvt.u64.u32 %rd3, %r11;\nadd.u64 %rd4, %rd2, %rd3;\nld.shared.u32 %r13, [%r12];\n"
         "st.global.u32 [%rd4], %r13;\nadd.u32 %r10, %r10, 32;\nbra OUT;\nDONE:\nret;\n}\n";
    return s;
}

Result<ExecResult> run(const std::string& ptx, std::vector<uint8_t> in, uint32_t outBytes) {
    Launch l;
    l.block = {32, 1, 1};
    l.args.push_back(tensorArg<uint8_t>("in", "u8", in));
    l.args.push_back(tensorArg<uint8_t>("out", "u8", std::vector<uint8_t>(outBytes, 0xEE)));
    return runText(ptx, l);
}

// Element e of the 16-byte row at `row`: the byte itself, or the e-th packed 6- / 4-bit value.
uint8_t elem(const uint8_t* row, uint32_t e, uint32_t bits) {
    if (bits == 8) return row[e];
    uint32_t v = 0; // bits [bits * e, bits * (e + 1)) of the little-endian 128-bit row
    for (uint32_t b = 0; b < bits; ++b) {
        const uint32_t at = bits * e + b;
        v |= uint32_t(row[at / 8] >> (at % 8) & 1) << b;
    }
    return uint8_t(v);
}

} // namespace

TEST_CASE("exec move: ldmatrix .m16n16 .trans loads column-major 16x16 byte matrices", "[exec][exec-move]") {
    const auto tile = tileBytes();
    for (const char* fmt : {".b8", ".b8x16.b6x16_p32", ".b8x16.b4x16_p64"})
        for (uint32_t num : {1u, 2u}) {
            DYNAMIC_SECTION(fmt << " x" << num) {
                const uint32_t bits = std::string(fmt) == ".b8"                          ? 8
                                      : std::string(fmt).find("b6") != std::string::npos ? 6
                                                                                         : 4;
                const std::string instr =
                    "ldmatrix.sync.aligned.m16n16.x" + std::to_string(num) + ".trans.shared" + fmt;
                auto r = run(checked(kernel(instr, 2 * num, false), "sm_100a"), tile, 32 * 8 * num);
                if (!r) FAIL(formatDiagnostic(r.error()));
                const auto out = values<uint8_t>(*r, "out");
                // Matrix q's memory row j (thread 16q + j) holds column j of M_q: M_q[i][j] = element i of
                // it.
                auto M = [&](uint32_t q, uint32_t i, uint32_t j) {
                    return elem(&tile[16 * rowOf(16 * q + j)], i, bits);
                };
                for (uint32_t t = 0; t < 32; ++t)
                    for (uint32_t q = 0; q < num; ++q)
                        for (uint32_t half = 0; half < 2; ++half)
                            for (uint32_t k = 0; k < 4; ++k) {
                                INFO("thread " << t << " matrix " << q << " register " << 2 * q + half
                                               << " byte " << k);
                                CHECK(out[(t * 2 * num + 2 * q + half) * 4 + k] ==
                                      M(q, t / 4 + 8 * half, 4 * (t % 4) + k));
                            }
                bool warned = false;
                for (const auto& d : r->notes)
                    warned |=
                        d.severity == Severity::Warning && d.message.find("unverified") != std::string::npos;
                CHECK(warned);
            }
        }
}

TEST_CASE("exec move: ldmatrix .m8n16 decompresses 6- and 4-bit rows into bytes", "[exec][exec-move]") {
    const auto tile = tileBytes();
    for (const char* fmt : {".b6x16_p32", ".b4x16_p64"})
        for (uint32_t num : {1u, 2u, 4u}) {
            DYNAMIC_SECTION(fmt << " x" << num) {
                const uint32_t bits = std::string(fmt).find("b6") != std::string::npos ? 6 : 4;
                const std::string instr =
                    "ldmatrix.sync.aligned.m8n16.x" + std::to_string(num) + ".shared.b8x16" + fmt;
                auto r = run(checked(kernel(instr, num, false), "sm_100a"), tile, 32 * 4 * num);
                if (!r) FAIL(formatDiagnostic(r.error()));
                const auto out = values<uint8_t>(*r, "out");
                for (uint32_t t = 0; t < 32; ++t)
                    for (uint32_t q = 0; q < num; ++q)
                        for (uint32_t k = 0; k < 4; ++k) { // M_q[i][e] = value e of row i (thread 8q + i)
                            INFO("thread " << t << " matrix " << q << " byte " << k);
                            CHECK(out[(t * num + q) * 4 + k] ==
                                  elem(&tile[16 * rowOf(8 * q + t / 4)], 4 * (t % 4) + k, bits));
                        }
            }
        }
}

TEST_CASE("exec move: stmatrix .m16n8 .trans stores the accumulator fragment transposed",
          "[exec][exec-move]") {
    for (uint32_t num : {1u, 2u, 4u}) {
        DYNAMIC_SECTION("x" << num) {
            std::vector<uint8_t> in(kTile + 32 * 4 * num);
            for (size_t i = 0; i < kTile; ++i) in[i] = 0;
            for (size_t i = kTile; i < in.size(); ++i) in[i] = uint8_t(i * 13 + 5);
            const std::string instr =
                "stmatrix.sync.aligned.m16n8.x" + std::to_string(num) + ".trans.shared.b8";
            auto r = run(checked(kernel(instr, num, true), "sm_100a"), in, kTile);
            if (!r) FAIL(formatDiagnostic(r.error()));
            const auto out = values<uint8_t>(*r, "out");
            std::vector<uint8_t> expect(kTile, 0);
            for (uint32_t t = 0; t < 32; ++t)
                for (uint32_t q = 0; q < num; ++q)
                    for (uint32_t k = 0; k < 4; ++k) {
                        // Register q byte k of thread t is M_q[t/4 + 8(k/2)][2(t%4) + k%2]; memory row c of
                        // matrix q (thread 8q + c) holds column c of M_q, byte r = M_q[r][c].
                        const uint32_t row = t / 4 + 8 * (k / 2), col = 2 * (t % 4) + k % 2;
                        expect[16 * rowOf(8 * q + col) + row] = in[kTile + (t * num + q) * 4 + k];
                    }
            CHECK(out == expect);
        }
    }
}

TEST_CASE("exec move: malformed .b8 ldmatrix / stmatrix forms get a diagnostic naming the rule",
          "[exec][exec-move]") {
    struct Case {
        const char* instr;
        uint32_t regs;
        const char* says;
    };
    const Case cases[] = {
        {"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", 1,
         "x1 takes 2 registers, got 1 (.m16n16: two per matrix)"},
        {"ldmatrix.sync.aligned.m16n16.x1.shared.b8", 2, "ldmatrix .m16n16 requires .trans"},
        {"ldmatrix.sync.aligned.m16n16.x4.trans.shared.b8", 8, "ldmatrix .m16n16 takes .x1 or .x2"},
        {"ldmatrix.sync.aligned.m8n16.x1.trans.shared.b8x16.b6x16_p32", 1, "ldmatrix .m8n16 takes no .trans"},
        {"ldmatrix.sync.aligned.m8n16.x1.shared.b8", 1,
         "ldmatrix .m8n16 needs .b8x16.b6x16_p32 or .b8x16.b4x16_p64"},
        {"stmatrix.sync.aligned.m16n8.x1.shared.b8", 1, "stmatrix .m16n8 requires .trans"},
    };
    for (const Case& c : cases) {
        DYNAMIC_SECTION(c.instr) {
            const bool st = std::string(c.instr).rfind("stmatrix", 0) == 0;
            CHECK(ptxasVerdict(kernel(c.instr, c.regs, st), "sm_100a").value_or("refused") != "");
            std::vector<uint8_t> in = tileBytes();
            in.resize(kTile + 32 * 4 * c.regs);
            auto r = run(kernel(c.instr, c.regs, st), in, 1024);
            REQUIRE_FALSE(r);
            CHECK_THAT(r.error().message, Catch::Contains(c.says));
            CHECK_THAT(r.error().message, Catch::Contains("§9.7.14.5.15-16"));
        }
    }
}
