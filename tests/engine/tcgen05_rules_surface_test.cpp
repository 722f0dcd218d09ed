// What a tcgen05 scenario run reports beyond its bytes: allocation-rule warnings (PTX ISA 9.2 §9.7.16.7.1:
// non-increasing nCols, everything deallocated before exit) and every rule an instruction depends on, so the
// open questions of ../shared/ref/open-questions.md (numbers below) reach the CLI and the GUI.
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace layoutscope;

namespace {

Result<Run> runText(const std::string& text) {
    auto s = parseScenario(text);
    if (!s) return s.diagnostics();
    return runScenario(*s);
}

constexpr const char* kHead = "target sm_100a\nptx 8.8\nsmem taddrBuf 16\nsmem taddrBuf2 16\n"; // lines 1-4
constexpr const char* kAlloc32 = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n";
constexpr const char* kAlloc64 = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf2], 64;\n";

// The open-question numbers a rule cites (its reference after "open-questions.md").
std::string openQuestions(RuleId r) {
    const std::string ref = ruleInfo(r).reference;
    const size_t at = ref.find("open-questions.md");
    return at == std::string::npos ? std::string() : ref.substr(at + 18);
}

// Every rule instruction `i` depends on: its moves' rules and TraceInstr::alsoRules.
std::vector<RuleId> rulesOf(const Trace& t, uint32_t i) {
    std::vector<RuleId> r = t.instrs.at(i).alsoRules;
    for (const ByteMove& m : t.moves)
        if (m.instr == i) r.push_back(m.rule);
    return r;
}
bool has(const std::vector<RuleId>& v, RuleId r) {
    return std::find(v.begin(), v.end(), r) != v.end();
}

} // namespace

TEST_CASE("scenario: an allocation larger than the previous one is a warning at that alloc",
          "[tcgen05][scenario][alloc]") {
    // PTX: nCols must not increase from one allocation to the next; the consequence is not stated, so the
    // run goes on. Line 6 allocates 64 after 32 on line 5.
    auto r = runText(std::string(kHead) + kAlloc32 + kAlloc64 +
                     "tcgen05.dealloc.cta_group::1.sync.aligned.b32 0, 32;\n"
                     "tcgen05.dealloc.cta_group::1.sync.aligned.b32 64, 64;\n");
    REQUIRE(r);
    REQUIRE(r->warnings.size() == 1);
    const Diagnostic& w = r->warnings[0];
    CHECK(w.severity == Severity::Warning);
    CHECK(w.span.line == 6);
    CHECK(w.ruleRef.find("§9.7.16.7.1") != std::string::npos);
    CHECK(w.message.find("non-increasing") != std::string::npos);
    CHECK(r->trace.instrs.size() == 4); // the run did not stop
    SECTION(".cta_group::2: the warning of each CTA of the pair") {
        auto p = runText("target sm_100a\nptx 8.8\ncluster 2\nsmem taddrBuf 16\nsmem taddrBuf2 16\n"
                         "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                         "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [taddrBuf2], 64;\n"
                         "tcgen05.dealloc.cta_group::2.sync.aligned.b32 0, 32;\n"
                         "tcgen05.dealloc.cta_group::2.sync.aligned.b32 64, 64;\n");
        REQUIRE(p);
        REQUIRE(p->warnings.size() == 2);
        CHECK(p->warnings[0].message.find("CTA 0: this allocation requests 64 columns") == 0);
        CHECK(p->warnings[1].message.find("CTA 1: this allocation requests 64 columns") == 0);
        CHECK(p->warnings[1].span.line == 7);
    }
}

TEST_CASE("scenario: columns still allocated at the end are warnings at their alloc",
          "[tcgen05][scenario][alloc]") {
    SECTION("everything deallocated: no warning") {
        auto r =
            runText(std::string(kHead) + kAlloc32 + "tcgen05.dealloc.cta_group::1.sync.aligned.b32 0, 32;\n");
        REQUIRE(r);
        CHECK(r->warnings.empty());
    }
    SECTION("a live allocation names the rule, the PTX section and the columns") {
        // First fit with 32 columns: columns 0..31 (tcgen05.md §2.2 allocation unit = columns).
        auto r = runText(std::string(kHead) + kAlloc32 +
                         "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n");
        REQUIRE(r);
        REQUIRE(r->warnings.size() == 1); // relinquish has no exit rule in PTX; only the leak is reported
        const Diagnostic& w = r->warnings[0];
        CHECK(w.severity == Severity::Warning);
        CHECK(w.span.line == 5);
        CHECK(w.ruleRef.find("PTX ISA 9.2 §9.7.16.7.1") != std::string::npos);
        CHECK(w.message.find("columns 0..31") != std::string::npos);
        CHECK(w.message.find("'tcgen05.alloc'") != std::string::npos);
        CHECK(w.message.find("end of the scenario") != std::string::npos);
    }
    SECTION(".cta_group::2: one warning per CTA of the pair") {
        auto r = runText("target sm_100a\nptx 8.8\ncluster 2\nsmem taddrBuf 16\n"
                         "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n");
        REQUIRE(r);
        REQUIRE(r->warnings.size() == 2);
        CHECK(r->warnings[0].message.find("CTA 0") == 0);
        CHECK(r->warnings[1].message.find("CTA 1") == 0);
        CHECK(r->warnings[1].span.line == 5);
    }
}

TEST_CASE("tcgen05.cp with warpx2 and decompression depends on the warpx2, walk and decompression rules",
          "[tcgen05][scenario][rules]") {
    auto r = runText("target sm_100a\nptx 8.8\nsmem sA 1024 align=1024\nsmem taddrBuf 16\n"
                     "desc sd start=sA lbo=1024 sbo=128 swizzle=none\nlet tmem = 0\n" +
                     std::string(kAlloc32) +
                     "tcgen05.cp.cta_group::1.64x128b.warpx2::02_13.b8x16.b6x16_p32 [tmem], sd;\n");
    REQUIRE(r);
    const std::vector<RuleId> rules = rulesOf(r->trace, 1);
    CHECK(has(rules, RuleId::Tcgen05Decompress6to8));          // open questions 3, 28
    CHECK(has(rules, RuleId::Tcgen05CpWarpx2));                // open question 20
    CHECK(has(rules, RuleId::Tcgen05CpSourceWalk));            // open question 3
    CHECK_FALSE(has(rules, RuleId::SmemDescriptorBaseOffset)); // no swizzle, base 0: the XOR is the identity
    CHECK(openQuestions(RuleId::Tcgen05CpWarpx2) == "20");
    CHECK(openQuestions(RuleId::Tcgen05CpSourceWalk) == "3");
}

TEST_CASE("a swizzled tcgen05.cp depends on the descriptor base-offset assumption",
          "[tcgen05][scenario][rules]") {
    auto r = runText("target sm_100a\nptx 8.8\nsmem sA 16384 align=1024\nsmem taddrBuf 16\n"
                     "desc sd start=sA lbo=16 sbo=1024 swizzle=128B\nlet tmem = 0\n" +
                     std::string(kAlloc32) + "tcgen05.cp.cta_group::1.128x256b [tmem], sd;\n");
    REQUIRE(r);
    const std::vector<RuleId> rules = rulesOf(r->trace, 1);
    CHECK(has(rules, RuleId::SmemDescriptorBaseOffset)); // open question 22
    CHECK(has(rules, RuleId::SmemDescriptorSwizzle));
    CHECK(has(rules, RuleId::Tcgen05CpSourceWalk));
    CHECK(openQuestions(RuleId::SmemDescriptorBaseOffset) == "22");
}

TEST_CASE("16x32bx2 moves depend on the immHalfSplitoff rule (open question 25)",
          "[tcgen05][scenario][rules]") {
    auto r = runText(std::string(kHead) + kAlloc32 +
                     "tcgen05.st.sync.aligned.16x32bx2.x1.b32 [taddrBuf], 4, {%r0};\n");
    REQUIRE(r);
    CHECK(has(rulesOf(r->trace, 1), RuleId::TmemHalfSplitoff));
    const RuleInfo& ri = ruleInfo(RuleId::TmemHalfSplitoff);
    CHECK(ri.provenance == Provenance::Assumption); // PTX is silent on range and overlap (open question 25)
    CHECK(openQuestions(RuleId::TmemHalfSplitoff) == "25");
    CHECK_FALSE(has(rulesOf(r->trace, 0), RuleId::TmemHalfSplitoff));
}

TEST_CASE("the lane-quarter rule is an assumption: it rests on open questions 24 and 27",
          "[tcgen05][rules]") {
    CHECK(openQuestions(RuleId::TmemLaneQuarter) == "24, 27");
    CHECK(ruleInfo(RuleId::TmemLaneQuarter).provenance == Provenance::Assumption);
}
