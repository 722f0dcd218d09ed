// scenario/async_order_ranges.cpp reads an instruction's ranges run by run (issue 25 item 3). Truth: the
// per-move walk it replaced (every move rebuilt through MoveTable::operator[], each move's range merged),
// kept here as the reference, over real traces: a SW128 TMA tile, tcgen05.ld/st shapes, a multicast,
// and every bundled scenario.
#include "scenario/async_order_ranges.hpp"

#include "layoutscope/tma/tma.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <tuple>

using namespace layoutscope;
using async::Range;

namespace {

// The reference: the walk async_order.cpp had before the run walk, move by move.
std::vector<Range> perMoveRanges(const Scenario& s, const Trace& tr, uint32_t idx, bool dst, int onlyCta) {
    std::vector<Range> rs;
    const TraceInstr& ti = tr.instrs[idx];
    for (uint64_t i = ti.firstMove; i < ti.endMove; ++i) {
        const ByteMove m = tr.moves[i];
        const MemRef& r = dst ? m.dst : m.src;
        if (r.space != MemSpace::SharedCta && r.space != MemSpace::TensorMemory &&
            r.space != MemSpace::Register)
            continue;
        if (onlyCta >= 0 && r.cta != onlyCta) continue;
        const uint64_t len = r.space == MemSpace::TensorMemory ? (m.length + 3) / 4 : m.length;
        rs.push_back(Range{r.space, r.cta, r.addr, r.addr + len, {}});
    }
    std::sort(rs.begin(), rs.end(), [](const Range& a, const Range& b) {
        return std::tie(a.space, a.cta, a.begin) < std::tie(b.space, b.cta, b.begin);
    });
    std::vector<Range> out;
    for (Range& r : rs) {
        if (!out.empty() && out.back().space == r.space && out.back().cta == r.cta &&
            r.begin <= out.back().end &&
            (r.space != MemSpace::TensorMemory || (r.begin >> 16) == (out.back().begin >> 16)))
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    for (Range& r : out) {
        for (const ScenarioBuffer& b : s.buffers)
            if (r.space == MemSpace::SharedCta && b.cta == r.cta && r.begin >= b.addr &&
                r.begin < uint64_t(b.addr) + b.size) {
                r.name = b.name;
                break;
            }
        if (r.space == MemSpace::TensorMemory) r.name = "TMEM";
        if (r.space == MemSpace::Register) r.name = "registers";
    }
    return out;
}

std::string show(const std::vector<Range>& rs) {
    std::string o;
    for (const Range& r : rs)
        o += std::to_string(int(r.space)) + " cta " + std::to_string(r.cta) + " [" + std::to_string(r.begin) +
             "," + std::to_string(r.end) + ") " + r.name + "\n";
    return o;
}

struct Counts {
    size_t compared = 0, moves = 0;
};

// Every instruction of the scenario, reads and writes, all CTAs and each CTA alone: the run walk's ranges
// equal the reference's.
Counts compareScenario(const std::string& path) {
    INFO(path);
    auto text = readScenarioFile(path);
    REQUIRE(text);
    auto s = parseScenario(*text);
    Counts c;
    if (!s) return c; // bad-input examples
    auto run = runScenario(*s);
    if (!run) return c;
    const Trace& tr = run->trace;
    for (uint32_t i = 0; i < tr.instrs.size(); ++i) {
        c.moves += tr.instrs[i].endMove - tr.instrs[i].firstMove;
        for (bool dst : {false, true})
            for (int cta = -1; cta < 4; ++cta) {
                INFO("instruction " << i << (dst ? " writes" : " reads") << " cta " << cta);
                CHECK(show(scn::movesRanges(*s, tr, i, dst, cta)) ==
                      show(perMoveRanges(*s, tr, i, dst, cta)));
                ++c.compared;
            }
    }
    return c;
}

const std::string kAssets = LAYOUTSCOPE_ASSETS_DIR;

} // namespace

TEST_CASE("movesRanges from the trace's runs equals merging every move's range", "[order-ranges]") {
    SECTION("TMA tile loads, SWIZZLE_128B") {
        CHECK(compareScenario(kAssets + "/reviews/operand_sw128_one_box.scn").moves > 0);
        CHECK(compareScenario(kAssets + "/scenarios/tcgen05_mma_i8_128x64.scn").moves > 0);
    }
    SECTION("tcgen05.ld / tcgen05.st shapes") {
        for (const char* f : {"/scenarios/tcgen05_ld_16x64b.scn", "/scenarios/tcgen05_st_16x32bx2.scn",
                              "/scenarios/tcgen05_st_32x32b.scn", "/reviews/epilogue_16x256b_plain.scn",
                              "/reviews/epilogue_16x256b_swizzled.scn", "/reviews/epilogue_32x32b_plain.scn",
                              "/reviews/epilogue_32x32b_swizzled.scn"})
            CHECK(compareScenario(kAssets + f).moves > 0);
    }
    SECTION("a multicast load") {
        CHECK(compareScenario(kAssets + "/scenarios/broken/async_multicast_mask_omits_cta_fixed.scn").moves >
              0);
        CHECK(compareScenario(kAssets + "/scenarios/broken/async_multicast_mask_omits_cta.scn").moves > 0);
    }
    SECTION("every bundled scenario") {
        size_t files = 0;
        for (const char* dir : {"/scenarios", "/scenarios/broken", "/reviews"})
            for (const auto& e : std::filesystem::directory_iterator(kAssets + dir))
                if (e.path().extension() == ".scn") {
                    compareScenario(e.path().string());
                    ++files;
                }
        CHECK(files >= 90);
    }
}

TEST_CASE("MoveTable::runSpans rebuilds every move of a range", "[order-ranges]") {
    auto text = readScenarioFile(kAssets + "/reviews/epilogue_16x256b_swizzled.scn");
    REQUIRE(text);
    auto s = parseScenario(*text);
    REQUIRE(s);
    auto run = runScenario(*s);
    REQUIRE(run);
    const MoveTable& t = run->trace.moves;
    REQUIRE(t.size() > 0);
    const size_t lo = t.size() / 3, hi = t.size() - 1; // starts and ends inside runs
    size_t seen = 0;
    for (const MoveTable::RunSpan& v : t.runSpans(lo, hi))
        for (uint64_t k = v.k0; k < v.k1; ++k, ++seen) {
            const ByteMove a = MoveTable::gridMoveLevels(v.first, std::span(v.n.data(), v.levels),
                                                         std::span(v.s.data(), v.levels), k, v.derive);
            const ByteMove b = t[v.index + k];
            REQUIRE(v.index + k == lo + seen);
            REQUIRE(std::tie(a.step, a.instr, a.src.space, a.src.cta, a.src.addr, a.dst.space, a.dst.cta,
                             a.dst.addr, a.length, a.logicalOffset, a.coord, a.dataOffset) ==
                    std::tie(b.step, b.instr, b.src.space, b.src.cta, b.src.addr, b.dst.space, b.dst.cta,
                             b.dst.addr, b.length, b.logicalOffset, b.coord, b.dataOffset));
        }
    CHECK(seen == hi - lo);
}

// The run walk relies on it: every swizzle XORs bits [3,7) of an address with a function of its bits
// [7,10), leaving the other bits alone (so a 128-byte aligned block is its own image).
TEST_CASE("each swizzle permutes 128-byte aligned blocks in place", "[order-ranges]") {
    for (TensorSwizzle sw :
         {TensorSwizzle::NONE, TensorSwizzle::S32B, TensorSwizzle::S64B, TensorSwizzle::S128B,
          TensorSwizzle::S128B_ATOM_32B, TensorSwizzle::S128B_ATOM_32B_FLIP_8B, TensorSwizzle::S128B_ATOM_64B,
          TensorSwizzle::PTX_96B}) {
        INFO("swizzle " << uint32_t(sw));
        for (uint32_t a = 0; a < 4096 + 1024; ++a) {
            const uint32_t x = swizzleAddress(sw, a) ^ a;
            REQUIRE((x & ~0x78u) == 0);                                    // only bits [3,7)
            REQUIRE(x == (swizzleAddress(sw, a & ~0x7Fu) ^ (a & ~0x7Fu))); // a function of the 128-byte line
            REQUIRE(x == (swizzleAddress(sw, a & 0x3FFu) ^ (a & 0x3FFu))); // of bits [7,10) only
        }
    }
}
