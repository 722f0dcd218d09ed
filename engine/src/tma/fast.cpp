// Fast path of the commonest TMA load (issue 11, engine speed): a non-interleaved tile of a byte type
// whose dimension 0 is wholly in bounds, into one CTA, with a swizzle that keeps 16-byte chunks whole.
// It produces exactly the moves, steps, bytes and mbarrier credit of the general executor
// (tileBoxPlan + deliverLoad in tma_execute.cpp), a box row at a time instead of a 16-byte piece at a
// time; tests/engine/tma_fast_test.cpp cross-checks the two on every case the fast path takes.
#include "tma/plan.hpp"

#include <algorithm>
#include <atomic>

namespace layoutscope::detail {
namespace {

constexpr uint32_t kChunk = 16; // bytes: TMA moves 16-byte chunks

std::atomic<bool> g_fastPathEnabled{true};

} // namespace

void setTileFastPath(bool enabled) {
    g_fastPathEnabled = enabled;
}

std::optional<Status> fastTileLoad(const TmaTileLoad& op, const std::vector<uint8_t>& dests,
                                   MachineState& state, TraceBuilder& trace) {
    const TensorMap& map = op.map;
    const TensorMapTiledParams& p = map.p;
    if (!g_fastPathEnabled || dests.size() != 1 || map.mode != TensorMap::Mode::Tiled ||
        isSubByteType(p.dataType) || p.interleave != TensorInterleave::NONE ||
        p.swizzle == TensorSwizzle::S128B_ATOM_32B_FLIP_8B || p.dataType == TensorDataType::TFLOAT32 ||
        p.dataType == TensorDataType::TFLOAT32_FTZ)
        return std::nullopt;
    const TileGeometry g = tileGeometry(map);
    const uint32_t rank = std::min<uint32_t>(p.tensorRank, kMaxTensorRank);
    const int64_t c0 = op.coords[0];
    if (g.elemBytes == 0 || g.boxBytes == 0 || g.innerBytes % kChunk != 0 || c0 < 0 ||
        uint64_t(c0) + g.count[0] > p.globalDim[0])
        return std::nullopt; // rows cut at dimension 0 (or empty boxes) take the general path

    const uint8_t cta = dests[0];
    // The footprint check of checkFits (tma_execute.cpp): the line holding the box's last byte.
    const uint64_t end = uint64_t(g.rows - 1) * g.rowPitch + g.innerBytes;
    const uint64_t lineEnd = (uint64_t(op.dstAddr) + end + 127) / 128 * 128;
    if (cta >= state.smem.size() || lineEnd > state.smem[cta].size()) return std::nullopt;

    const bool nanFill = p.oobFill == TensorOobFill::NAN_REQUEST_ZERO_FMA;
    const RuleId inRule = swizzleRule(p.swizzle);
    const AddrDerivation derive{AddrDerivation::Side::Dst, uint32_t(p.swizzle), op.dstAddr};
    const uint32_t chunks = g.innerBytes / kChunk;
    const int32_t elemsPerChunk = int32_t(kChunk / g.elemBytes);
    // Strides of one row's chunks: step, src.cta, src.addr, dst.cta, dst.addr (derived), logicalOffset,
    // coord[0..4].
    MoveTable::Strides inStride{1, 0, kChunk, 0, 0, kChunk, elemsPerChunk, 0, 0, 0, 0};
    MoveTable::Strides fillStride{1, 0, 0, 0, 0, kChunk, elemsPerChunk, 0, 0, 0, 0};
    std::vector<uint8_t> fill(g.innerBytes);
    for (uint32_t j = 0; j < g.innerBytes; ++j) fill[j] = nanFill ? ((j & 1u) ? 0x7F : 0xF7) : 0;
    std::vector<uint8_t> row(g.innerBytes);

    std::array<uint32_t, kMaxTensorRank> k{}; // odometer over dimensions 1..rank-1, as tileBoxPlan
    for (uint32_t r = 0; r < g.rows; ++r) {
        ByteMove m;
        m.coord[0] = int32_t(c0);
        bool rowIn = true;
        uint64_t rowAddr = p.globalAddress + uint64_t(c0 * g.elemBytes);
        for (uint32_t i = 1; i < rank; ++i) {
            const uint32_t e = p.elementStrides[i] == 0 ? 1 : p.elementStrides[i];
            const int64_t x = int64_t(op.coords[i]) + int64_t(k[i]) * e;
            if (x < 0 || uint64_t(x) >= p.globalDim[i]) rowIn = false;
            rowAddr += uint64_t(x) * p.globalStrides[i - 1];
            m.coord[i] = int32_t(x);
        }
        m.logicalOffset = uint32_t(uint64_t(r) * g.rowPitch);
        m.dst = MemRef{MemSpace::SharedCta, cta, swizzleAddress(p.swizzle, op.dstAddr + m.logicalOffset)};
        m.length = kChunk;
        if (rowIn) {
            state.global.read(rowAddr, std::span<uint8_t>(row));
            m.src = MemRef{MemSpace::Global, 0, rowAddr};
            m.transform = Transform::Copy;
            m.rule = inRule;
            trace.moveRow(state, m, chunks, inStride, row, derive);
        } else {
            m.src = MemRef{MemSpace::Fill, 0, 0};
            m.transform = nanFill ? Transform::FillNaN : Transform::FillZero;
            m.rule = nanFill ? RuleId::TmaOobFillNaN : RuleId::TmaOobFillZero;
            trace.moveRow(state, m, chunks, fillStride, fill, derive);
        }
        for (uint32_t i = 1; i < rank; ++i) { // dimension 1 fastest
            if (++k[i] < g.count[i]) break;
            k[i] = 0;
        }
    }
    trace.tx(state, uint8_t(tmaSignalCta(op.ctaGroup, cta, op.mbarCta)), op.mbarAddr, int64_t(g.boxBytes));
    return okStatus();
}

} // namespace layoutscope::detail
