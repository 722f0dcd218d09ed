#include "fake_trace.hpp"

#include <array>

namespace layoutscope::views::test {

std::unique_ptr<Document> makeFakeSw128Document() {
    TensorMapTiledParams p;
    p.dataType = TensorDataType::FLOAT16;
    p.tensorRank = 2;
    p.globalAddress = kGlobalBase;
    p.globalDim = {64, kRows, 1, 1, 1};
    p.globalStrides = {128, 0, 0, 0};
    p.boxDim = {64, 64, 1, 1, 1};
    p.swizzle = TensorSwizzle::S128B;
    const TensorMap map{p, 16};

    MachineState state(1);
    state.global.addRegion(kGlobalBase, 64 * kRows * 2, [](uint64_t off) {
        const uint16_t v =
            elementBits(static_cast<int32_t>((off % 128) / 2), static_cast<int32_t>(off / 128));
        return static_cast<uint8_t>(off % 2 ? v >> 8 : v & 0xFF);
    });
    const MachineState initial = state;

    Trace trace;
    TraceBuilder b(trace);
    b.beginInstr("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, "
                 "48}], [bar];",
                 7);
    for (uint32_t r = 0; r < 64; ++r) {
        for (uint32_t k = 0; k < 8; ++k) {
            const uint32_t logical = kSmemBase + r * 128 + k * 16;
            const int32_t c0 = static_cast<int32_t>(k * 8), c1 = kBoxRow0 + static_cast<int32_t>(r);
            const bool oob = static_cast<uint64_t>(c1) >= kRows;
            ByteMove m;
            m.dst = MemRef{MemSpace::SharedCta, 0, swizzle128(logical)};
            m.length = 16;
            m.logicalOffset = logical - kSmemBase;
            m.coord = {c0, c1, 0, 0, 0};
            std::array<uint8_t, 16> bytes{};
            if (oob) {
                m.src = MemRef{MemSpace::Fill, 0, 0};
                m.transform = Transform::FillZero;
                m.rule = RuleId::TmaOobFillZero;
            } else {
                m.src = MemRef{MemSpace::Global, 0, kGlobalBase + uint64_t(c1) * 128 + uint64_t(c0) * 2};
                m.rule = RuleId::TmaSwizzle128B;
                state.global.read(m.src.addr, bytes);
            }
            b.move(state, m, bytes);
        }
    }
    b.endInstr("fake TMA tile load 64x64 FLOAT16, SWIZZLE_128B");

    InstrTile tile;
    tile.valid = true;
    tile.load = true;
    tile.map = map;
    tile.coords = {0, kBoxRow0, 0, 0, 0};
    tile.smemAddr = kSmemBase;
    return Document::fromTrace(std::move(trace), initial, {tile}, SmemWindow{0, kSmemBase, 64 * 128});
}

} // namespace layoutscope::views::test
