#include "scene/decomp_scene.hpp"

#include "layoutscope/core/number_formats.hpp"

#include <cstdio>

namespace layoutscope::views {

static Rgba8 fieldColour(int e, bool one) {
    return hslToRgb(300.0f * float(e) / 15.0f, 0.8f, one ? 0.68f : 0.30f);
}

DecompScene decompScene(CpDecompress kind, const std::array<uint8_t, 16>& src) {
    DecompScene s;
    s.kind = kind == CpDecompress::None ? CpDecompress::B8x16_B4x16_p64 : kind;
    s.src = src;
    s.containers = decompressChunk(s.kind, src);
    const uint32_t bits = s.fieldBits();
    for (uint32_t i = 0; i < 128; ++i) s.srcField[i] = i < 16 * bits ? int(i / bits) : -1;
    for (uint32_t e = 0; e < 16; ++e) {
        s.codes[e] = packedElement(src.data(), bits, e);
        for (uint32_t k = 0; k < 8; ++k) s.dstSrcBit[8 * e + k] = decompressSourceBit(s.kind, e, k);
    }
    s.texels.assign(128 * 8, Rgba8{kBackground.r, kBackground.g, kBackground.b, 0});
    for (uint32_t i = 0; i < 128; ++i) {
        const bool v = (src[i / 8] >> (i % 8)) & 1u;
        Rgba8 c = s.srcField[i] >= 0 ? fieldColour(s.srcField[i], v)
                                     : (v ? Rgba8{150, 150, 158, 255} : Rgba8{80, 80, 88, 255});
        c.a = uint8_t(kFlagWritten | (s.srcField[i] < 0 ? kFlagFill : 0));
        s.texels[i] = c;
        const bool dv = (s.containers[i / 8] >> (i % 8)) & 1u;
        const int sb = s.dstSrcBit[i];
        Rgba8 d = sb >= 0 ? fieldColour(s.srcField[size_t(sb)], dv) : Rgba8{40, 40, 46, 255};
        d.a = kFlagWritten;
        s.texels[7 * 128 + i] = d;
    }
    return s;
}

static std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

std::string decompFieldText(const DecompScene& s, uint32_t e) {
    char code[16];
    const uint32_t c = s.codes[e % 16];
    if (s.kind == CpDecompress::B8x16_B6x16_p32) {
        std::snprintf(code, sizeof code, "0x%02x", c);
        return std::string("e2m3 ") + code + " = " + num(decodeNarrow(NarrowFormat::E2M3, c)) +
               " | e3m2 = " + num(decodeNarrow(NarrowFormat::E3M2, c));
    }
    std::snprintf(code, sizeof code, "0x%x", c);
    return std::string("e2m1 ") + code + " = " + num(decodeNarrow(NarrowFormat::E2M1, c));
}

std::optional<uint32_t> decompMoveAt(const Document& doc, uint32_t step) {
    if (!doc.hasTrace()) return std::nullopt;
    const Trace& t = doc.trace();
    std::optional<uint32_t> first, best;
    // Only instructions that write Tensor Memory (tcgen05.cp) decompress; an instruction's moves all
    // go to one kind of memory, so its first move tells (no pass over every TMA move).
    for (const TraceInstr& in : t.instrs) {
        if (in.endMove <= in.firstMove || t.moves[in.firstMove].dst.space != MemSpace::TensorMemory) continue;
        for (uint64_t i = in.firstMove; i < in.endMove && i < t.moves.size(); ++i) {
            const ByteMove m = t.moves[i];
            if (m.transform != Transform::Decompress4to8 && m.transform != Transform::Decompress6to8)
                continue;
            if (!first) first = uint32_t(i);
            if (m.step >= step) return best ? best : first;
            best = uint32_t(i);
        }
    }
    return best ? best : first;
}

} // namespace layoutscope::views
