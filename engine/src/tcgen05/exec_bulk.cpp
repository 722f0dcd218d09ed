// Bulk paths of the regular tcgen05 moves (issue 11, engine speed): tcgen05.st / ld .32x32b without
// .pack/.unpack (thread t <-> lane t, register j <-> column j) and tcgen05.cp of one lane per row into one
// CTA. Each records its moves as one grid (MoveTable::appendGrid) and copies the cells a lane at a time,
// instead of a batch of ByteMoves per step; the trace, TMEM and registers are exactly those of the per-move
// paths in exec.cpp / exec_cp.cpp, which tests/engine/tcgen05_fast_test.cpp runs side by side.
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
constexpr int64_t kLaneStep = int64_t(1) << 16; // TMEM lane, and thread, in MemRef addresses

} // namespace

namespace detail {
void setTcgen05FastPath(bool enabled) {
    g_fastPath = enabled;
}
bool tcgen05FastPath() {
    return g_fastPath;
}
} // namespace detail

// Registers j0.. whose names step evenly: the length of that run (at least 1) and its step.
static uint32_t evenRun(const std::vector<uint32_t>& names, uint32_t j0, uint32_t n, int64_t& step) {
    auto reg = [&](uint32_t j) { return int64_t(j < names.size() ? names[j] : j); };
    step = j0 + 1 < n ? reg(j0 + 1) - reg(j0) : 0;
    uint32_t j1 = j0 + 1;
    while (j1 < n && reg(j1) - reg(j1 - 1) == step) ++j1;
    return j1 - j0;
}

bool Tcgen05Executor::ldStBulk(TraceBuilder& tb, const LdStForm& f, uint32_t cta, uint32_t warp, TmemAddr a,
                               const WarpRegisters* in, WarpRegisters* out) {
    if (!kLittleEndian || !detail::tcgen05FastPath() || f.shape != LdStShape::k32x32b || f.pack16b)
        return false;
    const uint32_t n = regsPerThread(f);
    // A register's MemRef address is thread << 16 | (register * 4 + byte): an arithmetic field only while
    // register * 4 + 3 stays below 1 << 16.
    for (uint32_t j = 0; j < n && j < m_regNames.size(); ++j)
        if (m_regNames[j] >= (1u << 14)) return false;
    TensorMemory& tm = m_tmem.ctas[cta];
    const bool store = in != nullptr;
    for (uint32_t j0 = 0; j0 < n;) {
        int64_t regStep = 0;
        const uint32_t len = evenRun(m_regNames, j0, n, regStep);
        // Move (j, t), t fastest: thread t's register j <-> cell (lane + t, column + j); one step per j.
        ByteMove m;
        const MemRef reg = regRef(cta, 32 * warp, j0, 0), cell = detail::tmemRef(cta, a.lane, a.column + j0);
        m.src = store ? reg : cell;
        m.dst = store ? cell : reg;
        m.length = 4;
        m.rule = RuleId::TmemLdStMap;
        m.transform = Transform::Copy;
        m.coord = {0, static_cast<int32_t>(j0), 0, 0, 0};
        // Strides: step, src.cta, src.addr, dst.cta, dst.addr, logicalOffset, coord[0..4].
        std::array<Strides, 3> s{};
        s[0] = {0, 0, kLaneStep, 0, kLaneStep, 0, 1, 0, 0, 0, 0};
        s[1] = {1, 0, store ? 4 * regStep : 1, 0, store ? 1 : 4 * regStep, 0, 0, 1, 0, 0, 0};
        const TraceBuilder::GridBytes gb = tb.moveGrid(m, {32, len, 1}, s);
        for (uint32_t t = 0; t < 32; ++t) {
            uint32_t* cells = tm.laneCells(a.lane + t).data() + a.column + j0;
            if (store) {
                const uint32_t* v = (*in)[t].data() + j0;
                if (gb.before)
                    for (uint32_t j = 0; j < len; ++j) {
                        std::memcpy(gb.before + 4 * (size_t(j) * 32 + t), cells + j, 4);
                        std::memcpy(gb.after + 4 * (size_t(j) * 32 + t), v + j, 4);
                    }
                std::memcpy(cells, v, 4 * size_t(len));
            } else { // the registers' `before` bytes stay zero
                if (gb.after)
                    for (uint32_t j = 0; j < len; ++j)
                        std::memcpy(gb.after + 4 * (size_t(j) * 32 + t), cells + j, 4);
                std::memcpy((*out)[t].data() + j0, cells, 4 * size_t(len));
            }
        }
        j0 += len;
    }
    return true;
}

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
