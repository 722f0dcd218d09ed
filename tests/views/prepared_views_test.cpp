// prepareViews (the editor's re-check builds the views' state on its worker, issue 11 item 4) must give
// what the main window builds itself: the engine's final and initial memory from the Replay, and
// smemSceneAt's scene (the slow function the cache is checked against) from the moved scene cache.
#include "scene/prepared_views.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

std::unique_ptr<Document> example(const char* name) {
    return Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/" + name);
}

/// Whether two states hold the same shared memory in every CTA and the same global bytes wherever a move of
/// `t` wrote global memory (and as many written global pages).
bool sameMemory(const MachineState& a, const MachineState& b, const Trace& t) {
    if (a.smem.size() != b.smem.size()) return false;
    for (size_t c = 0; c < a.smem.size(); ++c)
        if (!std::ranges::equal(a.smem[c].bytes(), b.smem[c].bytes())) return false;
    if (a.global.materialisedPages() != b.global.materialisedPages()) return false;
    for (const ByteMove& m : t.moves) {
        if (m.dst.space != MemSpace::Global) continue;
        std::vector<uint8_t> x(m.length), y(m.length);
        a.global.read(m.dst.addr, x);
        b.global.read(m.dst.addr, y);
        if (x != y) return false;
    }
    return true;
}

} // namespace

// The document opens at its last step: replayAtEnd takes the run's final memory there instead of applying
// every move. The truth is the trace itself: a Replay from the initial memory that applies each move.
TEST_CASE("replayAtEnd is the trace replayed to its last step", "[views][scene][prepared]") {
    SECTION("every bundled scenario") {
        int seen = 0;
        for (const auto& e :
             std::filesystem::directory_iterator(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios")) {
            if (e.path().extension() != ".scn") continue;
            INFO(e.path().filename().string());
            auto doc = Document::fromFile(e.path().string());
            REQUIRE(doc->hasTrace());
            ++seen;
            const Trace& t = doc->trace();
            Replay moved(t, doc->initial());
            moved.seek(t.stepCount);
            auto end = replayAtEnd(*doc);
            REQUIRE(end->step() == t.stepCount);
            CHECK(sameMemory(end->state(), moved.state(), t));
            // And back from there to the first and the middle step: the before bytes give the same memory.
            for (uint32_t s : {t.stepCount / 2, 0u}) {
                moved.seek(s);
                end->seek(s);
                CHECK(sameMemory(end->state(), moved.state(), t));
            }
        }
        CHECK(seen >= 20);
    }
    SECTION("a trace stopped at its budget replays its moves (the final memory has more)") {
        std::string text =
            "tensormap A tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n"
            "smem sA 32768 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
        for (int i = 0; i < 4; ++i)
            text += "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n"
                    "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA+" +
                    std::to_string(8192 * i) + "], [A, {" + std::to_string(64 * i) +
                    ", 0}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], " +
                    std::to_string(i % 2) + ";\n";
        RunOptions o;
        o.traceBudgetBytes = 20000; // room for about two of the four 8 KiB loads
        auto doc = Document::fromText(text, {}, o);
        REQUIRE(doc->hasTrace());
        const Trace& t = doc->trace();
        REQUIRE(t.firstUntraced() < t.instrs.size());
        Replay moved(t, doc->initial());
        moved.seek(t.stepCount);
        auto end = replayAtEnd(*doc);
        CHECK(end->step() == t.stepCount);
        CHECK(sameMemory(end->state(), moved.state(), t));
        // The last load was not traced: its bytes are in the final memory but not at the trace's last step.
        const auto fin = doc->run().final.smem[0].bytes();
        CHECK_FALSE(std::ranges::equal(end->state().smem[0].bytes(), fin));
    }
}

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
