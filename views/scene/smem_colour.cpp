#include "scene/smem_colour.hpp"

#include <algorithm>

namespace layoutscope::views {

const char* smemColourByName(SmemColourBy by) {
    switch (by) {
    case SmemColourBy::Source:
        return "source coordinate";
    case SmemColourBy::Instruction:
        return "instruction";
    case SmemColourBy::Value:
        return "byte value";
    case SmemColourBy::Bank:
        return "bank";
    }
    return "?";
}

Rgba8 bankColour(uint32_t bank) {
    // Hue steps of 3/8 turn between neighbours (coprime with 8): banks 0..7 get 8 distinct hues;
    // each group of 8 banks a different lightness.
    const float h = 45.0f * static_cast<float>((bank % 8) * 3 % 8); // hslToRgb takes degrees
    const float l = 0.38f + 0.11f * static_cast<float>((bank / 8) % 4);
    return hslToRgb(h, 0.75f, l);
}

Rgba8 instrColour(uint32_t instr) {
    const float turns = static_cast<float>(instr) * 0.618034f; // golden-ratio steps around the wheel
    return hslToRgb(360.0f * (turns - static_cast<float>(static_cast<int>(turns))), 0.7f, 0.55f);
}

Rgba8 valueColour(uint8_t v) {
    const float t = static_cast<float>(v) / 255.0f;
    // Dark blue (20, 24, 90) -> teal -> yellow (250, 230, 60), monotone in lightness.
    const auto mix = [](float a, float b, float u) { return static_cast<uint8_t>(a + (b - a) * u + 0.5f); };
    if (t < 0.5f) {
        const float u = t * 2.0f;
        return {mix(20, 30, u), mix(24, 150, u), mix(90, 140, u), 255};
    }
    const float u = (t - 0.5f) * 2.0f;
    return {mix(30, 250, u), mix(150, 230, u), mix(140, 60, u), 255};
}

void recolourSmem(SmemScene& s, SmemColourBy by, std::span<const uint8_t> bytes, const Trace& trace) {
    if (by == SmemColourBy::Source) return;
    for (size_t i = 0; i < s.texels.size(); ++i) {
        Rgba8& t = s.texels[i];
        if (!(t.a & kFlagWritten)) continue;
        Rgba8 c = t;
        switch (by) {
        case SmemColourBy::Source:
            break;
        case SmemColourBy::Instruction:
            if (i < s.moveOf.size() && s.moveOf[i] >= 0 && size_t(s.moveOf[i]) < trace.moves.size())
                c = instrColour(trace.moves[size_t(s.moveOf[i])].instr);
            break;
        case SmemColourBy::Value:
            if (i < bytes.size()) c = valueColour(bytes[i]);
            break;
        case SmemColourBy::Bank:
            c = bankColour(((s.window.base + static_cast<uint32_t>(i)) / 4) % 32);
            break;
        }
        t = Rgba8{c.r, c.g, c.b, t.a};
    }
}

void chunkSmem(SmemScene& s) {
    for (size_t c = 0; c + 16 <= s.texels.size(); c += 16) {
        const auto first = std::find_if(s.texels.begin() + static_cast<std::ptrdiff_t>(c),
                                        s.texels.begin() + static_cast<std::ptrdiff_t>(c + 16),
                                        [](const Rgba8& t) { return (t.a & kFlagWritten) != 0; });
        if (first == s.texels.begin() + static_cast<std::ptrdiff_t>(c + 16)) continue;
        const Rgba8 t = *first;
        std::fill_n(s.texels.begin() + static_cast<std::ptrdiff_t>(c), 16, t);
    }
}

} // namespace layoutscope::views
