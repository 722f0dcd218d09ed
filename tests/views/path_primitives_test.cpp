// The linked selection's path as overlay primitives (scene/path_primitives.hpp): the curve, its
// dashes, arrow head and label, shifted into a canvas's coordinates. Expected values are worked by
// hand from the quadratic Bezier B(t) = (1-t)^2 a + 2t(1-t) c + t^2 b.
#include "scene/path_primitives.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope::views;

namespace {
bool near(glm::vec2 p, glm::vec2 q, float eps = 1e-3f) {
    return glm::length(p - q) < eps;
}
std::vector<OverlayList::Line> linesOf(const OverlayList& o, Rgba8 c) {
    std::vector<OverlayList::Line> out;
    for (const auto& l : o.lines)
        if (l.colour == c) out.push_back(l);
    return out;
}
} // namespace

TEST_CASE("A path piece bows upwards by 15% of its x distance", "[views][path]") {
    const PathPiece p{{0, 0}, {100, 0}, PathPiece::State::Done, ""};
    CHECK(near(pathControl(p), {50, -15}));
    CHECK(near(pathPoint(p, 0), {0, 0}));
    CHECK(near(pathPoint(p, 1), {100, 0}));
    CHECK(near(pathPoint(p, 0.5f), {50, -7.5f})); // 0.25*0 + 0.5*(50,-15) + 0.25*(100,0)
}

TEST_CASE("Path primitives are drawn in the canvas's coordinates", "[views][path]") {
    const glm::vec2 origin{400, 50};
    SECTION("a played piece is one solid stroke from a to b with an arrow head at b") {
        OverlayList o;
        appendPathPrimitives(o, {{{410, 60}, {510, 60}, PathPiece::State::Done, ""}}, origin, 0);
        const auto c = linesOf(o, kPathDone);
        REQUIRE(c.size() > 8);
        const size_t stroke = c.size() - 2; // then the two sides of the arrow head
        CHECK(near(c.front().a, {10, 10}));
        CHECK(near(c[stroke - 1].b, {110, 10}));
        for (size_t i = 1; i < stroke; ++i) CHECK(near(c[i].a, c[i - 1].b)); // no gaps
        for (size_t i = stroke; i < c.size(); ++i) {
            CHECK(near(c[i].a, {110, 10}));
            CHECK(glm::length(c[i].b - c[i].a) ==
                  Approx(std::sqrt(11.0f * 11.0f + 5.0f * 5.0f)).epsilon(1e-4));
        }
        // A dark halo under the whole curve.
        CHECK(linesOf(o, Rgba8{0, 0, 0, 160}).size() == stroke);
    }
    SECTION("a piece ahead of the step is grey and dashed: 4 px on, 3 px off") {
        OverlayList o;
        appendPathPrimitives(o, {{{400, 50}, {540, 50}, PathPiece::State::Ahead, ""}}, origin, 0);
        const auto grey = linesOf(o, kPathAhead), halo = linesOf(o, Rgba8{0, 0, 0, 160});
        REQUIRE(grey.size() > 2);
        const double on = double(grey.size() - 2) / double(halo.size());
        CHECK(on == Approx(4.0 / 7.0).margin(0.15));
        CHECK(linesOf(o, kPathDone).empty());
    }
    SECTION("the label sits on a dark box at 40% of the first piece and 70% of the second") {
        OverlayList o;
        const std::vector<PathPiece> ps{{{400, 150}, {600, 150}, PathPiece::State::Playing, "step 3: cp"},
                                        {{600, 150}, {800, 150}, PathPiece::State::Ahead, "step 9: ld"}};
        appendPathPrimitives(o, ps, origin, 4);
        REQUIRE(o.texts.size() == 2);
        CHECK(near(o.texts[0].pos, pathPoint(ps[0], 0.4f) + glm::vec2(6, -20) - origin));
        CHECK(near(o.texts[1].pos, pathPoint(ps[1], 0.7f) + glm::vec2(6, -20) - origin));
        CHECK(o.texts[0].text == "step 3: cp");
        CHECK(o.texts[1].colour == kPathAhead);
        REQUIRE(o.rects.size() == 2);
        CHECK(o.rects[0].filled);
        CHECK(o.rects[0].hi.x - o.rects[0].lo.x == Approx(approxTextWidth("step 3: cp") + 6));
    }
    SECTION("the playing piece's dashes move with the phase; a played one does not") {
        const PathPiece playing{{400, 50}, {600, 50}, PathPiece::State::Playing, ""};
        OverlayList a, b;
        appendPathPrimitives(a, {playing}, origin, 0);
        appendPathPrimitives(b, {playing}, origin, 2);
        CHECK_FALSE(a.lines == b.lines);
        const PathPiece done{{400, 50}, {600, 50}, PathPiece::State::Done, ""};
        OverlayList c, d;
        appendPathPrimitives(c, {done}, origin, 0);
        appendPathPrimitives(d, {done}, origin, 2);
        CHECK(c.lines == d.lines);
    }
}
