// The one-line run summaries of the im2col family state what was loaded: .im2col::w loads
// pixelsPerColumn + wHalo pixel rows, .im2col::w::128 loads 128 + 4 * wHalo (a halo after each group of
// 32; pixelsPerColumn ignored: PTX ISA 9.2 §5.5.5, tma.md §9.1), and the .im2col_no_offs store rule is
// the one measured on the H100 (docs/im2col.md §3), not an open question.
#include "layoutscope/engine.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

Run runText(const std::string& text) {
    auto s = parseScenario(text);
    if (!s) FAIL(formatDiagnostic(s.error()));
    auto r = runScenario(*s);
    if (!r) FAIL(formatDiagnostic(r.error()));
    return std::move(*r);
}

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// fp16, 8 channels = 16 B per pixel row; 32B swizzle: a 32-byte pitch.
std::string wideHead(const char* mode) {
    return std::string(
               "target sm_100a\n"
               "tensormap Y im2col_wide FLOAT16 dims=[8,256,4,2] lower=0 upper=0 channels=8 pixels=16 "
               "swizzle=32B mode=") +
           mode + "\nsmem s 8192 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
}

} // namespace

TEST_CASE("im2col::w::128 summary counts 128 + 4 x wHalo pixels", "[tma][im2col][scenario]") {
    const Run r =
        runText(wideHead("W128") +
                "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w::128.mbarrier::complete_tx::bytes "
                "[s], [Y, {0, 0, 0, 0}], [bar], {2, 0};\n");
    const std::string& sum = r.trace.instrs.back().summary;
    INFO(sum);
    CHECK(has(sum, "136 pixels (128 + 4 x 2 halo"));
    CHECK_FALSE(has(sum, "16 pixels"));
    CHECK(r.final.mbarriers.begin()->second.completedBytes == 136 * 16);
}

TEST_CASE("im2col::w summary counts pixelsPerColumn + wHalo pixels", "[tma][im2col][scenario]") {
    const Run r = runText(wideHead("W") +
                          "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes "
                          "[s], [Y, {0, 0, 0, 0}], [bar], {3, 0};\n");
    const std::string& sum = r.trace.instrs.back().summary;
    INFO(sum);
    CHECK(has(sum, "19 pixels (16 + 3 halo)"));
    CHECK(r.final.mbarriers.begin()->second.completedBytes == 19 * 16);
}

TEST_CASE("im2col_no_offs store summary follows its measured rule", "[tma][im2col][scenario]") {
    const Run r = runText(
        "tensormap X im2col FLOAT16 dims=[8,4,3,2] lower=[0,0] upper=[0,0] channels=8 pixels=4\n"
        "smem s 256 align=1024\n"
        "cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group [X, {0, 0, 0, 0}], [s];\n");
    const std::string& sum = r.trace.instrs.back().summary;
    INFO(sum);
    CHECK_FALSE(has(sum, "unverified"));
    CHECK_FALSE(has(sum, "open question 18"));
    CHECK(has(sum, "measured"));
    CHECK(ruleInfo(RuleId::TmaIm2colNoOffsStore).provenance == Provenance::HardwareSm90);
}
