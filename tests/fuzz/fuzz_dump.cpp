// libFuzzer target: arbitrary bytes through the dump readers of `diff` / `observe` (issue 25 item 7) and
// the lesson reader. Nothing may crash, hang or trip a sanitizer; a dump that reads must hold bytes (an
// empty one would "match" anything) and compare against a run without error for a buffer it names.
//   bytes -> parseObservedBytes (.npy, cuda-gdb / xxd hex, raw) -> compareObserved (smem and tmem windows)
//   text  -> parseLesson (header, steps, selectors, questions; an embedded scenario is parsed too)
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/lesson/lesson.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

using namespace layoutscope;

namespace {

// A 16 x 4 UINT8 tile loaded into sA (tests/data/observed/tile16x4.scn), run once.
struct Fixture {
    Scenario scenario;
    std::optional<Run> run;
    Fixture() {
        auto s = parseScenario("target sm_90a\n"
                               "tensormap A tiled UINT8 dims=[16,4] box=[16,4] fill=bytes\n"
                               "smem sA 64 align=128\nmbarrier bar\n"
                               "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                               "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 64;\n"
                               "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
                               "[sA], [A, {0, 0}], [bar];\n");
        if (!s) std::abort();
        scenario = *s;
        auto r = runScenario(scenario);
        if (!r) std::abort();
        run.emplace(std::move(*r));
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const Fixture f;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (auto bytes = parseObservedBytes(text)) {
        if (bytes->bytes.empty()) std::abort(); // a dump that holds nothing must be refused
        Observation smem;
        smem.space = Observation::Space::Smem, smem.name = "sA";
        if (!compareObserved(f.scenario, *f.run, smem, *bytes, 4)) std::abort();
        Observation tmem;
        tmem.space = Observation::Space::Tmem, tmem.lane0 = data[0] % 128,
        tmem.lanes = 1 + data[size - 1] % 8;
        (void)compareObserved(f.scenario, *f.run, tmem, *bytes, 4);
    }
    (void)parseLesson(text);
    return 0;
}
