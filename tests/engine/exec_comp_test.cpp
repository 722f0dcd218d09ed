// Executor: the compute forms of issue 22 item 1 that nvcc/CUTLASS emit and the executor used to stop
// on: packed cvt (PTX ISA 9.2 §9.7.9.21: .f16x2/.bf16x2 from two .f32, .relu/.satfinite, .tf32, the
// fp8/fp6/fp4/ue8m0 pairs both ways) and f32/f64 arithmetic with directed rounding (§9.7.3). Expected
// values are derived by hand from the ISA's rules (the first source in the upper half; round to nearest
// even; .satfinite to the largest finite value) and, for the directed roundings, from the host FPU under
// <cfenv> rounding modes. Every kernel is accepted by ptxas (the last test, skipped without ptxas).
#include "exec_test_util.hpp"
#include "ptxas_path.hpp"

#include <array>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace exectest;

namespace {

std::string kernelText(const std::string& body, const std::string& target) {
    return ".version 8.7\n.target " + target +
           "\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"
           ".reg .b8 %b<8>;\n.reg .b16 %h<16>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n.reg .f32 %f<16>;\n"
           ".reg .f64 %fd<16>;\n.reg .pred %p<4>;\nld.param.u64 %rd0, [out];\n" +
           body + "\nret;\n}\n";
}

/// `body` run by one thread as the kernel of kernelText; the 64 u64 words of `out`.
std::vector<uint64_t> run(const std::string& body, const std::string& target = "sm_90a") {
    Launch l;
    l.block = {1, 1, 1};
    l.args.push_back(tensorArg<uint64_t>("out", "u64", std::vector<uint64_t>(64, 0)));
    auto r = runText(kernelText(body, target), l);
    if (!r) {
        FAIL(formatDiagnostic(r.error()));
        return {};
    }
    return values<uint64_t>(*r, "out");
}

/// The diagnostic of a run that must stop.
std::string failure(const std::string& body, const std::string& target = "sm_100a") {
    Launch l;
    l.block = {1, 1, 1};
    l.args.push_back(tensorArg<uint64_t>("out", "u64", std::vector<uint64_t>(64, 0)));
    auto r = runText(kernelText(body, target), l);
    REQUIRE_FALSE(r);
    return formatDiagnostic(r.error());
}

// The kernels of this file, for the ptxas check.
const std::string kHalfPairs = R"(
mov.b32 %f1, 0f3F800000;  mov.b32 %f2, 0fC0000000;            // 1.0, -2.0
cvt.rn.f16x2.f32 %r1, %f1, %f2;              st.global.u32 [%rd0+0], %r1;
mov.b32 %f3, 0f3F801000;  mov.b32 %f4, 0f3F803800;            // 1 + 2^-11 (a tie), 1 + 7*2^-12
cvt.rn.f16x2.f32 %r2, %f3, %f4;              st.global.u32 [%rd0+8], %r2;
cvt.rz.f16x2.f32 %r3, %f3, %f4;              st.global.u32 [%rd0+16], %r3;
mov.b32 %f5, 0f4788B800;  mov.b32 %f6, 0fFF800000;            // 70000, -Inf
cvt.rn.f16x2.f32 %r4, %f5, %f6;              st.global.u32 [%rd0+24], %r4;
cvt.rz.f16x2.f32 %r5, %f5, %f6;              st.global.u32 [%rd0+32], %r5;
cvt.rn.satfinite.f16x2.f32 %r6, %f5, %f6;    st.global.u32 [%rd0+40], %r6;
mov.b32 %f7, 0f7FC00000;  mov.b32 %f8, 0fC0400000;            // NaN, -3.0
cvt.rn.relu.f16x2.f32 %r7, %f7, %f8;         st.global.u32 [%rd0+48], %r7;
cvt.rn.relu.satfinite.f16x2.f32 %r8, %f8, %f1;  st.global.u32 [%rd0+56], %r8;
mov.b32 %f9, 0f3F808000;  mov.b32 %f10, 0f3F818000;           // 1 + 2^-8, 1 + 3*2^-8 (bf16 ties)
cvt.rn.bf16x2.f32 %r9, %f9, %f10;            st.global.u32 [%rd0+64], %r9;
mov.b32 %f11, 0f7F7FFFFF;                                     // the largest f32
cvt.rn.bf16x2.f32 %r10, %f11, %f11;          st.global.u32 [%rd0+72], %r10;
cvt.rz.bf16x2.f32 %r11, %f11, %f11;          st.global.u32 [%rd0+80], %r11;
cvt.rn.satfinite.bf16x2.f32 %r12, %f11, %f7; st.global.u32 [%rd0+88], %r12;
mov.b32 %f12, 0f40000000;                                     // 2.0
cvt.rn.satfinite.bf16.f32 %h1, %f12;         st.global.u16 [%rd0+96], %h1;
cvt.rn.relu.f16.f32 %h2, %f2;                st.global.u16 [%rd0+104], %h2;
cvt.rn.satfinite.f16.f32 %h3, %f5;           st.global.u16 [%rd0+112], %h3;
cvt.rna.satfinite.tf32.f32 %r13, %f3;        st.global.u32 [%rd0+120], %r13;
cvt.rn.tf32.f32 %r14, %f3;                   st.global.u32 [%rd0+128], %r14;
mov.b32 %f13, 0f3F801FFF;
cvt.rz.tf32.f32 %r15, %f13;                  st.global.u32 [%rd0+136], %r15;
cvt.rn.tf32.f32 %r16, %f11;                  st.global.u32 [%rd0+144], %r16;
)";

const std::string kFp8 = R"(
mov.b32 %f1, 0f3F800000;  mov.b32 %f2, 0fC0000000;            // 1.0, -2.0
cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;   st.global.u16 [%rd0+0], %h1;
mov.b32 %f3, 0f3F880000;  mov.b32 %f4, 0f3F980000;            // 1.0625, 1.1875: ties
cvt.rn.satfinite.e4m3x2.f32 %h2, %f3, %f4;   st.global.u16 [%rd0+8], %h2;
mov.b32 %f5, 0f43FA0000;  mov.b32 %f6, 0fFF800000;            // 500, -Inf
cvt.rn.satfinite.e4m3x2.f32 %h3, %f5, %f6;   st.global.u16 [%rd0+16], %h3;
mov.b32 %f7, 0f7FC00000;  mov.b32 %f8, 0f3A800000;            // NaN, 2^-10 (half the smallest subnormal)
cvt.rn.satfinite.e4m3x2.f32 %h4, %f7, %f8;   st.global.u16 [%rd0+24], %h4;
mov.b32 %f9, 0f3AC00000;  mov.b32 %f10, 0fB9800000;           // 1.5*2^-10, -2^-12
cvt.rn.satfinite.e4m3x2.f32 %h5, %f9, %f10;  st.global.u16 [%rd0+32], %h5;
cvt.rn.satfinite.relu.e4m3x2.f32 %h6, %f2, %f1;  st.global.u16 [%rd0+40], %h6;
mov.b32 %f11, 0f476A6000;                                     // 60000
cvt.rn.satfinite.e5m2x2.f32 %h7, %f1, %f11;  st.global.u16 [%rd0+48], %h7;
cvt.rn.satfinite.e5m2x2.f32 %h8, %f6, %f7;   st.global.u16 [%rd0+56], %h8;
mov.b32 %r1, 0x3C003C80;                                      // f16x2 {1.0, 1.125 (a tie)}
cvt.rn.satfinite.e5m2x2.f16x2 %h9, %r1;      st.global.u16 [%rd0+64], %h9;
mov.b32 %r2, 0x5F80BC00;                                      // f16x2 {480, -1.0}
cvt.rn.satfinite.e4m3x2.f16x2 %h10, %r2;     st.global.u16 [%rd0+72], %h10;
mov.b16 %h11, 0x38C0;
cvt.rn.f16x2.e4m3x2 %r3, %h11;               st.global.u32 [%rd0+80], %r3;
cvt.rn.relu.f16x2.e4m3x2 %r4, %h11;          st.global.u32 [%rd0+88], %r4;
mov.b16 %h12, 0x7F01;                                         // NaN, the smallest subnormal 2^-9
cvt.rn.f16x2.e4m3x2 %r5, %h12;               st.global.u32 [%rd0+96], %r5;
mov.b16 %h13, 0x7C3C;                                         // e5m2 +Inf, 1.0
cvt.rn.f16x2.e5m2x2 %r6, %h13;               st.global.u32 [%rd0+104], %r6;
)";

const std::string kNarrow100 = R"(
mov.b32 %f1, 0f3FC00000;  mov.b32 %f2, 0fC0C00000;            // 1.5, -6.0
cvt.rn.satfinite.e2m1x2.f32 %b1, %f1, %f2;   st.global.u8 [%rd0+0], %b1;
mov.b32 %f3, 0f40A00000;  mov.b32 %f4, 0f40200000;            // 5.0, 2.5: ties
cvt.rn.satfinite.e2m1x2.f32 %b2, %f3, %f4;   st.global.u8 [%rd0+8], %b2;
mov.b32 %f5, 0f7FC00000;  mov.b32 %f6, 0fC2C80000;            // NaN, -100
cvt.rn.satfinite.e2m1x2.f32 %b3, %f5, %f6;   st.global.u8 [%rd0+16], %b3;
mov.b32 %f7, 0f3F800000;  mov.b32 %f8, 0fBF800000;            // 1.0, -1.0
cvt.rn.satfinite.e2m3x2.f32 %h1, %f7, %f8;   st.global.u16 [%rd0+24], %h1;
mov.b32 %f9, 0f41E00000;  mov.b32 %f10, 0f42C80000;           // 28, 100
cvt.rn.satfinite.e3m2x2.f32 %h2, %f9, %f10;  st.global.u16 [%rd0+32], %h2;
cvt.rn.satfinite.relu.e2m3x2.f32 %h3, %f8, %f7;  st.global.u16 [%rd0+40], %h3;
mov.b32 %f11, 0f3F400000;                                     // 0.75
cvt.rz.satfinite.ue8m0x2.f32 %h4, %f1, %f11; st.global.u16 [%rd0+48], %h4;
cvt.rp.satfinite.ue8m0x2.f32 %h5, %f1, %f11; st.global.u16 [%rd0+56], %h5;
mov.b32 %f12, 0f7F800000;                                     // +Inf
cvt.rz.satfinite.ue8m0x2.f32 %h6, %f12, %f5; st.global.u16 [%rd0+64], %h6;
cvt.rz.ue8m0x2.f32 %h7, %f12, %f5;           st.global.u16 [%rd0+72], %h7;
mov.b32 %r1, 0x40403F80;                                      // bf16x2 {3.0, 1.0}
cvt.rp.satfinite.ue8m0x2.bf16x2 %h8, %r1;    st.global.u16 [%rd0+80], %h8;
mov.b16 %h9, 0x3F;
cvt.u8.u16 %b4, %h9;
cvt.rn.f16x2.e2m1x2 %r2, %b4;                st.global.u32 [%rd0+88], %r2;
mov.b16 %h10, 0x0828;
cvt.rn.f16x2.e2m3x2 %r3, %h10;               st.global.u32 [%rd0+96], %r3;
mov.b16 %h11, 0x1F0C;
cvt.rn.f16x2.e3m2x2 %r4, %h11;               st.global.u32 [%rd0+104], %r4;
mov.b16 %h12, 0x7F00;
cvt.rn.bf16x2.ue8m0x2 %r5, %h12;             st.global.u32 [%rd0+112], %r5;
mov.b16 %h13, 0xFF80;
cvt.rn.bf16x2.ue8m0x2 %r6, %h13;             st.global.u32 [%rd0+120], %r6;
cvt.rn.relu.f16x2.e2m1x2 %r7, %b4;           st.global.u32 [%rd0+128], %r7;
mov.b32 %f13, 0f7F7FFFFF;                                     // the largest f32
cvt.rn.satfinite.tf32.f32 %r8, %f13;         st.global.u32 [%rd0+136], %r8;   // .satfinite: sm_100
mov.b32 %r9, 0x3E00C600;                                      // f16x2 {1.5, -6.0}
cvt.rn.satfinite.e2m1x2.f16x2 %b5, %r9;      st.global.u8 [%rd0+144], %b5;
)";

const std::string kDirected = R"(
mov.f64 %fd1, 0d3FF0000000000001;  mov.f64 %fd2, 0d3FEFFFFFFFFFFFFF;   // 1 + 2^-52, 1 - 2^-53
mov.f64 %fd3, 0d0000000000000000;  mov.f64 %fd4, 0dBFF0000000000000;   // 0, -1
fma.rn.f64 %fd5, %fd1, %fd2, %fd3;   st.global.f64 [%rd0+0], %fd5;
fma.rz.f64 %fd5, %fd1, %fd2, %fd3;   st.global.f64 [%rd0+8], %fd5;
fma.rm.f64 %fd5, %fd1, %fd2, %fd3;   st.global.f64 [%rd0+16], %fd5;
fma.rp.f64 %fd5, %fd1, %fd2, %fd3;   st.global.f64 [%rd0+24], %fd5;
fma.rz.f64 %fd5, %fd1, %fd2, %fd4;   st.global.f64 [%rd0+32], %fd5;
mov.f64 %fd6, 0d3FF0000000000000;  mov.f64 %fd7, 0d4008000000000000;   // 1, 3
div.rz.f64 %fd8, %fd6, %fd7;         st.global.f64 [%rd0+40], %fd8;
div.rp.f64 %fd8, %fd6, %fd7;         st.global.f64 [%rd0+48], %fd8;
div.rm.f64 %fd8, %fd4, %fd7;         st.global.f64 [%rd0+56], %fd8;
rcp.rm.f64 %fd8, %fd7;               st.global.f64 [%rd0+64], %fd8;
rcp.rp.f64 %fd8, %fd7;               st.global.f64 [%rd0+72], %fd8;
mov.f64 %fd9, 0d4000000000000000;                                       // 2
sqrt.rz.f64 %fd10, %fd9;             st.global.f64 [%rd0+80], %fd10;
sqrt.rp.f64 %fd10, %fd9;             st.global.f64 [%rd0+88], %fd10;
mov.f64 %fd11, 0dB9B4484BFEEBC2A0;                                      // -1e-30
add.rz.f64 %fd12, %fd6, %fd11;       st.global.f64 [%rd0+96], %fd12;
add.rm.f64 %fd12, %fd6, %fd11;       st.global.f64 [%rd0+104], %fd12;
add.rp.f64 %fd12, %fd6, %fd11;       st.global.f64 [%rd0+112], %fd12;
mul.rp.f64 %fd12, %fd1, %fd1;        st.global.f64 [%rd0+120], %fd12;
mov.b32 %f1, 0f3F800000;  mov.b32 %f2, 0f8DA24260;                      // 1, -1e-30
add.rz.f32 %f3, %f1, %f2;            st.global.f32 [%rd0+128], %f3;
fma.rm.f32 %f4, %f1, %f1, %f2;       st.global.f32 [%rd0+136], %f4;
fma.rp.f32 %f4, %f1, %f1, %f2;       st.global.f32 [%rd0+144], %f4;
sqrt.rz.f64 %fd13, %fd4;             st.global.f64 [%rd0+152], %fd13;
div.rz.f64 %fd13, %fd6, %fd3;        st.global.f64 [%rd0+160], %fd13;
mov.f64 %fd14, 0d7FEFFFFFFFFFFFFF;                                      // the largest f64
fma.rz.f64 %fd15, %fd14, %fd9, %fd3; st.global.f64 [%rd0+168], %fd15;
fma.rp.f64 %fd15, %fd14, %fd9, %fd3; st.global.f64 [%rd0+176], %fd15;
sub.rm.f64 %fd15, %fd6, %fd6;        st.global.f64 [%rd0+184], %fd15;
sub.rz.f64 %fd15, %fd6, %fd6;        st.global.f64 [%rd0+192], %fd15;
)";

uint64_t f64bits(double d) {
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
}
double bitsf64(uint64_t b) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}

} // namespace

TEST_CASE("exec comp: cvt .f16x2/.bf16x2 from two .f32, .relu, .satfinite, .tf32", "[exec-comp]") {
    const auto w = run(kHalfPairs);
    CHECK(w[0] == 0x3C00C000u);  // d[31:16] = f16(a) = 1.0, d[15:0] = f16(b) = -2.0
    CHECK(w[1] == 0x3C003C02u);  // 1 + 2^-11 ties to the even 1.0; 1 + 7*2^-12 rounds up to 1 + 2^-9
    CHECK(w[2] == 0x3C003C01u);  // .rz truncates both: 1.0, 1 + 2^-10
    CHECK(w[3] == 0x7C00FC00u);  // 70000 overflows to +Inf; -Inf stays
    CHECK(w[4] == 0x7BFFFC00u);  // .rz: 70000 -> 65504 (the largest f16); -Inf stays -Inf
    CHECK(w[5] == 0x7BFFFBFFu);  // .satfinite: +-65504
    CHECK(w[6] == 0x7FFF0000u);  // .relu: NaN -> the canonical NaN, -3 -> 0
    CHECK(w[7] == 0x00003C00u);  // .relu.satfinite: -3 -> 0, 1.0
    CHECK(w[8] == 0x3F803F82u);  // bf16 ties to even: 1 + 2^-8 -> 1.0, 1 + 3*2^-8 -> 1 + 2^-6
    CHECK(w[9] == 0x7F807F80u);  // the largest f32 rounds up to bf16 +Inf
    CHECK(w[10] == 0x7F7F7F7Fu); // .rz: the largest bf16
    CHECK(w[11] == 0x7F7F7FFFu); // .satfinite: the largest bf16; NaN -> canonical NaN
    CHECK(w[12] == 0x4000u);     // .satfinite is not .sat: 2.0 stays 2.0 (bf16 0x4000)
    CHECK(w[13] == 0u);          // .relu: -2 -> 0
    CHECK(w[14] == 0x7BFFu);     // 70000 -> 65504
    CHECK(w[15] == 0x3F802000u); // tf32 .rna: 1 + 2^-11 ties away to 1 + 2^-10
    CHECK(w[16] == 0x3F800000u); // tf32 .rn: ties to even 1.0
    CHECK(w[17] == 0x3F800000u); // tf32 .rz: the low 13 bits dropped
    CHECK(w[18] == 0x7F800000u); // tf32 .rn: the largest f32 rounds up to +Inf
}

TEST_CASE("exec comp: cvt to and from .e4m3x2/.e5m2x2 (sm_89+)", "[exec-comp]") {
    const auto w = run(kFp8);
    CHECK(w[0] == 0x38C0u);      // d[15:8] = e4m3(1.0) = 0 0111 000, d[7:0] = e4m3(-2.0) = 1 1000 000
    CHECK(w[1] == 0x383Au);      // 1.0625 ties to 1.0 (0x38, even); 1.1875 ties to 1.25 (0x3A, even)
    CHECK(w[2] == 0x7EFEu);      // .satfinite: 500 -> 448 (0x7E), -Inf -> -448
    CHECK(w[3] == 0x7F00u);      // NaN -> 0x7F; 2^-10 (half of 2^-9) ties to even 0
    CHECK(w[4] == 0x0180u);      // 1.5 * 2^-10 -> 2^-9 (0x01); -2^-12 -> -0 (sign kept)
    CHECK(w[5] == 0x0038u);      // .relu: -2 -> 0, 1.0
    CHECK(w[6] == 0x3C7Bu);      // e5m2(1.0) = 0 01111 00; 60000 -> 57344 (0x7B)
    CHECK(w[7] == 0xFB7Fu);      // -Inf -> -57344; NaN -> 0x7F
    CHECK(w[8] == 0x3C3Cu);      // from f16x2: upper 1.0 -> 0x3C, lower 1.125 ties to even 1.0
    CHECK(w[9] == 0x7EB8u);      // from f16x2: 480 -> 448; -1.0 -> 0xB8
    CHECK(w[10] == 0x3C00C000u); // back to f16x2: 1.0, -2.0
    CHECK(w[11] == 0x3C000000u); // .relu: -2.0 -> 0
    CHECK(w[12] == 0x7FFF1800u); // NaN -> the canonical f16 NaN; 2^-9 = f16 0x1800
    CHECK(w[13] == 0x7C003C00u); // e5m2 +Inf -> f16 +Inf, 1.0
}

TEST_CASE("exec comp: cvt to and from .e2m1x2/.e2m3x2/.e3m2x2/.ue8m0x2 (sm_100a)", "[exec-comp]") {
    const auto w = run(kNarrow100, "sm_100a");
    CHECK(w[0] == 0x3Fu);        // d[7:4] = e2m1(1.5) = 0 01 1, d[3:0] = e2m1(-6) = 1 11 1
    CHECK(w[1] == 0x64u);        // 5 ties between 4 (6) and 6 (7): even 6; 2.5 between 2 (4) and 3 (5): 4
    CHECK(w[2] == 0x7Fu);        // NaN -> +6 (no NaN in e2m1, cuda_fp4.hpp); -100 -> -6
    CHECK(w[3] == 0x0828u);      // e2m3: 1.0 = 0 01 000; -1.0 = 1 01 000; bits 7:6 and 15:14 zero
    CHECK(w[4] == 0x1F1Fu);      // e3m2: 28 is the largest (0 111 11); 100 saturates to it
    CHECK(w[5] == 0x0008u);      // .relu: -1 -> 0
    CHECK(w[6] == 0x7F7Eu);      // ue8m0 .rz: floor(log2 1.5) = 0 -> 127, floor(log2 0.75) = -1 -> 126
    CHECK(w[7] == 0x807Fu);      // .rp: ceil(log2 1.5) = 1 -> 128, ceil(log2 0.75) = 0 -> 127
    CHECK(w[8] == 0xFEFFu);      // .satfinite: +Inf -> 0xFE; NaN -> 0xFF
    CHECK(w[9] == 0xFFFFu);      // no .satfinite: +Inf -> 0xFF
    CHECK(w[10] == 0x817Fu);     // from bf16x2 {3.0, 1.0} with .rp: 2 -> 129, 0 -> 127
    CHECK(w[11] == 0x3E00C600u); // e2m1x2 0x3F -> f16x2 {1.5, -6.0}
    CHECK(w[12] == 0x3C00BC00u); // e2m3x2 0x0828 -> {1.0, -1.0}
    CHECK(w[13] == 0x4F003C00u); // e3m2x2 0x1F0C -> {28 = f16 0 10011 11 0..., 1.0}
    CHECK(w[14] == 0x3F800040u); // ue8m0x2 {127, 0} -> bf16 {1.0, 2^-127 = 0x0040}
    CHECK(w[15] == 0x7FFF4000u); // ue8m0x2 {0xFF, 128} -> {NaN, 2.0}
    CHECK(w[16] == 0x3E000000u); // .relu: -6 -> 0
    CHECK(w[17] == 0x7F7FE000u); // tf32 .satfinite: the largest f32 -> the largest tf32
    CHECK(w[18] == 0x3Fu);       // e2m1x2 from f16x2: upper 1.5 -> 0x3, lower -6 -> 0xF
}

TEST_CASE("exec comp: malformed packed cvt forms stop with the rule they break", "[exec-comp]") {
    SECTION(".satfinite missing on an fp8 destination") {
        const auto d = failure("mov.b32 %f1, 0f3F800000;\ncvt.rn.e4m3x2.f32 %h1, %f1, %f1;");
        CHECK(d.find(".satfinite is mandatory") != std::string::npos);
        CHECK(d.find("§9.7.9.21") != std::string::npos);
    }
    SECTION("one source where the form takes two") {
        const auto d = failure("mov.b32 %f1, 0f3F800000;\ncvt.rn.satfinite.e4m3x2.f32 %h1, %f1;");
        CHECK(d.find("expects d, a, b") != std::string::npos);
    }
    SECTION("ue8m0 with round-to-nearest") {
        const auto d = failure("mov.b32 %f1, 0f3F800000;\ncvt.rn.ue8m0x2.f32 %h1, %f1, %f1;");
        CHECK(d.find(".rz or .rp") != std::string::npos);
    }
    SECTION("a 4-wide type without .rs (ptxas 13.0: Arguments mismatch; cvt.rs: exec_cvt_rs_test.cpp)") {
        const auto d = failure("cvt.rn.satfinite.e4m3x4.f32 %r1, {%f1, %f2, %f3, %f4};");
        CHECK(d.find("for the stochastic-rounding `cvt.rs` only") != std::string::npos);
    }
}

TEST_CASE("exec comp: f32/f64 fma, div, rcp, sqrt, add, mul with .rz/.rm/.rp are exact", "[exec-comp]") {
    const auto w = run(kDirected);
    // (1 + 2^-52)(1 - 2^-53) = 1 + 2^-53 - 2^-105: just below the midpoint of 1 and 1 + 2^-52
    CHECK(w[0] == 0x3FF0000000000000ull);  // .rn: 1
    CHECK(w[1] == 0x3FF0000000000000ull);  // .rz: 1
    CHECK(w[2] == 0x3FF0000000000000ull);  // .rm: 1
    CHECK(w[3] == 0x3FF0000000000001ull);  // .rp: 1 + 2^-52
    CHECK(w[4] == 0x3C9FFFFFFFFFFFFEull);  // minus 1: 2^-53 - 2^-105, exact
    CHECK(w[5] == 0x3FD5555555555555ull);  // 1/3 toward zero
    CHECK(w[6] == 0x3FD5555555555556ull);  // 1/3 up
    CHECK(w[7] == 0xBFD5555555555556ull);  // -1/3 down (away from zero)
    CHECK(w[8] == 0x3FD5555555555555ull);  // rcp.rm 3
    CHECK(w[9] == 0x3FD5555555555556ull);  // rcp.rp 3
    CHECK(w[10] == 0x3FF6A09E667F3BCCull); // sqrt(2) = 1.41421356237309504880 toward zero
    CHECK(w[11] == 0x3FF6A09E667F3BCDull); // and up (the RN value 1.4142135623730951455 is above)
    CHECK(w[12] == 0x3FEFFFFFFFFFFFFFull); // 1 - 1e-30 toward zero: the f64 just below 1
    CHECK(w[13] == 0x3FEFFFFFFFFFFFFFull); // down: the same
    CHECK(w[14] == 0x3FF0000000000000ull); // up: 1
    CHECK(w[15] == 0x3FF0000000000003ull); // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104 up: 1 + 3 * 2^-52
    CHECK(w[16] == 0x3F7FFFFFu);           // f32 1 - 1e-30 toward zero: just below 1
    CHECK(w[17] == 0x3F7FFFFFu);           // fma.rm: the same
    CHECK(w[18] == 0x3F800000u);           // fma.rp: 1
    CHECK(w[19] == 0x7FFFFFFFFFFFFFFFull); // sqrt(-1): the canonical NaN
    CHECK(w[20] == 0x7FF0000000000000ull); // 1/0 = +Inf in every mode
    CHECK(w[21] == 0x7FEFFFFFFFFFFFFFull); // overflow toward zero: the largest f64
    CHECK(w[22] == 0x7FF0000000000000ull); // overflow up: +Inf
    CHECK(w[23] == 0x8000000000000000ull); // x - x = -0 with .rm
    CHECK(w[24] == 0x0000000000000000ull); // and +0 otherwise
}

namespace {

// The host FPU's result of `op` under a <cfenv> rounding mode (volatile operands keep the compiler from
// folding it or moving it across fesetround).
double hostRounded(int mode, char op, double a, double b, double c) {
    volatile double va = a, vb = b, vc = c;
    volatile double r = 0;
    const int old = std::fegetround();
    std::fesetround(mode);
    switch (op) {
    case 'f':
        r = std::fma(va, vb, vc);
        break;
    case 'd':
        r = va / vb;
        break;
    case 's':
        r = std::sqrt(va);
        break;
    default:
        r = va + vb;
        break;
    }
    const double out = r;
    std::fesetround(old);
    return out;
}

} // namespace

TEST_CASE("exec comp: f64 directed fma/div/sqrt/add agree with the host FPU under <cfenv>", "[exec-comp]") {
    // operand triples spread over exponents and near ties: products just below/above a midpoint, sums
    // that cancel, subnormal results, operands 2^60 apart
    uint64_t s = 0x9E3779B97F4A7C15ull;
    auto next = [&]() {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        return s;
    };
    std::vector<std::array<double, 3>> cases = {
        {bitsf64(0x3FF0000000000001ull), bitsf64(0x3FEFFFFFFFFFFFFFull), 0.0},
        {1.0, 1.0, -1e-30},
        {3.0, 1.0 / 3.0, -1.0},
        {bitsf64(0x0010000000000001ull), 0.5, bitsf64(0x8000000000000001ull)},
        {1e300, 1e10, -1e300},
        {std::ldexp(1.0, 60), 1.0, 1.0},
    };
    for (int i = 0; i < 40; ++i) {
        auto pick = [&]() {
            const uint64_t r = next();
            const int e = int(r % 120) - 60; // exponents -60..59: mixed magnitudes, no overflow
            return std::ldexp(1.0 + double(r >> 12) * 0x1p-52, e) * ((r >> 11) & 1 ? -1 : 1);
        };
        cases.push_back({pick(), pick(), pick()});
    }
    std::string body;
    int slot = 0; // two cases per kernel: 2 x 3 modes x 4 ops = 24 of the 64 result words
    static const char* kModes[] = {"rz", "rm", "rp"};
    static const int kFe[] = {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    std::vector<uint64_t> expect;
    auto lit = [](double d) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0d%016llX", static_cast<unsigned long long>(f64bits(d)));
        return std::string(buf);
    };
    for (size_t k = 0; k < cases.size(); k += 2) {
        body.clear();
        expect.clear();
        slot = 0;
        for (size_t j = k; j < std::min(cases.size(), k + 2); ++j) {
            const auto& c = cases[j];
            body += "mov.f64 %fd1, " + lit(c[0]) + ";\nmov.f64 %fd2, " + lit(c[1]) + ";\nmov.f64 %fd3, " +
                    lit(c[2]) + ";\nabs.f64 %fd4, %fd1;\n";
            for (int mi = 0; mi < 3; ++mi) {
                const std::string md = kModes[mi];
                const std::pair<std::string, char> ops[] = {
                    {"fma." + md + ".f64 %fd5, %fd1, %fd2, %fd3", 'f'},
                    {"div." + md + ".f64 %fd5, %fd1, %fd2", 'd'},
                    {"sqrt." + md + ".f64 %fd5, %fd4", 's'},
                    {"add." + md + ".f64 %fd5, %fd1, %fd3", 'a'}};
                for (const auto& [text, op] : ops) {
                    body += text + ";\nst.global.f64 [%rd0+" + std::to_string(8 * slot++) + "], %fd5;\n";
                    const double b = op == 'a' ? c[2] : c[1];
                    expect.push_back(
                        f64bits(hostRounded(kFe[mi], op, op == 's' ? std::fabs(c[0]) : c[0], b, c[2])));
                }
            }
        }
        const auto w = run(body);
        for (size_t i = 0; i < expect.size(); ++i) {
            INFO("case " << k + i / 12 << " mode " << kModes[(i % 12) / 4] << " op "
                         << "fdsa"[i % 4]);
            CHECK(w[i] == expect[i]);
        }
    }
}

TEST_CASE("exec comp: ptxas accepts every kernel of these tests (skipped without ptxas)",
          "[exec-comp][ptxas]") {
    const std::string ptxas = layoutscope::test::findPtxas();
    if (ptxas.empty()) {
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas");
        return;
    }
    const std::pair<const std::string*, const char*> kernels[] = {
        {&kHalfPairs, "sm_90a"}, {&kFp8, "sm_90a"}, {&kNarrow100, "sm_100a"}, {&kDirected, "sm_90a"}};
    const auto dir = std::filesystem::temp_directory_path();
    int i = 0;
    for (const auto& [body, arch] : kernels) {
        const auto path = dir / ("layoutscope_exec_comp_" + std::to_string(i++) + ".ptx");
        std::ofstream(path) << kernelText(*body, arch);
        const std::string cmd =
            "'" + ptxas + "' -arch=" + arch + " '" + path.string() + "' -o /dev/null 2>&1";
        INFO(cmd);
        CHECK(std::system(cmd.c_str()) == 0);
        std::filesystem::remove(path);
    }
}
