// The consumer model (consumer.hpp) against hand-derived addresses, and the producer/consumer check of a
// tcgen05.cp on planted descriptor bugs. Truth: the K-major SWIZZLE_128B canonical layout puts row r,
// byte b at (r%8)*128 + (r/8)*SBO + b, then XORs bits [4,7) with bits [7,10) (PTX ISA §9.7.16.3.3,
// CuTe Swizzle<3,4,3>); a UINT8 TMA box with SWIZZLE_128B puts element (x, y) at logical y*128 + x.
#include "layoutscope/analysis/consumer.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

TEST_CASE("tcgen05.cp reads every row's 16-byte chunks through the descriptor's swizzle", "[consumer]") {
    SmemDescriptor d;
    d.startAddress = 0;
    d.lbo = 16;
    d.sbo = 1024;
    d.layoutType = uint32_t(SmemLayoutType::Swizzle128B);
    const auto reads = tcgen05CpReads(CpShape::k128x256b, d);
    REQUIRE(reads.size() == 128 * 2);
    for (const OperandRead& r : reads) {
        const uint32_t logical = (r.m % 8) * 128 + (r.m / 8) * 1024 + r.kByte;
        CHECK(r.addr == (logical ^ ((r.m % 8) << 4)));
        CHECK(r.length == 16);
    }
}

TEST_CASE("checkReads counts the reads that see another element than the inferred one", "[consumer]") {
    const std::vector<OperandRead> reads{{0, 0, 16, 0}, {1, 0, 16, 128}, {1, 16, 16, 144}};
    // A producer that wrote rows of 128 B: address a holds element (a % 128, a / 128), except 144.
    const ProducerLookup p = [](uint32_t a) -> std::optional<ProducedByte> {
        if (a == 144) return std::nullopt;
        return ProducedByte{{a % 128, a / 128}, 1, 0};
    };
    const ConsumerCheck c = checkReads(reads, p, {0, 0}, 1);
    CHECK(c.reads == 3);
    REQUIRE(c.mismatched == 1);
    CHECK(c.first[0].m == 1);
    CHECK(c.first[0].k == 16);
    CHECK(c.first[0].expected == std::array<int64_t, 2>{16, 1});
    CHECK(!c.first[0].actual);
}

namespace {

std::string cpErrors(const std::string& desc) {
    const std::string text =
        "target sm_100a\ntensormap A tiled UINT8 dims=[128,128] box=[128,128] swizzle=128B\n"
        "smem sA 16384 align=1024\nsmem taddrBuf 16\nmbarrier bar\nmbarrier cpDone\n" +
        desc +
        "\nlet tmem = 0\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 16384;\n"
        "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, "
        "{0, 0}], [bar];\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n"
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
        "tcgen05.cp.cta_group::1.128x256b [tmem], sd;\n" // line 14
        "mbarrier.init.shared::cta.b64 [cpDone], 1;\n"
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [cpDone];\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [cpDone], 0;\n"
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 32;\n";
    return test::runErrors(text);
}

} // namespace

TEST_CASE("A descriptor that disagrees with the TMA tile it reads is diagnosed with its fix",
          "[consumer][check]") {
    SECTION("SWIZZLE_64B descriptor over a SWIZZLE_128B tile") {
        // Row 1, byte 0 under SW64: (1%8)*64 = 64, XOR of bits [7,9) into [4,6) changes nothing: address
        // 64, which the 128B TMA filled with row 0, element 64: (64, 0). 224 of 256 chunks differ: only
        // row 0, and the rows whose SW64 and SW128 images coincide (r%8 == 0 -> all 16 rows r%8==0 ok).
        const std::string e = cpErrors("desc sd start=sA lbo=16 sbo=1024 swizzle=64B");
        CHECK(e.find("14: tcgen05.cp reads 224 of 256 16-byte chunks") == 0);
        CHECK(e.find("A[m=1][k=0]: expected global (x=0, y=1), reads (x=64, y=0)") != std::string::npos);
        CHECK(
            e.find(
                "Fix: set the descriptor's layout type to 128B: desc sd ... lbo=16 sbo=1024 swizzle=128B") !=
            std::string::npos);
    }
    SECTION("SBO 512: rows 8.. read rows 4..") {
        const std::string e = cpErrors("desc sd start=sA lbo=16 sbo=512 swizzle=128B");
        CHECK(e.find("240 of 256") != std::string::npos); // rows 8..127, 2 chunks each
        CHECK(e.find("A[m=8][k=0]: expected global (x=0, y=8), reads (x=0, y=4)") != std::string::npos);
        CHECK(e.find("Fix: set sbo=1024") != std::string::npos);
    }
    SECTION("the right descriptor: no finding") {
        CHECK(cpErrors("desc sd start=sA lbo=16 sbo=1024 swizzle=128B") == "");
    }
}
