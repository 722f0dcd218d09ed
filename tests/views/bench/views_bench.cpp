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
//   cold start process start -> first painted frame of both canvases (child processes, CLOCK_MONOTONIC)
//   scrub      random seeks on the timeline: Replay + TmemReplay seek and every scene rebuilt, ms each
//   lessons    bundled lessons (issue 16: "a lesson plays at the frame-time goal"), highlights on: Next
//              through every lesson step (seek + highlights + the frame that shows it), then the lesson's
//              trace played one step per frame with the panel following; mean / max frame time
#include "lesson_dock.hpp"
#include "main_window.hpp"
#include "scene/tmem_scene_cache.hpp"
#include "tmem_fixture.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QProcess>
#include <QSurfaceFormat>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

using namespace layoutscope;
using namespace layoutscope::views;

namespace {

constexpr uint32_t kSteps = 10000;
constexpr uint32_t kSmemBytes = 228 * 1024;

int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct Stats {
    double median = 0, p95 = 0, max = 0, mean = 0;
};
Stats stats(std::vector<double> v) {
    Stats s;
    if (v.empty()) return s;
    for (double x : v) s.mean += x / double(v.size());
    std::sort(v.begin(), v.end());
    s.median = v[v.size() / 2];
    s.p95 = v[std::min(v.size() - 1, size_t(double(v.size()) * 0.95))];
    s.max = v.back();
    return s;
}

void waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

/// Child mode: build the window on the full trace, exit with the time from LS_T0_NS to the first frame
/// painted by both canvases printed on stdout.
int coldChild(bool small, int64_t tMain) {
    const int64_t t0 = qEnvironmentVariable("LS_T0_NS").toLongLong();
    MainWindow w;
    w.resize(1920, 1080);
    const int64_t tDoc = nowNs();
    w.setDocument(small ? test::makeTmemStDocument() : test::makeTmemBenchDocument(kSteps, kSmemBytes));
    const double docMs = double(nowNs() - tDoc) / 1e6;
    bool smem = false, tmem = false;
    QObject::connect(w.smemView(), &CellCanvas::framePainted, [&](double) { smem = true; });
    QObject::connect(w.tmemViews()->tmemView(), &CellCanvas::framePainted, [&](double) { tmem = true; });
    w.show();
    waitUntil([&] { return smem && tmem; }, 20000);
    std::printf("%.3f %.3f %.3f\n", double(nowNs() - t0) / 1e6, docMs, double(tMain - t0) / 1e6);
    return smem && tmem ? 0 : 1;
}

struct FrameResult {
    Stats frame, seek;
    int smemCalls = 0, tmemCalls = 0, frames = 0, smemFrames = 0, tmemFrames = 0;
    double smemPaint = 0, tmemPaint = 0;
};

FrameResult playFrames(MainWindow& w, int frames) {
    FrameResult r;
    std::vector<double> dt;
    int64_t last = 0;
    uint32_t step = 1;
    auto* smem = w.smemView();
    auto* tmem = w.tmemViews()->tmemView();
    // Each canvas swaps its own GL window, so a frame of the window is a step that both the shared-
    // memory and the Tensor Memory canvas have painted; only then does the next step start.
    bool smemDone = false, tmemDone = false;
    auto seekMs = std::make_shared<std::vector<double>>();
    auto onPainted = [&] {
        if (!smemDone || (!tmemDone && tmem->isVisible())) return; // (docks closed: SMEM alone)
        smemDone = tmemDone = false;
        const int64_t t = nowNs();
        if (last) dt.push_back(double(t - last) / 1e6);
        last = t;
        r.smemCalls = smem->drawCallsLastFrame();
        r.tmemCalls = tmem->drawCallsLastFrame();
        // The next step as soon as this frame is out: the animation runs as fast as it can.
        step = step % w.playback()->stepCount() + 1;
        QTimer::singleShot(0, &w, [&w, seekMs, step] { // may run after we return: no references
            const int64_t t0 = nowNs();
            w.playback()->seek(step); // scenes and texels of the next step (CPU)
            seekMs->push_back(double(nowNs() - t0) / 1e6);
        });
    };
    const auto c1 = QObject::connect(smem, &CellCanvas::framePainted, &w, [&](double) {
        smemDone = true;
        ++r.smemFrames;
        onPainted();
    });
    const auto c2 = QObject::connect(tmem, &CellCanvas::framePainted, &w, [&](double) {
        tmemDone = true;
        ++r.tmemFrames;
        onPainted();
    });
    w.playback()->seek(step);
    waitUntil([&] { return int(dt.size()) >= frames; }, 120000);
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    r.frame = stats(dt);
    r.seek = stats(*seekMs);
    r.smemPaint = smem->frameMs();
    r.tmemPaint = tmem->frameMs();
    r.frames = int(dt.size());
    return r;
}

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
    const bool child = argc > 1 && std::string(argv[1]).rfind("--cold-child", 0) == 0;
    const bool childSmall = argc > 1 && std::string(argv[1]) == "--cold-child-small";
    if (!qEnvironmentVariableIsEmpty("DISPLAY")) qputenv("QT_QPA_PLATFORM", "xcb");
    QSurfaceFormat fmt;
    fmt.setVersion(3, 3);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    QSurfaceFormat::setDefaultFormat(fmt);
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    if (child) return coldChild(childSmall, tMain);
    Q_INIT_RESOURCE(layoutscope);

    // Cold start: 5 child processes (LS_BENCH_SKIP_COLD=1 skips them).
    // Each child prints: first frame, document build, process start -> main() (ms).
    std::vector<double> cold, coldDoc, coldMain, coldSmall;
    for (int i = 0; i < (qEnvironmentVariableIntValue("LS_BENCH_SKIP_COLD") ? 0 : 8); ++i) {
        const bool small = i % 2 == 1;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LS_T0_NS", QString::number(nowNs()));
        p.setProcessEnvironment(env);
        p.start(QCoreApplication::applicationFilePath(), {small ? "--cold-child-small" : "--cold-child"});
        p.waitForFinished(60000);
        const QStringList f = QString::fromUtf8(p.readAllStandardOutput()).trimmed().split(' ');
        if (f.size() != 3 || p.exitCode() != 0) continue;
        (small ? coldSmall : cold).push_back(f[0].toDouble());
        if (!small) coldDoc.push_back(f[1].toDouble());
        if (!small) coldMain.push_back(f[2].toDouble());
    }

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

    w.hide();
    ClearWidget bare;
    bare.resize(1920, 1080);
    bare.show();
    waitUntil([&] { return bare.dt.size() >= 100; }, 60000);
    const Stats bareStats = stats(bare.dt);
    bare.hide();

    const Stats cs = stats(cold);
    std::printf("views_bench: MainWindow 1920x1080, %s, trace of %u steps (%zu moves)\n",
                gl ? "OpenGL (a QOpenGLWindow per canvas)" : "raster fallback (no GL)", kSteps,
                size_t(kSteps) * 33);
    std::printf("  grids: shared memory 128 x %u = %u cells, Tensor Memory 512 x 128 = 65536 cells; document "
                "built in %.1f ms\n",
                kSmemBytes / 128, kSmemBytes, docMs);
    std::printf("| measure | median | p95 / max | goal |\n|---|---|---|---|\n");
    std::printf(
        "| frame interval while playing (%d frames, each painted by both canvases; paints SMEM %d, TMEM "
        "%d) | %.2f ms | p95 %.2f ms | <= 16 ms |\n",
        full.frames, full.smemFrames, full.tmemFrames, full.frame.median, full.frame.p95);
    std::printf(
        "| - of which the next step's scenes and texels (CPU, Playback::seek) | %.2f ms | p95 %.2f ms | |\n",
        full.seek.median, full.seek.p95);
    std::printf("| cold start to first frame (%zu runs) | %.1f ms | max %.1f ms | <= 500 ms |\n", cold.size(),
                cs.median, cs.max);
    std::printf(
        "| - of which building the synthetic 10,000-step document / exec -> main() | %.1f / %.1f ms | | |\n",
        stats(coldDoc).median, stats(coldMain).median);
    std::printf("| cold start to first frame, small tcgen05.st document (%zu runs) | %.1f ms | max %.1f ms | "
                "<= 500 ms |\n",
                coldSmall.size(), stats(coldSmall).median, stats(coldSmall).max);
    std::printf(
        "| scrub: random seek + all scenes rebuilt (200 seeks) | %.2f ms | max %.2f ms | <= 16 ms |\n",
        sk.median, sk.max);
    std::printf("| - of which Replay::seek (SMEM bytes) | %.2f ms | max %.2f ms | |\n", stats(tReplay).median,
                stats(tReplay).max);
    std::printf("| - of which smemSceneAt (233,472 cells, from step 0) | %.2f ms | max %.2f ms | |\n",
                stats(tSmem).median, stats(tSmem).max);
    std::printf("| - of which TMEM scene, TmemSceneCache::seek | %.2f ms | max %.2f ms | |\n",
                stats(tTmemCached).median, stats(tTmemCached).max);
    std::printf("| - (TMEM scene without the cache, tmemSceneAt from step 0) | %.2f ms | max %.2f ms | |\n",
                stats(tTmemFull).median, stats(tTmemFull).max);
    std::printf("| draw calls per frame, full grids: SMEM / TMEM canvas | %d / %d | (1 cell draw + ImGui "
                "cmds) | independent of cells |\n",
                full.smemCalls, full.tmemCalls);
    std::printf("| paint CPU time per canvas (GL calls issued; llvmpipe rasterises at the flush): SMEM / "
                "TMEM | %.2f / %.2f ms | | |\n",
                full.smemPaint, full.tmemPaint);
    std::printf("| draw calls per frame, small grids (128 B SMEM): SMEM / TMEM | %d / %d | frame median %.2f "
                "ms | |\n",
                small.smemCalls, small.tmemCalls, small.frame.median);
    std::printf("| frame interval, small grids, docks closed (SMEM canvas alone, 1920x1080) | %.2f ms | p95 "
                "%.2f ms | |\n",
                alone.frame.median, alone.frame.p95);
    std::printf("| frame interval, bare QOpenGLWidget 1920x1080 that only clears (%zu frames) | %.2f ms | "
                "p95 %.2f ms | |\n",
                bare.dt.size(), bareStats.median, bareStats.p95);
    for (const LessonResult& l : lessons) {
        std::printf(
            "| lesson %s (%zu steps, trace of %u steps): Next, seek + highlights + frame (%zu) | mean "
            "%.2f ms | max %.2f ms | <= 16 ms |\n",
            l.name.c_str(), l.steps, l.traceSteps, l.steps * 5, l.next.mean, l.next.max);
        std::printf("| lesson %s played one step per frame, highlights on (%d frames) | mean %.2f ms (median "
                    "%.2f) | max %.2f ms (p95 %.2f) | <= 16 ms |\n",
                    l.name.c_str(), l.play.frames, l.play.frame.mean, l.play.frame.median, l.play.frame.max,
                    l.play.frame.p95);
    }
    // A row that did not run must not print as a measurement (issue 25 item 12): name it and fail.
    std::vector<std::string> missing;
    auto need = [&](bool ran, const char* row) {
        if (!ran) missing.push_back(row);
    };
    need(full.frames > 0 && full.smemFrames > 0,
         "frame interval while playing (no frame, or SMEM never painted)");
    need(full.tmemFrames > 0, "frame interval while playing: the TMEM canvas never painted");
    need(!cold.empty(), "cold start to first frame");
    need(!coldSmall.empty(), "cold start to first frame, small tcgen05.st document");
    need(!tReplay.empty() && !tSmem.empty() && !tTmemCached.empty(), "scrub");
    need(small.frames > 0, "small grids");
    need(alone.frames > 0, "docks closed");
    need(!bare.dt.empty(), "bare QOpenGLWidget");
    for (const LessonResult& l : lessons) need(l.steps > 0 && l.play.frames > 0, "a lesson row");
    for (const std::string& m : missing) std::printf("FAIL: the row \"%s\" did not run\n", m.c_str());
    return missing.empty() ? 0 : 1;
}
