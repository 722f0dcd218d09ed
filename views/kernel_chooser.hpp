#pragma once
/// KernelChooser: which kernel of a PTX module becomes a scenario. A list with a search field, for two
/// kernels or 10,000 (issue 25 item 3: a message box with one button per kernel never appeared for a
/// module with 10,000 entries). The list is a model view (one row per kernel, uniform heights), so it
/// opens and filters in time linear in the number of kernels.
#include <QDialog>
#include <QStringList>

class QLineEdit;
class QListView;
class QSortFilterProxyModel;
class QStringListModel;

namespace layoutscope::views {

class KernelChooser : public QDialog {
    Q_OBJECT
  public:
    /// `labels`: one per kernel (demangled names), in the module's order; `text` says what is asked.
    KernelChooser(QWidget* parent, const QString& text, const QStringList& labels);
    /// Show only the kernels whose label contains `text` (case-insensitive); the first shown is current.
    void setFilter(const QString& text);
    /// Kernels shown after the filter.
    [[nodiscard]] int shownCount() const;
    /// Index in `labels` of the current kernel (-1: none shown).
    [[nodiscard]] int chosen() const;
    [[nodiscard]] QLineEdit* searchField() const { return m_search; }
    [[nodiscard]] QListView* listView() const { return m_view; }

  private:
    QLineEdit* m_search = nullptr;
    QListView* m_view = nullptr;
    QStringListModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
};

/// Ask which kernel (question id "ptx-entry"; LAYOUTSCOPE_AUTO_ANSWER "ptx-entry=#N" or a label answers it
/// without a dialog, file_prompts.hpp). Index in `labels`, or -1 when cancelled.
int chooseKernel(QWidget* parent, const QString& text, const QStringList& labels);

} // namespace layoutscope::views
