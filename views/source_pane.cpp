#include "source_pane.hpp"
#include "app_settings.hpp"
#include "code_editor.hpp"
#include "scene/document.hpp"
#include "scene/source_origin.hpp"

#include "layoutscope/ptx/module.hpp"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

namespace layoutscope::views {

namespace {
constexpr qint64 kMaxSourceBytes = qint64(16) << 20; ///< a .cu beyond this is not shown

CodeEditor* sourceView(QWidget* parent, const char* name) {
    auto* e = new CodeEditor(parent);
    e->setObjectName(name);
    e->setReadOnly(true);
    e->setUndoRedoEnabled(false);
    e->setLineWrapMode(QPlainTextEdit::NoWrap);
    // nvcc indents with tabs: 4 columns each, so an instruction starts near the gutter in a narrow dock.
    e->setTabStopDistance(4 * e->fontMetrics().horizontalAdvance(' '));
    e->setDark(AppSettings().theme() == Theme::Dark);
    e->setPlainText("");
    return e;
}

QWidget* column(QWidget* parent, QLabel* head, QWidget* body) {
    auto* w = new QWidget(parent);
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    head->setWordWrap(false);
    head->setTextInteractionFlags(Qt::TextSelectableByMouse);
    head->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // a long path never widens the dock
    l->addWidget(head);
    l->addWidget(body, 1);
    return w;
}

std::string stampOf(const std::string& path) {
    const QFileInfo fi(QString::fromStdString(path));
    return std::to_string(fi.size()) + "@" + std::to_string(fi.lastModified().toMSecsSinceEpoch());
}
constexpr const char* kNoLineInfo = "no line info (compile with nvcc -lineinfo for CUDA lines)";
} // namespace

SourcePane::SourcePane(QWidget* parent) : QWidget(parent) {
    setObjectName("sourcePane");
    m_ptx = sourceView(this, "sourcePtx");
    m_cuda = sourceView(this, "sourceCuda");
    m_ptxHead = new QLabel(this);
    m_cudaHead = new QLabel(this);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(column(split, m_ptxHead, m_ptx));
    m_cudaColumn = column(split, m_cudaHead, m_cuda);
    split->addWidget(m_cudaColumn);
    split->setChildrenCollapsible(false);
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(2, 2, 2, 2);
    l->addWidget(split);
    setDocument(nullptr);
}

QString SourcePane::ptxStatus() const {
    return m_ptxHead->text();
}

QString SourcePane::cudaStatus() const {
    return m_cudaHead->text();
}

void SourcePane::loadPtx(const std::string& path) {
    const std::string stamp = stampOf(path);
    if (path == m_ptxPath && stamp == m_ptxStamp) return; // the same module: an edit's re-run
    m_ptxPath = path;
    m_ptxStamp = stamp;
    ++m_reads;
    auto text = readPtxModuleFile(path); // bounded (kMaxPtxModuleBytes); a FIFO or device is refused
    m_ptx->setPlainText(text ? QString::fromStdString(*text)
                             : QString::fromStdString("cannot read the module: " + text.error().message));
    m_ptxLine = 0;
}

bool SourcePane::loadCuda(const std::string& path) {
    if (path == m_cudaPath) return true;
    QFile f(QString::fromStdString(path));
    ++m_reads;
    if (!f.open(QIODevice::ReadOnly)) return false;
    m_cuda->setPlainText(QString::fromUtf8(f.read(kMaxSourceBytes)));
    m_cudaPath = path;
    m_cudaLine = 0;
    return true;
}

void SourcePane::setDocument(const Document* doc) {
    m_doc = doc;
    m_instr = -2;
    const std::string path = doc ? doc->kernelPtxPath() : std::string();
    if (path.empty()) {
        m_ptxPath.clear();
        m_ptxStamp.clear();
        m_cudaPath.clear();
        m_ptx->setPlainText("");
        m_cuda->setPlainText("");
        m_ptxLine = m_cudaLine = 0;
        m_ptxHead->setText("Not a recorded kernel: no PTX source (open a .ptx, or a scenario with a "
                           "`kernel` directive)");
        m_cudaHead->setText("");
        return;
    }
    loadPtx(path);
    m_ptxHead->setText(QFileInfo(QString::fromStdString(path)).fileName());
    m_ptxHead->setToolTip(QString::fromStdString(path));
    // A module without `.loc` lines for CUDA source (nvcc without -lineinfo) leaves the CUDA side empty at
    // every step: the PTX takes the whole dock, and its header's tooltip says how to get CUDA lines.
    bool cudaLines = false;
    if (doc->hasTrace())
        for (const TraceInstr& in : doc->trace().instrs)
            if (!in.origin.cudaFile.empty() && in.origin.cudaLine > 0) {
                cudaLines = true;
                break;
            }
    m_cudaColumn->setVisible(cudaLines);
    if (!cudaLines) {
        m_cudaHead->setText(kNoLineInfo);
        m_ptxHead->setToolTip(QString::fromStdString(path) + "\nNo CUDA line info in this module: " +
                              "compile with nvcc -lineinfo to see CUDA lines beside the PTX");
    }
}

void SourcePane::recentre() {
    for (auto [e, line] : {std::pair{m_ptx, m_ptxLine}, std::pair{m_cuda, m_cudaLine}}) {
        if (line <= 0) continue;
        e->centerCursor(); // the cursor sits on the highlighted line (highlight())
        e->horizontalScrollBar()->setValue(0);
    }
}

void SourcePane::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    recentre();
}

void SourcePane::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    QTimer::singleShot(0, this, [this] { recentre(); }); // once the views have their sizes
}

void SourcePane::showStep(uint32_t step) {
    if (!m_doc || !m_doc->hasTrace() || m_ptxPath.empty()) return;
    showInstr(instrOfStep(m_doc->trace(), step));
}

void SourcePane::highlight(CodeEditor* e, int line) {
    QList<QTextEdit::ExtraSelection> sels;
    const QTextBlock b = line > 0 ? e->document()->findBlockByNumber(line - 1) : QTextBlock();
    if (b.isValid()) {
        QTextEdit::ExtraSelection s;
        s.format.setBackground(QColor(60, 90, 150, 170));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(b);
        sels.push_back(s);
        QTextCursor c(b);
        e->setTextCursor(c);
        e->centerCursor();
        e->horizontalScrollBar()->setValue(0); // the line's start, not where a long line scrolled to
    }
    e->setExtraSelections(sels);
}

void SourcePane::showInstr(int32_t instr) {
    if (!m_doc || !m_doc->hasTrace() || m_ptxPath.empty() || instr == m_instr) return;
    m_instr = instr;
    const auto& ins = m_doc->trace().instrs;
    const QString file = QFileInfo(QString::fromStdString(m_ptxPath)).fileName();
    if (instr < 0 || size_t(instr) >= ins.size()) {
        highlight(m_ptx, m_ptxLine = 0);
        m_ptxHead->setText(file);
        return;
    }
    const TraceInstr& in = ins[size_t(instr)];
    const SourceOrigin& o = in.origin;
    m_ptxLine = o.ptxLine;
    highlight(m_ptx, m_ptxLine);
    // Short, so the column's width shows it: "k.ptx:812  instr 3/40  warp 1 of CTA 0".
    m_ptxHead->setText(
        o.known() ? QString("%1:%2  instr %3/%4%5")
                        .arg(file)
                        .arg(o.ptxLine)
                        .arg(instr + 1)
                        .arg(ins.size())
                        .arg(o.warp >= 0 ? QString("  warp %1 of CTA %2").arg(o.warp).arg(o.cta) : QString())
                  : QString("%1: no line info for instr %2").arg(file).arg(instr + 1));
    m_ptxHead->setToolTip(QString::fromStdString(m_ptxPath + "\n" + in.text));
    // The CUDA side: the `.loc` file beside the module, when there is one.
    if (o.cudaFile.empty() || o.cudaLine <= 0) {
        m_cudaHead->setText(kNoLineInfo);
        highlight(m_cuda, m_cudaLine = 0);
        return;
    }
    const std::string resolved = resolveSourcePath(o.cudaFile, m_ptxPath);
    if (resolved.empty() || !loadCuda(resolved)) {
        if (m_cudaMissing != o.cudaFile || !m_cudaPath.empty()) {
            m_cuda->setPlainText("");
            m_cudaPath.clear();
        }
        m_cudaMissing = o.cudaFile;
        m_cudaHead->setText(QString("source not found: %1 (line %2)")
                                .arg(QString::fromStdString(o.cudaFile))
                                .arg(o.cudaLine));
        m_cudaHead->setToolTip("Tried the path as written and relative to the .ptx's folder");
        m_cudaLine = 0;
        return;
    }
    m_cudaLine = o.cudaLine;
    highlight(m_cuda, m_cudaLine);
    m_cudaHead->setText(
        QString("%1, line %2").arg(QFileInfo(QString::fromStdString(resolved)).fileName()).arg(m_cudaLine));
    m_cudaHead->setToolTip(QString::fromStdString(resolved));
}

} // namespace layoutscope::views
