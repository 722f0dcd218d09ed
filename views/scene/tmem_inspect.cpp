#include "scene/tmem_inspect.hpp"

#include "layoutscope/core/number_formats.hpp"
#include "layoutscope/tcgen05/umma.hpp"
#include "scene/inspect.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>

namespace layoutscope::views {

static std::string hex(uint64_t v, int digits) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%0*llx", digits, static_cast<unsigned long long>(v));
    return b;
}
static std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

std::string openQuestionsOf(const char* reference) {
    if (!reference) return {};
    const char* p = std::strstr(reference, "open-questions.md");
    if (!p) p = std::strstr(reference, "open question");
    if (!p) return {};
    p = std::strpbrk(p, "0123456789");
    if (!p) return {};
    std::string nums;
    while (*p && (std::isdigit(static_cast<unsigned char>(*p)) || *p == ',' || *p == ' ')) nums += *p++;
    while (!nums.empty() && (nums.back() == ' ' || nums.back() == ',')) nums.pop_back();
    return (nums.find(',') != std::string::npos ? "open questions " : "open question ") + nums;
}

static std::string statusLine(RuleId id) {
    const RuleInfo& r = ruleInfo(id);
    if (r.provenance != Provenance::Assumption) return provenanceSentence(r.provenance);
    const std::string q = openQuestionsOf(r.reference);
    return q.empty() ? "unverified (assumption)" : "unverified (" + q + ")";
}

std::string decodeTmemValue(uint32_t v, Transform t) {
    std::ostringstream o;
    float f;
    std::memcpy(&f, &v, 4);
    o << "f32 " << num(f) << "; f16x2 (lo, hi) " << num(halfToFloat(uint16_t(v))) << ", "
      << num(halfToFloat(uint16_t(v >> 16))) << "\n         e4m3x4 (byte 0..3)";
    for (int b = 0; b < 4; ++b) o << " " << num(decodeNarrow(NarrowFormat::E4M3, (v >> (8 * b)) & 0xFF));
    if (t == Transform::Decompress4to8) {
        o << "\n         e2m1 containers (bits [5:2])";
        for (int b = 0; b < 4; ++b)
            o << " "
              << num(decodeNarrow(NarrowFormat::E2M1,
                                  codeOfContainer(NarrowFormat::E2M1, uint8_t(v >> (8 * b)))));
    } else if (t == Transform::Decompress6to8) {
        o << "\n         e2m3 containers (bits [5:0])";
        for (int b = 0; b < 4; ++b) o << " " << num(decodeNarrow(NarrowFormat::E2M3, (v >> (8 * b)) & 0x3F));
        o << "\n         e3m2 containers (bits [5:0])";
        for (int b = 0; b < 4; ++b) o << " " << num(decodeNarrow(NarrowFormat::E3M2, (v >> (8 * b)) & 0x3F));
    }
    return o.str();
}

/// A tcgen05.mma accumulator cell as its D type: s32, f32, or f16 in bits [0,16) (unverified, umma.hpp).
static std::string accumulatorValue(uint32_t v, UmmaType d) {
    std::ostringstream o;
    if (d == UmmaType::S32) {
        o << "s32 " << int32_t(v);
    } else if (d == UmmaType::F16) {
        o << "f16 " << num(halfToFloat(uint16_t(v))) << " (bits [0,16); unverified)";
    } else {
        float f;
        std::memcpy(&f, &v, 4);
        o << "f32 " << num(f);
    }
    o << " (tcgen05.mma accumulator D, " << ummaTypeName(d) << ")";
    return o.str();
}

static void moveLines(std::ostringstream& o, const Document& doc, const ByteMove& m, const TmemAddr& cell) {
    const Trace& t = doc.trace();
    if (m.src.space == MemSpace::Register) {
        const uint32_t th = uint32_t(m.src.addr >> 16), reg = uint32_t(m.src.addr & 0xFFFF) / 4;
        o << "source:  register r" << reg << " of thread " << th << " (warp " << th / 32 << ", %laneid "
          << th % 32 << ")";
        if (m.transform == Transform::Unpack16b)
            o << ", bits [" << m.coord[2] << "," << m.coord[2] + 16 << ")";
        o << "\n";
    } else if (m.src.space == MemSpace::SharedCta) {
        const TmemAddr d = decodeTmemAddress(uint32_t(m.dst.addr));
        const uint32_t byteInRow = m.coord[1] * 16 + (cell.column - d.column) * 4;
        o << "source:  smem " << hex(m.src.addr + (cell.column - d.column) * 4, 4) << " (cta "
          << int(m.src.cta) << "), source row " << m.coord[0] << ", bytes " << byteInRow << "-"
          << byteInRow + 3 << " of the row";
        if (m.coord[2] > 0) o << ", replica " << m.coord[2];
        o << "\n";
    } else if (m.src.space == MemSpace::TensorMemory) {
        const TmemAddr a = decodeTmemAddress(uint32_t(m.src.addr));
        o << "source:  TMEM lane " << a.lane << ", column "
          << a.column + (cell.column - decodeTmemAddress(uint32_t(m.dst.addr)).column) << "\n";
    }
    o << "moved:   step " << m.step << " of " << t.stepCount << ", " << transformName(m.transform) << "\n";
    if (m.instr < t.instrs.size()) o << "instr:   " << t.instrs[m.instr].text << "\n";
    const RuleInfo& r = ruleInfo(m.rule);
    o << "rule:    " << r.name << "\n";
    if (r.reference && *r.reference) o << "ref:     " << r.reference << "\n";
    o << "status:  " << statusLine(m.rule) << "\n";
    // Rules the whole instruction rests on that no single move names (e.g. warpx2 pairing under
    // decompression, the cp source walk): each with its status, so no assumption is hidden.
    if (m.instr < t.instrs.size())
        for (RuleId id : t.instrs[m.instr].alsoRules)
            o << "also:    " << ruleInfo(id).name << ": " << statusLine(id) << "\n";
}

std::string inspectTmemCell(const Document& doc, const TmemScene& s, const TmemState& tmem, uint32_t x,
                            uint32_t y) {
    const auto c = s.cellAt(x, y);
    if (!c) return {};
    std::ostringstream o;
    o << "tmem:    cta " << c->cta << ", lane " << c->lane << ", column " << c->column << "\n";
    o << "address: " << hex(tmemAddress(c->lane, c->column), 8) << "  (lane<<16 | column)\n";
    const uint32_t q = c->lane / 32;
    o << "quarter: lanes " << 32 * q << "-" << 32 * q + 31 << ": warps " << q << ", " << q + 4 << ", "
      << q + 8 << ", ... (warp id % 4 = " << q << ")\n";
    bool inAlloc = false;
    for (const TmemAllocBox& a : s.allocs) {
        if (a.cta != c->cta || c->column < a.column || c->column >= a.column + a.nCols) continue;
        o << "alloc:   columns " << a.column << "-" << a.column + a.nCols - 1 << " (" << a.nCols
          << " cols, taddr " << hex(a.taddr, 8) << ")\n";
        inAlloc = true;
    }
    if (!inAlloc && !s.allocs.empty()) o << "alloc:   not allocated\n";
    const int32_t mi = s.moveOf[size_t(y) * s.width() + x];
    const Transform tr = mi >= 0 ? doc.trace().moves[size_t(mi)].transform : Transform::Copy;
    if (c->cta < tmem.ctas.size()) {
        const uint32_t v = tmem.ctas[c->cta].cell(c->lane, c->column);
        const std::optional<ByteMove> mv =
            mi >= 0 ? std::optional<ByteMove>(doc.trace().moves[size_t(mi)]) : std::nullopt;
        if (mv && mv->rule == RuleId::Tcgen05MmaValues) // an accumulator cell: D's type (coord[2])
            o << "value:   " << hex(v, 8) << " = " << accumulatorValue(v, UmmaType(mv->coord[2])) << "\n";
        else
            o << "value:   " << hex(v, 8) << " = " << decodeTmemValue(v, tr) << "\n";
    }
    if (mi < 0) {
        o << "source:  not written by step " << s.step << "\n";
        return o.str();
    }
    moveLines(o, doc, doc.trace().moves[size_t(mi)], {c->lane, c->column});
    return o.str();
}

std::string inspectRegisterCell(const Document& doc, const RegScene& r, const TmemScene& s,
                                const TmemState& tmem, uint32_t x, uint32_t y) {
    if (!r.valid || x >= r.width() || y >= r.height()) return {};
    std::ostringstream o;
    const uint32_t warp = r.warps[y / 32], thread = 32 * warp + y % 32;
    o << "register: r" << x << " of thread " << thread << " (warp " << warp << ", %laneid " << y % 32
      << "), cta " << r.cta << "\n";
    o << "instr:   " << doc.trace().instrs[r.instr].text << "\n";
    const RegLink* l = r.linkAt(x, y);
    if (!l || l->computed) return o.str(); // wgmma D: no TMEM cell (reg_scene.hpp wgmmaRegisterText)
    o << (r.store ? "to:      " : "from:    ") << "TMEM lane " << l->tmem.lane << ", column "
      << l->tmem.column << " (" << hex(tmemAddress(l->tmem.lane, l->tmem.column), 8) << ", cta "
      << l->tmem.cta << ")\n";
    const ByteMove& m = doc.trace().moves[size_t(l->move)];
    if (s.step > m.step && l->tmem.cta < tmem.ctas.size()) {
        const uint32_t v = tmem.ctas[l->tmem.cta].cell(l->tmem.lane, l->tmem.column);
        o << "cell:    " << hex(v, 8) << " = " << decodeTmemValue(v, m.transform) << "\n";
    } else {
        o << "cell:    not moved yet at step " << s.step << " (moves at step " << m.step << ")\n";
    }
    const RuleInfo& ri = ruleInfo(m.rule);
    o << "rule:    " << ri.name << "\nstatus:  " << statusLine(m.rule) << "\n";
    return o.str();
}

} // namespace layoutscope::views
