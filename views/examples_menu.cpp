#include "examples_menu.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QTextStream>

namespace layoutscope::views {

/// The first sentence of `para` (a ". " outside parentheses ends it), its parenthesised spec
/// references ("(PTX ISA ...)", "(... §...)") left out.
static QString exampleTitleOf(const QString& para) {
    QString out;
    int depth = 0;
    qsizetype open = -1;
    for (qsizetype i = 0; i < para.size(); ++i) {
        const QChar c = para[i];
        if (c == '(' && depth++ == 0) open = out.size();
        out += c;
        if (c == ')' && depth > 0 && --depth == 0) {
            const QString group = out.mid(open);
            if (group.contains(QChar(0x00a7)) || group.contains("PTX ISA")) {
                out.truncate(open);
                while (out.endsWith(' ')) out.chop(1);
            }
        }
        if (depth == 0 && c == '.' && (i + 1 == para.size() || para[i + 1] == ' ') && i > 0 &&
            !para[i - 1].isDigit() && i + 1 < para.size())
            break; // end of the first sentence
    }
    out = out.trimmed();
    if (out.endsWith('.') && !para.trimmed().endsWith(out)) out.chop(1);
    out.replace(" :", ":").replace(" ,", ",").replace(" ;", ";");
    return out.isEmpty() ? para : out;
}

ExampleScenario readExampleHeader(const QString& path) {
    ExampleScenario e{path, QFileInfo(path).completeBaseName(), {}};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return e;
    QTextStream in(&f);
    QStringList lines;
    while (!in.atEnd()) {
        const QString l = in.readLine().trimmed();
        if (!l.startsWith('#')) break;
        QString text = l.mid(1);
        if (text.startsWith(' ')) text.remove(0, 1);
        lines << text;
    }
    if (lines.isEmpty() || lines.front().trimmed().isEmpty()) return e;
    // Paragraphs: blank comment lines separate them; the lines of one paragraph are joined.
    QStringList paras{QString()};
    for (const QString& l : lines) {
        if (l.trimmed().isEmpty()) {
            if (!paras.back().isEmpty()) paras << QString();
        } else {
            paras.back() += (paras.back().isEmpty() ? "" : " ") + l.trimmed();
        }
    }
    if (paras.back().isEmpty()) paras.removeLast();
    // Title: the first sentence of the first paragraph (a first line may wrap onto the next), whole
    // (a menu item is as wide as its text), without the spec references in parentheses; the tooltip
    // then repeats the paragraph whole.
    const QString first = paras.takeFirst();
    e.title = exampleTitleOf(first);
    if (e.title != first) paras.prepend(first);
    e.description = paras.join("\n\n");
    return e;
}

QStringList exampleTopics() {
    return {"TMA tiles && swizzle", "OOB && strides", "im2col",        "Multicast",   "gather4",
            "tcgen05 ld / st",      "tcgen05 cp",     "Decompression", "tcgen05 mma", "wgmma"};
}

QString exampleTopic(const ExampleScenario& e) {
    const QString name = QFileInfo(e.path).completeBaseName();
    const QStringList t = exampleTopics();
    if (e.title.contains(".b8x16") || e.title.contains("decompression", Qt::CaseInsensitive)) return t[7];
    if (name.startsWith("tma_im2col")) return t[2];
    if (name.startsWith("tma_multicast")) return t[3];
    if (name.startsWith("tma_gather4")) return t[4];
    if (name.startsWith("tma_oob") || name.contains("stride")) return t[1];
    if (name.startsWith("tma_")) return t[0];
    if (name.startsWith("tcgen05_ld") || name.startsWith("tcgen05_st") || name.startsWith("tcgen05_shift"))
        return t[5];
    if (name.startsWith("tcgen05_cp") || name.startsWith("nvfp4")) return t[6];
    if (name.startsWith("tcgen05_mma")) return t[8];
    if (name.startsWith("wgmma")) return t[9];
    return {};
}

std::vector<ExampleScenario> listExamples(const QString& dir) {
    std::vector<ExampleScenario> out;
    if (dir.isEmpty()) return out;
    const QDir d(dir);
    for (const QString& f : d.entryList({"*.scn"}, QDir::Files, QDir::Name))
        out.push_back(readExampleHeader(d.filePath(f)));
    return out;
}

QString examplesDir() {
    const QString env = qEnvironmentVariable("LAYOUTSCOPE_SCENARIOS_DIR");
    if (!env.isEmpty()) return QDir(env).exists() ? env : QString();
    const QString bin = QCoreApplication::applicationDirPath();
    const QString installed = QDir(bin).filePath("../share/layoutscope/scenarios");
    if (QDir(installed).exists()) return QDir(installed).canonicalPath();
    QDir up(bin);
    for (int i = 0; i < 6; ++i) {
        if (QDir(up.filePath("assets/scenarios")).exists())
            return QDir(up.filePath("assets/scenarios")).canonicalPath();
        if (!up.cdUp()) break;
    }
    return {};
}

std::vector<ReviewPack> listReviewPacks(const QString& reviewsDir) {
    // The packs of assets/reviews/README.md, in its order.
    static const std::vector<ReviewPack> kPacks = {
        {"128x64 fp16 operand: one SW128 box vs two SW64 boxes",
         {"operand_sw128_one_box.scn", "operand_sw64_two_boxes.scn"}},
        {"MMA operand: K-major vs MN-major", {"operand_k_major.scn", "operand_mn_major.scn"}},
        {"Epilogue: tcgen05.ld 32x32b vs 16x256b, st.shared plain vs swizzled",
         {"epilogue_32x32b_plain.scn", "epilogue_32x32b_swizzled.scn", "epilogue_16x256b_plain.scn",
          "epilogue_16x256b_swizzled.scn"}},
    };
    std::vector<ReviewPack> out;
    const QDir d(reviewsDir);
    for (const ReviewPack& p : kPacks) {
        ReviewPack r{p.title, {}};
        for (const QString& f : p.files)
            if (d.exists(f)) r.files << d.filePath(f);
        if (r.files.size() == p.files.size()) out.push_back(r);
    }
    return out;
}

void attachExamplesMenu(QMenu* menu, const QString& dir, std::function<void(const QString&)> open,
                        std::function<void(const QStringList&)> compare) {
    menu->setToolTipsVisible(true);
    QObject::connect(menu, &QMenu::aboutToShow, menu, [menu, dir, open, compare] {
        menu->clear();
        const auto examples = listExamples(dir);
        if (examples.empty()) {
            menu->addAction(dir.isEmpty() ? "(no scenarios folder found; set LAYOUTSCOPE_SCENARIOS_DIR)"
                                          : "(no .scn files in " + dir + ")")
                ->setEnabled(false);
            return;
        }
        auto add = [&open](QMenu* m, const ExampleScenario& e) {
            QAction* a = m->addAction(e.title);
            a->setToolTip(QFileInfo(e.path).fileName() +
                          (e.description.isEmpty() ? "" : "\n\n" + e.description));
            a->setObjectName(QFileInfo(e.path).completeBaseName());
            const QString p = e.path;
            QObject::connect(a, &QAction::triggered, m, [open, p] { open(p); });
        };
        // Grouped by topic (exampleTopic), each group a submenu; what fits no topic stays on top.
        for (const QString& topic : exampleTopics()) {
            QMenu* sub = nullptr;
            for (const ExampleScenario& e : examples)
                if (exampleTopic(e) == topic) {
                    if (!sub) {
                        sub = menu->addMenu(topic);
                        sub->setToolTipsVisible(true);
                    }
                    add(sub, e);
                }
        }
        for (const ExampleScenario& e : examples)
            if (exampleTopic(e).isEmpty()) add(menu, e);
        // Planted layout bugs with their diagnoses, and their fixed twins (issue 12).
        const QString brokenDir = QDir(dir).filePath("broken");
        if (QDir(brokenDir).exists())
            if (const auto broken = listExamples(brokenDir); !broken.empty()) {
                QMenu* sub = menu->addMenu("Broken kernels (diagnosed)");
                sub->setToolTipsVisible(true);
                for (const ExampleScenario& e : broken) add(sub, e);
            }
        // Bundled comparisons (assets/reviews), opened side by side in a compare window (issue 14).
        if (compare)
            if (const auto packs = listReviewPacks(QDir(dir).filePath("../reviews")); !packs.empty()) {
                QMenu* sub = menu->addMenu("Review packs (compare side by side)");
                sub->setToolTipsVisible(true);
                for (const ReviewPack& p : packs) {
                    QAction* a = sub->addAction(p.title);
                    QStringList names;
                    for (const QString& f : p.files) names << QFileInfo(f).fileName();
                    a->setToolTip(names.join(" | ") + "\n\nassets/reviews/README.md has the write-up.");
                    const QStringList files = p.files;
                    QObject::connect(a, &QAction::triggered, sub, [compare, files] { compare(files); });
                }
            }
    });
}

} // namespace layoutscope::views
