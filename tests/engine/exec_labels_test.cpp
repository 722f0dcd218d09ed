// Executor decoder: labels are scoped to their `{ }` block (PTX ISA 9.2 §4.4), as CUTLASS's inline asm
// needs: every inlined wait loop repeats `LAB_WAIT:` / `DONE:` in its own block.
#include "exec_test_util.hpp"

using namespace exectest;

TEST_CASE("exec decode: a label names the definition in its own block", "[exec]") {
    // Two blocks each count %r1 / %r2 up to a limit with their own `LOOP:`; a branch must stay in its block.
    const std::string body =
        "mov.u32 %r1, 0;\nmov.u32 %r2, 0;\n"
        "{\nLOOP:\nadd.u32 %r1, %r1, 1;\nsetp.lt.u32 %p0, %r1, 5;\n@%p0 bra LOOP;\n}\n"
        "add.u32 %r3, %r1, 100;\n"
        "{\nLOOP:\nadd.u32 %r2, %r2, 2;\nsetp.lt.u32 %p1, %r2, 8;\n@%p1 bra LOOP;\n}\n"
        "st.global.u64 [%rd0], %r1;\nst.global.u64 [%rd0+8], %r2;\nst.global.u64 [%rd0+16], %r3;\n";
    const auto out = runBody(body);
    CHECK(out[0] == 5);
    CHECK(out[1] == 8);
    CHECK(out[2] == 105);
}

TEST_CASE("exec decode: a label defined twice in one block is an error naming both lines", "[exec]") {
    const std::string ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                            "L:\nbra L;\nL:\nret;\n}\n";
    Launch l;
    auto r = runText(ptx, l);
    REQUIRE_FALSE(r);
    CHECK(r.error().span.line == 8);
    CHECK_THAT(formatDiagnostic(r.error()), Catch::Matchers::Contains("lines 6 and 8"));
}

TEST_CASE("exec: a branch reaches the label of its own { } block when blocks reuse a name", "[exec]") {
    // Block 1 jumps over `mov %r1, 1` to its DONE; block 2 jumps over `mov %r2, 2` to its DONE. With one flat
    // label table both branches would go to block 2's DONE and skip `mov %r3, 3` between the blocks.
    const std::string body =
        "mov.u32 %r1, 10;\nmov.u32 %r2, 20;\nmov.u32 %r3, 30;\n"
        "{\nbra DONE;\nmov.u32 %r1, 1;\nDONE:\n}\n"
        "mov.u32 %r3, 3;\n"
        "{\nbra DONE;\nmov.u32 %r2, 2;\nDONE:\n}\n"
        "st.global.u32 [%rd0], %r1;\nst.global.u32 [%rd0+8], %r2;\nst.global.u32 [%rd0+16], %r3;";
    const auto out = runBody(body);
    CHECK(uint32_t(out[0]) == 10);
    CHECK(uint32_t(out[1]) == 20);
    CHECK(uint32_t(out[2]) == 3);
}
