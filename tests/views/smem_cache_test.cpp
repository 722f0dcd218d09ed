// SmemSceneCache must give exactly smemSceneAt's scene (which scene_test.cpp checks against the
// SWIZZLE_128B formula) whatever the order of seeks, with and without the fading trail.
#include "fake_trace.hpp"
#include "scene/smem_scene_cache.hpp"
#include "tmem_fixture.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("SmemSceneCache equals smemSceneAt for any seek order", "[views][scene][cache]") {
    for (int variant = 0; variant < 2; ++variant) {
        auto doc = variant == 0 ? test::makeFakeSw128Document() : test::makeTmemBenchDocument(700, 8192);
        const auto frames = boxFrames(*doc);
        const uint32_t n = doc->trace().stepCount;
        SmemSceneCache cache;
        int bad = 0;
        for (uint32_t fade : {0u, 4u})
            for (uint32_t s : {n, 0u, 1u, n / 2, 2u, n + 3, n - 1, 3u, n / 3, n / 2 + 1, n / 2 + 2}) {
                const SmemScene a = smemSceneAt(*doc, s, frames, 0, fade);
                const SmemScene& b = cache.sceneAt(*doc, s, frames, 0, fade);
                bad += a.texels != b.texels;
                bad += a.moveOf != b.moveOf;
                bad += a.step != b.step;
            }
        INFO("variant " << variant);
        CHECK(bad == 0);
    }
}
