#pragma once
/// The timeline's keys, in one table: MainWindow::keyPressEvent handles them (so the scenario editor
/// and lists keep their arrows), the transport buttons' tooltips and Help > Keyboard shortcuts list
/// them from here, so none of the three can go stale.
#include "playback.hpp"

#include <QKeySequence>
#include <QString>
#include <span>

class QKeyEvent;

namespace layoutscope::views {

struct PlaybackKey {
    QKeySequence keys;
    const char* what;
    void (Playback::*slot)();
};

/// Space play/pause, Left/Right one step (byte move), Shift+Left/Right one instruction, Home/End.
[[nodiscard]] std::span<const PlaybackKey> playbackKeys();
/// Run the slot bound to `e` (true: handled).
bool handlePlaybackKey(Playback& pb, const QKeyEvent& e);
/// "Left" for stepBack (the shortcut of a slot in native text; empty when none).
[[nodiscard]] QString playbackKeyText(void (Playback::*slot)());
/// "what (keys)" for a tooltip.
[[nodiscard]] QString playbackTip(const QString& what, void (Playback::*slot)());

} // namespace layoutscope::views
