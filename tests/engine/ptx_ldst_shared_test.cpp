// ld / st / atom / red on shared memory (rules_ldst_shared.cpp, rules_atom_shared.cpp). Every verdict below
// is what CUDA 13.0 ptxas said for the same text in the golden/ptxas wrapper kernel (run_ptxas.py); the
// ptxas message is the row's why. The whole suite is tests/data/ptxas_front/ldst.jsonl.gz (ctest
// conform.ptxas.ldst).
#include "ptx_test_util.hpp"
#include "ptxas_live_sample.hpp"
#include "ptxas_path.hpp"

using namespace layoutscope;
using namespace layoutscope::test;

TEST_CASE("ld / st on shared memory: orders, scopes, cache operators and hints, as ptxas 13.0 decides",
          "[ptx][validate][ldst]") {
    SECTION("orders and scopes") {
        runTable(
            {{"ld.shared.relaxed.cta.u32 %r1, [smem];", true, "order anywhere among the qualifiers"},
             {"ld.shared.volatile.b32 %r1, [smem];", true, "volatile after the space"},
             {"ld.acquire.gpu.shared::cluster.u32 %r1, [%r3];", true, "acquire with a scope"},
             {"st.release.cta.shared.u32 [smem], %r1;", true, "release store"},
             {"ld.relaxed.shared.u32 %r1, [smem];", false, "Modifier '.relaxed' requires scope"},
             {"ld.cta.shared.u32 %r1, [smem];", false, "Modifier '.cta' requires memory order"},
             {"ld.volatile.cta.shared.u32 %r1, [smem];", false, "'.volatile' cannot be combined with '.cta'"},
             {"ld.release.cta.shared.u32 %r1, [smem];", false, "Illegal modifier '.release' for 'ld'"},
             {"st.acquire.cta.shared.u32 [smem], %r1;", false, "Illegal modifier '.acquire' for 'st'"},
             {"ld.mmio.relaxed.sys.shared.u32 %r1, [smem];", false,
              "'.mmio' cannot be applied to '.shared'"}},
            tgt("sm_90a"));
    }
    SECTION("cache operators, eviction priorities, hints") {
        runTable(
            {{"ld.weak.shared.cg.u32 %r1, [smem];", true, "a weak ld with a cache operator"},
             {"st.shared.wb.u32 [smem], %r1;", true, "st cache operator"},
             {"ld.shared.wb.u32 %r1, [smem];", false, "Illegal modifier '.wb' for 'ld'"},
             {"st.shared.lu.u32 [smem], %r1;", false, "Illegal modifier '.lu' for 'st'"},
             {"ld.relaxed.cta.shared.ca.u32 %r1, [smem];", false, "'.relaxed' cannot be combined with '.ca'"},
             {"ld.shared.L1::evict_last.u32 %r1, [smem];", false,
              "'.evict_last' cannot be applied to '.shared'"},
             {"ld.shared.L2::cache_hint.u32 %r1, [smem], %rd1;", false,
              "'.L2::cache_hint' cannot be applied"},
             {"ld.shared.L2::128B.u32 %r1, [smem];", false, "State space incorrect for 'cache prefetching'"},
             {"ld.shared.u32 %r1, [smem], %rd1;", false, ".L2::cache_hint required with 3 arguments"},
             {"ld.shared.nc.u32 %r1, [smem];", false, "Modifier '.nc' requires .global space"}},
            tgt("sm_90a"));
    }
    SECTION("vectors, types, values") {
        runTable(
            {{"ld.shared.f32 %rd1, [smem];", true, "an f32 into a 64-bit register"},
             {"st.shared.u32 [smem], {%r1};", true, "a one-element vector for a scalar"},
             {"ld.shared.v2.u32 {%r1, _}, [smem];", true, "a discarded element"},
             {"ld.shared.v2.u32 {_, _}, [smem];", false, "Unable to infer type of vector elements"},
             {"st.shared.v2.b32 [smem], {7, 0f3F800000};", false, "Vector with elements of different types"},
             {"st.shared.f32 [smem], 1;", false, "Arguments mismatch (integer literal for .f32)"},
             {"st.shared.b64 [smem], 0f3F800000;", false, "Arguments mismatch (0f literal for .b64)"},
             {"ld.shared.u32 %r1, [smem+-8];", true, "a negative offset"}},
            tgt("sm_90a"));
        runTable({{"ld.shared.v8.b32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [smem];", false,
                   "global state space expected for feature '256 bit wide load/store'"},
                  {"st.shared.v4.b64 [smem], {%rd1, %rd2, %rd3, %rd4};", false,
                   "global state space expected for feature '256 bit wide load/store'"}},
                 tgt("sm_100a"));
    }
}

TEST_CASE("atom / red on shared memory: operations, types, orders, as ptxas 13.0 decides",
          "[ptx][validate][ldst]") {
    runTable(
        {{"atom.shared.add.noftz.bf16x2 %r1, [smem], %r2;", true, "bf16x2 add"},
         {"atom.shared.add.f16 %h1, [smem], %h2;", false, "'.noftz' modifier required with type '.f16'"},
         {"atom.shared.max.noftz.f16 %h1, [smem], %h2;", false, "Vector modifier required"},
         {"atom.shared.add.noftz.v2.f16x2 {%r1, %r2}, [smem], {%r3, %r4};", false,
          "State space incorrect for 'atom instruction with vector types'"},
         {"atom.release.shared.add.u32 %r1, [smem], %r2;", true, "a sem without a scope"},
         {"atom.gpu.shared.add.u32 %r1, [smem], %r2;", true, "a scope without a sem"},
         {"atom.shared.u32.add %r1, [smem], %r2;", true, "qualifier order is free"},
         {"atom.shared.add.s64 %rd1, [smem], %rd2;", false,
          "Operation .add requires .u32 or .s32 or .u64 ..."},
         {"atom.shared.inc.s32 %r1, [smem], %r2;", false, "Operation .inc requires .u32 type"},
         {"atom.shared.cas.b16 %h1, [smem], %h2, %h3;", true, "16-bit cas"},
         {"atom.shared.add.u32 %rd1, [smem], %r2;", false, "Arguments mismatch (exact register width)"},
         {"atom.shared.add.noftz.f16 %h1, [smem], 0x3C00;", false, "Arguments mismatch (no f16 immediate)"},
         {"atom.shared.add.u32 _, [smem], %r2;", true, "a discarded old value"},
         {"atom.weak.shared.add.u32 %r1, [smem], %r2;", false, "Illegal modifier '.weak' for 'atom'"},
         {"red.acquire.gpu.shared.add.u32 [smem], %r2;", false, "Illegal modifier '.acquire' for 'red'"},
         {"red.shared.exch.b32 [smem], %r2;", false, "Illegal operation '.exch' for 'red'"},
         {"red.shared.add.u32 _, %r2;", true, "ptxas takes a sink for red's address"}},
        tgt("sm_90a"));
}

TEST_CASE("ld / st / atom / red on shared memory: the diagnostic names the rule, its section and the fix",
          "[ptx][validate][ldst]") {
    const auto diag = [](const char* text) {
        auto s = check(text, tgt("sm_90a"));
        REQUIRE_FALSE(s);
        return s.error();
    };
    SECTION("an L1 eviction priority on shared memory") {
        const Diagnostic d = diag("ld.shared.L1::evict_last.u32 %r1, [smem];");
        CHECK_THAT(d.message, Catch::Contains("`.global` memory only") && Catch::Contains("remove it"));
        CHECK_THAT(d.ruleRef, Catch::Contains("§9.7.9.8 ld"));
    }
    SECTION("an order without its scope") {
        const Diagnostic d = diag("st.release.shared.u32 [smem], %r1;");
        CHECK_THAT(d.message, Catch::Contains("needs a scope") && Catch::Contains("`.cta`"));
        CHECK_THAT(d.ruleRef, Catch::Contains("§9.7.9.10 st"));
    }
    SECTION("an f16 add without .noftz") {
        const Diagnostic d = diag("red.shared.add.f16 [smem], %h1;");
        CHECK_THAT(d.message, Catch::Contains("red.add.noftz.f16"));
        CHECK_THAT(d.ruleRef, Catch::Contains("§9.7.13.6 red"));
    }
    SECTION("an operation without the type") {
        const Diagnostic d = diag("atom.shared.and.u32 %r1, [smem], %r2;");
        CHECK_THAT(d.message, Catch::Contains("`.b32` or `.b64`"));
        CHECK_THAT(d.ruleRef, Catch::Contains("§9.7.13.5 atom"));
    }
    SECTION("st.async is another instruction, judged by its own table, not as a plain st on shared memory") {
        // ptxas 13.0 (async_st.jsonl.gz): "Modifier '.shared::cluster' requires modifier
        // '.completion_mechanism'".
        const Diagnostic d = diag("st.async.shared::cluster.u32 [%r3], %r1, [%r2];");
        CHECK(d.code == DiagCode::InvalidValue);
        CHECK_THAT(d.message, Catch::Contains("`.mbarrier::complete_tx::bytes`"));
        CHECK_THAT(d.ruleRef, Catch::Contains("st.async"));
    }
    SECTION("generic and global ld/st/atom are not data movement into shared memory") {
        const Diagnostic d = diag("atom.global.add.u32 %r1, [%rd0], %r2;");
        CHECK(d.code == DiagCode::Unsupported);
        CHECK_THAT(d.message, Catch::Contains("does not model"));
    }
}

namespace {

const std::vector<const char*> kLdstLiveSample = {
    "ld.shared.relaxed.cta.v4.u32 {%r1, %r2, %r3, %r4}, [smem];",
    "ld.acquire.sys.shared::cluster.b64 %rd1, [%r3];",
    "ld.volatile.shared::cta.s8 %h1, [%rd3];",
    "ld.shared.lu.v2.f64 {%rd1, %rd2}, [smem+16];",
    "st.shared.cs.v2.b32 [smem], {%r1, 0f3F800000};",
    "st.weak.shared::cta.wt.u16 [%r3+2], %rd1;",
    "atom.relaxed.cluster.shared::cluster.exch.b64 %rd1, [%r3], %rd2;",
    "atom.shared.cas.b16 %h1, [smem], 5, %h3;",
    "red.shared.min.s64 [smem], %rd2;",
    "red.release.sys.shared.add.noftz.f16 [smem], %h2;",
    // one-token mutations
    "ld.shared.relaxed.v4.u32 {%r1, %r2, %r3, %r4}, [smem];",
    "ld.shared.lu.v2.f64 {%rd1, %rd2, %rd3}, [smem+16];",
    "st.shared.ca.u32 [smem], %r1;",
    "st.shared.L2::evict_first.v4.b32 [smem], {%r1, %r2, %r3, %r4};",
    "atom.shared.cas.b16 %r1, [smem], 5, %h3;",
    "atom.shared.add.f64 %rd1, [smem], 1;",
    "red.shared.dec.s32 [smem], %r2;",
    "red.acq_rel.sys.shared.add.noftz.f16 [smem], %h2;",
};

} // namespace

TEST_CASE("ld / st / atom / red on shared memory: the validator agrees with the installed ptxas on a live "
          "sample (skipped without ptxas)",
          "[ptx][validate][ldst][ptxas]") {
    const std::string ptxas = test::findPtxas();
    if (ptxas.empty()) {
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas; live ld/st/atom/red sample "
             "not run");
        return;
    }
    test::checkLiveSample(ptxas, "ldst", {"sm_90a", "sm_100a", "sm_120a"}, kLdstLiveSample);
}
