// Tensor Memory allocation and lane-quarter rules, hand-derived from PTX ISA 9.2 §9.7.16.7.1 / §9.7.16.8.1
// (tcgen05.md §2.1-2.3). Every violation must be a Diagnostic, never a crash.
#include "layoutscope/tcgen05/tmem.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

TEST_CASE("TMEM address is lane<<16 | column", "[tmem]") {
    CHECK(tmemAddress(32, 5) == 0x00200005u);
    CHECK(decodeTmemAddress(0x00610084u) == TmemAddr{97, 132});
}

TEST_CASE("tcgen05.alloc accepts power-of-two column counts 32..512 only", "[tmem][alloc]") {
    SECTION("valid sizes") {
        for (uint32_t n : {32u, 64u, 128u, 256u, 512u}) {
            TmemAllocator a;
            auto r = a.alloc(n);
            REQUIRE(r.ok());
            CHECK(decodeTmemAddress(*r).lane == 0);
        }
    }
    SECTION("invalid sizes are diagnostics naming the rule") {
        for (uint32_t n : {0u, 16u, 48u, 96u, 1024u}) {
            TmemAllocator a;
            auto r = a.alloc(n);
            REQUIRE_FALSE(r.ok());
            CHECK(r.error().ruleRef == ruleInfo(RuleId::TmemAlloc).reference);
        }
    }
}

TEST_CASE("TMEM exhaustion is reported as a blocking alloc, not a crash", "[tmem][alloc]") {
    TmemAllocator a;
    REQUIRE(a.alloc(256).ok());
    REQUIRE(a.alloc(256).ok());
    CHECK(a.freeColumns() == 0);
    auto r = a.alloc(32);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("block") != std::string::npos);
}

TEST_CASE("allocated blocks never overlap and dealloc frees them", "[tmem][alloc]") {
    TmemAllocator a;
    auto x = a.alloc(128), y = a.alloc(64), z = a.alloc(32);
    REQUIRE((x.ok() && y.ok() && z.ok()));
    const uint32_t cx = decodeTmemAddress(*x).column, cy = decodeTmemAddress(*y).column,
                   cz = decodeTmemAddress(*z).column;
    CHECK((cy >= cx + 128 || cy + 64 <= cx));
    CHECK((cz >= cy + 64 || cz + 32 <= cy));
    CHECK(a.freeColumns() == 512 - 224);
    REQUIRE(a.dealloc(*y, 64).ok());
    CHECK(a.freeColumns() == 512 - 160);
    SECTION("dealloc of an address alloc did not return is a diagnostic") {
        CHECK_FALSE(a.dealloc(*y, 64).ok());
    }
    SECTION("exit with live allocations is a diagnostic per leak") {
        auto s = a.checkExit();
        REQUIRE_FALSE(s.ok());
        CHECK(s.diagnostics().size() == 2);
    }
}

TEST_CASE("alloc after relinquish_alloc_permit is illegal", "[tmem][alloc]") {
    TmemAllocator a;
    a.relinquishAllocPermit();
    auto r = a.alloc(32);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().ruleRef == ruleInfo(RuleId::TmemRelinquish).reference);
}

TEST_CASE("an allocation larger than the previous one is flagged", "[tmem][alloc]") {
    TmemAllocator a;
    REQUIRE(a.alloc(64).ok());
    CHECK(a.warnings().empty());
    REQUIRE(a.alloc(128).ok());
    REQUIRE(a.warnings().size() == 1);
    CHECK(a.warnings()[0].severity == Severity::Warning);
}

TEST_CASE("cta_group::2 allocation takes the same columns in both CTAs of the pair", "[tmem][alloc][pair]") {
    CHECK(peerCta(0) == 1);
    CHECK(peerCta(5) == 4);
    TmemAllocator even, odd;
    REQUIRE(odd.alloc(32).ok()); // odd CTA already holds columns 0..31
    auto r = allocPair(even, odd, 64);
    REQUIRE(r.ok());
    CHECK(decodeTmemAddress(*r).column == 64);
    CHECK(deallocPair(even, odd, *r, 64).ok());
}

TEST_CASE("warp w may touch only lanes 32*(w%4)..+31", "[tmem][quarter]") {
    SECTION("inside the quarter") {
        CHECK(checkLaneQuarter(0, 0, 32).ok());
        CHECK(checkLaneQuarter(1, 48, 16).ok());
        CHECK(checkLaneQuarter(5, 32, 32).ok()); // warp 5 is quarter 1
    }
    SECTION("outside the quarter is a diagnostic") {
        auto s = checkLaneQuarter(1, 0, 32);
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().ruleRef == ruleInfo(RuleId::TmemLaneQuarter).reference);
        CHECK_FALSE(checkLaneQuarter(1, 56, 16).ok()); // lanes 56..71 cross into quarter 2
        CHECK_FALSE(checkLaneQuarter(3, 64, 32).ok());
    }
}

TEST_CASE("tcgen05 rule rows match their ids; assumptions say so", "[tmem][rules]") {
    for (auto i = static_cast<uint16_t>(RuleId::TmemAlloc);
         i <= static_cast<uint16_t>(RuleId::TmemHalfSplitoff); ++i) {
        const RuleInfo& r = ruleInfo(static_cast<RuleId>(i));
        INFO("rule " << i << " " << r.name);
        CHECK(static_cast<uint16_t>(r.id) == i);
        CHECK(std::string(r.reference).size() > 0);
        if (r.provenance == Provenance::Assumption) CHECK(std::string(r.description).find("unverified") == 0);
    }
}
