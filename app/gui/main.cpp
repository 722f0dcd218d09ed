// layoutscope: the GUI. Also renders headless:
//   layoutscope --scenario FILE [--step N] --export out.png|out.svg [--view V] [--size WxH] [--cta N]
//     (V: all|smem|global|tmem|registers|decompression|multicast; default all for PNG, smem for SVG)
//   layoutscope --scenario FILE --export-sequence DIR [--steps A:B] [--size WxH] [--cta N]
//     (DIR/frame_0000.png...)
//   layoutscope --scenario FILE --export out.png --animate [--steps A:B] [--fps N] [--size WxH]
//     (one animated PNG)
//   layoutscope --scenario FILE [--step N] --grab window.png [--hover 0xADDR]
//     (show, screenshot, quit)
//   layoutscope --compare A.scn B.scn [C.scn...] [--step N] [--export out.png] (compare mode; with
//     --export: out.png, out.svg and out.md headless)
//   layoutscope --list-examples   (the Examples folder found, e.g. <prefix>/share/layoutscope/scenarios,
//     and its files; exit)
//   layoutscope --lesson FILE.lesson [--lesson-step K]   (the lesson panel at step K; README "Lessons")
#include "app_settings.hpp"
#include "compare_window.hpp"
#include "examples_menu.hpp"
#include "export.hpp"
#include "export_sequence.hpp"
#include "export_view.hpp"
#include "lesson_dock.hpp"
#include "main_window.hpp"
#include "theme.hpp"
#include "window_grab.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QMouseEvent>
#include <QSurfaceFormat>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <new>
#include <string_view>

using namespace layoutscope::views;

int main(int argc, char** argv) {
    // Headless uses (--export, --help) must not need a display: without one, and unless the user
    // chose a platform, use Qt's offscreen platform (export then renders on the CPU; see views/README.md).
    bool headless = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        headless |= a == "--export" || a.starts_with("--export") || a == "--help" || a == "-h" ||
                    a == "--list-examples";
    }
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
        qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QSurfaceFormat fmt;
    fmt.setVersion(3, 3);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setSwapInterval(1);
    QSurfaceFormat::setDefaultFormat(fmt);
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    QApplication::setApplicationName("layoutscope");
    QApplication::setDesktopFileName("layoutscope"); // share/applications/layoutscope.desktop
    QApplication::setWindowIcon(QIcon(":/icons/layoutscope.png"));

    QCommandLineParser cli;
    cli.setApplicationDescription("Layoutscope: watch TMA copies move every byte.");
    cli.addHelpOption();
    const QCommandLineOption scenarioOpt("scenario", "Scenario file to open.", "FILE");
    const QCommandLineOption stepOpt("step", "Timeline step to show (default: the last).", "N");
    const QCommandLineOption exportOpt(
        "export", "Render headless to FILE (.png or .svg; see --view) and exit.", "FILE");
    const QCommandLineOption viewOpt("view",
                                     QString::fromStdString("With --export: the view to render, " +
                                                            exportViewNameList() +
                                                            " (default: all for PNG, smem for SVG)."),
                                     "NAME");
    const QCommandLineOption sizeOpt("size", "Export size, WxH pixels (default 1600x900).", "WxH",
                                     "1600x900");
    const QCommandLineOption ctaOpt(
        "cta", "Export: whose shared memory to show (%cluster_ctarank, default 0).", "N", "0");
    const QCommandLineOption grabOpt("grab", "Show the window, save a screenshot of it to FILE and exit.",
                                     "FILE");
    const QCommandLineOption hoverOpt("hover", "With --grab: hover the shared-memory byte at ADDR first.",
                                      "ADDR");
    const QCommandLineOption seqOpt(
        "export-sequence", "Render every step (or --steps A:B) headless to DIR/frame_0000.png... and exit.",
        "DIR");
    const QCommandLineOption stepsOpt(
        "steps", "With --export-sequence: steps A:B, A:, :B or A (default: all, 0..last).", "A:B");
    const QCommandLineOption animateOpt(
        "animate", "With --export FILE.png (or .apng): one animated PNG of every step (or --steps A:B).");
    const QCommandLineOption fpsOpt("fps", "With --animate: frames (steps) per second, 1..1000 (default 25).",
                                    "N", "25");
    const QCommandLineOption resetLayoutOpt(
        "reset-layout", "Forget the saved window layout and geometry (theme and last file stay).");
    const QCommandLineOption compareOpt(
        "compare", "Compare the scenario FILEs given as arguments side by side (with --export: writes "
                   "OUT.png, OUT.svg and OUT.md).");
    const QCommandLineOption lessonOpt("lesson",
                                       "Open a lesson (.lesson; its scenario and the Lesson panel).", "FILE");
    const QCommandLineOption lessonStepOpt("lesson-step", "With --lesson: show step K (1-based).", "K", "1");
    const QCommandLineOption listExamplesOpt(
        "list-examples", "Print the Examples folder in use (installed: <prefix>/share/layoutscope/scenarios) "
                         "and its scenario files, then exit.");
    cli.addOptions({scenarioOpt, stepOpt, exportOpt, viewOpt, sizeOpt, ctaOpt, grabOpt, hoverOpt, seqOpt,
                    stepsOpt, resetLayoutOpt, compareOpt, listExamplesOpt, animateOpt, fpsOpt});
    cli.addOptions({lessonOpt, lessonStepOpt});
    cli.addPositionalArgument("files", "With --compare: the scenarios to compare.", "[FILE...]");
    cli.process(app);

    if (cli.isSet(listExamplesOpt)) {
        const QString dir = examplesDir();
        if (dir.isEmpty()) {
            std::fprintf(stderr,
                         "layoutscope: no scenarios folder found (looked for $LAYOUTSCOPE_SCENARIOS_DIR, "
                         "<bin>/../share/layoutscope/scenarios, assets/scenarios above <bin>)\n");
            return 1;
        }
        std::printf("%s\n", qPrintable(dir));
        for (const QString& sub :
             {QString(), QString("broken/")}) // the menu and its "Broken kernels" submenu
            for (const ExampleScenario& e : listExamples(sub.isEmpty() ? dir : dir + "/" + sub))
                std::printf("  %s%s  %s\n", qPrintable(sub), qPrintable(QFileInfo(e.path).fileName()),
                            qPrintable(e.title));
        return 0;
    }

    bool stepOk = true;
    const bool hasStep = cli.isSet(stepOpt);
    const uint32_t step = hasStep ? cli.value(stepOpt).toUInt(&stepOk) : UINT32_MAX;
    if (!stepOk) {
        std::fprintf(stderr, "layoutscope: --step wants a non-negative integer\n");
        return 2;
    }

    const bool animate = cli.isSet(animateOpt);
    if (cli.isSet(stepsOpt) && !cli.isSet(seqOpt) && !animate) {
        std::fprintf(stderr,
                     "layoutscope: --steps only applies to --export-sequence DIR or --export F --animate\n");
        return 2;
    }
    if (animate && !cli.isSet(exportOpt)) {
        std::fprintf(stderr, "layoutscope: --animate needs --export FILE.png (or .apng)\n");
        return 2;
    }
    if (cli.isSet(fpsOpt) && !animate) {
        std::fprintf(stderr, "layoutscope: --fps only applies to --export F --animate\n");
        return 2;
    }
    if (animate && (cli.isSet(viewOpt) || cli.isSet(stepOpt))) {
        std::fprintf(
            stderr,
            "layoutscope: --animate renders every view over --steps; --view and --step do not apply\n");
        return 2;
    }
    if (animate && cli.isSet(compareOpt)) {
        std::fprintf(stderr, "layoutscope: --animate does not apply to --compare\n");
        return 2;
    }
    if (cli.isSet(compareOpt)) { // compare mode (views/compare_window.hpp)
        const QStringList wh = cli.value(sizeOpt).split('x');
        const QSize size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize(1600, 900);
        if (size.width() < 64 || size.height() < 64) {
            std::fprintf(stderr, "layoutscope: --size wants WxH of at least 64x64\n");
            return 2;
        }
        if (!cli.isSet(exportOpt)) applyTheme(AppSettings().theme());
        const int rc = runCompareCommand(cli.positionalArguments(), cli.value(exportOpt), size,
                                         hasStep ? std::optional<uint32_t>(step) : std::nullopt);
        return rc >= 0 ? rc : app.exec();
    }
    if (cli.isSet(viewOpt) && !cli.isSet(exportOpt)) {
        std::fprintf(stderr, "layoutscope: --view only applies to --export FILE\n");
        return 2;
    }
    const auto view = exportViewFromName(cli.value(viewOpt).toStdString());
    if (cli.isSet(viewOpt) && !view) {
        std::fprintf(stderr, "layoutscope: --view %s: unknown view; valid views: %s\n",
                     qPrintable(cli.value(viewOpt)), exportViewNameList().c_str());
        return 2;
    }
    if (cli.isSet(exportOpt) && cli.isSet(seqOpt)) {
        std::fprintf(stderr, "layoutscope: choose one of --export FILE and --export-sequence DIR\n");
        return 2;
    }
    if (cli.isSet(exportOpt) || cli.isSet(seqOpt)) try {
            const char* what = cli.isSet(seqOpt) ? "--export-sequence" : "--export";
            if (!cli.isSet(scenarioOpt)) {
                std::fprintf(stderr, "layoutscope: %s needs --scenario FILE\n", what);
                return 2;
            }
            auto doc = Document::fromFile(cli.value(scenarioOpt).toStdString());
            // A file that cannot be read (missing, a FIFO, a device), the scenario or an `observe` dump it
            // names: its reason, nothing to export (the CLI refuses the same inputs).
            const auto& diags = doc->diagnostics();
            const bool unreadable =
                (!doc->hasTrace() && !diags.empty() && diags.front().code == layoutscope::DiagCode::Io) ||
                std::any_of(diags.begin(), diags.end(), [](const layoutscope::Diagnostic& d) {
                    return d.code == layoutscope::DiagCode::Io && d.severity == layoutscope::Severity::Error;
                });
            if (unreadable) {
                for (const auto& d : doc->diagnostics())
                    std::fprintf(stderr, "%s\n", formatDiagnostic(d, doc->path()).c_str());
                return 1;
            }
            const QStringList wh = cli.value(sizeOpt).split('x');
            const QSize size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize(1600, 900);
            if (size.width() < 64 || size.height() < 64) {
                std::fprintf(stderr, "layoutscope: --size wants WxH of at least 64x64\n");
                return 2;
            }
            bool ctaOk = true;
            const uint32_t cta = cli.value(ctaOpt).toUInt(&ctaOk);
            if (!ctaOk) {
                std::fprintf(stderr, "layoutscope: --cta wants a non-negative integer\n");
                return 2;
            }
            if (cli.isSet(seqOpt) || animate) {
                if (!doc->hasTrace()) {
                    for (const auto& d : doc->diagnostics())
                        std::fprintf(stderr, "%s\n", formatDiagnostic(d, doc->path()).c_str());
                    std::fprintf(stderr, "layoutscope: the scenario has errors: nothing to export\n");
                    return 1;
                }
                QString err;
                const auto range = parseStepRange(cli.value(stepsOpt), doc->trace().stepCount, &err);
                if (!range) {
                    std::fprintf(stderr, "layoutscope: %s\n", qPrintable(err));
                    return 2;
                }
                if (animate) {
                    const QString out = cli.value(exportOpt);
                    if (!out.endsWith(".png", Qt::CaseInsensitive) &&
                        !out.endsWith(".apng", Qt::CaseInsensitive)) {
                        std::fprintf(
                            stderr, "layoutscope: --animate writes an animated PNG: name it .png or .apng\n");
                        return 2;
                    }
                    bool fpsOk = true;
                    const uint32_t fps = cli.value(fpsOpt).toUInt(&fpsOk);
                    if (!fpsOk || fps == 0 || fps > 1000) {
                        std::fprintf(stderr, "layoutscope: --fps wants an integer 1..1000\n");
                        return 2;
                    }
                    const ExportResult r = exportAnimatedPng(*doc, out, *range, size, cta, fps);
                    std::fprintf(stderr, "layoutscope: %s\n", qPrintable(r.message));
                    return r.ok ? 0 : 1;
                }
                const ExportResult r = exportSequence(*doc, cli.value(seqOpt), *range, size, cta);
                std::fprintf(stderr, "layoutscope: %s\n", qPrintable(r.message));
                return r.ok ? 0 : 1;
            }
            const QString out = cli.value(exportOpt);
            const bool svg = out.endsWith(".svg", Qt::CaseInsensitive);
            const ExportView v = view.value_or(svg ? ExportView::Smem : ExportView::All);
            const ExportResult r = exportView(*doc, v, step, out, size, ViewOptions{cta});
            std::fprintf(stderr, "layoutscope: %s\n", qPrintable(r.message));
            return r.ok ? 0 : 1;
        } catch (const std::bad_alloc&) { // a diagnostic, not an abort (issue 11)
            std::fprintf(stderr, "layoutscope: error: out of memory while exporting the scenario\n");
            return 1;
        }

    if (cli.isSet(resetLayoutOpt)) AppSettings().resetLayout();
    applyTheme(AppSettings().theme());
    MainWindow w;
    // No scenario named: the last one opened cleanly, else the bundled default; never the file a
    // crashed run was opening (AppSettings::beginOpening), or every start would crash again.
    const AppSettings::Startup start =
        AppSettings().startupFile(examplesDir() + "/tma_tile_64x64_f16_sw128.scn");
    if (!start.note.isEmpty()) std::fprintf(stderr, "layoutscope: %s\n", qPrintable(start.note));
    // --grab is scripted: never stop at a recovery question (the autosave stays for a later run).
    if (cli.isSet(grabOpt) && qEnvironmentVariableIsEmpty("LAYOUTSCOPE_AUTO_ANSWER"))
        qputenv("LAYOUTSCOPE_AUTO_ANSWER", "recovery=later");
    // After a crash, the file with unsaved edits comes first (and its recovery is offered).
    // The window shows at once and the file's parse and run happen on a worker (issue 25 item 11), unless
    // something below needs the document now (a step to seek, a screenshot, a lesson).
    const bool now = hasStep || cli.isSet(grabOpt) || cli.isSet(lessonOpt);
    auto open = [&](const QString& f) { now ? w.openFile(f) : w.openFileInBackground(f); };
    if (cli.isSet(scenarioOpt))
        open(cli.value(scenarioOpt));
    else if (!w.openPendingRecovery() && QFileInfo::exists(start.path))
        open(start.path);
    if (!start.note.isEmpty()) w.showNote(start.note);
    if (hasStep) w.playback()->seek(step);
    w.show();
    if (cli.isSet(lessonOpt)) // issue 16: once the window is laid out, so the lesson's tab is the one shown
        QTimer::singleShot(0, &w, [&w, file = cli.value(lessonOpt), k = cli.value(lessonStepOpt).toUInt()] {
            auto* lesson = w.findChild<LessonDock*>();
            if (lesson && lesson->openLesson(file)) lesson->goToStep(std::max(1u, k) - 1);
        });
    if (cli.isSet(grabOpt)) {
        const QString out = cli.value(grabOpt);
        const QString hover = cli.value(hoverOpt);
        QTimer::singleShot(600, &w, [&w, out, hover] {
            if (!hover.isEmpty()) {
                bool ok = false;
                const uint32_t addr = hover.toUInt(&ok, 0);
                if (const auto cell = ok ? w.smemCellOf(addr) : std::nullopt) {
                    const QPointF p = w.smemView()->cellCentre(cell->x, cell->y);
                    QMouseEvent move(QEvent::MouseMove, p, w.smemView()->mapToGlobal(p), Qt::NoButton,
                                     Qt::NoButton, Qt::NoModifier);
                    QApplication::sendEvent(w.smemView(), &move);
                }
            }
            QTimer::singleShot(400, &w, [&w, out] {
                const bool ok = grabWithCanvases(w).save(out);
                std::fprintf(stderr, "layoutscope: %s %s\n", ok ? "saved" : "could not save",
                             qPrintable(out));
                QApplication::exit(ok ? 0 : 1);
            });
        });
    }
    return app.exec();
}
