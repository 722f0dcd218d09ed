#include "scene/view_pane.hpp"
#include "scene/tmem_dvalues.hpp"

#include "scene/multicast_fans.hpp"
#include "scene/reg_scene.hpp"
#include "scene/smem_scene.hpp"
#include "scene/svg_writer.hpp"
#include "scene/tma_fans.hpp"
#include "scene/tmem_expected.hpp"
#include "scene/tmem_overlay.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace layoutscope::views {

namespace {

struct ViewInfo {
    ExportView view;
    std::string_view name, title;
};
constexpr std::array<ViewInfo, 7> kViewInfo = {{
    {ExportView::All, "all", "Global tensor and shared memory"},
    {ExportView::Smem, "smem", "Shared memory"},
    {ExportView::Global, "global", "Global tensor"},
    {ExportView::Tmem, "tmem", "Tensor Memory"},
    {ExportView::Registers, "registers", "Registers"},
    {ExportView::Decompression, "decompression", "Decompression"},
    {ExportView::Multicast, "multicast", "Multicast (TMA)"},
}};

ViewPaneResult fail(std::string why) {
    return ViewPaneResult{std::nullopt, std::move(why)};
}

/// The shared-memory scene of `opt.cta` as the window colours it (toolbar colour mode and cells).
SmemScene smemSceneOf(const Document& doc, uint32_t step, const std::vector<BoxFrame>& frames,
                      const ViewOptions& opt) {
    SmemScene s = smemSceneAt(doc, step, frames, opt.cta);
    if (opt.colourBy != SmemColourBy::Source) {
        Replay replay(doc.trace(), doc.initial());
        replay.seek(step);
        if (s.window.cta < replay.state().smem.size()) {
            const auto bytes = replay.state().smem[s.window.cta].bytes();
            const auto win = s.window.base + s.window.size <= bytes.size()
                                 ? bytes.subspan(s.window.base, s.window.size)
                                 : std::span<const uint8_t>();
            recolourSmem(s, opt.colourBy, win, doc.trace());
        }
    }
    if (opt.chunks) chunkSmem(s);
    return s;
}

ViewPane paneOf(ExportView v, uint32_t w, uint32_t h, std::vector<Rgba8> texels, ShadeParams shade,
                glm::vec4 margins) {
    ViewPane p;
    p.view = v;
    p.w = w;
    p.h = h;
    p.texels = std::move(texels);
    p.shade = shade;
    p.margins = margins;
    return p;
}

ViewPaneResult smemPane(const Document& doc, uint32_t step, const ViewOptions& opt) {
    auto frames = std::make_shared<const std::vector<BoxFrame>>(opt.frames ? *opt.frames : boxFrames(doc));
    auto s = std::make_shared<const SmemScene>(smemSceneOf(doc, step, *frames, opt));
    if (s->height() == 0)
        return fail("this scenario touches no shared memory of CTA " + std::to_string(opt.cta));
    const size_t frame = frames->empty() ? 0 : std::min<size_t>(tileInstrAt(doc, step), frames->size() - 1);
    ViewPane p = paneOf(ExportView::Smem, s->width(), s->height(), s->texels,
                        ShadeParams{1, opt.chunks ? 16 : 4, 0}, kSmemMargins);
    p.overlay = [s, frames, frame, opt](const Camera2D& cam, glm::vec2 vp) {
        return buildSmemOverlay(cam, vp, *s, frames->empty() ? nullptr : &(*frames)[frame], opt.colourBy,
                                opt.chunks);
    };
    p.marginsFn = [obs = s->observedMarked](glm::vec2 vp) { return smemMargins(vp.x, obs); };
    return {std::move(p), {}};
}

ViewPaneResult globalPane(const Document& doc, uint32_t step) {
    const std::vector<BoxFrame> frames = boxFrames(doc);
    auto g = std::make_shared<const GlobalScene>(globalSceneAt(doc, tileInstrAt(doc, step), step, frames));
    if (!g->tile || !g->w || !g->h)
        return fail("this scenario reads no global tensor (no TMA copy): it has no Global tensor view");
    ViewPane p = paneOf(ExportView::Global, g->w, g->h, g->texels, ShadeParams{1, 0, 0}, kGlobalMargins);
    p.overlay = [g](const Camera2D& cam, glm::vec2 vp) { return buildGlobalOverlay(cam, vp, *g); };
    return {std::move(p), {}};
}

/// TmemViews::onStep's TMEM scene: cp-copied cells coloured from the (window-coloured) SMEM scene.
TmemScene tmemSceneOf(const Document& doc, uint32_t step, const ViewOptions& opt) {
    const SmemScene smem = smemSceneOf(doc, step, opt.frames ? *opt.frames : boxFrames(doc), opt);
    TmemScene s = tmemSceneAt(doc, step, opt.cta, smemSourceColours(doc, smem));
    markExpectedTmem(doc, tmemExpectations(doc), s); // as the window marks them
    if (const Scenario* sc = doc.scenario();
        sc && std::any_of(sc->instrs.begin(), sc->instrs.end(), [](const auto& in) { return in.umma; }))
        markMmaDValues(doc, mmaDValues(*sc, doc.run()), s); // and a D the value check finds wrong
    return s;
}

constexpr const char* kNoTmem = "this scenario writes no Tensor Memory (no tcgen05 moves)";

ViewPaneResult tmemPane(const Document& doc, uint32_t step, const ViewOptions& opt) {
    if (!hasTmemMoves(doc)) return fail(std::string(kNoTmem) + ": it has no Tensor Memory view");
    auto s = std::make_shared<const TmemScene>(tmemSceneOf(doc, step, opt));
    // The window draws the fans of a replicating tcgen05.cp when the trace has one (TmemViews).
    auto fans = std::make_shared<const MulticastFans>(multicastFansAt(doc, step));
    ViewPane p =
        paneOf(ExportView::Tmem, s->width(), s->height(), s->texels, ShadeParams{1, 32, 32}, kTmemMargins);
    // No cell values: the window prints them only at >= 72 px per cell, which a fitted view never reaches.
    p.overlay = [s, fans](const Camera2D& cam, glm::vec2 vp) {
        return buildTmemOverlay(cam, vp, *s, fans->valid ? fans.get() : nullptr);
    };
    return {std::move(p), {}};
}

ViewPaneResult registerPane(const Document& doc, uint32_t step, const ViewOptions& opt) {
    const auto instr = regInstrAt(doc, step); // tcgen05.ld / st, or a wgmma's D
    if (!instr)
        return fail("this scenario moves no registers to or from Tensor Memory (no tcgen05.ld / tcgen05.st) "
                    "and computes no wgmma D: it has no Registers view");
    const bool wgmma = doc.trace().moves[doc.trace().instrs[*instr].firstMove].rule == RuleId::WgmmaValues;
    RegScene scene = regSceneAt(doc, *instr, step, wgmma ? TmemScene{} : tmemSceneOf(doc, step, opt));
    if (wgmma && doc.scenario()) markWgmmaD(wgmmaDValues(*doc.scenario(), doc.run()), scene); // as the window
    auto r = std::make_shared<const RegScene>(std::move(scene));
    if (!r->valid || !r->width() || !r->height())
        return fail("the tcgen05.ld / tcgen05.st at this step moves no registers");
    ViewPane p =
        paneOf(ExportView::Registers, r->width(), r->height(), r->texels, ShadeParams{1, 0, 32}, kRegMargins);
    const std::string text = doc.trace().instrs[r->instr].text;
    p.overlay = [r, text](const Camera2D& cam, glm::vec2 vp) { return buildRegOverlay(cam, vp, *r, text); };
    return {std::move(p), {}};
}

ViewPaneResult decompPane(const Document& doc, uint32_t step) {
    Replay replay(doc.trace(), doc.initial());
    auto d = decompViewAt(doc, step, replay);
    if (!d)
        return fail("this scenario has no decompressing tcgen05.cp (.b8x16.b4x16_p64 / .b8x16.b6x16_p32): "
                    "it has no Decompression view");
    auto dv = std::make_shared<const DecompView>(std::move(*d));
    ViewPane p = paneOf(ExportView::Decompression, DecompScene::width(), DecompScene::height(),
                        dv->scene.texels, ShadeParams{1, 8, 0}, kDecompMargins);
    p.overlay = [dv](const Camera2D& cam, glm::vec2 vp) {
        return buildDecompOverlay(cam, vp, dv->scene, dv->title);
    };
    return {std::move(p), {}};
}

ViewPaneResult multicastPane(const Document& doc, uint32_t step) {
    auto f = std::make_shared<const TmaFan>(tmaFanAt(doc, step, boxFrames(doc)));
    if (!f->valid)
        return fail("this scenario has no .multicast::cluster TMA load: it has no Multicast (TMA) view");
    ViewPane p =
        paneOf(ExportView::Multicast, f->width(), f->rows, f->texels, ShadeParams{1, 0, 0}, kTmaFanMargins);
    const std::string text = doc.trace().instrs[f->instr].text;
    p.overlay = [f, text](const Camera2D& cam, glm::vec2 vp) {
        return buildTmaFanOverlay(cam, vp, *f, text);
    };
    return {std::move(p), {}};
}

} // namespace

std::string_view exportViewName(ExportView v) {
    return kViewInfo[size_t(v)].name;
}

std::string_view exportViewTitle(ExportView v) {
    return kViewInfo[size_t(v)].title;
}

std::optional<ExportView> exportViewFromName(std::string_view name) {
    for (const ViewInfo& i : kViewInfo)
        if (i.name == name) return i.view;
    return std::nullopt;
}

std::string exportViewNameList() {
    std::string s;
    for (const ViewInfo& i : kViewInfo) {
        if (!s.empty()) s += '|';
        s += i.name;
    }
    return s;
}

bool hasTmemMoves(const Document& doc) {
    if (!doc.hasTrace()) return false;
    // Tensor Memory on either side: tcgen05.st / ld / cp / mma / shift. Register moves alone are a wgmma's D
    // (Hopper has no Tensor Memory) or a recorded kernel's `poke` stores, as the window decides (TmemViews).
    for (const ByteMove& m : doc.trace().moves)
        if (m.src.space == MemSpace::TensorMemory || m.dst.space == MemSpace::TensorMemory) return true;
    return false;
}

SmemColourFn smemSourceColours(const Document& doc, const SmemScene& smem) {
    // A cp-copied cell takes the colour of its source byte when a copy wrote that byte into shared
    // memory (a TMA load: its tensor coordinate); bytes only read keep the source-row colours.
    return [&smem, &doc](uint32_t cta, uint32_t addr) -> std::optional<Rgba8> {
        if (cta != smem.window.cta) return std::nullopt;
        const auto i = smem.indexOf(addr);
        if (!i || !(smem.texels[*i].a & kFlagWritten) || smem.moveOf[*i] < 0) return std::nullopt;
        const ByteMove& w = doc.trace().moves[size_t(smem.moveOf[*i])];
        if (w.dst.space != MemSpace::SharedCta || w.dst.cta != cta) return std::nullopt;
        Rgba8 c = smem.texels[*i];
        c.a = 255;
        return c;
    };
}

std::optional<DecompView> decompViewAt(const Document& doc, uint32_t step, Replay& smemReplay) {
    const auto mi = decompMoveAt(doc, step);
    if (!mi) return std::nullopt;
    const ByteMove& m = doc.trace().moves[*mi];
    smemReplay.seek(step);
    std::array<uint8_t, 16> src{};
    const auto& smem = smemReplay.state().smem;
    if (m.src.cta < smem.size() && m.src.addr + 16 <= smem[m.src.cta].size())
        std::copy_n(smem[m.src.cta].bytes().begin() + std::ptrdiff_t(m.src.addr), 16, src.begin());
    DecompView d;
    d.scene = decompScene(m.transform == Transform::Decompress6to8 ? CpDecompress::B8x16_B6x16_p32
                                                                   : CpDecompress::B8x16_B4x16_p64,
                          src);
    char t[160];
    std::snprintf(t, sizeof t,
                  "chunk from smem 0x%04x (cta %u, source row %d) -> TMEM lane %u col %u, step %u: ",
                  unsigned(m.src.addr), unsigned(m.src.cta), m.coord[0], unsigned(m.dst.addr >> 16),
                  unsigned(m.dst.addr & 0xFFFF), m.step);
    d.title = t + doc.trace().instrs[m.instr].text;
    return d;
}

ViewPaneResult buildViewPane(const Document& doc, ExportView v, uint32_t step, const ViewOptions& opt) {
    if (!doc.hasTrace()) {
        std::string why = "the scenario has no trace";
        for (const Diagnostic& d : doc.diagnostics()) {
            why += '\n';
            why += formatDiagnostic(d, doc.path());
        }
        return fail(why);
    }
    if (opt.cta >= doc.ctaCount())
        return fail("CTA " + std::to_string(opt.cta) + ": the cluster has " + std::to_string(doc.ctaCount()) +
                    " CTA(s)");
    step = std::min(step, doc.trace().stepCount);
    switch (v) {
    case ExportView::All:
        return fail("the composite view is not a single pane");
    case ExportView::Smem:
        return smemPane(doc, step, opt);
    case ExportView::Global:
        return globalPane(doc, step);
    case ExportView::Tmem:
        return tmemPane(doc, step, opt);
    case ExportView::Registers:
        return registerPane(doc, step, opt);
    case ExportView::Decompression:
        return decompPane(doc, step);
    case ExportView::Multicast:
        return multicastPane(doc, step);
    }
    return fail("unknown view");
}

Camera2D fitPaneCamera(const ViewPane& p, glm::vec2 viewport) {
    Camera2D cam;
    cam.setViewport(viewport);
    cam.fit({0, 0}, {float(std::max(1u, p.w)), float(std::max(1u, p.h))}, p.marginsAt(viewport), true);
    return cam;
}

ViewSvg viewSvg(const Document& doc, ExportView v, uint32_t step, glm::vec2 size, const ViewOptions& opt,
                float minCellPx) {
    ViewSvg out;
    struct Placed {
        ViewPane pane;
        glm::vec2 origin, size;
    };
    std::vector<Placed> placed;
    if (v == ExportView::All) { // export.cpp's exportLayout: global 2/5 of the width, shared memory the rest
        const float gw = float(int(size.x) * 2 / 5);
        ViewPaneResult s = buildViewPane(doc, ExportView::Smem, step, opt);
        if (!s.pane) {
            out.error = s.error;
            return out;
        }
        if (ViewPaneResult g = buildViewPane(doc, ExportView::Global, step, opt); g.pane)
            placed.push_back({std::move(*g.pane), {0, 0}, {gw, size.y}});
        placed.push_back({std::move(*s.pane), {gw, 0}, {size.x - gw, size.y}});
    } else {
        ViewPaneResult r = buildViewPane(doc, v, step, opt);
        if (!r.pane) {
            out.error = r.error;
            return out;
        }
        const ViewPane& p = *r.pane;
        const glm::vec2 natural = glm::vec2(float(p.w), float(p.h)) * minCellPx +
                                  glm::vec2(p.margins.x + p.margins.z, p.margins.y + p.margins.w);
        size = glm::ceil(glm::max(size, natural));
        placed.push_back({std::move(*r.pane), {0, 0}, size});
    }
    std::vector<OverlayList> overlays(placed.size());
    std::vector<SvgPane> panes;
    for (size_t i = 0; i < placed.size(); ++i) {
        const Placed& pl = placed[i];
        SvgPane sp;
        sp.origin = pl.origin;
        sp.size = pl.size;
        sp.cam = fitPaneCamera(pl.pane, pl.size);
        sp.w = pl.pane.w;
        sp.h = pl.pane.h;
        sp.texels = pl.pane.texels;
        sp.shade = pl.pane.shade;
        if (pl.pane.overlay) overlays[i] = pl.pane.overlay(sp.cam, pl.size);
        sp.overlay = &overlays[i];
        panes.push_back(sp);
    }
    out.svg = writeSvg(size, panes);
    out.ok = true;
    return out;
}

} // namespace layoutscope::views
