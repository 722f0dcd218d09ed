// Offscreen render test against reviewed reference images (issue 5): every bundled TMA scenario is
// exported at its last step and compared with tests/views/reference/<scenario>.png, made once by
// scripts/update-reference-images and reviewed by eye; so are a few tcgen05 examples' Tensor Memory view
// (reference/tmem/, `--view tmem`) and a few broken examples' export with its diagnosis band
// (reference/broken/). The CPU path (LAYOUTSCOPE_EXPORT_CPU=1) is
// forced on both sides so the images do not depend on GL vs CPU differences; text is drawn in the
// bundled DejaVu Sans Mono (fonts-dejavu-core, installed by scripts/setup).
// Tolerance: a pixel differs when any channel differs by more than kChannelTol; the test fails when
// more than kMaxDiffFraction of the pixels differ (room for font hinting/antialiasing, not for a
// moved or recoloured cell). On failure the image and a diff mask are written next to the build.
#include "export.hpp"
#include "export_view.hpp"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <cstdlib>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

constexpr int kChannelTol = 8;
constexpr double kMaxDiffFraction = 0.002;
const QSize kSize(960, 540); // the size scripts/update-reference-images renders at

QString referenceDir() {
    return QStringLiteral(LAYOUTSCOPE_ASSETS_DIR "/../tests/views/reference");
}
QString scenarioDir() {
    return QStringLiteral(LAYOUTSCOPE_ASSETS_DIR "/scenarios");
}

struct Diff {
    qint64 differing = 0, total = 0;
    int worst = 0; ///< largest channel difference seen
    QImage mask;   ///< red where a pixel differs
};

Diff compareImages(const QImage& a0, const QImage& b0) {
    const QImage a = a0.convertToFormat(QImage::Format_RGB32), b = b0.convertToFormat(QImage::Format_RGB32);
    Diff d;
    d.total = qint64(a.width()) * a.height();
    d.mask = QImage(a.size(), QImage::Format_RGB32);
    d.mask.fill(Qt::black);
    for (int y = 0; y < a.height(); ++y) {
        const auto* pa = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* pb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            const int m =
                std::max({std::abs(qRed(pa[x]) - qRed(pb[x])), std::abs(qGreen(pa[x]) - qGreen(pb[x])),
                          std::abs(qBlue(pa[x]) - qBlue(pb[x]))});
            d.worst = std::max(d.worst, m);
            if (m > kChannelTol) {
                ++d.differing;
                d.mask.setPixel(x, y, qRgb(255, 0, 0));
            }
        }
    }
    return d;
}

/// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value)
        : m_name(name), m_old(qgetenv(name)), m_had(qEnvironmentVariableIsSet(name)) {
        qputenv(name, value);
    }
    ~ScopedEnv() {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* m_name;
    QByteArray m_old;
    bool m_had;
};

} // namespace

TEST_CASE("The image comparison counts pixels beyond the per-channel tolerance", "[views][gui][reference]") {
    QImage a(10, 10, QImage::Format_RGB32), b(10, 10, QImage::Format_RGB32);
    a.fill(qRgb(100, 100, 100));
    b.fill(qRgb(100 + kChannelTol, 100, 100 - kChannelTol)); // within tolerance everywhere
    b.setPixel(3, 4, qRgb(100, 100 + kChannelTol + 1, 100)); // one pixel just beyond it
    const Diff d = compareImages(a, b);
    CHECK(d.total == 100);
    CHECK(d.differing == 1);
    CHECK(d.worst == kChannelTol + 1);
    CHECK(d.mask.pixel(3, 4) == qRgb(255, 0, 0));
}

namespace {

/// Renders `scn` as scripts/update-reference-images does for `folder` and compares it with `png`.
void checkAgainstReference(const QString& scn, const QString& png, const QString& folder,
                           const QString& stem) {
    INFO("scenario " << scn.toStdString());
    REQUIRE(QFileInfo::exists(scn));
    auto doc = Document::fromFile(scn.toStdString());
    REQUIRE(doc->hasTrace());
    // What `--export` draws (export_view.hpp): tmem/ `--view tmem`; the others the composite (global tensor +
    // shared memory) with the diagnosis band under it when the scenario has diagnostics (broken/; a TMA
    // example with a warning, as tma_multicast_cluster2's load still in flight at exit).
    const ExportView view = folder == "tmem" ? ExportView::Tmem : ExportView::All;
    const ExportResult r = renderView(*doc, view, UINT32_MAX, kSize);
    REQUIRE(r.ok);
    CHECK_FALSE(r.usedGl);
    const QImage ref(png);
    REQUIRE(!ref.isNull());
    REQUIRE(r.image.size() == ref.size());
    const Diff d = compareImages(r.image, ref);
    const double frac = double(d.differing) / double(d.total);
    INFO(d.differing << " of " << d.total << " pixels differ by more than " << kChannelTol
                     << " (largest channel difference " << d.worst << ")");
    if (frac > kMaxDiffFraction) {
        const QString base =
            QDir::tempPath() + "/layoutscope-reference-" + (folder.isEmpty() ? "" : folder + "-") + stem;
        r.image.save(base + "-got.png");
        d.mask.save(base + "-diff.png");
        WARN("wrote " << base.toStdString()
                      << "-got.png and -diff.png; if the change is intended, run "
                         "scripts/update-reference-images and review the images");
    }
    CHECK(frac <= kMaxDiffFraction);
}

} // namespace

TEST_CASE("Each bundled scenario renders as its reviewed reference image", "[views][gui][reference]") {
    const ScopedEnv cpu("LAYOUTSCOPE_EXPORT_CPU", "1");
    const QDir refs(referenceDir());
    const QStringList pngs = refs.entryList({"*.png"}, QDir::Files, QDir::Name);
    // The TMA scenarios that existed when the references were made must all be covered.
    REQUIRE(pngs.size() >= 10);
    for (const QString& png : pngs) {
        const QString stem = QFileInfo(png).completeBaseName();
        SECTION(stem.toStdString()) {
            checkAgainstReference(scenarioDir() + "/" + stem + ".scn", refs.filePath(png), "", stem);
        }
    }
}

TEST_CASE("tcgen05 examples' Tensor Memory view renders as its reviewed reference image",
          "[views][gui][reference][tmem]") {
    const ScopedEnv cpu("LAYOUTSCOPE_EXPORT_CPU", "1");
    const QDir refs(referenceDir() + "/tmem");
    const QStringList pngs = refs.entryList({"*.png"}, QDir::Files, QDir::Name);
    REQUIRE(pngs.size() >= 4); // scripts/update-reference-images: the `tmem` list
    for (const QString& png : pngs) {
        const QString stem = QFileInfo(png).completeBaseName();
        SECTION(stem.toStdString()) {
            // A broken example's marks are in tmem/ too: its scenario is under broken/.
            const QString top = scenarioDir() + "/" + stem + ".scn";
            checkAgainstReference(QFileInfo::exists(top) ? top : scenarioDir() + "/broken/" + stem + ".scn",
                                  refs.filePath(png), "tmem", stem);
        }
    }
}

TEST_CASE("Broken examples export with their diagnosis band as reviewed", "[views][gui][reference][broken]") {
    const ScopedEnv cpu("LAYOUTSCOPE_EXPORT_CPU", "1");
    const QDir refs(referenceDir() + "/broken");
    const QStringList pngs = refs.entryList({"*.png"}, QDir::Files, QDir::Name);
    REQUIRE(pngs.size() >= 3); // scripts/update-reference-images: the `broken` list
    for (const QString& png : pngs) {
        const QString stem = QFileInfo(png).completeBaseName();
        SECTION(stem.toStdString()) {
            checkAgainstReference(scenarioDir() + "/broken/" + stem + ".scn", refs.filePath(png), "broken",
                                  stem);
        }
    }
}

TEST_CASE("Every bundled scenario has a reference image", "[views][gui][reference][.coverage]") {
    // Hidden by default ([.]): scenarios are being added; run it to list the ones still without one.
    const QStringList scns = QDir(scenarioDir()).entryList({"tma_*.scn"}, QDir::Files, QDir::Name);
    for (const QString& s : scns) {
        INFO("missing " << s.toStdString() << ": run scripts/update-reference-images");
        CHECK(QFileInfo::exists(referenceDir() + "/" + QFileInfo(s).completeBaseName() + ".png"));
    }
}
