// Executor: integer, bit, compare/select instructions, each against values derived by hand from the
// PTX ISA 9.2 definitions (§9.7.1, §9.7.3, §9.7.4, §9.7.7). One thread; results stored as words of `out`.
#include "exec_test_util.hpp"

using namespace exectest;

TEST_CASE("exec: integer arithmetic (add/sub/mul/mad/div/rem/abs/neg/min/max, carries)", "[exec]") {
    const auto w = runBody(R"(
mov.u32 %r1, 7;
mov.u32 %r2, -3;
mov.u32 %r10, -17;
sub.s32 %r4, %r2, %r1;            st.global.u32 [%rd0+0], %r4;
mul.lo.s32 %r5, %r2, %r1;         st.global.u32 [%rd0+8], %r5;
mul.hi.u32 %r6, %r2, %r1;         st.global.u32 [%rd0+16], %r6;
mul.hi.s32 %r7, %r2, %r1;         st.global.u32 [%rd0+24], %r7;
mul.wide.s32 %rd1, %r2, %r1;      st.global.u64 [%rd0+32], %rd1;
mul.wide.u32 %rd2, %r2, %r1;      st.global.u64 [%rd0+40], %rd2;
mad.lo.s32 %r8, %r1, %r1, %r2;    st.global.u32 [%rd0+48], %r8;
div.s32 %r9, %r10, 5;             st.global.u32 [%rd0+56], %r9;
rem.s32 %r11, %r10, 5;            st.global.u32 [%rd0+64], %r11;
div.u32 %r12, %r10, 5;            st.global.u32 [%rd0+72], %r12;
abs.s32 %r13, %r10;               st.global.u32 [%rd0+80], %r13;
neg.s32 %r14, %r1;                st.global.u32 [%rd0+88], %r14;
min.s32 %r15, %r1, %r2;           st.global.u32 [%rd0+96], %r15;
min.u32 %r16, %r1, %r2;           st.global.u32 [%rd0+104], %r16;
max.s32 %r17, %r1, %r2;           st.global.u32 [%rd0+112], %r17;
max.u32 %r18, %r1, %r2;           st.global.u32 [%rd0+120], %r18;
mul.hi.u64 %rd3, %rd2, %rd2;      st.global.u64 [%rd0+128], %rd3;
mul.lo.u64 %rd4, %rd2, %rd2;      st.global.u64 [%rd0+136], %rd4;
mov.u32 %r19, -1;
add.cc.u32 %r20, %r19, 1;         st.global.u32 [%rd0+144], %r20;
addc.u32 %r21, 0, 0;              st.global.u32 [%rd0+152], %r21;
sub.cc.u32 %r22, 0, 1;            st.global.u32 [%rd0+160], %r22;
subc.u32 %r23, 5, 0;              st.global.u32 [%rd0+168], %r23;
add.sat.s32 %r24, %r19, -2147483648;  st.global.u32 [%rd0+176], %r24;
mad.wide.u32 %rd5, %r19, %r19, %rd2;  st.global.u64 [%rd0+184], %rd5;
)");
    CHECK(w[0] == 0xFFFFFFF6u);           // -3 - 7 = -10
    CHECK(w[1] == 0xFFFFFFEBu);           // -21
    CHECK(w[2] == 6u);                    // 0xFFFFFFFD * 7 = 0x6_FFFFFFEB
    CHECK(w[3] == 0xFFFFFFFFu);           // high word of -21
    CHECK(w[4] == 0xFFFFFFFFFFFFFFEBull); // -21 as s64
    CHECK(w[5] == 0x6FFFFFFEBull);        // 4294967293 * 7
    CHECK(w[6] == 46u);                   // 7*7 - 3
    CHECK(w[7] == 0xFFFFFFFDu);           // -17 / 5 truncates to -3
    CHECK(w[8] == 0xFFFFFFFEu);           // -17 rem 5 = -2 (sign of the dividend)
    CHECK(w[9] == 858993455u);            // 4294967279 / 5
    CHECK(w[10] == 17u);
    CHECK(w[11] == 0xFFFFFFF9u);
    CHECK(w[12] == 0xFFFFFFFDu);
    CHECK(w[13] == 7u);
    CHECK(w[14] == 7u);
    CHECK(w[15] == 0xFFFFFFFDu);
    CHECK(w[16] == 0x30u);                                  // (0x6FFFFFFEB)^2 >> 64
    CHECK(w[17] == 0xFFFFFEDA000001B9ull);                  // (0x6FFFFFFEB)^2 mod 2^64
    CHECK(w[18] == 0u);                                     // 0xFFFFFFFF + 1 carries out
    CHECK(w[19] == 1u);                                     // the carry
    CHECK(w[20] == 0xFFFFFFFFu);                            // 0 - 1 borrows
    CHECK(w[21] == 4u);                                     // 5 - 0 - borrow
    CHECK(w[22] == 0x80000000u);                            // -1 + INT_MIN saturates to INT_MIN
    CHECK(w[23] == 0xFFFFFFFE00000001ull + 0x6FFFFFFEBull); // 0xFFFFFFFF^2 + rd2
}

TEST_CASE("exec: bit instructions (and/or/xor/not/shl/shr/bfe/bfi/prmt/popc/clz/brev/bfind)", "[exec]") {
    const auto w = runBody(R"(
mov.u32 %r1, 0xF0F01234;
and.b32 %r2, %r1, 0xFF00FF00;     st.global.u32 [%rd0+0], %r2;
or.b32 %r3, %r1, 0x0F;            st.global.u32 [%rd0+8], %r3;
xor.b32 %r4, %r1, -1;             st.global.u32 [%rd0+16], %r4;
not.b32 %r5, %r1;                 st.global.u32 [%rd0+24], %r5;
mov.u32 %r6, 0x80000000;
shr.s32 %r7, %r6, 4;              st.global.u32 [%rd0+32], %r7;
shr.u32 %r8, %r6, 4;              st.global.u32 [%rd0+40], %r8;
shl.b32 %r9, 1, 33;               st.global.u32 [%rd0+48], %r9;
shr.s32 %r10, %r6, 40;            st.global.u32 [%rd0+56], %r10;
bfe.u32 %r11, %r1, 4, 8;          st.global.u32 [%rd0+64], %r11;
bfe.s32 %r12, %r1, 28, 4;         st.global.u32 [%rd0+72], %r12;
bfi.b32 %r13, 0xAB, 0xFFFF0000, 8, 8;  st.global.u32 [%rd0+80], %r13;
prmt.b32 %r14, 0x33221100, 0x77665544, 0x7531;  st.global.u32 [%rd0+88], %r14;
prmt.b32 %r15, 0x332211F0, 0, 0x3218;           st.global.u32 [%rd0+96], %r15;
prmt.b32.f4e %r16, 0x33221100, 0x77665544, 1;   st.global.u32 [%rd0+104], %r16;
popc.b32 %r17, %r1;               st.global.u32 [%rd0+112], %r17;
clz.b32 %r18, 0x00F00000;         st.global.u32 [%rd0+120], %r18;
brev.b32 %r19, 0x12345678;        st.global.u32 [%rd0+128], %r19;
bfind.u32 %r20, 0x00F00000;       st.global.u32 [%rd0+136], %r20;
bfind.u32 %r21, 0;                st.global.u32 [%rd0+144], %r21;
mov.b64 %rd1, 0x8000000000000001;
shr.u64 %rd2, %rd1, 63;           st.global.u64 [%rd0+152], %rd2;
popc.b64 %r22, %rd1;              st.global.u32 [%rd0+160], %r22;
clz.b64 %r23, 1;                  st.global.u32 [%rd0+168], %r23;
)");
    CHECK(w[0] == 0xF0001200u);
    CHECK(w[1] == 0xF0F0123Fu);
    CHECK(w[2] == 0x0F0FEDCBu);
    CHECK(w[3] == 0x0F0FEDCBu);
    CHECK(w[4] == 0xF8000000u); // arithmetic shift keeps the sign
    CHECK(w[5] == 0x08000000u);
    CHECK(w[6] == 0u);          // shifts past the width give 0 (PTX ISA: clamped to the width)
    CHECK(w[7] == 0xFFFFFFFFu); // and all sign bits for shr.s32
    CHECK(w[8] == 0x23u);       // bits [4,12) of 0xF0F01234
    CHECK(w[9] == 0xFFFFFFFFu); // bits [28,32) = 0xF, sign-extended
    CHECK(w[10] == 0xFFFFAB00u);
    CHECK(w[11] == 0x77553311u); // bytes 1, 3, 5, 7 of {b, a}
    CHECK(w[12] == 0x332211FFu); // selector 8: byte 0 (0xF0) with its sign replicated
    CHECK(w[13] == 0x44332211u); // f4e, shift 1: bytes 1..4
    CHECK(w[14] == 13u);
    CHECK(w[15] == 8u);
    CHECK(w[16] == 0x1E6A2C48u);
    CHECK(w[17] == 23u);         // the most significant 1 of 0x00F00000 is bit 23
    CHECK(w[18] == 0xFFFFFFFFu); // no bit set
    CHECK(w[19] == 1u);
    CHECK(w[20] == 2u);
    CHECK(w[21] == 63u);
}

TEST_CASE("exec: setp (integer, float, .and/.or, p|q), selp, slct", "[exec]") {
    const auto w = runBody(R"(
mov.u32 %r1, 5;
mov.u32 %r2, -5;
setp.lt.s32 %p1, %r2, %r1;        selp.u32 %r3, 1, 0, %p1;  st.global.u32 [%rd0+0], %r3;
setp.lt.u32 %p2, %r2, %r1;        selp.u32 %r4, 1, 0, %p2;  st.global.u32 [%rd0+8], %r4;
setp.gt.and.s32 %p3, %r1, 0, %p2; selp.u32 %r5, 1, 0, %p3;  st.global.u32 [%rd0+16], %r5;
setp.gt.or.s32 %p4, %r1, 0, %p2;  selp.u32 %r6, 1, 0, %p4;  st.global.u32 [%rd0+24], %r6;
setp.eq.s32 %p5|%p6, %r1, 5;      selp.u32 %r7, 1, 0, %p5;  st.global.u32 [%rd0+32], %r7;
                                  selp.u32 %r8, 1, 0, %p6;  st.global.u32 [%rd0+40], %r8;
mov.f32 %f1, 0f7FC00000;
setp.lt.f32 %p1, %f1, 0f3F800000; selp.u32 %r9, 1, 0, %p1;  st.global.u32 [%rd0+48], %r9;
setp.ltu.f32 %p1, %f1, 0f3F800000; selp.u32 %r10, 1, 0, %p1; st.global.u32 [%rd0+56], %r10;
setp.nan.f32 %p1, %f1, %f1;       selp.u32 %r11, 1, 0, %p1; st.global.u32 [%rd0+64], %r11;
setp.ge.f32 %p1, 0f80000000, 0f00000000; selp.u32 %r12, 1, 0, %p1; st.global.u32 [%rd0+72], %r12;
slct.s32.f32 %r13, 1, 2, 0f80000000;  st.global.u32 [%rd0+80], %r13;
slct.s32.s32 %r14, 1, 2, %r2;         st.global.u32 [%rd0+88], %r14;
setp.hi.u32 %p2, %r2, %r1;        selp.u32 %r15, 1, 0, %p2; st.global.u32 [%rd0+96], %r15;
setp.ne.and.s32 %p3, %r1, 5, !%p2; selp.u32 %r16, 1, 0, %p3; st.global.u32 [%rd0+104], %r16;
)");
    CHECK(w[0] == 1);
    CHECK(w[1] == 0); // 0xFFFFFFFB > 5 unsigned
    CHECK(w[2] == 0); // true && false
    CHECK(w[3] == 1); // true || false
    CHECK(w[4] == 1);
    CHECK(w[5] == 0); // q = !p
    CHECK(w[6] == 0); // ordered compare with NaN is false
    CHECK(w[7] == 1); // unordered compare with NaN is true
    CHECK(w[8] == 1);
    CHECK(w[9] == 1);  // -0.0 >= +0.0
    CHECK(w[10] == 1); // slct: c = -0.0 >= 0 selects a
    CHECK(w[11] == 2); // c = -5 < 0 selects b
    CHECK(w[12] == 1); // hi: unsigned >
    CHECK(w[13] == 0); // (5 != 5) && !p2
}
