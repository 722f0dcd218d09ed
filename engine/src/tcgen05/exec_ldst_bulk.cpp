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
// digits' linearity: then one grid per register (its thread and segment digits). A form's offsets and levels
// are kept per thread for its next access (Plan). The words move thread by thread along a lane, the trace's
// (j, t) order by 4x4 transposes (ldst_copy.cpp), or, for the shapes whose lanes threads share, by vector
// shuffles of the lanes (ldst_rows.cpp); the trace, TMEM and registers are exactly those of the per-move
// path, which tests/engine/tcgen05_fast_test.cpp runs side by side for every form.
#include "layoutscope/tcgen05/exec.hpp"
#include "tcgen05/exec_detail.hpp"
#include "tcgen05/ldst_copy.hpp"

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

// What a form's bulk access needs that depends only on the form and its register names, kept per thread for
// the next access of the same form (a kernel's k-loop repeats a few forms): the cell offsets and the trace's
// grid levels. The levels are differences of the per-move fields, so they do not depend on the CTA, warp or
// taddr of an access (its first move carries those).
struct Plan {
    bool valid = false;
    LdStShape shape{};
    uint32_t num = 0;
    bool pack = false, store = false;
    int64_t imm = 0;
    std::vector<uint32_t> names; ///< regName(j), j < n
    bool positional = false;     ///< names[j] = j (no names set)
    uint32_t n = 0;
    std::array<int32_t, 32> offT{}; ///< cell index lane * kTmemLaneStride + column of (t, 0, 0)
    std::vector<int32_t> offJ;      ///< of (0, j, 0)
    /// offJ[j] = offJ[0] + j (.32x32b, .16x32bx2; with .pack/.unpack 2 j): a lane's run of cells
    bool contiguous = false;
    bool overlap = false; ///< a .16x32bx2 store whose halves write the same cells
    bool lanes = false;   ///< the lane kernels take the whole access (ldst_rows.cpp)
    bool even = false;    ///< register names step evenly: one grid for all registers
    size_t nl = 0;        ///< even: the levels of the whole grid
    std::array<uint32_t, MoveTable::kMaxLevels> cnt{};
    std::array<Strides, MoveTable::kMaxLevels> st{};

    [[nodiscard]] bool matches(const LdStForm& f, const std::vector<uint32_t>& regNames) const {
        if (!valid || shape != f.shape || num != f.num || pack != f.pack16b || store != f.store ||
            (shape == LdStShape::k16x32bx2 && imm != f.immHalfSplitoff))
            return false;
        if (regNames.empty()) return positional;
        if (regNames.size() >= n) return std::memcmp(names.data(), regNames.data(), 4 * size_t(n)) == 0;
        for (uint32_t j = 0; j < n; ++j)
            if (names[j] != regName(regNames, j)) return false;
        return true;
    }
};

Plan& planSlot(const LdStForm& f, const std::vector<uint32_t>& regNames, bool& found) {
    thread_local std::array<Plan, 8> plans;
    thread_local size_t next = 0;
    for (Plan& p : plans)
        if (p.matches(f, regNames)) return found = true, p;
    found = false;
    Plan& p = plans[next];
    next = (next + 1) % plans.size();
    return p;
}

// tcgen05.st move by move in the moves' order (j, t, si): cells that two moves write (an overlapping
// .16x32bx2 store), so that a later move's `before` is an earlier one's write.
void storeInOrder(uint32_t* cells, const Plan& p, uint32_t j0, uint32_t j1, const detail::ConstRegRows& regs,
                  uint32_t* before, uint32_t* after) {
    const uint32_t nSeg = p.pack ? 2 : 1;
    for (uint32_t j = j0; j < j1; ++j)
        for (uint32_t t = 0; t < 32; ++t) {
            uint32_t* q = cells + p.offT[t] + p.offJ[j];
            const uint32_t v = regs[t][j];
            for (uint32_t si = 0; si < nSeg; ++si) {
                const uint32_t w = p.pack ? (si ? v >> 16 : v & 0xFFFF) : v;
                if (before) *before++ = q[si], *after++ = w;
                q[si] = w;
            }
        }
}

// A thread's scratch of JT words for the lane kernels when the trace keeps none: 32 threads x 128
// registers x 2 words.
uint32_t* scratchJT() {
    thread_local std::vector<uint32_t> s(32 * 128 * 2);
    return s.data();
}

// tcgen05.st of registers [j0, j1) whose cells are all distinct; with the trace on, its `before` (the cells
// in move order) and `after` (the registers' words in move order) first. Each thread's cells are written as a
// run where they are one, else one by one, thread after thread (a lane at a time in the cache).
void storeRange(uint32_t* cells, const Plan& p, uint32_t j0, uint32_t j1, const detail::ConstRegRows& regs,
                uint32_t* before, uint32_t* after) {
    if (j0 == 0 && j1 == p.n && p.lanes) { // the registers' words in move order, then the lanes from them
        uint32_t* jt = after ? after : scratchJT();
        p.pack ? detail::regsToJTUnpack(regs, 0, p.n, jt) : detail::regsToJT(regs, 0, p.n, jt);
        if (before) detail::lanesToJT(p.shape, cells, kTmemLaneStride, p.n, p.pack, before);
        detail::jtToLanes(p.shape, jt, kTmemLaneStride, p.n, p.pack, cells);
        return;
    }
    if (before) {
        p.pack ? detail::regsToJTUnpack(regs, j0, j1, after) : detail::regsToJT(regs, j0, j1, after);
        detail::cellsToJT(cells, p.offT.data(), p.offJ.data(), j0, j1, p.pack, p.contiguous, before);
    }
    for (uint32_t t = 0; t < 32; ++t) {
        uint32_t* cell = cells + p.offT[t];
        const uint32_t* r = regs[t];
        if (p.contiguous && p.pack)
            detail::unpackRun(r + j0, j1 - j0, cell + p.offJ[j0]);
        else if (p.contiguous && j1 - j0 <= 8)
            for (uint32_t j = j0; j < j1; ++j) cell[p.offJ[0] + int32_t(j)] = r[j];
        else if (p.contiguous)
            std::memcpy(cell + p.offJ[j0], r + j0, 4 * size_t(j1 - j0));
        else if (p.pack)
            for (uint32_t j = j0; j < j1; ++j) { // the cell pair as one 8-byte store
                const uint64_t w = uint64_t(r[j] & 0xFFFF) | (uint64_t(r[j] >> 16) << 32);
                std::memcpy(cell + p.offJ[j], &w, 8);
            }
        else
            for (uint32_t j = j0; j < j1; ++j) cell[p.offJ[j]] = r[j];
    }
}

// tcgen05.ld of registers [j0, j1), thread after thread; with the trace on, then its `after` words (the
// registers in move order).
void loadRange(const uint32_t* cells, const Plan& p, uint32_t j0, uint32_t j1, const detail::RegRows& regs,
               uint32_t* after) {
    if (j0 == 0 && j1 == p.n && p.lanes) { // the lanes in move order, then each thread's row
        uint32_t* jt = after ? after : scratchJT();
        if (p.pack) // each cell pair's low halves as the register's word
            detail::lanesToJTPacked(p.shape, cells, kTmemLaneStride, p.n, jt);
        else
            detail::lanesToJT(p.shape, cells, kTmemLaneStride, p.n, false, jt);
        return detail::jtToRegs(jt, 0, p.n, regs);
    }
    for (uint32_t t = 0; t < 32; ++t) {
        const uint32_t* cell = cells + p.offT[t];
        uint32_t* r = regs[t];
        if (p.contiguous && p.pack)
            detail::packRun(cell + p.offJ[j0], j1 - j0, r + j0);
        else if (p.contiguous && j1 - j0 <= 8) // a call to memcpy costs more than a few words
            for (uint32_t j = j0; j < j1; ++j) r[j] = cell[p.offJ[0] + int32_t(j)];
        else if (p.contiguous)
            std::memcpy(r + j0, cell + p.offJ[j0], 4 * size_t(j1 - j0));
        else if (p.pack) // each cell pair as one 8-byte load: its low halves, little-endian
            for (uint32_t j = j0; j < j1; ++j) {
                uint64_t w;
                std::memcpy(&w, cell + p.offJ[j], 8);
                r[j] = uint32_t(w & 0xFFFF) | uint32_t((w >> 32) << 16);
            }
        else
            for (uint32_t j = j0; j < j1; ++j) r[j] = cell[p.offJ[j]];
    }
    if (after) {
        detail::ConstRegRows in{};
        for (uint32_t t = 0; t < 32; ++t) in[t] = regs[t];
        detail::regsToJT(in, j0, j1, after);
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
    std::array<RegSegment, 2> seg;
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
    bool found = false;
    Plan& p = planSlot(f, m_regNames, found);
    if (!found) { // the map, separable: cell (lane, column) of (t, j, si) = thread part + register part (+
                  // si)
        p.valid = true;
        p.shape = f.shape, p.num = f.num, p.pack = pack, p.store = store, p.imm = f.immHalfSplitoff;
        p.n = n;
        p.names.resize(n);
        p.positional = true;
        for (uint32_t j = 0; j < n; ++j) {
            p.names[j] = regName(m_regNames, j);
            p.positional = p.positional && p.names[j] == j;
        }
        for (uint32_t t = 0; t < 32; ++t) {
            ldStSegmentsInto(f, t, 0, seg);
            p.offT[t] = int32_t(seg[0].laneOff * kTmemLaneStride + seg[0].colOff);
        }
        p.offJ.resize(n);
        for (uint32_t j = 0; j < n; ++j) {
            ldStSegmentsInto(f, 0, j, seg);
            p.offJ[j] = int32_t(seg[0].laneOff * kTmemLaneStride + seg[0].colOff);
        }
        p.contiguous = true;
        for (uint32_t j = 1; j < n && p.contiguous; ++j)
            p.contiguous = p.offJ[j] == p.offJ[0] + int32_t(j) * (pack ? 2 : 1);
        // A .16x32bx2 store's halves may write the same cells (an immediate within a half's width of zero:
        // .num columns, 2 .num with .unpack::16b).
        const int64_t halfWidth = int64_t(n) * (pack ? 2 : 1);
        p.overlap = store && f.shape == LdStShape::k16x32bx2 && f.immHalfSplitoff < halfWidth &&
                    f.immHalfSplitoff > -halfWidth;
        p.lanes = detail::lanesTake(f.shape, n, pack);
        const int64_t regStep = n > 1 ? int64_t(p.names[1]) - int64_t(p.names[0]) : 0;
        p.even = true;
        for (uint32_t j = 1; j < n && p.even; ++j)
            p.even = int64_t(p.names[j]) - int64_t(p.names[j - 1]) == regStep;
        p.nl = p.even ? levels(0, true, p.cnt, p.st) : 0;
    }
    ByteMove m;
    m.length = store ? 4 : (pack ? 2 : 4);
    m.rule = store ? (pack ? RuleId::TmemUnpackUpperBits : RuleId::TmemLdStMap)
                   : (pack ? RuleId::TmemPack16b : RuleId::TmemLdStMap);
    m.transform = store ? (pack ? Transform::Unpack16b : Transform::Copy)
                        : (pack ? Transform::Pack16b : Transform::Copy);
    uint32_t* cells = m_tmem.ctas[cta].laneCells(a.lane).data() + a.column;
    detail::ConstRegRows rin{};
    detail::RegRows rout{};
    for (uint32_t t = 0; t < 32; ++t) {
        if (store)
            rin[t] = (*in)[t].data();
        else
            rout[t] = (*out)[t].data();
    }
    auto copy = [&](uint32_t j0, uint32_t j1, const TraceBuilder::GridBytes& gb) {
        auto* before = reinterpret_cast<uint32_t*>(gb.before);
        auto* after = reinterpret_cast<uint32_t*>(gb.after);
        if (p.overlap)
            storeInOrder(cells, p, j0, j1, rin, before, after);
        else if (store)
            storeRange(cells, p, j0, j1, rin, before, after);
        else
            loadRange(cells, p, j0, j1, rout, after);
    };
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
    if (p.even) {
        copy(0, n, tb.moveGridLevels(firstOf(0), {p.cnt.data(), p.nl}, {p.st.data(), p.nl}));
        return true;
    }
    std::array<uint32_t, MoveTable::kMaxLevels> cnt{};
    std::array<Strides, MoveTable::kMaxLevels> st{};
    for (uint32_t j = 0; j < n; ++j) { // one grid per register: its threads (and segments)
        const size_t nl = levels(j, false, cnt, st);
        copy(j, j + 1, tb.moveGridLevels(firstOf(j), {cnt.data(), nl}, {st.data(), nl}));
    }
    return true;
}

} // namespace layoutscope
