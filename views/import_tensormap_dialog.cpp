#include "import_tensormap_dialog.hpp"

#include "layoutscope/tma/tensor_map_decode.hpp"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace layoutscope::views {

ImportTensorMapDialog::ImportTensorMapDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle("Import tensor map");
    setObjectName("importTensorMapDialog");
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto* help =
        new QLabel("Paste the 128 bytes of a CUtensorMap: 256 hex digits, or what cuda-gdb prints for "
                   "<tt>x/16xg &amp;map</tt> or <tt>x/32xw &amp;map</tt> (address prefixes allowed). "
                   "Or open the raw 128-byte blob.");
    help->setWordWrap(true);
    m_input = new QPlainTextEdit;
    m_input->setObjectName("tensorMapInput");
    m_input->setFont(mono);
    m_input->setPlaceholderText("0x7fffffffd9c0 <tmap>:  0x00007f9d6fe00000  0x0000000800006310 ...");
    auto* openBin = new QPushButton("Open .bin...");
    m_name = new QLineEdit("T");
    m_name->setMaximumWidth(120);
    m_name->setToolTip("The tensor map's name in the scenario");
    auto* row = new QHBoxLayout;
    row->addWidget(openBin);
    row->addStretch(1);
    row->addWidget(new QLabel("Name:"));
    row->addWidget(m_name);
    m_output = new QPlainTextEdit;
    m_output->setObjectName("tensorMapOutput");
    m_output->setReadOnly(true);
    m_output->setFont(mono);
    m_output->setMaximumHeight(110);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_insert = buttons->addButton("Insert into scenario", QDialogButtonBox::AcceptRole);
    m_insert->setEnabled(false);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(help);
    lay->addWidget(m_input, 1);
    lay->addLayout(row);
    lay->addWidget(new QLabel("Scenario directive:"));
    lay->addWidget(m_output);
    lay->addWidget(m_status);
    lay->addWidget(buttons);
    resize(720, 480);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_input, &QPlainTextEdit::textChanged, this, [this] {
        m_binary.clear();
        decodeText();
    });
    connect(m_name, &QLineEdit::textChanged, this, [this] { decodeText(); });
    connect(openBin, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, "Open a 128-byte CUtensorMap blob", {},
                                                       "Tensor map blobs (*.bin);;All files (*)");
        if (f.isEmpty()) return;
        QFile file(f);
        if (!file.open(QIODevice::ReadOnly)) return show({}, f + ": cannot be read");
        setBinary(file.read(4096));
    });
    decodeText();
}

void ImportTensorMapDialog::setInput(const QString& text) {
    m_input->setPlainText(text);
}

void ImportTensorMapDialog::setBinary(const QByteArray& bytes) {
    m_binary = bytes; // decoded instead of the text (an empty blob: the text again)
    decodeText();
}

QString ImportTensorMapDialog::status() const {
    return m_status->text();
}

void ImportTensorMapDialog::decodeText() {
    Result<TensorMapImage> image =
        m_binary.isEmpty()
            ? parseTensorMapText(m_input->toPlainText().toStdString())
            : tensorMapFromBinary(std::string_view(m_binary.constData(), size_t(m_binary.size())));
    if (m_binary.isEmpty() && m_input->toPlainText().trimmed().isEmpty())
        return show({}, "Waiting for 128 bytes.");
    if (!image) return show({}, QString::fromStdString(formatDiagnostic(image.error())));
    auto decoded = decodeTensorMap(*image);
    if (!decoded) return show({}, QString::fromStdString(formatDiagnostic(decoded.error())));
    const std::string name =
        m_name->text().trimmed().isEmpty() ? "T" : m_name->text().trimmed().toStdString();
    show(QString::fromStdString(tensorMapDirective(*decoded, name)),
         "Decoded: the directive re-encodes to the same 128 bytes.");
}

void ImportTensorMapDialog::show(const QString& directive, const QString& message) {
    m_directive = directive;
    m_output->setPlainText(directive);
    m_status->setText(message);
    m_insert->setEnabled(!directive.isEmpty());
}

} // namespace layoutscope::views
