#include "playback_keys.hpp"

#include <QKeyEvent>

namespace layoutscope::views {

std::span<const PlaybackKey> playbackKeys() {
    static const PlaybackKey keys[] = {
        {QKeySequence(Qt::Key_Space), "Play / pause", &Playback::togglePlay},
        {QKeySequence(Qt::Key_Right), "Step forward one step (byte move)", &Playback::stepForward},
        {QKeySequence(Qt::Key_Left), "Step back one step (byte move)", &Playback::stepBack},
        {QKeySequence(Qt::SHIFT | Qt::Key_Right), "Step forward one instruction", &Playback::instrForward},
        {QKeySequence(Qt::SHIFT | Qt::Key_Left), "Step back one instruction", &Playback::instrBack},
        {QKeySequence(Qt::Key_Home), "To the first step", &Playback::toStart},
        {QKeySequence(Qt::Key_End), "To the last step", &Playback::toEnd},
    };
    return keys;
}

bool handlePlaybackKey(Playback& pb, const QKeyEvent& e) {
    const Qt::KeyboardModifiers mods = e.modifiers() & ~Qt::KeypadModifier;
    const QKeySequence pressed(QKeyCombination(mods, Qt::Key(e.key())));
    for (const PlaybackKey& k : playbackKeys())
        if (k.keys == pressed) {
            (pb.*k.slot)();
            return true;
        }
    return false;
}

QString playbackKeyText(void (Playback::*slot)()) {
    for (const PlaybackKey& k : playbackKeys())
        if (k.slot == slot) return k.keys.toString(QKeySequence::NativeText);
    return {};
}

QString playbackTip(const QString& what, void (Playback::*slot)()) {
    const QString keys = playbackKeyText(slot);
    return keys.isEmpty() ? what : QString("%1 (%2)").arg(what, keys);
}

} // namespace layoutscope::views
