#include "scene/tmem_expected.hpp"

#include "layoutscope/analysis/operand_grid.hpp"
#include "layoutscope/core/coord_text.hpp"
#include "layoutscope/tcgen05/tmem.hpp"

#include <sstream>
#include <unordered_set>

namespace layoutscope::views {

const TmemWrongCell* TmemExpectations::at(size_t move, uint32_t cell) const {
    const auto it = cells.find(uint64_t(move) << 8 | (cell & 0xFF));
    return it == cells.end() ? nullptr : &it->second;
}

/// Source byte of destination byte `dstByte` of a cp move: decompression reads 4 or 6 bits per byte
/// (as the TMEM scene colours them).
static uint32_t sourceByteOf(const ByteMove& m, uint32_t dstByte) {
    return m.transform == Transform::Decompress4to8   ? dstByte / 2
           : m.transform == Transform::Decompress6to8 ? dstByte * 6 / 8
                                                      : dstByte;
}

TmemExpectations tmemExpectations(const Document& doc, size_t maxCps) {
    TmemExpectations e;
    const Scenario* sc = doc.hasTrace() ? doc.scenario() : nullptr; // parsed once, with the run
    if (!sc || doc.text().find("tcgen05.cp") == std::string::npos) return e;
    const Trace& t = doc.trace();
    size_t cps = 0;
    for (const ConsumerOperandRef& ref : consumerOperands(*sc)) {
        const ScenarioInstr& in = sc->instrs[ref.instr];
        if (in.text.rfind("tcgen05.cp", 0) != 0 || ref.instr >= t.instrs.size()) continue;
        if (++cps > maxCps) { // each grid replays the trace up to its cp: bounded, and counted
            ++e.unchecked;
            continue;
        }
        const auto g = operandGrid(*sc, doc.run(), ref);
        if (!g || !g->checked || g->mismatched == 0) continue;
        // The mismatched chunks by address (16-byte aligned reads of the source rows).
        std::unordered_map<uint32_t, const OperandCell*> bad;
        for (const OperandCell& c : g->cells)
            if (c.mismatch) bad.emplace(c.addr / 16, &c);
        const uint32_t instr = uint32_t(ref.instr);
        e.chunksByInstr[instr] = g->mismatched;
        const uint32_t eb = std::max<uint32_t>(1, g->elemBytes);
        const uint32_t producerLine = sc->instrs[g->producerInstr].span.line;
        const TraceInstr& ti = t.instrs[ref.instr];
        for (uint64_t i = ti.firstMove; i < ti.endMove && i < t.moves.size(); ++i) {
            const ByteMove& m = t.moves[i];
            if (m.src.space != MemSpace::SharedCta || m.dst.space != MemSpace::TensorMemory ||
                m.src.cta != g->cta)
                continue;
            for (uint32_t c = 0; c < (m.length + 3) / 4 && c < 256; ++c) {
                const uint32_t src = uint32_t(m.src.addr) + sourceByteOf(m, 4 * c);
                const auto it = bad.find(src / 16);
                if (it == bad.end() || src < it->second->addr || src >= it->second->addr + it->second->bytes)
                    continue;
                const OperandCell& oc = *it->second;
                TmemWrongCell w;
                w.instr = instr;
                w.m = oc.m;
                w.chunk = oc.col;
                w.byteInChunk = src - oc.addr;
                w.srcAddr = src;
                // The cell's first element: o elements into the chunk, along K for the expectation (dim 0
                // unless an `expect` put m there) and along dim 0 for what TMA wrote (a 16-byte chunk of a
                // box row).
                const int64_t o = w.byteInChunk / eb;
                w.expected = g->mnAlongDim0 ? std::array<int64_t, 2>{oc.expected[0], oc.expected[1] + o}
                                            : std::array<int64_t, 2>{oc.expected[0] + o, oc.expected[1]};
                if (oc.actual) w.actual = std::array<int64_t, 2>{(*oc.actual)[0] + o, (*oc.actual)[1]};
                w.tensor = g->tensor;
                w.producerLine = producerLine;
                w.line = in.span.line;
                e.cells.emplace(i << 8 | c, std::move(w));
            }
        }
    }
    return e;
}

/// The move index and cell within it that last wrote grid cell k of `s`, if a cp move did.
static std::optional<std::pair<size_t, uint32_t>> moveCellOf(const Document& doc, const TmemScene& s,
                                                             size_t k) {
    const int32_t mi = s.moveOf[k];
    if (mi < 0) return std::nullopt;
    const ByteMove& m = doc.trace().moves[size_t(mi)];
    const auto cell = s.cellAt(uint32_t(k % s.width()), uint32_t(k / s.width()));
    if (!cell || m.src.space != MemSpace::SharedCta) return std::nullopt;
    const uint32_t col0 = decodeTmemAddress(uint32_t(m.dst.addr)).column;
    if (cell->column < col0) return std::nullopt;
    return std::pair{size_t(mi), cell->column - col0};
}

void markExpectedTmem(const Document& doc, const TmemExpectations& e, TmemScene& s) {
    s.expectedMarked = 0;
    s.expectedChunks = 0;
    s.expectedUnchecked = e.unchecked;
    if (e.empty() || !doc.hasTrace() || s.moveOf.size() != s.texels.size()) return;
    std::unordered_set<uint64_t> chunks;
    for (size_t k = 0; k < s.texels.size(); ++k) {
        const auto mc = moveCellOf(doc, s, k);
        if (!mc) continue;
        const TmemWrongCell* w = e.at(mc->first, mc->second);
        if (!w) continue;
        s.texels[k].a |= kFlagDiffers;
        ++s.expectedMarked;
        chunks.insert(uint64_t(w->instr) << 32 | uint64_t(w->m) << 8 | w->chunk);
    }
    s.expectedChunks = chunks.size();
}

const TmemWrongCell* expectedCellAt(const Document& doc, const TmemExpectations& e, const TmemScene& s,
                                    uint32_t x, uint32_t y) {
    if (e.empty() || !doc.hasTrace() || x >= s.width() || y >= s.height()) return nullptr;
    const size_t k = size_t(y) * s.width() + x;
    if (k >= s.moveOf.size()) return nullptr;
    const auto mc = moveCellOf(doc, s, k);
    return mc ? e.at(mc->first, mc->second) : nullptr;
}

static std::string coordText(const std::array<int64_t, 2>& c) {
    return elementCoordText(c); // "(x=0, y=1)", dimension 0 first (core/coord_text.hpp)
}

std::string expectedCellText(const TmemWrongCell& c) {
    std::ostringstream o;
    o << "check:   holds another element than the tile: expected global " << coordText(c.expected)
      << ", holds " << (c.actual ? coordText(*c.actual) : std::string("bytes no TMA load wrote")) << "\n";
    o << "         the tcgen05.cp at line " << c.line << " reads source row " << c.m << ", chunk " << c.chunk
      << " (byte " << c.byteInChunk << " of it at smem 0x" << std::hex << c.srcAddr << std::dec << ") from "
      << c.tensor << "'s tile (TMA load at line " << c.producerLine << ")\n";
    return o.str();
}

} // namespace layoutscope::views
