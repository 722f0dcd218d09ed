// tcgen05.wait / tcgen05.fence / tcgen05.commit forms, the kernel-wide .cta_group rule inside
// scenarios, and diagnostic wording. Every accept/reject row was assembled by hand with CUDA 13.0
// ptxas in golden/ptxas/README.md's wrapper kernel (sm_100a, .version 9.0 unless named).
#include "layoutscope/ptx/validate.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "ptx_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;
using namespace layoutscope::test;

namespace {

const char* kScn = "target sm_100a\nptx 8.8\nsmem taddrBuf 16\nmbarrier bar\nlet mask = 3\n"; // lines 1-5

} // namespace

TEST_CASE("tcgen05.wait and tcgen05.fence forms", "[ptx][validate][tcgen05]") {
    runTable({
        {"tcgen05.wait::ld.sync.aligned;", true, "canonical"},
        {"tcgen05.wait::st.sync.aligned;", true, "canonical"},
        {"tcgen05.wait::ld.sync.aligned.sync;", true, "a repeated .sync is accepted"},
        {"tcgen05.wait::ld.sync.aligned.b8x16;", true, "format conversion ignored"},
        {"tcgen05.wait::ld.sync;", false, ".aligned mandatory"},
        {"tcgen05.wait::ld.aligned;", false, ".sync mandatory"},
        {"tcgen05.wait::ld.sync.aligned.aligned;", false, "duplicate .aligned"},
        {"tcgen05.wait::xx.sync.aligned;", false, "unknown kind"},
        {"tcgen05.wait.sync.aligned;", false, "kind missing"},
        {"tcgen05.wait::ld.wait::st.sync.aligned;", false, "two kinds"},
        {"tcgen05.wait::ld.sync.aligned.b32;", false, "no type"},
        {"tcgen05.wait::ld.sync.aligned.shared::cta;", false, "no state space"},
        {"tcgen05.wait::ld.cta_group::1.sync.aligned;", false, "no .cta_group"},
        {"tcgen05.wait::ld.sync.aligned %r0;", false, "no operand"},
        {"tcgen05.wait::ld.sync.aligned.b8x16.b8x16.b8x16;", false, "three format conversions"},
        {"tcgen05.fence::before_thread_sync;", true, "canonical"},
        {"tcgen05.fence::after_thread_sync;", true, "canonical"},
        {"tcgen05.fence::before_thread_sync.b8x16;", true, "format conversion ignored"},
        {"tcgen05.fence;", false, "kind missing"},
        {"tcgen05.fence::xx;", false, "unknown kind"},
        {"tcgen05.fence::before_thread_sync.sync.aligned;", false, "no .sync/.aligned"},
        {"tcgen05.fence::before_thread_sync.fence::after_thread_sync;", false, "two fences"},
        {"tcgen05.fence::before_thread_sync.cta_group::1;", false, "no .cta_group"},
        {"tcgen05.fence::before_thread_sync %r0;", false, "no operand"},
    });
    for (const char* sm : {"sm_100a", "sm_100f", "sm_103a", "sm_110a"}) {
        INFO(sm);
        CHECK(check("tcgen05.wait::st.sync.aligned;", tgt(sm)).ok());
        CHECK(check("tcgen05.fence::after_thread_sync;", tgt(sm)).ok());
    }
    for (const char* sm : {"sm_90a", "sm_120a"}) {
        INFO(sm);
        CHECK_FALSE(check("tcgen05.wait::st.sync.aligned;", tgt(sm)).ok());
        CHECK_FALSE(check("tcgen05.fence::after_thread_sync;", tgt(sm)).ok());
    }
    CHECK(check("tcgen05.fence::before_thread_sync;", tgt("sm_100a", 8, 6)).ok());
    for (const char* kindless : {"tcgen05.wait.sync.aligned;", "tcgen05.wait::xx.sync.aligned;"})
        CHECK_THAT(check(kindless).error().message,
                   Catch::Contains("`tcgen05.wait::ld` or `tcgen05.wait::st`"));
}

TEST_CASE("tcgen05.commit qualifier values and ctaMask", "[ptx][validate][tcgen05]") {
    const std::string c = "tcgen05.commit.cta_group::1.mbarrier::arrive::one";
    runTable({
        {"tcgen05.commit.cta_group::3.mbarrier::arrive::one.b64 [mbar];", false, "unknown cta_group"},
        {(c.substr(0, 27) + ".mbarrier::arrive::two.b64 [mbar];").c_str(), false, "unknown completion"},
        {(c + ".shared::cluster.multicast::cluster.b64 [mbar], %h1;").c_str(), true, "16-bit ctaMask"},
        {(c + ".shared::cluster.multicast::cluster.b64 [mbar], 3;").c_str(), false, "immediate ctaMask"},
        {(c + ".shared::cluster.multicast::cluster.b64 [mbar], %r1;").c_str(), false, "32-bit ctaMask"},
        {(c + ".b64 [mbar], %h1;").c_str(), false, "ctaMask without multicast"},
        {(c + ".b64 [mbar+8];").c_str(), true, "offset"},
        {(c + ".b64 [8];").c_str(), false, "immediate address"},
        {(c + ".shared::cta.b64 [mbar];").c_str(), false, ".shared::cta"},
        {(c + ".b32 [mbar];").c_str(), false, "type is .b64"},
    });
}

TEST_CASE("scenario check validates tcgen05.wait, commit and fence", "[tcgen05][scenario][ptx]") {
    auto firstError = [](const std::string& line) {
        auto s = parseScenario(std::string(kScn) + line + "\n");
        REQUIRE_FALSE(s);
        return s.diagnostics().front();
    };
    SECTION("valid forms still parse and run as no-ops") {
        auto s = parseScenario(
            std::string(kScn) +
            "tcgen05.fence::before_thread_sync;\n"
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];\n"
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 "
            "[bar], mask;\n"
            "tcgen05.wait::st.sync.aligned;\ntcgen05.fence::after_thread_sync;\n");
        REQUIRE(s);
        CHECK(s->instrs.size() == 5);
        CHECK(runScenario(*s));
    }
    SECTION("rejected forms, at the offending token") {
        auto d = firstError("tcgen05.commit.cta_group::3.mbarrier::arrive::one.b64 [bar];");
        CHECK(d.span.line == 6);
        CHECK(d.span.column == 15);
        d = firstError("tcgen05.commit.cta_group::1.mbarrier::arrive::two.b64 [bar];");
        CHECK(d.span.column == 28);
        d = firstError("tcgen05.wait::xx.sync.aligned;");
        CHECK(d.span.column == 8);
        d = firstError("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster."
                       "b64 [bar], 3;");
        CHECK(d.span.column == 97); // the immediate ctaMask
        d = firstError("tcgen05.fence::before_thread_sync.sync;");
        CHECK(d.span.column == 34);
    }
}

TEST_CASE("scenario applies the kernel-wide .cta_group rule", "[tcgen05][scenario][ptx]") {
    // ptxas: "Function 'k' uses single CTA(.cta_group::1) and CTA pair granularity(.cta_group::2)".
    auto s = parseScenario(std::string(kScn) +
                           "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                           "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r0}, [taddrBuf];\n"
                           "tcgen05.dealloc.cta_group::2.sync.aligned.b32 taddrBuf, 32;\n");
    REQUIRE_FALSE(s);
    REQUIRE(s.diagnostics().size() == 1);
    const Diagnostic& d = s.diagnostics().front();
    CHECK(d.span.line == 8);
    CHECK(d.span.column == 16); // `.cta_group::2` of the dealloc
    CHECK_THAT(d.message,
               Catch::Contains("tcgen05.alloc.cta_group::1") && Catch::Contains("line 6, column 14"));
    // One .cta_group throughout is fine (ptxas accepts alloc ::2 + dealloc ::2).
    CHECK(parseScenario(std::string(kScn) +
                        "cluster 2\n"
                        "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                        "tcgen05.dealloc.cta_group::2.sync.aligned.b32 taddrBuf, 32;\n"));
}

TEST_CASE("qualifier diagnostics: one precise message, correct article", "[ptx][validate][diagnostics]") {
    SECTION("a missing group reads 'an alignment qualifier'") {
        auto s = check("tcgen05.alloc.cta_group::1.sync.shared::cta.b32 [smem], 32;");
        REQUIRE_FALSE(s.ok());
        CHECK_THAT(s.error().message, Catch::Contains("needs an alignment qualifier"));
    }
    SECTION("an unknown value of a required group is reported once, with its correction") {
        for (const char* bad : {"tcgen05.commit.cta_group::3.mbarrier::arrive::one.b64 [mbar];",
                                "tcgen05.commit.cta_group::1.mbarrier::arrive::two.b64 [mbar];",
                                "tcgen05.cp.cta_group::3.128x256b [%r0], %rd1;"}) {
            INFO(bad);
            auto s = check(bad);
            REQUIRE_FALSE(s.ok());
            CHECK(s.diagnostics().size() == 1);
            CHECK_THAT(s.error().message, Catch::Contains("did you mean"));
        }
    }
    SECTION(".x256 is beyond Table 50's largest .num") {
        auto s = check("tcgen05.ld.sync.aligned.32x32b.x256.b32 {%r1}, [%r0];");
        REQUIRE_FALSE(s.ok());
        CHECK(s.diagnostics().size() == 1);
        CHECK_THAT(s.error().message, Catch::Contains("did you mean `.x128`?"));
    }
    SECTION("an unknown target is reported once") {
        auto s = check("tcgen05.cp.cta_group::1.128x256b [%r0], %rd1;", tgt("sm_101a"));
        REQUIRE_FALSE(s.ok());
        CHECK(s.diagnostics().size() == 1);
        CHECK_THAT(s.error().message, Catch::Contains("sm_110a"));
    }
}
