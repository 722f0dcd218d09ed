#include "layoutscope/core/trace.hpp"
#include "layoutscope/tma/tma.hpp"

#include <algorithm>
#include <cstring>

namespace layoutscope {

const char* transformName(Transform t) {
    switch (t) {
    case Transform::Copy:
        return "copy";
    case Transform::FillZero:
        return "fill zero (out of bounds)";
    case Transform::FillNaN:
        return "fill OOB-NaN 0x7FF7";
    case Transform::RoundTf32:
        return "round to TF32";
    case Transform::Decompress4to8:
        return "decompress 4-bit to 8-bit";
    case Transform::Decompress6to8:
        return "decompress 6-bit to 8-bit";
    case Transform::Unpack16b:
        return "unpack 16-bit";
    case Transform::Pack16b:
        return "pack 16-bit";
    case Transform::Pack8to6:
        return "pack 8-bit containers to 6-bit";
    }
    return "?";
}

std::pair<size_t, size_t> Trace::movesOfStep(uint32_t step) const {
    auto lo = std::lower_bound(moves.begin(), moves.end(), step,
                               [](const ByteMove& m, uint32_t s) { return m.step < s; });
    auto hi =
        std::upper_bound(lo, moves.end(), step, [](uint32_t s, const ByteMove& m) { return s < m.step; });
    return {static_cast<size_t>(lo - moves.begin()), static_cast<size_t>(hi - moves.begin())};
}

size_t Trace::firstUntraced() const {
    for (size_t i = 0; i < instrs.size(); ++i)
        if (!instrs[i].traced) return i;
    return instrs.size();
}

std::string traceBudgetNote(const Trace& t) {
    const size_t cut = t.firstUntraced();
    if (cut >= t.instrs.size()) return {};
    const TraceInstr& in = t.instrs[cut];
    const uint64_t b = t.budgetBytes;
    std::string amount = std::to_string(b) + " B"; // the largest unit that divides it: 1 GiB, 10 KiB
    for (auto [shift, unit] : {std::pair{30, " GiB"}, {20, " MiB"}, {10, " KiB"}})
        if (b != 0 && b % (uint64_t(1) << shift) == 0) {
            amount = std::to_string(b >> shift) + unit;
            break;
        }
    std::string s = "trace summarised after step " + std::to_string(in.firstStep) + " (instruction [" +
                    std::to_string(cut) + "]";
    if (in.sourceLine > 0) s += ", line " + std::to_string(in.sourceLine);
    s += "): the " + amount +
         " trace budget was reached; later instructions executed (final state exact) without recording moves";
    return s;
}

void TraceBuilder::beginInstr(std::string text, int sourceLine, const SourceOrigin& origin) {
    LAYOUTSCOPE_ASSERT(!m_open);
    m_open = true;
    m_instr = static_cast<uint32_t>(m_t.instrs.size());
    // Over budget: this and every later instruction execute untraced (summarised).
    flush();
    const uint64_t used =
        m_t.moves.memoryBytes() + m_t.storedBytes() + m_t.m_segments.size() * sizeof(Trace::DataSegment);
    m_tracing = m_tracing && used < m_t.budgetBytes; // budget 0: nothing traced
    TraceInstr in{std::move(text), sourceLine, m_t.stepCount, m_t.stepCount, {}, {}};
    in.firstMove = in.endMove = m_t.moves.size();
    in.traced = m_tracing;
    in.origin = origin;
    m_t.instrs.push_back(std::move(in));
}

void TraceBuilder::endInstr(std::string summary) {
    LAYOUTSCOPE_ASSERT(m_open);
    flush();
    m_open = false;
    TraceInstr& in = m_t.instrs[m_instr];
    in.endStep = m_t.stepCount;
    in.endMove = m_t.moves.size();
    in.summary = std::move(summary);
    if (!in.traced) in.summary += " [not traced: the trace reached its memory budget]";
}

namespace {
constexpr uint32_t kMaxImpliedZeroBytes = 16; // a register move is at most one register (4 bytes)
constexpr std::array<uint8_t, kMaxImpliedZeroBytes> kZeroBytes{};
} // namespace

std::span<const uint8_t> Trace::zeroBytes(uint32_t n) {
    LAYOUTSCOPE_ASSERT(n <= kMaxImpliedZeroBytes);
    return {kZeroBytes.data(), n};
}

uint64_t TraceBuilder::appendData(uint64_t n, bool zeroBefore) {
    const uint64_t at = m_t.m_dataEnd;
    if (n == 0) return at;
    m_t.m_dataEnd += n;
    const uint64_t b = m_t.m_before.append(n, zeroBefore), a = m_t.m_after.append(n, false);
    std::vector<Trace::DataSegment>& segs = m_t.m_segments;
    if (!segs.empty()) { // bytes stored right after the last stored span: the same segment
        Trace::DataSegment& l = segs.back();
        if (l.moveLength == 0 && l.before == ByteSource::Stored && l.after == ByteSource::Stored &&
            l.at + l.bytes == at && l.beforeAt + l.bytes == b && l.afterAt + l.bytes == a) {
            l.bytes += n;
            return at;
        }
    }
    Trace::DataSegment seg;
    seg.at = at;
    seg.bytes = n;
    seg.beforeAt = b;
    seg.afterAt = a;
    segs.push_back(seg);
    return at;
}

std::span<uint8_t> TraceBuilder::lastBefore(uint64_t n) {
    if (n == 0 || m_t.m_segments.empty()) return {};
    const Trace::DataSegment& l = m_t.m_segments.back();
    LAYOUTSCOPE_ASSERT(l.before == ByteSource::Stored && n <= l.bytes);
    return {m_t.m_before.data(l.beforeAt + l.bytes - n), n};
}

namespace {

// Destinations whose `before` bytes the executors copy from memory (the others keep zeros: registers).
bool copiedBefore(MemSpace s) {
    return s == MemSpace::SharedCta || s == MemSpace::Global || s == MemSpace::TensorMemory;
}

void writeDestination(MachineState& s, const MemRef& r, std::span<const uint8_t> bytes) {
    if (r.space == MemSpace::SharedCta) {
        LAYOUTSCOPE_ASSERT(r.cta < s.smem.size() && r.addr + bytes.size() <= s.smem[r.cta].size());
        std::memcpy(s.smem[r.cta].bytes().data() + r.addr, bytes.data(), bytes.size());
    } else if (r.space == MemSpace::Global) {
        s.global.write(r.addr, bytes);
    }
}

} // namespace

bool TraceBuilder::move(MachineState& state, ByteMove m, std::span<const uint8_t> bytes, bool newStep,
                        const AddrDerivation& derive) {
    flush();
    LAYOUTSCOPE_ASSERT(m_open && bytes.size() == m.length);
    m_t.instrs[m_instr].bytesMoved += m.length;
    if (!m_tracing) {
        writeDestination(state, m.dst, bytes);
        return false;
    }
    if (newStep || m_t.stepCount == m_t.instrs[m_instr].firstStep) ++m_t.stepCount;
    m.step = m_t.stepCount - 1;
    m.instr = m_instr;
    // Zeros for registers and Tensor Memory (the tcgen05 executor fills the latter).
    const uint64_t at =
        appendData(m.length, m.dst.space != MemSpace::SharedCta && m.dst.space != MemSpace::Global);
    m.dataOffset = at;
    if (m.length == 0) {
        // nothing to keep
    } else if (m.dst.space == MemSpace::SharedCta) {
        LAYOUTSCOPE_ASSERT(m.dst.cta < state.smem.size() &&
                           m.dst.addr + m.length <= state.smem[m.dst.cta].size());
        std::memcpy(beforeAt(at), state.smem[m.dst.cta].bytes().data() + m.dst.addr, m.length);
    } else if (m.dst.space == MemSpace::Global) {
        state.global.read(m.dst.addr, std::span<uint8_t>(beforeAt(at), m.length));
    }
    if (m.length != 0) std::memcpy(afterAt(at), bytes.data(), m.length);
    writeDestination(state, m.dst, bytes);
    m_t.moves.push_back(m, derive);
    return true;
}

bool TraceBuilder::moveRow(MachineState& state, ByteMove first, uint32_t count, MoveTable::Strides s0,
                           std::span<const uint8_t> bytes, const AddrDerivation& derive) {
    flush();
    LAYOUTSCOPE_ASSERT(m_open && bytes.size() == uint64_t(count) * first.length);
    const uint32_t len = first.length;
    m_t.instrs[m_instr].bytesMoved += uint64_t(count) * len;
    s0[0] = 1; // every move its own step
    auto dstOf = [&](uint32_t k) {
        MemRef d = first.dst;
        if (derive.side == AddrDerivation::Side::Dst)
            d.addr = swizzleAddress(
                TensorSwizzle(derive.swizzle),
                uint32_t(derive.base + first.logicalOffset + int64_t(k) * s0[5])); // field 5: logicalOffset
        else
            d.addr = uint64_t(int64_t(first.dst.addr) + int64_t(k) * s0[4]); // Strides: dst.addr is field 4
        return d;
    };
    if (!m_tracing) {
        for (uint32_t k = 0; k < count; ++k)
            writeDestination(state, dstOf(k), bytes.subspan(size_t(k) * len, len));
        return false;
    }
    first.step = m_t.stepCount;
    m_t.stepCount += count;
    first.instr = m_instr;
    // Zeros for registers and Tensor Memory (their executors fill them).
    const uint64_t at = appendData(bytes.size(), first.dst.space != MemSpace::SharedCta &&
                                                     first.dst.space != MemSpace::Global);
    first.dataOffset = at;
    if (!bytes.empty()) std::memcpy(afterAt(at), bytes.data(), bytes.size());
    for (uint32_t k = 0; k < count && len != 0; ++k) {
        const MemRef d = dstOf(k);
        uint8_t* before = beforeAt(at) + size_t(k) * len;
        if (d.space == MemSpace::SharedCta) {
            LAYOUTSCOPE_ASSERT(d.cta < state.smem.size() && d.addr + len <= state.smem[d.cta].size());
            std::memcpy(before, state.smem[d.cta].bytes().data() + d.addr, len);
        } else if (d.space == MemSpace::Global) {
            state.global.read(d.addr, std::span<uint8_t>(before, len));
        }
        writeDestination(state, d, bytes.subspan(size_t(k) * len, len));
    }
    m_t.moves.appendRow(first, count, s0, derive);
    return true;
}

bool TraceBuilder::moveBatch(MachineState& state, std::span<ByteMove> ms, std::span<const uint8_t> bytes,
                             bool newStep) {
    flush();
    LAYOUTSCOPE_ASSERT(m_open);
    m_t.instrs[m_instr].bytesMoved += bytes.size();
    if (!m_tracing) {
        size_t off = 0;
        for (const ByteMove& m : ms) {
            writeDestination(state, m.dst, bytes.subspan(off, m.length));
            off += m.length;
        }
        LAYOUTSCOPE_ASSERT(off == bytes.size());
        return false;
    }
    if (ms.empty()) return true;
    if (newStep || m_t.stepCount == m_t.instrs[m_instr].firstStep) ++m_t.stepCount;
    bool zero = false; // zeros for registers and Tensor Memory (their executors fill them)
    for (const ByteMove& m : ms)
        zero = zero || (m.dst.space != MemSpace::SharedCta && m.dst.space != MemSpace::Global);
    const uint64_t at = appendData(bytes.size(), zero);
    uint8_t* const before0 = bytes.empty() ? nullptr : beforeAt(at); // one append: contiguous
    size_t off = 0;
    for (ByteMove& m : ms) {
        m.step = m_t.stepCount - 1;
        m.instr = m_instr;
        m.dataOffset = at + off;
        uint8_t* before = before0 + off;
        if (m.length == 0) {
            // nothing to keep
        } else if (m.dst.space == MemSpace::SharedCta) {
            LAYOUTSCOPE_ASSERT(m.dst.cta < state.smem.size() &&
                               m.dst.addr + m.length <= state.smem[m.dst.cta].size());
            std::memcpy(before, state.smem[m.dst.cta].bytes().data() + m.dst.addr, m.length);
        } else if (m.dst.space == MemSpace::Global) {
            state.global.read(m.dst.addr, std::span<uint8_t>(before, m.length));
        }
        writeDestination(state, m.dst, bytes.subspan(off, m.length));
        off += m.length;
    }
    LAYOUTSCOPE_ASSERT(off == bytes.size());
    if (!bytes.empty()) std::memcpy(afterAt(at), bytes.data(), bytes.size());
    m_t.moves.appendBatch(ms);
    return true;
}

TraceBuilder::GridBytes TraceBuilder::moveGrid(ByteMove first, const std::array<uint32_t, 3>& n,
                                               const std::array<MoveTable::Strides, 3>& s,
                                               const AddrDerivation& derive) {
    LAYOUTSCOPE_ASSERT(m_open);
    flush();
    const uint64_t count = uint64_t(n[0]) * n[1] * n[2], bytes = count * first.length;
    m_t.instrs[m_instr].bytesMoved += bytes;
    if (!m_tracing || count == 0) return {};
    first.step = m_t.stepCount; // a new step, like move(newStep = true)
    int64_t last = first.step;
    for (size_t l = 0; l < 3; ++l) last += int64_t(n[l] - 1) * s[l][0];
    m_t.stepCount = uint32_t(last + 1);
    first.instr = m_instr;
    if (first.dst.space == MemSpace::Register) {
        // A register destination's `before` bytes are implied zeros (Trace::beforeBytes): not stored.
        const GridBytes gb = registerGrid(first, bytes);
        m_t.moves.appendGrid(first, n, s, derive);
        return gb;
    }
    first.dataOffset = appendData(bytes, !copiedBefore(first.dst.space));
    m_t.moves.appendGrid(first, n, s, derive);
    return {beforeAt(first.dataOffset), afterAt(first.dataOffset)};
}

TraceBuilder::GridBytes TraceBuilder::registerGrid(ByteMove& first, uint64_t bytes) {
    LAYOUTSCOPE_ASSERT(first.length <= kMaxImpliedZeroBytes);
    Trace::DataSegment seg;
    seg.at = first.dataOffset = m_t.m_dataEnd;
    seg.bytes = bytes;
    seg.afterAt = m_t.m_after.append(bytes, false);
    seg.before = ByteSource::Zero;
    seg.firstMove = m_t.moves.size();
    seg.moveLength = first.length;
    m_t.m_dataEnd += bytes;
    m_t.m_segments.push_back(seg);
    if (m_beforeScratch.size() < bytes) m_beforeScratch.resize(bytes); // the caller need not fill it
    return {m_beforeScratch.data(), m_t.m_after.data(seg.afterAt)};
}

TraceBuilder::GridBytes TraceBuilder::moveGridLevels(ByteMove first, std::span<const uint32_t> n,
                                                     std::span<const MoveTable::Strides> s) {
    LAYOUTSCOPE_ASSERT(m_open && n.size() == s.size());
    flush();
    uint64_t count = 1;
    for (uint32_t c : n) count *= c;
    const uint64_t bytes = count * first.length;
    m_t.instrs[m_instr].bytesMoved += bytes;
    if (!m_tracing || count == 0) return {};
    first.step = m_t.stepCount; // a new step, like moveGrid
    int64_t last = first.step;
    for (size_t l = 0; l < n.size(); ++l) last += int64_t(n[l] - 1) * s[l][0];
    m_t.stepCount = uint32_t(last + 1);
    first.instr = m_instr;
    if (first.dst.space == MemSpace::Register) { // implied-zero `before` bytes, as moveGrid
        const GridBytes gb = registerGrid(first, bytes);
        m_t.moves.appendGridLevels(first, n, s);
        return gb;
    }
    first.dataOffset = appendData(bytes, !copiedBefore(first.dst.space));
    m_t.moves.appendGridLevels(first, n, s);
    return {beforeAt(first.dataOffset), afterAt(first.dataOffset)};
}

void TraceBuilder::tx(MachineState& state, uint8_t cta, uint32_t mbarAddr, int64_t bytes) {
    LAYOUTSCOPE_ASSERT(m_open);
    MbarrierState& mb = state.mbarriers[{cta, mbarAddr}];
    mb.txCount -= bytes;
    mb.completedBytes += bytes;
    const uint32_t step = m_t.stepCount == 0 ? 0 : m_t.stepCount - 1;
    m_t.txEvents.push_back(TxEvent{step, m_instr, cta, mbarAddr, bytes});
}

void TraceBuilder::alsoRule(RuleId rule) {
    LAYOUTSCOPE_ASSERT(m_open);
    std::vector<RuleId>& also = m_t.instrs[m_instr].alsoRules;
    if (std::find(also.begin(), also.end(), rule) == also.end()) also.push_back(rule);
}

Replay::Replay(const Trace& t, const MachineState& initial) : m_t(t), m_state(initial) {}

static void applyBytes(MachineState& s, const MemRef& r, std::span<const uint8_t> bytes) {
    if (r.space == MemSpace::SharedCta)
        std::memcpy(s.smem[r.cta].bytes().data() + r.addr, bytes.data(), bytes.size());
    else if (r.space == MemSpace::Global)
        s.global.write(r.addr, bytes);
}

void Replay::seek(uint32_t step) {
    step = std::min(step, m_t.stepCount);
    if (step > m_step) {
        auto [lo, unused] = m_t.movesOfStep(m_step);
        auto [unused2, hi] = m_t.movesOfStep(step - 1);
        (void)unused;
        (void)unused2;
        for (MoveTable::Cursor c(m_t.moves, lo); c.index() < hi; c.next()) // each move from the one before
            applyBytes(m_state, c.move().dst, m_t.afterBytes(c.move()));
    } else if (step < m_step) {
        auto [lo, unused] = m_t.movesOfStep(step);
        auto [unused2, hi] = m_t.movesOfStep(m_step - 1);
        (void)unused;
        (void)unused2;
        MoveTable::Cursor c(m_t.moves, lo);
        for (size_t i = hi; i-- > lo;) {
            c.seek(i);
            applyBytes(m_state, c.move().dst, m_t.beforeBytes(c.move()));
        }
    }
    m_step = step;
}

} // namespace layoutscope
