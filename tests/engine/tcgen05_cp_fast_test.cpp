// The bulk tcgen05.cp path (exec_bulk.cpp, exec_cp.cpp) against the per-move executor it replaces, the
// obviously-correct reference: the same moves, bytes, steps and final state for every shape, multicast,
// swizzle and decompression, the descriptor walk (cpSourceAddresses, cpWalkOf) against cpSourceAddress, and
// the trace budget.
#include "tcgen05_fast_util.hpp"

#include "layoutscope/tcgen05/smem_descriptor.hpp"

#include <array>
#include <random>

using namespace layoutscope;
using test::hex;
using test::regList;
using test::requireSameRun;
using test::runWith;

namespace {

// A random descriptor of every layout type, start, LBO, SBO and base offset (the fields' full ranges).
SmemDescriptor randomCpDescriptor(std::mt19937& rng) {
    SmemDescriptor d;
    d.startAddress = 16 * uint32_t(rng() % 16384);
    d.lbo = 16 * uint32_t(rng() % 16384);
    d.sbo = 16 * uint32_t(rng() % 16384);
    d.layoutType = std::array<uint32_t, 5>{0, 1, 2, 4, 6}[rng() % 5];
    d.baseOffset = uint32_t(rng() % 8);
    return d;
}

} // namespace

TEST_CASE("The bulk tcgen05.cp moves exactly what the per-move executor moves", "[tcgen05][fast]") {
    const char* swizzles[] = {"none", "128B", "64B", "32B"};
    const char* forms[] = {"128x256b",
                           "128x128b",
                           "4x256b",
                           "128x256b.b8x16.b6x16_p32",
                           "128x128b.b8x16.b4x16_p64",
                           "32x128b.warpx4",
                           "64x128b.warpx2::01_23",
                           "64x128b.warpx2::02_13",
                           "32x128b.warpx4.b8x16.b4x16_p64",
                           "64x128b.warpx2::02_13.b8x16.b6x16_p32"};
    std::mt19937 rng(29);
    int ran = 0;
    for (int trial = 0; trial < 80; ++trial) {
        const std::string swz = swizzles[rng() % 4];
        const uint32_t lbo = 16 * (1 + rng() % 64), sbo = 16 * (1 + rng() % 128);
        std::string text =
            "target sm_100a\nptx 8.8\ntensormap F tiled UINT8 dims=[256,256] box=[128,128] "
            "swizzle=128B\nfill F pattern=random\nsmem sA 65536 align=1024\nsmem taddrBuf 16\n"
            "mbarrier bar\ndesc sd start=sA lbo=" +
            std::to_string(lbo) + " sbo=" + std::to_string(sbo) + " swizzle=" + swz +
            "\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
            "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], "
            "[F, {0, 0}], [bar];\n"
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 512;\n";
        for (int k = 0; k < 3; ++k) {
            const std::string form = forms[rng() % std::size(forms)];
            const uint32_t col = 4 * uint32_t(rng() % 120);
            text += "let c" + std::to_string(k) + " = " + std::to_string(col) + "\n";
            text += "tcgen05.cp.cta_group::1." + form + " [c" + std::to_string(k) + "], sd;\n";
        }
        INFO(text);
        auto fast = runWith(text, true), slow = runWith(text, false);
        REQUIRE(bool(fast) == bool(slow));
        if (!fast) continue; // a descriptor the rules reject: both reject it
        ++ran;
        requireSameRun(*fast, *slow);
    }
    CHECK(ran >= 40);
}

TEST_CASE("cpSourceAddresses is cpSourceAddress of every row and chunk", "[tcgen05][fast]") {
    std::mt19937 rng(31);
    for (const uint32_t rows : {4u, 32u, 64u, 128u}) // every shape's rows, 16 and 32 B rows
        for (const uint32_t chunks : {1u, 2u})
            for (int trial = 0; trial < 100; ++trial) {
                const SmemDescriptor d = randomCpDescriptor(rng);
                std::array<uint32_t, 256> got{};
                const detail::CpWalk w = detail::cpSourceAddresses(d, rows, chunks, got.data());
                uint32_t highest = 0;
                for (uint32_t r = 0; r < rows; ++r)
                    for (uint32_t q = 0; q < chunks; ++q) {
                        REQUIRE(got[r * chunks + q] == cpSourceAddress(d, r, 16 * q));
                        highest = std::max(highest, got[r * chunks + q]);
                    }
                REQUIRE(w.maxAddr == highest);
            }
}

TEST_CASE("cpWalkOf gives a SWIZZLE_NONE walk's terms and highest address without its addresses",
          "[tcgen05][fast]") {
    // The truth is cpSourceAddress per row and chunk: affine exactly when the layout type has no swizzle.
    std::mt19937 rng(37);
    for (const uint32_t rows : {4u, 32u, 64u, 128u})
        for (const uint32_t chunks : {1u, 2u})
            for (int trial = 0; trial < 100; ++trial) {
                const SmemDescriptor d = randomCpDescriptor(rng);
                const detail::CpWalk w = detail::cpWalkOf(d, rows, chunks);
                REQUIRE(w.affine == (d.layoutType == 0));
                if (!w.affine) continue;
                uint32_t highest = 0;
                for (uint32_t r = 0; r < rows; ++r)
                    for (uint32_t q = 0; q < chunks; ++q) {
                        const uint64_t a = uint64_t(w.start) + (r % 8) * uint64_t(w.t1) +
                                           (r / 8) * uint64_t(w.t8) + q * uint64_t(w.dq); // no wrapping
                        REQUIRE(a == cpSourceAddress(d, r, 16 * q));
                        highest = std::max(highest, uint32_t(a));
                    }
                REQUIRE(w.maxAddr == highest);
            }
}

TEST_CASE("The bulk tcgen05.cp keeps the trace budget: untraced copies still move the data",
          "[tcgen05][fast][budget]") {
    // Every shape, with and without a swizzle (copied by the walk's terms, or by its address table) and
    // decompression, before and past the budget: the same trace, TMEM and shared memory as per move.
    const char* forms[] = {"128x256b",
                           "128x128b",
                           "4x256b",
                           "32x128b.warpx4",
                           "64x128b.warpx2::01_23",
                           "64x128b.warpx2::02_13",
                           "128x256b.b8x16.b6x16_p32"};
    for (const char* swz : {"none", "128B"}) {
        std::string text =
            "target sm_100a\nptx 8.8\ntensormap F tiled UINT8 dims=[256,256] box=[128,128] "
            "swizzle=128B\nfill F pattern=random\nsmem sA 65536 align=1024\nsmem taddrBuf 16\n"
            "mbarrier bar\ndesc sd start=sA lbo=128 sbo=256 swizzle=" +
            std::string(swz) +
            "\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
            "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], "
            "[F, {0, 0}], [bar];\n"
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 512;\n";
        for (size_t k = 0; k < 2 * std::size(forms); ++k) {
            text += "let c" + std::to_string(k) + " = " + std::to_string(8 * (k % 60)) + "\n";
            text += "tcgen05.cp.cta_group::1." + std::string(forms[k % std::size(forms)]) + " [c" +
                    std::to_string(k) + "], sd;\n";
        }
        auto sc = parseScenario(text);
        REQUIRE(sc);
        for (uint64_t budget : {uint64_t(0), uint64_t(60000)}) {
            INFO(swz << " budget " << budget);
            const auto [fastRun, slowRun] = test::runBothAtBudget(*sc, budget);
            const Run *fast = &fastRun, *slow = &slowRun;
            requireSameRun(*fast, *slow);
            REQUIRE(fast->trace.firstUntraced() < fast->trace.instrs.size());
            if (budget != 0) // some copies traced, then the rest not
                REQUIRE(fast->trace.instrs[fast->trace.firstUntraced() - 1].text.rfind("tcgen05.cp", 0) == 0);
            REQUIRE(fast->final.smem.size() == slow->final.smem.size());
            for (size_t c = 0; c < fast->final.smem.size(); ++c) {
                const auto x = fast->final.smem[c].bytes(), y = slow->final.smem[c].bytes();
                REQUIRE(std::equal(x.begin(), x.end(), y.begin(), y.end()));
            }
        }
    }
}
