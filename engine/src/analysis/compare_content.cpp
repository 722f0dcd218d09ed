// What a run's shared and Tensor Memory hold, by logical element (compare_match.hpp), and the comparison
// `layoutscope-cli compare` prints.
#include "layoutscope/analysis/compare_match.hpp"
#include "layoutscope/tcgen05/tmem.hpp"
#include "layoutscope/tma/tensor_map.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <unordered_map>

namespace layoutscope {

SharedWindow sharedWindowOf(const Trace& t, uint32_t cta, const Scenario* s) {
    uint64_t lo = UINT64_MAX, hi = 0;
    auto cover = [&](uint64_t a, uint64_t len) {
        lo = std::min(lo, a);
        hi = std::max(hi, a + len);
    };
    if (s)
        for (const ScenarioBuffer& b : s->buffers)
            if (b.cta == cta && b.size > 0) cover(b.addr, b.size);
    // By runs (issue 25 item 11: the 5.1 M moves of 10,000 tile loads read one by one took ~60 ms of opening
    // the file). A run's fields are its first move's plus i_l * stride_l over a grid (move_table.hpp): over
    // the whole grid an address is least and greatest at the grid's corners. A swizzled (derived) address is
    // swizzleAddress(base + logicalOffset), which XORs bits [4,7) at most, so for 16-byte-aligned chunks of
    // at most 16 bytes it stays in the 128-byte line of base + logicalOffset: the lines covered (all the
    // window keeps) follow from the logical offsets' corners. Other runs, and moves past a run's last whole
    // row, are read one by one.
    constexpr size_t kSrcCta = 1, kSrcAddr = 2, kDstCta = 3, kDstAddr = 4, kLogical = 5; // Strides order
    for (const MoveTable::RunSpan& r : t.moves.runSpans(0, t.moves.size())) {
        uint64_t perRow = 1; // moves of the levels below the open one
        for (uint32_t l = 0; l + 1 < r.levels; ++l) perRow *= r.n[l];
        const uint64_t rows = r.k0 == 0 ? (r.k1 - r.k0) / perRow : 0;
        // [least, greatest] of field f over the run's first `rows` whole rows.
        auto range = [&](size_t f, int64_t first) {
            int64_t lo = first, hi = first;
            for (uint32_t l = 0; l < r.levels; ++l) {
                const int64_t d = (l + 1 < r.levels ? int64_t(r.n[l]) : int64_t(rows)) - 1; // i_l's greatest
                lo += std::min<int64_t>(0, d * r.s[l][f]);
                hi += std::max<int64_t>(0, d * r.s[l][f]);
            }
            return std::pair{lo, hi};
        };
        uint64_t walkFrom = r.index + r.k0; // the moves read one by one: [walkFrom, r.index + r.k1)
        bool byCorners = rows > 0;
        for (const bool dst : {true, false}) {
            const MemRef& m = dst ? r.first.dst : r.first.src;
            if (m.space != MemSpace::SharedCta) continue;
            const bool derived =
                r.derive.side == (dst ? AddrDerivation::Side::Dst : AddrDerivation::Side::Src);
            const auto sw = TensorSwizzle(r.derive.swizzle);
            bool aligned = r.first.length > 0 && r.first.length <= 16 && r.derive.base % 16 == 0 &&
                           r.first.logicalOffset % 16 == 0;
            for (uint32_t l = 0; l < r.levels; ++l) aligned = aligned && r.s[l][kLogical] % 16 == 0;
            if (!MoveTable::spanFieldConstant(r, dst ? kDstCta : kSrcCta) ||
                (derived && (sw == TensorSwizzle::S128B_ATOM_32B_FLIP_8B || !aligned)))
                byCorners = false;
        }
        if (byCorners) {
            walkFrom += rows * perRow;
            for (const bool dst : {true, false}) {
                const MemRef& m = dst ? r.first.dst : r.first.src;
                if (m.space != MemSpace::SharedCta || m.cta != cta) continue;
                if (r.derive.side == (dst ? AddrDerivation::Side::Dst : AddrDerivation::Side::Src)) {
                    const auto [l0, l1] = range(kLogical, r.first.logicalOffset);
                    const uint64_t line0 = (r.derive.base + uint64_t(l0)) / 128,
                                   line1 = (r.derive.base + uint64_t(l1)) / 128;
                    cover(line0 * 128, (line1 + 1 - line0) * 128);
                } else {
                    const auto [a0, a1] = range(dst ? kDstAddr : kSrcAddr, int64_t(m.addr));
                    cover(uint64_t(a0), uint64_t(a1 - a0) + r.first.length);
                }
            }
        }
        if (walkFrom < r.index + r.k1)
            for (MoveTable::Cursor c(t.moves, walkFrom); c.index() < r.index + r.k1; c.next()) {
                const ByteMove& m = c.move();
                if (m.dst.space == MemSpace::SharedCta && m.dst.cta == cta) cover(m.dst.addr, m.length);
                if (m.src.space == MemSpace::SharedCta && m.src.cta == cta) cover(m.src.addr, m.length);
            }
    }
    if (hi == 0) return {cta, 0, 0};
    lo = lo / 128 * 128;
    hi = (hi + 127) / 128 * 128;
    return {cta, static_cast<uint32_t>(lo), static_cast<uint32_t>(hi - lo)};
}

std::vector<int32_t> lastSmemWriters(const Trace& t, const SharedWindow& w, uint32_t step) {
    std::vector<int32_t> moveOf(w.size, -1);
    step = std::min(step, t.stepCount);
    const size_t end = step == 0 ? 0 : t.movesOfStep(step - 1).second;
    const uint64_t wlo = w.base, whi = uint64_t(w.base) + w.size;
    for (size_t i = 0; i < end; ++i) {
        const ByteMove& m = t.moves[i];
        if (m.dst.space != MemSpace::SharedCta || m.dst.cta != w.cta) continue;
        const uint64_t a0 = std::max<uint64_t>(m.dst.addr, wlo),
                       a1 = std::min<uint64_t>(m.dst.addr + m.length, whi);
        for (uint64_t a = a0; a < a1; ++a) moveOf[a - wlo] = static_cast<int32_t>(i);
    }
    return moveOf;
}

SmemElements smemElementsAt(const Trace& t, const MachineState& initial,
                            const std::vector<TensorCopyInfo>& copies, const SharedWindow& w,
                            const std::vector<int32_t>& moveOf, uint32_t step) {
    SmemElements c;
    c.span = w;
    c.keys.assign(w.size, std::nullopt);
    c.bytes.assign(w.size, 0);
    for (uint32_t i = 0; i < w.size && i < moveOf.size(); ++i) {
        if (moveOf[i] < 0) continue;
        const ByteMove m = t.moves[size_t(moveOf[i])];
        const MemRef& r = (m.dst.space == MemSpace::SharedCta && m.dst.cta == w.cta) ? m.dst : m.src;
        c.keys[i] = elementKeyOf(copies, m, w.base + i - uint32_t(r.addr));
    }
    Replay replay(t, initial);
    replay.seek(std::min(step, t.stepCount));
    if (w.cta < replay.state().smem.size()) {
        const auto bytes = replay.state().smem[w.cta].bytes();
        for (uint32_t i = 0; i < w.size && w.base + i < bytes.size(); ++i) c.bytes[i] = bytes[w.base + i];
    }
    return c;
}

CellMatches matchSmem(const SmemElements& ref, const SmemElements& other) {
    const MatchSide r{ref.keys.size(),
                      [&](size_t j) -> const std::optional<ElementKey>& { return ref.keys[j]; },
                      [&](size_t j) { return uint32_t(ref.bytes[j]); }};
    const MatchSide o{other.keys.size(),
                      [&](size_t i) -> const std::optional<ElementKey>& { return other.keys[i]; },
                      [&](size_t i) { return uint32_t(other.bytes[i]); }};
    return classifyCells(r, o, [&](size_t i) -> std::optional<size_t> {
        const uint64_t addr = uint64_t(other.span.base) + i;
        if (ref.span.cta != other.span.cta || addr < ref.span.base ||
            addr >= uint64_t(ref.span.base) + ref.keys.size())
            return std::nullopt;
        return size_t(addr - ref.span.base);
    });
}

std::pair<uint32_t, uint32_t> tmemCtasOf(const Trace& t, uint32_t cta) {
    bool even = false, odd = false;
    for (const ByteMove& m : t.moves) {
        for (const MemRef* r : {&m.dst, &m.src}) {
            if (r->space != MemSpace::TensorMemory || (r->cta | 1u) != (cta | 1u)) continue;
            (r->cta & 1u ? odd : even) = true;
        }
        if (even && odd) return {cta & ~1u, 2};
    }
    return {cta, 1};
}

TmemElements tmemElementsAt(const Trace& t, const TmemState& initial,
                            const std::vector<TensorCopyInfo>& copies,
                            std::vector<std::optional<TmemCell>> cells, const std::vector<int32_t>& moveOf,
                            uint32_t step, const SmemElements& smem) {
    TmemElements c;
    const size_t n = cells.size();
    c.keys.assign(n, std::nullopt);
    c.values.assign(n, 0);
    TmemReplay replay(t, initial);
    replay.seek(std::min(step, t.stepCount));
    for (size_t i = 0; i < n; ++i) {
        if (!cells[i]) continue;
        const TmemCell cell = *cells[i];
        if (cell.cta < replay.state().ctas.size())
            c.values[i] = replay.state().ctas[cell.cta].cell(cell.lane, cell.column);
        if (i >= moveOf.size() || moveOf[i] < 0) continue;
        const ByteMove m = t.moves[size_t(moveOf[i])];
        const uint32_t dstByte = 4 * (cell.column - uint32_t(m.dst.addr & 0xFFFF));
        ElementKey k = elementKeyOf(copies, m, dstByte);
        if (m.src.space == MemSpace::SharedCta &&
            m.src.cta == smem.span.cta) { // tcgen05.cp: the smem element
            const uint32_t srcByte = m.transform == Transform::Decompress4to8   ? dstByte / 2
                                     : m.transform == Transform::Decompress6to8 ? dstByte * 6 / 8
                                     : m.transform == Transform::Pack8to6       ? dstByte * 8 / 6
                                                                                : dstByte;
            const uint64_t a = m.src.addr + srcByte;
            if (a >= smem.span.base && a < uint64_t(smem.span.base) + smem.span.size &&
                smem.keys[size_t(a - smem.span.base)])
                k = *smem.keys[size_t(a - smem.span.base)];
        }
        c.keys[i] = k;
    }
    c.cells = std::move(cells);
    return c;
}

TmemCellsAt tmemCellsAt(const Trace& t, uint32_t firstCta, uint32_t count, uint32_t step) {
    TmemCellsAt out;
    const size_t width = size_t(count) * 512;
    out.cells.resize(width * 128);
    out.moveOf.assign(width * 128, -1);
    for (uint32_t lane = 0; lane < 128; ++lane)
        for (uint32_t k = 0; k < count; ++k)
            for (uint32_t col = 0; col < 512; ++col)
                out.cells[lane * width + k * 512 + col] = TmemCell{firstCta + k, lane, col};
    step = std::min(step, t.stepCount);
    const size_t end = step == 0 ? 0 : t.movesOfStep(step - 1).second;
    for (size_t i = 0; i < end; ++i) {
        const ByteMove& m = t.moves[i];
        if (m.dst.space != MemSpace::TensorMemory || m.dst.cta < firstCta || m.dst.cta >= firstCta + count)
            continue;
        const TmemAddr a = decodeTmemAddress(static_cast<uint32_t>(m.dst.addr));
        for (uint32_t c = 0; c < (m.length + 3) / 4; ++c)
            if (a.lane < 128 && a.column + c < 512)
                out.moveOf[a.lane * width + (m.dst.cta - firstCta) * 512 + a.column + c] = int32_t(i);
    }
    return out;
}

CellMatches matchTmem(const TmemElements& ref, const TmemElements& other) {
    std::unordered_map<uint64_t, size_t> refAt; // (cta, lane, column) -> index in ref
    auto id = [](const TmemCell& c) { return uint64_t(c.cta) << 32 | uint64_t(c.lane) << 16 | c.column; };
    for (size_t j = 0; j < ref.cells.size(); ++j)
        if (ref.cells[j]) refAt.emplace(id(*ref.cells[j]), j);
    const MatchSide r{ref.keys.size(),
                      [&](size_t j) -> const std::optional<ElementKey>& { return ref.keys[j]; },
                      [&](size_t j) { return ref.values[j]; }};
    const MatchSide o{other.keys.size(),
                      [&](size_t i) -> const std::optional<ElementKey>& { return other.keys[i]; },
                      [&](size_t i) { return other.values[i]; }};
    return classifyCells(r, o, [&](size_t i) -> std::optional<size_t> {
        if (i >= other.cells.size() || !other.cells[i]) return std::nullopt;
        const auto it = refAt.find(id(*other.cells[i]));
        if (it == refAt.end()) return std::nullopt;
        return it->second;
    });
}

} // namespace layoutscope
