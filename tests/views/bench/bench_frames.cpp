// views_bench's frame measures: see bench_frames.hpp.
#include "bench_frames.hpp"
#include "code_editor.hpp"
#include "editor_dock.hpp"

#include <QDir>
#include <QDockWidget>
#include <QTest>
#include <QTimer>
#include <memory>

namespace layoutscope::views::bench {

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
        step = step % std::max<uint32_t>(1, w.playback()->stepCount()) + 1;
        QTimer::singleShot(0, &w, [&w, seekMs, step] { // may run after we return: no references
            const int64_t t0 = nowNs();
            w.playback()->seek(step); // scenes and texels of the next step (CPU)
            seekMs->push_back(double(nowNs() - t0) / 1e6);
            // A trace of one step seeks to the step it shows (no stepChanged): the canvases repaint anyway,
            // so every frame is painted (an update already pending for a new step is the same one).
            w.smemView()->refreshView();
            w.tmemViews()->tmemView()->refreshView();
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
    // The first frame is painted even when the playback already shows step 1 (then seek emits no
    // stepChanged and no canvas repaints: a run of views_bench once counted 0 frames for an example).
    smem->refreshView();
    tmem->refreshView();
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

std::vector<ExampleFrames> playTcgen05Examples(MainWindow& w, int frames) {
    std::vector<ExampleFrames> out;
    const QDir dir(QString(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios");
    for (const QString& f : dir.entryList({"*.scn"}, QDir::Files, QDir::Name)) {
        w.openFile(dir.filePath(f));
        if (!w.document()->hasTrace() || !w.tmemViews()->hasTmem()) {
            if (f.startsWith("tcgen05_")) out.push_back({f.toStdString(), false, {}}); // must show TMEM
            continue;
        }
        waitUntil([] { return false; }, 300); // its docks laid out and painted
        ExampleFrames e{f.toStdString(), w.tmemViews()->tmemDock()->isVisible(), {}};
        e.play = playFrames(w, frames);
        out.push_back(std::move(e));
    }
    return out;
}

Stall editorStall(const QString& file) {
    Stall s;
    MainWindow w;
    w.resize(1400, 900);
    w.openFile(file);
    if (!w.document()->hasTrace()) return s;
    w.show();
    waitUntil([] { return false; }, 500);
    EditorDock* dock = w.editorDock();
    CodeEditor* ed = dock->editor();
    QTextCursor c(ed->document());
    c.movePosition(QTextCursor::End);
    ed->setTextCursor(c);
    ed->setFocus();
    QTest::qWait(200);
    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    QTimer probe;
    probe.setInterval(2);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    clock.start();
    probe.start();
    for (int round = 0; round < 4; ++round) {
        const Document* before = w.document();
        for (const char* key : {"#", " ", "n", "o", "t", "e", ""}) { // a comment: the text stays valid
            if (*key)
                QTest::keyClicks(ed, key);
            else
                QTest::keyClick(ed, Qt::Key_Return);
            QTest::qWait(40); // faster than the debounce: each key cancels the pending check
        }
        waitUntil([&] { return !dock->checking(); }, 60000); // the worker ran it and the views took it
        QTest::qWait(50);
        s.rechecks += w.document() != before ? 1 : 0;
    }
    probe.stop();
    s.worstMs = double(worst);
    return s;
}

} // namespace layoutscope::views::bench
