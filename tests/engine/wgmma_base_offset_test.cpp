// The descriptor base offset (bits [49,52), open question 22, issue 24). Truths: (1) the PTX ISA's
// definition (§9.7.15.5.1.2.1 / §9.7.16.4.1: base offset = (pattern start >> 7) & 7 when the swizzle
// pattern does not start on its repeat boundary), hand-applied below: a pattern laid out relative to a
// start P (phase 0 at P) is read back element for element when the base offset names P's phase; (2) the
// Hopper record of scripts/probes/wgmma `run.sh base` (tests/data/wgmma/h100_base_offset.jsonl, recorded
// on an H200 that the device tool lent for the H100 kind).
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "wgmma_record.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using namespace layoutscope;

namespace {
// Swizzle<B,4,3> written out by hand: 16-B chunk bits [4,4+B) XOR line bits [7,7+B).
uint32_t handSwizzle(uint32_t b, uint32_t x) {
    const uint32_t mask = (1u << b) - 1;
    return x ^ (((x >> 7) & mask) << 4);
}
} // namespace

TEST_CASE("a base offset naming the pattern's phase reads a pattern laid out from its start",
          "[consumer][wgmma][baseoffset]") {
    struct Mode {
        uint32_t type, b, repeat;
    };
    for (const Mode m : {Mode{2, 3, 1024}, Mode{4, 2, 512}, Mode{6, 1, 256}}) {
        for (uint32_t p = 128; p < m.repeat; p += 128) {
            SECTION("layout type " + std::to_string(m.type) + ", pattern start " + std::to_string(p)) {
                SmemDescriptor d;
                d.startAddress = 4096 + p; // a 128-B aligned start, not on the repeat boundary
                d.layoutType = m.type;
                d.sbo = 8 * swizzleWidthBytes(m.type);
                d.lbo = 16;
                d.baseOffset = (d.startAddress >> 7) & ((1u << m.b) - 1); // the PTX formula
                const uint32_t w = swizzleWidthBytes(m.type);
                for (uint32_t mn = 0; mn < 8; ++mn)
                    for (uint32_t k = 0; k < w / 2; ++k) // f16 along K, K-major: row mn is w bytes
                        REQUIRE(elementAddress(d, MatrixMajor::K, 16, mn, k) ==
                                d.startAddress + handSwizzle(m.b, mn * w + 2 * k));
            }
        }
    }
}

TEST_CASE("base offset 0 is the absolute-address XOR measured on H100", "[consumer][wgmma][baseoffset]") {
    SmemDescriptor d;
    d.startAddress = 0x480; // 128 B past a 1024-B boundary, as a TMA destination may be
    d.layoutType = 2;
    d.sbo = 1024;
    d.lbo = 16;
    for (uint32_t mn = 0; mn < 8; ++mn)
        for (uint32_t k = 0; k < 64; ++k)
            REQUIRE(elementAddress(d, MatrixMajor::K, 16, mn, k) == handSwizzle(3, 0x480 + mn * 128 + 2 * k));
}

TEST_CASE("wgmma reads with a descriptor base offset as the model says, on Hopper (H200 record)",
          "[consumer][wgmma][baseoffset][conform]") {
    std::ifstream in(std::string(LAYOUTSCOPE_TEST_DATA_DIR) + "/wgmma/h100_base_offset.jsonl");
    REQUIRE(in.good()); // recorded 2026-11-28 (scripts/probes/wgmma/README.md)
    std::string line;
    size_t records = 0, failed = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        REQUIRE(!j.contains("error"));
        ++records;
        const SmemDescriptor d = test::wgmmaRecordDescriptor(j);
        const MatrixMajor major = test::wgmmaRecordMajor(j);
        const auto& offs = j.at("byte_offset");
        // The alternatives the record separates, for the report: base ignored, added, XORed.
        const CuteSwizzle sw = swizzleOfLayoutType(d.layoutType);
        const uint32_t mask = (1u << sw.b) - 1;
        auto alt = [&](uint32_t a, int how) {
            const uint32_t y = (a >> 7) & mask;
            const uint32_t phase = how == 0   ? y
                                   : how == 1 ? ((y + d.baseOffset) & mask)
                                              : (y ^ (d.baseOffset & mask));
            return a ^ (phase << sw.m);
        };
        size_t bad = 0, fits[3] = {0, 0, 0};
        for (uint32_t mn = 0; mn < 64; ++mn)
            for (uint32_t k = 0; k < 16; ++k) {
                const uint32_t got = offs[mn * 16 + k].get<uint32_t>();
                if (elementAddress(d, major, 16, mn, k) != got) ++bad;
                const uint32_t plain = d.startAddress + canonicalOffset(d, major, 16, mn, k);
                for (int how = 0; how < 3; ++how) fits[how] += alt(plain, how) == got;
            }
        if (bad) {
            ++failed;
            UNSCOPED_INFO(j.at("id").get<std::string>()
                          << " (base " << d.baseOffset << ", start " << d.startAddress << "): " << bad
                          << " of 1024 elements differ from 'subtracted'; fit 'ignored' " << fits[0]
                          << ", 'added' " << fits[1] << ", 'XORed' " << fits[2]);
        }
    }
    CHECK(records == 288);
    CHECK(failed == 0);
}
