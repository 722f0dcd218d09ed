// Fast path of the commonest TMA load (issue 11, engine speed): a non-interleaved tile of a byte type
// whose dimension 0 is wholly in bounds, into one CTA, with a swizzle that keeps 16-byte chunks whole.
// It produces exactly the moves, steps, bytes and mbarrier credit of the general executor
// (tileBoxPlan + deliverLoad in tma_execute.cpp), a box row at a time instead of a 16-byte piece at a
// time; tests/engine/tma_fast_test.cpp cross-checks the two on every case the fast path takes.
#include "tma/plan.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

namespace layoutscope::detail {
namespace {

constexpr uint32_t kChunk = 16; // bytes: TMA moves 16-byte chunks

std::atomic<bool> g_fastPathEnabled{true};

// Chunk c (< 8) of a 128-byte line: `src` + (16 c ^ srcMask) to `dst` + (16 c ^ dstMask), written out
// for all eight (a fold, not a loop: GCC -O2 does not unroll the loop, and the unrolled copy of a 64-row box
// is 1.4x faster untraced, 1.5x with the `before` copy; issue 25 item 10).
template <size_t... C>
inline void lineChunks(uint8_t* dst, uint32_t dstMask, const uint8_t* src, uint32_t srcMask,
                       std::index_sequence<C...>) {
    (std::memcpy(dst + ((C * kChunk) ^ dstMask), src + ((C * kChunk) ^ srcMask), kChunk), ...);
}

// `nRows` box rows of `inner` bytes, back to back in `img`, to shared memory at their swizzled addresses
// (row r's logical address a0 + r * pitch; `lineMask` by line index mod 8), whole 16-byte chunks with one
// mask per 128-byte line; the bytes each line's chunks overwrite go to `before` first (when not null).
// A free function with every pointer a parameter: the compiler keeps them in registers across the
// byte stores (through a lambda's captures it reloaded them after each one).
void placeRows(uint8_t* smem, const std::array<uint32_t, 8>& lineMask, uint32_t a0, uint32_t pitch,
               uint32_t inner, uint32_t nRows, const uint8_t* img, uint8_t* before) {
    const std::array<uint32_t, 8> mask = lineMask;
    for (uint32_t r = 0; r < nRows; ++r, a0 += pitch) {
        const uint32_t end = a0 + inner;
        if (inner == 128 && (a0 & 127u) == 0) { // a whole line (the commonest row): its 8 chunks, unrolled
            uint8_t* line = smem + a0;
            const uint32_t m = mask[(a0 >> 7) & 7u];
            if (before) {
                lineChunks(before, 0, line, m, std::make_index_sequence<8>{});
                before += 128;
            }
            lineChunks(line, m, img, 0, std::make_index_sequence<8>{});
            img += 128;
            continue;
        }
        for (uint32_t a = a0; a < end;) { // the chunks that start in a's line, then the next line's
            const uint32_t lineEnd = std::min(end, (a | 127u) + 1), m = mask[(a >> 7) & 7u];
            uint32_t c = a;
            if (before)
                for (; c < lineEnd; c += kChunk, before += kChunk)
                    std::memcpy(before, smem + (c ^ m), kChunk);
            for (c = a; c < lineEnd; c += kChunk, img += kChunk) std::memcpy(smem + (c ^ m), img, kChunk);
            a = c;
        }
    }
}

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
    // Rows in odometer order (dimension 1 fastest, as tileBoxPlan): global address, coordinates, bounds.
    struct Row {
        uint64_t addr = 0;
        std::array<int32_t, 5> coord{};
        bool in = true;
    };
    thread_local std::vector<Row> rows; // reused: no allocation per load
    if (rows.size() < g.rows) rows.resize(g.rows);
    auto rowAt = [&](const std::array<uint32_t, kMaxTensorRank>& k, Row& row) { // k: odometer position
        row.coord = {int32_t(c0), 0, 0, 0, 0};
        row.in = true;
        row.addr = p.globalAddress + uint64_t(c0 * g.elemBytes);
        for (uint32_t i = 1; i < rank; ++i) {
            const uint32_t e = p.elementStrides[i] == 0 ? 1 : p.elementStrides[i];
            const int64_t x = int64_t(op.coords[i]) + int64_t(k[i]) * e;
            if (x < 0 || uint64_t(x) >= p.globalDim[i]) row.in = false;
            row.addr += uint64_t(x) * p.globalStrides[i - 1];
            row.coord[i] = int32_t(x);
        }
    };
    // Dimensions 1 and 2 make the rows and planes of one grid of moves (MoveTable::appendGrid) when every
    // row is in bounds (or every row is fill); otherwise, or with dimensions 3 and 4, a grid per row.
    // A row is in bounds when its coordinate in every dimension is: every row is in when every dimension
    // is wholly in, and every row is out when some dimension is wholly out. Then only the planes' first
    // rows are needed (emit reads no others), not a pass over every row.
    const uint32_t n1 = rank > 1 ? g.count[1] : 1, n2 = rank > 2 ? g.count[2] : 1;
    bool allIn = true, someOut = false;
    for (uint32_t i = 1; i < rank; ++i) {
        // The coordinates c + j e (j < count, e > 0) rise, so the first and the last decide (not a pass
        // over every j: issue 25 item 10).
        const uint32_t e = p.elementStrides[i] == 0 ? 1 : p.elementStrides[i];
        if (g.count[i] == 0) {
            someOut = true; // no coordinate in bounds (as counting them found)
            continue;
        }
        const int64_t lo = int64_t(op.coords[i]), hi = lo + int64_t(g.count[i] - 1) * e;
        const int64_t dim = int64_t(p.globalDim[i]);
        allIn = allIn && lo >= 0 && hi < dim;
        const int64_t j0 = lo < 0 ? (-lo + e - 1) / e : 0; // the first j with c + j e >= 0
        someOut = someOut || j0 >= int64_t(g.count[i]) || lo + j0 * e >= dim;
    }
    const bool uniform = uint64_t(n1) * n2 == g.rows && (allIn || someOut);
    if (uniform) {
        for (uint32_t z = 0; z < n2; ++z) rowAt({0, 0, z, 0, 0}, rows[size_t(z) * n1]);
    } else {
        std::array<uint32_t, kMaxTensorRank> k{};
        for (uint32_t r = 0; r < g.rows; ++r) {
            rowAt(k, rows[r]);                    // every field set
            for (uint32_t i = 1; i < rank; ++i) { // dimension 1 fastest
                if (++k[i] < g.count[i]) break;
                k[i] = 0;
            }
        }
    }

    // The swizzle XORs address bits [4,7) with bits [7,10) in every mode but FLIP_8B (excluded above;
    // swizzle.cpp): a 128-byte line's mask depends only on its index mod 8, so eight calls give them all.
    std::array<uint32_t, 8> lineMask{};
    for (uint32_t l = 0; l < 8; ++l) lineMask[l] = swizzleAddress(p.swizzle, l << 7) ^ (l << 7);
    LAYOUTSCOPE_ASSERT((swizzleAddress(p.swizzle, op.dstAddr) ^ op.dstAddr) ==
                       lineMask[(op.dstAddr >> 7) & 7u]);
    uint8_t* smem = state.smem[cta].bytes().data();
    thread_local std::vector<uint8_t> scratch; // the box image when the trace does not keep it
    // Moves of `nRows` rows starting at row r (a grid of chunks x n1 rows x planes, or one row).
    auto emit = [&](uint32_t r, uint32_t nRows, std::array<uint32_t, 3> n) {
        const Row& row = rows[r];
        ByteMove m;
        m.coord = row.coord;
        m.logicalOffset = uint32_t(uint64_t(r) * g.rowPitch);
        m.dst = MemRef{MemSpace::SharedCta, cta, swizzleAddress(p.swizzle, op.dstAddr + m.logicalOffset)};
        m.length = kChunk;
        const uint32_t e1 = rank > 1 && p.elementStrides[1] != 0 ? p.elementStrides[1] : 1;
        const uint32_t e2 = rank > 2 && p.elementStrides[2] != 0 ? p.elementStrides[2] : 1;
        const int64_t gs1 = rank > 1 ? int64_t(p.globalStrides[0]) * e1 : 0;
        const int64_t gs2 = rank > 2 ? int64_t(p.globalStrides[1]) * e2 : 0;
        // Strides: step, src.cta, src.addr, dst.cta, dst.addr (derived), logicalOffset, coord[0..4].
        std::array<MoveTable::Strides, 3> s{};
        s[0] = {1, 0, row.in ? kChunk : 0, 0, 0, kChunk, elemsPerChunk, 0, 0, 0, 0};
        s[1] = {chunks, 0, row.in ? gs1 : 0, 0, 0, g.rowPitch, 0, int64_t(e1), 0, 0, 0};
        s[2] = {int64_t(chunks) * n[1],
                0,
                row.in ? gs2 : 0,
                0,
                0,
                int64_t(g.rowPitch) * n[1],
                0,
                0,
                int64_t(e2),
                0,
                0};
        if (row.in) {
            m.src = MemRef{MemSpace::Global, 0, row.addr};
            m.transform = Transform::Copy;
            m.rule = inRule;
        } else {
            m.src = MemRef{MemSpace::Fill, 0, 0};
            m.transform = nanFill ? Transform::FillNaN : Transform::FillZero;
            m.rule = nanFill ? RuleId::TmaOobFillNaN : RuleId::TmaOobFillZero;
        }
        const TraceBuilder::GridBytes gb = trace.moveGrid(state, m, n, s, derive);
        const size_t bytes = size_t(nRows) * g.innerBytes;
        uint8_t* img = gb.after;
        if (!img) {
            if (scratch.size() < bytes) scratch.resize(bytes);
            img = scratch.data();
        }
        if (!row.in) {
            for (size_t j = 0; j < bytes; ++j) img[j] = nanFill ? ((j % g.innerBytes) & 1u ? 0x7F : 0xF7) : 0;
        } else if (nRows == 1) {
            state.global.readRows(row.addr, 0, g.innerBytes, 1, img);
        } else {
            for (uint32_t z = 0; z < n[2]; ++z) // one plane: n1 rows at the dimension-1 stride
                state.global.readRows(rows[r + z * n[1]].addr, uint64_t(gs1), g.innerBytes, n[1],
                                      img + size_t(z) * n[1] * g.innerBytes);
        }
        placeRows(smem, lineMask, op.dstAddr + m.logicalOffset, g.rowPitch, g.innerBytes, nRows, img,
                  gb.before);
    };
    if (uniform) {
        emit(0, g.rows, {chunks, n1, n2});
    } else {
        for (uint32_t r = 0; r < g.rows; ++r) emit(r, 1, {chunks, 1, 1});
    }
    trace.tx(state, uint8_t(tmaSignalCta(op.ctaGroup, cta, op.mbarCta)), op.mbarAddr, int64_t(g.boxBytes));
    return okStatus();
}

} // namespace layoutscope::detail
