#pragma once
/// SourcePane: the "Source" dock of a recorded kernel (issue 22 item 4). Left, the PTX module the
/// `kernel` scenario ran, with the line of the current step's instruction highlighted
/// (TraceInstr::origin.ptxLine); right, the CUDA file of its `.loc` (origin.cudaFile: the path as
/// written, else relative to the .ptx's folder) at origin.cudaLine. Either side says plainly why it
/// shows nothing: "no line info", "source not found: PATH", "not a recorded kernel".
/// A file is read once (a 100,000-line module too: a step only moves the highlight and scrolls).
#include <QWidget>
#include <cstdint>
#include <string>

class QLabel;

namespace layoutscope {
struct TraceInstr;
}

namespace layoutscope::views {

class CodeEditor;
class Document;

class SourcePane : public QWidget {
    Q_OBJECT
  public:
    explicit SourcePane(QWidget* parent = nullptr);
    /// The document shown (nullptr: none). Reads its module when it is another file than the one shown.
    void setDocument(const Document* doc);
    /// Highlight the instruction that led to `step` (instrOfStep).
    void showStep(uint32_t step);
    /// Highlight instruction `instr` of the document's trace (a clicked byte's, an event row's).
    void showInstr(int32_t instr);

    [[nodiscard]] CodeEditor* ptxView() const { return m_ptx; }
    [[nodiscard]] CodeEditor* cudaView() const { return m_cuda; }
    /// 1-based lines highlighted now (0: none).
    [[nodiscard]] int ptxLine() const { return m_ptxLine; }
    [[nodiscard]] int cudaLine() const { return m_cudaLine; }
    [[nodiscard]] QString ptxStatus() const;
    [[nodiscard]] QString cudaStatus() const;
    /// The file each side shows (empty: none).
    [[nodiscard]] QString ptxFile() const { return QString::fromStdString(m_ptxPath); }
    [[nodiscard]] QString cudaFile() const { return QString::fromStdString(m_cudaPath); }
    /// Reads of a module or CUDA file so far (a step must not read one again).
    [[nodiscard]] int fileReads() const { return m_reads; }

  protected:
    void resizeEvent(QResizeEvent* e) override; ///< keeps the highlighted lines centred
    void showEvent(QShowEvent* e) override;

  private:
    void recentre(); ///< each view scrolled to its highlighted line, at its left edge
    void loadPtx(const std::string& path);
    bool loadCuda(const std::string& path);
    static void highlight(CodeEditor* e, int line);
    const Document* m_doc = nullptr;
    CodeEditor* m_ptx;
    CodeEditor* m_cuda;
    QLabel* m_ptxHead;
    QLabel* m_cudaHead;
    QWidget* m_cudaColumn;             ///< the CUDA side: hidden for a module with no CUDA line info at all
    std::string m_ptxPath, m_cudaPath; ///< files loaded in the views
    std::string m_ptxStamp;            ///< size and time of m_ptxPath when read (changed on disk: read again)
    std::string m_cudaMissing;         ///< the `.file` name last not found
    int32_t m_instr = -2;              ///< instruction highlighted (-2: none yet)
    int m_ptxLine = 0, m_cudaLine = 0;
    int m_reads = 0;
};

} // namespace layoutscope::views
