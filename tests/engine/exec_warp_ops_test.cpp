// Executor: match.sync and redux.sync (PTX ISA 9.2 §9.7.13.10, §9.7.13.12) on nvcc's PTX of
// tests/data/exec/warp_ops.cu. Truth: each result recomputed here from the instruction's definition over
// the kernel's inputs (lane t holds v = 3t + 1 and f = t - 10.5).
#include "exec_test_util.hpp"

#include <cstring>

using namespace exectest;

TEST_CASE("exec: match.sync and redux.sync give each lane the result over its member mask",
          "[exec][warp-ops]") {
    std::vector<uint32_t> in(64);
    for (uint32_t t = 0; t < 32; ++t) {
        in[t] = 3 * t + 1;
        const float f = float(t) - 10.5f;
        std::memcpy(&in[32 + t], &f, 4);
    }
    auto r = runDataKernel(
        "warp_ops.ptx", "warp_ops", 32,
        {tensorArg("0", "u32", in), tensorArg("1", "u32", std::vector<uint32_t>(256, 0xDEADBEEF))});
    REQUIRE(r);
    const auto out = values<uint32_t>(*r, "1");
    uint32_t sumSq = 0, xorAll = 0;
    for (uint32_t u = 0; u < 32; ++u) sumSq += in[u] * in[u], xorAll ^= in[u] << 3;
    for (uint32_t t = 0; t < 32; ++t) {
        INFO("lane " << t);
        uint32_t same = 0;
        for (uint32_t u = 0; u < 32; ++u) same |= uint32_t(in[u] % 5 == in[t] % 5) << u;
        SECTION("match.any: the lanes holding the same value") {
            CHECK(out[8 * t + 0] == same);
        }
        SECTION("match.all: values differ, so d = 0 and p = false") {
            CHECK(out[8 * t + 1] == 0);
            CHECK(out[8 * t + 2] == 0);
        }
        SECTION("redux.add.u32 wraps modulo 2^32") {
            CHECK(out[8 * t + 3] == sumSq);
        }
        SECTION("redux.min.s32 is signed: 3*1 - 21 = -18 at lane 0") {
            CHECK(out[8 * t + 4] == uint32_t(-18));
        }
        SECTION("redux.max.u32 over each half's own member mask") {
            CHECK(out[8 * t + 5] == (t < 16 ? 3 * 15 + 1 : 3 * 31 + 1));
        }
        SECTION("redux.xor.b32") {
            CHECK(out[8 * t + 6] == xorAll);
        }
        SECTION("redux.min.abs.NaN.f32: |t - 10.5| is smallest at lanes 10 and 11: 0.5") {
            CHECK(out[8 * t + 7] == 0x3F000000u);
        }
    }
}

TEST_CASE("exec: a redux.sync type its operation does not take stops the run", "[exec][warp-ops]") {
    auto m = readPtxModule(".version 8.7\n.target sm_100a\n.address_size 64\n"
                           ".visible .entry k()\n{\n.reg .b32 %r<3>;\nmov.b32 %r1, 1;\n"
                           "redux.sync.add.b32 %r2, %r1, -1;\nret;\n}\n");
    REQUIRE(m);
    Launch l;
    l.block = {32, 1, 1};
    auto r = runKernel(*m, l, {});
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("redux.sync takes .add/.min/.max with .u32/.s32") != std::string::npos);
    CHECK(r.error().span.line == 8);
}

TEST_CASE("exec: bar.red gives every thread of the CTA the count, and, or of all predicates",
          "[exec][warp-ops]") {
    // warp_ops.cu bar_red over 64 threads holding v = 3t + 1: v % 3 == 0 never holds (count 0); v > 0 holds
    // for all (and 1); v == 40 holds at t = 13 only (or 1); v < 1000 for all (and 1). A second input with
    // v = t: t % 3 == 0 at t = 0, 3, ..., 63 (22 threads), t > 0 fails at t = 0 (and 0), t == 40 once.
    for (int variant = 0; variant < 2; ++variant) {
        std::vector<uint32_t> in(64);
        for (uint32_t t = 0; t < 64; ++t) in[t] = variant ? t : 3 * t + 1;
        auto r =
            runDataKernel("warp_ops.ptx", "bar_red", 64,
                          {tensorArg("0", "u32", in), tensorArg("1", "u32", std::vector<uint32_t>(256, 7))});
        REQUIRE(r);
        const auto out = values<uint32_t>(*r, "1");
        for (uint32_t t = 0; t < 64; ++t) {
            INFO("variant " << variant << " thread " << t);
            CHECK(out[4 * t + 0] == (variant ? 22u : 0u));
            CHECK(out[4 * t + 1] == (variant ? 0u : 1u));
            CHECK(out[4 * t + 2] == 1u);
            CHECK(out[4 * t + 3] == 1u);
        }
    }
}
