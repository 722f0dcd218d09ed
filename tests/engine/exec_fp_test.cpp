// Executor: floating-point arithmetic and cvt, against values derived by hand from IEEE 754 and the
// PTX ISA 9.2 rounding rules (§9.7.3 floating point, §9.7.4 half precision, §9.7.9.21 cvt). Each
// rounding case is a tie or a value one bit past representable, so the expected bits follow from the
// mode alone.
#include "exec_test_util.hpp"

using namespace exectest;

TEST_CASE("exec: f32/f64 arithmetic with rounding modes, fused fma, special values", "[exec]") {
    const auto w = runBody(R"(
add.rn.f32 %f1, 0f3F800000, 0f33800000;   st.global.f32 [%rd0+0], %f1;
add.rp.f32 %f2, 0f3F800000, 0f30800000;   st.global.f32 [%rd0+8], %f2;
add.rm.f32 %f3, 0fBF800000, 0fB0800000;   st.global.f32 [%rd0+16], %f3;
add.rz.f32 %f4, 0f3F800000, 0f33FFFFFF;   st.global.f32 [%rd0+24], %f4;
add.rn.f32 %f5, 0f3F800000, 0f33FFFFFF;   st.global.f32 [%rd0+32], %f5;
fma.rn.f32 %f6, 0f3F800800, 0f3F800800, 0fBF801000;  st.global.f32 [%rd0+40], %f6;
mul.rn.f32 %f7, 0f3F800800, 0f3F800800;
add.rn.f32 %f7, %f7, 0fBF801000;          st.global.f32 [%rd0+48], %f7;
div.rn.f32 %f8, 0f3F800000, 0f40400000;   st.global.f32 [%rd0+56], %f8;
sqrt.rn.f32 %f9, 0f40000000;              st.global.f32 [%rd0+64], %f9;
rcp.rn.f32 %f10, 0f40400000;              st.global.f32 [%rd0+72], %f10;
div.rn.f64 %fd1, 0d3FF0000000000000, 0d4008000000000000;  st.global.f64 [%rd0+80], %fd1;
min.f32 %f11, 0f7FC00000, 0f40000000;     st.global.f32 [%rd0+88], %f11;
max.f32 %f12, 0f7FC00000, 0f7FC00000;     st.global.f32 [%rd0+96], %f12;
neg.f32 %f13, 0f3F800000;                 st.global.f32 [%rd0+104], %f13;
abs.f32 %f14, 0fC0000000;                 st.global.f32 [%rd0+112], %f14;
add.sat.f32 %f15, 0f3F400000, 0f3F000000; st.global.f32 [%rd0+120], %f15;
mul.rz.f32 %f1, 0f3F800001, 0f3F800001;   st.global.f32 [%rd0+128], %f1;
mul.rp.f32 %f2, 0f3F800001, 0f3F800001;   st.global.f32 [%rd0+136], %f2;
add.ftz.f32 %f3, 0f00000001, 0f00000000;  st.global.f32 [%rd0+144], %f3;
add.f32 %f4, 0f00000001, 0f00000000;      st.global.f32 [%rd0+152], %f4;
add.rn.f64 %fd2, 0d3FF0000000000000, 0d3CA0000000000000;  st.global.f64 [%rd0+160], %fd2;
fma.rn.f64 %fd3, 0d3FF0000000000001, 0d3FF0000000000001, 0dBFF0000000000002;  st.global.f64 [%rd0+168], %fd3;
)");
    CHECK(w[0] == 0x3F800000u); // 1 + 2^-24: a tie, to even (1.0)
    CHECK(w[1] == 0x3F800001u); // 1 + 2^-30 rounded up
    CHECK(w[2] == 0xBF800001u); // -1 - 2^-30 rounded down
    CHECK(w[3] == 0x3F800000u); // 1 + (2^-23 - 2^-47) toward zero
    CHECK(w[4] == 0x3F800001u); // ... to nearest
    CHECK(w[5] == 0x33800000u); // fused: (1+2^-12)^2 - (1+2^-11) = 2^-24 exactly
    CHECK(w[6] == 0u);          // unfused: the product's tie rounds to 1+2^-11 first
    CHECK(w[7] == 0x3EAAAAABu); // 1/3
    CHECK(w[8] == 0x3FB504F3u); // sqrt(2)
    CHECK(w[9] == 0x3EAAAAABu); // 1/3
    CHECK(w[10] == 0x3FD5555555555555ull);
    CHECK(w[11] == 0x40000000u); // min(NaN, 2) = 2
    CHECK(w[12] == 0x7FFFFFFFu); // both NaN: the canonical NaN
    CHECK(w[13] == 0xBF800000u);
    CHECK(w[14] == 0x40000000u);
    CHECK(w[15] == 0x3F800000u);           // 1.25 saturates to 1.0
    CHECK(w[16] == 0x3F800002u);           // (1+2^-23)^2 = 1 + 2^-22 + 2^-46 toward zero
    CHECK(w[17] == 0x3F800003u);           // ... up
    CHECK(w[18] == 0u);                    // .ftz flushes the subnormal input
    CHECK(w[19] == 1u);                    // without .ftz, subnormals are kept (sm_20+)
    CHECK(w[20] == 0x3FF0000000000000ull); // 1 + 2^-53: a tie, to even
    CHECK(w[21] == 0x3970000000000000ull); // (1+2^-52)^2 - (1+2^-51) = 2^-104 exactly
}

TEST_CASE("exec: half precision (f16, f16x2, bf16) arithmetic", "[exec]") {
    const auto w = runBody(R"(
mov.b32 %r1, 0x40003C00;
mov.b32 %r2, 0x34003800;
add.rn.f16x2 %r3, %r1, %r2;               st.global.u32 [%rd0+0], %r3;
mov.b16 %h1, 0x3C00;
mov.b16 %h2, 0x1000;
add.rn.f16 %h3, %h1, %h2;                 st.global.u16 [%rd0+8], %h3;
mov.b16 %h4, 0x3C01;
mul.rn.f16 %h5, %h4, %h4;                 st.global.u16 [%rd0+16], %h5;
fma.rn.f16 %h6, %h4, %h4, 0xBC02;         st.global.u16 [%rd0+24], %h6;
mov.b16 %h7, 0x3F80;
add.rn.bf16 %h8, %h7, %h7;                st.global.u16 [%rd0+32], %h8;
)");
    CHECK(w[0] == 0x40803E00u); // (1.0, 2.0) + (0.5, 0.25) = (1.5, 2.25), low half first
    CHECK(w[1] == 0x3C00u);     // 1 + 2^-11: a tie, to even
    CHECK(w[2] == 0x3C02u);     // (1+2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9
    CHECK(w[3] == 0x0010u);     // fused: (1+2^-10)^2 - (1+2^-9) = 2^-20 = 16 f16 subnormal steps (unfused: 0)
    CHECK(w[4] == 0x4000u);     // bf16 1.0 + 1.0 = 2.0
}

TEST_CASE("exec: cvt between integers, floats, f16 and bf16 with every rounding mode", "[exec]") {
    const auto w = runBody(R"(
mov.u32 %r1, -5;
cvt.s64.s32 %rd1, %r1;                    st.global.u64 [%rd0+0], %rd1;
cvt.u64.u32 %rd2, %r1;                    st.global.u64 [%rd0+8], %rd2;
mov.u32 %r2, 0x1FF;
cvt.s32.s8 %r3, %r2;                      st.global.u32 [%rd0+16], %r3;
cvt.sat.u8.s32 %r4, %r1;                  st.global.u32 [%rd0+24], %r4;
cvt.sat.u8.s32 %r5, 300;                  st.global.u32 [%rd0+32], %r5;
cvt.rzi.s32.f32 %r6, 0fC02CCCCD;          st.global.u32 [%rd0+40], %r6;
cvt.rni.s32.f32 %r7, 0f40200000;          st.global.u32 [%rd0+48], %r7;
cvt.rni.s32.f32 %r8, 0f40600000;          st.global.u32 [%rd0+56], %r8;
cvt.rmi.s32.f32 %r9, 0fC0066666;          st.global.u32 [%rd0+64], %r9;
cvt.rpi.s32.f32 %r10, 0f40066666;         st.global.u32 [%rd0+72], %r10;
cvt.rzi.s32.f32 %r11, 0f4F32D05E;         st.global.u32 [%rd0+80], %r11;
cvt.rzi.s32.f32 %r12, 0f7FC00000;         st.global.u32 [%rd0+88], %r12;
cvt.rn.f32.s32 %f1, 16777217;             st.global.f32 [%rd0+96], %f1;
cvt.rp.f32.s32 %f2, 16777217;             st.global.f32 [%rd0+104], %f2;
mov.u64 %rd3, -1;
cvt.rn.f32.u64 %f3, %rd3;                 st.global.f32 [%rd0+112], %f3;
cvt.rz.f32.u64 %f4, %rd3;                 st.global.f32 [%rd0+120], %f4;
cvt.rn.f16.f32 %h1, 0f3F801000;           st.global.u16 [%rd0+128], %h1;
cvt.rn.f16.f32 %h2, 0f3F803000;           st.global.u16 [%rd0+136], %h2;
cvt.rz.f16.f32 %h3, 0f3F803000;           st.global.u16 [%rd0+144], %h3;
cvt.rn.f16.f32 %h4, 0f477FF000;           st.global.u16 [%rd0+152], %h4;
cvt.rz.f16.f32 %h5, 0f49742400;           st.global.u16 [%rd0+160], %h5;
mov.b16 %h6, 0x3555;
cvt.f32.f16 %f5, %h6;                     st.global.f32 [%rd0+168], %f5;
cvt.rn.bf16.f32 %h7, 0f3F808000;          st.global.u16 [%rd0+176], %h7;
cvt.rn.bf16.f32 %h8, 0f3F818000;          st.global.u16 [%rd0+184], %h8;
cvt.rn.f32.f64 %f6, 0d3FF0000010000000;   st.global.f32 [%rd0+192], %f6;
cvt.rn.f32.f64 %f7, 0d3FF0000030000000;   st.global.f32 [%rd0+200], %f7;
cvt.sat.f32.f32 %f8, 0f3FC00000;          st.global.f32 [%rd0+208], %f8;
cvt.sat.f32.f32 %f9, 0fC0000000;          st.global.f32 [%rd0+216], %f9;
cvt.rni.f32.f32 %f10, 0f40200000;         st.global.f32 [%rd0+224], %f10;
cvt.f64.f32 %fd1, 0f3DCCCCCD;             st.global.f64 [%rd0+232], %fd1;
cvt.rzi.u32.f32 %r13, 0fC0000000;         st.global.u32 [%rd0+240], %r13;
cvt.rn.f16.f32 %h9, 0f33000000;           st.global.u16 [%rd0+248], %h9;
)");
    CHECK(w[0] == 0xFFFFFFFFFFFFFFFBull); // sign-extended
    CHECK(w[1] == 0xFFFFFFFBull);         // zero-extended
    CHECK(w[2] == 0xFFFFFFFFu);           // low byte 0xFF as s8 = -1
    CHECK(w[3] == 0u);                    // -5 saturates to 0
    CHECK(w[4] == 255u);
    CHECK(w[5] == 0xFFFFFFFEu);            // -2.7 toward zero: -2
    CHECK(w[6] == 2u);                     // 2.5 to nearest even
    CHECK(w[7] == 4u);                     // 3.5 to nearest even
    CHECK(w[8] == 0xFFFFFFFDu);            // -2.1 down: -3
    CHECK(w[9] == 3u);                     // 2.1 up
    CHECK(w[10] == 0x7FFFFFFFu);           // 3e9 saturates (PTX: float -> int conversions saturate)
    CHECK(w[11] == 0u);                    // NaN -> 0
    CHECK(w[12] == 0x4B800000u);           // 2^24 + 1 to nearest (even): 2^24
    CHECK(w[13] == 0x4B800001u);           // ... up: 2^24 + 2
    CHECK(w[14] == 0x5F800000u);           // 2^64 - 1 to nearest: 2^64
    CHECK(w[15] == 0x5F7FFFFFu);           // ... toward zero
    CHECK(w[16] == 0x3C00u);               // 1 + 2^-11: tie to even
    CHECK(w[17] == 0x3C02u);               // 1 + 3*2^-11: tie to even
    CHECK(w[18] == 0x3C01u);               // ... toward zero
    CHECK(w[19] == 0x7C00u);               // 65520 ties up past 65504: +inf
    CHECK(w[20] == 0x7BFFu);               // 1e6 toward zero: the largest finite f16
    CHECK(w[21] == 0x3EAAA000u);           // f16 0x3555 = 0.333251953125 exactly
    CHECK(w[22] == 0x3F80u);               // bf16: 1 + 2^-8 tie to even
    CHECK(w[23] == 0x3F82u);               // 1 + 3*2^-8 tie to even
    CHECK(w[24] == 0x3F800000u);           // 1 + 2^-24 tie to even
    CHECK(w[25] == 0x3F800002u);           // 1 + 3*2^-24 tie to even
    CHECK(w[26] == 0x3F800000u);           // 1.5 saturates to 1
    CHECK(w[27] == 0u);                    // -2 saturates to 0
    CHECK(w[28] == 0x40000000u);           // 2.5 to nearest integral even: 2
    CHECK(w[29] == 0x3FB99999A0000000ull); // f32 0.1 widened exactly
    CHECK(w[30] == 0u);                    // -2 into u32 saturates to 0
    CHECK(w[31] == 0u);                    // 2^-25 is half the smallest f16 subnormal: tie to even (0)
}
