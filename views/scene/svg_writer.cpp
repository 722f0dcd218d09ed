#include "scene/svg_writer.hpp"

#include <charconv>
#include <cmath>
#include <unordered_map>

namespace layoutscope::views {

namespace {

/// A number with at most two decimals, '.' as separator whatever the locale, no trailing zeros.
std::string num(float v) {
    if (!std::isfinite(v)) return "0";
    char buf[48];
    const auto r = std::to_chars(buf, buf + sizeof buf, double(v), std::chars_format::fixed, 2);
    std::string s(buf, r.ptr);
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s == "-0" ? "0" : s;
}

std::string pt(glm::vec2 p) {
    return num(p.x) + " " + num(p.y);
}

uint32_t packRgb(Rgba8 c) {
    return uint32_t(c.r) << 16 | uint32_t(c.g) << 8 | c.b;
}

Rgba8 unpackRgb(uint32_t v) {
    return Rgba8{uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v), 255};
}

/// ` fill="#rrggbb"` plus fill-opacity when translucent (or the stroke equivalents).
std::string paint(const char* what, Rgba8 c) {
    std::string s = std::string(" ") + what + "=\"" + svgColour(c) + "\"";
    if (c.a < 255) s += std::string(" ") + what + "-opacity=\"" + num(float(c.a) / 255.0f) + "\"";
    return s;
}

/// The shader's hatch (cell_style.cpp): pixel (i, j) is darkened to 35 % when (i + j) mod 8 < 3,
/// i.e. the band 0.5 <= x + y < 3.5 (pixel centres) repeated every 8 px along x + y.
constexpr const char* kHatchPattern =
    "<pattern id=\"hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">"
    "<path d=\"M0.5 0H3.5L0 3.5V0.5ZM8 0.5V3.5L3.5 8H0.5Z\" fill=\"#000\" fill-opacity=\"0.65\"/>"
    "</pattern>\n";

void writeCells(std::string& o, const SvgPane& p, size_t index, SvgStats& st) {
    if (!p.w || !p.h || p.texels.size() != size_t(p.w) * p.h) return;
    ShadeParams sp = p.shade;
    sp.zoom = p.cam.zoom();
    std::vector<uint32_t> colour(p.texels.size());
    std::unordered_map<uint32_t, size_t> histogram;
    for (size_t i = 0; i < p.texels.size(); ++i) {
        colour[i] = packRgb(svgCellColour(p.texels[i], sp));
        ++histogram[colour[i]];
    }
    uint32_t bg = colour[0];
    size_t best = 0;
    for (const auto& [c, n] : histogram)
        if (n > best || (n == best && c < bg)) {
            best = n;
            bg = c;
        }
    const glm::vec2 g0 = p.origin + p.cam.worldToScreen({0.0f, 0.0f});
    const std::string w = std::to_string(p.w), h = std::to_string(p.h), idx = std::to_string(index);
    o += "<g class=\"cells\" transform=\"translate(" + pt(g0) + ") scale(" + num(sp.zoom) +
         ")\" shape-rendering=\"crispEdges\">\n";
    o += "<rect class=\"cells-bg\" x=\"0\" y=\"0\" width=\"" + w + "\" height=\"" + h + "\" fill=\"" +
         svgColour(unpackRgb(bg)) + "\"/>\n";
    for (uint32_t y = 0; y < p.h; ++y) {
        const uint32_t* row = colour.data() + size_t(y) * p.w;
        for (uint32_t x = 0; x < p.w;) {
            uint32_t e = x + 1;
            while (e < p.w && row[e] == row[x]) ++e;
            if (row[x] != bg) {
                o += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
                     std::to_string(e - x) + "\" height=\"1\" fill=\"" + svgColour(unpackRgb(row[x])) +
                     "\"/>";
                ++st.cellRects;
            }
            x = e;
        }
        o += "\n";
    }
    // Cell borders (zoom >= 6) and group lines (zoom >= 2): 1 px at the low edge, as in the shader.
    const float e = 1.0f / sp.zoom;
    if (sp.zoom >= 6.0f) {
        o += "<pattern id=\"border" + idx +
             "\" width=\"1\" height=\"1\" patternUnits=\"userSpaceOnUse\">"
             "<path d=\"M0 0H1V" +
             num(e) + "H" + num(e) + "V1H0Z\" fill=\"#000\" fill-opacity=\"0.45\"/></pattern>";
        o += "<rect width=\"" + w + "\" height=\"" + h + "\" fill=\"url(#border" + idx + ")\"/>\n";
    }
    if (sp.zoom >= 2.0f && sp.groupX > 0) {
        o += "<pattern id=\"groupx" + idx + "\" width=\"" + std::to_string(sp.groupX) +
             "\" height=\"1\" patternUnits=\"userSpaceOnUse\"><rect width=\"" + num(e) +
             "\" height=\"1\" fill=\"#141414\"/></pattern>";
        o += "<rect width=\"" + w + "\" height=\"" + h + "\" fill=\"url(#groupx" + idx + ")\"/>\n";
    }
    if (sp.zoom >= 2.0f && sp.groupY > 0) {
        o += "<pattern id=\"groupy" + idx + "\" width=\"1\" height=\"" + std::to_string(sp.groupY) +
             "\" patternUnits=\"userSpaceOnUse\"><rect width=\"1\" height=\"" + num(e) +
             "\" fill=\"#141414\"/></pattern>";
        o += "<rect width=\"" + w + "\" height=\"" + h + "\" fill=\"url(#groupy" + idx + ")\"/>\n";
    }
    o += "</g>\n";
    // Hatched runs, in image pixels so the stripes line up with the shader's screen-space hatch.
    std::string hatch;
    for (uint32_t y = 0; y < p.h; ++y) {
        const Rgba8* row = p.texels.data() + size_t(y) * p.w;
        for (uint32_t x = 0; x < p.w;) {
            if (!(row[x].a & kFlagFill)) {
                ++x;
                continue;
            }
            uint32_t end = x + 1;
            while (end < p.w && (row[end].a & kFlagFill)) ++end;
            const glm::vec2 a = p.origin + p.cam.worldToScreen({float(x), float(y)});
            hatch += "<rect x=\"" + num(a.x) + "\" y=\"" + num(a.y) + "\" width=\"" +
                     num(float(end - x) * sp.zoom) + "\" height=\"" + num(sp.zoom) + "\"/>";
            ++st.hatchRects;
            x = end;
        }
    }
    if (!hatch.empty()) o += "<g class=\"hatch\" fill=\"url(#hatch)\">" + hatch + "</g>\n";
}

void writeOverlay(std::string& o, const SvgPane& p, SvgStats& st) {
    if (!p.overlay) return;
    const OverlayList& ov = *p.overlay;
    o += "<g class=\"overlay\" transform=\"translate(" + pt(p.origin) + ")\">\n";
    for (const OverlayList::Rect& r : ov.rects) {
        const glm::vec2 lo = glm::min(r.lo, r.hi), sz = glm::abs(r.hi - r.lo);
        const std::string geo = "<rect x=\"" + num(lo.x) + "\" y=\"" + num(lo.y) + "\" width=\"" + num(sz.x) +
                                "\" height=\"" + num(sz.y) + "\"";
        if (!r.filled) {
            o += geo + " fill=\"none\"" + paint("stroke", r.colour) + " stroke-width=\"2\"/>\n";
            continue;
        }
        o += geo + paint("fill", r.colour) + "/>\n";
        if (r.hatched) o += geo + " fill=\"url(#hatch)\"/>\n";
    }
    for (const OverlayList::Line& l : ov.lines) {
        std::string d = "M";
        d += pt(l.a);
        d += l.bezier ? " C" + pt(l.c1) + " " + pt(l.c2) + " " + pt(l.b) : " L" + pt(l.b);
        o += "<path d=\"" + d + "\" fill=\"none\"" + paint("stroke", l.colour) + " stroke-width=\"" +
             num(l.width) + "\"/>\n";
        ++st.paths;
    }
    // Top-left anchored like QPainter's AlignTop: baseline = top + the font's ascent (13 px at 14 px).
    o += "<g class=\"texts\" xml:space=\"preserve\">\n";
    for (const OverlayList::Text& t : ov.texts) {
        o += "<text x=\"" + num(t.pos.x) + "\" y=\"" + num(t.pos.y + 13.0f * t.scale) + "\"" +
             (t.scale != 1.0f ? " font-size=\"" + num(14.0f * t.scale) + "\"" : std::string()) +
             paint("fill", t.colour) + ">" + svgEscape(t.text) + "</text>\n";
        ++st.texts;
    }
    o += "</g>\n</g>\n";
}

} // namespace

std::string svgColour(Rgba8 c) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s = "#000000";
    const uint8_t v[3] = {c.r, c.g, c.b};
    for (int i = 0; i < 3; ++i) {
        s[size_t(1 + 2 * i)] = kHex[v[i] >> 4];
        s[size_t(2 + 2 * i)] = kHex[v[i] & 15];
    }
    return s;
}

Rgba8 svgCellColour(Rgba8 texel, const ShadeParams& shade) {
    const Rgba8 t{texel.r, texel.g, texel.b, uint8_t(texel.a & ~kFlagFill)};
    // The centre of cell (0, 0) is never on a border or a group line (1 px <= half a cell there).
    return shadeCell(t, {0.5f, 0.5f}, {0.5f, 0.5f}, shade);
}

std::string svgEscape(std::string_view s) {
    std::string o;
    o.reserve(s.size());
    const auto* b = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    auto cont = [&](size_t i) { return i < n && (b[i] & 0xC0) == 0x80; };
    for (size_t i = 0; i < n;) {
        const unsigned char c = b[i];
        if (c < 0x80) {
            switch (c) {
            case '&':
                o += "&amp;";
                break;
            case '<':
                o += "&lt;";
                break;
            case '>':
                o += "&gt;";
                break;
            case '"':
                o += "&quot;";
                break;
            case '\'':
                o += "&apos;";
                break;
            default:
                if (c >= 0x20 || c == '\t' || c == '\n') o += char(c);
            }
            ++i;
            continue;
        }
        // Well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, <= U+10FFFF), else U+FFFD.
        size_t len = 0;
        if (c >= 0xC2 && c <= 0xDF && cont(i + 1))
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF && cont(i + 1) && cont(i + 2)) {
            const unsigned char c1 = b[i + 1];
            const bool ok = (c != 0xE0 || c1 >= 0xA0) && (c != 0xED || c1 < 0xA0);
            // U+FFFE and U+FFFF are not XML characters.
            const bool nonChar = c == 0xEF && c1 == 0xBF && (b[i + 2] == 0xBE || b[i + 2] == 0xBF);
            len = ok && !nonChar ? 3 : 0;
        } else if (c >= 0xF0 && c <= 0xF4 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
            const unsigned char c1 = b[i + 1];
            len = (c != 0xF0 || c1 >= 0x90) && (c != 0xF4 || c1 < 0x90) ? 4 : 0;
        }
        if (len) {
            o.append(s.substr(i, len));
            i += len;
        } else {
            o += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return o;
}

std::string writeSvg(glm::vec2 imageSize, std::span<const SvgPane> panes, SvgStats* stats) {
    SvgStats st;
    std::string o;
    const std::string W = num(imageSize.x), H = num(imageSize.y);
    o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + W + "\" height=\"" + H + "\" viewBox=\"0 0 " +
         W + " " + H + "\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"14\">\n";
    o += "<defs>\n";
    o += kHatchPattern;
    for (size_t i = 0; i < panes.size(); ++i)
        o += "<clipPath id=\"clip" + std::to_string(i) + "\"><rect x=\"" + num(panes[i].origin.x) +
             "\" y=\"" + num(panes[i].origin.y) + "\" width=\"" + num(panes[i].size.x) + "\" height=\"" +
             num(panes[i].size.y) + "\"/></clipPath>\n";
    o += "</defs>\n";
    o += "<rect width=\"100%\" height=\"100%\" fill=\"" + svgColour(kBackground) + "\"/>\n";
    for (size_t i = 0; i < panes.size(); ++i) {
        o += "<g class=\"pane\" clip-path=\"url(#clip" + std::to_string(i) + ")\">\n";
        writeCells(o, panes[i], i, st);
        writeOverlay(o, panes[i], st);
        o += "</g>\n";
    }
    o += "</svg>\n";
    if (stats) *stats = st;
    return o;
}

} // namespace layoutscope::views
