#pragma once
// File > Import tensor map (issue 13 item 3): paste the 128 CUtensorMap bytes (hex, cuda-gdb x/16xg or
// x/32xw output) or open a raw .bin; the decoded `tensormap` directive is shown and can be inserted into the
// scenario at the cursor. The decoding is the CLI's (`tensormap decode`, tensor_map_decode.hpp).
#include <QDialog>

class QPlainTextEdit;
class QLineEdit;
class QPushButton;
class QLabel;

namespace layoutscope::views {

class ImportTensorMapDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ImportTensorMapDialog(QWidget* parent = nullptr);
    /// The directive decoded from the current input ("" while the input does not decode).
    [[nodiscard]] QString directive() const { return m_directive; }
    /// Decode `text` as the input box would (tests drive the dialog through this).
    void setInput(const QString& text);
    /// Decode a raw 128-byte blob (what "Open .bin..." reads).
    void setBinary(const QByteArray& bytes);
    [[nodiscard]] QString status() const;

  private:
    void decodeText();
    void show(const QString& directive, const QString& error);

    QPlainTextEdit* m_input = nullptr;
    QPlainTextEdit* m_output = nullptr;
    QLineEdit* m_name = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_insert = nullptr;
    QString m_directive;
    QByteArray m_binary; ///< set by setBinary: decoded instead of the text until the text changes
};

} // namespace layoutscope::views
