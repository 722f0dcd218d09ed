// Bulk path of tcgen05.st / tcgen05.ld (issue 11 and issue 25 item 10, engine speed): every shape (.16x64b,
// .16x128b, .16x256b, .32x32b, .16x32bx2), every .num, with and without .pack::16b / .unpack::16b
// (PTX ISA 9.2 §9.7.16.8; tcgen05.md §4). The per-move path in exec.cpp records one batch of ByteMoves per
// register j (one step each): 32 threads t, and with .pack/.unpack two 16-bit segments si per register, in
// the order (j, t, si). Here the same moves are recorded as one grid of nested counts (MoveTable
// appendGridLevels), level 0 fastest:
//
//   [si: 2 with .pack/.unpack]  thread digits            register digits (j)
//   .32x32b                      t (32)                   j (n)
//   .16x64b                      t%2, t/2%2, t/4 (2,2,8)  j (n)
//   .16x128b                     t%4, t/4 (4, 8)          j%2, j/2 (2, n/2)
//   .16x256b                     t%4, t/4 (4, 8)          j%2, j/2%2, j/4 (2, 2, n/4)
//   .16x32bx2                    t%16, t/16 (16, 2)       j (n)
//
// Each digit moves the lane and column by a constant (the maps of tcgen05.md §4 are sums of a thread part
// and a register part), so each level's strides are read off the per-move map (ldStSegmentsInto) at the
// digit's unit point, never written out here. Register names that do not step evenly break the register
// digits' linearity: then one grid per register (its thread and segment digits). The cells are copied with
// precomputed offsets, a block of registers at a time; the trace, TMEM and registers are exactly those of
// the per-move path, which tests/engine/tcgen05_fast_test.cpp runs side by side for every form.
#include "layoutscope/tcgen05/exec.hpp"
#include "tcgen05/exec_detail.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace layoutscope {
namespace {

constexpr bool kLittleEndian = std::endian::native == std::endian::little;
using Strides = MoveTable::Strides;

struct Digits {
    std::array<uint32_t, 3> radix{}; // inner first
    uint32_t count = 0;
};
Digits threadDigits(LdStShape s) {
    switch (s) {
    case LdStShape::k32x32b:
        return {{32, 1, 1}, 1};
    case LdStShape::k16x64b:
        return {{2, 2, 8}, 3};
    case LdStShape::k16x128b:
    case LdStShape::k16x256b:
        return {{4, 8, 1}, 2};
    case LdStShape::k16x32bx2:
        return {{16, 2, 1}, 2};
    }
    return {};
}
Digits registerDigits(LdStShape s, uint32_t n) {
    switch (s) {
    case LdStShape::k16x128b:
        return {{2, n / 2, 1}, 2};
    case LdStShape::k16x256b:
        return {{2, 2, n / 4}, 3};
    default:
        return {{n, 1, 1}, 1};
    }
}

// A register's name: its position unless named (setRegisterNames).
uint32_t regName(const std::vector<uint32_t>& names, uint32_t j) {
    return j < names.size() ? names[j] : j;
}

// The cells of an access: cell (t, j) is base[offT[t] + offJ[j]] (with .pack/.unpack, and the next one).
struct Cells {
    uint32_t* base;
    const int64_t* offT;
    const int64_t* offJ;
    /// offJ[j] = offJ[0] + j (.32x32b, .16x32bx2; with .pack/.unpack 2 j): a lane's run of cells
    bool contiguous;
};

// The trace's words of registers [j0, j1) in move order (j, t): a transpose of the 32 threads' registers.
// With .pack::16b a word is the two 2-byte moves of one register; with .unpack::16b each register is two
// 4-byte moves (its halves, zero above).
template <bool Unpack>
void registersToTrace(uint32_t j0, uint32_t j1, const std::array<const uint32_t*, 32>& regs, uint32_t* out) {
    for (uint32_t j = j0; j < j1; ++j)
        for (uint32_t t = 0; t < 32; ++t) {
            const uint32_t v = regs[t][j];
            if (Unpack)
                out[0] = v & 0xFFFF, out[1] = v >> 16, out += 2;
            else
                *out++ = v;
        }
}

// tcgen05.ld of registers [j0, j1): registers from the cells (per thread, in register order), then the
// trace's `after` words from the registers.
template <bool Pack>
void loadCells(const Cells& c, uint32_t j0, uint32_t j1, const std::array<uint32_t*, 32>& regs,
               uint32_t* after) {
    for (uint32_t t = 0; t < 32; ++t) {
        const uint32_t* cell = c.base + c.offT[t];
        uint32_t* r = regs[t];
        if (!Pack && c.contiguous) {
            std::memcpy(r + j0, cell + c.offJ[j0], 4 * size_t(j1 - j0));
            continue;
        }
        if (Pack && c.contiguous) { // the low halves of cell pairs, in a run
            const uint32_t* p = cell + c.offJ[j0];
            for (uint32_t j = j0; j < j1; ++j, p += 2) r[j] = (p[0] & 0xFFFF) | (p[1] << 16);
            continue;
        }
        for (uint32_t j = j0; j < j1; ++j) {
            const uint32_t* p = cell + c.offJ[j];
            r[j] = Pack ? (p[0] & 0xFFFF) | (p[1] << 16) : p[0];
        }
    }
    if (after) {
        std::array<const uint32_t*, 32> in{};
        for (uint32_t t = 0; t < 32; ++t) in[t] = regs[t];
        registersToTrace<false>(j0, j1, in, after);
    }
}

// tcgen05.st of registers [j0, j1) whose cells are all distinct: `before` (the cells in move order, 16
// registers at a time with the threads inside: a cache line of a lane's cells), `after`, then the cells.
template <bool Unpack>
void storeCells(const Cells& c, uint32_t j0, uint32_t j1, const std::array<const uint32_t*, 32>& regs,
                uint32_t* before, uint32_t* after) {
    constexpr uint32_t kSeg = Unpack ? 2 : 1;
    if (before) {
        for (uint32_t jb = j0; jb < j1; jb += 16)
            for (uint32_t t = 0; t < 32; ++t) {
                const uint32_t* cell = c.base + c.offT[t];
                for (uint32_t j = jb; j < std::min(j1, jb + 16); ++j) {
                    uint32_t* b = before + (size_t(j - j0) * 32 + t) * kSeg;
                    b[0] = cell[c.offJ[j]];
                    if (Unpack) b[1] = cell[c.offJ[j] + 1];
                }
            }
        registersToTrace<Unpack>(j0, j1, regs, after);
    }
    for (uint32_t t = 0; t < 32; ++t) {
        uint32_t* cell = c.base + c.offT[t];
        const uint32_t* r = regs[t];
        if (!Unpack && c.contiguous) {
            std::memcpy(cell + c.offJ[j0], r + j0, 4 * size_t(j1 - j0));
            continue;
        }
        if (Unpack && c.contiguous) { // each register's halves into a pair of cells, in a run
            uint32_t* p = cell + c.offJ[j0];
            for (uint32_t j = j0; j < j1; ++j, p += 2) p[0] = r[j] & 0xFFFF, p[1] = r[j] >> 16;
            continue;
        }
        for (uint32_t j = j0; j < j1; ++j) {
            uint32_t* p = cell + c.offJ[j];
            if (Unpack)
                p[0] = r[j] & 0xFFFF, p[1] = r[j] >> 16;
            else
                p[0] = r[j];
        }
    }
}

// tcgen05.st move by move in the moves' order (j, t, si): cells that two moves write.
void storeInOrder(const Cells& c, uint32_t j0, uint32_t j1, bool unpack,
                  const std::array<const uint32_t*, 32>& regs, uint32_t* before, uint32_t* after) {
    for (uint32_t j = j0; j < j1; ++j)
        for (uint32_t t = 0; t < 32; ++t) {
            uint32_t* p = c.base + c.offT[t] + c.offJ[j];
            const uint32_t v = regs[t][j];
            const uint32_t nSeg = unpack ? 2 : 1;
            for (uint32_t si = 0; si < nSeg; ++si) {
                const uint32_t w = unpack ? (si ? v >> 16 : v & 0xFFFF) : v;
                if (before) *before++ = p[si], *after++ = w;
                p[si] = w;
            }
        }
}

} // namespace

bool Tcgen05Executor::ldStBulk(TraceBuilder& tb, const LdStForm& f, uint32_t cta, uint32_t warp, TmemAddr a,
                               const WarpRegisters* in, WarpRegisters* out) {
    if (!kLittleEndian || !detail::tcgen05FastPath()) return false;
    const uint32_t n = regsPerThread(f);
    // A register's MemRef address is thread << 16 | (register * 4 + byte): an arithmetic field only while
    // register * 4 + 3 stays below 1 << 16.
    for (uint32_t j = 0; j < n && j < m_regNames.size(); ++j)
        if (m_regNames[j] >= (1u << 14)) return false;
    const bool store = in != nullptr, pack = f.pack16b;
    // The map, separable: cell (lane, column) of (t, j, si) = thread part + register part (+ si).
    std::array<int64_t, 32> offT{};  // cell index lane * kTmemLaneStride + column of (t, 0, 0)
    std::array<int64_t, 128> offJ{}; // of (0, j, 0)
    std::array<RegSegment, 2> seg;
    for (uint32_t t = 0; t < 32; ++t) {
        ldStSegmentsInto(f, t, 0, seg);
        offT[t] = seg[0].laneOff * kTmemLaneStride + seg[0].colOff;
    }
    for (uint32_t j = 0; j < n; ++j) {
        ldStSegmentsInto(f, 0, j, seg);
        offJ[j] = seg[0].laneOff * kTmemLaneStride + seg[0].colOff;
    }
    // The move (si, t, j) of the per-move path, as MoveTable's varying fields (step relative to j = 0).
    auto fields = [&](uint32_t si, uint32_t t, uint32_t j) {
        ldStSegmentsInto(f, t, j, seg);
        const RegSegment& s = seg[si];
        const MemRef reg = regRef(cta, 32 * warp + t, j, s.regBitLo / 8);
        const MemRef cell = detail::tmemRef(cta, a.lane + static_cast<uint32_t>(s.laneOff),
                                            a.column + static_cast<uint32_t>(s.colOff));
        const MemRef &src = store ? reg : cell, &dst = store ? cell : reg;
        return Strides{
            int64_t(j), int64_t(src.cta), int64_t(src.addr), int64_t(dst.cta),    int64_t(dst.addr),
            0,          int64_t(t),       int64_t(j),        int64_t(s.regBitLo), 0,
            0};
    };
    const Digits td = threadDigits(f.shape), rd = registerDigits(f.shape, n);
    int64_t regStep = n > 1 ? int64_t(regName(m_regNames, 1)) - int64_t(regName(m_regNames, 0)) : 0;
    bool even = true;
    for (uint32_t j = 1; j < n && even; ++j)
        even = int64_t(regName(m_regNames, j)) - int64_t(regName(m_regNames, j - 1)) == regStep;
    // Levels of the grid of registers [j0, j0 + 1) (one register) or of all of them (`whole`).
    auto levels = [&](uint32_t j0, bool whole, std::array<uint32_t, MoveTable::kMaxLevels>& cnt,
                      std::array<Strides, MoveTable::kMaxLevels>& st) {
        const Strides f0 = fields(0, 0, j0);
        size_t nl = 0;
        auto add = [&](uint32_t c, const Strides& at) {
            cnt[nl] = c;
            for (size_t k = 0; k < MoveTable::kFields; ++k) st[nl][k] = at[k] - f0[k];
            ++nl;
        };
        if (pack) add(2, fields(1, 0, j0));
        for (uint32_t d = 0, w = 1; d < td.count; w *= td.radix[d], ++d) add(td.radix[d], fields(0, w, j0));
        if (whole)
            for (uint32_t d = 0, w = 1; d < rd.count; w *= rd.radix[d], ++d)
                add(rd.radix[d], fields(0, 0, j0 + w));
        return nl;
    };
    ByteMove m;
    m.length = store ? 4 : (pack ? 2 : 4);
    m.rule = store ? (pack ? RuleId::TmemUnpackUpperBits : RuleId::TmemLdStMap)
                   : (pack ? RuleId::TmemPack16b : RuleId::TmemLdStMap);
    m.transform = store ? (pack ? Transform::Unpack16b : Transform::Copy)
                        : (pack ? Transform::Pack16b : Transform::Copy);
    uint32_t* cells = m_tmem.ctas[cta].laneCells(a.lane).data() + a.column;
    std::array<const uint32_t*, 32> rin{};
    std::array<uint32_t*, 32> rout{};
    for (uint32_t t = 0; t < 32; ++t) {
        if (store)
            rin[t] = (*in)[t].data();
        else
            rout[t] = (*out)[t].data();
    }
    // A .16x32bx2 store's halves may write the same cells (an immediate within a half's width of zero:
    // .num columns, 2 .num with .unpack::16b): then the moves' own order, so that a later move's `before`
    // is an earlier one's write.
    const int64_t halfWidth = int64_t(n) * (pack ? 2 : 1);
    const bool overlap = store && f.shape == LdStShape::k16x32bx2 && f.immHalfSplitoff < halfWidth &&
                         f.immHalfSplitoff > -halfWidth;
    bool contiguous = true;
    for (uint32_t j = 1; j < n && contiguous; ++j)
        contiguous = offJ[j] == offJ[0] + int64_t(j) * (pack ? 2 : 1);
    const Cells c{cells, offT.data(), offJ.data(), contiguous};
    auto copy = [&](uint32_t j0, uint32_t j1, const TraceBuilder::GridBytes& gb) {
        auto* before = reinterpret_cast<uint32_t*>(gb.before);
        auto* after = reinterpret_cast<uint32_t*>(gb.after);
        if (overlap)
            storeInOrder(c, j0, j1, pack, rin, before, after);
        else if (store)
            pack ? storeCells<true>(c, j0, j1, rin, before, after)
                 : storeCells<false>(c, j0, j1, rin, before, after);
        else
            pack ? loadCells<true>(c, j0, j1, rout, after) : loadCells<false>(c, j0, j1, rout, after);
    };
    std::array<uint32_t, MoveTable::kMaxLevels> cnt{};
    std::array<Strides, MoveTable::kMaxLevels> st{};
    auto firstOf = [&](uint32_t j0) {
        ldStSegmentsInto(f, 0, j0, seg);
        const MemRef reg = regRef(cta, 32 * warp, j0, 0);
        const MemRef cell = detail::tmemRef(cta, a.lane + static_cast<uint32_t>(seg[0].laneOff),
                                            a.column + static_cast<uint32_t>(seg[0].colOff));
        ByteMove g = m;
        g.src = store ? reg : cell;
        g.dst = store ? cell : reg;
        g.coord = {0, static_cast<int32_t>(j0), 0, 0, 0};
        return g;
    };
    if (even) {
        const size_t nl = levels(0, true, cnt, st);
        copy(0, n, tb.moveGridLevels(firstOf(0), {cnt.data(), nl}, {st.data(), nl}));
        return true;
    }
    for (uint32_t j = 0; j < n; ++j) { // one grid per register: its threads (and segments)
        const size_t nl = levels(j, false, cnt, st);
        copy(j, j + 1, tb.moveGridLevels(firstOf(j), {cnt.data(), nl}, {st.data(), nl}));
    }
    return true;
}

} // namespace layoutscope
