#include "scene/reg_scene.hpp"

#include "layoutscope/analysis/fragment.hpp"
#include "layoutscope/core/number_formats.hpp"
#include "layoutscope/core/rules.hpp"
#include "layoutscope/tcgen05/tmem.hpp"
#include "scene/cell_style.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace layoutscope::views {

const RegLink* RegScene::linkAt(uint32_t x, uint32_t y) const {
    auto it = std::lower_bound(links.begin(), links.end(), std::pair{y, x},
                               [](const RegLink& l, std::pair<uint32_t, uint32_t> k) {
                                   return std::pair{l.y, l.x} < k;
                               });
    return it != links.end() && it->x == x && it->y == y ? &*it : nullptr;
}

std::optional<glm::uvec2> RegScene::registerOf(TmemCellRef c) const {
    for (const RegLink& l : links)
        if (!l.computed && l.tmem == c) return glm::uvec2(l.x, l.y);
    return std::nullopt;
}

static bool isRegisterInstr(const Trace& t, uint32_t instr) {
    const TraceInstr& in = t.instrs[instr];
    if (in.endStep <= in.firstStep) return false;
    const ByteMove& m = t.moves[t.movesOfStep(in.firstStep).first];
    if (m.instr != instr) return false;
    if (m.rule == RuleId::WgmmaValues) return true; // a wgmma's D, computed into registers
    // tcgen05.st / ld: registers <-> Tensor Memory (a recorded kernel's `poke` stores from registers to
    // shared or global memory are no register instruction of this view)
    return (m.src.space == MemSpace::Register && m.dst.space == MemSpace::TensorMemory) ||
           (m.src.space == MemSpace::TensorMemory && m.dst.space == MemSpace::Register);
}

std::vector<uint32_t> registerInstrs(const Document& doc) {
    std::vector<uint32_t> out;
    if (!doc.hasTrace()) return out;
    const Trace& t = doc.trace();
    for (uint32_t i = 0; i < t.instrs.size(); ++i)
        if (isRegisterInstr(t, i)) out.push_back(i);
    return out;
}

std::optional<uint32_t> regInstrAt(const Trace& t, const std::vector<uint32_t>& regInstrs, uint32_t step) {
    if (regInstrs.empty()) return std::nullopt;
    // Instructions start in trace order (firstStep never decreases): the ones with firstStep < step
    // are a prefix of the list.
    const auto end = std::partition_point(regInstrs.begin(), regInstrs.end(),
                                          [&](uint32_t i) { return t.instrs[i].firstStep < step; });
    return end == regInstrs.begin() ? regInstrs.front() : *(end - 1);
}

std::optional<uint32_t> regInstrAt(const Document& doc, uint32_t step) {
    if (!doc.hasTrace()) return std::nullopt;
    return regInstrAt(doc.trace(), registerInstrs(doc), step);
}

RegScene regSceneAt(const Document& doc, uint32_t instr, uint32_t step, const TmemScene& tmem) {
    RegScene r;
    if (!doc.hasTrace() || instr >= doc.trace().instrs.size() || !isRegisterInstr(doc.trace(), instr))
        return r;
    const Trace& t = doc.trace();
    const TraceInstr& in = t.instrs[instr];
    const size_t lo = t.movesOfStep(in.firstStep).first, hi = t.movesOfStep(in.endStep - 1).second;
    r.valid = true;
    r.instr = instr;
    r.store = t.moves[lo].src.space == MemSpace::Register;
    r.wgmma = t.moves[lo].rule == RuleId::WgmmaValues; // D computed into registers: no TMEM side
    r.regCount = registerCountOf(doc, instr);
    int dCols = 256; // wgmma: N of m64nNk16 (the colour scale of D's columns)
    if (const Scenario* sc = doc.scenario();
        r.wgmma && sc && instr < sc->instrs.size() && sc->instrs[instr].wgmma)
        dCols = int(sc->instrs[instr].wgmma->n);
    for (size_t i = lo; i < hi; ++i) {
        const ByteMove mv = t.moves[i];
        const MemRef reg = r.store ? mv.src : mv.dst;
        r.cta = reg.cta;
        const uint32_t warp = uint32_t(reg.addr >> 16) / 32;
        if (std::find(r.warps.begin(), r.warps.end(), warp) == r.warps.end()) r.warps.push_back(warp);
    }
    std::sort(r.warps.begin(), r.warps.end());
    r.texels.assign(size_t(r.width()) * r.height(), Rgba8{kUntouched.r, kUntouched.g, kUntouched.b, 0});
    std::vector<bool> linked(r.texels.size(), false);
    for (size_t i = lo; i < hi; ++i) {
        const ByteMove& m = t.moves[i];
        const MemRef& reg = r.store ? m.src : m.dst;
        const MemRef& cell = r.store ? m.dst : m.src;
        const uint32_t thread = uint32_t(reg.addr >> 16), j = uint32_t(reg.addr & 0xFFFF) / 4;
        const uint32_t row =
            uint32_t(std::find(r.warps.begin(), r.warps.end(), thread / 32) - r.warps.begin());
        const uint32_t x = j, y = 32 * row + thread % 32;
        if (x >= r.width() || y >= r.height()) continue;
        const TmemAddr a = decodeTmemAddress(uint32_t(cell.addr));
        const TmemCellRef ref{cell.cta, a.lane, a.column};
        // First move of a register wins (pack::16b: the cell of the low half).
        if (!linked[size_t(y) * r.width() + x]) {
            linked[size_t(y) * r.width() + x] = true;
            r.links.push_back({x, y, r.wgmma ? TmemCellRef{} : ref, static_cast<int32_t>(i), r.wgmma});
        }
        const bool done = step > m.step, now = step > 0 && m.step + 1 == step;
        Rgba8 col = registerColour(thread % 32, j, r.regCount);
        if (r.wgmma) { // D: the colour of its element (row, column), coord[0] and coord[1] of the move
            col = colourForCoord(m.coord[0], m.coord[1], 64, dCols);
        } else if (!r.store) { // a load: the colour of the TMEM cell it reads
            const auto g = tmem.gridOf(ref);
            col = g ? tmem.texels[size_t(g->y) * tmem.width() + g->x] : Rgba8{200, 200, 200, 255};
        }
        if (!done) { // not reached yet: dim (a store's registers already hold their values)
            if (!r.store) col = kUntouched;
            col = Rgba8{uint8_t(col.r * 0.35f + 20), uint8_t(col.g * 0.35f + 20), uint8_t(col.b * 0.35f + 20),
                        255};
        }
        col.a = uint8_t((done ? kFlagWritten : 0) | (now ? kFlagCurrent : 0));
        r.texels[size_t(y) * r.width() + x] = col;
    }
    std::sort(r.links.begin(), r.links.end(), [](const RegLink& a, const RegLink& b) {
        return std::pair{a.y, a.x} < std::pair{b.y, b.x};
    });
    return r;
}

std::map<uint32_t, FragmentExpectation> fragmentExpectations(const Document& doc) {
    std::map<uint32_t, FragmentExpectation> out;
    const Scenario* sc = doc.hasTrace() ? doc.scenario() : nullptr;
    if (!sc) return out;
    for (size_t i = 0; i < sc->instrs.size(); ++i) // trace instruction i is scenario instruction i
        if (sc->instrs[i].expectFragment) out.emplace(uint32_t(i), *sc->instrs[i].expectFragment);
    return out;
}

void markFragment(const Document& doc, const std::map<uint32_t, FragmentExpectation>& expect, RegScene& r) {
    r.fragmentDiffers = 0;
    r.fragmentRegs = 0;
    r.fragmentShape.clear();
    const auto it = expect.find(r.instr);
    if (!r.valid || r.store || it == expect.end() || r.instr >= doc.trace().instrs.size()) return;
    const auto form = parseLdSt(doc.trace().instrs[r.instr].text);
    if (!form) return;
    r.fragmentShape = ldStShapeName(it->second.shape);
    const auto diff = fragmentDiff(*form, it->second);
    if (!diff) return; // the run's diagnostic says why no such fragment exists
    // Vector position j is the register the instruction names there ({%r16, ...}: column 16), as the
    // view's columns are register numbers.
    const std::string& text = doc.trace().instrs[r.instr].text;
    std::vector<uint32_t> named;
    const size_t open = text.find('{'), close = text.find('}', open);
    for (size_t i = open; open != std::string::npos && i < close; ++i)
        if (std::isdigit(static_cast<unsigned char>(text[i])) &&
            (text[i - 1] == 'r' || !std::isdigit(static_cast<unsigned char>(text[i - 1])))) {
            named.push_back(uint32_t(std::strtoul(text.c_str() + i, nullptr, 10)));
            while (i + 1 < close && std::isdigit(static_cast<unsigned char>(text[i + 1]))) ++i;
        }
    if (named.size() != diff->regs) return; // not the vector the load was parsed with
    r.fragmentRegs = r.height() * diff->regs;
    for (uint32_t y = 0; y < r.height(); ++y)
        for (uint32_t j = 0; j < diff->regs; ++j)
            if (diff->differs[size_t(y % 32) * diff->regs + j] && named[j] < r.width()) {
                r.texels[size_t(y) * r.width() + named[j]].a |= kFlagDiffers;
                ++r.fragmentDiffers;
            }
}

void markWgmmaD(const std::vector<MmaDCheck>& checks, RegScene& r) {
    r.dDiffers = 0;
    r.dRegs = 0;
    if (!r.valid || !r.wgmma) return;
    for (const MmaDCheck& c : checks) {
        if (c.instr != r.instr || !c.skipped.empty()) continue;
        std::vector<bool> seen(r.texels.size(), false); // .f16: two elements a register, counted once
        for (const MmaDValue& v : c.cells) {
            const auto w = std::find(r.warps.begin(), r.warps.end(), v.thread / 32);
            if (w == r.warps.end()) continue;
            const uint32_t x = v.reg, y = 32 * uint32_t(w - r.warps.begin()) + v.thread % 32;
            if (x >= r.width() || y >= r.height()) continue;
            const size_t k = size_t(y) * r.width() + x;
            r.dRegs += seen[k] ? 0 : 1;
            seen[k] = true;
            if (!v.ok() && !(r.texels[k].a & kFlagDiffers)) {
                r.texels[k].a |= kFlagDiffers;
                ++r.dDiffers;
            }
        }
    }
}

static std::string wgmmaValueText(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.7g", v);
    return b;
}

std::string wgmmaRegisterText(const Document& doc, const RegScene& r, const std::vector<MmaDCheck>& checks,
                              uint32_t x, uint32_t y) {
    if (!r.valid || !r.wgmma || x >= r.width() || y >= r.height()) return {};
    std::ostringstream o;
    const uint32_t warp = r.warps[y / 32], thread = 32 * warp + y % 32;
    o << "register: r" << x << " of thread " << thread << " (warp " << warp << ", %laneid " << y % 32
      << "), cta " << r.cta << "\n";
    o << "instr:   " << doc.trace().instrs[r.instr].text << "\n";
    const RegLink* l = r.linkAt(x, y);
    if (!l) return o.str() + "D:       not in this wgmma's {d...}\n";
    const ByteMove m = doc.trace().moves[size_t(l->move)];
    const bool f16 = m.coord[2] == 16;
    // coord: D's (m, n) in bits [0,16) (.f16) or the whole register (.f32); .f16 holds (m, n + 1) above.
    o << "holds:   D[" << m.coord[0] << "][" << m.coord[1] << "]"
      << (f16 ? " in bits [0,16), D[" + std::to_string(m.coord[0]) + "][" + std::to_string(m.coord[1] + 1) +
                    "] in bits [16,32) (.f16)"
              : std::string(" (.f32)"))
      << "\n";
    if (!(r.texels[size_t(y) * r.width() + x].a & kFlagWritten)) {
        o << "value:   not written yet (the wgmma writes it at step " << m.step << ")\n";
    } else {
        const MoveBytes b = doc.trace().afterBytes(m);
        uint32_t v = 0;
        for (size_t i = 0; i < 4 && i < b.size(); ++i) v |= uint32_t(b[i]) << (8 * i);
        char h[16];
        std::snprintf(h, sizeof h, "0x%08x", v);
        o << "value:   " << h << " = "
          << (f16 ? wgmmaValueText(decodeF16(uint16_t(v))) + ", " +
                        wgmmaValueText(decodeF16(uint16_t(v >> 16)))
                  : wgmmaValueText(decodeF32(v)))
          << "\n";
    }
    for (const MmaDCheck& c : checks) { // the value check of this wgmma (the last into these registers)
        if (c.instr != r.instr || !c.skipped.empty()) continue;
        for (const MmaDValue& v : c.cells)
            if (v.thread == thread && v.reg == x)
                o << "check:   D[" << v.m << "][" << v.n << "] " << (v.ok() ? "= " : "differs: ")
                  << wgmmaValueText(v.expected) << ", the product of the tiles (error "
                  << wgmmaValueText(v.error()) << ", tolerance " << wgmmaValueText(v.tolerance) << ")\n";
    }
    o << "rule:    " << ruleInfo(RuleId::WgmmaDFragment).name << " (PTX ISA §9.7.15.5.1.1); "
      << ruleInfo(RuleId::WgmmaValues).name << ": unverified (accumulation order)\n";
    return o.str();
}

} // namespace layoutscope::views
