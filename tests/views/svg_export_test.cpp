// SVG export of single views (scene/svg_writer.hpp, scene/view_pane.hpp), parsed back with a tiny
// hand-written XML reader and checked against truths derived by hand, never against the writer:
//   tcgen05.st 32x32b.x4 by warp 1 (tmem_fixture): register j of thread t -> lane 32+t, column j
//              (tcgen05.md §4.1), coloured hue = thread, lightness = register (views/README.md);
//              the last step's cells highlighted = mixed 55 % towards white; columns >= 128 (past the
//              128-column allocation) hatched
//   .warpx2::02_13 64x128b copy: 64 rows = 2 blocks of 32, each to 2 lane quarters -> 4 curves
//   tma_multicast_cluster2.scn: a 32-row box to 2 CTAs, <= 8 row blocks per CTA -> 16 curves, and
//              every CTA strip row has the colour of its box row once landed
#include "scene/svg_writer.hpp"
#include "scene/view_pane.hpp"
#include "tmem_fixture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <stdexcept>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

struct Elem {
    std::string name;
    std::map<std::string, std::string> attrs;
    std::vector<std::string> ancestorClasses; ///< class attributes of the enclosing elements
    std::string text;                         ///< character data (entities decoded)
    bool in(const std::string& cls) const {
        return std::find(ancestorClasses.begin(), ancestorClasses.end(), cls) != ancestorClasses.end();
    }
};

std::string decode(const std::string& s) {
    std::string o;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '&') {
            o += s[i];
            continue;
        }
        const size_t e = s.find(';', i);
        const std::string ent = s.substr(i + 1, e - i - 1);
        o += ent == "amp"    ? "&"
             : ent == "lt"   ? "<"
             : ent == "gt"   ? ">"
             : ent == "quot" ? "\""
             : ent == "apos" ? "'"
                             : "?";
        i = e;
    }
    return o;
}

/// Every element in document order; throws on malformed input (unbalanced tags, unquoted values).
std::vector<Elem> parseXml(const std::string& x) {
    std::vector<Elem> out;
    std::vector<std::pair<std::string, std::string>> stack; // name, class
    size_t i = 0;
    // The element receiving character data, or kNone (not std::optional: GCC 12 warned it "may be used
    // uninitialized" through the inlined vector index).
    constexpr size_t kNone = SIZE_MAX;
    size_t open = kNone;
    while (i < x.size()) {
        if (x[i] != '<') {
            const size_t e = x.find('<', i);
            if (open != kNone) out[open].text += decode(x.substr(i, e - i));
            i = e;
            continue;
        }
        if (x.compare(i, 2, "<?") == 0) {
            i = x.find("?>", i) + 2;
            continue;
        }
        if (x.compare(i, 2, "</") == 0) {
            const size_t e = x.find('>', i);
            const std::string name = x.substr(i + 2, e - i - 2);
            if (stack.empty() || stack.back().first != name)
                throw std::runtime_error("unbalanced </" + name + ">");
            stack.pop_back();
            open = kNone;
            i = e + 1;
            continue;
        }
        Elem el;
        size_t p = i + 1;
        while (p < x.size() && !std::isspace(static_cast<unsigned char>(x[p])) && x[p] != '>' && x[p] != '/')
            ++p;
        el.name = x.substr(i + 1, p - i - 1);
        for (const auto& s : stack) el.ancestorClasses.push_back(s.second);
        for (;;) {
            while (std::isspace(static_cast<unsigned char>(x[p]))) ++p;
            if (x[p] == '/' || x[p] == '>') break;
            const size_t eq = x.find('=', p);
            if (x[eq + 1] != '"') throw std::runtime_error("unquoted attribute");
            const size_t close = x.find('"', eq + 2);
            el.attrs[x.substr(p, eq - p)] = decode(x.substr(eq + 2, close - eq - 2));
            p = close + 1;
        }
        const bool selfClosing = x[p] == '/';
        i = x.find('>', p) + 1;
        out.push_back(el);
        if (!selfClosing) {
            stack.emplace_back(el.name, el.attrs.count("class") ? el.attrs.at("class") : "");
            open = out.size() - 1;
        }
    }
    if (!stack.empty()) throw std::runtime_error("unclosed <" + stack.back().first + ">");
    return out;
}

float num(const Elem& e, const char* a) {
    return std::stof(e.attrs.at(a));
}

Rgba8 hex(const std::string& s) {
    const auto v = static_cast<uint32_t>(std::stoul(s.substr(1), nullptr, 16));
    return Rgba8{uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v), 255};
}

/// The cell grid as the SVG paints it (rects of class "cells" in document order, cell units).
struct Painted {
    uint32_t w = 0, h = 0;
    std::vector<std::optional<Rgba8>> cell;
    glm::vec2 origin{0}; ///< pixels of cell (0, 0)
    float zoom = 0;
    size_t runRects = 0, runArea = 0;
    Rgba8 bg;
    [[nodiscard]] std::optional<Rgba8> at(uint32_t x, uint32_t y) const { return cell[size_t(y) * w + x]; }
};

Painted paint(const std::vector<Elem>& els, uint32_t w, uint32_t h) {
    Painted p{w, h, std::vector<std::optional<Rgba8>>(size_t(w) * h)};
    for (const Elem& e : els) {
        if (e.name == "g" && e.attrs.count("class") && e.attrs.at("class") == "cells") {
            const std::string t = e.attrs.at("transform"); // translate(X Y) scale(Z)
            std::sscanf(t.c_str(), "translate(%f %f) scale(%f)", &p.origin.x, &p.origin.y, &p.zoom);
        }
        if (e.name == "rect" && e.attrs.count("class") && e.attrs.at("class") == "cells-bg") {
            REQUIRE(num(e, "width") == float(w));
            REQUIRE(num(e, "height") == float(h));
            p.bg = hex(e.attrs.at("fill"));
            for (auto& c : p.cell) c = p.bg;
            continue;
        }
        // Runs have x and y; the border / group-line rects over the grid (patterns) have neither.
        if (e.name != "rect" || !e.in("cells") || !e.attrs.count("x")) continue;
        const auto x0 = uint32_t(num(e, "x")), y0 = uint32_t(num(e, "y"));
        const auto rw = uint32_t(num(e, "width")), rh = uint32_t(num(e, "height"));
        REQUIRE(x0 + rw <= w);
        REQUIRE(y0 + rh <= h);
        ++p.runRects;
        p.runArea += size_t(rw) * rh;
        for (uint32_t y = y0; y < y0 + rh; ++y)
            for (uint32_t x = x0; x < x0 + rw; ++x) p.cell[size_t(y) * w + x] = hex(e.attrs.at("fill"));
    }
    return p;
}

/// Is the centre of cell (x, y) inside a hatched run (pixels)?
bool hatched(const std::vector<Elem>& els, const Painted& p, uint32_t x, uint32_t y) {
    const glm::vec2 c = p.origin + (glm::vec2(float(x), float(y)) + 0.5f) * p.zoom;
    for (const Elem& e : els)
        if (e.name == "rect" && e.in("hatch") && c.x >= num(e, "x") && c.x < num(e, "x") + num(e, "width") &&
            c.y >= num(e, "y") && c.y < num(e, "y") + num(e, "height"))
            return true;
    return false;
}

/// The highlight of the step just played: 55 % of the way to white.
Rgba8 towardsWhite(Rgba8 c) {
    auto m = [](uint8_t v) { return uint8_t(std::lround(float(v) + (255.0f - float(v)) * 0.55f)); };
    return Rgba8{m(c.r), m(c.g), m(c.b), 255};
}

size_t curves(const std::vector<Elem>& els) {
    size_t n = 0;
    for (const Elem& e : els)
        n += e.name == "path" && e.in("overlay") && e.attrs.at("d").find(" C") != std::string::npos;
    return n;
}

} // namespace

TEST_CASE("SVG of the TMEM view: register j of thread t of warp 1 at lane 32+t, column j",
          "[views][export][svg]") {
    auto doc = test::makeTmemStDocument(); // 5 steps: alloc, then register 0, 1, 2, 3
    const ViewSvg svg = viewSvg(*doc, ExportView::Tmem, 5, {1600, 900});
    REQUIRE(svg.ok);
    const auto els = parseXml(svg.svg);
    const Painted p = paint(els, 512, 128);
    CHECK(p.zoom >= 8.0f); // enlarged so cells are at least 8 px
    int bad = 0;
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t j = 0; j < 4; ++j) {
            const Rgba8 reg = colourForCoord(int(t), int(j), 32, 4); // hue = thread, lightness = register
            const auto got = p.at(j, 32 + t);
            bad += !got || *got != (j == 3 ? towardsWhite(reg) : reg); // register 3 arrived in the last step
        }
    CHECK(bad == 0);
    CHECK(p.at(4, 32) == kUntouched); // the store wrote columns 0..3 only
    CHECK(p.at(0, 31) == kUntouched); // lane 31 is warp 0's quarter
    CHECK(hatched(els, p, 200, 40));  // past the 128-column allocation
    CHECK(hatched(els, p, 128, 0));
    CHECK_FALSE(hatched(els, p, 127, 40));
    CHECK_FALSE(hatched(els, p, 2, 40));
    // Run merging: far fewer rects than cells, and every painted non-background cell comes from
    // exactly one run (no overlaps): run area = cells whose colour differs from the background.
    size_t notBg = 0;
    for (const auto& c : p.cell) notBg += c != p.bg;
    CHECK(p.runArea == notBg);
    CHECK(p.runRects < 512 * 128 / 100);
}

TEST_CASE("SVG run merging keeps every cell's colour", "[views][export][svg]") {
    // A 37 x 5 grid of hand-chosen runs with flags 'written' only, so each cell's colour is its
    // texel's RGB (cell borders are a pattern over the grid: they never change a centre).
    const uint32_t w = 37, h = 5;
    const Rgba8 a{200, 10, 10, kFlagWritten}, b{10, 200, 10, kFlagWritten}, c{10, 10, 200, kFlagWritten};
    std::vector<Rgba8> tex(size_t(w) * h);
    std::vector<Rgba8> want(tex.size());
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            const Rgba8 t = y == 0   ? a
                            : y == 1 ? (x < 10   ? a
                                        : x < 11 ? b
                                                 : c)
                            : y == 2 ? (x % 2 ? b : c)
                            : y == 3 ? (x == 36 ? c : b)
                                     : a;
            tex[size_t(y) * w + x] = t;
            want[size_t(y) * w + x] = Rgba8{t.r, t.g, t.b, 255};
        }
    tex[size_t(4) * w + 5].a = kFlagWritten | kFlagCurrent; // one highlighted cell
    want[size_t(4) * w + 5] = towardsWhite(a);
    SvgPane pane;
    pane.size = {300, 100};
    pane.cam.setViewport(pane.size);
    pane.cam.fit({0, 0}, {float(w), float(h)});
    pane.w = w;
    pane.h = h;
    pane.texels = tex;
    SvgStats st;
    const std::string s = writeSvg({300, 100}, std::span<const SvgPane>(&pane, 1), &st);
    const auto els = parseXml(s);
    const Painted p = paint(els, w, h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            INFO("cell " << x << "," << y);
            REQUIRE(p.at(x, y));
            CHECK(*p.at(x, y) == want[size_t(y) * w + x]);
        }
    // Background = the most frequent colour (a: rows 0 and 4 and 10 cells of row 1); the other runs:
    // row 1: b, c; row 2: 37 alternating; row 3: b, c; row 4: the highlighted cell.
    CHECK(p.bg == Rgba8{200, 10, 10, 255});
    CHECK(st.cellRects == 2 + 37 + 2 + 1);
    CHECK(p.runRects == st.cellRects);
    size_t notBg = 0;
    for (const auto& v : p.cell) notBg += v != p.bg;
    CHECK(p.runArea == notBg);
}

TEST_CASE("SVG of a full 228 KiB shared memory stays a few MB", "[views][export][svg]") {
    // 1824 rows of 128 B, every byte written (one row per step); coloured by bank: 32 colours a row,
    // each 4 bytes wide, so runs of 4 cells.
    auto doc = test::makeTmemBenchDocument(1824, 228 * 1024);
    const ViewSvg svg =
        viewSvg(*doc, ExportView::Smem, 1824, {1600, 900}, ViewOptions{0, SmemColourBy::Bank});
    REQUIRE(svg.ok);
    CHECK(svg.svg.size() < size_t(228 * 1024) * 16); // < 16 B per byte: well under one <rect> per byte
    size_t rects = 0;
    for (size_t i = svg.svg.find("<rect x="); i != std::string::npos; i = svg.svg.find("<rect x=", i + 1))
        ++rects;
    CHECK(rects < size_t(228 * 1024) / 4 + 2000); // runs of 4 bytes (+ the overlay's rects)
}

TEST_CASE("SVG overlay: one bezier path per fan edge", "[views][export][svg][multicast]") {
    SECTION("TMEM view of a .warpx2::02_13 copy: 2 row blocks x 2 lane quarters") {
        auto doc = test::makeTmemCpDocument();
        const ViewSvg svg = viewSvg(*doc, ExportView::Tmem, doc->trace().stepCount, {1600, 900});
        REQUIRE(svg.ok);
        CHECK(curves(parseXml(svg.svg)) == 4);
    }
    SECTION("Multicast (TMA) view of tma_multicast_cluster2.scn: 8 blocks of 4 rows x 2 CTAs") {
        auto doc = Document::fromFile(std::string(LAYOUTSCOPE_TEST_ASSETS) +
                                      "/scenarios/tma_multicast_cluster2.scn");
        REQUIRE(doc->hasTrace());
        const ViewSvg svg = viewSvg(*doc, ExportView::Multicast, doc->trace().stepCount, {1600, 900});
        REQUIRE(svg.ok);
        const auto els = parseXml(svg.svg);
        CHECK(curves(els) == 16);
        // Cells: box rows x [0, 8), CTA 0 strip x [16, 24), CTA 1 strip x [28, 36) (tma_fans.hpp). After
        // the copy every row has landed in both CTAs: the box row's colour (highlighted when it landed
        // in the step just played).
        const Painted p = paint(els, 36, 32);
        int bad = 0, highlighted = 0;
        for (uint32_t r = 0; r < 32; ++r)
            for (uint32_t x = 0; x < 8; ++x)
                for (uint32_t strip : {16u, 28u}) {
                    const Rgba8 box = p.at(x, r).value(), got = p.at(strip + x, r).value();
                    bad += got != box && got != towardsWhite(box);
                    highlighted += got != box;
                }
        CHECK(bad == 0);
        CHECK(highlighted < 32 * 8 * 2 / 4); // most rows landed before the last step
    }
}

TEST_CASE("SVG text is escaped and stays well-formed", "[views][export][svg]") {
    CHECK(svgEscape("a<b && c>\"d\" 'e'") == "a&lt;b &amp;&amp; c&gt;&quot;d&quot; &apos;e&apos;");
    CHECK(svgEscape("tab\tnl\nbell\x07"
                    "esc\x1b") == "tab\tnl\nbellesc");
    CHECK(svgEscape("e\xcc\x81 \xe2\x86\x92 \xf0\x9f\x99\x82") == "e\xcc\x81 \xe2\x86\x92 \xf0\x9f\x99\x82");
    CHECK(svgEscape("bad \xff \xc0\xaf \xed\xa0\x80 end") ==
          "bad \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd end");
    OverlayList o;
    o.text({10, 20}, "tcgen05.st [%r<0>], {a & b} -> \"x\"");
    SvgPane pane;
    pane.size = {200, 100};
    pane.overlay = &o;
    const auto els = parseXml(writeSvg({200, 100}, std::span<const SvgPane>(&pane, 1)));
    const auto t = std::find_if(els.begin(), els.end(), [](const Elem& e) { return e.name == "text"; });
    REQUIRE(t != els.end());
    CHECK(t->text == "tcgen05.st [%r<0>], {a & b} -> \"x\"");
    CHECK(num(*t, "x") == 10.0f);
}

TEST_CASE("A view the scenario lacks is an error naming why", "[views][export]") {
    const std::string dir = std::string(LAYOUTSCOPE_TEST_ASSETS) + "/scenarios/";
    auto tma = Document::fromFile(dir + "tma_tile_64x64_f16_sw128.scn");
    auto st = Document::fromFile(dir + "tcgen05_st_32x32b.scn");
    REQUIRE(tma->hasTrace());
    REQUIRE(st->hasTrace());
    auto err = [](const Document& d, ExportView v) { return buildViewPane(d, v, UINT32_MAX).error; };
    CHECK_THAT(err(*tma, ExportView::Tmem), Catch::Matchers::Contains("writes no Tensor Memory"));
    CHECK_THAT(err(*tma, ExportView::Registers), Catch::Matchers::Contains("no tcgen05.ld / tcgen05.st"));
    CHECK_THAT(err(*st, ExportView::Decompression), Catch::Matchers::Contains("no decompressing tcgen05.cp"));
    CHECK_THAT(err(*st, ExportView::Multicast), Catch::Matchers::Contains("no .multicast::cluster"));
    CHECK_THAT(err(*st, ExportView::Global), Catch::Matchers::Contains("reads no global tensor"));
    CHECK_THAT(buildViewPane(*tma, ExportView::Smem, 0, ViewOptions{5}).error,
               Catch::Matchers::Contains("1 CTA(s)"));
    CHECK_FALSE(viewSvg(*tma, ExportView::Tmem, 0, {1600, 900}).ok);
    for (ExportView v : {ExportView::Smem, ExportView::Global}) CHECK(buildViewPane(*tma, v, 50).pane);
    for (ExportView v : {ExportView::Tmem, ExportView::Registers}) CHECK(buildViewPane(*st, v, 50).pane);
}

TEST_CASE("View names round-trip and list every view", "[views][export]") {
    CHECK(exportViewNameList() == "all|smem|global|tmem|registers|decompression|multicast");
    for (ExportView v : kExportViews) CHECK(exportViewFromName(exportViewName(v)) == v);
    CHECK_FALSE(exportViewFromName("TMEM"));
    CHECK_FALSE(exportViewFromName(""));
}
