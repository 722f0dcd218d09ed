// Where a recorded instruction comes from (issue 22 item 4): the instruction of a step, the origin in
// words, the CUDA file beside the module, and the inspector naming the instruction that moved a byte.
#include "kernel_fixture.hpp"
#include "scene/inspect.hpp"
#include "scene/smem_scene.hpp"
#include "scene/source_origin.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <sys/stat.h>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("The instruction of a step is the one whose moves lead to it", "[views][origin]") {
    const auto doc = test::makeRecordedDocument();
    const Trace& t = doc->trace();
    // The fixture: instr 0 steps [0,4), instr 1 none (at 4), instr 2 [4,5), instr 3 [5,6).
    REQUIRE(t.stepCount == 6);
    CHECK(instrOfStep(t, 0) == 0);
    for (uint32_t s = 1; s <= 4; ++s) CHECK(instrOfStep(t, s) == 0);
    CHECK(instrOfStep(t, 5) == 2);
    CHECK(instrOfStep(t, 6) == 3);
    CHECK(instrOfStep(Trace{}, 3) == -1);
}

TEST_CASE("An origin in words: PTX line, CUDA file and line, warp of CTA", "[views][origin]") {
    CHECK(originText(SourceOrigin{812, "examples/cute/tutorial/blackwell/01_mma_sm100.cu", 143, 0, 2, 64}) ==
          "PTX line 812, 01_mma_sm100.cu:143, warp 2 of CTA 0");
    CHECK(originText(SourceOrigin{5, "", 0, 1, 3, 96}) == "PTX line 5 (no CUDA line info), warp 3 of CTA 1");
    CHECK(originText(SourceOrigin{5, "k.cu", 9, -1, -1, -1}) == "PTX line 5, k.cu:9");
    CHECK(originText(SourceOrigin{}) == "no line info");
}

TEST_CASE("The CUDA file is found as written, else beside the module", "[views][origin]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("ls_origin_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string ptx = test::writeRecordedSources(dir.string(), true);
    const std::string cu = (dir / "src" / "kernel.cu").string();
    CHECK(resolveSourcePath(cu, ptx) == cu);                       // absolute, as written
    CHECK(resolveSourcePath("src/kernel.cu", ptx) == cu);          // relative to the .ptx's folder
    CHECK(resolveSourcePath("src/missing.cu", ptx).empty());       // neither
    CHECK(resolveSourcePath("", ptx).empty());                     // no line info
    CHECK(resolveSourcePath((dir / "src").string(), ptx).empty()); // a folder is not a source file
    const std::string fifo = (dir / "fifo.cu").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(resolveSourcePath(fifo, ptx).empty()); // never opened (it would block)
    fs::remove_all(dir);
}

TEST_CASE("The inspector names the instruction, PTX and CUDA line that moved a byte", "[views][origin]") {
    const auto doc = test::makeRecordedDocument();
    const auto frames = boxFrames(*doc);
    const uint32_t step = doc->trace().stepCount;
    const SmemScene s = smemSceneAt(*doc, step, frames);
    Replay replay(doc->trace(), doc->initial());
    replay.seek(step);
    const auto smem = replay.state().smem[0].bytes();
    SECTION("a byte the TMA copy wrote (warp 0)") {
        const std::string text = inspectSmemByte(*doc, s, smem, 0x412);
        CHECK_THAT(text, Catch::Contains("by:      cp.async.bulk.tensor.2d.shared::cluster.global.tile"));
        CHECK_THAT(text, Catch::Contains("PTX line 12, kernel.cu:7, warp 0 of CTA 0"));
    }
    SECTION("a byte a thread's st.shared wrote (warp 1)") {
        const std::string text = inspectSmemByte(*doc, s, smem, 0x505);
        CHECK_THAT(text, Catch::Contains("by:      st.shared.v4.u32"));
        CHECK_THAT(text, Catch::Contains("PTX line 20, kernel.cu:11, warp 1 of CTA 0"));
    }
    SECTION("no origin line for a hand-written scenario's move") {
        auto plain = test::makeRecordedDocument();
        Trace t = plain->trace();
        for (TraceInstr& in : t.instrs) in.origin = {};
        auto doc2 = Document::fromTrace(std::move(t), plain->initial(), std::vector<InstrTile>(4),
                                        SmemWindow{0, 0x400, 0x280});
        const SmemScene s2 = smemSceneAt(*doc2, step, boxFrames(*doc2));
        CHECK_THAT(inspectSmemByte(*doc2, s2, smem, 0x412), !Catch::Contains("by:"));
    }
}
