#include "kernel_chooser.hpp"

#include "file_prompts.hpp"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStringListModel>
#include <QVBoxLayout>

namespace layoutscope::views {

KernelChooser::KernelChooser(QWidget* parent, const QString& text, const QStringList& labels)
    : QDialog(parent) {
    setObjectName("ask-ptx-entry");
    setWindowTitle("Scaffold a kernel");
    auto* lay = new QVBoxLayout(this);
    auto* label = new QLabel(text, this);
    label->setWordWrap(true);
    lay->addWidget(label);
    m_search = new QLineEdit(this);
    m_search->setObjectName("kernelSearch");
    m_search->setPlaceholderText("Search kernels (part of the name)");
    m_search->setClearButtonEnabled(true);
    lay->addWidget(m_search);
    m_model = new QStringListModel(labels, this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view = new QListView(this);
    m_view->setObjectName("kernelList");
    m_view->setUniformItemSizes(true); // 10,000 rows lay out without measuring each
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setModel(m_proxy);
    lay->addWidget(m_view, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText("&Scaffold");
    lay->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_view, &QListView::activated, this, &QDialog::accept); // double-click or Enter on a row
    connect(m_search, &QLineEdit::textChanged, this, &KernelChooser::setFilter);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (chosen() >= 0) accept();
    });
    setFilter({});
    resize(640, 420);
}

void KernelChooser::setFilter(const QString& text) {
    if (m_search->text() != text) m_search->setText(text); // emits textChanged: comes back here
    m_proxy->setFilterFixedString(text);
    if (m_proxy->rowCount() > 0) m_view->setCurrentIndex(m_proxy->index(0, 0));
}

int KernelChooser::shownCount() const {
    return m_proxy->rowCount();
}

int KernelChooser::chosen() const {
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() && m_proxy->rowCount() > 0 ? m_proxy->mapToSource(i).row() : -1;
}

int chooseKernel(QWidget* parent, const QString& text, const QStringList& labels) {
    if (!autoAnswer("ptx-entry").isEmpty()) // scripted: the same answers as a question with buttons
        return askUser(parent, "ptx-entry", "Scaffold a kernel", text, labels, 0, -1);
    KernelChooser dlg(parent, text, labels);
    return dlg.exec() == QDialog::Accepted ? dlg.chosen() : -1;
}

} // namespace layoutscope::views
