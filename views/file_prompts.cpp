#include "file_prompts.hpp"

#include <QMessageBox>
#include <QPushButton>

namespace layoutscope::views {

namespace {
QString bare(QString s) {
    return s.remove('&').remove("...").trimmed().toLower();
}
} // namespace

QString autoAnswer(const QString& id) {
    for (const QString& pair :
         qEnvironmentVariable("LAYOUTSCOPE_AUTO_ANSWER").split(',', Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf('=');
        if (eq > 0 && pair.left(eq).trimmed() == id) return pair.mid(eq + 1).trimmed();
    }
    return {};
}

int askUser(QWidget* parent, const QString& id, const QString& title, const QString& text,
            const QStringList& choices, int defaultChoice, int escape) {
    if (const QString a = autoAnswer(id); !a.isEmpty()) {
        for (int i = 0; i < choices.size(); ++i)
            if (bare(choices[i]) == bare(a)) return i;
        bool isIndex = false; // `#N`: the N-th choice (for labels with commas, e.g. C++ signatures)
        const int n = a.startsWith('#') ? a.mid(1).toInt(&isIndex) : -1;
        return isIndex && n >= 0 && n < choices.size() ? n : -1;
    }
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::NoButton, parent);
    box.setObjectName(QString("ask-%1").arg(id));
    std::vector<QPushButton*> buttons;
    for (const QString& c : choices) buttons.push_back(box.addButton(c, QMessageBox::ActionRole));
    if (defaultChoice >= 0 && defaultChoice < int(buttons.size()))
        box.setDefaultButton(buttons[size_t(defaultChoice)]);
    if (escape >= 0 && escape < int(buttons.size())) box.setEscapeButton(buttons[size_t(escape)]);
    box.exec();
    for (size_t i = 0; i < buttons.size(); ++i)
        if (box.clickedButton() == buttons[i]) return int(i);
    return -1;
}

} // namespace layoutscope::views
