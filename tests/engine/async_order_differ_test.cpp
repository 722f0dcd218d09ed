// scenario/async_order_differ.cpp answers the async model's value cross-check from the trace's runs (issue 25
// item 3). Truth: the per-move walk it replaced (every move of the instruction rebuilt through
// MoveTable::operator[], its before and after bytes compared inside the overlap), kept here as the
// reference, asked the same questions over real traces: a SW128 TMA tile, tcgen05.ld/st shapes (.16x256b
// too), a multicast, the race examples whose diagnosis carries the value cross-check, and every bundled
// scenario. The races below whose written bytes equal (or differ from) what was there are derived from the
// scenario text: the same registers stored twice, the same tile loaded twice.
#include "scenario/async_order_differ.hpp"
#include "scenario/async_order_ranges.hpp"
#include "scenario_test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

using namespace layoutscope;
using async::Range;

namespace {

// The reference: async_order.cpp's writesDiffer before the run walk, move by move.
bool perMoveDiffers(const Trace& tr, uint32_t idx, const Range& ov) {
    const TraceInstr& ti = tr.instrs[idx];
    for (uint64_t i = ti.firstMove; i < ti.endMove; ++i) {
        const ByteMove m = tr.moves[i];
        if (m.dst.space != ov.space || m.dst.cta != ov.cta) continue;
        const bool tmem = m.dst.space == MemSpace::TensorMemory;
        const uint64_t end = m.dst.addr + (tmem ? (m.length + 3) / 4 : m.length);
        if (end <= ov.begin || m.dst.addr >= ov.end) continue;
        const auto before = tr.beforeBytes(m), after = tr.afterBytes(m);
        uint64_t b0 = 0, b1 = m.length;
        if (!tmem) {
            b0 = std::max(ov.begin, m.dst.addr) - m.dst.addr;
            b1 = std::min(ov.end, end) - m.dst.addr;
        }
        if (!std::equal(before.begin() + b0, before.begin() + b1, after.begin() + b0)) return true;
    }
    return false;
}

// Pieces of a range to ask about: itself, its first and last unit, a small window inside, its halves, and
// the range widened by one unit a side (an overlap the model asks is the intersection of two ranges).
void pieces(const Range& r, std::vector<Range>& out) {
    auto add = [&](uint64_t b, uint64_t e) {
        if (b < e) out.push_back(Range{r.space, r.cta, b, e, {}});
    };
    const uint64_t mid = r.begin + (r.end - r.begin) / 2;
    add(r.begin, r.end);
    add(r.begin, r.begin + 1);
    add(r.end - 1, r.end);
    add(mid, std::min(r.end, mid + 3));
    add(r.begin, mid);
    add(mid, r.end);
    add(r.begin > 0 ? r.begin - 1 : 0, r.end + 1);
}

struct Counts {
    size_t asked = 0, differ = 0, same = 0;
};

// For every instruction: pieces of its write ranges, and of their intersections with every other
// instruction's read and write ranges (at most 400 questions an instruction, spread over them), each CTA;
// the run walk's answer equals the reference's. A second WritesDiffer asks in reverse order (its memo is
// per instruction).
Counts compareRun(const Scenario& s, const Trace& tr) {
    Counts c;
    std::vector<std::vector<Range>> reads(tr.instrs.size()), writes(tr.instrs.size());
    for (uint32_t i = 0; i < tr.instrs.size(); ++i) {
        reads[i] = scn::movesRanges(s, tr, i, false);
        writes[i] = scn::movesRanges(s, tr, i, true);
    }
    scn::WritesDiffer forward(tr), backward(tr);
    for (uint32_t i = 0; i < tr.instrs.size(); ++i) {
        std::vector<Range> ask;
        for (const Range& w : writes[i]) {
            pieces(w, ask);
            for (uint32_t j = 0; j < tr.instrs.size(); ++j)
                for (const auto* other : {&reads[j], &writes[j]})
                    for (const Range& o : *other)
                        if (j != i && o.space == w.space && o.cta == w.cta && o.begin < w.end &&
                            w.begin < o.end)
                            pieces(
                                Range{w.space, w.cta, std::max(w.begin, o.begin), std::min(w.end, o.end), {}},
                                ask);
        }
        const size_t stride = ask.size() / 400 + 1;
        std::vector<bool> want;
        for (size_t q = 0; q < ask.size(); q += stride) {
            const Range& ov = ask[q];
            INFO("instruction " << i << " `" << tr.instrs[i].text << "` space " << int(ov.space) << " cta "
                                << int(ov.cta) << " [" << ov.begin << ", " << ov.end << ")");
            const bool ref = perMoveDiffers(tr, i, ov);
            CHECK(forward(i, ov) == ref);
            want.push_back(ref);
            ++c.asked;
            ++(ref ? c.differ : c.same);
        }
        for (size_t q = want.size(); q-- > 0;) CHECK(backward(i, ask[q * stride]) == want[q]);
    }
    return c;
}

Counts compareFile(const std::string& path) {
    INFO(path);
    auto text = readScenarioFile(path);
    REQUIRE(text);
    auto s = parseScenario(*text);
    if (!s) return {}; // bad-input examples
    auto run = runScenario(*s);
    if (!run) return {};
    return compareRun(*s, run->trace);
}

Counts compareText(const std::string& text) {
    auto s = parseScenario(text);
    REQUIRE(s);
    auto run = runScenario(*s);
    REQUIRE(run);
    return compareRun(*s, run->trace);
}

const std::string kAssets = LAYOUTSCOPE_ASSETS_DIR;

// A tcgen05.st of %r0..%r7 (regs pattern=index: nonzero) into zeroed Tensor Memory, waited, then `second`
// into the same columns, then a tcgen05.ld of them with no tcgen05.wait::st in between: a read after write
// race with the second store, whose bytes are the first's when it stores the same registers.
std::string tmemRace(const std::string& second) {
    return "target sm_100a\nsmem taddrBuf 16\nwarp 0\nregs pattern=index\nlet tmem = 0\n"
           "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
           "tcgen05.st.sync.aligned.32x32b.x8.b32 [tmem], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};\n"
           "tcgen05.wait::st.sync.aligned;\n" +
           second +
           "\ntcgen05.ld.sync.aligned.32x32b.x8.b32 {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23}, "
           "[tmem];\n"
           "tcgen05.wait::st.sync.aligned;\ntcgen05.wait::ld.sync.aligned;\n"
           "tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 32;\n"
           "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n";
}

// A SW128 tile loaded and awaited, then `second` into the same buffer and an ld.shared with no wait for it.
std::string smemRace(const std::string& second) {
    return "target sm_90a\ntensormap A tiled FLOAT16 dims=[256,256] box=[64,64] swizzle=128B\n"
           "smem sA 8192 align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n"
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n"
           "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, 0}], "
           "[bar];\n"
           "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n"
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n" +
           second + "\nld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 16];\n";
}

// Trace::keptBytes against beforeBytes / afterBytes of every move: the bytes of all moves laid out by data
// offset (dense: every offset belongs to one move), then from each move's first byte what keptBytes gives
// (of its own bytes; from every 61st, of all the bytes after it: the longest prefix) must be those bytes.
// Returns how many bytes it compared.
uint64_t checkKeptBytes(const Trace& tr) {
    uint64_t end = 0;
    for (const ByteMove& m : tr.moves) end = std::max<uint64_t>(end, m.dataOffset + m.length);
    std::vector<uint8_t> before(end), after(end);
    for (const ByteMove& m : tr.moves) {
        const auto b = tr.beforeBytes(m), a = tr.afterBytes(m);
        std::copy(b.begin(), b.end(), before.begin() + int64_t(m.dataOffset));
        std::copy(a.begin(), a.end(), after.begin() + int64_t(m.dataOffset));
    }
    uint64_t compared = 0, i = 0;
    for (const ByteMove& m : tr.moves)
        for (bool isAfter : {false, true}) {
            const uint64_t n = i++ % 61 == 0 ? end - m.dataOffset : m.length; // the long prefix from some
            const auto k = tr.keptBytes(m.dataOffset, n, isAfter);
            const std::vector<uint8_t>& want = isAfter ? after : before;
            INFO("move at data offset " << m.dataOffset << (isAfter ? " after" : " before"));
            REQUIRE(k.size() <= end - m.dataOffset);
            CHECK(std::equal(k.begin(), k.end(), want.begin() + int64_t(m.dataOffset)));
            compared += k.size();
        }
    return compared;
}

Trace runTrace(const std::string& text) {
    auto s = parseScenario(text);
    REQUIRE(s);
    auto run = runScenario(*s);
    REQUIRE(run);
    return std::move(run->trace);
}

constexpr const char* kValueCheck = "Value cross-check: the bytes read differ";

// `other` races with a late write of other bytes, `same` with one of the same bytes: both races are reported,
// only the first with the value cross-check.
void checkValueCross(const std::string& other, const std::string& same) {
    CHECK(compareText(other).differ > 0);
    CHECK(compareText(same).same > 0);
    const std::string eo = test::runErrors(other), es = test::runErrors(same); // "line: message" lines
    CHECK(eo.find("race (read after write)") != std::string::npos);
    CHECK(eo.find(kValueCheck) != std::string::npos);
    CHECK(es.find("race (read after write)") != std::string::npos);
    CHECK(es.find(kValueCheck) == std::string::npos);
}

} // namespace

TEST_CASE("WritesDiffer from the trace's runs answers as the per-move walk", "[order-differ]") {
    SECTION("TMA tile loads, SWIZZLE_128B") {
        CHECK(compareFile(kAssets + "/reviews/operand_sw128_one_box.scn").asked > 0);
        CHECK(compareFile(kAssets + "/scenarios/tcgen05_mma_i8_128x64.scn").asked > 0);
    }
    SECTION("tcgen05.ld / tcgen05.st shapes") {
        // Stores of nonzero registers into fresh Tensor Memory, and loads of them: bytes change.
        for (const char* f : {"/scenarios/tcgen05_ld_16x64b.scn", "/scenarios/tcgen05_st_16x32bx2.scn",
                              "/scenarios/tcgen05_st_32x32b.scn"})
            CHECK(compareFile(kAssets + f).differ > 0);
        const Counts c = compareText(
            "target sm_100a\nsmem taddrBuf 16\nwarp 0\nregs pattern=index\nlet tmem = 0\n"
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
            "tcgen05.st.sync.aligned.16x256b.x2.b32 [tmem], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};\n"
            "tcgen05.wait::st.sync.aligned;\n"
            "tcgen05.ld.sync.aligned.16x256b.x2.b32 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, [tmem];\n"
            "tcgen05.wait::ld.sync.aligned;\n");
        CHECK(c.differ > 0);
        CHECK(c.same > 0);
        // The epilogues load Tensor Memory nothing wrote (zeros into zeroed registers): no byte changes.
        for (const char* f : {"/reviews/epilogue_16x256b_plain.scn", "/reviews/epilogue_16x256b_swizzled.scn",
                              "/reviews/epilogue_32x32b_plain.scn", "/reviews/epilogue_32x32b_swizzled.scn"})
            CHECK(compareFile(kAssets + f).asked > 0);
    }
    SECTION("a multicast load") {
        CHECK(compareFile(kAssets + "/scenarios/broken/async_multicast_mask_omits_cta_fixed.scn").differ > 0);
        CHECK(compareFile(kAssets + "/scenarios/broken/async_multicast_mask_omits_cta.scn").differ > 0);
    }
    SECTION("the race examples whose diagnosis has the value cross-check") {
        for (const char* f : {"async_cp_wait_st_no_commit.scn", "async_mma_before_tma_wait.scn",
                              "async_no_wait_before_consumer.scn", "async_tmem_ld_used_before_wait.scn"}) {
            const Counts c = compareFile(kAssets + "/scenarios/broken/" + f);
            CHECK(c.differ > 0);
            CHECK(c.same > 0);
        }
    }
    SECTION("a 32x32b.x128 store repeated: the bytes of every store after the first equal what was there") {
        std::string regs;
        for (int i = 0; i < 128; ++i) regs += (i ? ", %r" : "%r") + std::to_string(i);
        std::string text = "target sm_100a\nwarp 0\nregs pattern=index\nlet tmem = 0\n";
        for (int i = 0; i < 4; ++i)
            text += "tcgen05.st.sync.aligned.32x32b.x128.b32 [tmem], {" + regs + "};\n";
        const Counts c = compareText(text);
        CHECK(c.differ > 0);
        CHECK(c.same > 0);
    }
    SECTION("every bundled scenario") {
        size_t files = 0;
        for (const char* dir : {"/scenarios", "/scenarios/broken", "/reviews"})
            for (const auto& e : std::filesystem::directory_iterator(kAssets + dir))
                if (e.path().extension() == ".scn") {
                    compareFile(e.path().string());
                    ++files;
                }
        CHECK(files >= 90);
    }
}

TEST_CASE("a race's value cross-check says whether the late write changes the bytes read", "[order-differ]") {
    SECTION("Tensor Memory: a second store of other registers differs, of the same registers not") {
        const std::string other =
            tmemRace("tcgen05.st.sync.aligned.32x32b.x8.b32 [tmem], {%r8, %r9, %r10, %r11, %r12, %r13, %r14, "
                     "%r15};");
        const std::string same = tmemRace(
            "tcgen05.st.sync.aligned.32x32b.x8.b32 [tmem], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};");
        checkValueCross(other, same);
    }
    SECTION("shared memory: a reload of another tile differs, of the same tile not") {
        const std::string other =
            smemRace("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::"
                     "bytes [sA], [A, {64, 0}], [bar];");
        const std::string same =
            smemRace("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::"
                     "bytes [sA], [A, {0, 0}], [bar];");
        checkValueCross(other, same);
    }
}

TEST_CASE("Trace::keptBytes gives the bytes beforeBytes / afterBytes give", "[order-differ]") {
    SECTION("stored bytes past several 1 MiB blocks of the stores, and a load into registers") {
        // 100 stores of 16 KiB: the stores' blocks fill and a segment runs on across a block boundary. No
        // tcgen05.alloc: its 4-byte move would shift the stores' bytes, leaving a gap at each block's end.
        std::string a, b;
        for (int i = 0; i < 128; ++i) {
            a += (i ? ", %r" : "%r") + std::to_string(i);
            b += (i ? ", %r" : "%r") + std::to_string(127 - i);
        }
        std::string text = "target sm_100a\nwarp 0\nregs pattern=index\nlet tmem = 0\n";
        for (int i = 0; i < 100; ++i)
            text += "tcgen05.st.sync.aligned.32x32b.x128.b32 [tmem], {" + (i % 2 ? b : a) + "};\n";
        text +=
            "tcgen05.wait::st.sync.aligned;\ntcgen05.ld.sync.aligned.32x32b.x8.b32 {%r0, %r1, %r2, %r3, %r4, "
            "%r5, %r6, %r7}, [tmem];\n";
        const Trace tr = runTrace(text);
        constexpr uint64_t kBlock = ByteStore::kBlockBytes;
        CHECK(std::any_of(tr.segments().begin(), tr.segments().end(), [](const Trace::DataSegment& g) {
            return g.after == ByteSource::Stored && g.afterAt / kBlock != (g.afterAt + g.bytes - 1) / kBlock;
        }));
        CHECK(checkKeptBytes(tr) > (uint64_t(2) << 20));
    }
    SECTION("a tile reloaded: before bytes shared with the first load's after, after bytes generated") {
        const Trace tr =
            runTrace(smemRace("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::"
                              "bytes [sA], [A, {0, 0}], [bar];"));
        CHECK(std::any_of(tr.segments().begin(), tr.segments().end(), [](const Trace::DataSegment& g) {
            return g.before == ByteSource::Previous && g.after == ByteSource::Generated;
        }));
        CHECK(checkKeptBytes(tr) > 0);
    }
    SECTION("every bundled scenario") {
        for (const char* dir : {"/scenarios", "/scenarios/broken", "/reviews"})
            for (const auto& e : std::filesystem::directory_iterator(kAssets + dir))
                if (e.path().extension() == ".scn") {
                    INFO(e.path().string());
                    auto text = readScenarioFile(e.path().string());
                    REQUIRE(text);
                    auto s = parseScenario(*text);
                    if (!s) continue;
                    auto run = runScenario(*s);
                    if (run) checkKeptBytes(run->trace);
                }
    }
}
