// The bulk tcgen05.st/ld path (exec_ldst_bulk.cpp, ldst_copy.cpp, ldst_rows.cpp: every shape) against
// the per-move executor they replace, the obviously-correct reference (itself checked by hand-derived
// tests and `conform cute`): the same moves field by field, before/after bytes, steps, summaries and rules,
// final Tensor Memory and registers, on random forms, register names, lane quarters, columns and
// descriptors, including forms the bulk paths decline.
#include "tcgen05_fast_util.hpp"

#include <numeric>
#include <random>

using namespace layoutscope;
using test::hex;
using test::regList;
using test::requireSameRun;
using test::runWith;

TEST_CASE("The bulk tcgen05.st/ld moves exactly what the per-move executor moves", "[tcgen05][fast]") {
    std::mt19937 rng(23);
    int ran = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const uint32_t warp = rng() % 8, quarter = warp % 4;
        std::string text = "target sm_100a\nptx 8.8\nsmem taddrBuf 16\n"
                           "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 512;\n"
                           "warp " +
                           std::to_string(warp) + "\nregs pattern=" + (trial % 2 ? "random" : "index") + "\n";
        for (int k = 0; k < 4; ++k) {
            const uint32_t n = 1u << (rng() % 8); // .x1 .. .x128
            const uint32_t col = uint32_t(rng() % (512 - n + 1));
            // Register names: in order from a base, reversed, or shuffled (the bulk path splits the run).
            std::vector<uint32_t> names(128);
            std::iota(names.begin(), names.end(), 0u);
            const uint32_t kind = rng() % 3;
            if (kind == 0) {
                const uint32_t base = uint32_t(rng() % (128 - n + 1));
                for (uint32_t j = 0; j < n; ++j) names[j] = base + j;
            } else if (kind == 1) {
                for (uint32_t j = 0; j < n; ++j) names[j] = 127 - j;
            } else {
                std::shuffle(names.begin(), names.end(), rng);
            }
            names.resize(n);
            const std::string t = "t" + std::to_string(k);
            text += "let " + t + " = " + hex(quarter * 32 << 16 | col) + "\n";
            const std::string x = ".32x32b.x" + std::to_string(n) + ".b32 ";
            if (rng() % 2)
                text += "tcgen05.st.sync.aligned" + x + "[" + t + "], " + regList(names) + ";\n";
            else
                text += "tcgen05.ld.sync.aligned" + x + regList(names) + ", [" + t + "];\n";
        }
        // Other forms between them (.pack::16b, .16x64b: the same bulk path, other levels).
        text += "let tq = " + hex(quarter * 32 << 16) + "\n";
        text += "tcgen05.ld.sync.aligned.32x32b.x4.pack::16b.b32 {%r0, %r1, %r2, %r3}, [tq];\n";
        text += "tcgen05.st.sync.aligned.16x64b.x2.b32 [tq], {%r4, %r5};\n";
        INFO(text);
        auto fast = runWith(text, true), slow = runWith(text, false);
        REQUIRE(bool(fast) == bool(slow));
        if (!fast) {
            INFO(fast.diagnostics()[0].message);
            CHECK(false);
            continue;
        }
        ++ran;
        requireSameRun(*fast, *slow);
    }
    CHECK(ran >= 30);
}

TEST_CASE("Every tcgen05.st/ld shape, .num and .pack/.unpack moves exactly what the per-move executor moves",
          "[tcgen05][fast]") {
    // Each shape with and without .pack::16b / .unpack::16b, every .num it allows, loads and stores, at
    // random warps, lanes in the warp's quarter and columns, registers named in order from a base, reversed
    // (even steps: one grid per instruction) or shuffled (one grid per register); .16x32bx2 with immediates
    // that put the halves apart, side by side, overlapping, on the same cells and to the left.
    const LdStShape shapes[] = {LdStShape::k16x64b, LdStShape::k16x128b, LdStShape::k16x256b,
                                LdStShape::k32x32b, LdStShape::k16x32bx2};
    std::mt19937 rng(37);
    int ran = 0, combos = 0;
    for (const LdStShape shape : shapes)
        for (const bool pack : {false, true}) {
            std::string text = "target sm_100a\nptx 8.8\nsmem taddrBuf 16\n"
                               "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 512;\n"
                               "regs pattern=random\n";
            int k = 0;
            size_t maxRuns = 1; // the alloc's store
            for (uint32_t num = 1; num <= 128; num *= 2) {
                LdStForm f;
                f.shape = shape;
                f.num = num;
                f.pack16b = pack;
                const uint32_t n = regsPerThread(f);
                if (n > 128) continue;
                for (const bool store : {false, true}) {
                    ++combos;
                    const uint32_t warp = rng() % 8, quarter = warp % 4;
                    const uint32_t lane = 32 * quarter + (lanesTouched(f) == 16 ? uint32_t(rng() % 17) : 0);
                    int64_t imm = 0;
                    if (shape == LdStShape::k16x32bx2) {
                        const int64_t choices[] = {0, 1, int64_t(num), int64_t(num) + 3, -2};
                        imm = choices[rng() % 5];
                        f.immHalfSplitoff = imm;
                    }
                    const int64_t cols = ldStFootprint(f).cols, lo = std::min<int64_t>(0, imm);
                    const uint32_t col = uint32_t(-lo + int64_t(rng() % uint32_t(512 - cols + lo + 1)));
                    std::vector<uint32_t> names(128);
                    std::iota(names.begin(), names.end(), 0u);
                    const uint32_t kind = rng() % 3;
                    if (kind == 0) {
                        const uint32_t base = uint32_t(rng() % (128 - n + 1));
                        for (uint32_t j = 0; j < n; ++j) names[j] = base + j;
                    } else if (kind == 1) {
                        for (uint32_t j = 0; j < n; ++j) names[j] = 127 - j;
                    } else {
                        std::shuffle(names.begin(), names.end(), rng);
                    }
                    names.resize(n);
                    maxRuns += kind == 2 ? 3 * n : 1;
                    const std::string t = "t" + std::to_string(k++);
                    text +=
                        "warp " + std::to_string(warp) + "\nlet " + t + " = " + hex(lane << 16 | col) + "\n";
                    const std::string x = std::string(".") + ldStShapeName(shape) + ".x" +
                                          std::to_string(num) +
                                          (pack ? (store ? ".unpack::16b" : ".pack::16b") : "") + ".b32 ";
                    const std::string immArg =
                        shape == LdStShape::k16x32bx2 ? ", " + std::to_string(imm) : std::string();
                    if (store)
                        text += "tcgen05.st.sync.aligned" + x + "[" + t + "]" + immArg + ", " +
                                regList(names) + ";\n";
                    else
                        text +=
                            "tcgen05.ld.sync.aligned" + x + regList(names) + ", [" + t + "]" + immArg + ";\n";
                }
            }
            INFO(text);
            auto fast = runWith(text, true), slow = runWith(text, false);
            REQUIRE(bool(fast) == bool(slow));
            if (!fast) FAIL(fast.diagnostics()[0].message);
            ++ran;
            requireSameRun(*fast, *slow);
            // The bulk path took every instruction: one run each (registers named evenly), at most a few per
            // register (shuffled), never one per move.
            CHECK(fast->trace.moves.runCount() <= maxRuns);
        }
    CHECK(ran == 10);
    CHECK(combos >= 60);
}

TEST_CASE(
    "A tcgen05.ld/st form repeated at other warps, lanes, columns and registers moves what the per-move "
    "executor moves",
    "[tcgen05][fast]") {
    // The bulk path keeps a form's cell offsets and grid levels for its next access (exec_ldst_bulk.cpp,
    // Plan): each repeat at another warp, lane, column or register base must start at its own first move, and
    // other register names (another register step) must not take the kept levels.
    const LdStShape shapes[] = {LdStShape::k16x256b, LdStShape::k16x64b, LdStShape::k32x32b,
                                LdStShape::k16x32bx2};
    for (const LdStShape shape : shapes)
        for (const bool pack : {false, true}) {
            std::string text = "target sm_100a\nptx 8.8\nsmem taddrBuf 16\n"
                               "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 512;\n"
                               "regs pattern=random\n";
            LdStForm f;
            f.shape = shape;
            f.num = 8;
            f.pack16b = pack;
            const uint32_t n = regsPerThread(f);
            for (uint32_t rep = 0; rep < 6; ++rep) {
                const uint32_t warp = (rep * 3) % 8,
                               lane = 32 * (warp % 4) + (lanesTouched(f) == 16 ? 16 * (rep % 2) : 0);
                const uint32_t col = 40 * rep + 1;
                std::vector<uint32_t> names(n);
                for (uint32_t j = 0; j < n; ++j)
                    names[j] = rep == 3 ? 100 - 2 * j : 4 * rep + j; // rep 3: step -2
                const std::string t = "t" + std::to_string(rep);
                text += "warp " + std::to_string(warp) + "\nlet " + t + " = " + hex(lane << 16 | col) + "\n";
                const std::string x = std::string(".") + ldStShapeName(shape) + ".x8";
                const std::string imm =
                    shape == LdStShape::k16x32bx2 ? ", " + std::to_string(2 * n + rep) : "";
                text += "tcgen05.st.sync.aligned" + x + (pack ? ".unpack::16b" : "") + ".b32 [" + t + "]" +
                        imm + ", " + regList(names) + ";\n";
                text += "tcgen05.ld.sync.aligned" + x + (pack ? ".pack::16b" : "") + ".b32 " +
                        regList(names) + ", [" + t + "]" + imm + ";\n";
            }
            INFO(text);
            auto fast = runWith(text, true), slow = runWith(text, false);
            REQUIRE(bool(fast) == bool(slow));
            if (!fast) FAIL(fast.diagnostics()[0].message);
            requireSameRun(*fast, *slow);
        }
}

TEST_CASE("The bulk tcgen05 paths keep the trace budget: untraced instructions still move the data",
          "[tcgen05][fast][budget]") {
    std::string text =
        "target sm_100a\nptx 8.8\nsmem taddrBuf 16\nregs pattern=random\n"
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 512;\nlet t = 0\n";
    std::vector<uint32_t> names(64);
    std::iota(names.begin(), names.end(), 0u);
    for (int i = 0; i < 6; ++i) {
        text += "let t" + std::to_string(i) + " = " + std::to_string(64 * i) + "\n";
        text +=
            "tcgen05.st.sync.aligned.32x32b.x64.b32 [t" + std::to_string(i) + "], " + regList(names) + ";\n";
        text += "tcgen05.ld.sync.aligned.32x32b.x64.b32 " + regList(names) + ", [t" + std::to_string(i / 2) +
                "];\n";
    }
    auto sc = parseScenario(text);
    REQUIRE(sc);
    for (uint64_t budget : {uint64_t(0), uint64_t(40000)}) {
        const auto [fastRun, slowRun] = test::runBothAtBudget(*sc, budget);
        const Run *fast = &fastRun, *slow = &slowRun;
        requireSameRun(*fast, *slow);
        CHECK(fast->trace.firstUntraced() < fast->trace.instrs.size());
    }
}

TEST_CASE("A tcgen05.ld/st/cp of more than three nested counts is still one run of the trace",
          "[tcgen05][fast][movetable]") {
    // docs/trace.md's table: .16x256b splits the thread in two digits and the register in three (.pack::16b
    // adds the halves: six levels); .32x128b.warpx4 lands each row on four lanes (lanes, 8-row core
    // matrices, their 4 groups). Registers named in order and a packed canonical source: one run each.
    std::vector<uint32_t> names(128);
    std::iota(names.begin(), names.end(), 0u);
    const std::vector<uint32_t> n128 = names, n64(names.begin(), names.begin() + 64);
    const std::string text = "target sm_100a\nptx 8.8\nsmem taddrBuf 16\nsmem sA 4096 align=1024\n"
                             "desc sd start=sA lbo=128 sbo=256 swizzle=none\nregs pattern=random\nwarp 0\n"
                             "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 512;\n"
                             "let t = 0\n"
                             "tcgen05.ld.sync.aligned.16x256b.x32.b32 " +
                             regList(n128) + ", [t];\ntcgen05.ld.sync.aligned.16x256b.x16.pack::16b.b32 " +
                             regList(n64) +
                             ", [t];\ntcgen05.st.sync.aligned.16x64b.x64.unpack::16b.b32 [t], " +
                             regList(n64) + ";\ntcgen05.cp.cta_group::1.32x128b.warpx4 [t], sd;\n";
    auto r = runWith(text, true);
    REQUIRE(r);
    const Trace& t = r->trace;
    REQUIRE(t.instrs.size() == 5);
    CHECK(t.moves.size() == 1 + 4096 + 4096 + 4096 + 128); // 32 x 128 registers, x 64 x 2 halves; 32 x 4
    CHECK(t.moves.runCount() == 5);                        // the alloc's store, then one per instruction
}
