// The compact trace (issue 25 item 9: at most one stored byte per byte moved). Truths: the same run with
// compaction off (every before and after byte stored), move by move and Replay state at every step; and
// the tensor's fill formula (docs/scenario-format.md "Fill patterns": element (x, y) of a dense 2-D
// FLOAT16 `index` tensor holds y * dims[0] + x, little-endian) through the SWIZZLE_128B address map of
// the PTX ISA (16-byte chunk bits [4,7) XOR line bits [7,10)), written out here, not the engine's.
#include "layoutscope/core/trace.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "trace_compare.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace layoutscope;

namespace {

const char* kHead = "tensormap A tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n";

std::string load(const std::string& buf, int x, int y, const std::string& map = "A") {
    return "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [" + buf + "], [" +
           map + ", {" + std::to_string(x) + ", " + std::to_string(y) + "}], [bar];\n";
}

// One SW128 64x64 fp16 tile load of A at (64, 128) into sA.
std::string tileLoad() {
    std::string s = kHead;
    s += "smem sA 8192 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    return s + load("sA", 64, 128);
}

// Reloads of one buffer (before = the previous load's after), a partial overwrite between two loads of
// one buffer, a second buffer, a box half out of bounds (zero fill rows), a box wholly out of a NaN-fill
// map, and a load of bytes a TMA store wrote (its source no longer the generator's).
std::string multiLoad() {
    std::string s = kHead;
    s += "tensormap N tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B oob=nan\n"
         "tensormap C tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B fill=zero\n"
         "tensormap S tiled FLOAT16 dims=[256,256] box=[64,8] swizzle=128B\n"
         "smem sA 8192 align=1024\nsmem sB 8192 align=1024\nmbarrier bar\n"
         "mbarrier.init.shared::cta.b64 [bar], 1;\n";
    // The fifth load writes sA's first 1 KiB only: the sixth, a whole tile again, finds other bytes there
    // than the tile load before it left (its `before` must be kept, not shared).
    s += load("sA", 0, 0) + load("sA", 64, 0) + load("sB", 0, 64) + load("sA", 64, 0) +
         load("sA", 128, 8, "S") + load("sA", 128, 0) + load("sA", 192, 224) + load("sB", 0, 512, "N");
    s += "fence.proxy.async.shared::cta;\n"
         "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [C, {64, 128}], [sA];\n"
         "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\n";
    s += load("sB", 64, 128, "C") + load("sA", 0, 0);
    return s;
}

Run runOf(const Scenario& sc, bool compact) {
    RunOptions o;
    o.compactTrace = compact;
    auto r = runScenario(sc, o);
    REQUIRE(r);
    return std::move(r).value();
}

uint64_t bytesMoved(const Trace& t) {
    uint64_t n = 0;
    for (const TraceInstr& in : t.instrs) n += in.bytesMoved;
    return n;
}

bool sameMemory(const Scenario& sc, const MachineState& a, const MachineState& b) {
    for (size_t c = 0; c < a.smem.size(); ++c)
        if (!std::equal(a.smem[c].bytes().begin(), a.smem[c].bytes().end(), b.smem[c].bytes().begin()))
            return false;
    for (const ScenarioTensorMap& t : sc.tensorMaps) {
        std::vector<uint8_t> x(t.extent), y(t.extent);
        a.global.read(t.map.p.globalAddress, x);
        b.global.read(t.map.p.globalAddress, y);
        if (x != y) return false;
    }
    return true;
}

// Replay of the compact trace against the full one: every step forwards, every step backwards, and
// random jumps; both end at the run's final state.
void requireSameReplay(const Scenario& sc, const Run& compact, const Run& full) {
    Replay a(compact.trace, compact.initial), b(full.trace, full.initial);
    const uint32_t n = full.trace.stepCount;
    REQUIRE(compact.trace.stepCount == n);
    for (uint32_t s = 0; s <= n; ++s) {
        a.seek(s);
        b.seek(s);
        INFO("forwards to step " << s);
        REQUIRE(sameMemory(sc, a.state(), b.state()));
    }
    REQUIRE(sameMemory(sc, a.state(), full.final));
    for (uint32_t s = n + 1; s-- > 0;) {
        a.seek(s);
        b.seek(s);
        INFO("backwards to step " << s);
        REQUIRE(sameMemory(sc, a.state(), b.state()));
    }
    REQUIRE(sameMemory(sc, a.state(), full.initial));
    std::mt19937 rng(25);
    for (int i = 0; i < 60; ++i) {
        const uint32_t s = rng() % (n + 1);
        a.seek(s);
        b.seek(s);
        INFO("jump to step " << s);
        REQUIRE(sameMemory(sc, a.state(), b.state()));
    }
}

// SWIZZLE_128B (PTX ISA 5.5.2.1.x, tensor swizzle modes): within an aligned 1024-byte atom, the 16-byte
// chunk index (bits [4,7)) is XORed with the 128-byte line index (bits [7,10)).
uint32_t sw128(uint32_t a) {
    return a ^ (((a >> 7) & 7u) << 4);
}

// The move of `t` that writes shared byte `addr` of CTA 0 in instruction `instr`, and the byte's offset.
std::pair<ByteMove, uint32_t> moveWriting(const Trace& t, size_t instr, uint32_t addr) {
    const TraceInstr& in = t.instrs[instr];
    for (uint64_t k = in.firstMove; k < in.endMove; ++k) {
        const ByteMove m = t.moves[k];
        if (m.dst.space == MemSpace::SharedCta && addr >= m.dst.addr && addr < m.dst.addr + m.length)
            return {m, uint32_t(addr - m.dst.addr)};
    }
    FAIL("no move of instruction " << instr << " writes byte " << addr);
    return {};
}

size_t instrOf(const Trace& t, const std::string& start, int nth) {
    for (size_t i = 0; i < t.instrs.size(); ++i)
        if (t.instrs[i].text.rfind(start, 0) == 0 && nth-- == 0) return i;
    FAIL("no instruction " << start);
    return 0;
}

} // namespace

TEST_CASE("A compact trace gives every move's bytes and every step's state exactly", "[trace][compact]") {
    SECTION("one SW128 64x64 fp16 tile load") {
        auto sc = parseScenario(tileLoad());
        REQUIRE(sc);
        const Run c = runOf(*sc, true), f = runOf(*sc, false);
        test::requireSameMoves(c.trace, f.trace);
        requireSameReplay(*sc, c, f);
        CHECK(c.trace.storedBytes() < f.trace.storedBytes());
    }
    SECTION("reloads, two buffers, zero and NaN fills, a load of stored bytes") {
        auto sc = parseScenario(multiLoad());
        REQUIRE(sc);
        const Run c = runOf(*sc, true), f = runOf(*sc, false);
        REQUIRE(c.trace.firstUntraced() == c.trace.instrs.size());
        test::requireSameMoves(c.trace, f.trace);
        requireSameReplay(*sc, c, f);
        CHECK(c.trace.storedBytes() <= bytesMoved(c.trace));
        CHECK(f.trace.storedBytes() == 2 * bytesMoved(f.trace));
        // Every way of keeping bytes was taken: shared `before` (the reloads), regenerated `after` (the
        // tensor, the fills), and stored `after` (the load of the bytes the TMA store wrote to C).
        size_t previous = 0, generated = 0, storedAfter = 0;
        for (const Trace::DataSegment& g : c.trace.segments()) {
            previous += g.before == ByteSource::Previous;
            generated += g.after == ByteSource::Generated;
            storedAfter += g.after == ByteSource::Stored && g.moveLength != 0;
        }
        CHECK(previous >= 2);
        CHECK(generated >= 5);
        CHECK(storedAfter >= 1);
    }
}

TEST_CASE("A compact trace's bytes are the tensor's fill formula through the swizzle", "[trace][compact]") {
    auto sc = parseScenario(multiLoad());
    REQUIRE(sc);
    const Run run = runOf(*sc, true);
    const Trace& t = run.trace;
    const uint32_t sA = sc->findBuffer("sA")->addr; // the first buffer: 1024-aligned
    REQUIRE(sA % 1024 == 0);
    // Element (x, y) of A (index fill, dims[0] = 256) as its two bytes.
    auto elem = [](uint32_t x, uint32_t y) { return uint16_t(y * 256 + x); };
    const size_t first = instrOf(t, "cp.async.bulk.tensor.2d.shared::cta.global", 0);  // A (0, 0)
    const size_t second = instrOf(t, "cp.async.bulk.tensor.2d.shared::cta.global", 1); // A (64, 0)
    const std::pair<uint32_t, uint32_t> picked[] = {{0, 0}, {1, 0}, {8, 0}, {0, 1}, {37, 5}, {63, 63}};
    for (auto [bx, by] : picked) {
        INFO("box element (" << bx << ", " << by << ")");
        const uint32_t addr = sA + sw128(by * 128 + bx * 2);
        {
            const auto [m, o] = moveWriting(t, first, addr);
            const MoveBytes before = t.beforeBytes(m), after = t.afterBytes(m);
            CHECK(before[o] == 0); // shared memory starts zeroed
            CHECK(after[o] == uint8_t(elem(bx, by)));
            CHECK(after[o + 1] == uint8_t(elem(bx, by) >> 8));
        }
        const auto [m, o] = moveWriting(t, second, addr); // the reload: before = the first load's bytes
        const MoveBytes before = t.beforeBytes(m), after = t.afterBytes(m);
        CHECK(before[o] == uint8_t(elem(bx, by)));
        CHECK(before[o + 1] == uint8_t(elem(bx, by) >> 8));
        CHECK(after[o] == uint8_t(elem(64 + bx, by)));
        CHECK(after[o + 1] == uint8_t(elem(64 + bx, by) >> 8));
        Replay r(t, run.initial); // the state after the second load, replayed
        r.seek(t.instrs[second].endStep);
        CHECK(r.state().smem[0].bytes()[addr] == uint8_t(elem(64 + bx, by)));
        r.seek(t.instrs[second].firstStep);
        CHECK(r.state().smem[0].bytes()[addr + 1] == uint8_t(elem(bx, by) >> 8));
    }
    SECTION("the NaN fill of a box wholly out of bounds: 0x7FF7 per element") {
        const size_t nan = instrOf(t, "cp.async.bulk.tensor.2d.shared::cta.global", 7);
        const auto [m, o] = moveWriting(t, nan, sc->findBuffer("sB")->addr + sw128(3 * 128 + 20));
        const MoveBytes after = t.afterBytes(m);
        CHECK((after[o] == 0xF7 && after[o + 1] == 0x7F));
    }
}

TEST_CASE("A compact trace stores at most one byte per byte moved", "[trace][compact]") {
    // Loads of distinct tiles (the engine_bench loads10k pattern, scaled): into one buffer (reloads), and
    // into eight buffers in turn (no earlier bytes to share: `before` kept, `after` regenerated).
    for (int buffers : {1, 8}) {
        std::string s = "tensormap A tiled FLOAT16 dims=[2048,2048] box=[64,64] swizzle=128B\n";
        s += "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
        for (int b = 0; b < buffers; ++b) s.insert(0, "smem s" + std::to_string(b) + " 8192 align=1024\n");
        for (int i = 0; i < 200; ++i)
            s += load("s" + std::to_string(i % buffers), 64 * (i % 32), 64 * (i / 32));
        auto sc = parseScenario(s);
        REQUIRE(sc);
        const Run c = runOf(*sc, true), f = runOf(*sc, false);
        const uint64_t moved = bytesMoved(c.trace);
        INFO(buffers << " buffer(s): " << moved << " bytes moved, " << c.trace.storedBytes() << " stored");
        CHECK(moved == 200u * 8192u);
        CHECK(c.trace.storedBytes() <= moved);
        CHECK(f.trace.storedBytes() == 2 * moved);              // what compaction saves
        if (buffers == 1) CHECK(c.trace.storedBytes() <= 8192); // only the first load's `before`
        test::requireSameMoves(c.trace, f.trace);
    }
}
