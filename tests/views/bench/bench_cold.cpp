// views_bench's cold starts: a fresh process each, so the first frame pays for everything a user's
// start pays for (Qt and GL start-up, the document, the first draw).
#include "bench_cold.hpp"
#include "bench_util.hpp"
#include "main_window.hpp"
#include "tmem_fixture.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

namespace layoutscope::views::bench {

std::string loadsScenario(int n) {
    std::string s = "tensormap A tiled FLOAT16 dims=[8192,8192] box=[64,64] swizzle=128B\nsmem sA 8192 "
                    "align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    // March over distinct tiles of the tensor; each load waits for the one before (expect-tx, load, wait), as
    // a correct program does: without the waits every load races the previous one into sA, and the
    // happens-before check then compares each with all before it (minutes for 10,000, not a views cost).
    for (int i = 0; i < n; ++i)
        s += "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 8192;\n"
             "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {" +
             std::to_string(64 * (i % 128)) + ", " + std::to_string(64 * ((i / 128) % 128)) +
             "}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], " + std::to_string(i % 2) +
             ";\n";
    return s;
}

int coldChild(const std::string& mode, const QString& file, int64_t tMain) {
    const int64_t t0 = qEnvironmentVariable("LS_T0_NS").toLongLong();
    MainWindow w;
    w.resize(1920, 1080);
    if (mode == "synthetic" || mode == "small") {
        const int64_t tDoc = nowNs();
        w.setDocument(mode == "small" ? test::makeTmemStDocument()
                                      : test::makeTmemBenchDocument(10000, 228 * 1024));
        const double docMs = double(nowNs() - tDoc) / 1e6;
        bool smem = false, tmem = false;
        QObject::connect(w.smemView(), &CellCanvas::framePainted, [&](double) { smem = true; });
        QObject::connect(w.tmemViews()->tmemView(), &CellCanvas::framePainted, [&](double) { tmem = true; });
        w.show();
        waitUntil([&] { return smem && tmem; }, 30000);
        std::printf("%.3f %.3f %.3f\n", double(nowNs() - t0) / 1e6, docMs, double(tMain - t0) / 1e6);
        return smem && tmem ? 0 : 1;
    }
    // The file, as app/gui/main.cpp opens `--scenario FILE` (file) or as it did before (file-sync).
    int64_t first = 0, doc = 0;
    QObject::connect(w.smemView(), &CellCanvas::framePainted, [&](double) {
        const int64_t t = nowNs();
        if (!first) first = t;
        if (!doc && !w.loading() && w.document() && w.document()->hasTrace()) doc = t;
    });
    const int64_t tCall = nowNs();
    if (mode == "file")
        w.openFileInBackground(file);
    else
        w.openFile(file);
    const double callMs = double(nowNs() - tCall) / 1e6;
    w.show();
    waitUntil([&] { return doc != 0; },
              200000); // the engine runs 10,000 waited-for loads in seconds (more when loaded)
    std::printf("%.3f %.3f %.3f %.3f\n", double(first - t0) / 1e6, double(doc - t0) / 1e6, callMs,
                double(tMain - t0) / 1e6);
    return doc && first ? 0 : 1;
}

namespace {
/// One child: its printed numbers, or none when it failed (the row then counts one run fewer).
std::vector<double> child(const QStringList& args, const QString& configHome) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CONFIG_HOME", configHome); // the child's "last file" and layout: not the user's
    env.insert("LS_T0_NS", QString::number(nowNs()));
    p.setProcessEnvironment(env);
    p.start(QCoreApplication::applicationFilePath(), args);
    if (!p.waitForFinished(240000)) { // a child that hangs: its row counts a run fewer
        p.kill();
        p.waitForFinished(5000);
    }
    const QStringList f = QString::fromUtf8(p.readAllStandardOutput()).trimmed().split(' ');
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        std::fprintf(stderr, "views_bench: cold child %s failed (exit %d): %s\n", qPrintable(args.join(' ')),
                     p.exitCode(), p.readAllStandardError().constData());
        return {};
    }
    std::vector<double> v;
    for (const QString& s : f) v.push_back(s.toDouble());
    return v;
}
} // namespace

ColdStarts runColdStarts(int rounds, const QString& file) {
    ColdStarts r;
    QTemporaryDir config;
    for (int i = 0; i < rounds; ++i) {
        if (auto v = child({"--cold-child", "synthetic"}, config.path()); v.size() == 3) {
            r.synth.push_back(v[0]);
            r.synthDoc.push_back(v[1]);
            r.synthMain.push_back(v[2]);
        }
        if (auto v = child({"--cold-child", "small"}, config.path()); v.size() == 3) r.small.push_back(v[0]);
        if (i >= 2) continue; // the file's children take seconds each (the engine's run): two rounds
        if (auto v = child({"--cold-child", "file", file}, config.path()); v.size() == 4) {
            r.fileFirst.push_back(v[0]);
            r.fileDoc.push_back(v[1]);
            r.fileCall.push_back(v[2]);
        }
        if (auto v = child({"--cold-child", "file-sync", file}, config.path()); v.size() == 4) {
            r.syncFirst.push_back(v[0]);
            r.syncCall.push_back(v[2]);
        }
    }
    return r;
}

} // namespace layoutscope::views::bench
