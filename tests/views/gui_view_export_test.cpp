// Export of any single view (export_view.hpp) and the canvases' context menu (view_export_menu.hpp):
//   PNG pixels of the TMEM view of tcgen05.st 32x32b.x4 by warp 1 (tmem_fixture): the cell of lane
//   32+t, column j has the colour of register j of thread t (hue = thread, lightness = register;
//   tcgen05.md §4.1), on the OpenGL path and on the CPU fallback;
//   every view of a bundled scenario exports to a readable PNG and a well-formed SVG (QXmlStreamReader);
//   right-click on a canvas offers PNG and SVG, and the SVG action writes the file chosen in the dialog.
#include "main_window.hpp"
#include "tmem_fixture.hpp"
#include "view_export_menu.hpp"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QMenu>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

bool close(QRgb p, Rgba8 c, int tol = 3) {
    return std::abs(qRed(p) - c.r) <= tol && std::abs(qGreen(p) - c.g) <= tol &&
           std::abs(qBlue(p) - c.b) <= tol;
}

void checkTmemPixels(const ExportResult& r, const ViewPane& pane) {
    REQUIRE(r.ok);
    REQUIRE(r.image.size() == QSize(1600, 900));
    const Camera2D cam = fitPaneCamera(pane, {1600, 900}); // where the cells are, not what colour
    // Registers 0..2 (register 3 is highlighted: it arrived in the last step); threads away from lane
    // 32 and registers away from column 0 (the 32-lane / 32-column group lines).
    for (const auto& [t, j] : {std::pair{5u, 1u}, {17u, 2u}, {30u, 1u}, {11u, 2u}}) {
        const glm::vec2 s = cam.worldToScreen({float(j) + 0.5f, float(32 + t) + 0.5f});
        const QRgb got = r.image.pixel(int(s.x), int(s.y));
        INFO("thread " << t << " register " << j << " got " << qRed(got) << "," << qGreen(got) << ","
                       << qBlue(got));
        CHECK(close(got, colourForCoord(int(t), int(j), 32, 4)));
    }
    const glm::vec2 u = cam.worldToScreen({4.5f, 40.5f}); // column 4: not written by the store
    CHECK(close(r.image.pixel(int(u.x), int(u.y)), kUntouched));
}

/// Parse the whole document; the root element's name, or the error.
QString svgRoot(const QString& path, int* texts = nullptr) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return "cannot open";
    QXmlStreamReader x(&f);
    QString root;
    int n = 0;
    while (!x.atEnd()) {
        if (x.readNext() == QXmlStreamReader::StartElement) {
            if (root.isEmpty()) root = x.name().toString();
            n += x.name() == QLatin1String("text");
        }
    }
    if (texts) *texts = n;
    return x.hasError() ? "XML error: " + x.errorString() : root;
}

} // namespace

TEST_CASE("PNG of the TMEM view: register j of thread t at lane 32+t, column j", "[views][export][tmem]") {
    auto doc = test::makeTmemStDocument();
    const ViewPaneResult pane = buildViewPane(*doc, ExportView::Tmem, 5);
    REQUIRE(pane.pane);
    SECTION("OpenGL path (Mesa under xvfb-run)") {
        const ExportResult r = renderView(*doc, ExportView::Tmem, 5, QSize(1600, 900));
        if (!r.usedGl) WARN("no GL context here, the CPU fallback rendered: " << r.message.toStdString());
        checkTmemPixels(r, *pane.pane);
    }
    SECTION("CPU fallback") {
        qputenv("LAYOUTSCOPE_EXPORT_CPU", "1");
        const ExportResult r = renderView(*doc, ExportView::Tmem, 5, QSize(1600, 900));
        qunsetenv("LAYOUTSCOPE_EXPORT_CPU");
        CHECK_FALSE(r.usedGl);
        checkTmemPixels(r, *pane.pane);
    }
}

TEST_CASE("Every view exports to PNG and well-formed SVG", "[views][export][svg]") {
    const auto [scenario, view] = GENERATE(table<const char*, ExportView>({
        {"tma_tile_64x64_f16_sw128", ExportView::All},
        {"tma_tile_64x64_f16_sw128", ExportView::Smem},
        {"tma_tile_64x64_f16_sw128", ExportView::Global},
        {"tcgen05_st_32x32b", ExportView::Tmem},
        {"tcgen05_st_32x32b", ExportView::Registers},
        {"tcgen05_cp_64x128b_warpx2_02_13_b6", ExportView::Decompression},
        {"tma_multicast_cluster2", ExportView::Multicast},
    }));
    INFO(scenario << " --view " << exportViewName(view));
    auto doc = Document::fromFile(std::string(LAYOUTSCOPE_ASSETS_DIR "/scenarios/") + scenario + ".scn");
    REQUIRE(doc->hasTrace());
    QTemporaryDir dir;
    const ExportResult png =
        exportView(*doc, view, doc->trace().stepCount, dir.filePath("v.png"), QSize(800, 450));
    INFO(png.message.toStdString());
    REQUIRE(png.ok);
    const QImage img(dir.filePath("v.png"));
    CHECK(img.size() == QSize(800, 450));
    int lit = 0; // pixels far from the background: cells and labels were drawn
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3) lit += !close(img.pixel(x, y), kBackground, 12);
    CHECK(lit > 500);
    const ExportResult svg = exportView(*doc, view, doc->trace().stepCount, dir.filePath("v.svg"));
    REQUIRE(svg.ok);
    int texts = 0;
    CHECK(svgRoot(dir.filePath("v.svg"), &texts) == "svg");
    CHECK(texts > 3);
}

TEST_CASE("Right-click on a canvas offers PNG and SVG export of that view", "[views][gui][export]") {
    MainWindow w;
    w.resize(1600, 1000);
    w.setDocument(test::makeTmemStDocument());
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    for (CellCanvas* c : {w.smemView(), w.globalView(), w.tmemViews()->tmemView(),
                          w.tmemViews()->registerView(), w.tmemViews()->decompView()})
        CHECK(c->contextMenuPolicy() == Qt::CustomContextMenu);
    CellCanvas* tmem = w.tmemViews()->tmemView();
    emit tmem->customContextMenuRequested(QPoint(20, 20));
    QMenu* menu = nullptr;
    for (QMenu* m : tmem->findChildren<QMenu*>())
        if (m->isVisible()) menu = m;
    REQUIRE(menu);
    auto* png = menu->findChild<QAction*>("exportViewPng");
    auto* svg = menu->findChild<QAction*>("exportViewSvg");
    REQUIRE(png);
    REQUIRE(svg);
    CHECK(png->text() == "Export this view as PNG...");
    CHECK(svg->text() == "Export this view as SVG...");
    CHECK(png->isEnabled());

    SECTION("the SVG action writes the file chosen in the dialog") {
        QTemporaryDir dir;
        const QString path = dir.filePath("layoutscope_tmem.svg"); // the name the dialog suggests
        bool dialogSeen = false;
        QTimer::singleShot(300, [&] {
            auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            dialogSeen = true;
            d->setDirectory(dir.path());
            static_cast<QDialog*>(d)->accept(); // QFileDialog::accept: takes the selected file
        });
        svg->trigger(); // queued: the menu closes first, then the dialog opens
        menu->close();
        for (int i = 0; i < 50 && !QFile::exists(path); ++i) QTest::qWait(100);
        REQUIRE(dialogSeen);
        REQUIRE(QFile::exists(path));
        QTest::qWait(200); // the export returns after the file is complete; let the dialog go
        CHECK(svgRoot(path) == "svg");
        QFile f(path);
        REQUIRE(f.open(QIODevice::ReadOnly));
        CHECK(f.readAll().contains("Tensor Memory: 128 lanes x 512 columns"));
    }
}
