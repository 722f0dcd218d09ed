// MoveTable: compact runs must give back exactly the moves appended (checked against a plain vector,
// the obviously-correct storage), and real instructions must compress to a few runs.
#include "layoutscope/core/move_table.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tma.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace layoutscope;

namespace {

bool same(const MemRef& a, const MemRef& b) {
    return a.space == b.space && a.cta == b.cta && a.addr == b.addr;
}
bool same(const ByteMove& a, const ByteMove& b) {
    return a.step == b.step && a.instr == b.instr && same(a.src, b.src) && same(a.dst, b.dst) &&
           a.length == b.length && a.transform == b.transform && a.rule == b.rule &&
           a.logicalOffset == b.logicalOffset && a.coord == b.coord && a.dataOffset == b.dataOffset;
}

ByteMove blank() {
    ByteMove m;
    m.src.space = MemSpace::Global;
    m.dst.space = MemSpace::SharedCta;
    m.length = 16;
    return m;
}

void checkSame(const std::vector<ByteMove>& want, const MoveTable& t) {
    REQUIRE(t.size() == want.size());
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i) bad += !same(want[i], t[i]);
    CHECK(bad == 0);
    size_t i = 0; // iteration gives the same sequence
    for (const ByteMove& m : t) bad += !same(want[i++], m);
    CHECK(bad == 0);
    if (!want.empty()) CHECK(same(t.back(), want.back()));
    if (want.empty()) return;
    MoveTable::Cursor c(t, 0); // a Cursor's walk (each move stepped from the one before), then seeks back
    for (size_t k = 0; k < want.size(); ++k, c.next()) bad += !same(want[k], c.move());
    CHECK(c.index() == want.size());
    for (size_t k = want.size(); k-- > 0;) {
        c.seek(k);
        bad += !same(want[k], c.move());
    }
    CHECK(bad == 0);
}

} // namespace

TEST_CASE("MoveTable gives back every move appended, in order", "[trace][movetable]") {
    std::vector<ByteMove> want;
    MoveTable t;
    uint64_t data = 0;
    auto add = [&](ByteMove m, const AddrDerivation& d = {}) {
        m.dataOffset = data;
        data += m.length;
        want.push_back(m);
        t.push_back(m, d);
    };
    SECTION("a 3-level grid (plane x row x chunk) is one run") {
        for (int p = 0; p < 3; ++p)
            for (int r = 0; r < 5; ++r)
                for (int c = 0; c < 8; ++c) {
                    ByteMove m = blank();
                    m.step = uint32_t((p * 5 + r) * 8 + c);
                    m.src.addr = 0x7f0000000000 + uint64_t(p) * 65536 + uint64_t(r) * 8192 + uint64_t(c) * 16;
                    m.dst.addr = 1024 + uint64_t((p * 5 + r) * 128 + c * 16);
                    m.logicalOffset = uint32_t((p * 5 + r) * 128 + c * 16);
                    m.coord = {c * 8, r, p, 0, 0};
                    add(m);
                }
        checkSame(want, t);
        CHECK(t.runCount() == 1);
    }
    SECTION("swizzled destinations derived from the logical offset") {
        const AddrDerivation d{AddrDerivation::Side::Dst, uint32_t(TensorSwizzle::S128B), 1024};
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 8; ++c) {
                ByteMove m = blank();
                m.step = uint32_t(r * 8 + c);
                m.logicalOffset = uint32_t(r * 128 + c * 16);
                m.dst.addr = swizzleAddress(TensorSwizzle::S128B, 1024 + m.logicalOffset);
                m.src.addr = uint64_t(r) * 4096 + uint64_t(c) * 16;
                m.coord = {c * 8, r, 0, 0, 0};
                add(m, d);
            }
        checkSame(want, t);
        CHECK(t.runCount() == 1);
    }
    SECTION("irregular moves: random fields and lengths, each its own run where needed") {
        std::mt19937 rng(7);
        uint32_t step = 0;
        for (int i = 0; i < 2000; ++i) {
            ByteMove m = blank();
            step += rng() % 2;
            m.step = step;
            m.instr = uint32_t(i / 100);
            m.src.addr = rng() % 3 ? uint64_t(i) * 16 : rng();
            m.dst.addr = rng() % 4 ? uint64_t(i) * 4 : rng() % 200000;
            m.dst.cta = uint8_t(rng() % 2);
            m.length = rng() % 5 ? 16 : 1 + rng() % 32;
            m.rule = RuleId(rng() % 3);
            m.transform = Transform(rng() % 3);
            m.coord = {int32_t(rng() % 7) - 3, i, 0, int32_t(rng() % 2), 0};
            add(m);
        }
        checkSame(want, t);
    }
    SECTION("moves sharing one step (multicast copies) and step jumps") {
        for (int chunk = 0; chunk < 40; ++chunk)
            for (int cta = 0; cta < 4; ++cta) {
                ByteMove m = blank();
                m.step = uint32_t(chunk);
                m.dst.cta = uint8_t(cta);
                m.dst.addr = uint64_t(chunk) * 16;
                m.src.addr = uint64_t(chunk) * 16;
                add(m);
            }
        checkSame(want, t);
        CHECK(t.runCount() <= 2);
    }
}

TEST_CASE("Real instructions are stored as a few runs", "[trace][movetable]") {
    SECTION("a 64x64 fp16 SWIZZLE_128B tile load: 512 chunk moves in one run") {
        const char* text = R"(tensormap A tiled FLOAT16 dims=[4096,4096] box=[64,64] swizzle=128B
smem sA 8192 align=1024
mbarrier bar
mbarrier.init.shared::cta.b64 [bar], 1;
cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {64, 128}], [bar];
)";
        auto s = parseScenario(text);
        REQUIRE(s);
        auto r = runScenario(*s);
        REQUIRE(r);
        const TraceInstr& in = r->trace.instrs[1];
        CHECK(in.endMove - in.firstMove == 512);
        CHECK(in.bytesMoved == 8192);
        CHECK(r->trace.moves.runCount() <= 2);
    }
    SECTION("tcgen05.st .32x32b.x128: 4096 cell moves in one run") {
        std::string text = "target sm_100a\nsmem buf 16\nwarp 0\nregs pattern=index\n"
                           "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [buf], 128;\n"
                           "let tmem = 0\ntcgen05.st.sync.aligned.32x32b.x128.b32 [tmem], {";
        for (int i = 0; i < 128; ++i) text += (i ? ", %r" : "%r") + std::to_string(i);
        text += "};\n";
        auto s = parseScenario(text);
        REQUIRE(s);
        auto r = runScenario(*s);
        REQUIRE(r);
        const TraceInstr& in = r->trace.instrs[1];
        CHECK(in.endMove - in.firstMove == 4096);
        CHECK(r->trace.moves.runCount() <= 3); // alloc's store, the st
    }
}

TEST_CASE("A trace over its memory budget is summarised, not aborted", "[trace][budget]") {
    // 20 loads of different 32x32 fp16 tiles into one buffer; each traced load costs 2 KiB before + 2 KiB
    // after + its runs with every byte stored (compactTrace off), so a 10 KiB budget is passed during the
    // third load.
    std::string text = "tensormap A tiled FLOAT16 dims=[1024,1024] box=[32,32] swizzle=64B\n"
                       "smem sA 2048 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    for (int i = 0; i < 20; ++i)
        text += "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {" +
                std::to_string(32 * i) + ", " + std::to_string(32 * (i % 7)) + "}], [bar];\n";
    auto s = parseScenario(text);
    REQUIRE(s);
    auto full = runScenario(*s);
    auto small = runScenario(*s, RunOptions{10 * 1024, false});
    auto none = runScenario(*s, RunOptions{0});
    REQUIRE(full);
    REQUIRE(small);
    REQUIRE(none);
    SECTION("the final state is exact whatever the budget") {
        const auto want = full->final.smem[0].bytes();
        CHECK(std::equal(want.begin(), want.end(), small->final.smem[0].bytes().begin()));
        CHECK(std::equal(want.begin(), want.end(), none->final.smem[0].bytes().begin()));
    }
    SECTION("instructions past the budget are listed, counted and marked, with no moves") {
        CHECK(full->trace.firstUntraced() == full->trace.instrs.size());
        const size_t cut = small->trace.firstUntraced();
        CHECK(cut >= 2);
        CHECK(cut < small->trace.instrs.size());
        REQUIRE(small->trace.instrs.size() == full->trace.instrs.size());
        for (size_t i = cut; i < small->trace.instrs.size(); ++i) {
            const TraceInstr& in = small->trace.instrs[i];
            CHECK_FALSE(in.traced);
            CHECK(in.firstMove == in.endMove);
            CHECK(in.bytesMoved == 2048);
            CHECK(in.summary.find("not traced") != std::string::npos);
        }
        CHECK(none->trace.moves.empty());
        CHECK(none->trace.stepCount == 0);
    }
    SECTION("where the trace stopped is said (what `run`, `check --run` and the GUI print)") {
        CHECK(traceBudgetNote(full->trace).empty());
        const size_t cut = small->trace.firstUntraced();
        const std::string note = traceBudgetNote(small->trace);
        CHECK(note.rfind("trace summarised after step " + std::to_string(small->trace.instrs[cut].firstStep) +
                             " (instruction [" + std::to_string(cut) + "], line ",
                         0) == 0);
        CHECK(note.find("budget") != std::string::npos);
        CHECK(traceBudgetNote(none->trace).rfind("trace summarised after step 0 (instruction [0]", 0) == 0);
    }
}

TEST_CASE("appendGrid stores the same moves as push_back of each", "[trace][movetable]") {
    // Random grids (some with a swizzle-derived destination, some with levels of one move or levels that
    // continue the one below) after random other runs: the same moves as the plain vector; a grid that
    // starts a run (a new instruction) gives the same runs as the greedy push_back too.
    std::mt19937 rng(17);
    for (int trial = 0; trial < 300; ++trial) {
        std::vector<ByteMove> want;
        MoveTable grid, greedy;
        uint64_t data = 0;
        uint32_t step = 0;
        const int pieces = 1 + int(rng() % 4);
        const bool distinct = rng() % 2; // every grid its own instruction, else all one (grids may join runs)
        for (int piece = 0; piece < pieces; ++piece) {
            ByteMove first = blank();
            first.instr = distinct ? uint32_t(piece) : 0;
            first.step = step;
            first.length = 4 * (1 + rng() % 4);
            first.src.addr = rng() % 100000;
            first.logicalOffset = 16 * (rng() % 64);
            first.coord = {int32_t(rng() % 9), int32_t(rng() % 9), 0, 0, 0};
            first.dataOffset = data;
            const bool derived = rng() % 3 == 0;
            const AddrDerivation d =
                derived ? AddrDerivation{AddrDerivation::Side::Dst, uint32_t(TensorSwizzle::S128B), 1024}
                        : AddrDerivation{};
            first.dst.addr =
                derived ? swizzleAddress(TensorSwizzle::S128B, 1024 + first.logicalOffset) : rng() % 100000;
            std::array<uint32_t, 3> n{1 + uint32_t(rng() % 5), 1 + uint32_t(rng() % 4),
                                      1 + uint32_t(rng() % 3)};
            std::array<MoveTable::Strides, 3> s{};
            s[0] = {int64_t(rng() % 2), 0, int64_t(rng() % 3) * 16, 0, 16, 16, 1, 0, 0, 0, 0};
            for (size_t l = 1; l < 3; ++l) {
                const int64_t below = int64_t(n[l - 1]);
                if (rng() % 3 == 0) { // continues the level below: a longer row
                    for (size_t f = 0; f < MoveTable::kFields; ++f) s[l][f] = below * s[l - 1][f];
                } else {
                    s[l] = s[l - 1];
                    s[l][0] = below * s[l - 1][0] + int64_t(rng() % 2);
                    s[l][2] = int64_t(rng() % 5) * 1000;
                    s[l][5] = below * s[l - 1][5] + 16 * int64_t(rng() % 3);
                    s[l][6 + l] = 1;
                }
                if (derived) s[l][4] = 0;
            }
            const uint64_t count = uint64_t(n[0]) * n[1] * n[2];
            for (uint64_t k = 0; k < count; ++k) {
                const ByteMove m = MoveTable::gridMove(first, n, s, k, d);
                want.push_back(m);
                greedy.push_back(m, d);
            }
            grid.appendGrid(first, n, s, d);
            const ByteMove last = want.back();
            data = last.dataOffset + last.length;
            step = last.step + uint32_t(rng() % 2);
        }
        checkSame(want, grid);
        if (distinct) CHECK(grid.runCount() == greedy.runCount());
    }
}

TEST_CASE("appendGridLevels stores the moves of nested loops over up to six counts", "[trace][movetable]") {
    // The truth: the grid written out as six nested loops (level 0 innermost), each field the first move's
    // plus the sum of index x stride; between grids, single moves that may or may not continue a run.
    std::mt19937 rng(41);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<ByteMove> want;
        MoveTable table;
        uint64_t data = 0;
        uint32_t step = 0;
        for (int piece = 0; piece < 1 + int(rng() % 4); ++piece) {
            ByteMove first = blank();
            first.instr = uint32_t(rng() % 2);
            first.step = step;
            first.length = 2 * (1 + rng() % 2);
            first.src.addr = 1000000 + rng() % 100000;
            first.dst.addr = 1000000 + rng() % 100000;
            first.coord = {int32_t(rng() % 9), 0, 0, 0, 0};
            first.dataOffset = data;
            const size_t levels = 1 + rng() % MoveTable::kMaxLevels;
            std::vector<uint32_t> n(levels);
            std::vector<MoveTable::Strides> s(levels);
            int64_t stepSpan = 0; // steps never decrease along the grid
            for (size_t l = 0; l < levels; ++l) {
                n[l] = 1 + rng() % 3;
                s[l] = {stepSpan + int64_t(rng() % 2) * (stepSpan + 1),
                        0,
                        int64_t(rng() % 7) * 64 - 128,
                        0,
                        int64_t(rng() % 5) * 4,
                        0,
                        int64_t(rng() % 3),
                        int64_t(l),
                        0,
                        0,
                        0};
                if (rng() % 4 == 0 && l > 0) // continues the level below: merges into it
                    for (size_t f = 0; f < MoveTable::kFields; ++f) s[l][f] = int64_t(n[l - 1]) * s[l - 1][f];
                stepSpan += s[l][0] * int64_t(n[l] - 1);
            }
            std::array<uint32_t, 6> i{};
            std::array<uint32_t, 6> nn{1, 1, 1, 1, 1, 1};
            std::copy(n.begin(), n.end(), nn.begin());
            uint64_t k = 0;
            for (i[5] = 0; i[5] < nn[5]; ++i[5])
                for (i[4] = 0; i[4] < nn[4]; ++i[4])
                    for (i[3] = 0; i[3] < nn[3]; ++i[3])
                        for (i[2] = 0; i[2] < nn[2]; ++i[2])
                            for (i[1] = 0; i[1] < nn[1]; ++i[1])
                                for (i[0] = 0; i[0] < nn[0]; ++i[0], ++k) {
                                    ByteMove m = first;
                                    m.dataOffset = first.dataOffset + k * first.length;
                                    for (size_t l = 0; l < levels; ++l) {
                                        m.step += uint32_t(i[l] * s[l][0]);
                                        m.src.addr += uint64_t(int64_t(i[l]) * s[l][2]);
                                        m.dst.addr += uint64_t(int64_t(i[l]) * s[l][4]);
                                        m.coord[0] += int32_t(i[l] * s[l][6]);
                                        m.coord[1] += int32_t(i[l] * s[l][7]);
                                    }
                                    want.push_back(m);
                                }
            table.appendGridLevels(first, n, s);
            ByteMove after = want.back(); // a move after the grid: never joins a grid of more than 3 levels
            after.dataOffset += after.length;
            after.dst.addr += 4;
            want.push_back(after);
            table.push_back(after);
            data = after.dataOffset + after.length;
            step = after.step + uint32_t(rng() % 2);
        }
        checkSame(want, table);
    }
}
