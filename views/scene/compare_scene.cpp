#include "scene/compare_scene.hpp"

#include "layoutscope/tcgen05/exec.hpp"
#include "scene/selection.hpp"

#include <algorithm>
#include <memory>

namespace layoutscope::views {

ElementKey elementKeyOf(const Document& doc, const ByteMove& m, uint32_t byteInMove) {
    ElementKey k;
    const InstrTile* tile = doc.tileOf(m.instr);
    if (tile && tile->valid) { // a TMA copy: the tensor element, fills included
        const uint32_t eb = doc.elemBytesOf(m.instr);
        k.space = MemSpace::Global;
        k.addr = tile->map.p.globalAddress;
        k.coord = coordOfByte(m, byteInMove, eb);
        k.byte = byteInMove % std::max<uint32_t>(1, eb);
        return k;
    }
    if (const auto loc = locOf(m.src, srcByteOf(m, byteInMove))) {
        k.space = loc->space;
        k.cta = loc->cta;
        k.addr = loc->key;
    } else { // a fill without a tile: the move and byte
        k.space = MemSpace::Fill;
        k.addr = uint64_t(m.instr) << 32 | byteInMove;
    }
    return k;
}

SmemContent smemContentOf(const Document& doc, const SmemScene& s) {
    SmemContent c;
    c.window = s.window;
    c.keys.assign(s.window.size, std::nullopt);
    c.bytes.assign(s.window.size, 0);
    if (!doc.hasTrace()) return c;
    const Trace& t = doc.trace();
    for (uint32_t i = 0; i < s.window.size && i < s.moveOf.size(); ++i) {
        if (s.moveOf[i] < 0) continue;
        const ByteMove m = t.moves[size_t(s.moveOf[i])];
        const MemRef& r = (m.dst.space == MemSpace::SharedCta && m.dst.cta == s.window.cta) ? m.dst : m.src;
        c.keys[i] = elementKeyOf(doc, m, s.window.base + i - uint32_t(r.addr));
    }
    Replay replay(t, doc.initial());
    replay.seek(std::min(s.step, t.stepCount));
    if (s.window.cta < replay.state().smem.size()) {
        const auto bytes = replay.state().smem[s.window.cta].bytes();
        for (uint32_t i = 0; i < s.window.size && s.window.base + i < bytes.size(); ++i)
            c.bytes[i] = bytes[s.window.base + i];
    }
    return c;
}

TmemContent tmemContentOf(const Document& doc, uint32_t step, const SmemContent& smem) {
    TmemContent c;
    if (!doc.hasTrace()) return c;
    const TmemScene s = tmemSceneAt(doc, step, smem.window.cta);
    const size_t n = s.moveOf.size();
    c.firstCta = s.firstCta;
    c.ctaCount = s.ctaCount;
    c.width = s.width();
    c.cells.assign(n, std::nullopt);
    c.keys.assign(n, std::nullopt);
    c.values.assign(n, 0);
    TmemReplay replay(doc.trace(), doc.run().tmemInitial);
    replay.seek(std::min(step, doc.trace().stepCount));
    for (uint32_t y = 0; y < s.height(); ++y)
        for (uint32_t x = 0; x < s.width(); ++x) {
            const size_t i = size_t(y) * s.width() + x;
            const auto cell = s.cellAt(x, y);
            if (!cell) continue;
            c.cells[i] = cell;
            if (cell->cta < replay.state().ctas.size())
                c.values[i] = replay.state().ctas[cell->cta].cell(cell->lane, cell->column);
            if (s.moveOf[i] < 0) continue;
            const ByteMove m = doc.trace().moves[size_t(s.moveOf[i])];
            const uint32_t dstByte = 4 * (cell->column - uint32_t(m.dst.addr & 0xFFFF));
            ElementKey k = elementKeyOf(doc, m, dstByte);
            if (m.src.space == MemSpace::SharedCta && m.src.cta == smem.window.cta) {
                const uint64_t a = m.src.addr + srcByteOf(m, dstByte);
                if (a >= smem.window.base && a < uint64_t(smem.window.base) + smem.window.size &&
                    smem.keys[size_t(a - smem.window.base)])
                    k = *smem.keys[size_t(a - smem.window.base)];
            }
            c.keys[i] = k;
        }
    return c;
}

std::vector<bool> differingTmemCells(const TmemContent& ref, const TmemContent& other) {
    std::vector<bool> out(other.cells.size(), false);
    for (size_t i = 0; i < other.cells.size(); ++i) {
        if (!other.cells[i]) continue;
        const TmemCellRef c = *other.cells[i];
        // The same TMEM cell in ref's grid (tmem_scene.hpp: CTA k of the pair at x = k * (512 + gap)).
        std::optional<size_t> j;
        if (c.cta >= ref.firstCta && c.cta < ref.firstCta + ref.ctaCount)
            j = size_t(c.lane) * ref.width + (c.cta - ref.firstCta) * (512 + kTmemPairGap) + c.column;
        if (!j || *j >= ref.keys.size()) {
            out[i] = other.keys[i].has_value();
            continue;
        }
        const auto& a = ref.keys[*j];
        const auto& b = other.keys[i];
        out[i] = a.has_value() != b.has_value() || (a && (*a != *b || ref.values[*j] != other.values[i]));
    }
    return out;
}

std::vector<uint32_t> cellsOfElement(const SmemContent& c, const ElementKey& k) {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < c.keys.size(); ++i)
        if (c.keys[i] && c.keys[i]->sameElement(k)) out.push_back(i);
    return out;
}

std::vector<bool> differingCells(const SmemContent& ref, const SmemContent& other) {
    std::vector<bool> out(other.keys.size(), false);
    for (uint32_t i = 0; i < other.keys.size(); ++i) {
        const uint64_t addr = uint64_t(other.window.base) + i;
        const bool inRef = addr >= ref.window.base && addr < uint64_t(ref.window.base) + ref.window.size;
        if (!inRef) {
            out[i] = other.keys[i].has_value();
            continue;
        }
        const size_t j = size_t(addr - ref.window.base);
        const auto& a = ref.keys[j];
        const auto& b = other.keys[i];
        if (a.has_value() != b.has_value())
            out[i] = true;
        else if (a && (*a != *b || ref.bytes[j] != other.bytes[i]))
            out[i] = true;
    }
    return out;
}

uint32_t compareStepOf(const Document& doc, CompareSync sync, uint32_t pos) {
    if (!doc.hasTrace()) return 0;
    const Trace& t = doc.trace();
    if (sync == CompareSync::Step) return std::min(pos, t.stepCount);
    if (pos == 0 || t.instrs.empty()) return 0;
    return std::min(t.instrs[std::min<size_t>(pos, t.instrs.size()) - 1].endStep, t.stepCount);
}

uint32_t compareLastPosition(const std::vector<const Document*>& docs, CompareSync sync) {
    uint32_t last = 0;
    for (const Document* d : docs)
        if (d && d->hasTrace())
            last = std::max(last, sync == CompareSync::Step ? d->trace().stepCount
                                                            : uint32_t(d->trace().instrs.size()));
    return last;
}

std::vector<std::vector<BoxFrame>> compareFrames(const std::vector<const Document*>& docs) {
    std::vector<std::vector<BoxFrame>> out(docs.size());
    std::optional<BoxFrame> all;
    for (size_t d = 0; d < docs.size(); ++d) {
        if (!docs[d] || !docs[d]->hasTrace()) continue;
        out[d] = boxFrames(*docs[d]);
        for (uint32_t i = 0; i < out[d].size(); ++i) {
            const InstrTile* t = docs[d]->tileOf(i);
            if (!t || !t->valid || docs[d]->trace().instrs[i].firstMove == docs[d]->trace().instrs[i].endMove)
                continue;
            const BoxFrame& f = out[d][i];
            if (!all) {
                all = f;
                continue;
            }
            for (size_t k = 0; k < 2; ++k) {
                all->lo[k] = std::min(all->lo[k], f.lo[k]);
                all->hi[k] = std::max(all->hi[k], f.hi[k]);
            }
        }
    }
    if (!all) return out;
    for (size_t d = 0; d < docs.size(); ++d)
        for (uint32_t i = 0; i < out[d].size(); ++i)
            if (const InstrTile* t = docs[d]->tileOf(i); t && t->valid) out[d][i] = *all;
    return out;
}

namespace {

/// `fn`'s overlay drawn below a header band with `title`, plus `extra` items (pane pixels).
ViewPane withHeader(ViewPane p, std::string title, bool diffLegend, size_t differCount, bool reference,
                    std::string unit = "B") {
    p.margins.y += kCompareHeader;
    if (diffLegend) p.margins.w += 20.0f;
    if (p.marginsFn) // the base pane's margins at its size (under the header), then the header and the line
        p.marginsFn = [fn = p.marginsFn, diffLegend](glm::vec2 vp) {
            glm::vec4 m = fn({vp.x, vp.y - kCompareHeader});
            m.y += kCompareHeader;
            if (diffLegend) m.w += 20.0f;
            return m;
        };
    auto base = std::move(p.overlay);
    const auto marginsFn = p.marginsFn;
    const float fixedLegendY = p.margins.w - 6.0f; // from the bottom: just under the grid
    p.overlay = [base, title, diffLegend, differCount, reference, unit, fixedLegendY,
                 marginsFn](const Camera2D& cam, glm::vec2 vp) {
        const float legendY = marginsFn ? marginsFn(vp).w - 6.0f : fixedLegendY;
        OverlayList o;
        if (base) {
            Camera2D shifted = cam;
            shifted.pan({0.0f, -kCompareHeader});
            o = base(shifted, {vp.x, vp.y - kCompareHeader});
            for (auto& r : o.rects) r.lo.y += kCompareHeader, r.hi.y += kCompareHeader;
            for (auto& l : o.lines)
                l.a.y += kCompareHeader, l.b.y += kCompareHeader, l.c1.y += kCompareHeader,
                    l.c2.y += kCompareHeader;
            for (auto& t : o.texts) t.pos.y += kCompareHeader;
        }
        o.rects.push_back({{0, 0}, {vp.x, kCompareHeader - 2}, Rgba8{40, 44, 56, 255}, true});
        std::rotate(o.rects.begin(), o.rects.end() - 1, o.rects.end()); // the band under everything
        o.text({8, 3}, title, Rgba8{255, 214, 90, 255});
        if (diffLegend) {
            const float y = vp.y - legendY;
            o.rects.push_back({{10, y}, {24, y + 14}, kDiffColour, true});
            o.rects.push_back({{10, y}, {24, y + 14}, Rgba8{0, 0, 0, 255}, false});
            // Shortened to the pane (4 columns at 1280x800 cut "differs from another pane here: 16384 B");
            // the README and the inspector say what "differs" means.
            const std::string what = reference ? "differs from another pane" : "differs from pane 1";
            const std::string n = std::to_string(differCount) + " " + unit;
            o.text({29, y}, fitLabel({what + " here: " + n, what + ": " + n, "differs: " + n}, vp.x - 33),
                   Rgba8{220, 220, 225, 255});
        }
        return o;
    };
    return p;
}

} // namespace

std::vector<ComparePanes> comparePanesAt(const std::vector<const Document*>& docs,
                                         const std::vector<std::string>& names,
                                         const std::vector<std::vector<BoxFrame>>& frames, CompareSync sync,
                                         uint32_t pos) {
    std::vector<ComparePanes> out(docs.size());
    for (size_t d = 0; d < docs.size(); ++d) {
        ComparePanes& cp = out[d];
        cp.name = d < names.size() ? names[d] : "scenario " + std::to_string(d + 1);
        const Document& doc = *docs[d];
        cp.step = compareStepOf(doc, sync, pos);
        ViewOptions opt;
        opt.frames = d < frames.size() && doc.hasTrace() ? &frames[d] : nullptr;
        ViewPaneResult s = buildViewPane(doc, ExportView::Smem, cp.step, opt);
        if (!s.pane) {
            cp.error = s.error;
            continue;
        }
        cp.smem = std::move(s.pane);
        cp.content =
            smemContentOf(doc, smemSceneAt(doc, cp.step, opt.frames ? *opt.frames : boxFrames(doc), 0));
        if (hasTmemMoves(doc))
            if (ViewPaneResult t = buildViewPane(doc, ExportView::Tmem, cp.step, opt); t.pane) {
                cp.tmem = std::move(t.pane);
                cp.tmemContent = tmemContentOf(doc, cp.step, cp.content);
            }
    }
    // Differences: pane k against pane 1; pane 1's cells that differ from any other pane.
    if (!out.empty() && out[0].smem) {
        out[0].differs.assign(out[0].content.keys.size(), false);
        for (size_t d = 1; d < out.size(); ++d) {
            if (!out[d].smem) continue;
            out[d].differs = differingCells(out[0].content, out[d].content);
            const auto back = differingCells(out[d].content, out[0].content);
            for (size_t i = 0; i < back.size(); ++i)
                if (back[i]) out[0].differs[i] = true;
        }
    }
    if (!out.empty() && out[0].tmem) { // Tensor Memory: the same, cell by cell
        out[0].tmemDiffers.assign(out[0].tmemContent.cells.size(), false);
        for (size_t d = 1; d < out.size(); ++d) {
            if (!out[d].tmem) continue;
            out[d].tmemDiffers = differingTmemCells(out[0].tmemContent, out[d].tmemContent);
            const auto back = differingTmemCells(out[d].tmemContent, out[0].tmemContent);
            for (size_t i = 0; i < back.size(); ++i)
                if (back[i]) out[0].tmemDiffers[i] = true;
        }
    }
    for (size_t d = 0; d < out.size(); ++d) {
        ComparePanes& cp = out[d];
        if (!cp.smem) continue;
        for (size_t i = 0; i < cp.differs.size() && i < cp.smem->texels.size(); ++i)
            if (cp.differs[i]) {
                cp.smem->texels[i].a |= kFlagDiffers;
                ++cp.differCount;
            }
        const bool marks = out.size() > 1 && out[0].smem;
        cp.smem = withHeader(std::move(*cp.smem), std::to_string(d + 1) + ": " + cp.name, marks,
                             cp.differCount, d == 0);
        if (cp.tmem) {
            for (size_t i = 0; i < cp.tmemDiffers.size() && i < cp.tmem->texels.size(); ++i)
                if (cp.tmemDiffers[i]) {
                    cp.tmem->texels[i].a |= kFlagDiffers;
                    ++cp.tmemDifferCount;
                }
            const bool tmemMarks = out.size() > 1 && out[0].tmem;
            cp.tmem =
                withHeader(std::move(*cp.tmem), std::to_string(d + 1) + ": " + cp.name + " (Tensor Memory)",
                           tmemMarks, cp.tmemDifferCount, d == 0, "cells");
        }
    }
    return out;
}

std::vector<const Document*> CompareSet::documents() const {
    std::vector<const Document*> out;
    for (const auto& d : docs) out.push_back(d.get());
    return out;
}

CompareSet loadCompareSet(const std::vector<std::string>& paths) {
    CompareSet set;
    bool allRun = true;
    for (const std::string& p : paths) {
        set.docs.push_back(Document::fromFile(p));
        set.names.push_back(p.substr(p.find_last_of('/') + 1));
        auto col = metricColumnOfFile(p);
        if (!col) {
            allRun = false;
            for (const Diagnostic& d : col.diagnostics()) set.errors.push_back(formatDiagnostic(d, p));
            continue;
        }
        set.columns.push_back(std::move(*col));
    }
    if (!allRun) set.columns.clear();
    return set;
}

} // namespace layoutscope::views
