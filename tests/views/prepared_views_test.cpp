// prepareViews (the editor's re-check builds the views' state on its worker, issue 11 item 4) must give
// what the main window builds itself: the engine's final and initial memory from the Replay, and
// smemSceneAt's scene (the slow function the cache is checked against) from the moved scene cache.
#include "scene/prepared_views.hpp"
#include "scene/replay_cache.hpp"

#include "layoutscope/analysis/compare_match.hpp"
#include "layoutscope/tcgen05/exec.hpp"

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
        auto prep = prepareViews(*doc, std::string(name) != "tma_gather4_rows.scn"); // two threads, and one
        REQUIRE(prep);
        const auto order = prepareViews(*doc, false)->order; // the async lanes: the same from either
        CHECK(prep->order.ops.size() == order.ops.size());
        CHECK(prep->order.phases.size() == order.phases.size());
        CHECK(prep->order.races.size() == order.races.size());
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

// The window's memory at a step comes from a ReplayCache (kept states every ~32,768 moves, so a scrub applies
// few moves). The truth: a fresh Replay from the initial memory seeking to the same step, move by move.
TEST_CASE("ReplayCache seeks to the same memory as a Replay from step 0", "[views][scene][prepared]") {
    std::string text = "tensormap A tiled FLOAT16 dims=[8192,8192] box=[64,64] swizzle=128B\n"
                       "smem sA 16384 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    for (int i = 0; i < 300; ++i) // 153,600 moves; two buffers' halves, so steps differ in both
        text += "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n"
                "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA+" +
                std::to_string(8192 * (i % 2)) + "], [A, {" + std::to_string(64 * (i % 128)) + ", " +
                std::to_string(64 * (i / 128)) +
                "}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], " + std::to_string(i % 2) +
                ";\n";
    auto doc = Document::fromText(text);
    REQUIRE(doc->hasTrace());
    const Trace& t = doc->trace();
    REQUIRE(t.moves.size() == 300u * 512u);
    auto end = replayAtEnd(*doc);
    const uint64_t bytes = replayStateBytes(end->state());
    ReplayCache<Replay> cache(t, std::move(*end), std::make_unique<Replay>(t, doc->initial()), bytes);
    CHECK(cache.step() == t.stepCount);
    CHECK(cache.keptCount() == 2); // the initial memory and the last step's
    uint64_t rng = 12345;
    std::vector<uint32_t> steps{0, t.stepCount, 1, t.stepCount - 1, t.stepCount / 2, t.stepCount / 2 + 1};
    for (int i = 0; i < 40; ++i) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        steps.push_back(uint32_t((rng >> 33) % (t.stepCount + 1)));
    }
    for (uint32_t s : steps) {
        INFO("step " << s);
        cache.seek(s);
        Replay truth(t, doc->initial());
        truth.seek(s);
        REQUIRE(cache.step() == s);
        CHECK(sameMemory(cache.state(), truth.state(), t));
    }
    // Forward passes kept states on the way (153,600 moves: marks at every 32,768), within the budget.
    CHECK(cache.keptCount() > 2);
    CHECK(cache.keptCount() <= 2 + t.moves.size() / ReplayCache<Replay>::kMovesApart);
}

// Tensor Memory the same way (TmemViews keeps a ReplayCache<TmemReplay>): the truth is a fresh TmemReplay.
TEST_CASE("ReplayCache of Tensor Memory seeks to the same cells as a TmemReplay from step 0",
          "[views][scene][prepared]") {
    // Registers stored to one place and loaded back from another, so the cells change as the trace goes on.
    std::string text =
        "target sm_100a\nptx 8.7\nsmem taddrBuf 16 align=16\nlet tmem = 0\nwarp 0\n"
        "regs pattern=index\ntcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 256;\n";
    for (int i = 0; i < 1200; ++i)
        text += "tcgen05.st.sync.aligned.32x32b.x4.b32 [tmem+" + std::to_string(4 * (i % 64)) +
                "], {%r0, %r1, %r2, %r3};\ntcgen05.wait::st.sync.aligned;\n"
                "tcgen05.ld.sync.aligned.32x32b.x4.b32 {%r0, %r1, %r2, %r3}, [tmem+" +
                std::to_string(4 * ((i * 7 + 3) % 64)) + "];\ntcgen05.wait::ld.sync.aligned;\n";
    auto doc = Document::fromText(text);
    REQUIRE(doc->hasTrace());
    const Trace& t = doc->trace();
    REQUIRE(t.moves.size() > 2 * ReplayCache<TmemReplay>::kMovesApart);
    ReplayCache<TmemReplay> cache(t, TmemReplay(t, doc->run().tmemInitial), nullptr, 512 * 1024);
    uint64_t rng = 777;
    std::vector<uint32_t> steps{t.stepCount, 0, t.stepCount / 2, 1, t.stepCount - 1};
    for (int i = 0; i < 30; ++i) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        steps.push_back(uint32_t((rng >> 33) % (t.stepCount + 1)));
    }
    for (uint32_t s : steps) {
        INFO("step " << s);
        cache.seek(s);
        TmemReplay truth(t, doc->run().tmemInitial);
        truth.seek(s);
        REQUIRE(cache.step() == s);
        REQUIRE(cache.state().ctas.size() == truth.state().ctas.size());
        bool same = true;
        for (size_t c = 0; c < truth.state().ctas.size(); ++c)
            for (uint32_t lane = 0; lane < kTmemLanes && same; ++lane)
                for (uint32_t col = 0; col < kTmemColumns && same; ++col)
                    same = cache.state().ctas[c].cell(lane, col) == truth.state().ctas[c].cell(lane, col);
        CHECK(same);
    }
    CHECK(cache.keptCount() > 1);
}

namespace {
/// The box frames read move by move (the slow reference boxFrames is checked against): each move covers
/// length / element-size elements from its coord[0] and one row at its coord[1].
std::vector<BoxFrame> boxFramesByMove(const Document& doc) {
    const Trace& t = doc.trace();
    std::vector<BoxFrame> frames(t.instrs.size());
    std::vector<bool> seen(t.instrs.size(), false);
    for (const ByteMove& m : t.moves) {
        BoxFrame& f = frames[m.instr];
        const int64_t n = std::max<int64_t>(1, m.length / doc.elemBytesOf(m.instr));
        const std::array<int64_t, 2> lo{m.coord[0], m.coord[1]}, hi{lo[0] + n, lo[1] + 1};
        if (!seen[m.instr]) f.lo = lo, f.hi = hi, seen[m.instr] = true;
        f.gathered |= m.rule == RuleId::TmaGather4;
        for (size_t d = 0; d < 2; ++d) f.lo[d] = std::min(f.lo[d], lo[d]), f.hi[d] = std::max(f.hi[d], hi[d]);
    }
    return frames;
}
} // namespace

// boxFrames reads the trace by runs (the corners of each run's grid); the truth is every move read one by
// one.
TEST_CASE("boxFrames by runs equals the frames read move by move", "[views][scene][prepared]") {
    std::vector<std::unique_ptr<Document>> docs;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios"))
        if (e.path().extension() == ".scn") docs.push_back(Document::fromFile(e.path().string()));
    std::string loads = "tensormap A tiled FLOAT16 dims=[8192,8192] box=[64,64] swizzle=128B\n"
                        "smem sA 8192 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    for (int i = 0; i < 200; ++i)
        loads += "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n"
                 "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {" +
                 std::to_string(64 * (i % 128)) + ", " + std::to_string(64 * (i / 128)) +
                 "}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], " + std::to_string(i % 2) +
                 ";\n";
    docs.push_back(Document::fromText(loads));
    int checked = 0;
    for (const auto& doc : docs) {
        if (!doc->hasTrace()) continue;
        INFO(doc->path());
        const auto got = boxFrames(*doc), want = boxFramesByMove(*doc);
        REQUIRE(got.size() == want.size());
        int bad = 0;
        for (size_t i = 0; i < got.size(); ++i)
            bad += got[i].lo != want[i].lo || got[i].hi != want[i].hi || got[i].gathered != want[i].gathered;
        CHECK(bad == 0);
        ++checked;
    }
    CHECK(checked >= 20);
}

// The engine's sharedWindowOf (the documents' shared-memory window, and `compare`'s) reads the trace by runs;
// the truth is every move's bytes read one by one, the buffers too, rounded out to whole 128-byte rows.
TEST_CASE("sharedWindowOf by runs equals the window read move by move", "[views][scene][prepared]") {
    std::vector<std::unique_ptr<Document>> docs;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios"))
        if (e.path().extension() == ".scn") docs.push_back(Document::fromFile(e.path().string()));
    // Loads with each swizzle (the widest inner box it allows), into two buffers.
    for (const auto& [sw, box] : {std::pair{"128B", 64}, {"64B", 32}, {"32B", 16}, {"NONE", 64}}) {
        std::string text = std::string("tensormap A tiled FLOAT16 dims=[512,512] box=[") +
                           std::to_string(box) + ",16] swizzle=" + sw +
                           "\nsmem sA 8192 align=1024\nsmem sB 4096 align=1024\nmbarrier bar\n"
                           "mbarrier.init.shared::cta.b64 [bar], 1;\n";
        for (int i = 0; i < 6; ++i)
            text += "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], " + std::to_string(box * 32) +
                    ";\ncp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [" +
                    std::string(i % 2 ? "sB" : "sA+2048") + "], [A, {" + std::to_string(box * i) +
                    ", 16}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], " +
                    std::to_string(i % 2) + ";\n";
        docs.push_back(Document::fromText(text));
        INFO(sw);
        REQUIRE(docs.back()->hasTrace());
    }
    int checked = 0;
    for (const auto& doc : docs) {
        if (!doc->hasTrace()) continue;
        INFO(doc->path());
        const Trace& t = doc->trace();
        for (uint32_t k = 0; k < 2 * doc->initial().smem.size();
             ++k) { // each CTA with its buffers, then without
            const uint32_t cta = k / 2;
            const Scenario* sc = k % 2 ? nullptr : doc->scenario();
            uint64_t lo = UINT64_MAX, hi = 0;
            auto cover = [&](uint64_t a, uint64_t n) { lo = std::min(lo, a), hi = std::max(hi, a + n); };
            if (sc)
                for (const ScenarioBuffer& b : sc->buffers)
                    if (b.cta == cta && b.size > 0) cover(b.addr, b.size);
            for (const ByteMove& m : t.moves) {
                if (m.dst.space == MemSpace::SharedCta && m.dst.cta == cta) cover(m.dst.addr, m.length);
                if (m.src.space == MemSpace::SharedCta && m.src.cta == cta) cover(m.src.addr, m.length);
            }
            const SharedWindow w = sharedWindowOf(t, cta, sc);
            if (hi == 0) {
                CHECK(w.size == 0);
                continue;
            }
            CHECK(w.base == lo / 128 * 128);
            CHECK(uint64_t(w.base) + w.size == (hi + 127) / 128 * 128);
            ++checked;
        }
    }
    CHECK(checked >= 48);
}
