#pragma once
/// askUser: a modal question with named buttons, answerable without a dialog for tests and scripted
/// runs: LAYOUTSCOPE_AUTO_ANSWER="ID=CHOICE,ID=CHOICE" (e.g. "recovery=restore,unsaved=discard")
/// answers question ID with the button named CHOICE (case-insensitive, "&" and "..." ignored).
/// Question ids: unsaved (Save/Discard/Cancel), recovery (Restore/Discard/Later), changed-on-disk
/// (Overwrite/Save As/Cancel), not-utf8 (Replace and save/Cancel), read-only (OK).
#include <QString>
#include <QStringList>

class QWidget;

namespace layoutscope::views {

/// Index of the chosen button in `choices`; -1 when the dialog is closed (Escape) or the automatic
/// answer names no choice. `escape` is the index that Escape picks (usually the Cancel button).
int askUser(QWidget* parent, const QString& id, const QString& title, const QString& text,
            const QStringList& choices, int defaultChoice, int escape);

/// The automatic answer to question `id` from LAYOUTSCOPE_AUTO_ANSWER (`id=choice,...`; a choice by its
/// label, or `#N` for the N-th), or empty.
[[nodiscard]] QString autoAnswer(const QString& id);

} // namespace layoutscope::views
