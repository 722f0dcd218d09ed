// Bulk path of tcgen05.cp of one lane per row into one CTA (issue 11, engine speed; tcgen05.st / ld are in
// exec_ldst_bulk.cpp). It records its moves as one grid (MoveTable::appendGrid) and copies the cells a lane
// at a time, instead of a batch of ByteMoves per step; the trace and TMEM are exactly those of the per-move
// path in exec_cp.cpp, which tests/engine/tcgen05_fast_test.cpp runs side by side.
#include "layoutscope/tcgen05/exec.hpp"
#include "tcgen05/exec_detail.hpp"

#include <atomic>
#include <bit>
#include <cstring>

namespace layoutscope {
namespace {

std::atomic<bool> g_fastPath{true};

// Cells and registers are copied as host uint32_t: their bytes are the trace's little-endian bytes.
constexpr bool kLittleEndian = std::endian::native == std::endian::little;

using Strides = MoveTable::Strides;
constexpr int64_t kLaneStep = int64_t(1) << 16; // TMEM lane in MemRef addresses

} // namespace

namespace detail {
void setTcgen05FastPath(bool enabled) {
    g_fastPath = enabled;
}
bool tcgen05FastPath() {
    return g_fastPath;
}
} // namespace detail

bool Tcgen05Executor::cpBulk(TraceBuilder& tb, const CpForm& f, uint32_t cta, TmemAddr a,
                             const uint32_t* saddr, Transform tr, RuleId rule) {
    // One lane per row (128x256b, 128x128b, 4x256b) into one CTA: move (r, q), q fastest, one step per row.
    if (!kLittleEndian || !detail::tcgen05FastPath() || f.ctaGroup != 1 ||
        (f.shape != CpShape::k128x256b && f.shape != CpShape::k128x128b && f.shape != CpShape::k4x256b))
        return false;
    const uint32_t rows = cpSourceRows(f.shape), rowBytes = cpRowBytes(f.shape), chunks = rowBytes / 16;
    const uint32_t laneStep = f.shape == CpShape::k4x256b ? 32 : 1; // cpRowLanes: r or 32 r
    // The source walk as a grid: chunks x rows, or chunks x 8 rows x rows / 8 (a canonical layout's core
    // matrices), when the addresses step evenly; else a grid per row.
    const int64_t s0 = int64_t(saddr[0]);
    const int64_t dq = chunks > 1 ? int64_t(saddr[1]) - s0 : 0;
    auto fits = [&](uint32_t group, int64_t d1, int64_t d2) {
        // Row r = g * group + i starts at s0 + i * d1 + g * d2 (counted, not divided: this ran per row).
        int64_t start = s0;
        for (uint32_t r = 0, i = 0; r < rows; ++r) {
            for (uint32_t q = 0; q < chunks; ++q)
                if (int64_t(saddr[r * chunks + q]) != start + q * dq) return false;
            if (++i == group) {
                i = 0;
                start += d2 - int64_t(group - 1) * d1;
            } else {
                start += d1;
            }
        }
        return true;
    };
    const int64_t d1 = rows > 1 ? int64_t(saddr[chunks]) - s0 : 0;
    uint32_t group = 0; // rows per level-1 block: rows (2 levels) or 8 (3 levels); 0: a grid per row
    int64_t d2 = 0;
    if (fits(rows, d1, 0)) {
        group = rows;
    } else if (rows % 8 == 0) {
        d2 = int64_t(saddr[8 * chunks]) - s0;
        if (fits(8, d1, d2)) group = 8;
    }
    const uint8_t* smem = m_state.smem[cta].bytes().data();
    TensorMemory& tm = m_tmem.ctas[cta];
    auto first = [&](uint32_t r) {
        ByteMove m;
        m.src = MemRef{MemSpace::SharedCta, static_cast<uint8_t>(cta), saddr[r * chunks]};
        m.dst = detail::tmemRef(cta, a.lane + laneStep * r, a.column);
        m.length = 16;
        m.transform = tr;
        m.rule = rule;
        m.logicalOffset = r * rowBytes;
        m.coord = {static_cast<int32_t>(r), 0, 0, 0, 0};
        return m;
    };
    // Strides: step, src.cta, src.addr, dst.cta, dst.addr, logicalOffset, coord[0..4].
    auto level0 = [&](int64_t srcStep) { return Strides{0, 0, srcStep, 0, 4, 16, 0, 1, 0, 0, 0}; };
    auto rowLevel = [&](int64_t k, int64_t srcStep) { // k rows on
        return Strides{k, 0, srcStep, 0, k * laneStep * kLaneStep, k * rowBytes, k, 0, 0, 0, 0};
    };
    // Data of rows [r0, r0 + n): before = the lane's cells, after = the (decompressed) chunks, then the
    // write.
    std::array<uint8_t, 32> rowBuf{};
    auto copyRows = [&](uint32_t r0, uint32_t n, const TraceBuilder::GridBytes& gb) {
        if (f.decompress == CpDecompress::None && gb.before) { // a plain copy, traced: no per-chunk tests
            uint8_t* before = gb.before;
            uint8_t* after = gb.after;
            for (uint32_t r = r0; r < r0 + n; ++r) {
                uint8_t* cells =
                    reinterpret_cast<uint8_t*>(tm.laneCells(a.lane + laneStep * r).data() + a.column);
                const uint32_t* src = saddr + size_t(r) * chunks;
                for (uint32_t q = 0; q < chunks; ++q, before += 16, after += 16) {
                    std::memcpy(before, cells + 16 * q, 16);
                    std::memcpy(after, smem + src[q], 16);
                    std::memcpy(cells + 16 * q, after, 16);
                }
            }
            return;
        }
        for (uint32_t r = r0; r < r0 + n; ++r) {
            uint8_t* cells =
                reinterpret_cast<uint8_t*>(tm.laneCells(a.lane + laneStep * r).data() + a.column);
            uint8_t* after = gb.after ? gb.after + size_t(r - r0) * rowBytes : rowBuf.data();
            uint8_t* before = gb.before ? gb.before + size_t(r - r0) * rowBytes : nullptr;
            for (uint32_t q = 0; q < chunks; ++q) { // 16-byte copies of a fixed size
                std::array<uint8_t, 16> chunk;
                std::memcpy(chunk.data(), smem + saddr[r * chunks + q], 16);
                if (f.decompress != CpDecompress::None) chunk = decompressChunk(f.decompress, chunk);
                if (before) std::memcpy(before + 16 * q, cells + 16 * q, 16);
                std::memcpy(after + 16 * q, chunk.data(), 16);
                std::memcpy(cells + 16 * q, chunk.data(), 16);
            }
        }
    };
    if (group == 0) {
        for (uint32_t r = 0; r < rows; ++r) {
            const int64_t rdq = chunks > 1 ? int64_t(saddr[r * chunks + 1]) - int64_t(saddr[r * chunks]) : 0;
            copyRows(r, 1, tb.moveGrid(first(r), {chunks, 1, 1}, {level0(rdq), Strides{}, Strides{}}));
        }
        return true;
    }
    const std::array<Strides, 3> s{level0(dq), rowLevel(1, d1), rowLevel(group, d2)};
    copyRows(0, rows, tb.moveGrid(first(0), {chunks, group, rows / group}, s));
    return true;
}

} // namespace layoutscope
