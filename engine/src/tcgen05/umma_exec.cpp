// Executing tcgen05.mma into Tensor Memory (umma.hpp, exec.hpp; PTX ISA 9.2 §9.7.16.10.9). A and B are read
// element by element exactly where the consumer model says (elementAddress, the addresses the operand check
// compares with the TMA tiles); D lands at the data path layout of umma_layout.hpp.
#include "layoutscope/core/number_formats.hpp"
#include "layoutscope/tcgen05/exec.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace layoutscope {
namespace {

std::string tmemText(uint32_t taddr) { // "lane 0, column 128"
    const TmemAddr t = decodeTmemAddress(taddr);
    return "lane " + std::to_string(t.lane) + ", column " + std::to_string(t.column);
}

Diagnostic mmaError(RuleId rule, std::string msg) {
    return tcgen05Diagnostic(Severity::Error, rule, std::move(msg));
}

// The accumulator's new bits from the exact-ish sum (binary64) and the old cell (enable-input-d).
uint32_t accumulate(const UmmaOp& op, double sum, uint32_t oldCell) {
    switch (op.d) {
    case UmmaType::S32: {
        const int64_t v = int64_t(std::llround(sum)) + (op.enableInputD ? int64_t(int32_t(oldCell)) : 0);
        if (op.saturate) {
            const int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
            return uint32_t(int32_t(v < lo ? lo : v > hi ? hi : v));
        }
        return uint32_t(uint64_t(v)); // wraps modulo 2^32
    }
    case UmmaType::F16:
        return encodeF16(sum + (op.enableInputD ? decodeF16(uint16_t(oldCell)) : 0.0)); // bits [16,32) zero
    default:
        return encodeF32(sum + (op.enableInputD ? decodeF32(oldCell) : 0.0));
    }
}

// What the .sp / .ws parts of an MMA did, for its trace summary, with what of it is unverified.
std::string wsSpSummary(const UmmaOp& op, const UmmaZeroColumns& zc, bool fromCollector) {
    std::string s;
    if (op.sparse)
        s += "; A sparse 2:4: " + std::to_string(ummaK(op) / 2) + " stored values a row, metadata at " +
             tmemText(op.spMetaTaddr) + " + selector " + std::to_string(op.spSelector) +
             " (unverified: the metadata placement and the selector as a column offset)";
    if (op.ws) {
        const std::string bn = "b" + std::to_string(op.collector.buffer);
        s += std::string("; .ws: B ") +
             (fromCollector ? "from collector buffer " + bn + " (b-desc not read; unverified)"
                            : std::string("read through b-desc")) +
             ", then " +
             (op.collector.op == UmmaCollectorOp::Fill  ? "kept in " + bn
              : op.collector.op == UmmaCollectorOp::Use ? bn + " kept"
                                                        : bn + " discarded");
        const uint32_t zeros = uint32_t(std::count(zc.zero.begin(), zc.zero.end(), true));
        if (op.hasZeroColumnMask)
            s += "; zero-column mask: " + std::to_string(zeros) + " of " + std::to_string(op.n) +
                 " columns of B zero, column shift " + std::to_string(zc.shift) +
                 " (unverified: mask applied after the shift)";
    }
    return s;
}

uint32_t readRaw(std::span<const uint8_t> smem, uint32_t addr, uint32_t bytes) {
    uint32_t v = 0;
    for (uint32_t b = 0; b < bytes; ++b) v |= uint32_t(smem[addr + b]) << (8 * b);
    return v;
}

} // namespace

Status Tcgen05Executor::mma(const UmmaOp& op, uint32_t cta, const InstrSource& src) {
    const UmmaDShape shape = ummaDShape(op);
    if (Status s = checkUmmaDShape(shape); !s) return s;
    std::array<uint32_t, 2> ctas{cta, cta};
    if (op.ctaGroup == 2) {
        if (peerCta(cta) >= m_tmem.ctas.size() || peerCta(cta) >= m_state.smem.size())
            return mmaError(RuleId::Tcgen05MmaCtaPair, ".cta_group::2 needs the peer CTA " +
                                                           std::to_string(peerCta(cta)) + " in the cluster");
        ctas = {cta & ~1u, cta | 1u};
    }
    if (cta >= m_tmem.ctas.size() || cta >= m_state.smem.size())
        return mmaError(RuleId::Tcgen05MmaDLayout, "CTA " + std::to_string(cta) + " is outside the cluster");
    // K: the logical K (doubled for .sp); kA: the values A stores a row (K / 2 for .sp).
    const uint32_t K = ummaK(op), kA = op.sparse ? K / 2 : K, aBits = ummaTypeBits(op.a);
    const TmemAddr d0 = decodeTmemAddress(op.dTaddr);
    const uint32_t cols = ummaDColumns(shape);
    if (d0.lane + ummaDLaneSpan(shape) > kTmemLanes || d0.column + cols > kTmemColumns)
        return mmaError(RuleId::Tcgen05MmaDLayout,
                        "D (" + std::string(ummaDLayoutName(ummaDLayout(shape))) +
                            ", N = " + std::to_string(op.n) + ") at lane " + std::to_string(d0.lane) +
                            ", column " + std::to_string(d0.column) + " needs lanes up to " +
                            std::to_string(d0.lane + ummaDLaneSpan(shape) - 1) + " and columns up to " +
                            std::to_string(d0.column + cols - 1) + ": outside 128 lanes x 512 columns");
    if (op.sparse) { // the metadata columns one MMA reads (umma_ws_sp.hpp)
        const TmemAddr e = decodeTmemAddress(op.spMetaTaddr);
        const uint32_t last = e.column + op.spSelector + ummaSparseMetaColumns(op) - 1;
        if (last >= kTmemColumns)
            return mmaError(RuleId::Tcgen05MmaSparse, "the sparsity metadata at " + tmemText(op.spMetaTaddr) +
                                                          " with selector " + std::to_string(op.spSelector) +
                                                          " needs columns up to " + std::to_string(last) +
                                                          ": outside 128 lanes x 512 columns");
    }
    // .ws zero-column mask and column shift (umma_ws_sp.hpp).
    UmmaZeroColumns zc;
    if (op.ws && op.hasZeroColumnMask) {
        Result<UmmaZeroColumns> z = ummaZeroColumnMask(op.m, op.n, op.zeroColumnMask);
        if (!z) return z.error();
        zc = std::move(*z);
    }
    // Operand values as read: a[m*kA + k] (.sp: the stored values, expanded below), b[n*K + k].
    std::vector<double> a(size_t(op.m) * kA), b(size_t(op.n) * K);
    auto fromSmem = [&](uint64_t descValue, bool mnMajor, UmmaType t, uint32_t rows, bool isA,
                        std::vector<double>& out, uint32_t kCount, uint32_t rowShift) -> Status {
        const SmemDescriptor desc = decodeSmemDescriptor(descValue);
        if (Status s = validateSmemDescriptor(desc); !s) return s;
        // e2m1 (kind::mxf4*): two elements a byte, element k in byte k / 2 of the row's 32 bytes, low nibble
        // first (unverified: formats.md §3.2 [infer]; RuleId::Tcgen05MmaScaleFactors). K-major only.
        const bool packed4 = ummaTypeBits(t) == 4;
        const uint32_t eb = packed4 ? 1 : ummaTypeBits(t) / 8;
        for (uint32_t r = 0; r < rows; ++r) {
            const UmmaRowHome h = isA ? ummaARow(op, r) : ummaBRow(op, r);
            const auto smem = m_state.smem[ctas[h.cta]].bytes();
            for (uint32_t k = 0; k < kCount; ++k) {
                const uint32_t addr =
                    elementAddress(desc, mnMajor ? MatrixMajor::MN : MatrixMajor::K,
                                   packed4 ? 8 : ummaTypeBits(t), h.row + rowShift, packed4 ? k / 2 : k);
                if (uint64_t(addr) + eb > smem.size())
                    return mmaError(RuleId::SmemDescriptorFields,
                                    std::string(isA ? "A[" : "B[") + std::to_string(r) + "][" +
                                        std::to_string(k) + "] is read at shared address " +
                                        std::to_string(addr) + ", past the end of shared memory");
                const uint32_t raw = readRaw(smem, addr, eb);
                out[size_t(r) * kCount + k] = ummaInputValue(t, packed4 ? raw >> (4 * (k % 2)) : raw);
            }
        }
        return okStatus();
    };
    if (op.aFromTmem) {
        const TmemAddr a0 = decodeTmemAddress(op.aTaddr);
        for (uint32_t m = 0; m < op.m; ++m)
            for (uint32_t k = 0; k < kA; ++k) {
                const UmmaDCell c = ummaATmemCell(op, m, k);
                if (!TensorMemory::inRange(a0.lane + c.lane, a0.column + c.column))
                    return mmaError(RuleId::Tcgen05MmaATmem,
                                    "A[" + std::to_string(m) + "][" + std::to_string(k) +
                                        "] would be read at lane " + std::to_string(a0.lane + c.lane) +
                                        ", column " + std::to_string(a0.column + c.column) +
                                        ": outside 128 lanes x 512 columns");
                const uint32_t cell = m_tmem.ctas[ctas[c.cta]].cell(a0.lane + c.lane, a0.column + c.column);
                const uint32_t raw = aBits == 32 ? cell : (cell >> ((k * aBits) % 32)) & ((1u << aBits) - 1);
                a[size_t(m) * kA + k] = ummaInputValue(op.a, raw);
            }
    } else if (Status s = fromSmem(op.descA, op.transA, op.a, op.m, true, a, kA, 0); !s) {
        return s;
    }
    // B: from .ws collector buffer N (::use, ::lastuse) or through b-desc (rows shifted by the mask's shift).
    Result<const UmmaCollectorBuffer*> kept = collectedB(op, cta);
    if (!kept) return kept.error();
    if (*kept)
        b = (*kept)->b;
    else if (Status s = fromSmem(op.descB, op.transB, op.b, op.n, false, b, K, zc.shift); !s)
        return s;
    std::vector<ByteMove> sfReads;
    std::vector<uint8_t> sfBytes;
    if (op.scaleVecSize) // .block_scale: each element times its block's scale factor (umma_scale_exec.cpp)
        if (Status s = applyScaleFactors(op, ctas, a, b, sfReads, sfBytes); !s) return s;
    if (op.sparse) // .sp: the dense A through the metadata (umma_ws_sp_exec.cpp); its reads recorded below
        if (Status s = expandSparseA(op, ctas, a, sfReads, sfBytes); !s) return s;
    updateCollector(op, cta, b); // .ws: fill keeps B as read; lastuse / discard drop the buffer
    for (uint32_t n = 0; n < zc.zero.size(); ++n)
        if (zc.zero[n]) std::fill(b.begin() + size_t(n) * K, b.begin() + size_t(n + 1) * K, 0.0);
    const double signA = op.negA ? -1.0 : 1.0, signB = op.negB ? -1.0 : 1.0;
    // D per CTA of the pair: cells[cta][lane * cols + column], and which lanes it writes.
    std::array<std::vector<uint32_t>, 2> cells{std::vector<uint32_t>(size_t(kTmemLanes) * cols),
                                               std::vector<uint32_t>(size_t(kTmemLanes) * cols)};
    std::array<std::vector<bool>, 2> used{std::vector<bool>(kTmemLanes), std::vector<bool>(kTmemLanes)};
    for (uint32_t m = 0; m < op.m; ++m)
        for (uint32_t n = 0; n < op.n; ++n) {
            double sum = 0;
            for (uint32_t k = 0; k < K; ++k) sum += a[size_t(m) * K + k] * b[size_t(n) * K + k];
            sum *= signA * signB;
            const UmmaDCell c = ummaDCell(shape, m, n);
            const uint32_t old = m_tmem.ctas[ctas[c.cta]].cell(d0.lane + c.lane, d0.column + c.column);
            cells[c.cta][size_t(c.lane) * cols + c.column] = accumulate(op, sum, old);
            used[c.cta][c.lane] = true;
        }
    TraceBuilder tb(m_trace);
    tb.beginInstr(src.text, src.line);
    if (!sfReads.empty()) recordBatch(tb, sfReads, sfBytes, true); // one step: scale factors / metadata read
    std::vector<ByteMove> ms;
    std::vector<uint8_t> buf;
    for (uint32_t lane = 0; lane < kTmemLanes;
         ++lane) { // one step per accumulator lane (both CTAs of a pair)
        ms.clear();
        buf.clear();
        for (uint32_t c = 0; c < op.ctaGroup; ++c) {
            if (!used[c][lane]) continue;
            ByteMove mv;
            mv.src = MemRef{MemSpace::None, static_cast<uint8_t>(ctas[c]), 0};
            mv.dst = MemRef{MemSpace::TensorMemory, static_cast<uint8_t>(ctas[c]),
                            tmemAddress(d0.lane + lane, d0.column)};
            mv.length = 4 * cols;
            mv.rule = RuleId::Tcgen05MmaValues;
            // coord: (D lane, CTA of the pair, D's UmmaType) — views decode the cells as D's type.
            mv.coord = {static_cast<int32_t>(lane), static_cast<int32_t>(c), static_cast<int32_t>(op.d), 0,
                        0};
            ms.push_back(mv);
            for (uint32_t col = 0; col < cols; ++col) {
                const uint32_t v = cells[c][size_t(lane) * cols + col];
                for (int byte = 0; byte < 4; ++byte) buf.push_back(static_cast<uint8_t>(v >> (8 * byte)));
            }
        }
        if (!ms.empty()) recordBatch(tb, ms, buf, true);
    }
    std::vector<RuleId> uses{RuleId::Tcgen05MmaDLayout, RuleId::Tcgen05MmaValues};
    if (op.aFromTmem) uses.push_back(RuleId::Tcgen05MmaATmem);
    if (op.ctaGroup == 2) uses.push_back(RuleId::Tcgen05MmaCtaPair);
    if (op.scaleVecSize) uses.push_back(RuleId::Tcgen05MmaScaleFactors);
    if (op.sparse) uses.push_back(RuleId::Tcgen05MmaSparse);
    if (op.ws) uses.push_back(RuleId::Tcgen05MmaWs);
    const std::string scaled = op.scaleVecSize == 0
                                   ? std::string()
                                   : ".block_scale (" + std::to_string(ummaScalesPerRow(op)) + " " +
                                         (op.sfFormat == UmmaScaleFormat::Ue8m0 ? "ue8m0" : "ue4m3") +
                                         " scale factors a row, one per " + std::to_string(op.scaleVecSize) +
                                         " elements of K; SFA at " + tmemText(op.sfaTaddr) + " byte " +
                                         std::to_string(op.sfaId) + ", SFB at " + tmemText(op.sfbTaddr) +
                                         " byte " + std::to_string(op.sfbId) + ")";
    endInstr(tb,
             "tcgen05.mma" + std::string(op.ws ? ".ws" : "") + (op.sparse ? ".sp." : ".") +
                 ummaKindName(op.kind) + scaled + " M=" + std::to_string(op.m) +
                 " N=" + std::to_string(op.n) + " K=" + std::to_string(K) + " (" + ummaTypeName(op.a) +
                 " x " + ummaTypeName(op.b) + " -> " + ummaTypeName(op.d) +
                 "): D = " + (op.scaleVecSize ? "(A*SFA)(B*SFB)" : "A*B") + (op.enableInputD ? " + D" : "") +
                 " into TMEM lane " + std::to_string(d0.lane) + ", columns " + std::to_string(d0.column) +
                 ".." + std::to_string(d0.column + cols - 1) + " (" + ummaDLayoutName(ummaDLayout(shape)) +
                 (op.ctaGroup == 2 ? ", both CTAs of the pair" : "") + ")" +
                 wsSpSummary(op, zc, *kept != nullptr) + "; accumulation order unverified",
             uses);
    return okStatus();
}

} // namespace layoutscope
