#pragma once
/// LaunchDialog: File > Open of a `.ptx` asks how to launch one of its kernels (issue 22 item 4): the
/// entry (from the module's kernels), grid, block, cluster, CTA, dynamic shared memory, and one line
/// per exec option (`--arg KEY=VALUE`, `--tensor NAME=SPEC`; first one `--arg NAME=` per parameter of
/// the kernel, by name, its type in a comment). OK composes the `kernel` scenario
/// (composeKernelScenario) or says what is wrong; the launch is remembered per .ptx path (AppSettings)
/// and offered next time. "Scaffold instead" keeps the older path (a hand-editable scenario).
#include "scene/kernel_launch.hpp"

#include <QDialog>
#include <QStringList>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace layoutscope::views {

class LaunchDialog : public QDialog {
    Q_OBJECT
  public:
    /// `ptxPath` absolute; `module` its module (entries() non-empty); `labels` one per entry (demangled).
    LaunchDialog(QWidget* parent, const QString& ptxPath, const PtxModule& module, const QStringList& labels);
    /// The launch as the fields say now.
    [[nodiscard]] KernelLaunch launch() const;
    /// Fill the fields from `l` (its entry by index or name; unknown: the first).
    void setLaunch(const KernelLaunch& l);
    /// The scenario text once accepted (composeKernelScenario of launch()).
    [[nodiscard]] const QString& scenarioText() const { return m_text; }
    /// The user chose "Scaffold instead".
    [[nodiscard]] bool scaffoldChosen() const { return m_scaffold; }
    [[nodiscard]] QComboBox* entryBox() const { return m_entry; }
    [[nodiscard]] QPlainTextEdit* argsEdit() const { return m_args; }
    [[nodiscard]] QLabel* errorLabel() const { return m_error; }
    [[nodiscard]] QLineEdit* field(const char* name) const; ///< "grid", "block", "cluster", "cta", "smem"
    /// Compose; on success remember the launch and accept, else show the error and stay open.
    void tryAccept();

  private:
    void entryChanged(int index); ///< a kernel without a remembered launch gets its parameter lines
    QString m_path;
    const PtxModule& m_module;
    QComboBox* m_entry;
    QLineEdit *m_grid, *m_block, *m_cluster, *m_cta, *m_smem;
    QPlainTextEdit* m_args;
    QLabel* m_error;
    QString m_text;
    bool m_scaffold = false;
};

/// One label per kernel of `module`: its demangled C++ name where nvcc mangled it (main_window_kernel.cpp).
[[nodiscard]] QStringList kernelLabels(const PtxModule& module);

/// The launch remembered for `ptxPath` (absolute), if any.
[[nodiscard]] std::optional<KernelLaunch> rememberedLaunch(const QString& ptxPath);
void rememberLaunch(const QString& ptxPath, const KernelLaunch& l);

/// What File > Open does with a .ptx: run a kernel (the composed scenario text), scaffold a scenario,
/// or nothing.
struct PtxOpenChoice {
    enum Kind { Launch, Scaffold, Cancel } kind = Cancel;
    QString scenarioText; ///< Launch: the `kernel` scenario
    QString error;        ///< Launch by LAYOUTSCOPE_AUTO_ANSWER whose launch does not compose
};
/// Ask (question id "ptx-launch": LAYOUTSCOPE_AUTO_ANSWER `ptx-launch=run` takes the remembered launch,
/// else the default one, without a dialog; `=scaffold`, `=cancel`).
[[nodiscard]] PtxOpenChoice askKernelLaunch(QWidget* parent, const QString& ptxPath, const PtxModule& module,
                                            const QStringList& labels);

} // namespace layoutscope::views
