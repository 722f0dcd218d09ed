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
    const uint32_t nSeg = pack ? 2 : 1;
    // The map, separable: cell (lane, column) of (t, j, si) = thread part + register part (+ si).
    std::array<int64_t, 32> offT{};  // cell index lane * 512 + column of (t, 0, 0)
    std::array<int64_t, 128> offJ{}; // of (0, j, 0)
    std::array<RegSegment, 2> seg;
    for (uint32_t t = 0; t < 32; ++t) {
        ldStSegmentsInto(f, t, 0, seg);
        offT[t] = seg[0].laneOff * kTmemColumns + seg[0].colOff;
    }
    for (uint32_t j = 0; j < n; ++j) {
        ldStSegmentsInto(f, 0, j, seg);
        offJ[j] = seg[0].laneOff * kTmemColumns + seg[0].colOff;
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
    // Registers [j0, j1): the cells, and the trace's bytes from `before` / `after` (move order: j, t, si),
    // a block of 16 registers at a time (a cache line of a lane's cells) with the threads inside. A
    // .16x32bx2 store's halves may write the same cells (an immediate below .num): there the move order.
    const uint32_t block = store && f.shape == LdStShape::k16x32bx2 ? 1 : 16;
    auto copy = [&](uint32_t j0, uint32_t j1, const TraceBuilder::GridBytes& gb) {
        uint32_t* before = reinterpret_cast<uint32_t*>(gb.before);
        uint32_t* after = reinterpret_cast<uint32_t*>(gb.after); // ld.pack: 2 moves of 2 bytes per word
        const size_t perReg = 32 * size_t(store ? nSeg : 1);     // 32-bit words per register in the trace
        for (uint32_t jb = j0; jb < j1; jb += block) {
            const uint32_t je = std::min(j1, jb + block);
            for (uint32_t t = 0; t < 32; ++t)
                for (uint32_t j = jb; j < je; ++j) {
                    uint32_t* c = cells + offT[t] + offJ[j];
                    const size_t k = size_t(j - j0) * perReg + size_t(t) * (store ? nSeg : 1);
                    if (store) {
                        const uint32_t v = rin[t][j];
                        if (!pack) {
                            if (before) before[k] = c[0], after[k] = v;
                            c[0] = v;
                        } else { // .unpack::16b: bits [0,16) and [16,32) into the low halves, zero above
                            if (before) before[k] = c[0], before[k + 1] = c[1];
                            if (after) after[k] = v & 0xFFFF, after[k + 1] = v >> 16;
                            c[0] = v & 0xFFFF, c[1] = v >> 16;
                        }
                    } else {
                        // .pack::16b: the low halves of two cells; its two 2-byte moves are that word
                        const uint32_t v = pack ? (c[0] & 0xFFFF) | (c[1] << 16) : c[0];
                        if (after) after[k] = v;
                        rout[t][j] = v;
                    }
                }
        }
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
