#include "help_menu.hpp"

#include "playback_keys.hpp"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <set>

#ifndef LAYOUTSCOPE_VERSION
#define LAYOUTSCOPE_VERSION "unknown"
#endif

namespace layoutscope::views {

static QString plainText(QString s) {
    return s.remove('&').remove("...");
}

std::vector<ShortcutRow> shortcutRows(const QMainWindow& w) {
    std::vector<ShortcutRow> rows;
    std::set<std::pair<QString, QString>> seen;
    const auto add = [&](const QString& what, const QString& keys) {
        if (keys.isEmpty() || !seen.insert({what, keys}).second) return;
        rows.push_back({what, keys});
    };
    for (const QAction* a : w.findChildren<QAction*>()) {
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        add(plainText(a->text()), keys.join(", "));
    }
    for (const QShortcut* s : w.findChildren<QShortcut*>())
        add(s->whatsThis().isEmpty() ? s->objectName() : s->whatsThis(),
            s->key().toString(QKeySequence::NativeText));
    for (const PlaybackKey& k : playbackKeys())
        add(QString("Timeline: ") + k.what, k.keys.toString(QKeySequence::NativeText));
    return rows;
}

const std::vector<ViewHelp>& viewHelps() {
    // Colours and outlines as the legends in views/scene/overlay.cpp, tmem_overlay.cpp and the
    // swizzle explorer draw them.
    static const std::vector<ViewHelp> helps = {
        {"Shared memory",
         "<p>The centre view: one CTA's shared memory, <b>128 bytes per row</b> (one row = the 32 banks of "
         "4 bytes; bank lines every 4 bytes, numbers on top). Row labels on the left are shared::cta "
         "addresses. One cell is one byte, or a 16-B chunk with the toolbar's <i>cells</i> choice.</p>"
         "<p>Colour (toolbar <i>Shared memory colour</i>): <b>source</b> = the tensor coordinate the byte "
         "came from (the legend's box row / box column ramp), <b>instruction</b> = which instruction last "
         "wrote it, <b>value</b> = the byte value 0x00..0xff, <b>bank</b> = (addr / 4) mod 32. Dark grey = "
         "untouched; hatched orange = out-of-bounds fill; white = arrived in the step just played; a cyan "
         "cell outline = read in that step (by a TMA store or a tcgen05.cp). Light blue frames show swizzle "
         "atoms; a bank heat map colours "
         "banks green (1 word) to red (worst).</p><p>Hover a byte for its address, bank, source and "
         "rule; click it to follow the same data through every view.</p>"},
        {"Banks / swizzle explorer",
         "<p>Left: the logical tile, row-major (hue = 16-B chunk, lightness = row). Right: where each "
         "element lands in physical shared memory under the chosen swizzle, in 128-B lines.</p>"
         "<p>Pick an access pattern to count the warp's <b>wavefronts</b> with the bank model measured on "
         "H100: ideal = one per phase; <b>excess = wavefronts - ideal</b> is what Nsight Compute calls "
         "bank conflicts. Try SWIZZLE_NONE against SWIZZLE_128B on a column read.</p>"},
        {"Global tensor",
         "<p>A 2-D slice of the global tensor (pick the dims and the other coordinates above it). The box "
         "the copy moves is outlined in white and the tensor's extent in orange; colours use the same "
         "box row / box column ramp as the shared-memory view, so a colour is the same element in both.</p>"
         "<p>Dim = not read yet (stores: not written yet); white = read this step; dark = outside the box "
         "or skipped by elementStrides; hatched dark red = outside the tensor (the copy fills those "
         "elements); "
         "<i>..</i> = coordinates not touched, elided.</p>"},
        {"Tensor Memory",
         "<p>TMEM of each CTA: <b>128 lanes</b> (rows) by columns of 32-bit cells. Lanes come in four "
         "quarters of 32: warp w may only touch quarter w % 4. A yellow frame marks each "
         "<b>allocation</b>; hatched grey = not allocated; dark = never written; white = moved this step.</p>"
         "<p>Colour = provenance: from registers, hue = thread and lightness = register; from shared memory, "
         "the byte's colour in the SMEM view.</p>"},
        {"Registers",
         "<p>The registers of the warps that run tcgen05.ld / tcgen05.st: rows = %laneid of each warp, "
         "columns = register index. Colour = the TMEM cell the register maps to; dim = not moved yet. Hover "
         "links the TMEM cell.</p>"},
        {"Decompression",
         "<p>One 16-B source chunk of a decompressing tcgen05.cp, bit by bit (bit 0 of byte 0 on the left). "
         "Top: sixteen 4-bit (or 6-bit) fields plus padding (hatched). Bottom: the 8-bit containers they "
         "become; each curve links field e to container e. The value bits and the zeros follow the shown "
         "rule, which is <b>unverified</b> (open questions 3, 28).</p>"},
        {"Multicast",
         "<p>A .multicast::cluster TMA load: the box rows on top, one strip per CTA of the cluster below. "
         "Each curve is a block of rows and a CTA it is multicast to, at the same CTA-relative offset. "
         "Strips fill as the rows land; white = this step.</p>"},
        {"Timeline",
         "<p>The slider runs over the trace's steps: <b>step N shows memory after every move of steps "
         "0..N-1</b> (step 0 = before the first instruction). The strip under it has one segment per "
         "instruction. Buttons: first step, back one instruction, back one byte move, play, forward one "
         "byte move, forward one instruction, last step (their keys are in the tooltips and in Help &gt; "
         "Keyboard shortcuts). The Breakpoints dock stops playing when a chosen cell is written, when a "
         "shared access has more than N excess wavefronts, or when an unverified rule is used; the status "
         "bar says why.</p>"},
        {"Events",
         "<p>One row per instruction: its steps, the PTX, the CTA, the bytes it moved, the mbarrier "
         "transaction bytes, and the rules it applied with their provenance (HW sm_90 / ptxas / driver are "
         "verified; PTX / CuTe / cuda.h are read; <i>assumed</i> is unverified). Select a row to jump to "
         "it; the row of the current step is highlighted while playing.</p>"},
    };
    return helps;
}

QString versionText() {
    return QString("Layoutscope %1").arg(LAYOUTSCOPE_VERSION);
}

static QDialog* dialog(QMainWindow& w, const QString& name, const QString& title) {
    if (auto* d = w.findChild<QDialog*>(name)) { // one of each, raised again
        d->show();
        d->raise();
        return nullptr;
    }
    auto* d = new QDialog(&w);
    d->setObjectName(name);
    d->setWindowTitle(title);
    d->setAttribute(Qt::WA_DeleteOnClose);
    return d;
}

static void finish(QDialog* d, QVBoxLayout* col) {
    auto* box = new QDialogButtonBox(QDialogButtonBox::Close, d);
    QObject::connect(box, &QDialogButtonBox::rejected, d, &QDialog::close);
    col->addWidget(box);
    d->show(); // not modal: the window stays usable while reading
}

static void showShortcuts(QMainWindow& w) {
    QDialog* d = dialog(w, "shortcutsDialog", "Keyboard shortcuts");
    if (!d) return;
    const auto rows = shortcutRows(w);
    auto* table = new QTableWidget(int(rows.size()), 2, d);
    table->setObjectName("shortcutsTable");
    table->setHorizontalHeaderLabels({"Action", "Keys"});
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (size_t i = 0; i < rows.size(); ++i) {
        table->setItem(int(i), 0, new QTableWidgetItem(rows[i].what));
        table->setItem(int(i), 1, new QTableWidgetItem(rows[i].keys));
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->resizeColumnToContents(1);
    auto* col = new QVBoxLayout(d);
    col->addWidget(table);
    d->resize(540, 560);
    finish(d, col);
}

static void showViewHelp(QMainWindow& w, const ViewHelp& h) {
    QDialog* d = dialog(w, "viewHelp_" + h.title, "How to read: " + h.title);
    if (!d) return;
    auto* text = new QTextBrowser(d);
    text->setHtml(h.html);
    auto* col = new QVBoxLayout(d);
    col->addWidget(text);
    d->resize(560, 360);
    finish(d, col);
}

static void showAbout(QMainWindow& w) {
    QDialog* d = dialog(w, "aboutDialog", "About Layoutscope");
    if (!d) return;
    auto* label = new QLabel(QString("<h3>%1</h3><p>Watch NVIDIA TMA and tcgen05 copies move every byte: "
                                     "swizzles, bank conflicts, Tensor Memory, multicast and "
                                     "decompression.</p><p>Built with Qt %2.</p>")
                                 .arg(versionText(), QT_VERSION_STR),
                             d);
    label->setObjectName("aboutText");
    label->setWordWrap(true);
    auto* col = new QVBoxLayout(d);
    col->addWidget(label);
    finish(d, col);
}

/// Put a toggle for every dock of `w` that View does not list yet (after the existing ones).
static void syncDockToggles(QMainWindow& w, QMenu* view) {
    const QList<QAction*> have = view->actions();
    QAction* before = nullptr;
    for (QAction* a : have)
        if (a->isSeparator()) before = a; // keep Theme below the separator last
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
        QAction* t = d->toggleViewAction();
        if (!have.contains(t)) view->insertAction(before, t);
    }
}

static void tooltipsWithShortcuts(QMainWindow& w) {
    for (QAction* a : w.findChildren<QAction*>()) {
        if (a->shortcut().isEmpty()) continue;
        const QString keys = a->shortcut().toString(QKeySequence::NativeText);
        QString tip = a->toolTip();
        if (tip.isEmpty()) tip = plainText(a->text());
        if (!tip.contains(keys)) a->setToolTip(QString("%1 (%2)").arg(tip, keys));
    }
}

void addHelpMenu(QMainWindow& w, QMenu* view) {
    syncDockToggles(w, view);
    QObject::connect(view, &QMenu::aboutToShow, &w, [&w, view] { syncDockToggles(w, view); });
    QMenu* help = w.menuBar()->addMenu("&Help");
    help->setObjectName("helpMenu");
    QAction* keys = help->addAction("&Keyboard shortcuts...", &w, [&w] { showShortcuts(w); });
    keys->setObjectName("helpShortcuts");
    keys->setShortcut(QKeySequence::HelpContents);
    QMenu* read = help->addMenu("&How to read this view");
    for (const ViewHelp& h : viewHelps())
        read->addAction(h.title, &w, [&w, &h] { showViewHelp(w, h); })->setObjectName("helpView_" + h.title);
    help->addSeparator();
    help->addAction("&About Layoutscope", &w, [&w] { showAbout(w); })->setObjectName("helpAbout");
    tooltipsWithShortcuts(w);
}

} // namespace layoutscope::views
