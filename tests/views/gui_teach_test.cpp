// Issue 16 items 4-6 in the window: reverse and instruction stepping, a breakpoint that stops playing
// with its reason, the Help menu (every dock in View, every shortcut in the shortcuts dialog, About's
// version), and the animated PNG export parsed back against the APNG specification
// (https://wiki.mozilla.org/APNG_Specification), with zlib's CRC-32, not the writer's.
#include "breakpoint_dock.hpp"
#include "export.hpp"
#include "export_sequence.hpp"
#include "fake_trace.hpp"
#include "gui_test_util.hpp"
#include "main_window.hpp"
#include "playback_keys.hpp"

#include <catch2/catch.hpp>

#include <QAction>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QShortcut>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <zlib.h>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

QMenu* menuNamed(MainWindow& w, const QString& text) {
    for (QAction* a : w.menuBar()->actions())
        if (a->menu() && a->text() == text) return a->menu();
    return nullptr;
}

QAction* actionNamed(MainWindow& w, const QString& name) {
    return w.findChild<QAction*>(name);
}

uint32_t be32(const QByteArray& a, qsizetype at) {
    return uint32_t(uint8_t(a[at])) << 24 | uint32_t(uint8_t(a[at + 1])) << 16 |
           uint32_t(uint8_t(a[at + 2])) << 8 | uint32_t(uint8_t(a[at + 3]));
}

struct Chunk {
    QByteArray type, data;
    bool crcOk = false;
};

std::vector<Chunk> chunksOf(const QByteArray& png) {
    std::vector<Chunk> out;
    for (qsizetype at = 8; at + 12 <= png.size();) {
        const uint32_t len = be32(png, at);
        Chunk c{png.mid(at + 4, 4), png.mid(at + 8, len)};
        const QByteArray td = png.mid(at + 4, 4 + qsizetype(len));
        const uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(td.constData()), uInt(td.size()));
        c.crcOk = uint32_t(crc) == be32(png, at + 8 + qsizetype(len));
        out.push_back(c);
        at += 12 + qsizetype(len);
    }
    return out;
}

/// A plain PNG of one APNG frame: the signature, IHDR, its image data as one IDAT, IEND (CRCs by zlib).
QByteArray standalonePng(const QByteArray& ihdr, const QByteArray& data) {
    QByteArray png("\x89PNG\r\n\x1a\n", 8);
    const auto add = [&](const char* type, const QByteArray& d) {
        for (int s = 24; s >= 0; s -= 8) png.append(char((uint32_t(d.size()) >> s) & 0xFF));
        QByteArray td = QByteArray(type, 4) + d;
        png += td;
        const uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(td.constData()), uInt(td.size()));
        for (int s = 24; s >= 0; s -= 8) png.append(char((uint32_t(crc) >> s) & 0xFF));
    };
    add("IHDR", ihdr), add("IDAT", data), add("IEND", {});
    return png;
}

} // namespace

TEST_CASE("Reverse and instruction stepping from the timeline", "[views][gui][teach]") {
    MainWindow w;
    w.resize(1280, 800);
    w.setDocument(test::makeFakeSw128Document()); // one instruction, steps 0..511
    w.show();
    Playback* pb = w.playback();
    SECTION("the buttons step back one move and one instruction, their tooltips name the keys") {
        auto* back = w.findChild<QToolButton*>("tlBack");
        auto* instrBack = w.findChild<QToolButton*>("tlInstrBack");
        auto* instrFwd = w.findChild<QToolButton*>("tlInstrForward");
        REQUIRE((back && instrBack && instrFwd));
        CHECK(back->toolTip().contains("Left"));
        CHECK(instrBack->toolTip().contains("Shift+Left"));
        CHECK(instrFwd->toolTip().contains("Shift+Right"));
        pb->seek(100);
        back->click();
        CHECK(pb->step() == 99);
        instrBack->click(); // inside the only instruction: back to its start
        CHECK(pb->step() == 0);
        instrFwd->click(); // to its end
        CHECK(pb->step() == 512);
    }
    SECTION("Shift+Left and Shift+Right reach the window") {
        pb->seek(7);
        QTest::keyClick(&w, Qt::Key_Left, Qt::ShiftModifier);
        CHECK(pb->step() == 0);
        QTest::keyClick(&w, Qt::Key_Right, Qt::ShiftModifier);
        CHECK(pb->step() == 512);
        QTest::keyClick(&w, Qt::Key_Left);
        CHECK(pb->step() == 511);
    }
    test::screenshot(w, "teach_timeline.png");
}

TEST_CASE("A cell breakpoint stops playing after the move that writes it, and says why",
          "[views][gui][teach]") {
    MainWindow w;
    w.resize(1280, 800);
    w.setDocument(test::makeFakeSw128Document());
    w.show();
    auto* panel = w.findChild<BreakpointPanel*>();
    REQUIRE(panel);
    // Chunk 10 of the box (row 1, chunk 2) is written at step 10, logical 0x400 + 128 + 32 = 0x4A0,
    // physical 0x4A0 ^ (((0x4A0 >> 7) & 7) << 4) = 0x4A0 ^ 0x10 = 0x4B0 (SWIZZLE_128B).
    Breakpoint b;
    b.locs = {DataLoc{MemSpace::SharedCta, 0, 0x4B5}};
    panel->addBreakpoint(b);
    Playback* pb = w.playback();
    pb->setSpeed(4096);
    pb->seek(0);
    pb->play();
    REQUIRE(QTest::qWaitFor([&] { return !pb->playing(); }, 5000));
    CHECK(pb->step() == 11); // the move of step 10 applied
    CHECK(w.statusBar()->currentMessage().contains("stopped at step 11"));
    CHECK(w.statusBar()->currentMessage().contains("0x4b5"));
    if (auto* dock = w.findChild<QDockWidget*>("breakpointDock")) dock->raise();
    test::screenshot(w, "teach_breakpoints.png");
    pb->play(); // never written again: plays to the end
    REQUIRE(QTest::qWaitFor([&] { return !pb->playing(); }, 5000));
    CHECK(pb->step() == 512);
}

TEST_CASE("A bank-conflict breakpoint stops at the conflicting shared access and names its excess",
          "[views][gui][teach]") {
    // A TMA load (512 steps of 16 B), then a warp's 16-B loads at a 128-B pitch: quarter-warp phases of
    // 8 lanes all on banks 0..3 -> 8 wavefronts per phase, 32 in all, ideal 4: 28 excess (docs/banks.md).
    // The access moves nothing, so it stands at position 512, after the load.
    MainWindow w;
    w.setDocument(Document::fromText(
        "target sm_90a\ntensormap A tiled FLOAT16 dims=[4096,4096] strides=[8192] box=[64,64] swizzle=128B\n"
        "smem sA 16384 align=1024\nmbarrier bar\nwarp 1\n"
        "mbarrier.init.shared::cta.b64 [bar], 1;\n"
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n"
        "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, 0}], "
        "[bar];\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n"
        "ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + lane * 128];\n"));
    INFO(w.diagnosticsText().toStdString());
    REQUIRE(w.document()->hasTrace());
    REQUIRE(w.document()->trace().stepCount == 512);
    w.show();
    auto* panel = w.findChild<BreakpointPanel*>();
    REQUIRE(panel);
    Breakpoint b;
    b.kind = Breakpoint::Kind::BankExcess;
    SECTION("N = 27: stops with the reason") {
        b.maxExcess = 27;
        panel->addBreakpoint(b);
        const auto hit = panel->nextStop(0);
        REQUIRE(hit);
        CHECK(hit->position == 512);
        CHECK(hit->why.find("28 excess wavefronts") != std::string::npos);
        CHECK(hit->why.find("line 10") != std::string::npos); // the ld.shared
    }
    SECTION("N = 28: not exceeded") {
        b.maxExcess = 28;
        panel->addBreakpoint(b);
        CHECK_FALSE(panel->nextStop(0));
    }
}

TEST_CASE("Help: View lists every dock, the shortcuts dialog every shortcut, About the version",
          "[views][gui][teach][help]") {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QMenu* view = menuNamed(w, "&View");
    REQUIRE(view);
    SECTION("one checkable View entry per dock") {
        const auto docks = w.findChildren<QDockWidget*>();
        REQUIRE(docks.size() >= 9);
        for (QDockWidget* d : docks) {
            INFO(d->windowTitle().toStdString());
            CHECK(view->actions().count(d->toggleViewAction()) == 1);
            CHECK(d->toggleViewAction()->isCheckable());
        }
    }
    SECTION("the shortcuts dialog lists every action with a shortcut and the timeline keys") {
        QAction* keys = actionNamed(w, "helpShortcuts");
        REQUIRE(keys);
        keys->trigger();
        auto* table = w.findChild<QTableWidget*>("shortcutsTable");
        REQUIRE(table);
        QStringList rows;
        for (int r = 0; r < table->rowCount(); ++r)
            rows << table->item(r, 0)->text() + " | " + table->item(r, 1)->text();
        int withShortcut = 0;
        for (QAction* a : w.findChildren<QAction*>()) {
            if (a->shortcut().isEmpty()) continue;
            ++withShortcut;
            const QString k = a->shortcut().toString(QKeySequence::NativeText);
            INFO(a->text().toStdString() + " " + k.toStdString());
            CHECK(std::any_of(rows.begin(), rows.end(), [&](const QString& r) {
                return r.endsWith("| " + k) || r.contains("| " + k + ",");
            }));
        }
        CHECK(withShortcut >= 7); // Open, Save, Save As, Reload, Export PNG, Quit, Fit views, Help
        for (const char* k :
             {"Space", "Left", "Right", "Shift+Left", "Shift+Right", "Home", "End", "Ctrl+Return"})
            CHECK(std::any_of(rows.begin(), rows.end(),
                              [&](const QString& r) { return r.endsWith(QString("| ") + k); }));
        // Tooltips carry the shortcut too.
        for (QAction* a : w.findChildren<QAction*>())
            if (!a->shortcut().isEmpty())
                CHECK(a->toolTip().contains(a->shortcut().toString(QKeySequence::NativeText)));
        test::screenshot(*w.findChild<QDialog*>("shortcutsDialog"), "teach_shortcuts.png");
    }
    SECTION("About shows the project version") {
        QAction* about = actionNamed(w, "helpAbout");
        REQUIRE(about);
        about->trigger();
        auto* label = w.findChild<QLabel*>("aboutText");
        REQUIRE(label);
        CHECK(label->text().contains(LAYOUTSCOPE_EXPECTED_VERSION));
    }
    SECTION("every view has a how-to-read text") {
        QMenu* help = menuNamed(w, "&Help");
        REQUIRE(help);
        for (const char* v : {"Shared memory", "Banks / swizzle explorer", "Global tensor", "Tensor Memory",
                              "Registers", "Decompression", "Multicast", "Timeline", "Events"}) {
            QAction* a = w.findChild<QAction*>(QString("helpView_") + v);
            INFO(v);
            REQUIRE(a);
            a->trigger();
            CHECK(w.findChild<QDialog*>(QString("viewHelp_") + v));
        }
        if (auto* d = w.findChild<QDialog*>("viewHelp_Shared memory"))
            test::screenshot(*d, "teach_howto_smem.png");
    }
}

TEST_CASE("The animated PNG export follows the APNG specification", "[views][gui][teach][apng]") {
    auto doc = test::makeFakeSw128Document();
    QTemporaryDir dir;
    const QString path = dir.filePath("anim.png");
    const QSize size(200, 120);
    const StepRange range{3, 8}; // 6 frames: steps 3..8
    const ExportResult r = exportAnimatedPng(*doc, path, range, size, 0, 10);
    INFO(r.message.toStdString());
    REQUIRE(r.ok);
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const QByteArray png = f.readAll();
    REQUIRE(png.left(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    const auto chunks = chunksOf(png);
    REQUIRE(chunks.size() >= 4);
    for (const Chunk& c : chunks) CHECK(c.crcOk);
    CHECK(chunks.front().type == "IHDR");
    CHECK(chunks.back().type == "IEND");
    const QByteArray ihdr = chunks.front().data;
    REQUIRE(ihdr.size() == 13);
    CHECK(be32(ihdr, 0) == 200);
    CHECK(be32(ihdr, 4) == 120);
    // acTL before the first IDAT, num_frames = 6, num_plays 0 (loop).
    size_t actl = 0, firstIdat = 0;
    for (size_t i = 0; i < chunks.size(); ++i) {
        if (chunks[i].type == "acTL" && !actl) actl = i;
        if (chunks[i].type == "IDAT" && !firstIdat) firstIdat = i;
    }
    REQUIRE(actl > 0);
    REQUIRE(firstIdat > actl);
    CHECK(be32(chunks[actl].data, 0) == range.count());
    CHECK(be32(chunks[actl].data, 4) == 0);
    // fcTL / fdAT: sequence numbers 0, 1, 2, ... with no gaps; each frame's region inside the canvas;
    // frame 0 (the default image: its fcTL precedes IDAT) the full 200x120 at (0, 0).
    struct Frame {
        uint32_t w = 0, h = 0, x = 0, y = 0;
        uint8_t dispose = 0, blend = 0;
        QByteArray data;
    };
    uint32_t nextSeq = 0;
    std::vector<Frame> frames;
    for (size_t i = 0; i < chunks.size(); ++i) {
        const Chunk& c = chunks[i];
        if (c.type == "fcTL") {
            REQUIRE(c.data.size() == 26);
            CHECK(be32(c.data, 0) == nextSeq++);
            Frame f{be32(c.data, 4),
                    be32(c.data, 8),
                    be32(c.data, 12),
                    be32(c.data, 16),
                    uint8_t(c.data[24]),
                    uint8_t(c.data[25]),
                    {}};
            CHECK(f.w > 0);
            CHECK(f.h > 0);
            CHECK(f.x + f.w <= 200);
            CHECK(f.y + f.h <= 120);
            CHECK((uint8_t(c.data[20]) << 8 | uint8_t(c.data[21])) == 1); // delay 1/10 s
            CHECK((uint8_t(c.data[22]) << 8 | uint8_t(c.data[23])) == 10);
            CHECK(f.dispose <= 2);
            CHECK(f.blend <= 1);
            if (frames.empty()) {
                CHECK(i < firstIdat);
                CHECK((f.w == 200 && f.h == 120 && f.x == 0 && f.y == 0));
            }
            frames.push_back(f);
        } else if (c.type == "fdAT") {
            CHECK(be32(c.data, 0) == nextSeq++);
            REQUIRE(frames.size() > 1);
            frames.back().data += c.data.mid(4);
        } else if (c.type == "IDAT") {
            REQUIRE(frames.size() == 1);
            frames.back().data += c.data;
        }
    }
    REQUIRE(frames.size() == range.count());
    // Play the frames as the specification says (canvas starts transparent black; dispose and blend
    // ops) and compare the canvas after each frame with the render of its step.
    QImage canvas(size, QImage::Format_ARGB32);
    canvas.fill(Qt::transparent);
    for (uint32_t k = 0; k < frames.size(); ++k) {
        const Frame& f = frames[k];
        QByteArray ihdrK = ihdr;
        for (int i = 0; i < 4; ++i)
            ihdrK[i] = char(f.w >> (24 - 8 * i)), ihdrK[4 + i] = char(f.h >> (24 - 8 * i));
        QImage region;
        REQUIRE(region.loadFromData(standalonePng(ihdrK, f.data), "PNG"));
        REQUIRE(region.size() == QSize(int(f.w), int(f.h)));
        const QImage before = canvas.copy();
        QPainter p(&canvas);
        p.setCompositionMode(f.blend == 0 ? QPainter::CompositionMode_Source
                                          : QPainter::CompositionMode_SourceOver);
        p.drawImage(QPoint(int(f.x), int(f.y)), region);
        p.end();
        const QImage want =
            renderDocument(*doc, range.first + k, size).image.convertToFormat(QImage::Format_RGB32);
        INFO("frame " << k);
        CHECK(canvas.convertToFormat(QImage::Format_RGB32) == want);
        if (f.dispose == 1) { // BACKGROUND: the region back to transparent black
            QPainter q(&canvas);
            q.setCompositionMode(QPainter::CompositionMode_Source);
            q.fillRect(QRect(int(f.x), int(f.y), int(f.w), int(f.h)), Qt::transparent);
        } else if (f.dispose == 2) { // PREVIOUS
            canvas = before;
        }
    }
    CHECK(frames.size() > 1);
    CHECK(
        std::any_of(frames.begin() + 1, frames.end(), [](const Frame& f) { return f.w < 200 || f.h < 120; }));
    SECTION("a cancelled export leaves no file") {
        const QString p2 = dir.filePath("cancelled.png");
        const ExportResult c =
            exportAnimatedPng(*doc, p2, range, size, 0, 10, [](uint32_t done, uint32_t) { return done < 2; });
        CHECK_FALSE(c.ok);
        CHECK_FALSE(QFile::exists(p2));
    }
}
