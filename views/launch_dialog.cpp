#include "launch_dialog.hpp"
#include "app_settings.hpp"
#include "file_prompts.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <cstdlib>

namespace layoutscope::views {

namespace {
QLineEdit* lineField(QWidget* parent, const char* name, const QString& hint) {
    auto* e = new QLineEdit(parent);
    e->setObjectName(QString("launch_") + name);
    e->setPlaceholderText(hint);
    return e;
}

/// The launch a kernel starts from: one CTA of 128 threads, one line per parameter.
KernelLaunch defaultLaunch(const QString& ptxPath, const PtxModule& module, int entry) {
    KernelLaunch l;
    l.ptxPath = ptxPath.toStdString();
    l.entry = std::to_string(entry);
    l.grid = "1,1,1";
    l.block = "128,1,1";
    const auto entries = module.entries();
    if (entry >= 0 && size_t(entry) < entries.size()) l.argLines = defaultArgLines(*entries[size_t(entry)]);
    return l;
}
} // namespace

std::optional<KernelLaunch> rememberedLaunch(const QString& ptxPath) {
    const QVariantMap m = AppSettings().kernelLaunch(ptxPath);
    if (m.isEmpty()) return std::nullopt;
    KernelLaunch l;
    l.ptxPath = ptxPath.toStdString();
    l.entry = m.value("entry").toString().toStdString();
    l.grid = m.value("grid").toString().toStdString();
    l.block = m.value("block").toString().toStdString();
    l.cluster = m.value("cluster").toString().toStdString();
    l.cta = m.value("cta").toString().toStdString();
    l.dynamicSmem = m.value("dynamicSmem").toString().toStdString();
    for (const QString& a : m.value("args").toStringList()) l.argLines.push_back(a.toStdString());
    return l;
}

void rememberLaunch(const QString& ptxPath, const KernelLaunch& l) {
    QVariantMap m;
    m["entry"] = QString::fromStdString(l.entry);
    m["grid"] = QString::fromStdString(l.grid);
    m["block"] = QString::fromStdString(l.block);
    m["cluster"] = QString::fromStdString(l.cluster);
    m["cta"] = QString::fromStdString(l.cta);
    m["dynamicSmem"] = QString::fromStdString(l.dynamicSmem);
    QStringList args;
    for (const std::string& a : l.argLines) args << QString::fromStdString(a);
    m["args"] = args;
    AppSettings().saveKernelLaunch(ptxPath, m);
}

LaunchDialog::LaunchDialog(QWidget* parent, const QString& ptxPath, const PtxModule& module,
                           const QStringList& labels)
    : QDialog(parent), m_path(ptxPath), m_module(module) {
    setObjectName("ask-ptx-launch");
    setWindowTitle("Run a kernel of " + QFileInfo(ptxPath).fileName());
    auto* lay = new QVBoxLayout(this);
    auto* intro = new QLabel("The executor runs every thread of one CTA (or one cluster) of the kernel and "
                             "records every byte it moves (docs/exec.md). Options as layoutscope-cli exec "
                             "takes them.",
                             this);
    intro->setWordWrap(true);
    lay->addWidget(intro);
    auto* form = new QFormLayout;
    m_entry = new QComboBox(this);
    m_entry->setObjectName("launch_entry");
    m_entry->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_entry->setMinimumContentsLength(40);
    for (int i = 0; i < labels.size(); ++i) {
        m_entry->addItem(QString("#%1  %2").arg(i).arg(labels[i]), i);
        m_entry->setItemData(i, labels[i], Qt::ToolTipRole);
    }
    form->addRow("&Kernel (--entry):", m_entry);
    m_grid = lineField(this, "grid", "X[,Y[,Z]]");
    m_block = lineField(this, "block", "X[,Y[,Z]] threads");
    m_cluster = lineField(this, "cluster", "X[,Y[,Z]] (empty: no cluster)");
    m_cta = lineField(this, "cta", "X,Y,Z (empty: 0,0,0)");
    m_smem = lineField(this, "smem", "bytes (empty: 0)");
    form->addRow("&Grid:", m_grid);
    form->addRow("&Block:", m_block);
    form->addRow("C&luster:", m_cluster);
    form->addRow("&CTA to run:", m_cta);
    form->addRow("&Dynamic shared memory:", m_smem);
    lay->addLayout(form);
    lay->addWidget(
        new QLabel("Arguments, one option a line (--arg KEY=VALUE, --tensor NAME=SPEC; # comments):", this));
    m_args = new QPlainTextEdit(this);
    m_args->setObjectName("launch_args");
    m_args->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_args->setFont(QFont("monospace"));
    lay->addWidget(m_args, 1);
    m_error = new QLabel(this);
    m_error->setObjectName("launch_error");
    m_error->setWordWrap(true);
    m_error->setStyleSheet("QLabel { color: rgb(230, 60, 50); }");
    m_error->hide();
    lay->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText("&Run");
    QPushButton* scaffold = buttons->addButton("&Scaffold a scenario instead", QDialogButtonBox::ActionRole);
    scaffold->setObjectName("launch_scaffold");
    lay->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &LaunchDialog::tryAccept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(scaffold, &QPushButton::clicked, this, [this] {
        m_scaffold = true;
        accept();
    });
    connect(m_entry, &QComboBox::activated, this, &LaunchDialog::entryChanged);
    const auto remembered = rememberedLaunch(ptxPath);
    setLaunch(remembered ? *remembered : defaultLaunch(ptxPath, module, 0));
    resize(760, 560);
}

QLineEdit* LaunchDialog::field(const char* name) const {
    return findChild<QLineEdit*>(QString("launch_") + name);
}

void LaunchDialog::setLaunch(const KernelLaunch& l) {
    int idx = 0;
    const auto entries = m_module.entries();
    for (size_t i = 0; i < entries.size(); ++i)
        if (l.entry == std::to_string(i) || l.entry == entries[i]->name) idx = int(i);
    m_entry->setCurrentIndex(idx);
    m_grid->setText(QString::fromStdString(l.grid));
    m_block->setText(QString::fromStdString(l.block));
    m_cluster->setText(QString::fromStdString(l.cluster));
    m_cta->setText(QString::fromStdString(l.cta));
    m_smem->setText(QString::fromStdString(l.dynamicSmem));
    QStringList lines;
    for (const std::string& a : l.argLines) lines << QString::fromStdString(a);
    m_args->setPlainText(lines.join('\n'));
}

void LaunchDialog::entryChanged(int index) {
    const auto remembered = rememberedLaunch(m_path);
    const bool same = remembered && (remembered->entry == std::to_string(index));
    const KernelLaunch l = same ? *remembered : defaultLaunch(m_path, m_module, index);
    // Keep the launch shape typed so far; the parameter lines are the kernel's.
    QStringList lines;
    for (const std::string& a : l.argLines) lines << QString::fromStdString(a);
    m_args->setPlainText(lines.join('\n'));
}

KernelLaunch LaunchDialog::launch() const {
    KernelLaunch l;
    l.ptxPath = m_path.toStdString();
    const int i = m_entry->currentIndex();
    l.entry = std::to_string(std::max(0, i));
    l.entryLabel = m_entry->itemData(i, Qt::ToolTipRole).toString().toStdString();
    l.grid = m_grid->text().trimmed().toStdString();
    l.block = m_block->text().trimmed().toStdString();
    l.cluster = m_cluster->text().trimmed().toStdString();
    l.cta = m_cta->text().trimmed().toStdString();
    l.dynamicSmem = m_smem->text().trimmed().toStdString();
    for (const QString& a : m_args->toPlainText().split('\n')) l.argLines.push_back(a.toStdString());
    while (!l.argLines.empty() && l.argLines.back().find_first_not_of(" \t") == std::string::npos)
        l.argLines.pop_back();
    return l;
}

void LaunchDialog::tryAccept() {
    const KernelLaunch l = launch();
    const auto text = composeKernelScenario(l);
    if (!text) {
        m_error->setText(QString::fromStdString(text.error().message));
        m_error->show();
        return;
    }
    m_text = QString::fromStdString(*text);
    rememberLaunch(m_path, l);
    accept();
}

PtxOpenChoice askKernelLaunch(QWidget* parent, const QString& ptxPath, const PtxModule& module,
                              const QStringList& labels) {
    PtxOpenChoice c;
    const QString scripted = autoAnswer("ptx-launch").toLower();
    if (!scripted.isEmpty()) { // tests and scripted runs: no dialog
        if (scripted == "scaffold") c.kind = PtxOpenChoice::Scaffold;
        if (scripted != "run") return c;
        const auto remembered = rememberedLaunch(ptxPath);
        KernelLaunch l = remembered ? *remembered : defaultLaunch(ptxPath, module, 0);
        if (const int i = std::atoi(l.entry.c_str()); i >= 0 && i < labels.size())
            l.entryLabel = labels[i].toStdString();
        const auto text = composeKernelScenario(l);
        c.kind = PtxOpenChoice::Launch;
        if (text)
            c.scenarioText = QString::fromStdString(*text);
        else
            c.error = QString::fromStdString(text.error().message);
        return c;
    }
    LaunchDialog dlg(parent, ptxPath, module, labels);
    if (dlg.exec() != QDialog::Accepted) return c;
    c.kind = dlg.scaffoldChosen() ? PtxOpenChoice::Scaffold : PtxOpenChoice::Launch;
    c.scenarioText = dlg.scenarioText();
    return c;
}

} // namespace layoutscope::views
