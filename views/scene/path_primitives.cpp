#include "scene/path_primitives.hpp"

#include <algorithm>
#include <cmath>

namespace layoutscope::views {

glm::vec2 pathControl(const PathPiece& p) {
    return (p.a + p.b) * 0.5f + glm::vec2(0.0f, -std::abs(p.b.x - p.a.x) * 0.15f);
}

glm::vec2 pathPoint(const PathPiece& p, float t) {
    const glm::vec2 c = pathControl(p);
    const float u = 1.0f - t;
    return u * u * p.a + 2.0f * u * t * c + t * t * p.b;
}

namespace {

/// The curve as a polyline of about 4-px pieces (at most 256).
std::vector<glm::vec2> polyline(const PathPiece& p) {
    const float chord = glm::length(p.b - p.a) + glm::length(pathControl(p) - p.a);
    const int n = std::clamp(int(chord / 4.0f), 8, 256);
    std::vector<glm::vec2> pts(size_t(n) + 1);
    for (int i = 0; i <= n; ++i) pts[size_t(i)] = pathPoint(p, float(i) / float(n));
    return pts;
}

/// Lines along `pts`, solid (dash <= 0) or dashed `dash` on, `gap` off, starting `phase` px in.
void strokes(OverlayList& o, const std::vector<glm::vec2>& pts, glm::vec2 origin, Rgba8 c, float width,
             float dash, float gap, float phase) {
    float s = phase; // arc length, modulo the dash period
    for (size_t i = 1; i < pts.size(); ++i) {
        const glm::vec2 a = pts[i - 1] - origin, b = pts[i] - origin;
        const float len = glm::length(b - a);
        if (dash <= 0.0f) {
            o.lines.push_back({a, b, c, width});
        } else {
            const float period = dash + gap;
            if (std::fmod(std::fmod(s, period) + period, period) < dash) o.lines.push_back({a, b, c, width});
        }
        s += len;
    }
}

} // namespace

glm::vec2 pathLabelPos(const PathPiece& p, size_t i) {
    return pathPoint(p, i % 2 ? 0.7f : 0.4f) + glm::vec2(6.0f, -20.0f);
}

void appendPathPrimitives(OverlayList& o, const std::vector<PathPiece>& pieces, glm::vec2 origin, int phase,
                          const LabelOwnerFn& ownsLabel) {
    for (size_t i = 0; i < pieces.size(); ++i) {
        const PathPiece& p = pieces[i];
        const bool ahead = p.state == PathPiece::State::Ahead, playing = p.state == PathPiece::State::Playing;
        const Rgba8 c = ahead ? kPathAhead : kPathDone;
        const float width = playing ? 4.0f : 2.5f;
        const std::vector<glm::vec2> pts = polyline(p);
        strokes(o, pts, origin, Rgba8{0, 0, 0, 160}, width + 2.5f, 0, 0, 0); // halo: readable on any cell
        strokes(o, pts, origin, c, width, p.state == PathPiece::State::Done ? 0.0f : 4.0f, 3.0f,
                playing ? float(-phase) : 0.0f);
        // Arrow head at b along the curve's last tangent.
        const glm::vec2 d = p.b - pathControl(p);
        if (glm::length(d) > 1.0f) {
            const glm::vec2 u = glm::normalize(d), n(-u.y, u.x), tip = p.b - origin;
            o.lines.push_back({tip, tip - u * 11.0f + n * 5.0f, c, 2.5f});
            o.lines.push_back({tip, tip - u * 11.0f - n * 5.0f, c, 2.5f});
        }
        if (!p.label.empty() && (!ownsLabel || ownsLabel(pathLabelPos(p, i)))) {
            const glm::vec2 at = pathLabelPos(p, i) - origin;
            o.rects.push_back({at - glm::vec2(3, 1), at + glm::vec2(approxTextWidth(p.label) + 3, 17),
                               Rgba8{18, 19, 24, 220}, true});
            o.text(at, p.label, c);
        }
    }
}

} // namespace layoutscope::views
