// Executor: special registers, memory spaces, atomics, warp shuffles and votes, barriers, calls, and the
// diagnostics of runs that must stop, against values derived by hand from the PTX ISA 9.2 (§10 special
// registers, §9.7.9.6 shfl.sync, §9.7.13.9 vote, §9.7.13.5 atom, §9.7.13.1 bar).
#include "exec_test_util.hpp"

using namespace exectest;

namespace {
const char* kHeader = ".version 8.0\n.target sm_90a\n.address_size 64\n";
}

TEST_CASE("exec: special registers of a 3-D block in a 2-D grid", "[exec]") {
    const std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
.reg .b32 %r<16>; .reg .b64 %rd<8>;
ld.param.u64 %rd0, [out];
mov.u32 %r1, %tid.x; mov.u32 %r2, %tid.y; mov.u32 %r3, %tid.z;
mov.u32 %r4, %ntid.x; mov.u32 %r5, %ntid.y; mad.lo.u32 %r6, %r3, %r5, %r2; mad.lo.u32 %r6, %r6, %r4, %r1;
mul.wide.u32 %rd1, %r6, 32; add.s64 %rd2, %rd0, %rd1;
st.global.u32 [%rd2+0], %r1;
mov.u32 %r7, %ctaid.x; st.global.u32 [%rd2+4], %r7;
mov.u32 %r8, %ctaid.y; st.global.u32 [%rd2+8], %r8;
mov.u32 %r9, %nctaid.x; st.global.u32 [%rd2+12], %r9;
mov.u32 %r10, %laneid; st.global.u32 [%rd2+16], %r10;
mov.u32 %r11, %warpid; st.global.u32 [%rd2+20], %r11;
mov.u32 %r12, %lanemask_lt; st.global.u32 [%rd2+24], %r12;
st.global.u32 [%rd2+28], %r3;
ret;
})";
    Launch l;
    l.grid = {3, 2, 1};
    l.block = {8, 3, 2}; // 48 threads: warp 0 = threads 0..31, warp 1 = 32..47
    l.cta = {2, 1, 0};
    l.args.push_back(tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(48 * 8, 0)));
    auto r = runText(ptx, l);
    REQUIRE(r);
    const auto v = values<uint32_t>(*r, "out");
    for (uint32_t t = 0; t < 48; ++t) {
        CHECK(v[t * 8 + 0] == t % 8);
        CHECK(v[t * 8 + 1] == 2);
        CHECK(v[t * 8 + 2] == 1);
        CHECK(v[t * 8 + 3] == 3);
        CHECK(v[t * 8 + 4] == t % 32);
        CHECK(v[t * 8 + 5] == t / 32);
        CHECK(v[t * 8 + 6] == (1u << (t % 32)) - 1);
        CHECK(v[t * 8 + 7] == t / 24);
    }
    CHECK(r->threads == 48);
}

TEST_CASE("exec: shared vectors, generic and local addresses, shared and global atomics", "[exec]") {
    const auto w = runBody(R"(
mov.u32 %r1, %tid.x;
shl.b32 %r2, %r1, 4;
mov.u32 %r3, buf;
add.u32 %r4, %r3, %r2;
add.u32 %r5, %r1, 100;
add.u32 %r6, %r1, 200;
mul.lo.u32 %r7, %r1, %r1;
st.shared.v4.u32 [%r4], {%r1, %r5, %r6, %r7};
bar.sync 0;
add.u32 %r8, %r1, 1;
and.b32 %r8, %r8, 31;
shl.b32 %r8, %r8, 4;
add.u32 %r8, %r3, %r8;
ld.shared.v4.u32 {%r9, %r10, %r11, %r12}, [%r8];
cvt.u64.u32 %rd1, %r1;
shl.b64 %rd1, %rd1, 9;
add.s64 %rd2, %rd0, %rd1;
st.global.u32 [%rd2+0], %r9;
st.global.u32 [%rd2+8], %r12;
atom.shared.add.u32 %r13, [buf+512], 1;
st.global.u32 [%rd2+16], %r13;
atom.shared.max.s32 %r14, [buf+516], %r1;
st.global.u32 [%rd2+24], %r14;
cvt.u64.u32 %rd3, %r4;
cvta.shared.u64 %rd4, %rd3;
ld.u32 %r15, [%rd4+8];
st.global.u32 [%rd2+32], %r15;
mov.u64 %rd5, tmp;
st.local.u32 [%rd5+4], %r7;
cvta.local.u64 %rd6, %rd5;
ld.u32 %r16, [%rd6+4];
st.global.u32 [%rd2+40], %r16;
atom.global.cas.b32 %r17, [%rd0+48], 0, %r5;
st.global.u32 [%rd2+56], %r17;
atom.global.exch.b32 %r18, [%rd0+64], %r1;
st.global.u32 [%rd2+72], %r18;
bar.sync 0;
ld.shared.u32 %r19, [buf+512];
st.global.u32 [%rd2+80], %r19;
)",
                           32, ".shared .align 16 .b8 buf[528];\n.local .align 8 .b8 tmp[16];\n");
    for (uint64_t t = 0; t < 32; ++t) {
        const uint64_t* v = w.data() + t * 64;
        const uint64_t n = (t + 1) % 32;
        CHECK(v[0] == n);                // the neighbour's .x
        CHECK(v[1] == n * n);            // ... and .w
        CHECK(v[2] == t);                // atom.add returns the old value: lanes apply in order
        if (t > 0) CHECK(v[3] == t - 1); // atom.max saw the running maximum
        CHECK(v[4] == 200 + t);          // generic load of buf[t].z through the shared window
        CHECK(v[5] == t * t);            // local store and generic load of the same local bytes
        CHECK(v[10] == 32);              // all 32 increments
    }
    // cas: thread 0 found 0 and wrote 100; everybody else found 100 and wrote nothing. Thread 0's
    // word 6 (byte 48) is the cas target itself, overwritten by that cas: 100.
    CHECK((w[6] & 0xFFFFFFFF) == 100);
    for (uint64_t t = 1; t < 32; ++t) CHECK(w[t * 64 + 7] == 100);
    CHECK(w[7] == 0);
    for (uint64_t t = 1; t < 32; ++t) CHECK(w[t * 64 + 9] == t - 1); // exch returns the previous lane's id
}

TEST_CASE("exec: shfl.sync modes and segments, vote.sync", "[exec]") {
    const auto w = runBody(R"(
mov.u32 %r1, %tid.x;
mul.lo.u32 %r2, %r1, 10;
cvt.u64.u32 %rd1, %r1;
shl.b64 %rd1, %rd1, 9;
add.s64 %rd2, %rd0, %rd1;
shfl.sync.up.b32 %r3|%p1, %r2, 3, 0, -1;     st.global.u32 [%rd2+0], %r3;
selp.u32 %r4, 1, 0, %p1;                     st.global.u32 [%rd2+8], %r4;
shfl.sync.down.b32 %r5|%p2, %r2, 5, 31, -1;  st.global.u32 [%rd2+16], %r5;
selp.u32 %r6, 1, 0, %p2;                     st.global.u32 [%rd2+24], %r6;
shfl.sync.bfly.b32 %r7, %r2, 5, 31, -1;      st.global.u32 [%rd2+32], %r7;
shfl.sync.idx.b32 %r8, %r2, 7, 31, -1;       st.global.u32 [%rd2+40], %r8;
shfl.sync.idx.b32 %r9, %r2, 2, 0x181F, -1;   st.global.u32 [%rd2+48], %r9;
and.b32 %r10, %r1, 3;
setp.eq.u32 %p3, %r10, 0;
vote.sync.ballot.b32 %r11, %p3, -1;          st.global.u32 [%rd2+56], %r11;
setp.lt.u32 %p4, %r1, 16;
vote.sync.all.pred %p5, %p4, -1;             selp.u32 %r12, 1, 0, %p5;  st.global.u32 [%rd2+64], %r12;
vote.sync.any.pred %p5, %p4, -1;             selp.u32 %r13, 1, 0, %p5;  st.global.u32 [%rd2+72], %r13;
vote.sync.uni.pred %p5, %p4, -1;             selp.u32 %r14, 1, 0, %p5;  st.global.u32 [%rd2+80], %r14;
)",
                           32);
    for (uint64_t l = 0; l < 32; ++l) {
        const uint64_t* v = w.data() + l * 64;
        CHECK(v[0] == (l >= 3 ? (l - 3) * 10 : l * 10)); // up: own value when the source is below lane 0
        CHECK(v[1] == (l >= 3 ? 1u : 0u));
        CHECK(v[2] == (l + 5 <= 31 ? (l + 5) * 10 : l * 10));
        CHECK(v[3] == (l + 5 <= 31 ? 1u : 0u));
        CHECK(v[4] == (l ^ 5) * 10);
        CHECK(v[5] == 70);
        CHECK(v[6] == ((l & 24) | 2) * 10); // width 8: lane 2 of each 8-lane segment
        CHECK(v[7] == 0x11111111u);
        CHECK(v[8] == 0);
        CHECK(v[9] == 1);
        CHECK(v[10] == 0);
    }
}

TEST_CASE("exec: divergent branches reconverge; call/ret of a .func with parameters", "[exec]") {
    const std::string ptx = std::string(kHeader) + R"(
.func (.param .b32 ret0) twice_plus(.param .b32 a, .param .b32 b)
{
.reg .b32 %r<4>;
ld.param.b32 %r1, [a];
ld.param.b32 %r2, [b];
shl.b32 %r3, %r1, 1;
add.s32 %r3, %r3, %r2;
st.param.b32 [ret0], %r3;
ret;
}
.visible .entry k(.param .u64 out)
{
.reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .pred %p<4>;
ld.param.u64 %rd0, [out];
mov.u32 %r1, %tid.x;
and.b32 %r2, %r1, 1;
setp.eq.u32 %p1, %r2, 0;
mov.u32 %r3, 0;
@%p1 bra EVEN;
mov.u32 %r4, 0;
LOOP:
add.u32 %r3, %r3, %r1;
add.u32 %r4, %r4, 1;
setp.lt.u32 %p2, %r4, %r1;
@%p2 bra LOOP;
bra.uni JOIN;
EVEN:
{
.param .b32 p0;
.param .b32 p1;
.param .b32 r0;
st.param.b32 [p0], %r1;
st.param.b32 [p1], 1000;
call.uni (r0), twice_plus, (p0, p1);
ld.param.b32 %r3, [r0];
}
JOIN:
activemask.b32 %r5;
cvt.u64.u32 %rd1, %r1;
shl.b64 %rd1, %rd1, 3;
add.s64 %rd2, %rd0, %rd1;
st.global.u32 [%rd2], %r3;
st.global.u32 [%rd2+4], %r5;
ret;
})";
    Launch l;
    l.block = {40, 1, 1};
    l.args.push_back(tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(80, 0)));
    auto r = runText(ptx, l);
    REQUIRE(r);
    const auto v = values<uint32_t>(*r, "out");
    for (uint32_t t = 0; t < 40; ++t) {
        const uint32_t expect = t % 2 == 0 ? 2 * t + 1000 : t * t; // odd: t added t times
        CHECK(v[t * 2] == expect);
        CHECK(v[t * 2 + 1] == (t < 32 ? 0xFFFFFFFFu : 0xFFu)); // reconverged: the whole (partial) warp
    }
}

TEST_CASE("exec: runs that must stop name the PTX line and the thread", "[exec]") {
    Launch l;
    l.block = {32, 1, 1};
    l.args.push_back(tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(4, 0)));
    auto run = [&](const std::string& body) {
        return runText(std::string(kHeader) +
                           ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>; .reg .b64 %rd<8>; .reg "
                           ".pred %p<4>;\n"
                           "ld.param.u64 %rd0, [out];\nmov.u32 %r1, %tid.x;\n" +
                           body + "\nret;\n}\n",
                       l);
    };
    SECTION("an instruction the executor does not model") {
        auto r = run("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r1,%r1,%r1,%r1}, "
                     "{%r1,%r1}, {%r1,%r1}, {%r1,%r1,%r1,%r1}, %r1, 0x0;");
        REQUIRE_FALSE(r);
        CHECK(r.error().span.line == 9);
        CHECK(r.error().code == DiagCode::Unsupported);
        CHECK_THAT(r.error().message, Catch::Contains("mma") && Catch::Contains("not modelled"));
    }
    SECTION("a global store past the end of its tensor") {
        auto r = run("mul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %rd0, %rd1;\nst.global.u32 [%rd2], %r1;");
        REQUIRE_FALSE(r);
        CHECK(r.error().span.line == 11);
        CHECK_THAT(r.error().message, Catch::Contains("thread (4,0,0)") &&
                                          Catch::Contains("0x700000000010") &&
                                          Catch::Contains("tensor `out`"));
    }
    SECTION("a misaligned load") {
        auto r = run("ld.global.u32 %r2, [%rd0+2];");
        REQUIRE_FALSE(r);
        CHECK(r.error().code == DiagCode::FaultMisalignedAddress);
    }
    SECTION("a barrier that never completes") {
        auto r = run("bar.sync 1, 64;");
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("deadlock"));
    }
    SECTION("shfl.sync by a warp that is not converged") {
        auto r =
            run("setp.lt.u32 %p1, %r1, 16;\n@%p1 bra SKIP;\nshfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\nSKIP:\n");
        REQUIRE_FALSE(r);
        CHECK(r.error().span.line == 11);
        CHECK_THAT(r.error().message, Catch::Contains("non-converged"));
    }
    SECTION("an instruction without a type") {
        auto r = run("add %r2, %r1, 1;");
        REQUIRE_FALSE(r);
        CHECK(r.error().span.line == 9);
        CHECK_THAT(r.error().message, Catch::Contains("no type suffix"));
    }
    SECTION("an endless loop hits the step limit") {
        auto m = readPtxModule(std::string(kHeader) +
                               ".visible .entry k(.param .u64 out)\n{\nL:\nbra.uni L;\n}\n");
        REQUIRE(m);
        ExecOptions o;
        o.maxWarpSteps = 1000;
        auto r = runKernel(*m, l, o);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("more than 1000"));
    }
}
