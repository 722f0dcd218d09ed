// Offscreen export: pixels of the exported image against colours computed independently from the
// SWIZZLE_128B formula (tma.md §4.2: phys = A ^ (((A>>7)&7)<<4), an involution).
#include "export.hpp"
#include "export_view.hpp"
#include "fake_trace.hpp"
#include "scene/smem_scene.hpp"

#include <catch2/catch.hpp>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <cstdlib>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

struct Probe {
    int row, col; ///< box-relative element the byte must come from
    QPoint px;    ///< pixel at the centre of the byte's cell
};

/// Pixel of the SMEM cell of absolute address `addr` and the element it must hold, for a box of
/// 64 fp16 per row (128 B) stored from `base` with SWIZZLE_128B.
Probe probe(const ExportLayout& L, const SmemWindow& w, uint32_t base, uint32_t addr) {
    const uint32_t logical = addr ^ (((addr >> 7) & 7u) << 4);
    const uint32_t off = logical - base;
    const uint32_t i = addr - w.base;
    const glm::vec2 s = L.smemCam.worldToScreen({float(i % 128) + 0.5f, float(i / 128) + 0.5f});
    return {int(off / 128), int((off % 128) / 2), L.smemRect.topLeft() + QPoint(int(s.x), int(s.y))};
}

bool close(QRgb p, Rgba8 c, int tol = 3) {
    return std::abs(qRed(p) - c.r) <= tol && std::abs(qGreen(p) - c.g) <= tol &&
           std::abs(qBlue(p) - c.b) <= tol;
}

Rgba8 scaled(Rgba8 c, float k) {
    return Rgba8{uint8_t(std::lround(c.r * k)), uint8_t(std::lround(c.g * k)), uint8_t(std::lround(c.b * k)),
                 255};
}

std::string describe(QRgb p) {
    return std::to_string(qRed(p)) + "," + std::to_string(qGreen(p)) + "," + std::to_string(qBlue(p));
}

void checkSmemPixels(const Document& doc, const ExportResult& r, uint32_t base, int rows, int boxRow0,
                     uint64_t globalRows) {
    const auto frames = boxFrames(doc);
    const SmemScene s = smemSceneAt(doc, doc.trace().stepCount, frames);
    const GlobalScene g = globalSceneAt(doc, 0, doc.trace().stepCount, frames);
    const ExportLayout L = exportLayout(s, g, r.image.size());
    // A spread of bytes over the box, away from the last chunk (highlighted as "arrived").
    for (uint32_t addr : {base + 0x0u, base + 0x0b2u, base + 0x1f3u, base + 0x345u, base + 0x777u,
                          base + 0x9a0u, base + 0xc01u, base + 0xe5eu, base + 0x1234u, base + 0x1800u}) {
        if (addr >= base + uint32_t(rows) * 128) continue;
        const Probe p = probe(L, s.window, base, addr);
        const QRgb got = r.image.pixel(p.px);
        const Rgba8 want = colourForCoord(p.row, p.col, rows, 64);
        INFO("addr 0x" << std::hex << addr << std::dec << " -> element row " << p.row << " col " << p.col
                       << " at pixel (" << p.px.x() << "," << p.px.y() << ") got " << describe(got));
        if (boxRow0 + p.row >= int64_t(globalRows)) // OOB fill: the colour, or its hatch stripe
            CHECK((close(got, want) || close(got, scaled(want, 0.35f))));
        else
            CHECK(close(got, want));
    }
}

} // namespace

TEST_CASE("Export colours each shared-memory byte by its source coordinate", "[views][export]") {
    auto doc = test::makeFakeSw128Document();
    SECTION("OpenGL path (Mesa under xvfb-run)") {
        const ExportResult r = renderDocument(*doc, doc->trace().stepCount, QSize(1600, 900));
        REQUIRE(r.ok);
        if (!r.usedGl) WARN("no GL context here, the CPU fallback rendered: " << r.message.toStdString());
        checkSmemPixels(*doc, r, test::kSmemBase, 64, test::kBoxRow0, test::kRows);
    }
    SECTION("CPU fallback") {
        qputenv("LAYOUTSCOPE_EXPORT_CPU", "1");
        const ExportResult r = renderDocument(*doc, doc->trace().stepCount, QSize(1600, 900));
        qunsetenv("LAYOUTSCOPE_EXPORT_CPU");
        REQUIRE(r.ok);
        CHECK_FALSE(r.usedGl);
        checkSmemPixels(*doc, r, test::kSmemBase, 64, test::kBoxRow0, test::kRows);
    }
}

TEST_CASE("Export of the default scenario writes a PNG whose cells follow SWIZZLE_128B",
          "[views][export][scenario]") {
    auto doc = Document::fromFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_64x64_f16_sw128.scn");
    INFO((doc->diagnostics().empty() ? std::string()
                                     : formatDiagnostic(doc->diagnostics().front(), doc->path())));
    REQUIRE(doc->hasTrace());
    const InstrTile* tile = doc->firstTile();
    REQUIRE(tile != nullptr);
    QTemporaryDir dir;
    const QString path = dir.filePath("default.png");
    const ExportResult r = exportImage(*doc, doc->trace().stepCount, path);
    REQUIRE(r.ok);
    QImage img(path);
    REQUIRE(img.size() == QSize(1600, 900));
    ExportResult loaded = r;
    loaded.image = img.convertToFormat(QImage::Format_RGB32);
    checkSmemPixels(*doc, loaded, tile->smemAddr, 64, 0, 4096);
}

// The app's shared-memory SVG is exportView's (equal-colour runs merged): with colour by source
// coordinate every element of the box has its own colour, so at least one rect per element.
TEST_CASE("SVG export of shared memory has a rect per element and hatches the zero fill",
          "[views][export][svg]") {
    auto doc = test::makeFakeSw128Document();
    QTemporaryDir dir;
    const QString path = dir.filePath("smem.svg");
    const ExportResult r = exportView(*doc, ExportView::Smem, doc->trace().stepCount, path);
    REQUIRE(r.ok);
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(f.readAll());
    CHECK(svg.startsWith("<?xml version=\"1.0\""));
    CHECK(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    CHECK(svg.count("<rect x=") >= 64 * 64);
    CHECK(svg.contains("url(#hatch)")); // the zero-filled rows
}
