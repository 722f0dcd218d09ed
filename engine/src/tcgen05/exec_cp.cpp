// tcgen05.cp from shared memory into Tensor Memory through a descriptor (PTX ISA 9.2 §9.7.16.9;
// tcgen05.md §5): every check before anything moves, then one step per source row.
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "tcgen05/exec_detail.hpp"

#include <algorithm>
#include <cstring>

namespace layoutscope {

using detail::tmemRef;

Status Tcgen05Executor::cp(const CpForm& f, uint32_t cta, uint32_t taddr, uint64_t descValue,
                           const InstrSource& src) {
    if (Status s = detail::checkTmemCta(m_tmem, cta); !s) return s;
    const SmemDescriptor d = decodeSmemDescriptor(descValue);
    if (Status s = validateSmemDescriptor(d); !s) return s;
    const TmemAddr a = decodeTmemAddress(taddr);
    const uint32_t rows = cpSourceRows(f.shape), rowBytes = cpRowBytes(f.shape), chunks = rowBytes / 16;
    std::array<uint32_t, 2> targets{cta, cta};
    uint32_t nTargets = 1;
    if (f.ctaGroup == 2) {
        if (peerCta(cta) >= m_tmem.ctas.size() || peerCta(cta) >= m_state.smem.size())
            return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05CpCtaPair,
                                     ".cta_group::2 needs the peer CTA " + std::to_string(peerCta(cta)) +
                                         " in the cluster");
        targets = {cta & ~1u, cta | 1u};
        nTargets = 2;
    }
    // Check every destination and source before moving anything. saddr[r * chunks + q]: the source of
    // chunk q of row r (the descriptor's walk, computed once; only its first rows * chunks are set), not
    // computed at all for an affine walk the bulk path copies by its terms (issue 25 item 10).
    std::array<uint32_t, 256> saddr; // rows <= 128, chunks <= 2
    detail::CpWalk walk = detail::cpWalkOf(d, rows, chunks);
    bool haveSaddr = false;
    auto needSaddr = [&] {
        if (!haveSaddr) walk = detail::cpSourceAddresses(d, rows, chunks, saddr.data());
        haveSaddr = true;
    };
    if (!walk.affine || f.decompress != CpDecompress::None || f.ctaGroup != 1) needSaddr();
    std::array<uint32_t, 4> lanes{};
    uint64_t smemSize = m_state.smem[targets[0]].size(); // the smaller of the targets' (the same check)
    for (uint32_t t = 1; t < nTargets; ++t)
        smemSize = std::min<uint64_t>(smemSize, m_state.smem[targets[t]].size());
    // Every shape's lanes grow with the row, so the last row's are the highest, and the highest source
    // chunk decides the read: when both are in, no row is out (the per-row pass below names the first
    // that is, and runs only then).
    const uint32_t nLast = cpRowLanesInto(f, rows - 1, lanes);
    const uint32_t maxLane = *std::max_element(lanes.begin(), lanes.begin() + nLast);
    const bool allIn = TensorMemory::inRange(a.lane + maxLane, a.column + rowBytes / 4 - 1) &&
                       walk.maxAddr + uint64_t(16) <= smemSize;
    if (!allIn) needSaddr();
    for (uint32_t r = 0; r < rows && !allIn; ++r) {
        const uint32_t nLanes = cpRowLanesInto(f, r, lanes);
        for (uint32_t i = 0; i < nLanes; ++i)
            if (!TensorMemory::inRange(a.lane + lanes[i], a.column + rowBytes / 4 - 1))
                return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05CpRowMap,
                                         "row " + std::to_string(r) + " lands on lane " +
                                             std::to_string(a.lane + lanes[i]) + ", columns up to " +
                                             std::to_string(a.column + rowBytes / 4 - 1) +
                                             ": outside 128 lanes x 512 columns");
        for (uint32_t q = 0; q < chunks; ++q)
            if (saddr[r * chunks + q] + uint64_t(16) > smemSize)
                return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05CpSourceWalk,
                                         "source row " + std::to_string(r) + " reads past shared memory");
    }
    const RuleId laneRule = f.shape == CpShape::k4x256b    ? RuleId::Tcgen05Cp4x256b
                            : f.shape == CpShape::k64x128b ? RuleId::Tcgen05CpWarpx2
                                                           : RuleId::Tcgen05CpRowMap;
    const Transform tr = f.decompress == CpDecompress::B8x16_B4x16_p64   ? Transform::Decompress4to8
                         : f.decompress == CpDecompress::B8x16_B6x16_p32 ? Transform::Decompress6to8
                                                                         : Transform::Copy;
    const RuleId decRule = tr == Transform::Decompress4to8   ? RuleId::Tcgen05Decompress4to8
                           : tr == Transform::Decompress6to8 ? RuleId::Tcgen05Decompress6to8
                                                             : laneRule;
    TraceBuilder tb(m_trace);
    tb.beginInstr(src.text, src.line);
    if (!cpBulk(tb, f, cta, a, haveSaddr ? saddr.data() : nullptr, walk, tr, decRule)) {
        needSaddr();
        // One batch (one step) per source row: its 16-byte chunks into every lane it lands on, in every
        // target.
        std::vector<ByteMove> ms;
        std::vector<uint8_t> buf;
        for (uint32_t r = 0; r < rows; ++r) {
            const uint32_t nLanes = cpRowLanesInto(f, r, lanes);
            ms.clear();
            buf.clear();
            for (uint32_t t = 0; t < nTargets; ++t) {
                const uint32_t c = targets[t];
                for (uint32_t q = 0; q < chunks; ++q) {
                    const uint32_t sa = saddr[r * chunks + q];
                    std::array<uint8_t, 16> chunk{};
                    std::memcpy(chunk.data(), m_state.smem[c].bytes().data() + sa, 16);
                    const std::array<uint8_t, 16> bytes = decompressChunk(f.decompress, chunk);
                    for (uint32_t rep = 0; rep < nLanes; ++rep) {
                        ByteMove m;
                        m.src = MemRef{MemSpace::SharedCta, static_cast<uint8_t>(c), sa};
                        m.dst = tmemRef(c, a.lane + lanes[rep], a.column + 4 * q);
                        m.length = 16;
                        m.transform = tr;
                        m.rule = f.ctaGroup == 2 && c != cta ? RuleId::Tcgen05CpCtaPair : decRule;
                        m.logicalOffset = r * rowBytes + 16 * q;
                        m.coord = {static_cast<int32_t>(r), static_cast<int32_t>(q),
                                   static_cast<int32_t>(rep), 0, 0};
                        ms.push_back(m);
                        buf.insert(buf.end(), bytes.begin(), bytes.end());
                    }
                }
            }
            recordBatch(tb, ms, buf, true);
        }
    }
    // A move names one rule; the instruction also depends on the row map, the decompression, the source walk
    // and (swizzled or with a base offset) on the descriptor's swizzle and base-offset assumption (oq 3, 20,
    // 22).
    std::array<RuleId, 6> uses{laneRule, RuleId::Tcgen05CpRowMap, decRule, RuleId::Tcgen05CpSourceWalk};
    size_t nUses = 4;
    if (d.layoutType != static_cast<uint32_t>(SmemLayoutType::SwizzleNone))
        uses[nUses++] = RuleId::SmemDescriptorSwizzle;
    if (d.layoutType != static_cast<uint32_t>(SmemLayoutType::SwizzleNone) || d.baseOffset != 0)
        uses[nUses++] = RuleId::SmemDescriptorBaseOffset;
    // The summary of each shape and CTA group, built once (not two std::to_string a call); reserved with
    // room for TraceBuilder's note on an untraced instruction, so that its append does not allocate again.
    static const std::array<std::string, 10> kSummaries = [] {
        std::array<std::string, 10> t;
        for (uint32_t sh = 0; sh < 5; ++sh)
            for (uint32_t pair = 0; pair < 2; ++pair)
                t[sh * 2 + pair] = std::string("tcgen05.cp .") + cpShapeName(CpShape(sh)) + ": " +
                                   std::to_string(cpSourceRows(CpShape(sh))) + " rows x " +
                                   std::to_string(cpRowBytes(CpShape(sh))) + " B to TMEM" +
                                   (pair ? " of both CTAs of the pair" : "");
        return t;
    }();
    const std::string& base = kSummaries[uint32_t(f.shape) * 2 + (f.ctaGroup == 2)];
    std::string summary;
    summary.reserve(base.size() + 64);
    summary.append(base);
    endInstr(tb, std::move(summary), std::span<const RuleId>(uses.data(), nUses));
    return okStatus();
}

} // namespace layoutscope
