// Executor: ld / st with memory orders and cache operators, and atom / red with their f16 / bf16 forms, on
// shared memory (PTX ISA 9.2 §9.7.9.8 ld, §9.7.9.10 st, §9.7.13.5 atom, §9.7.13.6 red). Expected values are
// derived by hand from the ISA: the orders and cache operators change nothing in a one-order executor (a
// weak access and a .relaxed/.acquire/.release one read and write the same bytes); `.add.noftz` of f16 and
// bf16 rounds to nearest even and keeps subnormals, each half of an .x2 alone; the lanes of a warp apply
// their atomics in lane order (the executor's documented order).
#include "exec_test_util.hpp"

using namespace exectest;

namespace {

const char* kOrderedKernel = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
.reg .pred %p<4>; .reg .b16 %h<16>; .reg .b32 %r<40>; .reg .b64 %rd<8>;
.shared .align 16 .b8 buf[64];
ld.param.u64 %rd0, [out];
mov.u32 %r1, %tid.x;
setp.eq.u32 %p1, %r1, 0;
@%p1 st.release.cta.shared.b16 [buf+0], 0x3C00;
@%p1 st.shared.wb.b32 [buf+4], 0xC0003C00;
@%p1 st.volatile.shared.b16 [buf+8], 0x6800;
@%p1 st.relaxed.gpu.shared::cta.b16 [buf+10], 0x3F80;
@%p1 st.weak.shared.b16 [buf+12], 0x0001;
@%p1 st.shared.cs.b32 [buf+16], 0x40003F80;
@%p1 st.shared.wt.u32 [buf+20], 0;
@%p1 st.shared.cg.u32 [buf+24], 0;
@%p1 st.shared.b16 [buf+28], 5;
bar.sync 0;
mov.b16 %h1, 0x3800;
atom.shared.add.noftz.f16 %h2, [buf+0], %h1;
atom.relaxed.cta.shared.add.u32 %r2, [buf+20], 1;
atom.acq_rel.gpu.shared.inc.u32 %r3, [buf+24], 7;
atom.shared::cta.cas.b16 %h3, [buf+28], 5, 9;
mov.b32 %r30, 0xBF803F80;
red.release.cta.shared.add.noftz.bf16x2 [buf+16], %r30;
mov.b32 %r31, 0x34003800;
@%p1 atom.shared.add.noftz.f16x2 %r4, [buf+4], %r31;
mov.b16 %h6, 0x3C00;
mov.b16 %h7, 0x4200;
mov.b16 %h8, 0x3B80;
mov.b16 %h9, 0x3C40;
mov.b16 %h10, 0x0001;
@%p1 red.shared.add.noftz.f16 [buf+8], %h6;
@%p1 red.shared.add.noftz.f16 [buf+8], %h7;
@%p1 atom.acquire.cta.shared.add.noftz.bf16 %h4, [buf+10], %h8;
@%p1 atom.shared.add.noftz.bf16 %h5, [buf+10], %h9;
@%p1 red.relaxed.sys.shared.add.noftz.f16 [buf+12], %h10;
bar.sync 0;
cvt.u32.u16 %r10, %h2;
cvt.u32.u16 %r11, %h3;
ld.shared.relaxed.cta.u32 %r12, [buf+20];
ld.volatile.shared.b32 %r13, [buf+24];
ld.acquire.cluster.shared.b32 %r14, [buf+4];
ld.shared.cg.b32 %r15, [buf+8];
ld.weak.shared.lu.b32 %r16, [buf+12];
ld.shared::cta.ca.v2.b32 {%r17, %r18}, [buf+16];
mul.wide.u32 %rd1, %r1, 48;
add.s64 %rd2, %rd0, %rd1;
st.global.v4.u32 [%rd2], {%r10, %r2, %r3, %r11};
st.global.v4.u32 [%rd2+16], {%r12, %r13, %r14, %r15};
st.global.v4.u32 [%rd2+32], {%r16, %r17, %r18, %r4};
ret;
})";

} // namespace

TEST_CASE("exec: ordered and cached ld/st and f16/bf16 atomics on shared memory", "[exec][atom]") {
    Launch l;
    l.block = {32, 1, 1};
    l.args.push_back(tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(32 * 12, 0)));
    auto r = runText(kOrderedKernel, l);
    if (!r) UNSCOPED_INFO(formatDiagnostic(r.error()));
    REQUIRE(r);
    const auto v = values<uint32_t>(*r, "out");
    SECTION("atom.add.noftz.f16 by 32 lanes returns 1 + 0.5 t") {
        // f16 1.0 = 0x3C00, 1.5 = 0x3E00, 2.0 = 0x4000, 2.5 = 0x4100, 16.5 = 2^4 * 1.03125 = 0x4C20
        CHECK(v[0 * 12] == 0x3C00);
        CHECK(v[1 * 12] == 0x3E00);
        CHECK(v[2 * 12] == 0x4000);
        CHECK(v[3 * 12] == 0x4100);
        CHECK(v[31 * 12] == 0x4C20);
    }
    SECTION("integer atomics with orders: lane order") {
        for (uint32_t t = 0; t < 32; ++t) {
            CHECK(v[t * 12 + 1] == t);                // add.u32 returns the running count
            CHECK(v[t * 12 + 2] == t % 8);            // inc wraps to 0 past 7
            CHECK(v[t * 12 + 3] == (t == 0 ? 5 : 9)); // cas.b16: lane 0 swaps 5 -> 9
            CHECK(v[t * 12 + 4] == 32);               // ld.relaxed.cta after bar.sync: 32 adds
            CHECK(v[t * 12 + 5] == 0);                // 32 incs modulo 8
        }
    }
    SECTION("f16x2: each half rounds alone") {
        // {lo 1.0, hi -2.0} + {lo 0.5, hi 0.25} = {lo 1.5 = 0x3E00, hi -1.75 = 0xBF00}; the old value is
        // returned
        CHECK(v[0 * 12 + 11] == 0xC0003C00u);
        CHECK(v[5 * 12 + 6] == 0xBF003E00u);
    }
    SECTION("round to nearest even, subnormals kept") {
        // f16 2048 (0x6800) + 1: 2049 is the midpoint of 2048 and 2050 -> even 2048; + 3: 2051 is the
        // midpoint of 2050 and 2052 -> even 2052 = 0x6802. bf16 1.0 (0x3F80) + 2^-8 -> tie -> 1.0; + 3 * 2^-8
        // (0x3C40): 1 + 3/256 is the midpoint of 1 + 2/256 and 1 + 4/256 -> even 1 + 4/256 = 0x3F82. f16
        // 0x0001 + 0x0001 = 0x0002 (not flushed: .noftz).
        CHECK(v[7 * 12 + 7] == (0x3F82u << 16 | 0x6802u));
        CHECK((v[7 * 12 + 8] & 0xFFFF) == 0x0002);
    }
    SECTION("red.add.noftz.bf16x2 by 32 lanes") {
        // lo 1.0 + 32 * 1.0 = 33 = 2^5 * 1.03125 -> 0x4204; hi 2.0 + 32 * -1.0 = -30 = -2^4 * 1.875 -> 0xC1F0
        CHECK(v[9 * 12 + 9] == 0xC1F04204u);
    }
}
