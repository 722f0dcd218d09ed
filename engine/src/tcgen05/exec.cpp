// Executing tcgen05.st / ld / cp / shift into a Trace (PTX ISA 9.2 §9.7.16.8-9; tcgen05.md §4-6).
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "tcgen05/exec_detail.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace layoutscope {
namespace {

using detail::tmemRef;
std::array<uint8_t, 4> le32(uint32_t v) {
    return {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
            static_cast<uint8_t>(v >> 24)};
}
// Every rule a tcgen05.ld/st applies: the map, .pack/.unpack::16b, the 16x32bx2 half offset (open question
// 25).
struct LdStRules {
    std::array<RuleId, 3> r{RuleId::TmemLdStMap};
    size_t n = 1;
    operator std::span<const RuleId>() const { return {r.data(), n}; }
};
LdStRules ldStRules(const LdStForm& f) {
    LdStRules r;
    if (f.pack16b) r.r[r.n++] = RuleId::TmemPack16b;
    if (f.shape == LdStShape::k16x32bx2) r.r[r.n++] = RuleId::TmemHalfSplitoff;
    return r;
}
// "tcgen05.ld .16x64b.x8: 256 registers from TMEM", in one allocation (an access's summary line).
std::string ldStSummary(const LdStForm& f, uint32_t n) {
    auto number = [](std::string& s, uint32_t v) {
        char b[12];
        s.append(b, std::to_chars(b, b + sizeof b, v).ptr);
    };
    std::string s;
    s.reserve(64);
    s += f.store ? "tcgen05.st ." : "tcgen05.ld .";
    s += ldStShapeName(f.shape);
    s += ".x";
    number(s, f.num);
    s += ": ";
    number(s, 32 * n);
    s += f.store ? " registers to TMEM" : " registers from TMEM";
    return s;
}
Status checkCta(const TmemState& s, uint32_t cta) {
    return detail::checkTmemCta(s, cta);
}

} // namespace

MemRef Tcgen05Executor::regRef(uint32_t cta, uint32_t threadInCta, uint32_t pos, uint32_t byte) const {
    const uint32_t reg = pos < m_regNames.size() ? m_regNames[pos] : pos;
    return MemRef{MemSpace::Register, static_cast<uint8_t>(cta),
                  (uint64_t{threadInCta} << 16) | (reg * 4 + byte)};
}

void writeTmemBytes(TmemState& s, const MemRef& r, std::span<const uint8_t> bytes) {
    const TmemAddr a = decodeTmemAddress(static_cast<uint32_t>(r.addr));
    TensorMemory& tm = s.ctas[r.cta];
    size_t i = 0;
    for (; i + 4 <= bytes.size(); i += 4) // whole cells, little-endian
        tm.setCell(a.lane, a.column + static_cast<uint32_t>(i / 4),
                   uint32_t(bytes[i]) | uint32_t(bytes[i + 1]) << 8 | uint32_t(bytes[i + 2]) << 16 |
                       uint32_t(bytes[i + 3]) << 24);
    for (; i < bytes.size(); ++i)
        tm.setByte(a.lane, a.column + static_cast<uint32_t>(i / 4), static_cast<uint32_t>(i % 4), bytes[i]);
}

namespace {
void readTmemInto(const TmemState& s, const MemRef& r, std::span<uint8_t> out) {
    const TmemAddr a = decodeTmemAddress(static_cast<uint32_t>(r.addr));
    const TensorMemory& tm = s.ctas[r.cta];
    for (size_t i = 0; i < out.size(); i += 4) {
        const uint32_t c = tm.cell(a.lane, a.column + static_cast<uint32_t>(i / 4));
        for (size_t b = 0; b < 4 && i + b < out.size(); ++b) out[i + b] = static_cast<uint8_t>(c >> (8 * b));
    }
}
} // namespace

std::vector<uint8_t> readTmemBytes(const TmemState& s, const MemRef& r, size_t n) {
    std::vector<uint8_t> out(n);
    readTmemInto(s, r, out);
    return out;
}

void Tcgen05Executor::endInstr(TraceBuilder& tb, std::string summary, std::span<const RuleId> uses) {
    tb.endInstr(std::move(summary));
    const uint32_t idx = static_cast<uint32_t>(m_trace.instrs.size() - 1);
    std::vector<RuleId> also;
    also.reserve(uses.size()); // one allocation
    for (RuleId r : uses) {
        bool named = std::find(also.begin(), also.end(), r) != also.end();
        const TraceInstr& in = m_trace.instrs[idx];
        named = named || m_trace.moves.anyRule(in.firstMove, in.endMove, r);
        if (!named) also.push_back(r);
    }
    m_trace.instrs[idx].alsoRules = std::move(also);
}

void Tcgen05Executor::record(TraceBuilder& tb, ByteMove m, std::span<const uint8_t> bytes, bool newStep) {
    const bool traced = tb.move(m_state, m, bytes, newStep);
    if (m.dst.space == MemSpace::TensorMemory) {
        // TraceBuilder wrote zeros as the `before` bytes of a TMEM destination: put the cells' bytes there
        // (the move's bytes are the last appended).
        if (traced && !bytes.empty()) readTmemInto(m_tmem, m.dst, tb.lastBefore(bytes.size()));
        writeTmemBytes(m_tmem, m.dst, bytes);
    }
}

void Tcgen05Executor::recordBatch(TraceBuilder& tb, std::span<ByteMove> ms, std::span<const uint8_t> bytes,
                                  bool newStep) {
    const bool traced = tb.moveBatch(m_state, ms, bytes, newStep) && !bytes.empty();
    const std::span<uint8_t> before = traced ? tb.lastBefore(bytes.size()) : std::span<uint8_t>{};
    size_t off = 0;
    for (const ByteMove& m : ms) {
        if (m.dst.space == MemSpace::TensorMemory) {
            // TraceBuilder wrote zeros as the `before` bytes of a TMEM destination: put the cells' bytes
            // there (before this move writes them: later moves of the batch may hit the same cells).
            if (traced) readTmemInto(m_tmem, m.dst, before.subspan(off, m.length));
            writeTmemBytes(m_tmem, m.dst, bytes.subspan(off, m.length));
        }
        off += m.length;
    }
}

Result<uint32_t> Tcgen05Executor::alloc(uint32_t ctaGroup, uint32_t cta, uint32_t dstSmem, uint32_t nCols,
                                        const InstrSource& src) {
    m_warnings.clear();
    if (Status s = checkCta(m_tmem, cta); !s) return s.diagnostics();
    std::vector<uint32_t> ctas{cta};
    if (ctaGroup == 2) {
        if (peerCta(cta) >= m_tmem.ctas.size())
            return tcgen05Diagnostic(Severity::Error, RuleId::TmemAlloc,
                                     ".cta_group::2 needs the peer CTA in the cluster");
        ctas = {cta & ~1u, cta | 1u};
    }
    for (uint32_t c : ctas)
        if (dstSmem % 4 != 0 || c >= m_state.smem.size() || dstSmem + 4 > m_state.smem[c].size())
            return tcgen05Diagnostic(
                Severity::Error, RuleId::TmemAlloc,
                "tcgen05.alloc destination " + std::to_string(dstSmem) +
                    " must be a 4-byte aligned shared::cta address inside shared memory");
    Result<uint32_t> taddr = ctaGroup == 2
                                 ? allocPair(m_tmem.allocators[ctas[0]], m_tmem.allocators[ctas[1]], nCols)
                                 : m_tmem.allocators[cta].alloc(nCols);
    if (!taddr) return taddr;
    for (uint32_t c : ctas)
        for (Diagnostic w : m_tmem.allocators[c].warnings()) {
            w.message = "CTA " + std::to_string(c) + ": " + w.message;
            m_warnings.push_back(std::move(w));
        }
    TraceBuilder tb(m_trace);
    tb.beginInstr(src.text, src.line);
    for (size_t i = 0; i < ctas.size(); ++i) {
        ByteMove m;
        m.src = MemRef{MemSpace::None, static_cast<uint8_t>(ctas[i]), *taddr};
        m.dst = MemRef{MemSpace::SharedCta, static_cast<uint8_t>(ctas[i]), dstSmem};
        m.length = 4;
        m.rule = RuleId::TmemAllocPolicy;
        const std::array<uint8_t, 4> bytes = le32(*taddr);
        record(tb, m, bytes, i == 0);
    }
    tb.endInstr("tcgen05.alloc " + std::to_string(nCols) + " columns at column " +
                std::to_string(decodeTmemAddress(*taddr).column));
    return taddr;
}

Status Tcgen05Executor::dealloc(uint32_t ctaGroup, uint32_t cta, uint32_t taddr, uint32_t nCols) {
    if (Status s = checkCta(m_tmem, cta); !s) return s;
    const TmemAllocation freed{decodeTmemAddress(taddr).column, nCols};
    if (ctaGroup != 2) {
        Status s = m_tmem.allocators[cta].dealloc(taddr, nCols);
        if (s) m_freed.emplace_back(cta, freed);
        return s;
    }
    if (peerCta(cta) >= m_tmem.ctas.size())
        return tcgen05Diagnostic(Severity::Error, RuleId::TmemAlloc,
                                 ".cta_group::2 needs the peer CTA in the cluster");
    Status s = deallocPair(m_tmem.allocators[cta & ~1u], m_tmem.allocators[cta | 1u], taddr, nCols);
    if (s) m_freed.emplace_back(cta & ~1u, freed), m_freed.emplace_back(cta | 1u, freed);
    return s;
}

std::optional<Diagnostic> Tcgen05Executor::checkAllocated(uint32_t cta, int64_t lo, int64_t hi,
                                                          std::string_view what) const {
    if (cta >= m_tmem.allocators.size() || hi <= lo) return std::nullopt; // checked elsewhere
    const auto cols = [](int64_t a, int64_t b) { return std::to_string(a) + ".." + std::to_string(b - 1); };
    const std::vector<TmemAllocation>& live = m_tmem.allocators[cta].allocations();
    // Live allocations are disjoint; walk [lo, hi) through them.
    int64_t at = lo;
    const TmemAllocation* partial = nullptr;
    while (at < hi) {
        const TmemAllocation* in = nullptr;
        for (const TmemAllocation& a : live)
            if (at >= a.column && at < int64_t(a.column) + a.nCols) in = &a;
        if (!in) break;
        partial = in;
        at = int64_t(in->column) + in->nCols;
    }
    if (at >= hi) return std::nullopt;
    const std::string use =
        std::string(what) + " uses Tensor Memory columns " + cols(lo, hi) + " of CTA " + std::to_string(cta);
    std::string why;
    if (partial) {
        why = ", but the allocation holding column " + std::to_string(lo) + " is columns " +
              cols(partial->column, int64_t(partial->column) + partial->nCols) + ": column " +
              std::to_string(at) + " is outside every live allocation";
    } else {
        for (auto it = m_freed.rbegin(); it != m_freed.rend() && why.empty(); ++it)
            if (it->first == cta && at >= it->second.column &&
                at < int64_t(it->second.column) + it->second.nCols)
                why = ", but columns " +
                      cols(it->second.column, int64_t(it->second.column) + it->second.nCols) +
                      " were freed by tcgen05.dealloc before it (use after dealloc)";
        if (why.empty())
            why = live.empty()
                      ? ", but no tcgen05.alloc has allocated Tensor Memory in this CTA"
                      : ", but column " + std::to_string(at) + " is in no live tcgen05.alloc allocation";
    }
    return tcgen05Diagnostic(
        Severity::Error, RuleId::TmemAlloc,
        use + why + "; allocate the columns first (tcgen05.alloc) and use them before tcgen05.dealloc");
}

Status Tcgen05Executor::relinquishAllocPermit(uint32_t ctaGroup, uint32_t cta) {
    if (Status s = checkCta(m_tmem, cta); !s) return s;
    if (ctaGroup == 2 && peerCta(cta) < m_tmem.ctas.size())
        m_tmem.allocators[peerCta(cta)].relinquishAllocPermit();
    m_tmem.allocators[cta].relinquishAllocPermit();
    return okStatus();
}

Status Tcgen05Executor::st(const LdStForm& f, uint32_t cta, uint32_t warp, uint32_t taddr,
                           const WarpRegisters& regs, const InstrSource& src) {
    if (Status s = checkCta(m_tmem, cta); !s) return s;
    if (Status s = checkLdStAccess(f, warp, taddr); !s) return s;
    const uint32_t n = regsPerThread(f);
    for (uint32_t t = 0; t < 32; ++t)
        if (regs[t].size() < n)
            return tcgen05Diagnostic(Severity::Error, RuleId::TmemLdStMap,
                                     "thread " + std::to_string(t) + " supplies " +
                                         std::to_string(regs[t].size()) + " registers; the form needs " +
                                         std::to_string(n));
    const TmemAddr a = decodeTmemAddress(taddr);
    TraceBuilder tb(m_trace);
    tb.beginInstr(src.text, src.line);
    const uint32_t nSlow = ldStBulk(tb, f, cta, warp, a, &regs, nullptr) ? 0 : n;
    // One batch (one step) per register j: 32 threads x up to 2 segments. (Only on this path: 64 ByteMoves
    // are 5.6 KiB to initialise, a cost the bulk path need not pay.)
    std::vector<ByteMove> ms(nSlow != 0 ? 64 : 0);
    std::array<uint8_t, 64 * 4> buf;
    for (uint32_t j = 0; j < nSlow; ++j) {
        size_t nm = 0;
        for (uint32_t t = 0; t < 32; ++t) {
            std::array<RegSegment, 2> segs;
            const uint32_t nSeg = ldStSegmentsInto(f, t, j, segs);
            for (uint32_t si = 0; si < nSeg; ++si) {
                const RegSegment& s = segs[si];
                ByteMove& m = ms[nm];
                m = ByteMove{};
                m.src = regRef(cta, 32 * warp + t, j, s.regBitLo / 8);
                m.dst = tmemRef(cta, a.lane + static_cast<uint32_t>(s.laneOff),
                                a.column + static_cast<uint32_t>(s.colOff));
                m.length = 4;
                m.rule = f.pack16b ? RuleId::TmemUnpackUpperBits : RuleId::TmemLdStMap;
                m.transform = f.pack16b ? Transform::Unpack16b : Transform::Copy;
                m.coord = {static_cast<int32_t>(t), static_cast<int32_t>(j), static_cast<int32_t>(s.regBitLo),
                           0, 0};
                // .unpack::16b: bits [lo, lo+16) of the register -> low half, zero above (open question 19)
                const uint32_t v = f.pack16b ? (regs[t][j] >> s.regBitLo) & 0xFFFF : regs[t][j];
                const std::array<uint8_t, 4> bytes = le32(v);
                std::copy(bytes.begin(), bytes.end(), buf.begin() + 4 * nm);
                ++nm;
            }
        }
        recordBatch(tb, std::span<ByteMove>(ms.data(), nm), std::span<const uint8_t>(buf.data(), 4 * nm),
                    true);
    }
    endInstr(tb, ldStSummary(f, n), ldStRules(f));
    return okStatus();
}

Result<WarpRegisters> Tcgen05Executor::ld(const LdStForm& f, uint32_t cta, uint32_t warp, uint32_t taddr,
                                          const InstrSource& src) {
    WarpRegisters out;
    if (Status s = ldInto(f, cta, warp, taddr, src, out); !s) return s.diagnostics();
    return out;
}

Status Tcgen05Executor::ldInto(const LdStForm& f, uint32_t cta, uint32_t warp, uint32_t taddr,
                               const InstrSource& src, WarpRegisters& out) {
    if (Status s = checkCta(m_tmem, cta); !s) return s;
    if (Status s = checkLdStAccess(f, warp, taddr); !s) return s;
    const TmemAddr a = decodeTmemAddress(taddr);
    const uint32_t n = regsPerThread(f);
    TraceBuilder tb(m_trace);
    tb.beginInstr(src.text, src.line);
    for (uint32_t t = 0; t < 32; ++t) out[t].resize(n); // the bulk path writes every register
    const uint32_t nSlow = ldStBulk(tb, f, cta, warp, a, nullptr, &out) ? 0 : n;
    for (uint32_t t = 0; t < 32 && nSlow != 0; ++t) std::fill(out[t].begin(), out[t].end(), 0u); // ORed into
    // One batch (one step) per register j: 32 threads x up to 2 segments (only on this path: 64 ByteMoves
    // are 5.6 KiB to initialise).
    std::vector<ByteMove> ms(nSlow != 0 ? 64 : 0);
    std::array<uint8_t, 64 * 4> buf;
    for (uint32_t j = 0; j < nSlow; ++j) {
        size_t nm = 0, nb = 0;
        for (uint32_t t = 0; t < 32; ++t) {
            std::array<RegSegment, 2> segs;
            const uint32_t nSeg = ldStSegmentsInto(f, t, j, segs);
            for (uint32_t si = 0; si < nSeg; ++si) {
                const RegSegment& s = segs[si];
                const uint32_t lane = a.lane + static_cast<uint32_t>(s.laneOff);
                const uint32_t col = a.column + static_cast<uint32_t>(s.colOff);
                const uint32_t cell = m_tmem.ctas[cta].cell(lane, col);
                const uint32_t mask = s.nbits == 32 ? 0xFFFFFFFFu : ((1u << s.nbits) - 1);
                out[t][j] |= ((cell >> s.tmemBitLo) & mask) << s.regBitLo;
                ByteMove& m = ms[nm++];
                m = ByteMove{};
                m.src = tmemRef(cta, lane, col);
                m.dst = regRef(cta, 32 * warp + t, j, s.regBitLo / 8);
                m.length = s.nbits / 8;
                m.rule = f.pack16b ? RuleId::TmemPack16b : RuleId::TmemLdStMap;
                m.transform = f.pack16b ? Transform::Pack16b : Transform::Copy;
                m.coord = {static_cast<int32_t>(t), static_cast<int32_t>(j), static_cast<int32_t>(s.regBitLo),
                           0, 0};
                const std::array<uint8_t, 4> bytes = le32(cell >> s.tmemBitLo);
                std::copy_n(bytes.begin(), m.length, buf.begin() + nb);
                nb += m.length;
            }
        }
        recordBatch(tb, std::span<ByteMove>(ms.data(), nm), std::span<const uint8_t>(buf.data(), nb), true);
    }
    endInstr(tb, ldStSummary(f, n), ldStRules(f));
    return okStatus();
}

Status Tcgen05Executor::shiftDown(uint32_t ctaGroup, uint32_t cta, uint32_t taddr, const InstrSource& src) {
    if (Status s = checkCta(m_tmem, cta); !s) return s;
    const TmemAddr a = decodeTmemAddress(taddr);
    if (a.lane % 32 != 0 || a.lane >= kTmemLanes || a.column + 8 > kTmemColumns)
        return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05ShiftDown,
                                 "tcgen05.shift taddr lane must be a multiple of 32 (got " +
                                     std::to_string(a.lane) + ") and columns taddr.col..+7 inside TMEM");
    std::vector<uint32_t> targets{cta};
    if (ctaGroup == 2) {
        if (peerCta(cta) >= m_tmem.ctas.size())
            return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05ShiftDown,
                                     ".cta_group::2 needs the peer CTA");
        targets = {cta & ~1u, cta | 1u};
    }
    TraceBuilder tb(m_trace);
    tb.beginInstr(src.text, src.line);
    bool first = true;
    for (uint32_t c : targets) {
        // unverified: open question 2 — one quarter, towards higher lanes, row L0 keeps its value.
        for (int i = 30; i >= 0; --i) {
            const uint32_t from = a.lane + static_cast<uint32_t>(i);
            ByteMove m;
            m.src = tmemRef(c, from, a.column);
            m.dst = tmemRef(c, from + 1, a.column);
            m.length = 32;
            m.rule = RuleId::Tcgen05ShiftDown;
            m.coord = {i, 0, 0, 0, 0};
            const std::vector<uint8_t> bytes = readTmemBytes(m_tmem, m.src, 32);
            record(tb, m, bytes, first);
            first = false;
        }
    }
    tb.endInstr("tcgen05.shift.down: 31 rows x 32 B one lane down");
    return okStatus();
}

void TmemReplay::seek(uint32_t step) {
    step = std::min(step, m_t.stepCount);
    auto apply = [&](const ByteMove& m, bool forward) {
        if (m.dst.space != MemSpace::TensorMemory) return;
        writeTmemBytes(m_state, m.dst, forward ? m_t.afterBytes(m) : m_t.beforeBytes(m));
    };
    if (step > m_step) {
        const size_t lo = m_t.movesOfStep(m_step).first, hi = m_t.movesOfStep(step - 1).second;
        for (size_t i = lo; i < hi; ++i) apply(m_t.moves[i], true);
    } else if (step < m_step) {
        const size_t lo = m_t.movesOfStep(step).first, hi = m_t.movesOfStep(m_step - 1).second;
        for (size_t i = hi; i-- > lo;) apply(m_t.moves[i], false);
    }
    m_step = step;
}

} // namespace layoutscope
