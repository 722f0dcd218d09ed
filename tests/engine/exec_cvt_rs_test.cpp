// Executor: cvt with stochastic rounding, `cvt.rs` (PTX ISA 9.2 §9.7.9.21 cvt, §6.5.2 Table 17: ".rs rounds
// either towards zero or away from zero based on the carry out of the integer addition of random bits and the
// discarded bits of mantissa"). Every expected code below is worked out by hand from the ISA text and the
// formats' definitions (f16: 10 stored significand bits, bf16: 7, e4m3: 3 with bias 7, e5m2: 2 with bias 15,
// e2m3: 3 with bias 1, e3m2: 2 with bias 3, e2m1: 1 with bias 1); the derivation is in each comment. The
// random value rides at the top of the discarded bits (exact for f16 and bf16: 13 and 16 bits; unverified for
// the narrower x4 forms, docs/exec.md). No Blackwell GPU checked these.
#include "exec_test_util.hpp"

#include <bit>
#include <cstdint>
#include <sstream>
#include <string>

using namespace exectest;

namespace {

struct RsCase {
    float a, b, e, f;
    uint32_t rbits;
    uint32_t expect;
};

// Thread i converts case i: {a, b, e, f} and rbits from `in` (5 words a case), d to out[i].
Result<ExecResult> rsRun(const std::string& instr, const std::vector<RsCase>& cases,
                         const std::string& target = "sm_100a") {
    const std::string ptx = ".version 8.7\n.target " + target + "\n.address_size 64\n" + R"(
.visible .entry k(.param .u64 in, .param .u64 out)
{
.reg .b32 %r<8>; .reg .f32 %f<8>; .reg .b64 %rd<8>; .reg .b16 %rs<4>;
ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd3, %r1, 20; add.s64 %rd4, %rd1, %rd3;
ld.global.f32 %f1, [%rd4]; ld.global.f32 %f2, [%rd4+4]; ld.global.f32 %f3, [%rd4+8]; ld.global.f32 %f4, [%rd4+12];
ld.global.u32 %r2, [%rd4+16];
mov.u32 %r3, 0;
)" + instr + R"(
mul.wide.u32 %rd5, %r1, 4; add.s64 %rd6, %rd2, %rd5;
st.global.u32 [%rd6], %r3;
ret;
})";
    std::vector<uint32_t> in;
    for (const RsCase& c : cases)
        for (const uint32_t w : {std::bit_cast<uint32_t>(c.a), std::bit_cast<uint32_t>(c.b),
                                 std::bit_cast<uint32_t>(c.e), std::bit_cast<uint32_t>(c.f), c.rbits})
            in.push_back(w);
    Launch l;
    l.block = {uint32_t(cases.size()), 1, 1};
    l.args = {tensorArg("in", "u32", in), tensorArg("out", "u32", std::vector<uint32_t>(cases.size(), 0))};
    return runText(ptx, l);
}

void rsCheck(const std::string& instr, const std::vector<RsCase>& cases) {
    auto r = rsRun(instr, cases);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto out = values<uint32_t>(*r, "out");
    for (size_t i = 0; i < cases.size(); ++i) {
        INFO("case " << i << ": rbits 0x" << std::hex << cases[i].rbits);
        CHECK(out[i] == cases[i].expect);
    }
}

float rsF(uint32_t bits) {
    return std::bit_cast<float>(bits);
}

const float rsInf = rsF(0x7F800000u), rsNaN = rsF(0x7FC00000u);

} // namespace

TEST_CASE("exec cvt.rs: f32 pairs to f16x2, 13 random bits per half", "[exec][cvt]") {
    // 1 + 2^-11 (0x3F801000): f16 keeps 1.0 (0x3C00, ulp 2^-10) and discards 13 bits holding 0x1000 (half an
    // ulp). 1 + 2^-23 (0x3F800001) discards 0x0001. a's random bits are rbits[28:16], b's rbits[12:0].
    const float half = rsF(0x3F801000u), tiny = rsF(0x3F800001u);
    SECTION(".satfinite") {
        rsCheck(
            "cvt.rs.satfinite.f16x2.f32 %r3, %f1, %f2, %r2;",
            {
                {half, tiny, 0, 0, 0x00000000u, 0x3C003C00u},  // rbits 0: truncation
                {half, tiny, 0, 0, 0x0FFF1FFEu, 0x3C003C00u},  // 0x1000 + 0x0FFF, 1 + 0x1FFE: no carry
                {half, tiny, 0, 0, 0x10001FFFu, 0x3C013C01u},  // 0x1000 + 0x1000 = 0x2000, 1 + 0x1FFF: carry
                {half, tiny, 0, 0, 0x1FFF1FFFu, 0x3C013C01u},  // all-ones: any discarded bit carries
                {half, tiny, 0, 0, 0xE000E000u, 0x3C003C00u},  // bits 15:13 of each half are not used
                {-half, 1.5f, 0, 0, 0x10000000u, 0xBC013E00u}, // away from zero is down; 1.5 exact
                {65520.0f, -65520.0f, 0, 0, 0x00000000u, 0x7BFFFBFFu}, // 65504 + half an ulp (32): truncated
                {65520.0f, rsInf, 0, 0, 0x10000000u, 0x7BFF7BFFu},     // carries to 65536: clamped; Inf too
                {rsNaN, -rsInf, 0, 0, 0, 0x7FFFFBFFu},                 // NaN -> 0x7fff; -Inf -> -max
                {rsF(0x33000000u), rsF(0x33000000u), 0, 0, 0x10000FFFu, 0x00010000u}, // 2^-25: half of the
                // smallest subnormal 2^-24 (0x0001): 0x1000 carries, 0x0FFF does not
            });
    }
    SECTION("without .satfinite: overflow away from zero is Inf, toward zero the largest finite value") {
        rsCheck("cvt.rs.f16x2.f32 %r3, %f1, %f2, %r2;",
                {
                    {65520.0f, 65520.0f, 0, 0, 0x10000000u, 0x7C007BFFu},
                    {rsInf, -rsInf, 0, 0, 0, 0x7C00FC00u},
                });
    }
    SECTION(".relu: negative results are +0") {
        rsCheck("cvt.rs.relu.satfinite.f16x2.f32 %r3, %f1, %f2, %r2;",
                {{-1.5f, half, 0, 0, 0x1FFF1000u, 0x00003C01u}, {rsNaN, -0.0f, 0, 0, 0, 0x7FFF0000u}});
    }
}

TEST_CASE("exec cvt.rs: f32 pairs to bf16x2, 16 random bits per half", "[exec][cvt]") {
    // 0x3F808000 = 1 + 2^-8: bf16 keeps 0x3F80 (ulp 2^-7) and discards 0x8000 (half an ulp); 0x3F80FFFF
    // discards 0xFFFF. a's random bits are rbits[31:16], b's rbits[15:0].
    const float half = rsF(0x3F808000u), most = rsF(0x3F80FFFFu), fmax = rsF(0x7F7FFFFFu);
    rsCheck("cvt.rs.satfinite.bf16x2.f32 %r3, %f1, %f2, %r2;",
            {
                {half, most, 0, 0, 0x7FFF0000u, 0x3F803F80u},  // 0x8000 + 0x7FFF: no carry; 0xFFFF + 0: none
                {half, most, 0, 0, 0x80000001u, 0x3F813F81u},  // 0x8000 + 0x8000 and 0xFFFF + 1 carry
                {fmax, rsNaN, 0, 0, 0x00010000u, 0x7F7F7FFFu}, // the largest f32 carries past bf16's: clamped
            });
    SECTION("without .satfinite") {
        rsCheck("cvt.rs.bf16x2.f32 %r3, %f1, %f2, %r2;", {{fmax, fmax, 0, 0, 0x00010000u, 0x7F807F7Fu}});
    }
}

TEST_CASE("exec cvt.rs: four f32 to e4m3x4 and e5m2x4", "[exec][cvt]") {
    // e4m3: 1.0 = 0x38, 1.125 = 0x39 (ulp 2^-3 at 1); 1.0625 discards half an ulp. f32 -> e4m3 discards 20
    // bits, the 16 random bits add at their top: 1 + 2^-23 discards 2^-20 of an ulp, which 0xFFFF (1 - 2^-16)
    // does not carry; 1 + 2^-19 discards 2^-16, which it does. a and b take rbits[31:16], e and f
    // rbits[15:0].
    const float half = 1.0625f;
    rsCheck("cvt.rs.satfinite.e4m3x4.f32 %r3, {%f1, %f2, %f3, %f4}, %r2;",
            {
                {half, half, half, half, 0x80000000u, 0x39393838u},
                {half, half, half, half, 0x00008000u, 0x38383939u},
                {half, -half, half, half, 0x7FFF7FFFu, 0x38B83838u},
                {rsF(0x3F800001u), rsF(0x3F800001u), rsF(0x3F800010u), rsF(0x3F800010u), 0xFFFFFFFFu,
                 0x38383939u},
                {464.0f, 464.0f, 500.0f, -500.0f, 0x00008000u, 0x7E7E7EFEu}, // 448 + half an ulp (32); beyond
                {rsNaN, rsInf, -rsInf, 0x1p-10f, 0x00008000u, 0x7F7EFE01u},  // 2^-10: half the subnormal 2^-9
            });
    SECTION("e5m2: 1.125 is half an ulp (2^-2) above 1.0 = 0x3C; 57344 = 0x7B is the largest") {
        rsCheck("cvt.rs.satfinite.e5m2x4.f32 %r3, {%f1, %f2, %f3, %f4}, %r2;",
                {{1.125f, 1.125f, 1.125f, 65536.0f, 0x80007FFFu, 0x3D3D3C7Bu},
                 {rsNaN, 0, -0.0f, 1.0f, 0, 0x7F00803Cu}});
    }
    SECTION(".relu") {
        rsCheck("cvt.rs.relu.satfinite.e4m3x4.f32 %r3, {%f1, %f2, %f3, %f4}, %r2;",
                {{-1.0f, half, -500.0f, 1.0f, 0xFFFF0000u, 0x00390038u}});
    }
}

TEST_CASE("exec cvt.rs: four f32 to e2m3x4, e3m2x4 and e2m1x4", "[exec][cvt]") {
    SECTION("e2m3 (1.0 = 0x08, ulp 1/8 at 1; 7.5 = 0x1F the largest; no NaN: +max)") {
        rsCheck("cvt.rs.satfinite.e2m3x4.f32 %r3, {%f1, %f2, %f3, %f4}, %r2;",
                {{1.0625f, -1.0625f, 7.75f, rsNaN, 0x80008000u, 0x09291F1Fu},
                 {1.0625f, -1.0625f, 7.75f, 0.0625f, 0x00007FFFu, 0x08281F00u}}); // 0.0625: half of 0.125
    }
    SECTION("e3m2 (1.0 = 0x0C, ulp 1/4 at 1; 28 = 0x1F the largest)") {
        rsCheck("cvt.rs.satfinite.e3m2x4.f32 %r3, {%f1, %f2, %f3, %f4}, %r2;",
                {{1.125f, 1.125f, 30.0f, -rsInf, 0x80000000u, 0x0D0D1F3Fu}});
    }
    SECTION("e2m1 (1.0 = 0x2, 1.5 = 0x3, 6 = 0x7): a takes rbits[31:24], b [15:8], e [23:16], f [7:0]") {
        // 1.25 is half an ulp (0.5) above 1.0: a byte of 0x80 carries, 0x7F does not.
        const std::string cvt =
            "cvt.rs.satfinite.e2m1x4.f32 %rs1, {%f1, %f2, %f3, %f4}, %r2; cvt.u32.u16 %r3, %rs1;";
        rsCheck(cvt, {
                         {1.25f, 1.25f, 1.25f, 1.25f, 0x80000000u, 0x3222u},
                         {1.25f, 1.25f, 1.25f, 1.25f, 0x00008000u, 0x2322u},
                         {1.25f, 1.25f, 1.25f, 1.25f, 0x00800000u, 0x2232u},
                         {1.25f, 1.25f, 1.25f, 1.25f, 0x00000080u, 0x2223u},
                         {1.25f, 1.25f, 1.25f, 1.25f, 0x7F7F7F7Fu, 0x2222u},
                         {7.0f, -7.0f, rsNaN, 0.25f, 0x80808080u, 0x7F71u}, // 7 = 6 + half of ulp 2: clamped;
                         // NaN: +max; 0.25 is half the subnormal 0.5 (0x1)
                     });
    }
}

TEST_CASE("exec cvt.rs: forms ptxas 13.0 refuses stop the run naming the rule", "[exec][cvt]") {
    const std::vector<RsCase> one{{1.0f, 1.0f, 1.0f, 1.0f, 0, 0}};
    auto stops = [&](const std::string& instr, const std::string& why,
                     const std::string& target = "sm_100a") {
        auto r = rsRun(instr, one, target);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains(why));
    };
    SECTION("an x4 destination without .satfinite (ptxas: '.satfinite' modifier required)") {
        stops("cvt.rs.e4m3x4.f32 %r3, {%f1, %f2, %f3, %f4}, %r2;", ".satfinite is mandatory");
    }
    SECTION("a target other than sm_100a / sm_103a (ptxas: Feature '.rs' not supported)") {
        stops("cvt.rs.satfinite.e4m3x4.f32 %r3, {%f1, %f2, %f3, %f4}, %r2;",
              "needs .target sm_100a or sm_103a", "sm_90a");
    }
    SECTION("a scalar or 2-wide destination, an x4 form without .rs (ptxas: Arguments mismatch)") {
        stops("cvt.rs.f16.f32 %rs1, %f1, %r2;", "converts .f32 to .f16x2, .bf16x2");
        stops("cvt.rs.satfinite.e4m3x2.f32 %rs1, %f1, %f2, %r2;", "converts .f32 to .f16x2, .bf16x2");
        stops("cvt.rn.satfinite.e4m3x4.f32 %r3, {%f1, %f2, %f3, %f4};",
              "for the stochastic-rounding `cvt.rs` only");
    }
    SECTION("PTX ISA before 8.7 (ptxas: Feature '.rs' requires PTX ISA .version 8.7 or later)") {
        Launch l;
        l.block = {1, 1, 1};
        auto r = runText(".version 8.6\n.target sm_100a\n.address_size 64\n.visible .entry k() {\n.reg .b32 "
                         "%r<4>; .reg .f32 %f<4>;\ncvt.rs.f16x2.f32 %r1, %f1, %f2, %r2;\nret;\n}\n",
                         l);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("needs PTX ISA .version 8.7 or later"));
    }
    SECTION("rbits an immediate (ptxas: Arguments mismatch)") {
        stops("cvt.rs.satfinite.f16x2.f32 %r3, %f1, %f2, 7;", "rbits must be a .b32 register");
    }
    SECTION(".rs on another instruction") {
        stops("add.rs.f32 %f5, %f1, %f2;", "modifier `.rs` is not modelled");
    }
}

TEST_CASE("exec cvt.rs: the executor runs exactly the forms ptxas 13.0 accepts", "[exec][cvt]") {
    // tests/data/exec/cvt_rs/verdicts.tsv: ptxas's verdict on each form (gen_verdicts.sh, the same kernel
    // around each instruction). A form ptxas accepts must run; one it refuses must stop the run.
    const std::string tsv = readData("cvt_rs/verdicts.tsv");
    REQUIRE_FALSE(tsv.empty());
    size_t accepted = 0, refused = 0;
    std::istringstream lines(tsv);
    for (std::string line; std::getline(lines, line);) {
        const size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
        REQUIRE(t2 != std::string::npos);
        const std::string target = line.substr(0, t1), verdict = line.substr(t1 + 1, t2 - t1 - 1);
        const std::string instr = line.substr(t2 + 1);
        const std::string ptx =
            ".version 9.0\n.target " + target +
            "\n.address_size 64\n.visible .entry k() {\n.reg .b32 %r<8>; .reg .b16 %rs<4>; "
            ".reg .f32 %f<8>; .reg .b64 %rd<4>;\n" +
            instr + "\nret;\n}\n";
        Launch l;
        l.block = {1, 1, 1};
        auto r = runText(ptx, l);
        INFO(target << ": " << instr << " (ptxas: " << verdict << ")");
        if (!r) INFO("executor: " << r.error().message);
        CHECK(bool(r) == (verdict == "ok"));
        ++(verdict == "ok" ? accepted : refused);
    }
    CHECK(accepted == 17);
    CHECK(refused == 22);
}
