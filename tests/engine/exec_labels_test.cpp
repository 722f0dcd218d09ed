// Labels scoped by `{ }` blocks (PTX ISA §4.4): two inline-asm blocks defining the same labels, as CUTLASS's
// mbarrier wait loops do, each branch to their own. Truth: the values the PTX text stores when each branch
// reaches the label of its own block.
#include "exec_test_util.hpp"

using namespace exectest;

TEST_CASE("exec: a branch reaches the label of its own { } block when blocks reuse a name", "[exec][xmma]") {
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
