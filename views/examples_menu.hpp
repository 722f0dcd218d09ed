#pragma once
/// Examples menu: every annotated scenario in the scenarios folder, listed when the menu opens (so
/// scenarios added while the app runs appear). Title = the first paragraph of the file's header
/// comment (the leading run of '#' lines; usually its first line), tooltip = the rest of it.
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QMenu;

namespace layoutscope::views {

struct ExampleScenario {
    QString path;
    /// The first sentence of the first header-comment paragraph, whole, without its parenthesised spec
    /// references ("(PTX ISA 9.2 §...)"); the file name when there is none.
    QString title;
    QString description; ///< the rest of the header comment, paragraphs kept
};

/// The Examples submenu an example goes in, by topic (issue 15): "TMA tiles && swizzle",
/// "OOB && strides", "im2col", "Multicast", "gather4", "tcgen05 ld / st", "tcgen05 cp",
/// "Decompression"; empty (top level) for a file that fits none. Decided by the file name, and
/// by the title for decompression (".b8x16" or "decompression" in it).
[[nodiscard]] QString exampleTopic(const ExampleScenario& e);
/// The topics in menu order.
[[nodiscard]] QStringList exampleTopics();

/// The header comment of one scenario file.
[[nodiscard]] ExampleScenario readExampleHeader(const QString& path);
/// Every *.scn of `dir`, sorted by file name.
[[nodiscard]] std::vector<ExampleScenario> listExamples(const QString& dir);
/// The scenarios folder: $LAYOUTSCOPE_SCENARIOS_DIR, else <bin>/../share/layoutscope/scenarios
/// (installed), else the nearest assets/scenarios above the binary (a build inside the source tree).
/// Empty when none is found.
[[nodiscard]] QString examplesDir();
/// A bundled comparison of assets/reviews (README there): its title and files.
struct ReviewPack {
    QString title;
    QStringList files;
};
/// The review packs whose files are all in `reviewsDir`.
[[nodiscard]] std::vector<ReviewPack> listReviewPacks(const QString& reviewsDir);
/// Make `menu` list the examples of `dir` (re-read each time it opens); choosing one calls `open`.
/// With `compare`, a "Review packs (compare)" submenu lists the packs of `dir`/../reviews.
void attachExamplesMenu(QMenu* menu, const QString& dir, std::function<void(const QString&)> open,
                        std::function<void(const QStringList&)> compare = {});

} // namespace layoutscope::views
