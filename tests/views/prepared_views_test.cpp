// prepareViews (the editor's re-check builds the views' state on its worker, issue 11 item 4) must give
// what the main window builds itself: the engine's final and initial memory from the Replay, and
// smemSceneAt's scene (the slow function the cache is checked against) from the moved scene cache.
#include "scene/prepared_views.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

std::unique_ptr<Document> example(const char* name) {
    return Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/" + name);
}

} // namespace

TEST_CASE("Prepared views equal the ones built on the UI thread", "[views][scene][prepared]") {
    for (const char* name : {"tma_tile_64x64_f16_sw128.scn", "tma_multicast_cluster2.scn",
                             "tcgen05_cp_64x128b_warpx2_02_13_b6.scn", "tma_gather4_rows.scn"}) {
        INFO(name);
        auto doc = example(name);
        REQUIRE(doc->hasTrace());
        REQUIRE(doc->scenario() != nullptr); // kept from the parse: the views do not parse it again
        CHECK(doc->scenario()->instrs.size() == doc->trace().instrs.size());
        auto prep = prepareViews(*doc);
        REQUIRE(prep);
        const uint32_t last = doc->trace().stepCount;
        // The Replay sits at the last step: every CTA's shared memory is the engine's final memory.
        REQUIRE(prep->replay->step() == last);
        for (size_t c = 0; c < doc->run().final.smem.size(); ++c) {
            const auto got = prep->replay->state().smem[c].bytes();
            const auto want = doc->run().final.smem[c].bytes();
            CHECK(std::equal(got.begin(), got.end(), want.begin(), want.end()));
        }
        prep->replay->seek(0);
        for (size_t c = 0; c < doc->initial().smem.size(); ++c) {
            const auto got = prep->replay->state().smem[c].bytes();
            const auto want = doc->initial().smem[c].bytes();
            CHECK(std::equal(got.begin(), got.end(), want.begin(), want.end()));
        }
        // The cache, moved out with its frames as MainWindow does, answers like smemSceneAt.
        std::vector<BoxFrame> frames = std::move(prep->frames);
        SmemSceneCache cache = std::move(prep->smem);
        cache.rebindFrames(frames);
        const auto fresh = boxFrames(*doc);
        REQUIRE(frames.size() == fresh.size());
        int bad = 0;
        for (uint32_t s : {last, 0u, last / 2, last}) {
            const SmemScene a = smemSceneAt(*doc, s, fresh, 0, 0);
            const SmemScene& b = cache.sceneAt(*doc, s, frames, 0, 0);
            bad += a.texels != b.texels;
            bad += a.moveOf != b.moveOf;
        }
        CHECK(bad == 0);
    }
}

TEST_CASE("A document without a trace prepares nothing", "[views][scene][prepared]") {
    auto doc = Document::fromText("target sm_90a\nnot an instruction;\n");
    CHECK_FALSE(doc->hasTrace());
    CHECK(doc->scenario() == nullptr);
    CHECK(prepareViews(*doc) == nullptr);
}
