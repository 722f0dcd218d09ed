// The PTX-only 96B swizzle (`tensormap.replace .swizzle_mode` 4, PTX 8.8; no CUDA 13.0 enumerator)
// against the reference: the PTX table of tma.md §4.2 (128-byte lines: chunks 0..7, then 1 0 3 2 5 4 7 6,
// period 256 B), the seed-004 "restrictions on the 96B swizzle mode" (tma.md §4.3, §12 item 2) and
// open-questions.md 1 (a mode of sm_103; row pitch unknown, 96 B assumed here). Values derived by hand.
#include "layoutscope/engine.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

/// A 96 x 8 UINT8 tensor (96-B rows) with a 96 x 4 box: the widest box 96B swizzle allows.
TensorMapTiledParams uint8Rows96() {
    TensorMapTiledParams p;
    p.dataType = TensorDataType::UINT8;
    p.tensorRank = 2;
    p.globalAddress = 0x7f0000000000ull;
    p.globalDim[0] = 96, p.globalDim[1] = 8;
    p.globalStrides[0] = 96;
    p.boxDim[0] = 96, p.boxDim[1] = 4;
    p.elementStrides[0] = p.elementStrides[1] = 1;
    return p;
}

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

Diagnostic firstError(const std::string& text) {
    auto r = parseScenario(text);
    if (r) FAIL("expected a diagnostic for:\n" << text);
    return r.error();
}

void requireRestriction96(const std::string& text, int n, const std::string& phrase) {
    const Diagnostic d = firstError(text);
    INFO(formatDiagnostic(d));
    CHECK(d.span.line == 2); // at the tensormap directive
    CHECK(has(d.message, "PTX 96B swizzle restriction " + std::to_string(n) + ": \""));
    CHECK(has(d.message, phrase));
    CHECK(has(d.ruleRef, "96B swizzle restriction " + std::to_string(n)));
}

} // namespace

TEST_CASE("96B swizzle address table (PTX table, tma.md §4.2)", "[tma][swizzle96]") {
    // Line 0 of each 256-byte period keeps its 16-byte chunks; line 1 holds them as 1 0 3 2 5 4 7 6.
    const uint32_t line1[8] = {1, 0, 3, 2, 5, 4, 7, 6};
    for (uint32_t base : {0x400u, 0x500u, 0x1F00u})
        for (uint32_t c = 0; c < 8; ++c)
            for (uint32_t b : {0u, 7u, 15u}) {
                INFO("base " << base << " chunk " << c << " byte " << b);
                CHECK(swizzleAddress(TensorSwizzle::PTX_96B, base + 16 * c + b) == base + 16 * c + b);
                CHECK(swizzleAddress(TensorSwizzle::PTX_96B, base + 128 + 16 * c + b) ==
                      base + 128 + 16 * line1[c] + b);
            }
    CHECK(swizzleSpan(TensorSwizzle::PTX_96B) == 96); // Box-Size[0] <= 96 B; pitch assumed (open question 1)
    CHECK(ruleInfo(RuleId::TmaSwizzle96B).provenance == Provenance::Assumption);
}

TEST_CASE("96B is not a cuda.h swizzle: the CUDA 13.0 encoder still rejects it", "[tma][swizzle96][encode]") {
    TensorMapTiledParams p = uint8Rows96();
    CHECK(encodeTiled(p, TmaArch::Sm103).ok());
    p.swizzle = TensorSwizzle::PTX_96B;
    for (TmaArch a : {TmaArch::Sm90, TmaArch::Sm100, TmaArch::Sm103, TmaArch::Sm120})
        CHECK_FALSE(encodeTiled(p, a).ok());
    CHECK_FALSE(has(cudaName(TensorSwizzle::PTX_96B), "CU_TENSOR_MAP"));
}

TEST_CASE("swizzle=96B in a scenario: rows 96 B apart, chunks swapped on odd 128-byte lines",
          "[tma][swizzle96][scenario]") {
    const std::string text = "target sm_103a\n"
                             "tensormap A tiled UINT8 dims=[96,8] box=[96,4] swizzle=96B\n"
                             "smem sA 1024 align=1024\nmbarrier bar\n"
                             "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                             "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                             "[sA], [A, {0, 0}], [bar];\n";
    auto s = parseScenario(text);
    if (!s) FAIL(formatDiagnostic(s.error()));
    auto run = runScenario(*s);
    if (!run) FAIL(formatDiagnostic(run.error()));
    const auto smem = run->final.smem[0].bytes();
    REQUIRE(s->findBuffer("sA")->addr == 0x400);
    // fill=index: byte (x, y) = (96y + x) & 0xFF. Row y starts at 0x400 + 96y; A in [0x480, 0x500) is line 1.
    CHECK(smem[0x410] == 16);           // row 0, x = 16: line 0, unchanged
    CHECK(smem[0x460] == 96);           // row 1, x = 0 at 0x460: line 0 (bit 7 clear)
    CHECK(smem[0x490] == 128);          // row 1, x = 32 at 0x480 -> 0x490
    CHECK(smem[0x480] == 144);          // row 1, x = 48 at 0x490 -> 0x480
    CHECK(smem[0x4D0] == 192);          // row 2, x = 0 at 0x4C0 -> 0x4D0
    CHECK(smem[0x4C0] == 208);          // row 2, x = 16 at 0x4D0 -> 0x4C0
    CHECK(smem[0x500] == (256 & 0xFF)); // row 2, x = 64 at 0x500: line 2 (bit 7 clear)
    CHECK(smem[0x400 + 4 * 96] == 0);   // nothing past the 4 rows of 96 B
    CHECK(run->final.mbarriers.begin()->second.completedBytes == 4 * 96);
    bool named = false;
    for (const ByteMove& m : run->trace.moves) named |= m.rule == RuleId::TmaSwizzle96B;
    CHECK(named);
}

TEST_CASE("swizzle=96B exists only on sm_103a / sm_103f", "[tma][swizzle96][scenario]") {
    const std::string tail = "\ntensormap A tiled UINT8 dims=[96,8] box=[96,4] swizzle=96B\n";
    for (const char* t : {"sm_90a", "sm_100a", "sm_100f", "sm_110a", "sm_120a"}) {
        const Diagnostic d = firstError(std::string("target ") + t + tail);
        INFO(formatDiagnostic(d));
        CHECK(d.span.line == 2);
        CHECK(has(d.message, "sm_103a and sm_103f"));
        CHECK(has(d.message, "not a cuda.h CUtensorMapSwizzle value"));
    }
    // sm_103a with PTX 8.8, the first version that has mode 4 (sm_103f is not a modelled target).
    CHECK(parseScenario("target sm_103a\nptx 8.8" + tail +
                        "smem s 1024\n"
                        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [A, {0, 0}], [s];\n")
              .ok());
}

TEST_CASE("seed-004 restrictions on the 96B swizzle", "[tma][swizzle96][scenario]") {
    const std::string t = "target sm_103a\n";
    requireRestriction96(
        t + "tensormap A tiled UINT8 dims=[16,4,2] box=[16,2,2] interleave=16B swizzle=96B\n", 2,
        ".interleave_layout must not be set");
    requireRestriction96(t + "tensormap A tiled FLOAT16 dims=[64,8] box=[64,4] swizzle=96B\n", 3,
                         "Box-Size[0] must be less than or equal to 96B");
    requireRestriction96(t + "tensormap A tiled 16U4_ALIGN16B dims=[256,8] box=[128,4] swizzle=96B\n", 4,
                         ".b4x16_p64, .b6x16_p32 and .b6p2x16");
    requireRestriction96(t + "tensormap A tiled 16U6_ALIGN16B dims=[256,8] box=[128,4] swizzle=96B\n", 4,
                         ".b4x16_p64, .b6x16_p32 and .b6p2x16");
    requireRestriction96(t + "tensormap Y im2col_wide FLOAT16 dims=[8,256,4,2] lower=0 upper=0 channels=8 "
                             "pixels=16 mode=W128 swizzle=96B\n",
                         5, ".im2col::w::128");
    // Allowed: 48 fp16 = 96 B; .b4x16 (not padded) 192 values = 96 B; im2col-wide mode W.
    CHECK(parseScenario(t + "tensormap A tiled FLOAT16 dims=[48,8] box=[48,4] swizzle=96B\nsmem s 1024\n"
                            "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [A, {0, 0}], [s];\n")
              .ok());
    CHECK(parseScenario(t +
                        "tensormap A tiled 16U4_ALIGN8B dims=[192,8] box=[192,4] swizzle=96B\nsmem s 1024\n"
                        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [A, {0, 0}], [s];\n")
              .ok());
    auto wide =
        parseScenario(t + "tensormap Y im2col_wide FLOAT16 dims=[8,256,4,2] lower=0 upper=0 channels=8 "
                          "pixels=16 mode=W swizzle=96B\nsmem s 2048 align=1024\nmbarrier bar\n"
                          "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w.mbarrier::complete_tx::"
                          "bytes [s], [Y, {0, 0, 0, 0}], [bar], {0, 0};\n");
    if (!wide) FAIL(formatDiagnostic(wide.error()));
    CHECK(runScenario(*wide).ok());
}

TEST_CASE("a 96B map copied on another arch faults at execution", "[tma][swizzle96]") {
    TensorMapTiledParams p = uint8Rows96();
    auto enc = encodeTiled(p, TmaArch::Sm100);
    REQUIRE(enc.ok());
    TmaTileLoad ld;
    ld.map = enc.value();
    ld.map.p.swizzle = TensorSwizzle::PTX_96B; // as tensormap.replace .swizzle_mode 4 would
    ld.dstAddr = 0x400;
    ld.mbarAddr = 0x800;
    for (TmaArch a : {TmaArch::Sm100, TmaArch::Sm103}) {
        MachineState st(1, 0);
        st.global.addRegion(p.globalAddress, 96 * 8, nullptr);
        Trace trace;
        TraceBuilder tb(trace);
        tb.beginInstr("cp.async.bulk.tensor");
        ld.arch = a;
        const Status s = executeTmaLoad(ld, st, tb);
        tb.endInstr();
        if (a == TmaArch::Sm103) {
            CHECK(s.ok());
        } else {
            REQUIRE_FALSE(s.ok());
            CHECK(has(s.diagnostics().front().message, "sm_103a and sm_103f"));
        }
    }
}
