// Block-scaled tcgen05.mma (kind::mxf8f6f4 / mxf4 / mxf4nvf4 .block_scale): the block-scaled instruction
// descriptor decoded from values built by hand from CuTe's UMMA::InstrDescriptorBlockScaled (bits [4,6)
// b_sf_id, [7,10) a_format, [10,13) b_format, [13,14)/[14,15) negate, [15,16)/[16,17) majors, [17,23) N >> 3,
// [23,24) scale_format 0 UE4M3 / 1 UE8M0, [24,29) M >> 4, [29,31) a_sf_id, [31,32) k_size); the scale-factor
// cells against golden/cute/blockscaled_sf_utccp.json (CUTLASS's smem layout SF(m0 + 32*m1, j) at byte 16*m0
// + 4*m1 + j + 512*kblock, copied by tcgen05.cp .32x128b.warpx4 to the TMEM cells listed there); D of a tiny
// product computed by hand.
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>

using namespace layoutscope;

namespace {

// CuTe InstrDescriptorBlockScaled, field by field.
constexpr uint32_t bsIdesc(uint32_t afmt, uint32_t bfmt, uint32_t m, uint32_t n, uint32_t scaleFmt,
                           uint32_t aSf = 0, uint32_t bSf = 0) {
    return bSf << 4 | afmt << 7 | bfmt << 10 | (n >> 3) << 17 | scaleFmt << 23 | (m >> 4) << 24 | aSf << 29;
}

uint32_t f32(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

} // namespace

TEST_CASE("block-scaled instruction descriptors decode field by field", "[umma][blockscale]") {
    SECTION("NVFP4: e2m1 x e2m1, UE4M3 scales, M=128 N=256") {
        auto op = decodeUmmaIdescBlockScaled(UmmaKind::Mxf4nvf4, 1, 16, bsIdesc(1, 1, 128, 256, 0));
        REQUIRE(op);
        CHECK(op->a == UmmaType::E2m1);
        CHECK(op->b == UmmaType::E2m1);
        CHECK(op->d == UmmaType::F32);
        CHECK(op->m == 128);
        CHECK(op->n == 256);
        CHECK(op->sfFormat == UmmaScaleFormat::Ue4m3);
        CHECK(ummaK(*op) == 64);
        CHECK(ummaScalesPerRow(*op) == 4);
    }
    SECTION("MXFP8: e4m3 x e5m2, UE8M0, sf ids 3 (A) and 2 (B), B negated") {
        const uint32_t v = bsIdesc(0, 1, 128, 64, 1, 3, 2) | 1u << 14;
        CHECK(v == 0x68904420u); // 3<<29 | 8<<24 | 1<<23 | 8<<17 | 1<<14 | 1<<10 | 2<<4
        auto op = decodeUmmaIdescBlockScaled(UmmaKind::Mxf8f6f4, 1, 32, v);
        REQUIRE(op);
        CHECK(op->a == UmmaType::E4m3);
        CHECK(op->b == UmmaType::E5m2);
        CHECK(op->sfaId == 3);
        CHECK(op->sfbId == 2);
        CHECK(op->negB);
        CHECK(!op->negA);
        CHECK(op->sfFormat == UmmaScaleFormat::Ue8m0);
        CHECK(ummaK(*op) == 32);
        CHECK(ummaScalesPerRow(*op) == 1);
    }
    SECTION("errors name the rule") {
        auto msg = [](UmmaKind k, uint32_t vs, uint32_t v, uint32_t group = 1) {
            auto op = decodeUmmaIdescBlockScaled(k, group, vs, v);
            return op ? std::string() : op.diagnostics()[0].message;
        };
        CHECK(msg(UmmaKind::Mxf4, 32, bsIdesc(1, 1, 128, 64, 0)).find("UE4M3") != std::string::npos);
        CHECK(msg(UmmaKind::Mxf4nvf4, 16, bsIdesc(0, 0, 128, 64, 0)).find("both 1 (E2M1") !=
              std::string::npos);
        CHECK(msg(UmmaKind::Mxf8f6f4, 32, bsIdesc(5, 0, 128, 64, 1)).find("not modelled") !=
              std::string::npos);
        CHECK(msg(UmmaKind::Mxf4nvf4, 32, bsIdesc(1, 1, 128, 64, 1, 3)).find("past byte 3") !=
              std::string::npos); // 2 SFs from byte 3
        CHECK(msg(UmmaKind::Mxf4nvf4, 16, bsIdesc(1, 1, 64, 64, 0)).find("no M = 64") != std::string::npos);
        CHECK(msg(UmmaKind::Mxf4nvf4, 16, bsIdesc(1, 1, 128, 64, 0) | 1u << 31).find("K = 96") !=
              std::string::npos);
        CHECK(msg(UmmaKind::Mxf4, 32, bsIdesc(1, 1, 128, 64, 1) | 1u << 15).find("K-major") !=
              std::string::npos);
    }
}

TEST_CASE("scale-factor cells match CUTLASS's NVFP4 copies (golden blockscaled_sf_utccp.json)",
          "[umma][blockscale][golden]") {
    std::ifstream in(std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/cute/blockscaled_sf_utccp.json");
    REQUIRE(in);
    const nlohmann::json doc = nlohmann::json::parse(in);
    const nlohmann::json& ex = doc.at("examples").at(0);
    REQUIRE(ex.at("SFVecSize") == 16);
    auto op = decodeUmmaIdescBlockScaled(UmmaKind::Mxf4nvf4, 1, 16, bsIdesc(1, 1, 128, 128, 0));
    REQUIRE(op);
    std::map<uint32_t, std::set<std::array<uint32_t, 3>>> replicas; // smem byte -> {lane, column, byte}
    for (const auto& e : ex.at("smem_byte_to_tmem"))
        for (const auto& x : e[1])
            replicas[e[0].get<uint32_t>()].insert(
                {x[0].get<uint32_t>(), x[1].get<uint32_t>(), x[2].get<uint32_t>()});
    uint32_t checked = 0;
    for (const auto& kb : ex.at("mma_kblock_sf_taddr")) {
        const uint32_t kBlock = kb.at("mma_k_block").get<uint32_t>();
        const uint32_t taddr = std::stoul(kb.at("taddr").get<std::string>(), nullptr, 16);
        op->sfaTaddr = taddr & 0x3FFFFFFFu;
        op->sfaId = taddr >> 30;
        for (uint32_t m = 0; m < 128; ++m)
            for (uint32_t j = 0; j < 4; ++j) {
                const UmmaDCell c = ummaScaleCell(*op, UmmaOperand::A, m, j);
                const TmemAddr base = decodeTmemAddress(op->sfaTaddr);
                const uint32_t smemByte = 16 * (m % 32) + 4 * (m / 32) + j + 512 * kBlock;
                INFO("k block " << kBlock << " row " << m << " sf " << j);
                CHECK(replicas[smemByte].count({base.lane + c.lane, base.column + c.column, c.byte}) == 1);
                CHECK(c.lane == m); // the replica in the row's own lane quarter
                ++checked;
            }
    }
    CHECK(checked == 2048);
}

TEST_CASE("scale-factor cells for 1X, 2X and 4X", "[umma][blockscale]") {
    // Hand table: row r -> lane r % 32 + 32 * ((r / 32) % 4), column r / 32, byte sf_id + j.
    auto op1 = decodeUmmaIdescBlockScaled(UmmaKind::Mxf8f6f4, 1, 32, bsIdesc(0, 0, 128, 256, 1, 2, 1));
    auto op2 = decodeUmmaIdescBlockScaled(UmmaKind::Mxf4, 1, 32, bsIdesc(1, 1, 128, 64, 1, 2, 0));
    auto op4 = decodeUmmaIdescBlockScaled(UmmaKind::Mxf4nvf4, 1, 16, bsIdesc(1, 1, 128, 64, 0));
    REQUIRE(op1);
    REQUIRE(op2);
    REQUIRE(op4);
    CHECK(ummaScaleCell(*op1, UmmaOperand::A, 70, 0) == UmmaDCell{0, 70, 2, 2});
    CHECK(ummaScaleCell(*op1, UmmaOperand::B, 200, 0) == UmmaDCell{0, 72, 6, 1}); // N = 256: 8 columns
    CHECK(ummaScaleColumns(*op1, UmmaOperand::B) == 8);
    CHECK(ummaScaleCell(*op2, UmmaOperand::A, 33, 1) == UmmaDCell{0, 33, 1, 3});
    CHECK(ummaScaleCell(*op4, UmmaOperand::A, 127, 3) == UmmaDCell{0, 127, 3, 3});
    CHECK(ummaScaleCell(*op4, UmmaOperand::B, 5, 2) == UmmaDCell{0, 5, 0, 2});
    CHECK(ummaScaleValue(UmmaScaleFormat::Ue8m0, 0x7F) == 1.0);
    CHECK(ummaScaleValue(UmmaScaleFormat::Ue8m0, 0x81) == 4.0);
    CHECK(std::isnan(ummaScaleValue(UmmaScaleFormat::Ue8m0, 0xFF)));
    CHECK(ummaScaleValue(UmmaScaleFormat::Ue4m3, 0x38) == 1.0);
    CHECK(ummaScaleValue(UmmaScaleFormat::Ue4m3, 0x41) == 2.25);
}

namespace {

struct Rig {
    Rig() : state(1, 0), tmem(1), ex(trace, state, tmem) {}
    Trace trace;
    MachineState state;
    TmemState tmem;
    Tcgen05Executor ex;
};

// K-major SWIZZLE_NONE canonical layout, 8-row x 16-byte core matrices: byte kb of row r at
// start + (r / 8) * SBO + (kb / 16) * LBO + (r % 8) * 16 + kb % 16 with LBO = 128, SBO = 256.
uint64_t plain(uint32_t start) {
    SmemDescriptor d;
    d.startAddress = start;
    d.lbo = 128;
    d.sbo = 256;
    d.layoutType = 0;
    return encodeSmemDescriptor(d);
}
uint32_t at(uint32_t start, uint32_t r, uint32_t kb) {
    return start + (r / 8) * 256 + (kb / 16) * 128 + (r % 8) * 16 + kb % 16;
}

} // namespace

TEST_CASE("block-scaled MMA: D from one-hot operands and known scales", "[umma][blockscale][exec]") {
    constexpr uint32_t kA = 0x1000, kB = 0x4000;
    Rig r;
    auto smem = r.state.smem[0].bytes();
    SECTION("NVFP4 4X: element 17 of A row 5 and B row 3 (K block 1)") {
        // A[5][17] = e2m1 3.0 (code 5), B[3][17] = e2m1 -1.5 (code 0xB): element 17 is the high nibble of
        // byte
        // 8. SFA(5, 1) = ue4m3 0x40 = 2; SFB(3, 1) = 0x30 = 0.5. D[5][3] = 3 * 2 * -1.5 * 0.5 = -4.5.
        smem[at(kA, 5, 8)] = 0x50;
        smem[at(kB, 3, 8)] = 0xB0;
        auto op = decodeUmmaIdescBlockScaled(UmmaKind::Mxf4nvf4, 1, 16, bsIdesc(1, 1, 128, 16, 0));
        REQUIRE(op);
        op->descA = plain(kA);
        op->descB = plain(kB);
        op->sfaTaddr = 64; // column 64
        op->sfbTaddr = 72;
        r.tmem.ctas[0].setCell(5, 64, 0x00004000u);  // SFA row 5: lane 5, column 64 + 0, byte 1
        r.tmem.ctas[0].setCell(3, 72, 0x00003000u);  // SFB row 3: lane 3, column 72, byte 1
        r.tmem.ctas[0].setCell(37, 64, 0x00007F00u); // another lane quarter's replica: not the one read
        REQUIRE(r.ex.mma(*op, 0, InstrSource{"tcgen05.mma", 1}));
        CHECK(r.tmem.ctas[0].cell(5, 3) == f32(-4.5f));
        CHECK(r.tmem.ctas[0].cell(5, 2) == 0u);
        CHECK(r.tmem.ctas[0].cell(4, 3) == 0u);
        // The scale-factor reads are moves from TMEM: 128 SFA rows + 16 SFB rows in the first step.
        uint32_t sfMoves = 0;
        for (const ByteMove& m : r.trace.moves)
            if (m.rule == RuleId::Tcgen05MmaScaleFactors) {
                CHECK(m.src.space == MemSpace::TensorMemory);
                ++sfMoves;
            }
        CHECK(sfMoves == 144);
        CHECK(r.trace.instrs[0].summary.find("(A*SFA)(B*SFB)") != std::string::npos);
    }
    SECTION("MXFP8 1X with sf ids: e4m3 1.0 x e4m3 2.0 at k = 31, scales from bytes 2 and 3") {
        smem[at(kA, 0, 31)] = 0x38; // 1.0
        smem[at(kB, 1, 31)] = 0x40; // 2.0
        auto op = decodeUmmaIdescBlockScaled(UmmaKind::Mxf8f6f4, 1, 32, bsIdesc(0, 0, 128, 16, 1, 2, 3));
        REQUIRE(op);
        op->descA = plain(kA);
        op->descB = plain(kB);
        op->sfaTaddr = 64;
        op->sfbTaddr = 68;
        r.tmem.ctas[0].setCell(0, 64, 0x00820000u); // byte 2: ue8m0 0x82 = 8
        r.tmem.ctas[0].setCell(1, 68, 0x7E000000u); // byte 3: ue8m0 0x7E = 0.5
        REQUIRE(r.ex.mma(*op, 0, InstrSource{"tcgen05.mma", 1}));
        CHECK(r.tmem.ctas[0].cell(0, 1) == f32(8.0f)); // 1 * 8 * 2 * 0.5
    }
    SECTION("an SF column past Tensor Memory is an error naming the operand") {
        auto op = decodeUmmaIdescBlockScaled(UmmaKind::Mxf4nvf4, 1, 16, bsIdesc(1, 1, 128, 16, 0));
        REQUIRE(op);
        op->descA = plain(kA);
        op->descB = plain(kB);
        op->sfaTaddr = 510; // columns 510..513
        const Status s = r.ex.mma(*op, 0, InstrSource{"tcgen05.mma", 1});
        REQUIRE(!s);
        CHECK(s.diagnostics()[0].message.find("SFA of row 64") != std::string::npos);
    }
}
