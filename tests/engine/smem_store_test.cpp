// st.shared in a scenario stores its warp's registers (smem_store.cpp): the bytes are worked out here by hand
// from the `regs pattern=index` formula of docs/scenario-format.md (register j of thread t holds t << 16 | j;
// a store writes each element's low bytes, little-endian, PTX ISA 9.2 §9.7.9.10).
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope;

namespace {

Run runStoreScenario(const std::string& body) {
    auto sc = parseScenario("smem pad 1024\nsmem sS 4096 align=1024\nwarp 1\n" + body);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    return std::move(run.value());
}

uint8_t smemByte(const Run& r, uint32_t addr) {
    return r.final.smem.at(0).bytes()[addr];
}

} // namespace

TEST_CASE("st.shared stores the warp's registers into shared memory", "[scenario][smem-store]") {
    SECTION(".v2.b32: two registers a lane, 8 bytes at lane * 8") {
        const Run r = runStoreScenario("regs pattern=index\nst.shared.v2.b32 [sS + lane * 8], {%r3, %r7};\n");
        const uint32_t base = 2048; // smem pad 1024 at 1024, sS at the next 1024-aligned address
        for (uint32_t lane : {0u, 5u, 31u}) {
            const uint32_t t = lane; // the `regs` thread index is the lane of warp 1
            for (uint32_t e = 0; e < 2; ++e) {
                const uint32_t v = t << 16 | (e == 0 ? 3u : 7u);
                for (uint32_t b = 0; b < 4; ++b)
                    CHECK(smemByte(r, base + lane * 8 + e * 4 + b) == uint8_t(v >> (8 * b)));
            }
        }
        // One step of 64 moves, each from register (thread << 16 | j * 4) of warp 1's thread 32 + lane.
        const TraceInstr& ti = r.trace.instrs.back();
        CHECK(ti.endMove - ti.firstMove == 64);
        const ByteMove m = r.trace.moves[ti.firstMove + 2 * 5 + 1]; // lane 5, %r7
        CHECK(m.src.space == MemSpace::Register);
        CHECK(m.src.addr == ((uint64_t{32 + 5} << 16) | 7 * 4));
        CHECK(m.dst.addr == base + 5 * 8 + 4);
    }
    SECTION(".b16 of a 32-bit register: its low two bytes") {
        const Run r = runStoreScenario("regs pattern=index\nst.shared.b16 [sS + lane * 2], %r1;\n");
        CHECK(smemByte(r, 2048 + 9 * 2) == 0x01); // lane 9: 9 << 16 | 1 -> 0x01, 0x00
        CHECK(smemByte(r, 2048 + 9 * 2 + 1) == 0x00);
    }
    SECTION("a warp without register values stores nothing, and the summary says why") {
        const Run r = runStoreScenario("st.shared.b32 [sS + lane * 4], %r0;\n");
        const TraceInstr& ti = r.trace.instrs.back();
        CHECK(ti.endMove == ti.firstMove);
        CHECK(ti.summary.find("no register values") != std::string::npos);
    }
    SECTION("a source that is not %r0..%r127 leaves the data unknown") {
        const Run r = runStoreScenario("regs pattern=index\nst.shared.b32 [sS + lane * 4], %f0;\n");
        const TraceInstr& ti = r.trace.instrs.back();
        CHECK(ti.endMove == ti.firstMove);
        CHECK(ti.summary.find("data is unknown") != std::string::npos);
    }
}

TEST_CASE("A malformed st.shared value operand is an error naming the form", "[scenario][smem-store]") {
    for (const char* value : {"{%r0, %r1", "{%r0,,%r1}", "{}", "%r0", "{%r0, %r1, %r2}"}) {
        SECTION(value) {
            auto sc = parseScenario(std::string("smem sS 4096\nst.shared.v2.b32 [sS + lane * 8], ") + value +
                                    ";\n");
            REQUIRE_FALSE(sc);
            CHECK(sc.diagnostics()[0].span.line == 2);
            CHECK(sc.diagnostics()[0].message.find(
                      "one register per vector element (2 for `st.shared.v2.b32`)") != std::string::npos);
        }
    }
}
