// views_bench: the issue-5 speed numbers of the GUI (a benchmark, not a test; not run by ctest).
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/<dir>/tests/views/views_bench
//
// The real MainWindow at 1920x1080 on a synthetic 10,000-step trace: every step moves one 128-B row of a
// full 228 KiB shared memory (233,472 one-byte cells) and one 32-bit TMEM cell in each of 32 lanes
// (tcgen05.st-like register moves), so the centre view shows all 228 KiB and the Tensor Memory dock
// the full 128 x 512 cells. Reports:
//   frames     median / p95 interval between painted frames while the timeline plays one step per frame
//              (scene rebuild + texture upload + draw), >= 200 frames
//   draw calls GL draw calls per frame of each canvas (1 for all the cells + ImGui commands), for the
//              full trace and for a small one (a 128-byte window): the cell part must not change
//   cold start process start -> first painted frame (child processes, CLOCK_MONOTONIC): the synthetic trace,
//              a small tcgen05.st document, and a 10,000-load file opened as the app opens it (the window's
//              first frame, then the document's) and as it was opened before (synchronously)
//   scrub      random seeks on the timeline: Replay + TmemReplay seek and every scene rebuilt, ms each
//   tcgen05    every bundled example that uses Tensor Memory played one step per frame, TMEM shown
//   editor     the longest event-loop stall while typing in 3,000 64x64 loads (issue 25 item 11)
//   lessons    bundled lessons (issue 16: "a lesson plays at the frame-time goal"), highlights on: Next
//              through every lesson step (seek + highlights + the frame that shows it), then the lesson's
//              trace played one step per frame with the panel following; mean / max frame time
// Every row with a goal prints PASS or FAIL; a row that did not run prints DID NOT RUN; the exit status is
// 1 when any row missed or did not run (issue 25 item 12). LS_BENCH_SKIP_COLD=1 skips the cold starts
// (their rows then fail as not run).
#include "bench_cold.hpp"
#include "bench_frames.hpp"
#include "lesson_dock.hpp"
#include "main_window.hpp"
#include "scene/tmem_scene_cache.hpp"
#include "tmem_fixture.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

using namespace layoutscope;
using namespace layoutscope::views;
using namespace layoutscope::views::bench;

namespace {

constexpr uint32_t kSteps = 10000;
constexpr uint32_t kSmemBytes = 228 * 1024;

/// A bundled lesson in the window, highlights on. `next`: per lesson step, Next (LessonDock::goToStep:
/// seek, caption, highlights) until the frame that shows it is painted by every visible canvas (the
/// canvases are asked to repaint, so a step at the same trace position still costs its frame).
/// `play`: the lesson's trace one step per frame (playFrames) with the panel following the timeline.
struct LessonResult {
    std::string name;
    size_t steps = 0, maxHighlightRanges = 0;
    uint32_t traceSteps = 0;
    Stats next;
    FrameResult play;
};

LessonResult benchLesson(MainWindow& w, const QString& path) {
    LessonResult r;
    r.name = path.section('/', -1).toStdString();
    auto* d = w.findChild<LessonDock*>();
    if (!d || !d->openLesson(path)) return r;
    waitUntil([] { return false; }, 300); // the scenario opened, its docks laid out and painted
    r.steps = d->stepCount();
    r.traceSteps = w.playback()->stepCount();
    std::vector<CellCanvas*> canvases{w.smemView(), w.globalView(), w.tmemViews()->tmemView(),
                                      w.tmemViews()->registerView()};
    std::vector<double> next;
    for (int round = 0; round < 5; ++round) // every step, 5 times over
        for (size_t i = 0; i < r.steps; ++i) {
            std::vector<bool> painted(canvases.size(), false);
            std::vector<QMetaObject::Connection> cs;
            for (size_t k = 0; k < canvases.size(); ++k)
                cs.push_back(QObject::connect(canvases[k], &CellCanvas::framePainted, &w,
                                              [&painted, k](double) { painted[k] = true; }));
            const int64_t t0 = nowNs();
            d->goToStep(i);
            for (CellCanvas* c : canvases) c->refreshView();
            waitUntil(
                [&] {
                    for (size_t k = 0; k < canvases.size(); ++k)
                        if (!painted[k] && canvases[k]->isVisible() &&
                            !canvases[k]->visibleRegion().isEmpty())
                            return false;
                    return true;
                },
                5000);
            next.push_back(double(nowNs() - t0) / 1e6);
            for (const auto& c : cs) QObject::disconnect(c);
            for (CellCanvas* c : canvases)
                r.maxHighlightRanges = std::max(r.maxHighlightRanges, c->highlights().size());
        }
    r.next = stats(next);
    d->goToStep(0);
    QCoreApplication::processEvents();
    r.play = playFrames(w, 120);
    return r;
}

/// A bare QOpenGLWidget that only clears: the cost of Qt's widget composition + llvmpipe + Xvfb
/// alone, i.e. what the canvases cost when they were QOpenGLWidgets (before stop 10).
class ClearWidget : public QOpenGLWidget, protected QOpenGLFunctions {
  public:
    std::vector<double> dt;
    int64_t last = 0;

  protected:
    void initializeGL() override { initializeOpenGLFunctions(); }
    void paintGL() override {
        glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        const int64_t t = nowNs();
        if (last) dt.push_back(double(t - last) / 1e6);
        last = t;
        QTimer::singleShot(0, this, [this] { update(); });
    }
};

} // namespace

int main(int argc, char** argv) {
    const int64_t tMain = nowNs();
    const bool child = argc > 2 && std::string(argv[1]) == "--cold-child";
    if (!qEnvironmentVariableIsEmpty("DISPLAY")) qputenv("QT_QPA_PLATFORM", "xcb");
    // The bench's own settings (saved layouts, last file): a run neither reads nor changes the user's.
    QTemporaryDir config;
    if (!child) qputenv("XDG_CONFIG_HOME", config.path().toUtf8());
    QSurfaceFormat fmt;
    fmt.setVersion(3, 3);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    QSurfaceFormat::setDefaultFormat(fmt);
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    if (child) return coldChild(argv[2], argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString(), tMain);
    Q_INIT_RESOURCE(layoutscope);

    // The 10,000-load file (cold start) and the 3,000-load one (editor stall).
    QTemporaryDir files;
    const QString loads10k = files.filePath("loads10k.scn"), loads3k = files.filePath("loads3k.scn");
    for (const auto& [path, n] : {std::pair{loads10k, 10000}, std::pair{loads3k, 3000}}) {
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) f.write(QByteArray::fromStdString(loadsScenario(n)));
    }
    // Cold starts: 4 rounds of 4 child processes (LS_BENCH_SKIP_COLD=1 skips them).
    const ColdStarts cold =
        runColdStarts(qEnvironmentVariableIntValue("LS_BENCH_SKIP_COLD") ? 0 : 4, loads10k);

    MainWindow w;
    w.resize(1920, 1080);
    QElapsedTimer build;
    build.start();
    w.setDocument(test::makeTmemBenchDocument(kSteps, kSmemBytes));
    const double docMs = double(build.nsecsElapsed()) / 1e6;
    w.show();
    waitUntil([&] { return w.smemView()->frameMs() > 0 && w.tmemViews()->tmemView()->frameMs() > 0; }, 20000);
    const bool gl = w.smemView()->usesGl();
    const FrameResult full = playFrames(w, 240);

    // Scrub: random seeks, scenes rebuilt synchronously (stepChanged -> MainWindow::onStep).
    std::mt19937 rng(5);
    std::vector<double> seek;
    for (int i = 0; i < 200; ++i) {
        const uint32_t s = rng() % (kSteps + 1);
        QElapsedTimer t;
        t.start();
        w.playback()->seek(s);
        seek.push_back(double(t.nsecsElapsed()) / 1e6);
        if (i % 20 == 0) QCoreApplication::processEvents();
    }
    const Stats sk = stats(seek);

    // Where a seek's time goes: each stage alone on the same random steps.
    std::vector<double> tReplay, tSmem, tTmemCached, tTmemFull;
    {
        const Document& doc = *w.document();
        const auto frames = boxFrames(doc);
        Replay replay(doc.trace(), doc.initial());
        TmemSceneCache cache(doc, 0);
        std::mt19937 r2(7);
        for (int i = 0; i < 60; ++i) {
            const uint32_t s = r2() % (kSteps + 1);
            QElapsedTimer t;
            t.start();
            replay.seek(s);
            tReplay.push_back(double(t.nsecsElapsed()) / 1e6);
            t.restart();
            const SmemScene sm = smemSceneAt(doc, s, frames, 0, 0);
            tSmem.push_back(double(t.nsecsElapsed()) / 1e6);
            t.restart();
            (void)cache.seek(s);
            tTmemCached.push_back(double(t.nsecsElapsed()) / 1e6);
            if (i < 20) {
                t.restart();
                const TmemScene full = tmemSceneAt(doc, s, 0);
                tTmemFull.push_back(double(t.nsecsElapsed()) / 1e6);
            }
        }
    }

    // Small grid: same window, a 128-byte shared memory and a 4-register store.
    w.setDocument(test::makeTmemStDocument());
    QCoreApplication::processEvents();
    const FrameResult small = playFrames(w, 60);

    // The composition floor: the same small document with every dock closed (one GL canvas left).
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) d->hide();
    QCoreApplication::processEvents();
    const FrameResult alone = playFrames(w, 60);

    // Lessons (issue 16): a TMA one (SMEM + global) and a tcgen05 one (SMEM + TMEM), docks back.
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) d->show();
    std::vector<LessonResult> lessons;
    for (const char* l : {"01_tma_tile_sw128.lesson", "10_tcgen05_cp_warpx4.lesson"})
        lessons.push_back(benchLesson(w, QString(LAYOUTSCOPE_ASSETS_DIR) + "/lessons/" + l));
    // Issue 25 item 11: the bundled examples that use Tensor Memory, played with it shown.
    const std::vector<ExampleFrames> examples = playTcgen05Examples(w, 120);

    w.hide();
    const Stall stall = editorStall(loads3k); // its own window

    ClearWidget bare;
    bare.resize(1920, 1080);
    bare.show();
    waitUntil([&] { return bare.dt.size() >= 100; }, 60000);
    const Stats bareStats = stats(bare.dt);
    bare.hide();

    std::printf("views_bench: MainWindow 1920x1080, %s, trace of %u steps (%zu moves)\n",
                gl ? "OpenGL (a QOpenGLWindow per canvas)" : "raster fallback (no GL)", kSteps,
                size_t(kSteps) * 33);
    std::printf("  grids: shared memory 128 x %u = %u cells, Tensor Memory 512 x 128 = 65536 cells; document "
                "built in %.1f ms\n",
                kSmemBytes / 128, kSmemBytes, docMs);
    char m[256];
    auto txt = [](const char* f, double a, double b) {
        char buf[64];
        std::snprintf(buf, sizeof buf, f, a, b);
        return std::string(buf);
    };
    Report rep;
    const Of frameOf = Of::P95;
    const double frameGoal = 16.7; // one frame at 60 Hz
    std::snprintf(
        m, sizeof m,
        "frame interval while playing the 10,000-step trace (%d frames, each painted by both canvases; "
        "paints SMEM %d, TMEM %d)",
        full.frames, full.smemFrames, full.tmemFrames);
    // A frame that the TMEM canvas never painted is not the row's measure: it did not run.
    rep.goal(m, full.tmemFrames > 0 && full.smemFrames > 0 ? full.frame : Stats{}, frameOf, frameGoal);
    rep.info("- of which the next step's scenes and texels (CPU, Playback::seek)", full.seek.n > 0,
             txt("%.2f ms", full.seek.median, 0), txt("p95 %.2f ms", full.seek.p95, 0));
    rep.goal("cold start to the first frame of both canvases, synthetic 10,000-step document (runs: " +
                 std::to_string(cold.synth.size()) + ")",
             stats(cold.synth), Of::Max, 500, "", "max");
    rep.info("- of which building the synthetic document / exec -> main()", !cold.synthDoc.empty(),
             txt("%.1f / %.1f ms", stats(cold.synthDoc).median, stats(cold.synthMain).median));
    rep.goal("cold start to first frame, small tcgen05.st document (runs: " +
                 std::to_string(cold.small.size()) + ")",
             stats(cold.small), Of::Max, 500, "", "max");
    rep.goal(
        "cold start of a 10,000-load file (64x64 fp16 SW128, 5.1 M moves) as the app opens it: the window's "
        "first frame (runs: " +
            std::to_string(cold.fileFirst.size()) + ")",
        stats(cold.fileFirst), Of::Max, 500, "", "max");
    rep.goal("- the same file: its document's first frame (parse + run + the views' passes on a worker)",
             stats(cold.fileDoc), Of::Max, 500, "", "max");
    rep.info("- the same file: the UI thread's time in openFileInBackground", !cold.fileCall.empty(),
             txt("%.2f ms", stats(cold.fileCall).median, 0), txt("max %.2f ms", stats(cold.fileCall).max, 0));
    rep.info("- the same file opened synchronously (openFile, before): first frame / time in the call",
             !cold.syncFirst.empty(),
             txt("%.1f / %.1f ms", stats(cold.syncFirst).median, stats(cold.syncCall).median),
             txt("max %.1f ms", stats(cold.syncFirst).max, 0));
    rep.goal("scrub: random seek + all scenes rebuilt (200 seeks)", sk, Of::Max, 16, "", "max");
    rep.info("- of which Replay::seek (SMEM bytes)", !tReplay.empty(),
             txt("%.2f ms", stats(tReplay).median, 0), txt("max %.2f ms", stats(tReplay).max, 0));
    rep.info("- of which smemSceneAt (233,472 cells, from step 0)", !tSmem.empty(),
             txt("%.2f ms", stats(tSmem).median, 0), txt("max %.2f ms", stats(tSmem).max, 0));
    rep.info("- of which TMEM scene, TmemSceneCache::seek", !tTmemCached.empty(),
             txt("%.2f ms", stats(tTmemCached).median, 0), txt("max %.2f ms", stats(tTmemCached).max, 0));
    rep.info("- (TMEM scene without the cache, tmemSceneAt from step 0)", !tTmemFull.empty(),
             txt("%.2f ms", stats(tTmemFull).median, 0), txt("max %.2f ms", stats(tTmemFull).max, 0));
    rep.info("draw calls per frame, full grids: SMEM / TMEM canvas (1 cell draw + ImGui cmds)",
             full.tmemFrames > 0, txt("%.0f / %.0f", full.smemCalls, full.tmemCalls));
    rep.info("paint CPU time per canvas (GL calls issued; llvmpipe rasterises at the flush): SMEM / TMEM",
             full.tmemFrames > 0, txt("%.2f / %.2f ms", full.smemPaint, full.tmemPaint));
    rep.info("draw calls per frame, small grids (128 B SMEM): SMEM / TMEM", small.frames > 0,
             txt("%.0f / %.0f", small.smemCalls, small.tmemCalls));
    rep.goal("frame interval, small grids, same window (" + std::to_string(small.frames) + " frames)",
             small.frame, frameOf, frameGoal);
    rep.info("frame interval, small grids, docks closed (SMEM canvas alone, 1920x1080)", alone.frames > 0,
             txt("%.2f ms", alone.frame.median, 0), txt("p95 %.2f ms", alone.frame.p95, 0));
    rep.info("frame interval, bare QOpenGLWidget 1920x1080 that only clears (" +
                 std::to_string(bare.dt.size()) + " frames)",
             !bare.dt.empty(), txt("%.2f ms", bareStats.median, 0), txt("p95 %.2f ms", bareStats.p95, 0));
    for (const ExampleFrames& e : examples) {
        std::snprintf(m, sizeof m,
                      "tcgen05 example %s played one step per frame, Tensor Memory %s (%d frames)",
                      e.name.c_str(), e.tmemShown ? "shown" : "NOT shown", e.play.frames);
        rep.goal(m, e.tmemShown && e.play.tmemFrames > 0 ? e.play.frame : Stats{}, frameOf, frameGoal);
    }
    rep.goal("editor: longest event-loop stall typing in 3,000 64x64 loads (4 re-checks: " +
                 std::to_string(stall.rechecks) + " landed)",
             stall.rechecks == 4 ? Stats{stall.worstMs, stall.worstMs, stall.worstMs, stall.worstMs, 1}
                                 : Stats{},
             Of::Max, 50, "", "max");
    for (const LessonResult& l : lessons) {
        std::snprintf(m, sizeof m,
                      "lesson %s (%zu steps, trace of %u steps): Next, seek + highlights + frame (%zu)",
                      l.name.c_str(), l.steps, l.traceSteps, l.steps * 5);
        rep.goal(m, l.next, Of::Mean, frameGoal, "", "max");
        std::snprintf(m, sizeof m, "lesson %s played one step per frame, highlights on (%d frames)",
                      l.name.c_str(), l.play.frames);
        rep.goal(m, l.play.frame, frameOf, frameGoal);
    }
    rep.print();
    return rep.exitCode();
}
