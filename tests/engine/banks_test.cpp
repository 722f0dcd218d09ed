// Bank-conflict wavefront counting (banks.hpp). Every expectation is derived by hand below from
// bank = (byte address / 4) % 32, same-word broadcast, fixed phases of 32 / 16 / 8 threads for
// accesses of <= 4 / 8 / 16 bytes (one per matrix for ldmatrix), and the pairing of 8/16-B load
// phases when lanes t and t^1 (or t and t^2) read one address (golden/banks records, docs/banks.md).
#include "layoutscope/analysis/banks.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {

WarpSmemAccess access(uint32_t width, uint32_t (*addrOf)(uint32_t), uint32_t mask = 0xFFFFFFFFu) {
    WarpSmemAccess a;
    a.widthBytes = width;
    a.activeMask = mask;
    for (uint32_t t = 0; t < kWarpSize; ++t) a.addr[t] = addrOf(t);
    return a;
}

// 128B swizzle on absolute addresses (tma.md §4.2 table): A ^ (((A>>7)&7)<<4).
uint32_t sw128(uint32_t a) {
    return a ^ (((a >> 7) & 7u) << 4);
}

} // namespace

TEST_CASE("bank of an address is (addr / 4) mod 32", "[banks]") {
    CHECK(smemBank(0) == 0);
    CHECK(smemBank(3) == 0);
    CHECK(smemBank(4) == 1);
    CHECK(smemBank(124) == 31);
    CHECK(smemBank(128) == 0);
    CHECK(smemBank(1024 + 68) == 17);
}

TEST_CASE("4-byte accesses: one phase of 32 threads", "[banks]") {
    SECTION("stride-1 words: 32 different banks -> 1 wavefront") {
        auto r = countBankWavefronts(access(4, [](uint32_t t) { return 4 * t; }));
        REQUIRE(r.ok());
        CHECK(r->phases == 1);
        CHECK(r->wavefronts == 1);
        CHECK(r->ideal == 1);
        CHECK(r->excess == 0);
        for (uint32_t b = 0; b < 32; ++b) CHECK(r->wordsPerBank[b] == 1);
    }
    SECTION("every thread reads the same word: broadcast, 1 wavefront") {
        auto r = countBankWavefronts(access(4, [](uint32_t) { return 256u; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 1);
        CHECK(r->wordsPerBank[0] == 1);
    }
    SECTION("stride-2 words: banks 0,2,..,30 each hold 2 words -> 2 wavefronts (2-way)") {
        auto r = countBankWavefronts(access(4, [](uint32_t t) { return 8 * t; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 2);
        CHECK(r->excess == 1);
        CHECK(r->wordsPerBank[0] == 2);
        CHECK(r->wordsPerBank[1] == 0);
    }
    SECTION("stride-33 words (padded 32x33 float tile column): banks t -> 1 wavefront") {
        auto r = countBankWavefronts(access(4, [](uint32_t t) { return 4 * 33 * t; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 1);
    }
}

TEST_CASE("1- and 2-byte accesses group by 32-bit word", "[banks]") {
    SECTION("bytes 0..31: words 0..7 in banks 0..7, 4 threads per word -> 1 wavefront") {
        auto r = countBankWavefronts(access(1, [](uint32_t t) { return t; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 1);
        CHECK(r->wordsPerBank[7] == 1);
        CHECK(r->wordsPerBank[8] == 0);
    }
    SECTION("column of an unswizzled 64x64 fp16 tile (128-B rows): row t at t*128 -> all in bank 0, "
            "32 distinct words -> 32 wavefronts (32-way)") {
        auto r = countBankWavefronts(access(2, [](uint32_t t) { return 128 * t; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 32);
        CHECK(r->ideal == 1);
        CHECK(r->excess == 31);
        CHECK(r->wordsPerBank[0] == 32);
        for (uint32_t t = 0; t < 32; ++t) CHECK(r->threadWavefront[t] == t);
    }
    SECTION("column 5 of the same tile: byte 10 of each row -> bank 2, still 32-way") {
        auto r = countBankWavefronts(access(2, [](uint32_t t) { return 128 * t + 10; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 32);
        CHECK(r->wordsPerBank[2] == 32);
    }
    SECTION("the same column through the 128B swizzle: rows 0..7 spread over chunks 0..7 (banks 0,4,..,28), "
            "rows 8 apart collide -> 4 words per bank -> 4 wavefronts") {
        auto r = countBankWavefronts(access(2, [](uint32_t t) { return sw128(128 * t); }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 4);
        CHECK(r->wordsPerBank[0] == 4);
        CHECK(r->wordsPerBank[4] == 4);
        CHECK(r->wordsPerBank[1] == 0);
    }
}

TEST_CASE("8-byte accesses: two half-warp phases", "[banks]") {
    SECTION("stride-1 8-B: each half-warp covers 128 contiguous bytes -> 2 wavefronts, ideal 2") {
        auto r = countBankWavefronts(access(8, [](uint32_t t) { return 8 * t; }));
        REQUIRE(r.ok());
        CHECK(r->phases == 2);
        CHECK(r->wavefronts == 2);
        CHECK(r->ideal == 2);
        CHECK(r->excess == 0);
    }
    SECTION("stride 16 B: a half-warp spans 256 B, 2 words per bank -> 2 per phase, 4 in all") {
        auto r = countBankWavefronts(access(8, [](uint32_t t) { return 16 * t; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 4);
        CHECK(r->excess == 2);
    }
}

TEST_CASE("16-byte accesses (ld.shared.v4): four quarter-warp phases", "[banks]") {
    SECTION("stride-1 16-B vectors: 8 threads x 16 B = 128 B per phase -> 4 wavefronts, no conflict") {
        auto r = countBankWavefronts(access(16, [](uint32_t t) { return 16 * t; }));
        REQUIRE(r.ok());
        CHECK(r->phases == 4);
        CHECK(r->wavefronts == 4);
        CHECK(r->excess == 0);
    }
    SECTION(
        "column of 16-B chunks, unswizzled 128-B rows: 8 rows per phase all in banks 0..3 -> 8 each, 32") {
        auto r = countBankWavefronts(access(16, [](uint32_t t) { return 128 * t; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 32);
        CHECK(r->ideal == 4);
        CHECK(r->excess == 28);
        CHECK(r->wordsPerBank[0] == 32);
        CHECK(r->wordsPerBank[4] == 0);
    }
    SECTION("the same column through the 128B swizzle: row r lands in chunk r%8 -> conflict-free") {
        auto r = countBankWavefronts(access(16, [](uint32_t t) { return sw128(128 * t); }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 4);
        CHECK(r->excess == 0);
        for (uint32_t b = 0; b < 32; ++b) CHECK(r->wordsPerBank[b] == 4);
    }
    SECTION("ldmatrix-like 8x8 fp16: threads 0..7 give row addresses; unswizzled 8-way, swizzled 1") {
        auto plain = countBankWavefronts(access(
            16, [](uint32_t t) { return 128 * t; }, 0xFFu));
        REQUIRE(plain.ok());
        CHECK(plain->wavefronts == 8);
        CHECK(plain->ideal == 1);
        auto swz = countBankWavefronts(access(
            16, [](uint32_t t) { return sw128(1024 + 128 * t); }, 0xFFu));
        REQUIRE(swz.ok());
        CHECK(swz->wavefronts == 1);
    }
}

TEST_CASE("invalid accesses are rejected", "[banks]") {
    SECTION("width 3") {
        auto r = countBankWavefronts(access(3, [](uint32_t t) { return 4 * t; }));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == DiagCode::InvalidValue);
    }
    SECTION("16-B access at an 8-B aligned address") {
        auto r = countBankWavefronts(access(16, [](uint32_t t) { return 16 * t + (t == 3 ? 8 : 0); }));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == DiagCode::FaultMisalignedAddress);
    }
    SECTION("inactive threads are not checked and cost nothing") {
        auto r = countBankWavefronts(access(
            4, [](uint32_t t) { return t == 1 ? 2u : 128 * t; }, 0x1u));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 1);
    }
}

// --- rules measured on an H100 (golden/banks README, docs/banks.md); expectations derived by hand ---

namespace {

WarpSmemAccess ldmatrix(uint32_t matrices, uint32_t (*rowAddr)(uint32_t)) {
    WarpSmemAccess a;
    a.op = SmemOp::LdMatrix;
    a.matrices = matrices;
    for (uint32_t t = 0; t < kWarpSize; ++t) a.addr[t] = rowAddr(t);
    return a;
}

} // namespace

TEST_CASE("stride-32 words: one bank, 32 distinct words -> 32 wavefronts", "[banks]") {
    auto r = countBankWavefronts(access(4, [](uint32_t t) { return 128 * t; }));
    REQUIRE(r.ok());
    CHECK(r->wavefronts == 32);
    CHECK(r->excess == 31);
    CHECK(r->rule == RuleId::SmemBankWavefronts);
    CHECK(ruleInfo(RuleId::SmemBankWavefronts).provenance == Provenance::HardwareSm90);
}

TEST_CASE("ldmatrix: one phase per 8x8 matrix, lanes 8m..8m+7 give its rows", "[banks][ldmatrix]") {
    SECTION("x4, four matrices side by side in 128-B rows (row r of matrix m at 128r + 16m): each matrix "
            "puts 8 words in each of banks 4m..4m+3 -> 8 per matrix, 32 in all") {
        auto r = countBankWavefronts(ldmatrix(4, [](uint32_t t) { return 128 * (t % 8) + 16 * (t / 8); }));
        REQUIRE(r.ok());
        CHECK(r->phases == 4);
        CHECK(r->wavefronts == 32);
        CHECK(r->ideal == 4);
        CHECK(r->excess == 28);
    }
    SECTION(
        "x4, the same tile through the 128B swizzle: chunk (m ^ r) -> 8 different chunks -> 1 per matrix") {
        auto r =
            countBankWavefronts(ldmatrix(4, [](uint32_t t) { return sw128(128 * (t % 8) + 16 * (t / 8)); }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 4);
        CHECK(r->excess == 0);
    }
    SECTION("x2, rows packed 16 B apart: each matrix reads 128 contiguous bytes -> 1 per matrix") {
        auto r = countBankWavefronts(ldmatrix(2, [](uint32_t t) { return 16 * t; }));
        REQUIRE(r.ok());
        CHECK(r->phases == 2);
        CHECK(r->wavefronts == 2);
    }
    SECTION("x1 ignores lanes 8..31 (their addresses would be 32-way and misaligned)") {
        auto r = countBankWavefronts(ldmatrix(1, [](uint32_t t) { return t < 8 ? 16 * t : 128 * t + 4; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 1);
    }
    SECTION("x4 with all 32 row addresses equal: matrices never pair -> 4") {
        auto r = countBankWavefronts(ldmatrix(4, [](uint32_t) { return 512u; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 4);
        CHECK(r->excess == 0);
    }
    SECTION(".x3 does not exist") {
        auto a = ldmatrix(1, [](uint32_t t) { return 16 * t; });
        a.matrices = 3;
        CHECK_FALSE(countBankWavefronts(a).ok());
    }
}

TEST_CASE("8/16-B loads whose lanes pair up on one address count phases in pairs", "[banks]") {
    SECTION("16-B load, whole warp on one address: quarter pairs 0+1 and 2+3 -> 2 wavefronts, 0 conflicts") {
        auto r = countBankWavefronts(access(16, [](uint32_t) { return 2944u; }));
        REQUIRE(r.ok());
        CHECK(r->paired);
        CHECK(r->wavefronts == 2);
        CHECK(r->ideal == 2);
        CHECK(r->excess == 0);
    }
    SECTION("8-B load, whole warp on one address: both half-warps in one phase -> 1") {
        auto r = countBankWavefronts(access(8, [](uint32_t) { return 344u; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 1);
        CHECK(r->excess == 0);
    }
    SECTION("8-B load, lanes 0-15 at 1088 (banks 16,17), lanes 16-31 at 2248 (banks 18,19): one phase -> 1") {
        auto r = countBankWavefronts(access(8, [](uint32_t t) { return t < 16 ? 1088u : 2248u; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 1);
    }
    SECTION("16-B load, lanes 0-15 at 1088, 16-31 at 1088+4096 (same banks): half-warps never pair -> 2, 0 "
            "conflicts") {
        auto r = countBankWavefronts(access(16, [](uint32_t t) { return t < 16 ? 1088u : 1088u + 4096u; }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 2);
        CHECK(r->excess == 0);
    }
    SECTION("stores do not pair: 16-B store, one address -> 4 quarter-warp phases") {
        auto a = access(16, [](uint32_t) { return 1088u; });
        a.op = SmemOp::Store;
        auto r = countBankWavefronts(a);
        REQUIRE(r.ok());
        CHECK_FALSE(r->paired);
        CHECK(r->wavefronts == 4);
    }
    SECTION("16-B load, lanes alternate 1088 and 1104 (t^2 agree): each half reads 2 vectors in banks 16..23 "
            "-> 2") {
        auto r = countBankWavefronts(access(16, [](uint32_t t) { return 1088u + 16u * (t % 2); }));
        REQUIRE(r.ok());
        CHECK(r->paired);
        CHECK(r->wavefronts == 2);
    }
    SECTION("8-B load, lane t at 1088 + 8*(t/2) (t^1 agree): 16 vectors, 128 contiguous bytes -> 1") {
        auto r = countBankWavefronts(access(8, [](uint32_t t) { return 1088u + 8u * (t / 2); }));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 1);
    }
    SECTION("8-B load, lane t at 1024 + 8*(t%16): no partner agrees -> each half-warp reads 128 B -> 2") {
        auto r = countBankWavefronts(access(8, [](uint32_t t) { return 1024u + 8u * (t % 16); }));
        REQUIRE(r.ok());
        CHECK_FALSE(r->paired);
        CHECK(r->wavefronts == 2);
    }
    SECTION(
        "one lane breaks its pair: lanes 0-30 at 1088, lane 31 at 1088+4096 -> fixed half-warps: 1 + 2 = 3") {
        auto r = countBankWavefronts(access(8, [](uint32_t t) { return t < 31 ? 1088u : 1088u + 4096u; }));
        REQUIRE(r.ok());
        CHECK_FALSE(r->paired);
        CHECK(r->wavefronts == 3);
        CHECK(r->excess == 1);
    }
    SECTION("predicated-off lanes do not break a group: lanes 0-30 at 1088, lane 31 off -> 2 (16 B)") {
        auto r = countBankWavefronts(access(
            16, [](uint32_t) { return 1088u; }, 0x7FFFFFFFu));
        REQUIRE(r.ok());
        CHECK(r->wavefronts == 2);
    }
}
