// Reads are outlines, not recolourings (issue 12): after a tcgen05.cp reads the tile a TMA load wrote,
// every byte keeps the colour the load gave it, and exactly the bytes the cp read carry kFlagRead at the
// cp's steps. Which bytes: row r, bytes 0..31 of the 128B-swizzled K-major tile at sA (1024-aligned):
// sA + ((r*128 + b) ^ ((r % 8) << 4)) (PTX ISA §9.7.16.3.3, CuTe Swizzle<3,4,3>).
#include "scene/document.hpp"
#include "scene/smem_scene.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("A read keeps the producer's colour and is flagged, not recoloured", "[views][scene][reads]") {
    auto doc = Document::fromText(
        "target sm_100a\ntensormap A tiled UINT8 dims=[128,128] box=[128,128] swizzle=128B\n"
        "smem sA 16384 align=1024\nsmem taddrBuf 16\nmbarrier bar\n"
        "desc sd start=sA lbo=16 sbo=1024 swizzle=128B\nlet tmem = 0\n"
        "mbarrier.init.shared::cta.b64 [bar], 1;\n"
        "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], "
        "[A, {0, 0}], [bar];\n"
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
        "tcgen05.cp.cta_group::1.128x256b [tmem], sd;\n",
        "reads.scn");
    REQUIRE(doc->hasTrace());
    const Trace& t = doc->trace();
    const auto frames = boxFrames(*doc);
    const uint32_t afterLoad = t.instrs[1].endStep, end = t.stepCount;
    const SmemScene loaded = smemSceneAt(*doc, afterLoad, frames);
    const uint32_t base = doc->smemWindow(0).base;
    const uint32_t sA = 1024; // the first buffer, 1024-aligned
    std::set<uint32_t> read;
    for (uint32_t r = 0; r < 128; ++r)
        for (uint32_t b = 0; b < 32; ++b) read.insert(sA + ((r * 128 + b) ^ ((r % 8) << 4)));
    // The cp's steps: one per source row. At each, the row's 32 bytes are flagged; colours never change.
    const uint32_t cpFirst = t.instrs[3].firstStep;
    size_t flaggedTotal = 0;
    for (uint32_t step = cpFirst + 1; step <= end; ++step) {
        const SmemScene s = smemSceneAt(*doc, step, frames);
        const uint32_t row = step - 1 - cpFirst;
        for (uint32_t a = sA; a < sA + 16384; ++a) {
            const Rgba8 now = s.texels[a - base], before = loaded.texels[a - base];
            REQUIRE((now.r == before.r && now.g == before.g && now.b == before.b));
            const bool flagged = (now.a & kFlagRead) != 0;
            const uint32_t l = (a - sA) ^ ((((a - sA) >> 7) % 8) << 4); // logical offset of a
            const bool thisRow = l / 128 == row && l % 128 < 32;
            REQUIRE(flagged == thisRow);
            flaggedTotal += flagged;
        }
    }
    CHECK(flaggedTotal == read.size());
}
