// tcgen05.mma (all variants) and tcgen05.ld.red validity. Every expectation below is a verdict of
// CUDA 13.0 ptxas (/usr/local/cuda/bin/ptxas) on the golden/ptxas README wrapper kernel, taken by
// hand; the ptxas message is quoted beside the refusals. The whole grid is replayed by ctest
// conform.ptxas_tcgen05 (tests/data/ptxas_tcgen05, scripts/gen-ptxas-diff).
#include "layoutscope/ptx/instruction.hpp"
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

/// "" when parse and validation accept, else the first message.
std::string verdict(const std::string& text, const std::string& sm = "sm_100a", int major = 9,
                    int minor = 0) {
    auto p = parseInstruction(text);
    if (!p) return "parse: " + p.error().message;
    Status s = validateInstruction(*p, PtxTarget{sm, major, minor}, ptxasWrapperEnvironment());
    return s ? std::string() : s.diagnostics().front().message;
}

bool has(const std::string& msg, const std::string& part) {
    return msg.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("tcgen05.mma forms ptxas accepts are accepted", "[ptx][tcgen05][mma]") {
    SECTION("dense, A from shared memory or Tensor Memory, with the optional operands") {
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::f16 [%r0], %rd1, %rd2, %r3, %p1;").empty());
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::f16 [%r0], %rd1, %rd2, %r3, {%r4,%r5,%r6,%r7}, %p1;")
                  .empty());
        CHECK(verdict("tcgen05.mma.cta_group::2.kind::f16 [%r0], %rd1, %rd2, %r3, "
                      "{%r4,%r5,%r6,%r7,%r8,%r9,%r10,%r11}, %p1;")
                  .empty());
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::f16 [%r0], %rd1, %rd2, %r3, %p1, 3;").empty());
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::tf32 [%r0], %rd1, %rd2, %r3, %p1, 3;").empty());
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::f16 [%r0], [%r1], %rd2, %r3, %p1;").empty());
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::f16.ashift [%r0], [%r1], %rd2, %r3, %p1;").empty());
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::f16.collector::a::fill [%r0], %rd1, %rd2, %r3, %p1;")
                  .empty());
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::i8 [%r0], %rd1, %rd2, %r3, %p1;").empty());
    }
    SECTION("block scaling") {
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%r0], %rd1, %rd2, %r3, [%r4], "
                      "[%r5], %p1;")
                  .empty());
        CHECK(verdict(
                  "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%r0], %rd1, %rd2, %r3, "
                  "[%r4], [%r5], %p1;")
                  .empty());
        CHECK(verdict(
                  "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [%r0], %rd1, %rd2, %r3, "
                  "[%r4], [%r5], %p1;")
                  .empty());
        CHECK(
            verdict(
                "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16 [%r0], %rd1, %rd2, %r3, [%r4], "
                "[%r5], %p1;")
                .empty());
    }
    SECTION(".sp and .ws") {
        CHECK(verdict("tcgen05.mma.sp.cta_group::1.kind::f16 [%r0], %rd1, %rd2, [%r4], %r3, %p1;").empty());
        CHECK(verdict(
                  "tcgen05.mma.sp.cta_group::1.kind::mxf4.block_scale [%r0], %rd1, %rd2, [%r6], %r3, [%r4], "
                  "[%r5], %p1;")
                  .empty());
        CHECK(verdict("tcgen05.mma.ws.cta_group::1.kind::f16 [%r0], %rd1, %rd2, %r3, %p1;").empty());
        CHECK(verdict("tcgen05.mma.ws.cta_group::1.kind::f16 [%r0], %rd1, %rd2, %r3, %p1, %rd4;").empty());
        CHECK(
            verdict("tcgen05.mma.ws.cta_group::1.kind::f16.collector::b0::fill [%r0], %rd1, %rd2, %r3, %p1;")
                .empty());
        CHECK(
            verdict("tcgen05.mma.ws.sp.cta_group::1.kind::f16 [%r0], %rd1, %rd2, [%r4], %r3, %p1;").empty());
    }
    SECTION("family targets and sm_110a") {
        CHECK(
            verdict(
                "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32 [%r0], %rd1, %rd2, %r3, [%r4], "
                "[%r5], %p1;",
                "sm_110f")
                .empty());
        CHECK(verdict("tcgen05.mma.cta_group::1.kind::i8 [%r0], %rd1, %rd2, %r3, %p1;", "sm_110a").empty());
    }
}

TEST_CASE("tcgen05.mma forms ptxas refuses are refused with the rule", "[ptx][tcgen05][mma]") {
    // "Unknown modifier '.cta_group::3'" / ".cta_group modifier required"
    CHECK(has(verdict("tcgen05.mma.cta_group::3.kind::f16 [%r0], %rd1, %rd2, %r3, %p1;"), "`.cta_group::3`"));
    CHECK(has(verdict("tcgen05.mma.kind::f16 [%r0], %rd1, %rd2, %r3, %p1;"), "CTA group"));
    // ".kind modifier required for instruction 'tcgen05.mma'"
    CHECK(has(verdict("tcgen05.mma.cta_group::1 [%r0], %rd1, %rd2, %r3, %p1;"), "kind qualifier"));
    // "Argument vector size mismatch for instruction 'tcgen05.mma'"
    CHECK(has(verdict("tcgen05.mma.cta_group::2.kind::f16 [%r0], %rd1, %rd2, %r3, {%r4,%r5,%r6,%r7}, %p1;"),
              "disable-output-lane"));
    // "Argument 5 of instruction 'tcgen05.mma': value '16' out of range, expected to be in range [0..15]"
    CHECK(has(verdict("tcgen05.mma.cta_group::1.kind::f16 [%r0], %rd1, %rd2, %r3, %p1, 16;"), "[0, 15]"));
    // "Illegal modifier '.kind::f8f6f4' for instruction 'tcgen05.mma' with 'arg scale-inp-d-imm'"
    CHECK(has(verdict("tcgen05.mma.cta_group::1.kind::f8f6f4 [%r0], %rd1, %rd2, %r3, %p1, 3;"),
              "scale-input-d"));
    // "Illegal modifier '.ashift' for instruction 'tcgen05.mma'"
    CHECK(has(verdict("tcgen05.mma.cta_group::1.kind::f16.ashift [%r0], %rd1, %rd2, %r3, %p1;"), "[a-tmem]"));
    // "Modifier '.collector::a::fill' cannot be combined with modifier '.ashift'"
    CHECK(has(
        verdict("tcgen05.mma.cta_group::1.kind::f16.collector::a::fill.ashift [%r0], [%r1], %rd2, %r3, %p1;"),
        "`.ashift`"));
    // "Illegal modifier '.collector::b0::fill' for instruction 'tcgen05.mma'"
    CHECK_FALSE(verdict("tcgen05.mma.cta_group::1.kind::f16.collector::b0::fill [%r0], %rd1, %rd2, %r3, %p1;")
                    .empty());
    // "Modifier '.kind::mxf8f6f4' cannot be combined with modifier '.scale_vec::2X'"
    CHECK(has(
        verdict("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::2X [%r0], %rd1, %rd2, %r3, "
                "[%r4], [%r5], %p1;"),
        "cannot be combined"));
    // ".block_scale modifier required for instruction 'tcgen05.mma'"
    CHECK(has(verdict("tcgen05.mma.cta_group::1.kind::mxf8f6f4 [%r0], %rd1, %rd2, %r3, [%r4], [%r5], %p1;"),
              "`.block_scale`"));
    // "Modifier '.kind::f16' cannot be combined with modifier '.block_scale'"
    CHECK(has(
        verdict("tcgen05.mma.cta_group::1.kind::f16.block_scale [%r0], %rd1, %rd2, %r3, [%r4], [%r5], %p1;"),
        "`.block_scale`"));
    // "Illegal modifier '.cta_group::2' for instruction 'tcgen05.mma.ws'"
    CHECK(has(verdict("tcgen05.mma.ws.cta_group::2.kind::f16 [%r0], %rd1, %rd2, %r3, %p1;"),
              "`.cta_group::1`"));
    // "Illegal modifier '.collector::a::fill' for instruction 'tcgen05.mma.ws'"
    CHECK(
        has(verdict("tcgen05.mma.ws.cta_group::1.kind::f16.collector::a::fill [%r0], %rd1, %rd2, %r3, %p1;"),
            "b0"));
    // "Unknown modifier '.ws'"
    CHECK_FALSE(
        verdict("tcgen05.mma.sp.ws.cta_group::1.kind::f16 [%r0], %rd1, %rd2, [%r4], %r3, %p1;").empty());
    // "Feature '.kind::i8' not supported on .target 'sm_103a'"
    CHECK(has(verdict("tcgen05.mma.cta_group::1.kind::i8 [%r0], %rd1, %rd2, %r3, %p1;", "sm_103a"),
              "not available on sm_103a"));
    // "Instruction 'tcgen05.mma' not supported on .target 'sm_90a'"
    CHECK(has(verdict("tcgen05.mma.cta_group::1.kind::f16 [%r0], %rd1, %rd2, %r3, %p1;", "sm_90a"),
              "not available on sm_90a"));
}

TEST_CASE("tcgen05.ld.red is its own instruction", "[ptx][tcgen05][ldred]") {
    SECTION("accepted on sm_103a, sm_103f, sm_110a, sm_110f") {
        for (const char* sm : {"sm_103a", "sm_103f", "sm_110a", "sm_110f"}) {
            INFO(sm);
            CHECK(
                verdict("tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {%r1,%r2}, %r5, [%r0];", sm).empty());
        }
        CHECK(verdict("tcgen05.ld.red.sync.aligned.32x32b.x4.min.abs.NaN.f32 {%r1,%r2,%r3,%r4}, %r5, [%r0];",
                      "sm_103a")
                  .empty());
        CHECK(verdict("tcgen05.ld.red.sync.32x32b.x2.max.u32 {%r1,%r2}, %r5, [%r0+4];", "sm_103a").empty());
        CHECK(verdict("tcgen05.ld.red.sync.aligned.16x32bx2.x2.min.s32 {%r1,%r2}, %r5, [%r0], 2;", "sm_103a")
                  .empty());
    }
    SECTION("refused where ptxas refuses it, and never advised as a broken tcgen05.ld") {
        // "Instruction 'tcgen05.ld.red' not supported on .target 'sm_100a'"
        const std::string t = verdict("tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {%r1,%r2}, %r5, [%r0];");
        CHECK(has(t, "`tcgen05.ld.red` is not available on sm_100a"));
        // "Illegal operation '.add' for instruction 'tcgen05.ld.red'"
        const std::string add =
            verdict("tcgen05.ld.red.sync.aligned.32x32b.x2.add.f32 {%r1,%r2}, %r5, [%r0];", "sm_103a");
        CHECK(has(add, "`.min` and `.max`"));
        CHECK_FALSE(has(add, "tcgen05.ld`"));
        // "Illegal modifier '.x1' for instruction 'tcgen05.ld.red'"
        CHECK(has(verdict("tcgen05.ld.red.sync.aligned.32x32b.x1.min.f32 {%r1}, %r5, [%r0];", "sm_103a"),
                  "`.x2`"));
        // "Illegal modifier '.abs' for instruction 'tcgen05.ld.red'"
        CHECK(has(
            verdict("tcgen05.ld.red.sync.aligned.32x32b.x2.min.abs.u32 {%r1,%r2}, %r5, [%r0];", "sm_103a"),
            "`.f32`"));
        // "Reduction operation is required for instruction 'tcgen05.ld.red'"
        CHECK(has(verdict("tcgen05.ld.red.sync.aligned.32x32b.x2.f32 {%r1,%r2}, %r5, [%r0];", "sm_103a"),
                  "reduction operation"));
        // "Multiple instruction post-operation flags set"
        CHECK_FALSE(
            verdict("tcgen05.ld.red.sync.aligned.32x32b.x4.min.max.f32 {%r1,%r2,%r3,%r4}, %r5, [%r0];",
                    "sm_103a")
                .empty());
        // "Illegal matrix shape '.16x64b' for instruction 'tcgen05.ld.red'"
        CHECK(has(verdict("tcgen05.ld.red.sync.aligned.16x64b.x2.min.f32 {%r1,%r2}, %r5, [%r0];", "sm_103a"),
                  "shapes"));
        // "Arguments mismatch for instruction 'tcgen05.ld.red'" (redval must be a .b32 register)
        CHECK_FALSE(
            verdict("tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {%r1,%r2}, 5, [%r0];", "sm_103a").empty());
        // "Unexpected number of arguments specified for tcgen05.ld.red with shape '.16x32bx2'"
        CHECK(
            has(verdict("tcgen05.ld.red.sync.aligned.16x32bx2.x2.min.f32 {%r1,%r2}, %r5, [%r0];", "sm_103a"),
                "immHalfSplitoff"));
    }
}
