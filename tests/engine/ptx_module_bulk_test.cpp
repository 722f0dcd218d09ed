// `check FILE.ptx` over data movement it does not model (docs/ptx-modules.md): each such
// instruction is listed by PTX ISA family and line, the bulk copies are validated, and
// `.address_size 32` is an error as ptxas 13.0 makes it ("32-Bit ABI ... is not supported on sm_90 or
// higher architectures", fatal, checked by hand on sm_90, sm_90a, sm_100a). The module below was
// written by hand; the family names and lines are read off its text.
#include "layoutscope/ptx/module.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {

const char* kModule =
    ".version 9.0\n"                                                                                   // 1
    ".target sm_100a\n"                                                                                // 2
    ".address_size 64\n"                                                                               // 3
    ".visible .entry k(.param .u64 p0)\n"                                                              // 4
    "{\n"                                                                                              // 5
    "  .reg .b32 %r<8>;\n"                                                                             // 6
    "  .reg .b64 %rd<8>;\n"                                                                            // 7
    "  .shared .align 128 .b8 smem[1024];\n"                                                           // 8
    "  .shared .align 8 .b64 mbar;\n"                                                                  // 9
    "  ld.param.u64 %rd0, [p0];\n"                                                                     // 10
    "  mov.u32 %r1, 256;\n"                                                                            // 11
    "  ld.shared.u32 %r2, [smem];\n"                                                                   // 12
    "  cp.async.ca.shared.global [smem], [%rd0], 16;\n"                                                // 13
    "  prefetch.global.L2 [%rd0];\n"                                                                   // 14
    "  cp.async.bulk.global.shared::cta.bulk_group [%rd0], [smem], %r1;\n"                             // 15
    "  cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd0, {%r1}], [smem];\n" // 16
    "  cp.async.bulk.commit_group;\n"                                                                  // 17
    "  cp.async.bulk.wait_group.read 0;\n"                                                             // 18
    "  fence.proxy.async.shared::cta;\n"                                                               // 19
    "  st.shared.u32 [smem], %r2;\n"                                                                   // 20
    "  prefetch.global.L2::evict_last [%rd0];\n"                                                       // 21
    "  ret;\n"                                                                                         // 22
    "}\n";

} // namespace

TEST_CASE("module: data movement without a rule table is listed by family and line", "[ptx][module][bulk]") {
    auto m = readPtxModule(kModule);
    REQUIRE(m);
    CHECK(checkPtxModule(*m).empty());
    REQUIRE(m->functions.size() == 1);
    const PtxFunction& f = m->functions[0];
    size_t modelled = 0;
    for (const auto& i : f.instrs) modelled += i.modelled;
    // lines 12-13 and 15-20: ld.shared, cp.async.ca, cp.async.bulk, the reduce, commit_group,
    // wait_group, fence.proxy.async, st.shared (the families with rule tables since issue 21's front end)
    CHECK(modelled == 8);
    struct Expect {
        const char* family;
        int line;
    };
    // prefetch has no rule table (every ld/st/atom/red on shared memory has one since session 15)
    const Expect want[] = {{"prefetch", 14}, {"prefetch", 21}};
    REQUIRE(f.unmodelled.size() == std::size(want));
    for (size_t i = 0; i < std::size(want); ++i) {
        INFO(i);
        CHECK(f.unmodelled[i].family == want[i].family);
        CHECK(f.unmodelled[i].span.line == want[i].line);
        CHECK(f.unmodelled[i].span.column == 3);
    }
    CHECK(f.unmodelled[0].opcode == "prefetch.global.L2");
    // ld.param, mov and ret move no shared/tensor data: counted, not listed.
    CHECK(f.otherInstructions == f.unmodelled.size() + 3);
}

TEST_CASE("module: a bulk copy with a planted error is reported at its line", "[ptx][module][bulk]") {
    std::string t = kModule;
    // .cp_mask is sm_100 and later: on sm_90a ptxas 13.0 says "Feature '.cp_mask' requires .target
    // sm_100 or higher" at that line.
    t.replace(t.find("sm_100a"), 7, "sm_90a");
    t.replace(t.find(".bulk_group [%rd0], [smem], %r1;"), 32, ".bulk_group.cp_mask [%rd0], [smem], %r1, 7;");
    auto m = readPtxModule(t);
    REQUIRE(m);
    const auto ds = checkPtxModule(*m);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].span.line == 15);
    CHECK_THAT(ds[0].message, Catch::Contains(".cp_mask"));
}

TEST_CASE("module: .address_size 32 is an error at the directive", "[ptx][module][bulk]") {
    for (const char* sm : {"sm_80", "sm_90", "sm_90a", "sm_100a",
                           "sm_120f"}) { // sm_80: "32-Bit compilation is no longer supported"
        SECTION(sm) {
            std::string t = kModule;
            t.replace(t.find("sm_100a"), 7, sm);
            t.replace(t.find(".address_size 64"), 16, ".address_size 32");
            auto m = readPtxModule(t);
            REQUIRE(m);
            const auto ds = checkPtxModule(*m);
            REQUIRE_FALSE(ds.empty());
            CHECK(ds[0].severity == Severity::Error);
            CHECK(ds[0].span.line == 3);
            CHECK(ds[0].span.column == 15);
            CHECK_THAT(ds[0].message, Catch::Contains(".address_size 64"));
        }
    }
}
