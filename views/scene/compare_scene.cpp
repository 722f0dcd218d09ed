#include "scene/compare_scene.hpp"

#include "layoutscope/tcgen05/exec.hpp"
#include "scene/mark_badge.hpp"
#include "scene/selection.hpp"

#include <algorithm>
#include <memory>

namespace layoutscope::views {

std::vector<TensorCopyInfo> documentTensorCopies(const Document& doc) {
    std::vector<TensorCopyInfo> out(doc.tiles().size());
    for (uint32_t i = 0; i < out.size(); ++i)
        if (const InstrTile* t = doc.tileOf(i)) out[i] = {true, t->map.p.globalAddress, doc.elemBytesOf(i)};
    return out;
}

ElementKey elementKeyOf(const Document& doc, const ByteMove& m, uint32_t byteInMove) {
    return layoutscope::elementKeyOf(documentTensorCopies(doc), m, byteInMove);
}

SmemContent smemContentOf(const Document& doc, const SmemScene& s) {
    SmemContent c;
    c.window = s.window;
    c.keys.assign(s.window.size, std::nullopt);
    c.bytes.assign(s.window.size, 0);
    if (!doc.hasTrace()) return c;
    SmemElements e =
        smemElementsAt(doc.trace(), doc.initial(), documentTensorCopies(doc),
                       SharedWindow{s.window.cta, s.window.base, s.window.size}, s.moveOf, s.step);
    c.keys = std::move(e.keys);
    c.bytes = std::move(e.bytes);
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
    std::vector<std::optional<TmemCell>> cells(n);
    for (uint32_t y = 0; y < s.height(); ++y)
        for (uint32_t x = 0; x < s.width(); ++x)
            if (const auto cell = s.cellAt(x, y)) {
                const size_t i = size_t(y) * s.width() + x;
                c.cells[i] = cell;
                cells[i] = TmemCell{cell->cta, cell->lane, cell->column};
            }
    const SmemElements smemElements{SharedWindow{smem.window.cta, smem.window.base, smem.window.size},
                                    smem.keys, smem.bytes};
    TmemElements e = tmemElementsAt(doc.trace(), doc.run().tmemInitial, documentTensorCopies(doc),
                                    std::move(cells), s.moveOf, step, smemElements);
    c.keys = std::move(e.keys);
    c.values = std::move(e.values);
    return c;
}

std::vector<uint32_t> cellsOfElement(const SmemContent& c, const ElementKey& k) {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < c.keys.size(); ++i)
        if (c.keys[i] && c.keys[i]->sameElement(k)) out.push_back(i);
    return out;
}

bool comparesTmem(const Document& doc) {
    if (!doc.hasTrace()) return false;
    for (const ByteMove& m : doc.trace().moves)
        if (m.dst.space == MemSpace::TensorMemory || m.src.space == MemSpace::TensorMemory) return true;
    return false;
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

/// 16320 -> "16,320": the counts of the legend and the badges.
std::string grouped(size_t n) {
    const std::string digits = std::to_string(n);
    std::string s;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
        s += digits[i];
    }
    return s;
}

/// `fn`'s overlay drawn below a header band with `title`; with `marks`, the two counts as badges at the
/// header's right and a legend of two lines under the grid: the difference mark (kFlagDiffers) and the
/// reshuffle tint (kFlagReshuffled).
ViewPane withHeader(ViewPane p, std::string title, bool marks, size_t differCount, size_t reshuffleCount,
                    bool reference, std::string unit = "B") {
    constexpr float kLegend = 40.0f; // two lines of 20 px
    p.margins.y += kCompareHeader;
    if (marks) p.margins.w += kLegend;
    if (p.marginsFn) // the base pane's margins at its size (under the header), then the header and the legend
        p.marginsFn = [fn = p.marginsFn, marks](glm::vec2 vp) {
            glm::vec4 m = fn({vp.x, vp.y - kCompareHeader});
            m.y += kCompareHeader;
            if (marks) m.w += kLegend;
            return m;
        };
    auto base = std::move(p.overlay);
    const auto marginsFn = p.marginsFn;
    const float fixedLegendY = p.margins.w - 6.0f; // from the bottom: just under the grid
    p.overlay = [base, title, marks, differCount, reshuffleCount, reference, unit, fixedLegendY,
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
            for (auto& g : o.regions) g.lo.y += kCompareHeader, g.hi.y += kCompareHeader;
        }
        o.rects.push_back({{0, 0}, {vp.x, kCompareHeader - 2}, Rgba8{40, 44, 56, 255}, true});
        std::rotate(o.rects.begin(), o.rects.end() - 1, o.rects.end()); // the band under everything
        float titleRoom = vp.x - 12;
        if (marks) { // badges, right to left: "N differ" (magenta), "M reshuffled" (muted)
            float right = vp.x;
            auto badge = [&](const std::string& text, Rgba8 fill, const char* region) {
                const MarkBadge b = markBadge(text, 0.0f, right);
                o.rects.push_back({b.lo, b.hi, fill, true});
                o.text(b.textPos, b.text, Rgba8{255, 255, 255, 255}, b.fontScale);
                o.regions.push_back({region, b.lo, b.hi});
                right = b.lo.x + 4.0f;
                titleRoom = b.lo.x - 14.0f;
            };
            if (differCount) badge(grouped(differCount) + " differ", kDiffColour, "badge");
            if (reshuffleCount)
                badge(grouped(reshuffleCount) + " reshuffled", kReshuffleColour, "reshuffleBadge");
        }
        o.text({8, 3}, fitLabel({title}, std::max(24.0f, titleRoom)), Rgba8{255, 214, 90, 255});
        if (marks) {
            // Shortened to the pane (4 columns at 1280x800); the README and the inspector say the rules.
            const std::string other = reference ? "another pane" : "pane 1";
            auto line = [&](float y, Rgba8 swatch, std::initializer_list<std::string> texts) {
                o.rects.push_back({{10, y}, {24, y + 14}, swatch, true});
                o.rects.push_back({{10, y}, {24, y + 14}, Rgba8{0, 0, 0, 255}, false});
                o.text({29, y}, fitLabel(texts, vp.x - 33), Rgba8{220, 220, 225, 255});
            };
            const std::string d = grouped(differCount) + " " + unit, r = grouped(reshuffleCount) + " " + unit;
            line(vp.y - legendY, kDiffColour,
                 {"differ: " + d + " (" + other + " lacks this element with this value)",
                  "differ from " + other + ": " + d, "differ: " + d});
            line(vp.y - legendY + 20, kReshuffleColour,
                 {"reshuffled: " + r + " (" + other + " has them at another place)",
                  "reshuffled (elsewhere in " + other + "): " + r, "reshuffled: " + r});
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
        if (comparesTmem(doc))
            if (ViewPaneResult t = buildViewPane(doc, ExportView::Tmem, cp.step, opt); t.pane) {
                cp.tmem = std::move(t.pane);
                cp.tmemContent = tmemContentOf(doc, cp.step, cp.content);
            }
    }
    // Classes: pane k against pane 1; pane 1's cells, the stronger class against any other pane.
    if (!out.empty() && out[0].smem)
        for (size_t d = 1; d < out.size(); ++d) {
            if (!out[d].smem) continue;
            out[d].match = matchCells(out[0].content, out[d].content);
            mergeMatches(out[0].match, matchCells(out[d].content, out[0].content));
        }
    if (!out.empty() && out[0].tmem) // Tensor Memory: the same, cell by cell
        for (size_t d = 1; d < out.size(); ++d) {
            if (!out[d].tmem) continue;
            out[d].tmemMatch = matchTmemCells(out[0].tmemContent, out[d].tmemContent);
            mergeMatches(out[0].tmemMatch, matchTmemCells(out[d].tmemContent, out[0].tmemContent));
        }
    auto flag = [](std::vector<Rgba8>& texels, const CellMatches& m) {
        for (size_t i = 0; i < m.kind.size() && i < texels.size(); ++i)
            if (m.kind[i] == CellMatch::Different)
                texels[i].a |= kFlagDiffers;
            else if (m.kind[i] == CellMatch::Reshuffled)
                texels[i].a |= kFlagReshuffled;
    };
    for (size_t d = 0; d < out.size(); ++d) {
        ComparePanes& cp = out[d];
        if (!cp.smem) continue;
        flag(cp.smem->texels, cp.match);
        cp.differCount = cp.match.different;
        cp.reshuffleCount = cp.match.reshuffled;
        const bool marks = out.size() > 1 && out[0].smem;
        cp.smem = withHeader(std::move(*cp.smem), std::to_string(d + 1) + ": " + cp.name, marks,
                             cp.differCount, cp.reshuffleCount, d == 0);
        if (cp.tmem) {
            flag(cp.tmem->texels, cp.tmemMatch);
            cp.tmemDifferCount = cp.tmemMatch.different;
            cp.tmemReshuffleCount = cp.tmemMatch.reshuffled;
            const bool tmemMarks = out.size() > 1 && out[0].tmem;
            cp.tmem =
                withHeader(std::move(*cp.tmem), std::to_string(d + 1) + ": " + cp.name + " (Tensor Memory)",
                           tmemMarks, cp.tmemDifferCount, cp.tmemReshuffleCount, d == 0, "cells");
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
